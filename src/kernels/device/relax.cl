/* SPDX-License-Identifier: BSD-3-Clause */
/* relax.cl: the relaxation sweeps of gs, sor, ssor and of precond ssor on a
 * device, row by row in the arithmetic and order of kernels/cpu/sor_sweep.c,
 * so that x has the host's bits.  With A = L + D + U and xo = x before the
 * sweep:
 *   RELAX_SOR_FWD   s = b_i - L_i x - U_i xo,  x_i = s / a_ii (w = 1), else
 *                   x_i = (1 - w) xo_i + w s / a_ii: the lower-triangular solve
 *                   (D/w + L) x = b - U xo - (1 - 1/w) D xo  (Saad, Sec. 4.1)
 *   RELAX_SOR_BWD   s = b_i - L_i xo - U_i x, the same update, from n-1 down
 *   RELAX_SSOR_FWD  z_i = (r_i - w L_i z) / a_ii          (D + wL) y = r
 *   RELAX_SSOR_BWD  z_i = (a_ii z_i - w U_i z) / a_ii     (D + wU) z = D y
 * (1 / a_ii is dinv_i, multiplied as the host does; SSOR divides as the host's
 * hpls_k_ssor_solve does).  A row's terms are summed left to right, L's
 * before U's.  SOR reads the old values from the copy xo: a row of a later
 * level set may already have overwritten x_j when row i reads it.
 *
 * The schedules are sweep.cl's (Wang, Liu 2022): relax_level, one launch per
 * level set of L (of U backward), a work-item a row (Alg. 4); relax_syncfree,
 * one launch whose work-groups of one item take rows from an atomic ticket in
 * dependency order and wait on the ready flags of the rows they read (Alg.
 * 6; sweep.cl says why that cannot deadlock); its one group: the serial
 * sweep.  Flags count sweeps (a row is done in sweep `epoch` when its flag
 * reaches it), so none is reset; the host resets the ticket (flag[n]). */

enum { RELAX_SOR_FWD, RELAX_SOR_BWD, RELAX_SSOR_FWD, RELAX_SSOR_BWD };

/* s minus the terms of entries lo .. hi-1 with the values v (c_p = a_p, or
 * w a_p for ssor: the host's omega * v[p] * z[j]) */
DEVICE double relax_terms(double s, idx_t lo, idx_t hi, GLOBAL const int *ci,
                          GLOBAL const double *val, int ssor, double w, GLOBAL const double *v)
{
    for (idx_t p = lo; p < hi; p++)
        s -= (ssor ? w * val[p] : val[p]) * v[ci[p]];
    return s;
}

/* the same with values other work-groups write during the sweep: each read
 * waits for its row's flag to reach epoch (rows claimed before this one) */
DEVICE double relax_terms_ready(double s, idx_t lo, idx_t hi, GLOBAL const int *ci,
                                GLOBAL const double *val, int ssor, double w, GLOBAL double *x,
                                GLOBAL u64_t *flag, idx_t n, u64_t epoch)
{
    for (idx_t p = lo; p < hi; p++) {
        idx_t j = ci[p];
        ready_wait(flag, n, j, epoch); /* row j was claimed before this row: its group runs */
        s -= (ssor ? w * val[p] : val[p]) * atomic_load_f64(&x[j]);
    }
    return s;
}

