/* hisa_update.c: the fused vector step of HISA (iter/hisa.c): with y = S x^m and
 * y' = S x^{m+1}, the true residual of x^{m+1} is y - y', and the next right-hand
 * side is b' = b - y'.  One pass over four vectors instead of three passes. */
#include "core/internal.h"

#include <math.h>
#include <omp.h>

#define MAX_THREADS 1024

double hpls_k_hisa_update(hpls_int n, const hpls_real *b, const hpls_real *y,
                          const hpls_real *ynew, hpls_real *bp)
{
    double part[MAX_THREADS];
    int np = 1;
#pragma omp parallel num_threads(n < 8192 ? 1 : (omp_get_max_threads() < MAX_THREADS ? omp_get_max_threads() : MAX_THREADS))
    {
        int t = omp_get_thread_num(), p = omp_get_num_threads();
        hpls_int lo = n * t / p, hi = n * (t + 1) / p;
        double ss = 0.0;
        for (hpls_int i = lo; i < hi; i++) {
            double r = y[i] - ynew[i];
            ss += r * r;
            bp[i] = b[i] - ynew[i];
        }
        part[t] = ss;
#pragma omp single
        np = p;
    }
    double ss = 0.0;
    for (int t = 0; t < np; t++)
        ss += part[t];
    return sqrt(ss);
}
