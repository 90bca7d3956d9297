/* SPDX-License-Identifier: BSD-3-Clause */
/* sweep.cl: the sparse triangular sweeps of dilu, dic and ilu0 on a device
 * (Wang, Liu 2022, Sec. 2.2.4): x_i = (bscale_i b_i - sum_j T_ij x_j) dinv_i
 * for the rows of one triangle, stored by slots (kernels/cpu/sptrsv.h's
 * hpls_sweep: slot s holds row row[s], or row s; its entries lo[s] ..
 * hi[s]).  Every row is summed by one work-item in the order of its
 * entries, as the host's sweeps do, so the device's x has the host's bits.
 *
 *   sweep_level: the rows of one level set (Alg. 4), a work-item each; one
 *     launch per level, the launches in order (the queue is in order).
 *   sweep_syncfree: one launch (Alg. 6); a work-group of one item takes rows
 *     from the atomic ticket in dependency order and waits on the ready flags
 *     of the rows it reads.  Those rows had smaller tickets, so they were
 *     claimed by work-groups already running (a group claims only once it
 *     runs): a group never waits on a row nobody holds, nor on itself, and
 *     the sweep ends with any number of groups resident.  One item a group
 *     also keeps a SIMD device's lanes from waiting on each other (a row per
 *     warp would be the GPU's layout: the sum then becomes a reduction).
 * Flags count sweeps: row i is done in sweep `epoch` when flag[i] reaches
 * it, so no flag is reset between sweeps; the ticket (flag[n]) is reset by
 * the host. */

DEVICE void sweep_row(idx_t s, idx_t i, GLOBAL const idx_t *lo, GLOBAL const idx_t *hi,
                      GLOBAL const int *col, GLOBAL const double *val, GLOBAL const double *bscale,
                      GLOBAL const double *dinv, int scaled, GLOBAL const double *b,
                      GLOBAL double *x)
{
    double v = scaled & 1 ? bscale[i] * b[i] : b[i];
    for (idx_t p = lo[s]; p < hi[s]; p++)
        v -= val[p] * x[col[p]];
    x[i] = scaled & 2 ? v * dinv[i] : v;
}

/* the slots first .. first+count of a level (row given: the slots are in
 * level order; else order maps them); scaled: 1 bscale, 2 dinv */
KERNEL void sweep_level(idx_t first, idx_t count, int has_row, GLOBAL const idx_t *order,
                        GLOBAL const idx_t *lo, GLOBAL const idx_t *hi, GLOBAL const int *col,
                        GLOBAL const double *val, GLOBAL const double *bscale,
                        GLOBAL const double *dinv, int scaled, GLOBAL const double *b,
                        GLOBAL double *x)
{
    FOR_ALL(k, count)
    {
        idx_t off = first + k, i = order[off];
        sweep_row(has_row ? off : i, i, lo, hi, col, val, bscale, dinv, scaled, b, x);
    }
}

/* upper without a row map: natural rows are done from n-1 down */
KERNEL void sweep_syncfree(idx_t n, int upper, int has_row, GLOBAL const idx_t *row,
                           GLOBAL const idx_t *lo, GLOBAL const idx_t *hi, GLOBAL const int *col,
                           GLOBAL const double *val, GLOBAL const double *bscale,
                           GLOBAL const double *dinv, int scaled, GLOBAL const double *b,
                           GLOBAL double *x, GLOBAL u64_t *flag, u64_t epoch)
{
    for (;;) {
        idx_t k = (idx_t)atomic_add_u64(&flag[n], 1);
        if (k >= n)
            return;
        idx_t s = upper && !has_row ? n - 1 - k : k, i = has_row ? row[s] : s;
        double v = scaled & 1 ? bscale[i] * b[i] : b[i];
        for (idx_t p = lo[s]; p < hi[s]; p++) {
            idx_t j = col[p];
            ready_wait(flag, n, j, epoch); /* row j was claimed before row i: its group runs */
            v -= val[p] * atomic_load_f64(&x[j]);
        }
        atomic_store_f64(&x[i], scaled & 2 ? v * dinv[i] : v);
        GLOBAL_FENCE(); /* x_i before the flag that publishes it */
        atomic_add_u64(&flag[i], 1);
    }
}