/* Row i by mode; sync: the syncfree schedule (ready flags), else a level's */
DEVICE void relax_row(int mode, idx_t i, GLOBAL const idx_t *rp, GLOBAL const int *ci,
                      GLOBAL const double *val, GLOBAL const idx_t *dp, GLOBAL const double *dinv,
                      double w, GLOBAL const double *b, GLOBAL double *x, GLOBAL const double *xo,
                      int sync, GLOBAL u64_t *flag, idx_t n, u64_t epoch)
{
    int fwd = mode == RELAX_SOR_FWD || mode == RELAX_SSOR_FWD, ssor = mode >= RELAX_SSOR_FWD;
    idx_t d = dp[i];
    /* ssor backward starts from its own z_i: other groups read x atomically
     * during a syncfree sweep, so this read is atomic there too */
    double xi0 = mode != RELAX_SSOR_BWD ? 0.0 : sync ? atomic_load_f64(&x[i]) : x[i];
    double s = mode == RELAX_SSOR_BWD ? xi0 * val[d] : b[i];
    if (mode != RELAX_SSOR_BWD) /* L's terms: new values forward, old backward */
        s = !fwd   ? relax_terms(s, rp[i], d, ci, val, ssor, w, xo)
            : sync ? relax_terms_ready(s, rp[i], d, ci, val, ssor, w, x, flag, n, epoch)
                   : relax_terms(s, rp[i], d, ci, val, ssor, w, x);
    if (mode != RELAX_SSOR_FWD) /* U's terms: old values forward, new backward */
        s = fwd    ? relax_terms(s, d + 1, rp[i + 1], ci, val, ssor, w, xo)
            : sync ? relax_terms_ready(s, d + 1, rp[i + 1], ci, val, ssor, w, x, flag, n, epoch)
                   : relax_terms(s, d + 1, rp[i + 1], ci, val, ssor, w, x);
    double xi = ssor ? s / val[d] : w == 1.0 ? s * dinv[i] : (1.0 - w) * xo[i] + w * s * dinv[i];
    if (!sync) {
        x[i] = xi;
        return;
    }
    atomic_store_f64(&x[i], xi);
    GLOBAL_FENCE(); /* x_i before the flag that publishes it */
    atomic_add_u64(&flag[i], 1);
}

/* the rows order[first .. first+count) of one level set, a work-item each */
KERNEL void relax_level(int mode, idx_t first, idx_t count, GLOBAL const idx_t *order,
                        GLOBAL const idx_t *rp, GLOBAL const int *ci, GLOBAL const double *val,
                        GLOBAL const idx_t *dp, GLOBAL const double *dinv, double w,
                        GLOBAL const double *b, GLOBAL double *x, GLOBAL const double *xo)
{
    FOR_ALL(k, count)
    {
        relax_row(mode, order[first + k], rp, ci, val, dp, dinv, w, b, x, xo, 0, (GLOBAL u64_t *)x,
                  0, 0);
    }
}

/* every row, from the ticket: k-th claimed row k forward, n-1-k backward */
KERNEL void relax_syncfree(int mode, idx_t n, GLOBAL const idx_t *rp, GLOBAL const int *ci,
                           GLOBAL const double *val, GLOBAL const idx_t *dp,
                           GLOBAL const double *dinv, double w, GLOBAL const double *b,
                           GLOBAL double *x, GLOBAL const double *xo, GLOBAL u64_t *flag,
                           u64_t epoch)
{
    int fwd = mode == RELAX_SOR_FWD || mode == RELAX_SSOR_FWD;
    for (;;) {
        idx_t k = (idx_t)atomic_add_u64(&flag[n], 1);
        if (k >= n)
            return;
        relax_row(mode, fwd ? k : n - 1 - k, rp, ci, val, dp, dinv, w, b, x, xo, 1, flag, n, epoch);
    }
}

/* The true residual after a sweep (hpls_k_triangle_spmv's order): with dx =
 * xo - x (x_old - x_new), r_i = dscale a_ii dx_i + sum_{T_i} a_ij dx_j, T the
 * strictly upper (upper) or lower part of A, and the partial sums of r_i^2.
 * After a forward SOR sweep b - A x = (U + (1 - 1/w) D) dx (sor_sweep.c). */
KERNEL void relax_residual_part(idx_t n, GLOBAL const idx_t *rp, GLOBAL const int *ci,
                                GLOBAL const double *val, GLOBAL const idx_t *dp, int upper,
                                double dscale, GLOBAL const double *xo, GLOBAL const double *x,
                                GLOBAL double *r, GLOBAL double *part)
{
    LOCAL_ARRAY(double, sh, WG);
    double ss = 0.0;
    FOR_ALL(i, n)
    {
        idx_t d = dp[i], lo = upper ? d + 1 : rp[i], hi = upper ? rp[i + 1] : d;
        double s = dscale * val[d] * (xo[i] - x[i]);
        for (idx_t p = lo; p < hi; p++)
            s += val[p] * (xo[ci[p]] - x[ci[p]]);
        r[i] = s;
        ss += s * s;
    }
    ss = group_reduce(sh, ss, RED_SUM);
    if (LID == 0)
        part[GRP] = ss;
}
