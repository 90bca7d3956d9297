/* SPDX-License-Identifier: BSD-3-Clause */
/* spmm.c: the block product of many right-hand sides, R = B - A X (or
 * Y = A X) for k columns stored one after another (column j at j*ld), A read
 * once for every block of columns (up to HPLS_SPMM_COLS, as many as the last-level
 * cache holds: block_cols) instead of once per column.  Rows are
 * split as the SpMV splits them; each entry of a row is summed left to right
 * for each column, exactly as the single-vector kernels, so column j equals
 * hpls_k_residual on column j bit for bit. */
#include "core/internal.h"
#include "kernels/cpu/team.h"
#include "la/qtree.h"

#include <math.h>
#include <threads.h>

#define PAR_MIN_NNZ 20000

/* The last-level cache's size, read once (sysfs, else sysconf). */
static long llc_bytes;
static once_flag llc_once = ONCE_FLAG_INIT;
static void read_llc(void)
{
    llc_bytes = hpls_qtree_cache_bytes(3);
}

long hpls_k_llc_bytes(void)
{
    call_once(&llc_once, read_llc);
    return llc_bytes;
}

/* Rows sampled for the bandwidth estimate of block_cols. */
enum { BW_SAMPLES = 64 };

/* Columns per block.  A block of w columns gathers x from w columns 8 n bytes
 * apart, and an entry of x is reused by the rows within the bandwidth of its
 * own, so the block keeps about w * 8 * min(n, 2 bw + 1) bytes of X live
 * (bw estimated from BW_SAMPLES rows spread over A).  w is the largest of 8,
 * 4, 2 for which that fits in a quarter of the last-level cache (the rest for
 * the streams of A, B and R), else 1: column by column.  On gas n = 1e6 (its
 * couplings span all of x) 8 columns of 8 MB did not fit a 32 MB L3, and at 2
 * threads a column cost 1.42x (2 columns 1.55x) its time alone
 * (bench/results/many_rhs.md); poisson3d 100^3 (bw 1e4: 160 KB a column)
 * keeps its 8, at 0.38x. */
static int block_cols(const hpls_csr *A)
{
    long llc = hpls_k_llc_bytes();
    hpls_int n = A->nrows, bw = 0;
    for (int k = 0; k < BW_SAMPLES && n > 0; k++) {
        hpls_int i = (n - 1) * k / (BW_SAMPLES - 1);
        for (hpls_int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++) {
            hpls_int d = A->colind[p] > i ? A->colind[p] - i : i - A->colind[p];
            bw = d > bw ? d : bw;
        }
    }
    double column = 8.0 * fmin((double)n, 2.0 * (double)bw + 1.0);
    for (int w = HPLS_SPMM_COLS; w >= 2; w /= 2)
        if (w * column <= 0.25 * (double)llc)
            return w;
    return 1;
}

/* Columns [j0, j0 + kc) of rows [lo, hi); ss[c] += the squares of column j0+c. */
static void rows_block(const hpls_csr *A, int kc, const hpls_real *B, const hpls_real *X,
                       hpls_real *R, hpls_int ld, hpls_int lo, hpls_int hi, double *ss)
{
    const hpls_int *rp = A->rowptr;
    const hpls_idx *ci = A->colind;
    const hpls_real *v = A->val;
    for (hpls_int i = lo; i < hi; i++) {
        double acc[HPLS_SPMM_COLS];
        for (int c = 0; c < kc; c++)
            acc[c] = B ? B[c * ld + i] : 0.0;
        for (hpls_int p = rp[i]; p < rp[i + 1]; p++) {
            double a = v[p];
            const hpls_real *xc = X + ci[p];
            if (B)
                for (int c = 0; c < kc; c++)
                    acc[c] -= a * xc[c * ld];
            else
                for (int c = 0; c < kc; c++)
                    acc[c] += a * xc[c * ld];
        }
        for (int c = 0; c < kc; c++) {
            R[c * ld + i] = acc[c];
            ss[c] += acc[c] * acc[c];
        }
    }
}

void hpls_k_residual_block(int nt, const hpls_csr *A, hpls_int k, const hpls_real *B,
                           const hpls_real *X, hpls_real *R, hpls_int ld, double *ss)
{
    if (A->nnz + A->nrows < PAR_MIN_NNZ)
        nt = 1;
    int w = k > 1 ? block_cols(A) : 1;
    for (hpls_int j0 = 0; j0 < k; j0 += w) {
        int kc = (int)(k - j0 < w ? k - j0 : w);
        double part[HPLS_MAX_THREADS][HPLS_SPMM_COLS];
        int np = 1;
        HPLS_TEAM(nt, t, p, {
            for (int c = 0; c < kc; c++)
                part[t][c] = 0.0;
            rows_block(A, kc, B ? B + j0 * ld : NULL, X + j0 * ld, R + j0 * ld, ld,
                       hpls_k_row_split(A, t, p), hpls_k_row_split(A, t + 1, p), part[t]);
            if (t == 0)
                np = p;
        });
        for (int c = 0; c < kc; c++) { /* the threads' partial sums in thread order */
            double s = 0.0;
            for (int t = 0; t < np; t++)
                s += part[t][c];
            ss[j0 + c] = s;
        }
    }
}
