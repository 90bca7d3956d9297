/* dense.c: OpenMP kernels on the dense row-major matrix: y = A x and the fused
 * residual.  Rows are split statically; each row's sum runs left to right. */
#include "core/internal.h"

#include <math.h>
#include <omp.h>

#define MAX_THREADS 1024

static int nthreads_for(hpls_int n)
{
    int p = n < 64 ? 1 : omp_get_max_threads();
    return p > MAX_THREADS ? MAX_THREADS : p;
}

void hpls_k_gemv(const hpls_dense *A, const hpls_real *x, hpls_real *y)
{
    const hpls_int n = A->nrows, m = A->ncols;
#pragma omp parallel for schedule(static) num_threads(nthreads_for(n))
    for (hpls_int i = 0; i < n; i++) {
        const hpls_real *a = A->data + i * m;
        double s = 0.0;
        for (hpls_int j = 0; j < m; j++)
            s += a[j] * x[j];
        y[i] = s;
    }
}

double hpls_k_dense_residual(const hpls_dense *A, const hpls_real *b, const hpls_real *x,
                             hpls_real *r)
{
    const hpls_int n = A->nrows, m = A->ncols;
    double part[MAX_THREADS];
    int np = 1;
#pragma omp parallel num_threads(nthreads_for(n))
    {
        int t = omp_get_thread_num(), p = omp_get_num_threads();
        double ss = 0.0;
        for (hpls_int i = n * t / p; i < n * (t + 1) / p; i++) {
            const hpls_real *a = A->data + i * m;
            double s = b[i];
            for (hpls_int j = 0; j < m; j++)
                s -= a[j] * x[j];
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
    return isfinite(ss) && ss < 1e280 && ss > 1e-280 ? sqrt(ss) : hpls_k_nrm2(n, r);
}
