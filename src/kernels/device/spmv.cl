/* SPDX-License-Identifier: BSD-3-Clause */
/* spmv.cl: CSR y = A x and r = b - A x on a device (the dialect of dialect.h).
 * Two mappings of rows to work-items (Bell & Garland 2009, "CSR scalar" and
 * "CSR vector"): a row per work-item, which sums a row left to right as the
 * ref backend does (same bits), and VW lanes per row, which read a long row's
 * entries side by side (coalesced on a GPU) and add the lanes in a tree.
 * The backend picks by mean row length (kernels/opencl). */

#ifndef VW
#define VW 8 /* lanes per row of the vector kernels: a power of two <= WG */
#endif

KERNEL void csr_spmv_scalar(idx_t n, GLOBAL const idx_t *rp, GLOBAL const int *ci,
                            GLOBAL const double *val, GLOBAL const double *x, GLOBAL double *y)
{
    FOR_ALL(i, n)
    {
        double s = 0.0;
        for (idx_t k = rp[i]; k < rp[i + 1]; k++)
            s += val[k] * x[ci[k]];
        y[i] = s;
    }
}

/* r = b - A x row by row, and the partial sums of r_i^2 */
KERNEL void csr_residual_scalar(idx_t n, GLOBAL const idx_t *rp, GLOBAL const int *ci,
                                GLOBAL const double *val, GLOBAL const double *b,
                                GLOBAL const double *x, GLOBAL double *r, GLOBAL double *part)
{
    LOCAL_ARRAY(double, s, WG);
    double ss = 0.0;
    FOR_ALL(i, n)
    {
        double t = b[i];
        for (idx_t k = rp[i]; k < rp[i + 1]; k++)
            t -= val[k] * x[ci[k]];
        r[i] = t;
        ss += t * t;
    }
    ss = group_reduce(s, ss, RED_SUM);
    if (LID == 0)
        part[GRP] = ss;
}

/* WG / VW rows per group and step; every item runs the same number of steps
 * (the barriers of the lane tree are reached by the whole group). */
KERNEL void csr_spmv_vector(idx_t n, GLOBAL const idx_t *rp, GLOBAL const int *ci,
                            GLOBAL const double *val, GLOBAL const double *x, GLOBAL double *y)
{
    LOCAL_ARRAY(double, s, WG);
    idx_t lane = LID % VW;
    for (idx_t row0 = GRP * (WG / VW); row0 < n; row0 += NGRP * (WG / VW)) {
        idx_t i = row0 + LID / VW;
        double v = 0.0;
        if (i < n)
            for (idx_t k = rp[i] + lane; k < rp[i + 1]; k += VW)
                v += val[k] * x[ci[k]];
        s[LID] = v;
        BARRIER();
        for (idx_t h = VW / 2; h > 0; h >>= 1) {
            if (lane < h)
                s[LID] += s[LID + h];
            BARRIER();
        }
        if (lane == 0 && i < n)
            y[i] = s[LID];
    }
}

/* r = b - r (r holding A x) and the partial sums of r_i^2: the vector
 * residual's second pass */
KERNEL void b_minus_part(idx_t n, GLOBAL const double *b, GLOBAL double *r, GLOBAL double *part)
{
    LOCAL_ARRAY(double, s, WG);
    double ss = 0.0;
    FOR_ALL(i, n)
    {
        double t = b[i] - r[i];
        r[i] = t;
        ss += t * t;
    }
    ss = group_reduce(s, ss, RED_SUM);
    if (LID == 0)
        part[GRP] = ss;
}
