/* spmv.c: OpenMP CSR SpMV and fused residual.  Rows are split into one
 * contiguous block per thread with about equal (nonzeros + rows), found by
 * binary search on rowptr, so no schedule state is stored with the matrix. */
#include "core/internal.h"

#include <math.h>
#include <omp.h>

#define PAR_MIN_NNZ 20000
#define MAX_THREADS 1024

hpls_int hpls_k_row_split(const hpls_csr *A, int t, int p)
{
    /* weight of rows [0, i) is rowptr[i] + i */
    hpls_int n = A->nrows;
    hpls_int target = (A->nnz + n) * t / p;
    hpls_int lo = 0, hi = n;
    while (lo < hi) {
        hpls_int mid = lo + (hi - lo) / 2;
        if (A->rowptr[mid] + mid < target)
            lo = mid + 1;
        else
            hi = mid;
    }
    return t == p ? n : lo;
}

static int nthreads_for(const hpls_csr *A)
{
    int p = A->nnz + A->nrows < PAR_MIN_NNZ ? 1 : omp_get_max_threads();
    return p > MAX_THREADS ? MAX_THREADS : p;
}

void hpls_k_spmv(const hpls_csr *A, const hpls_real *x, hpls_real *y)
{
    const hpls_int *rp = A->rowptr;
    const hpls_idx *ci = A->colind;
    const hpls_real *v = A->val;
#pragma omp parallel num_threads(nthreads_for(A))
    {
        int t = omp_get_thread_num(), p = omp_get_num_threads();
        hpls_int lo = hpls_k_row_split(A, t, p), hi = hpls_k_row_split(A, t + 1, p);
        for (hpls_int i = lo; i < hi; i++) {
            double s = 0.0;
            for (hpls_int k = rp[i]; k < rp[i + 1]; k++)
                s += v[k] * x[ci[k]];
            y[i] = s;
        }
    }
}

double hpls_k_residual(const hpls_csr *A, const hpls_real *b, const hpls_real *x, hpls_real *r)
{
    const hpls_int *rp = A->rowptr;
    const hpls_idx *ci = A->colind;
    const hpls_real *v = A->val;
    double part[MAX_THREADS];
    int np = 1;
#pragma omp parallel num_threads(nthreads_for(A))
    {
        int t = omp_get_thread_num(), p = omp_get_num_threads();
        hpls_int lo = hpls_k_row_split(A, t, p), hi = hpls_k_row_split(A, t + 1, p);
        double ss = 0.0;
        for (hpls_int i = lo; i < hi; i++) {
            double s = b[i];
            for (hpls_int k = rp[i]; k < rp[i + 1]; k++)
                s -= v[k] * x[ci[k]];
            r[i] = s;
            ss += s * s;
        }
        part[t] = ss;
#pragma omp single
        np = p;
    }
    double ss = 0.0;
    for (int t = 0; t < np; t++)
        ss += part[t];
    if (isfinite(ss) && ss > 1e-280 && ss < 1e280)
        return sqrt(ss);
    return hpls_k_nrm2(A->nrows, r);
}
