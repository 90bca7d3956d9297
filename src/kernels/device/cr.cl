/* SPDX-License-Identifier: BSD-3-Clause */
/* cr.cl: cyclic reduction of one system in global memory, a launch per level
 * (src/direct/cr.c's solve with the coefficients the host reduced once, HISA
 * paper Sec. 5.1, Alg. 2), for a system larger than a work-group's local
 * memory holds (tridiag.cl's tri_cr takes those up to TB rows).  Level l's
 * right-hand side (then solution) is at bl + lo: level 0 is x itself, the
 * others a work array; the factors of level l start at off.  Every item
 * computes cr.c's expression for its equation, so x has the host's bits. */

/* Step 2 at one level of m equations: bn[k] = b_{2k+1} - k1 b_{2k} - k2 b_{2k+2} */
KERNEL void cr_reduce(idx_t m, idx_t off, GLOBAL const double *k1, GLOBAL const double *k2,
                      GLOBAL const double *bl, idx_t lo, GLOBAL double *bn, idx_t no)
{
    FOR_ALL(k, m / 2)
    {
        idx_t i = 2 * k + 1;
        bn[no + k] = bl[lo + i] - k1[off + i] * bl[lo + i - 1] -
                     (i + 1 < m ? k2[off + i] * bl[lo + i + 1] : 0.0);
    }
}

/* the last level's one equation: x = b / d */
KERNEL void cr_top(idx_t off, GLOBAL const double *dinv, GLOBAL double *xl, idx_t lo)
{
    if (GID == 0)
        xl[lo] *= dinv[off];
}

/* Step 3 at one level of m equations, the level above solved in xn: the even
 * unknowns from their neighbours, the odd ones copied down */
KERNEL void cr_back(idx_t m, idx_t off, GLOBAL const double *l, GLOBAL const double *u,
                    GLOBAL const double *dinv, GLOBAL double *xl, idx_t lo, GLOBAL const double *xn,
                    idx_t no)
{
    FOR_ALL(i, m)
    {
        if (i % 2 == 0) {
            double s = xl[lo + i];
            if (i > 0)
                s -= l[off + i] * xn[no + i / 2 - 1];
            if (i + 1 < m)
                s -= u[off + i] * xn[no + i / 2];
            xl[lo + i] = s * dinv[off + i];
        } else {
            xl[lo + i] = xn[no + i / 2];
        }
    }
}
