/* blas1.c: OpenMP vector kernels.  Static partitions by index; reductions keep
 * one partial per thread and add them in thread order, so a result is
 * bit-for-bit repeatable for a fixed thread count. */
#include "core/internal.h"

#include <math.h>
#include <omp.h>

/* Below this length a kernel runs on one thread: forking costs more. */
#define PAR_MIN 8192

int hpls_k_threads(void) { return omp_get_max_threads(); }


/* [lo, hi) of thread t among p for n items */
static void span(hpls_int n, int t, int p, hpls_int *lo, hpls_int *hi)
{
    *lo = n * t / p;
    *hi = n * (t + 1) / p;
}

#define MAX_THREADS 1024

/* Threads for n items: one below PAR_MIN, never more than the partial-sum arrays hold. */
static int nthreads_for(hpls_int n)
{
    int p = n < PAR_MIN ? 1 : omp_get_max_threads();
    return p > MAX_THREADS ? MAX_THREADS : p;
}

double hpls_k_dot(hpls_int n, const hpls_real *x, const hpls_real *y)
{
    double part[MAX_THREADS];
    int p = nthreads_for(n);
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

/* ||x|| from s = (x, x) summed by a fused kernel: sqrt(s) unless s under- or
 * overflowed, then a scaled pass: no overflow for huge entries, no underflow
 * for tiny ones. */
static double nrm2_from_sq(hpls_int n, const hpls_real *x, double s)
{
    if (isfinite(s) && s > 1e-280 && s < 1e280)
        return sqrt(s);
    if (isnan(s)) /* a NaN entry: fmax below would skip it */
        return s;
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

double hpls_k_nrm2(hpls_int n, const hpls_real *x)
{
    return nrm2_from_sq(n, x, hpls_k_dot(n, x, x));
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

/* ---- fused kernels of BiCGSTAB: each is one pass where separate calls would
 * be two or three, and each keeps the separate kernels' operation order and
 * partition, so the iterates are bit-for-bit those of the unfused code. */

void hpls_k_bicgstab_p(hpls_int n, const hpls_real *r, hpls_real beta, hpls_real omega,
                       const hpls_real *v, hpls_real *p)
{
#pragma omp parallel for schedule(static) num_threads(nthreads_for(n))
    for (hpls_int i = 0; i < n; i++)
        p[i] = r[i] + beta * (p[i] + -omega * v[i]);
}

double hpls_k_waxpy_nrm2(hpls_int n, hpls_real a, const hpls_real *x, const hpls_real *y,
                         hpls_real *w)
{
    double part[MAX_THREADS];
    int p = nthreads_for(n);
#pragma omp parallel num_threads(p)
    {
        int t = omp_get_thread_num(), q = omp_get_num_threads();
        hpls_int lo, hi;
        span(n, t, q, &lo, &hi);
        double s = 0.0;
        for (hpls_int i = lo; i < hi; i++) {
            double wi = y[i] + a * x[i];
            w[i] = wi;
            s += wi * wi;
        }
        part[t] = s;
#pragma omp single
        p = q;
    }
    double s = 0.0;
    for (int t = 0; t < p; t++)
        s += part[t];
    return nrm2_from_sq(n, w, s);
}

void hpls_k_dot2(hpls_int n, const hpls_real *x, const hpls_real *y, double *xx, double *xy)
{
    double part[MAX_THREADS][2];
    int p = nthreads_for(n);
#pragma omp parallel num_threads(p)
    {
        int t = omp_get_thread_num(), q = omp_get_num_threads();
        hpls_int lo, hi;
        span(n, t, q, &lo, &hi);
        double sxx = 0.0, sxy = 0.0;
        for (hpls_int i = lo; i < hi; i++) {
            sxx += x[i] * x[i];
            sxy += x[i] * y[i];
        }
        part[t][0] = sxx;
        part[t][1] = sxy;
#pragma omp single
        p = q;
    }
    *xx = *xy = 0.0;
    for (int t = 0; t < p; t++) {
        *xx += part[t][0];
        *xy += part[t][1];
    }
}

void hpls_k_bicgstab_xr(hpls_int n, hpls_real alpha, const hpls_real *phat, hpls_real omega,
                        const hpls_real *shat, const hpls_real *s, const hpls_real *t,
                        const hpls_real *rhat, hpls_real *x, hpls_real *r, double *rnorm,
                        double *rhat_r)
{
    double part[MAX_THREADS][2];
    int p = nthreads_for(n);
#pragma omp parallel num_threads(p)
    {
        int th = omp_get_thread_num(), q = omp_get_num_threads();
        hpls_int lo, hi;
        span(n, th, q, &lo, &hi);
        double srr = 0.0, shr = 0.0;
        for (hpls_int i = lo; i < hi; i++) {
            x[i] = alpha * phat[i] + omega * shat[i] + x[i];
            double ri = s[i] + -omega * t[i];
            r[i] = ri;
            srr += ri * ri;
            shr += rhat[i] * ri;
        }
        part[th][0] = srr;
        part[th][1] = shr;
#pragma omp single
        p = q;
    }
    double srr = 0.0;
    *rhat_r = 0.0;
    for (int th = 0; th < p; th++) {
        srr += part[th][0];
        *rhat_r += part[th][1];
    }
    *rnorm = nrm2_from_sq(n, r, srr);
}
