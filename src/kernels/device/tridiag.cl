/* SPDX-License-Identifier: BSD-3-Clause */
/* tridiag.cl: x = T^{-1} b for a tridiagonal T cut into blocks of `block`
 * rows with no coupling between blocks (BHISA's T, Li, Yang, Li 2016,
 * Sec. 5.2 and Alg. 3; HISA's T when it fits one block): one work-group per
 * block, the block's equations in local memory, cyclic reduction (Sec. 5.1,
 * Alg. 2: Hockney's CR without pivoting, for diagonally dominant T).
 *
 *   forward, s = 1, 2, 4, ... while 2s <= m: each equation i = 2s-1 (mod 2s)
 *     takes its neighbours i-s and i+s out: it then couples to i-2s and i+2s;
 *   backward, s = the largest power of two <= m down to 1: unknown
 *     i = s-1 (mod 2s) from x[i-s] and x[i+s], solved at higher levels.
 * At each level the equations written and those read are disjoint sets, so
 * one barrier per level orders them.  Row i of T reads dl[i] x[i-1] + d[i]
 * x[i] + du[i] x[i+1]; a block's dl at its first row and du at its last are
 * taken as 0. */

/* TB (dialect.h, from sizes.h): rows of a block at most, five arrays of TB
 * doubles in local memory */

KERNEL void tri_cr(idx_t n, idx_t block, GLOBAL const double *dl, GLOBAL const double *d,
                   GLOBAL const double *du, GLOBAL const double *rhs, GLOBAL double *x)
{
    LOCAL_ARRAY(double, a, TB);
    LOCAL_ARRAY(double, b, TB);
    LOCAL_ARRAY(double, c, TB);
    LOCAL_ARRAY(double, r, TB);
    LOCAL_ARRAY(double, y, TB);
    idx_t nb = (n + block - 1) / block;
    for (idx_t blk = GRP; blk < nb; blk += NGRP) {
        idx_t lo = blk * block, m = n - lo < block ? n - lo : block;
        for (idx_t i = LID; i < m; i += LSZ) {
            a[i] = i == 0 ? 0.0 : dl[lo + i];
            b[i] = d[lo + i];
            c[i] = i == m - 1 ? 0.0 : du[lo + i];
            r[i] = rhs[lo + i];
        }
        BARRIER();
        idx_t s = 1;
        for (; 2 * s <= m; s *= 2) {
            for (idx_t i = 2 * s - 1 + 2 * s * LID; i < m; i += 2 * s * LSZ) {
                idx_t l = i - s, h = i + s;
                double al = -a[i] / b[l], ga = h < m ? -c[i] / b[h] : 0.0;
                b[i] = b[i] + al * c[l] + (h < m ? ga * a[h] : 0.0);
                r[i] = r[i] + al * r[l] + (h < m ? ga * r[h] : 0.0);
                a[i] = al * a[l];
                c[i] = h < m ? ga * c[h] : 0.0;
            }
            BARRIER();
        }
        for (; s >= 1; s /= 2) {
            for (idx_t i = s - 1 + 2 * s * LID; i < m; i += 2 * s * LSZ) {
                double v = r[i];
                if (i >= s)
                    v -= a[i] * y[i - s];
                if (i + s < m)
                    v -= c[i] * y[i + s];
                y[i] = v / b[i];
            }
            BARRIER();
        }
        for (idx_t i = LID; i < m; i += LSZ)
            x[lo + i] = y[i];
        BARRIER(); /* the next block reuses the arrays */
    }
}
