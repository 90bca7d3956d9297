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
 *   sweep_syncfree_lanes: the same with a work-group of lanes per row (a
 *     warp's worth on a GPU; Wang, Liu 2022's layout): the lanes wait for
 *     and read up to LSZ of the row's x_j at once, the latency a row pays,
 *     and one lane subtracts the products in the order of the entries, so
 *     x keeps the host's bits.
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

/* Lane 0 takes the next row's ticket for the group: every lane gets it. */
DEVICE idx_t group_ticket(GLOBAL u64_t *flag, idx_t n, LOCAL idx_t *ticket)
{
    if (LID == 0)
        ticket[0] = (idx_t)atomic_add_u64(&flag[n], 1);
    BARRIER_ALL();
    idx_t k = ticket[0];
    BARRIER_ALL(); /* every lane has it before lane 0 takes another */
    return k;
}

/* The same, a row per work-group of LSZ lanes (LSZ <= WG).  The row's
 * products T_ij x_j are gathered LSZ at a time (each lane waits for its own
 * row j), then lane 0 subtracts them one by one from acc: the host's order
 * and rounding (a product rounds alike wherever it is formed).  What lives
 * across a barrier is in local memory or the same for every lane, and the
 * loops exit at their heads (PoCL's work-group loops mishandled a return
 * inside them); BARRIER_ALL also orders lane 0's x_i before the lanes that
 * read it in a later row. */
KERNEL void sweep_syncfree_lanes(idx_t n, int upper, int has_row, GLOBAL const idx_t *row,
                                 GLOBAL const idx_t *lo, GLOBAL const idx_t *hi,
                                 GLOBAL const int *col, GLOBAL const double *val,
                                 GLOBAL const double *bscale, GLOBAL const double *dinv,
                                 int scaled, GLOBAL const double *b, GLOBAL double *x,
                                 GLOBAL u64_t *flag, u64_t epoch)
{
    LOCAL_ARRAY(double, prod, WG);
    LOCAL_ARRAY(double, acc, 1);
    LOCAL_ARRAY(idx_t, ticket, 1);
    idx_t k = group_ticket(flag, n, ticket);
    while (k < n) {
        idx_t s = upper && !has_row ? n - 1 - k : k, i = has_row ? row[s] : s;
        idx_t end = hi[s];
        if (LID == 0) /* b may be x: lane 0 alone reads b_i */
            acc[0] = scaled & 1 ? bscale[i] * b[i] : b[i];
        for (idx_t p0 = lo[s]; p0 < end; p0 += LSZ) {
            idx_t p = p0 + LID;
            if (p < end) {
                idx_t j = col[p];
                ready_wait(flag, n, j, epoch);
                prod[LID] = val[p] * atomic_load_f64(&x[j]);
            }
            BARRIER_ALL();
            if (LID == 0)
                for (idx_t q = 0; q < LSZ && p0 + q < end; q++)
                    acc[0] -= prod[q];
            BARRIER_ALL();
        }
        if (LID == 0) {
            atomic_store_f64(&x[i], scaled & 2 ? acc[0] * dinv[i] : acc[0]);
            GLOBAL_FENCE();
            atomic_add_u64(&flag[i], 1);
        }
        k = group_ticket(flag, n, ticket);
    }
}
