/* blas1.c: OpenMP vector kernels.  Static partitions by index; reductions keep
 * one partial per thread and add them in thread order, so a result is
 * bit-for-bit repeatable for a fixed thread count. */
#include "core/internal.h"

#include <math.h>
#include <omp.h>

/* Below this length a kernel runs on one thread: forking costs more. */
#define PAR_MIN 8192

int hpls_k_threads(void) { return omp_get_max_threads(); }

static int nthreads_for(hpls_int n) { return n < PAR_MIN ? 1 : omp_get_max_threads(); }

/* [lo, hi) of thread t among p for n items */
static void span(hpls_int n, int t, int p, hpls_int *lo, hpls_int *hi)
{
    *lo = n * t / p;
    *hi = n * (t + 1) / p;
}

#define MAX_THREADS 1024

double hpls_k_dot(hpls_int n, const hpls_real *x, const hpls_real *y)
{
    double part[MAX_THREADS];
    int p = nthreads_for(n);
    if (p > MAX_THREADS)
        p = MAX_THREADS;
#pragma omp parallel num_threads(p)
    {
        int t = omp_get_thread_num(), q = omp_get_num_threads();
        hpls_int lo, hi;
        span(n, t, q, &lo, &hi);
        double s = 0.0;
        for (hpls_int i = lo; i < hi; i++)
            s += x[i] * y[i];
        part[t] = s;
#pragma omp single
        p = q;
    }
    double s = 0.0;
    for (int t = 0; t < p; t++)
        s += part[t];
    return s;
}

/* Scaled sum of squares: no overflow for huge entries, no underflow for tiny ones. */
double hpls_k_nrm2(hpls_int n, const hpls_real *x)
{
    double s = hpls_k_dot(n, x, x);
    if (isfinite(s) && s > 1e-280 && s < 1e280)
        return sqrt(s);
    double amax = 0.0;
    for (hpls_int i = 0; i < n; i++)
        amax = fmax(amax, fabs(x[i]));
    if (amax == 0.0 || !isfinite(amax))
        return amax;
    double t = 0.0;
    for (hpls_int i = 0; i < n; i++) {
        double v = x[i] / amax;
        t += v * v;
    }
    return amax * sqrt(t);
}

void hpls_k_copy(hpls_int n, const hpls_real *x, hpls_real *y)
{
#pragma omp parallel for schedule(static) num_threads(nthreads_for(n))
    for (hpls_int i = 0; i < n; i++)
        y[i] = x[i];
}

void hpls_k_set(hpls_int n, hpls_real a, hpls_real *y)
{
#pragma omp parallel for schedule(static) num_threads(nthreads_for(n))
    for (hpls_int i = 0; i < n; i++)
        y[i] = a;
}

void hpls_k_scale(hpls_int n, hpls_real a, hpls_real *y)
{
#pragma omp parallel for schedule(static) num_threads(nthreads_for(n))
    for (hpls_int i = 0; i < n; i++)
        y[i] *= a;
}

void hpls_k_axpy(hpls_int n, hpls_real a, const hpls_real *x, hpls_real *y)
{
#pragma omp parallel for schedule(static) num_threads(nthreads_for(n))
    for (hpls_int i = 0; i < n; i++)
        y[i] += a * x[i];
}

void hpls_k_axpby(hpls_int n, hpls_real a, const hpls_real *x, hpls_real b, hpls_real *y)
{
#pragma omp parallel for schedule(static) num_threads(nthreads_for(n))
    for (hpls_int i = 0; i < n; i++)
        y[i] = a * x[i] + b * y[i];
}

void hpls_k_xpay(hpls_int n, const hpls_real *x, hpls_real a, hpls_real *y)
{
#pragma omp parallel for schedule(static) num_threads(nthreads_for(n))
    for (hpls_int i = 0; i < n; i++)
        y[i] = x[i] + a * y[i];
}

void hpls_k_axpbypcz(hpls_int n, hpls_real a, const hpls_real *x, hpls_real b,
                     const hpls_real *y, hpls_real c, hpls_real *z)
{
#pragma omp parallel for schedule(static) num_threads(nthreads_for(n))
    for (hpls_int i = 0; i < n; i++)
        z[i] = a * x[i] + b * y[i] + c * z[i];
}

void hpls_k_pointwise_mult(hpls_int n, const hpls_real *x, const hpls_real *y, hpls_real *z)
{
#pragma omp parallel for schedule(static) num_threads(nthreads_for(n))
    for (hpls_int i = 0; i < n; i++)
        z[i] = x[i] * y[i];
}

void hpls_k_diag_axpy(hpls_int n, hpls_real a, const hpls_real *d, const hpls_real *x,
                      hpls_real *y)
{
#pragma omp parallel for schedule(static) num_threads(nthreads_for(n))
    for (hpls_int i = 0; i < n; i++)
        y[i] += a * d[i] * x[i];
}
