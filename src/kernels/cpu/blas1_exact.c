/* SPDX-License-Identifier: BSD-3-Clause */
/* blas1_exact.c: reproducible=1's vector operations on the cpu backend
 * (hpls_cpu_set_exact): those of blas1.c that sum across entries, with every
 * sum exact (kernels/cpu/exact_sum.h) and rounded once, the methods' fused
 * kernels that sum (family cpu_x: kernels/bicgstab.h, hisa.h), and the host
 * kernels that return a sum of squares.  The other operations of the table are
 * blas1.c's (hpls_cpu_exact_vops, at its end). */
#include "backend/backend.h"
#include "kernels/bicgstab.h"
#include "kernels/cpu/blas1.h"
#include "kernels/cpu/exact_sum.h"
#include "kernels/cpu/team.h"
#include "kernels/hisa.h"

#include <math.h>

/* Each product (or square) is rounded as blas1.c rounds it, then added
 * exactly into a thread's long accumulator; the threads' accumulators are
 * added (integer sums: any order), passed through the backend's reduction
 * hook as limbs (MPI adds them exactly too) and rounded once.  Entrywise
 * results are the cpu operations' bits.  Cost per element: the product, the
 * split of a double into two 32-bit digits, two integer adds (no SIMD), a
 * carry pass every HPLS_XS_BATCH elements; per reduced value HPLS_XS_LIMBS
 * doubles (560 bytes) go through the hook instead of one. */

/* Values one exact reduction holds at most: mdot2's block of MBLOCK vectors,
 * twice, and its 3 dots of x and y. */
#define XVALS (2 * MBLOCK + 3)
_Static_assert(XVALS == HPLS_XS_MAXVALS, "exact_sum.h's count is mdot2's block");
_Static_assert(sizeof(hpls_xsum) == HPLS_XS_LIMBS * sizeof(double),
               "an accumulator is as large as its limbs: the scratch holds either");

/* The exact scratch (hpls_cpu_set_exact), after cpu's PART partials per
 * thread: the limbs of one reduction, then XVALS accumulators per thread. */
static double *xlimbs(hpls_backend *be)
{
    return scratch(be) + (size_t)be->nthreads * PART;
}

static hpls_xsum *xacc(hpls_backend *be, int t)
{
    return (hpls_xsum *)(xlimbs(be) + (size_t)XVALS * HPLS_XS_LIMBS) + (size_t)t * XVALS;
}

/* Threads 1 .. p-1's k accumulators added into thread 0's, reduced over the
 * ranks, rounded into out. */
static void xfinish(hpls_backend *be, int p, int k, double *out)
{
    hpls_xsum *a0 = xacc(be, 0);
    for (int t = 1; t < p; t++)
        for (int j = 0; j < k; j++)
            hpls_xsum_merge(&a0[j], &xacc(be, t)[j]);
    hpls_xsum_reduce(be, a0, k, xlimbs(be), out);
}

/* out[j] = sum_i X[j][i] Y[j][i] for j < k <= XVALS: one pass over the rows in
 * batches (each X[j]'s batch, then the next j: Y's batch stays in cache), one
 * reduction. */
static void xdots(hpls_backend *be, hpls_int n, int k, const hpls_real *const *X,
                  const hpls_real *const *Y, double *out)
{
    int p = nthreads_for(be, n);
    HPLS_TEAM(p, t, q, {
        hpls_int lo, hi;
        span(n, t, q, &lo, &hi);
        hpls_xsum *a = xacc(be, t);
        for (int j = 0; j < k; j++)
            hpls_xsum_zero(&a[j]);
        for (hpls_int b = lo; b < hi; b += HPLS_XS_BATCH) {
            hpls_int e = hi - b < HPLS_XS_BATCH ? hi : b + HPLS_XS_BATCH;
            for (int j = 0; j < k; j++) {
                const hpls_real *x = X[j], *y = Y[j];
                for (hpls_int i = b; i < e; i++) {
                    double v = x[i] * y[i];
                    hpls_xsum_add(&a[j], v);
                }
                hpls_xsum_carry(&a[j]);
            }
        }
        if (t == 0)
            p = q;
    });
    xfinish(be, p, k, out);
}

double hpls_cpu_x_dot(hpls_backend *be, hpls_int n, const hpls_dvec *xv, const hpls_dvec *yv)
{
    const hpls_real *x = C_(xv), *y = C_(yv);
    double s;
    xdots(be, n, 1, &x, &y, &s);
    return s;
}

/* v_nrm2's, with exact sums: the sum of squares; where it under- or
 * overflowed, the max (order-independent) and the scaled squares. */
