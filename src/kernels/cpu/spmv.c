/* spmv.c: OpenMP CSR SpMV and fused residual.  Rows are split into one
 * contiguous block per thread with about equal (nonzeros + rows), found by
 * binary search on rowptr, so no schedule state is stored with the matrix.
 *
 * Each row is summed left to right, exactly as the reference.  Software
 * prefetch runs ahead of the loop (figures: bench/results/kernels.md):
 *  - val and colind PF_STREAM entries ahead and rowptr PF_ROWS rows ahead, once
 *    a row: one core's hardware prefetcher does not run far enough ahead to
 *    reach the triad's bandwidth on these streams;
 *  - x at the column PF_X entries ahead, which turns scattered gathers from
 *    latency-bound into bandwidth-bound (gas n=1e6 k=2, one thread: 22-31 -> 4-5 ms),
 *    unless a sample of rows shows a stencil (each row's columns are the
 *    previous row's plus one): then x is read in streams the hardware already
 *    prefetches, and the extra instructions only slow the loop. */
#include "core/internal.h"

#include <omp.h>

#define PAR_MIN_NNZ 20000
#define PF_X 256       /* entries ahead whose x is prefetched */
#define PF_STREAM 2048 /* entries ahead whose val and colind are prefetched */
#define PF_ROWS 256    /* rows ahead whose rowptr is prefetched */
#define SAMPLE_ROWS 64 /* rows sampled to recognise a stencil */
_Static_assert(PF_X <= PF_STREAM, "the prefetch of x reads colind PF_X entries ahead");

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

static int nthreads_for(int nt, const hpls_csr *A)
{
    return A->nnz + A->nrows < PAR_MIN_NNZ ? 1 : nt;
}

/* Whether the rows [lo, hi) look like a stencil: in at least 3/4 of the
 * sampled rows the columns are those of the row before, shifted by one. */
static int is_stencil(const hpls_csr *A, hpls_int lo, hpls_int hi)
{
    const hpls_int *rp = A->rowptr;
    const hpls_idx *ci = A->colind;
    hpls_int step = (hi - lo) / SAMPLE_ROWS + 1, samples = 0, shifted = 0;
    for (hpls_int i = lo + 1; i < hi; i += step) {
        hpls_int a = rp[i - 1], b = rp[i], len = b - a;
        int same = rp[i + 1] - b == len;
        for (hpls_int j = 0; j < len && same; j++)
            same = ci[b + j] == ci[a + j] + 1;
        samples++;
        shifted += same;
    }
    return samples > 0 && 4 * shifted >= 3 * samples;
}

/* s -/+= row i of A times x, entry by entry from the left (sub, pf, pfx are
 * constants after inlining: no branch is left in the loop). */
static inline double row_acc(const hpls_csr *A, const hpls_real *x, hpls_int i, double s, int sub,
                             int pf, int pfx)
{
    const hpls_idx *ci = A->colind;
    const hpls_real *v = A->val;
    hpls_int k = A->rowptr[i], e = A->rowptr[i + 1];
    if (pf) {
        __builtin_prefetch(v + k + PF_STREAM, 0, 0);
        __builtin_prefetch(ci + k + PF_STREAM, 0, 0);
        __builtin_prefetch(A->rowptr + i + PF_ROWS, 0, 0);
    }
    for (; k < e; k++) {
        if (pfx)
            __builtin_prefetch(x + ci[k + PF_X], 0, 0);
        double prod = v[k] * x[ci[k]];
        s = sub ? s - prod : s + prod;
    }
    return s;
}

/* One row of y = A x (b == NULL) or y = b - A x. */
static inline double row_of(const hpls_csr *A, const hpls_real *x, const hpls_real *b, hpls_int i,
                            int pf, int pfx)
{
    return b ? row_acc(A, x, i, b[i], 1, pf, pfx) : row_acc(A, x, i, 0.0, 0, pf, pfx);
}

/* Rows [lo, hi): y = A x (b == NULL) or y = b - A x.  Returns the sum of the
 * squares of y when asked (sq), else 0.  Rows whose prefetches would reach past
 * the end of the arrays run without them. */
static inline double rows(const hpls_csr *A, const hpls_real *x, const hpls_real *b, hpls_real *y,
                          hpls_int lo, hpls_int hi, int sq)
{
    const hpls_int *rp = A->rowptr;
    hpls_int last = A->nnz - PF_STREAM, last_row = A->nrows - PF_ROWS;
    double ss = 0.0;
    hpls_int i = lo;
    if (is_stencil(A, lo, hi)) {
        for (; i < hi && i < last_row && rp[i + 1] <= last; i++) {
            double s = row_of(A, x, b, i, 1, 0);
            y[i] = s;
            if (sq)
                ss += s * s;
        }
    } else {
        for (; i < hi && i < last_row && rp[i + 1] <= last; i++) {
            double s = row_of(A, x, b, i, 1, 1);
            y[i] = s;
            if (sq)
                ss += s * s;
        }
    }
    for (; i < hi; i++) {
        double s = row_of(A, x, b, i, 0, 0);
        y[i] = s;
        if (sq)
            ss += s * s;
    }
    return ss;
}

void hpls_k_spmv(int nt, const hpls_csr *A, const hpls_real *x, hpls_real *y)
{
#pragma omp parallel num_threads(nthreads_for(nt, A))
    {
        int t = omp_get_thread_num(), p = omp_get_num_threads();
        rows(A, x, NULL, y, hpls_k_row_split(A, t, p), hpls_k_row_split(A, t + 1, p), 0);
    }
}

double hpls_k_residual(int nt, const hpls_csr *A, const hpls_real *b, const hpls_real *x,
                       hpls_real *r)
{
    double part[HPLS_MAX_THREADS];
    int np = 1;
#pragma omp parallel num_threads(nthreads_for(nt, A))
    {
        int t = omp_get_thread_num(), p = omp_get_num_threads();
        part[t] = rows(A, x, b, r, hpls_k_row_split(A, t, p), hpls_k_row_split(A, t + 1, p), 1);
#pragma omp single
        np = p;
    }
    double ss = 0.0;
    for (int t = 0; t < np; t++)
        ss += part[t];
    return ss;
}
