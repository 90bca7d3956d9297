/* pjg_sweep.c: the PJG sweep and its residual (Ahmadi et al., IEEE TPDS 32(7),
 * 2021, Eqs. 3-5, Alg. 1).  Blocks run in order (Gauss-Seidel between blocks);
 * inside a block every row reads only the old values of the block (Jacobi), so
 * the rows of a block are independent and split statically among threads: no
 * locks, two barriers per block.  A block too small to pay for the barriers runs
 * on one thread; the arithmetic per row is the same either way, so results do not
 * depend on the thread count.
 *
 * The residual after a sweep: row i (in block B) solved
 *   a_ii x_i^new = b_i - sum_{j in earlier blocks} a_ij x_j^new - sum_{j in B or later, j != i} a_ij x_j^old,
 * so b_i - (A x^new)_i = sum_{j in B or later, j != i} a_ij (x_j^old - x_j^new):
 * only the entries at or right of the block, times dx, instead of a whole SpMV. */
#include "core/internal.h"

#include <math.h>
#include <omp.h>

/* Multiply-adds a thread should get per block before the barriers pay off. */
#define PJG_PAR_WORK 32768
/* Entries ahead whose x is prefetched: scattered columns (gas) would otherwise
 * make every far gather wait for memory, as in kernels/cpu/spmv.c. */
#define PF_X 256

/* xhat_i = (b_i - sum_{j != i} a_ij x_j) / a_ii for row i */
static inline double row_update(const hpls_csr *A, const hpls_dense *Ad, const hpls_real *dinv,
                                hpls_int i, const hpls_real *b, const hpls_real *x)
{
    double s = b[i];
    if (A) {
        hpls_int pf_end = A->nnz - PF_X;
        for (hpls_int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++) {
            if (p < pf_end)
                __builtin_prefetch(x + A->colind[p + PF_X], 0, 0);
            if (A->colind[p] != i)
                s -= A->val[p] * x[A->colind[p]];
        }
    } else {
        /* two branch-free ranges around the diagonal (they vectorise), same order */
        const hpls_real *a = Ad->data + i * Ad->ncols;
        for (hpls_int j = 0; j < i; j++)
            s -= a[j] * x[j];
        for (hpls_int j = i + 1; j < Ad->ncols; j++)
            s -= a[j] * x[j];
    }
    return s * dinv[i];
}

void hpls_k_pjg_sweep(const hpls_csr *A, const hpls_dense *Ad, const hpls_real *dinv,
                      hpls_int nblocks, const hpls_int *ptr, const hpls_int *idx,
                      const hpls_real *b, hpls_real *x, hpls_real *dx)
{
    hpls_int n = A ? A->nrows : Ad->nrows;
    double row_work = A ? (double)(A->nnz + n) / (double)(n ? n : 1) : (double)n;
    double block_work = nblocks ? row_work * (double)n / (double)nblocks : 0.0;
    int p = omp_get_max_threads();
    if (block_work < (double)p * PJG_PAR_WORK)
        p = 1;
    if (p == 1) { /* the same arithmetic without the worksharing constructs */
        for (hpls_int k = 0; k < nblocks; k++) {
            for (hpls_int q = ptr[k]; q < ptr[k + 1]; q++)
                dx[idx[q]] = row_update(A, Ad, dinv, idx[q], b, x);
            for (hpls_int q = ptr[k]; q < ptr[k + 1]; q++) {
                hpls_int i = idx[q];
                double xnew = dx[i];
                dx[i] = x[i] - xnew;
                x[i] = xnew;
            }
        }
        return;
    }
    /* dx holds x_new first, then x_old - x_new once the block is done */
#pragma omp parallel num_threads(p)
    for (hpls_int k = 0; k < nblocks; k++) {
#pragma omp for schedule(static)
        for (hpls_int q = ptr[k]; q < ptr[k + 1]; q++)
            dx[idx[q]] = row_update(A, Ad, dinv, idx[q], b, x);
#pragma omp for schedule(static)
        for (hpls_int q = ptr[k]; q < ptr[k + 1]; q++) {
            hpls_int i = idx[q];
            double xnew = dx[i];
            dx[i] = x[i] - xnew;
            x[i] = xnew;
        }
    }
}

double hpls_k_pjg_residual(const hpls_csr *A, const hpls_dense *Ad, const hpls_int *blockof,
                           const hpls_int *lo, const hpls_real *dx, hpls_real *r)
{
    hpls_int n = A ? A->nrows : Ad->nrows;
#pragma omp parallel for schedule(static) num_threads(n > 4096 ? omp_get_max_threads() : 1)
    for (hpls_int i = 0; i < n; i++) {
        double s = 0.0;
        if (A) {
            hpls_int p = A->rowptr[i], end = A->rowptr[i + 1];
            if (lo) { /* columns are sorted: enter the row at column lo[i] */
                hpls_int h = end;
                while (p < h) {
                    hpls_int mid = p + (h - p) / 2;
                    if (A->colind[mid] < lo[i])
                        p = mid + 1;
                    else
                        h = mid;
                }
            }
            for (hpls_int pf_end = A->nnz - PF_X; p < end; p++) {
                if (p < pf_end)
                    __builtin_prefetch(dx + A->colind[p + PF_X], 0, 0);
                hpls_int j = A->colind[p];
                if (j != i && (lo || blockof[j] >= blockof[i]))
                    s += A->val[p] * dx[j];
            }
        } else {
            const hpls_real *a = Ad->data + i * Ad->ncols;
            if (lo) { /* contiguous blocks: the ranges [lo_i, i) and (i, n) */
                for (hpls_int j = lo[i]; j < i; j++)
                    s += a[j] * dx[j];
                for (hpls_int j = i + 1; j < Ad->ncols; j++)
                    s += a[j] * dx[j];
            } else {
                for (hpls_int j = 0; j < Ad->ncols; j++)
                    if (j != i && blockof[j] >= blockof[i])
                        s += a[j] * dx[j];
            }
        }
        r[i] = s;
    }
    return hpls_k_nrm2(n, r);
}