double hpls_cpu_x_nrm2(hpls_backend *be, hpls_int n, const hpls_dvec *xv)
{
    const hpls_real *x = C_(xv);
    double ss = hpls_cpu_x_dot(be, n, xv, xv);
    if (isfinite(ss) && ss > 1e-280 && ss < 1e280)
        return sqrt(ss);
    if (isnan(ss))
        return ss;
    double amax = 0.0;
    for (hpls_int i = 0; i < n; i++)
        amax = hpls_maxd(amax, fabs(x[i]));
    hpls_be_reduce(be, &amax, 1, HPLS_RED_MAX);
    if (amax == 0.0 || !isfinite(amax))
        return amax;
    hpls_xsum *a = xacc(be, 0);
    hpls_xsum_zero(a);
    for (hpls_int i = 0; i < n; i++) {
        double v = x[i] / amax;
        hpls_xsum_add(a, v * v);
        if (i % HPLS_XS_BATCH == HPLS_XS_BATCH - 1)
            hpls_xsum_carry(a);
    }
    hpls_xsum_carry(a);
    double t;
    hpls_xsum_reduce(be, a, 1, xlimbs(be), &t);
    return amax * sqrt(t);
}

void hpls_cpu_x_mdot(hpls_backend *be, hpls_int n, int k, const hpls_dvec *const *V,
                     const hpls_dvec *w, double *h)
{
    const hpls_real *W[MBLOCK];
    for (int j = 0; j < MBLOCK; j++)
        W[j] = C_(w);
    for (int j = 0; j < k; j += MBLOCK) /* a reduction per MBLOCK vectors, as v_mdot */
        xdots(be, n, k - j < MBLOCK ? k - j : MBLOCK, (const hpls_real *const *)(V + j), W, h + j);
}

/* v_mdot2's values: one reduction per MBLOCK vectors (v_mdot2 makes one in
 * all: GMRES past restart 64 makes a few more here), the 3 dots of x and y
 * with the first. */
void hpls_cpu_x_mdot2(hpls_backend *be, hpls_int n, int k, const hpls_dvec *const *V,
                      const hpls_dvec *xv, const hpls_dvec *yv, double *h)
{
    const hpls_real *x = C_(xv), *y = C_(yv);
    const hpls_real *X[XVALS], *Y[XVALS];
    double part[XVALS];
    for (int j = 0; j < k || j == 0; j += MBLOCK) {
        int kb = k - j < MBLOCK ? k - j : MBLOCK, m = 2 * kb;
        for (int i = 0; i < kb; i++) {
            X[i] = X[kb + i] = C_(V[j + i]);
            Y[i] = x;
            Y[kb + i] = y;
        }
        if (j == 0) { /* (x, x), (x, y), (y, y) */
            X[m] = X[m + 1] = Y[m] = x;
            Y[m + 1] = X[m + 2] = Y[m + 2] = y;
        }
        xdots(be, n, m + (j == 0 ? 3 : 0), X, Y, part);
        for (int i = 0; i < kb; i++) {
            h[j + i] = part[i];
            h[k + j + i] = part[kb + i];
        }
        if (j == 0)
            for (int i = 0; i < 3; i++)
                h[2 * k + i] = part[m + i];
    }
}

void hpls_cpu_x_bicgstab_dot3(hpls_backend *be, hpls_int n, const hpls_dvec *tv,
                              const hpls_dvec *sv, double *tt, double *ts, double *ss)
{
    const hpls_real *t = C_(tv), *s = C_(sv);
    const hpls_real *X[3] = {t, t, s}, *Y[3] = {t, s, s};
    double out[3];
    xdots(be, n, 3, X, Y, out);
    *tt = out[0];
    *ts = out[1];
    *ss = out[2];
}

