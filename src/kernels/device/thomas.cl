/* SPDX-License-Identifier: BSD-3-Clause */
/* thomas.cl: x = T^{-1} b by the Thomas algorithm (src/direct/thomas.c's
 * solve) with the factors the host made, one work-item per block of `block`
 * rows: a batch of independent systems (BHISA's blocks of T, btridiag's),
 * or one system whose recurrences one item runs (no parallelism inside a
 * system: g-Spike is the device's solver for one large T).  The operations
 * are thomas.c's in its order, so x has the host's values.  x may be b. */
KERNEL void tri_thomas(idx_t n, idx_t block, GLOBAL const double *dl, GLOBAL const double *cp,
                       GLOBAL const double *pinv, GLOBAL const double *b, GLOBAL double *x)
{
    idx_t nb = (n + block - 1) / block;
    for (idx_t k = GID; k < nb; k += GSZ) {
        idx_t lo = k * block, hi = n - lo < block ? n : lo + block;
        double y = b[lo] * pinv[lo];
        x[lo] = y;
        for (idx_t i = lo + 1; i < hi; i++) { /* forward: L y = b */
            y = (b[i] - dl[i] * y) * pinv[i];
            x[i] = y;
        }
        for (idx_t i = hi - 2; i >= lo; i--) { /* backward: U x = y */
            y = x[i] - cp[i] * y;
            x[i] = y;
        }
    }
}

/* The refinement's residual of thomas and cr (src/direct/refine.c's
 * hpls_trefine_residual, its expressions): r = b - T x, and per work-group
 * the largest componentwise backward error |r_i| / (|T||x| + |b|)_i into
 * part[GRP] (NaN once a row's is NaN), max-reduced by red_final */
KERNEL void tri_resid_part(idx_t n, GLOBAL const double *dl, GLOBAL const double *d,
                           GLOBAL const double *du, GLOBAL const double *b, GLOBAL const double *x,
                           GLOBAL double *r, GLOBAL double *part)
{
    LOCAL_ARRAY(double, sh, WG);
    const double safe = 1.1125369292536007e-307; /* dgtrfs's safe1, 5 * 2^-1022 */
    double berr = 0.0;
    FOR_ALL(i, n)
    {
        double t = d[i] * x[i], a = fabs(d[i] * x[i]);
        if (i > 0) {
            t += dl[i] * x[i - 1];
            a += fabs(dl[i] * x[i - 1]);
        }
        if (i < n - 1) {
            t += du[i] * x[i + 1];
            a += fabs(du[i] * x[i + 1]);
        }
        double ri = b[i] - t;
        r[i] = ri;
        a += fabs(b[i]);
        double e = a > safe ? fabs(ri) / a
                   : fabs(ri) > 0.0 || !(a > 0.0) ? (fabs(ri) + safe) / (a + safe)
                                                 : 0.0;
        berr = isnan(e) || e > berr ? e : berr;
    }
    berr = group_reduce(sh, berr, RED_MAX);
    if (LID == 0)
        part[GRP] = berr;
}
