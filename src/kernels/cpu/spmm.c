/* spmm.c: the block product of many right-hand sides, R = B - A X (or
 * Y = A X) for k columns stored one after another (column j at j*ld), A read
 * once for every HPLS_SPMM_COLS columns instead of once per column.  Rows are
 * split as the SpMV splits them; each entry of a row is summed left to right
 * for each column, exactly as the single-vector kernels, so column j equals
 * hpls_k_residual on column j bit for bit. */
#include "core/internal.h"

#include <omp.h>

#define PAR_MIN_NNZ 20000

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
    for (hpls_int j0 = 0; j0 < k; j0 += HPLS_SPMM_COLS) {
        int kc = (int)(k - j0 < HPLS_SPMM_COLS ? k - j0 : HPLS_SPMM_COLS);
        double part[HPLS_MAX_THREADS][HPLS_SPMM_COLS];
        int np = 1;
#pragma omp parallel num_threads(nt)
        {
            int t = omp_get_thread_num(), p = omp_get_num_threads();
            for (int c = 0; c < kc; c++)
                part[t][c] = 0.0;
            rows_block(A, kc, B ? B + j0 * ld : NULL, X + j0 * ld, R + j0 * ld, ld,
                       hpls_k_row_split(A, t, p), hpls_k_row_split(A, t + 1, p), part[t]);
#pragma omp single
            np = p;
        }
        for (int c = 0; c < kc; c++) { /* the threads' partial sums in thread order */
            double s = 0.0;
            for (int t = 0; t < np; t++)
                s += part[t][c];
            ss[j0 + c] = s;
        }
    }
}