void hpls_cpu_x_bicgstab_xr(hpls_backend *be, hpls_int n, double alpha, const hpls_dvec *phatv,
                            double omega, const hpls_dvec *shatv, const hpls_dvec *sv,
                            const hpls_dvec *tv, const hpls_dvec *rhatv, hpls_dvec *xv,
                            hpls_dvec *rv, double *rnorm, double *rhat_r)
{
    const hpls_real *phat = C_(phatv), *shat = C_(shatv), *s = C_(sv), *t = C_(tv);
    const hpls_real *rhat = C_(rhatv);
    hpls_real *x = A_(xv), *r = A_(rv);
    double out[2];
    int p = nthreads_for(be, n);
    HPLS_TEAM(p, th, q, {
        hpls_int lo, hi;
        span(n, th, q, &lo, &hi);
        hpls_xsum *a = xacc(be, th);
        hpls_xsum_zero(&a[0]);
        hpls_xsum_zero(&a[1]);
        for (hpls_int b = lo; b < hi; b += HPLS_XS_BATCH) {
            hpls_int e = hi - b < HPLS_XS_BATCH ? hi : b + HPLS_XS_BATCH;
            for (hpls_int i = b; i < e; i++) {
                x[i] = alpha * phat[i] + omega * shat[i] + x[i];
                double ri = s[i] + -omega * t[i];
                r[i] = ri;
                hpls_xsum_add(&a[0], rhat[i] * ri);
                hpls_xsum_add(&a[1], ri * ri);
            }
            hpls_xsum_carry(&a[0]);
            hpls_xsum_carry(&a[1]);
        }
        if (th == 0)
            p = q;
    });
    xfinish(be, p, 2, out); /* (rhat, r) and ||r||^2 in one reduction */
    *rhat_r = out[0];
    *rnorm = isfinite(out[1]) && out[1] > 1e-280 && out[1] < 1e280 ? sqrt(out[1])
                                                                   : hpls_cpu_x_nrm2(be, n, rv);
}

double hpls_cpu_x_hisa_update(hpls_backend *be, hpls_int n, const hpls_dvec *bv,
                              const hpls_dvec *yv, const hpls_dvec *ynewv, hpls_dvec *bpv)
{
    const hpls_real *b = C_(bv), *y = C_(yv), *ynew = C_(ynewv);
    hpls_real *bp = A_(bpv);
    double ss;
    int p = nthreads_for(be, n);
    HPLS_TEAM(p, t, q, {
        hpls_int lo, hi;
        span(n, t, q, &lo, &hi);
        hpls_xsum *a = xacc(be, t);
        hpls_xsum_zero(a);
        for (hpls_int c = lo; c < hi; c += HPLS_XS_BATCH) {
            hpls_int e = hi - c < HPLS_XS_BATCH ? hi : c + HPLS_XS_BATCH;
            for (hpls_int i = c; i < e; i++) {
                double r = y[i] - ynew[i];
                hpls_xsum_add(a, r * r);
                bp[i] = b[i] - ynew[i];
            }
            hpls_xsum_carry(a);
        }
        if (t == 0)
            p = q;
    });
    xfinish(be, p, 1, &ss);
    return sqrt(ss);
}

/* The host kernels that return a sum of squares: cpu's kernel for the
 * vector, then its squares summed exactly (a second read of the vector). */
static double x_residual(int nt, int pf, const hpls_csr *A, const hpls_real *b, const hpls_real *x,
                         hpls_real *r)
{
    hpls_k_residual_pf(nt, pf, A, b, x, r);
    return hpls_xsum_sumsq(nt, A->nrows, r);
}

static double x_dense_residual(int nt, const hpls_dense *A, const hpls_real *b, const hpls_real *x,
                               hpls_real *r)
{
    hpls_k_dense_residual(nt, A, b, x, r);
    return hpls_xsum_sumsq(nt, A->nrows, r);
}

static void x_residual_block(int nt, const hpls_csr *A, hpls_int k, const hpls_real *B,
                             const hpls_real *X, hpls_real *R, hpls_int ld, double *ss)
{
    hpls_k_residual_block(nt, A, k, B, X, R, ld, ss);
    for (hpls_int j = 0; j < k; j++)
        ss[j] = hpls_xsum_sumsq(nt, A->nrows, R + j * ld);
}

static const hpls_kernels exact_kernels = {
    .spmv = hpls_k_spmv_pf,
    .spmv_t = hpls_k_spmv_t_pf,
    .residual = x_residual,
    .residual_block = x_residual_block,
    .gemv = hpls_k_gemv,
    .dense_residual = x_dense_residual,
};

hpls_status hpls_cpu_set_exact(hpls_backend *be)
{
    if (be->v != &hpls_cpu_vops)
        return hpls_fail(HPLS_ERR_UNSUPPORTED,
                         "reproducible=1: backend %s has no exact sums (cpu only, and mpi on it)",
                         be->name);
    /* cpu's partials, one reduction's limbs, XVALS accumulators per thread */
    hpls_int count = (hpls_int)be->nthreads * PART + (hpls_int)XVALS * HPLS_XS_LIMBS +
                     (hpls_int)be->nthreads * XVALS * HPLS_XS_LIMBS;
    double *p = hpls_malloc(count, sizeof *p);
    if (!p)
        return HPLS_ERR_NOMEM;
    hpls_free(be->impl);
    be->impl = p;
    be->v = &hpls_cpu_exact_vops;
    be->k = &exact_kernels;
    be->exact = 1;
    return HPLS_OK;
}
