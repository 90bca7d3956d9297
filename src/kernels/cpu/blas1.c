/* SPDX-License-Identifier: BSD-3-Clause */
/* blas1.c: the cpu backend's vector operations (backend/backend.h) and the
 * methods' fused kernels of its family (kernels/bicgstab.h, hisa.h): OpenMP
 * loops over host arrays, a handle being the array itself.  Static partitions
 * by index; reductions keep one partial per thread and add them in thread
 * order, then pass them to the backend's reduction hook, so a result is
 * bit-for-bit repeatable for a fixed thread count.  Every loop runs on the
 * backend's own thread count (num_threads), never the process's setting.
 *
 * reproducible=1 (hpls_cpu_set_exact, blas1_exact.c) swaps in the table at
 * the end of this file: the same operations, but every sum is exact
 * (kernels/cpu/exact_sum.h) and rounded once, so a result depends on the
 * vectors alone, not on how they are cut among threads and ranks. */
#include "kernels/cpu/blas1.h"
#include "backend/backend.h"
#include "kernels/bicgstab.h"
#include "kernels/cpu/team.h"
#include "kernels/hisa.h"

#include <math.h>
#include <string.h>

/* Rows per block (the other vectors' rows stay in L2 while the block's MBLOCK
 * vectors stream past, in runs long enough for the hardware prefetcher: 512
 * rows made GMRES's sweeps 20% slower than 4096, on 16-30 vectors at one
 * thread), vectors per inner loop (independent sums keep the adder busy: one
 * chain waits on its latency). */
#define MROWS 4096
#define MGROUP 4

static hpls_status v_alloc(hpls_backend *be, hpls_int n, hpls_dvec **v)
{
    hpls_real *p = hpls_malloc(n, sizeof *p);
    *v = (hpls_dvec *)p;
    if (!p)
        return HPLS_ERR_NOMEM;
    /* zeroed by the kernels' partition: first touch puts pages near their threads */
    HPLS_FOR(nthreads_for(be, n), i, n, p[i] = 0.0);
    return HPLS_OK;
}

static void v_release(hpls_backend *be, hpls_dvec *v)
{
    (void)be;
    hpls_free(v);
}

static void v_upload(hpls_backend *be, hpls_int n, const hpls_real *h, hpls_dvec *v)
{
    if (h != C_(v))
        hpls_k_copy(be->nthreads, n, h, A_(v));
}

static void v_download(hpls_backend *be, hpls_int n, const hpls_dvec *v, hpls_real *h)
{
    if (h != C_(v))
        hpls_k_copy(be->nthreads, n, C_(v), h);
}

static hpls_real *v_host(hpls_backend *be, const hpls_dvec *v)
{
    (void)be;
    return (hpls_real *)v;
}

void hpls_k_copy(int nt, hpls_int n, const hpls_real *x, hpls_real *y)
{
    HPLS_FOR(n < PAR_MIN ? 1 : nt, i, n, y[i] = x[i]);
}

void hpls_k_set(int nt, hpls_int n, hpls_real a, hpls_real *y)
{
    HPLS_FOR(n < PAR_MIN ? 1 : nt, i, n, y[i] = a);
}

static void v_copy(hpls_backend *be, hpls_int n, const hpls_dvec *x, hpls_dvec *y)
{
    hpls_k_copy(be->nthreads, n, C_(x), A_(y));
}

static void v_set(hpls_backend *be, hpls_int n, double a, hpls_dvec *y)
{
    hpls_k_set(be->nthreads, n, a, A_(y));
}

static void v_scale(hpls_backend *be, hpls_int n, double a, hpls_dvec *yv)
{
    hpls_real *y = A_(yv);
    HPLS_FOR(nthreads_for(be, n), i, n, y[i] *= a);
}

static void v_axpy(hpls_backend *be, hpls_int n, double a, const hpls_dvec *xv, hpls_dvec *yv)
{
    const hpls_real *x = C_(xv);
    hpls_real *y = A_(yv);
    HPLS_FOR(nthreads_for(be, n), i, n, y[i] += a * x[i]);
}

static void v_axpby(hpls_backend *be, hpls_int n, double a, const hpls_dvec *xv, double b,
                    hpls_dvec *yv)
{
    const hpls_real *x = C_(xv);
    hpls_real *y = A_(yv);
    HPLS_FOR(nthreads_for(be, n), i, n, y[i] = a * x[i] + b * y[i]);
}

static void v_xpay(hpls_backend *be, hpls_int n, const hpls_dvec *xv, double a, hpls_dvec *yv)
{
    const hpls_real *x = C_(xv);
    hpls_real *y = A_(yv);
    HPLS_FOR(nthreads_for(be, n), i, n, y[i] = x[i] + a * y[i]);
}

static void v_waxpy(hpls_backend *be, hpls_int n, double a, const hpls_dvec *xv,
                    const hpls_dvec *yv, hpls_dvec *wv)
{
    const hpls_real *x = C_(xv), *y = C_(yv);
    hpls_real *w = A_(wv);
    HPLS_FOR(nthreads_for(be, n), i, n, w[i] = y[i] + a * x[i]);
}

static void v_axpbypcz(hpls_backend *be, hpls_int n, double a, const hpls_dvec *xv, double b,
                       const hpls_dvec *yv, double c, hpls_dvec *zv)
{
    const hpls_real *x = C_(xv), *y = C_(yv);
    hpls_real *z = A_(zv);
    HPLS_FOR(nthreads_for(be, n), i, n, z[i] = a * x[i] + b * y[i] + c * z[i]);
}

static void v_pmult(hpls_backend *be, hpls_int n, const hpls_dvec *xv, const hpls_dvec *yv,
                    hpls_dvec *zv)
{
    const hpls_real *x = C_(xv), *y = C_(yv);
    hpls_real *z = A_(zv);
    HPLS_FOR(nthreads_for(be, n), i, n, z[i] = x[i] * y[i]);
}

static void v_diag_axpy(hpls_backend *be, hpls_int n, double a, const hpls_dvec *dv,
                        const hpls_dvec *xv, hpls_dvec *yv)
{
    const hpls_real *d = C_(dv), *x = C_(xv);
    hpls_real *y = A_(yv);
    HPLS_FOR(nthreads_for(be, n), i, n, y[i] += a * d[i] * x[i]);
}

/* sum of the k partials of every thread in thread order into out[0..k) */
static void combine(const double *part, int p, int k, double *out)
{
    for (int j = 0; j < k; j++)
        out[j] = 0.0;
    for (int t = 0; t < p; t++)
        for (int j = 0; j < k; j++)
            out[j] += part[t * PART + j];
}

static double v_dot(hpls_backend *be, hpls_int n, const hpls_dvec *xv, const hpls_dvec *yv)
{
    const hpls_real *x = C_(xv), *y = C_(yv);
    double *part = scratch(be), s;
    int p = nthreads_for(be, n);
    HPLS_TEAM(p, t, q, {
        hpls_int lo, hi;
        span(n, t, q, &lo, &hi);
        double sum = 0.0;
        for (hpls_int i = lo; i < hi; i++)
            sum += x[i] * y[i];
        part[t * PART] = sum;
        if (t == 0)
            p = q;
    });
    combine(part, p, 1, &s);
    hpls_be_reduce(be, &s, 1, HPLS_RED_SUM);
    return s;
}

static double v_nrm2(hpls_backend *be, hpls_int n, const hpls_dvec *xv)
{
    const hpls_real *x = C_(xv);
    double ss = v_dot(be, n, xv, xv);
    if (isfinite(ss) && ss > 1e-280 && ss < 1e280)
        return sqrt(ss);
    if (isnan(ss)) /* a NaN entry: the max below would skip it */
        return ss;
    /* ss under- or overflowed: a scaled pass, no overflow for huge entries and
     * no underflow for tiny ones */
    double amax = 0.0;
    for (hpls_int i = 0; i < n; i++)
        amax = hpls_maxd(amax, fabs(x[i]));
    hpls_be_reduce(be, &amax, 1, HPLS_RED_MAX);
    if (amax == 0.0 || !isfinite(amax))
        return amax;
    double t = 0.0;
    for (hpls_int i = 0; i < n; i++) {
        double v = x[i] / amax;
        t += v * v;
    }
    hpls_be_reduce(be, &t, 1, HPLS_RED_SUM);
    return amax * sqrt(t);
}

/* s[j] += sum_{r in [lo, hi)} V[j][r] w[r], j < k, row by row for each j (so
 * each sum has the order of a plain dot), MGROUP sums at a time */
static void block_dots(hpls_int lo, hpls_int hi, int k, const hpls_real *const *V,
                       const hpls_real *w, double *s)
{
    int j = 0;
    for (; j + MGROUP <= k; j += MGROUP) {
        const hpls_real *v0 = V[j], *v1 = V[j + 1], *v2 = V[j + 2], *v3 = V[j + 3];
        double s0 = s[j], s1 = s[j + 1], s2 = s[j + 2], s3 = s[j + 3];
        for (hpls_int r = lo; r < hi; r++) {
            double wr = w[r];
            s0 += v0[r] * wr;
            s1 += v1[r] * wr;
            s2 += v2[r] * wr;
            s3 += v3[r] * wr;
        }
        s[j] = s0;
        s[j + 1] = s1;
        s[j + 2] = s2;
        s[j + 3] = s3;
    }
    for (; j < k; j++) {
        const hpls_real *v0 = V[j];
        double s0 = s[j];
        for (hpls_int r = lo; r < hi; r++)
            s0 += v0[r] * w[r];
        s[j] = s0;
    }
}

/* w[r] = beta w[r] + sum_{j<k} a[j] V[j][r] over [lo, hi), the terms added in
 * the order j = 0, 1, ... (beta = 0: w not read) */
static void block_axpys(hpls_int lo, hpls_int hi, int k, const double *a,
                        const hpls_real *const *V, double beta, hpls_real *restrict w)
{
    int j = 0;
    if (beta == 0.0) {
        for (hpls_int r = lo; r < hi; r++)
            w[r] = 0.0;
    } else if (beta != 1.0) {
        for (hpls_int r = lo; r < hi; r++)
            w[r] *= beta;
    }
    for (; j + MGROUP <= k; j += MGROUP) {
        const hpls_real *restrict v0 = V[j], *restrict v1 = V[j + 1];
        const hpls_real *restrict v2 = V[j + 2], *restrict v3 = V[j + 3];
        const double a0 = a[j], a1 = a[j + 1], a2 = a[j + 2], a3 = a[j + 3];
        for (hpls_int r = lo; r < hi; r++)
            w[r] = w[r] + a0 * v0[r] + a1 * v1[r] + a2 * v2[r] + a3 * v3[r];
    }
    for (; j < k; j++) {
        const hpls_real *restrict v0 = V[j];
        const double a0 = a[j];
        for (hpls_int r = lo; r < hi; r++)
            w[r] += a0 * v0[r];
    }
}

/* The multi-vector operations on at most MBLOCK vectors: each thread walks
 * its rows in blocks of MROWS; with a: w = beta w + V a; else h = V^T w. */
static void multi(hpls_backend *be, hpls_int n, int k, const hpls_dvec *const *Vh,
                  const double *a, double beta, hpls_dvec *wv, double *h)
{
    const hpls_real *const *V = (const hpls_real *const *)Vh;
    hpls_real *w = A_(wv);
    double *part = scratch(be);
    int p = nthreads_for(be, n);
    HPLS_TEAM(p, t, q, {
        hpls_int lo, hi;
        span(n, t, q, &lo, &hi);
        double *s = part + t * PART;
        for (int j = 0; j < k; j++)
            s[j] = 0.0;
        for (hpls_int r = lo; r < hi; r += MROWS) {
            hpls_int e = r + MROWS < hi ? r + MROWS : hi;
            if (a)
                block_axpys(r, e, k, a, V, beta, w);
            else
                block_dots(r, e, k, V, w, s);
        }
        if (t == 0)
            p = q;
    });
    if (!a) {
        combine(part, p, k, h);
        hpls_be_reduce(be, h, k, HPLS_RED_SUM);
    }
}

static void v_mdot(hpls_backend *be, hpls_int n, int k, const hpls_dvec *const *V,
                   const hpls_dvec *w, double *h)
{
    for (int j = 0; j < k; j += MBLOCK)
        multi(be, n, k - j < MBLOCK ? k - j : MBLOCK, V + j, NULL, 1.0, (hpls_dvec *)w, h + j);
}

static void v_maxpy(hpls_backend *be, hpls_int n, int k, const double *a,
                    const hpls_dvec *const *V, double beta, hpls_dvec *w)
{
    if (k == 0 && beta != 1.0)
        multi(be, n, 0, V, a, beta, w, NULL);
    for (int j = 0; j < k; j += MBLOCK)
        multi(be, n, k - j < MBLOCK ? k - j : MBLOCK, V + j, a + j, j ? 1.0 : beta, w, NULL);
}

/* GMRES's sweeps (mdot2, maxpy2) run two rows at a time in SSE2 vectors (GCC's
 * vector extension: any target): a sum over rows is then two interleaved
 * sums, lane l taking the rows lo + 2q + l of the thread's range (a fixed
 * order, the lanes added at the end), and four vectors of V at a time keep
 * eight sums in flight and read x and y once per four. */
typedef double v2d __attribute__((vector_size(16)));

static inline v2d ld2(const hpls_real *p)
{
    v2d v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline void st2(hpls_real *p, v2d v)
{
    memcpy(p, &v, sizeof v);
}

/* The lanes of (V[i], x) at s + 2i and of (V[i], y) at s + 2(k + i), i < k,
 * over rows [lo, hi) (hi - lo even but at the end of a thread's range). */
static void block_dots2(hpls_int lo, hpls_int hi, int k, const hpls_real *const *V,
                        const hpls_real *x, const hpls_real *y, double *s)
{
    hpls_int even = lo + ((hi - lo) & ~(hpls_int)1);
    for (int i = 0; i < k; i += 4) {
        int g = k - i < 4 ? k - i : 4;
        const hpls_real *v[4];
        v2d sx[4], sy[4];
        for (int q = 0; q < 4; q++) { /* a short group repeats its first vector, unused */
            v[q] = V[i + (q < g ? q : 0)];
            sx[q] = ld2(s + 2 * (i + (q < g ? q : 0)));
            sy[q] = ld2(s + 2 * (k + i + (q < g ? q : 0)));
        }
        for (hpls_int r = lo; r < even; r += 2) {
            v2d xr = ld2(x + r), yr = ld2(y + r);
            for (int q = 0; q < 4; q++) {
                v2d vr = ld2(v[q] + r);
                sx[q] += vr * xr;
                sy[q] += vr * yr;
            }
        }
        for (int q = 0; q < g; q++) {
            if (even < hi) { /* the last row of an odd range: lane 0 */
                sx[q][0] += v[q][even] * x[even];
                sy[q][0] += v[q][even] * y[even];
            }
            st2(s + 2 * (i + q), sx[q]);
            st2(s + 2 * (k + i + q), sy[q]);
        }
    }
}

/* The lanes of (x, x), (x, y), (y, y) at s, s + 2, s + 4 over rows [lo, hi). */
static void block_self_dots(hpls_int lo, hpls_int hi, const hpls_real *x, const hpls_real *y,
                            double *s)
{
    hpls_int even = lo + ((hi - lo) & ~(hpls_int)1);
    v2d xx = ld2(s), xy = ld2(s + 2), yy = ld2(s + 4);
    for (hpls_int r = lo; r < even; r += 2) {
        v2d xr = ld2(x + r), yr = ld2(y + r);
        xx += xr * xr;
        xy += xr * yr;
        yy += yr * yr;
    }
    if (even < hi) {
        xx[0] += x[even] * x[even];
        xy[0] += x[even] * y[even];
        yy[0] += y[even] * y[even];
    }
    st2(s, xx);
    st2(s + 2, xy);
    st2(s + 4, yy);
}

/* The local sums of mdot2 for at most MBLOCK vectors into h (k, k, and with
 * self the 3 dots of x and y at h[2k]). */
static void mdot2_local(hpls_backend *be, hpls_int n, int k, const hpls_real *const *V,
                        const hpls_real *x, const hpls_real *y, int self, double *h)
{
    double *part = scratch(be);
    int p = nthreads_for(be, n), m = 2 * k + (self ? 3 : 0);
    HPLS_TEAM(p, t, q, {
        hpls_int lo, hi;
        span(n, t, q, &lo, &hi);
        double *s = part + t * PART;
        for (int j = 0; j < 2 * m; j++)
            s[j] = 0.0;
        for (hpls_int r = lo; r < hi; r += MROWS) {
            hpls_int e = r + MROWS < hi ? r + MROWS : hi;
            block_dots2(r, e, k, V, x, y, s);
            if (self)
                block_self_dots(r, e, x, y, s + 4 * k);
        }
        if (t == 0)
            p = q;
    });
    for (int j = 0; j < m; j++) { /* lanes, then threads, in order */
        h[j] = 0.0;
        for (int t = 0; t < p; t++)
            h[j] += part[t * PART + 2 * j] + part[t * PART + 2 * j + 1];
    }
}

static void v_mdot2(hpls_backend *be, hpls_int n, int k, const hpls_dvec *const *Vh,
                    const hpls_dvec *xv, const hpls_dvec *yv, double *h)
{
    const hpls_real *const *V = (const hpls_real *const *)Vh;
    double part[2 * MBLOCK + 3];
    for (int j = 0; j < k || j == 0; j += MBLOCK) { /* the 3 dots of x, y with the first block */
        int kb = k - j < MBLOCK ? k - j : MBLOCK;
        mdot2_local(be, n, kb, V + j, C_(xv), C_(yv), j == 0, part);
        for (int i = 0; i < kb; i++) {
            h[j + i] = part[i];
            h[k + j + i] = part[kb + i];
        }
        if (j == 0)
            for (int i = 0; i < 3; i++)
                h[2 * k + i] = part[2 * kb + i];
    }
    hpls_be_reduce(be, h, 2 * k + 3, HPLS_RED_SUM);
}

/* x += V a and y += V b over rows [lo, hi), each entry of V read once for both,
 * the terms added in the order of V, four vectors a pass over the rows of x
 * and y; last: then x = alpha x, y = gamma (y + beta x) */
static void block_axpys2(hpls_int lo, hpls_int hi, int k, const hpls_real *const *V,
                         const double *a, double alpha, hpls_real *x, const double *b,
                         double beta, double gamma, hpls_real *y, int last)
{
    hpls_int even = lo + ((hi - lo) & ~(hpls_int)1);
    for (int i = 0; i < k; i += 4) {
        int g = k - i < 4 ? k - i : 4;
        const hpls_real *v[4];
        v2d av[4], bv[4];
        for (int q = 0; q < 4; q++) { /* a short group adds zeros, after its vectors */
            v[q] = V[i + (q < g ? q : 0)];
            av[q] = (v2d){q < g ? a[i + q] : 0.0, q < g ? a[i + q] : 0.0};
            bv[q] = (v2d){q < g ? b[i + q] : 0.0, q < g ? b[i + q] : 0.0};
        }
        for (hpls_int r = lo; r < even; r += 2) {
            v2d xr = ld2(x + r), yr = ld2(y + r);
            for (int q = 0; q < g; q++) {
                v2d vr = ld2(v[q] + r);
                xr = xr + av[q] * vr;
                yr = yr + bv[q] * vr;
            }
            st2(x + r, xr);
            st2(y + r, yr);
        }
        for (int q = 0; even < hi && q < g; q++) {
            x[even] = x[even] + a[i + q] * v[q][even];
            y[even] = y[even] + b[i + q] * v[q][even];
        }
    }
    for (hpls_int r = lo; last && r < hi; r++) {
        x[r] = alpha * x[r];
        y[r] = gamma * (y[r] + beta * x[r]);
    }
}

static void v_maxpy2(hpls_backend *be, hpls_int n, int k, const hpls_dvec *const *Vh,
                     const double *a, double alpha, hpls_dvec *xv, const double *b, double beta,
                     double gamma, hpls_dvec *yv)
{
    const hpls_real *const *V = (const hpls_real *const *)Vh;
    hpls_real *x = A_(xv), *y = A_(yv);
    for (int j = 0; j < k || j == 0; j += MBLOCK) { /* MBLOCK vectors a pass */
        int kb = k - j < MBLOCK ? k - j : MBLOCK, last = j + kb >= k;
        HPLS_TEAM(nthreads_for(be, n), t, q, {
            hpls_int lo, hi;
            span(n, t, q, &lo, &hi);
            for (hpls_int r = lo; r < hi; r += MROWS)
                block_axpys2(r, r + MROWS < hi ? r + MROWS : hi, kb, V + j, a + j, alpha, x,
                             b + j, beta, gamma, y, last);
        });
    }
}

void hpls_cpu_bicgstab_p(hpls_backend *be, hpls_int n, const hpls_dvec *rv, double beta,
                         double omega, const hpls_dvec *vv, hpls_dvec *pv)
{
    const hpls_real *r = C_(rv), *v = C_(vv);
    hpls_real *p = A_(pv);
    HPLS_FOR(nthreads_for(be, n), i, n, p[i] = r[i] + beta * (p[i] + -omega * v[i]));
}

void hpls_cpu_bicgstab_dot3(hpls_backend *be, hpls_int n, const hpls_dvec *tv, const hpls_dvec *sv,
                            double *tt, double *ts, double *ss)
{
    const hpls_real *t = C_(tv), *s = C_(sv);
    double *part = scratch(be), out[3];
    int p = nthreads_for(be, n);
    HPLS_TEAM(p, th, q, {
        hpls_int lo, hi;
        span(n, th, q, &lo, &hi);
        double stt = 0.0, sts = 0.0, sss = 0.0;
        for (hpls_int i = lo; i < hi; i++) {
            stt += t[i] * t[i];
            sts += t[i] * s[i];
            sss += s[i] * s[i];
        }
        double *mine = part + th * PART;
        mine[0] = stt;
        mine[1] = sts;
        mine[2] = sss;
        if (th == 0)
            p = q;
    });
    combine(part, p, 3, out);
    hpls_be_reduce(be, out, 3, HPLS_RED_SUM);
    *tt = out[0];
    *ts = out[1];
    *ss = out[2];
}

void hpls_cpu_bicgstab_xr(hpls_backend *be, hpls_int n, double alpha, const hpls_dvec *phatv,
                          double omega, const hpls_dvec *shatv, const hpls_dvec *sv,
                          const hpls_dvec *tv, const hpls_dvec *rhatv, hpls_dvec *xv, hpls_dvec *rv,
                          double *rnorm, double *rhat_r)
{
    const hpls_real *phat = C_(phatv), *shat = C_(shatv), *s = C_(sv), *t = C_(tv);
    const hpls_real *rhat = C_(rhatv);
    hpls_real *x = A_(xv), *r = A_(rv);
    double *part = scratch(be), out[2];
    int p = nthreads_for(be, n);
    HPLS_TEAM(p, th, q, {
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
        double *mine = part + th * PART;
        mine[0] = shr;
        mine[1] = srr;
        if (th == 0)
            p = q;
    });
    combine(part, p, 2, out);
    hpls_be_reduce(be, out, 2, HPLS_RED_SUM); /* (rhat, r) and ||r||^2 in one call */
    *rhat_r = out[0];
    *rnorm = isfinite(out[1]) && out[1] > 1e-280 && out[1] < 1e280 ? sqrt(out[1])
                                                                   : v_nrm2(be, n, rv);
}

double hpls_cpu_hisa_update(hpls_backend *be, hpls_int n, const hpls_dvec *bv, const hpls_dvec *yv,
                            const hpls_dvec *ynewv, hpls_dvec *bpv)
{
    const hpls_real *b = C_(bv), *y = C_(yv), *ynew = C_(ynewv);
    hpls_real *bp = A_(bpv);
    double *part = scratch(be), ss;
    int p = nthreads_for(be, n);
    HPLS_TEAM(p, t, q, {
        hpls_int lo, hi;
        span(n, t, q, &lo, &hi);
        double sum = 0.0;
        for (hpls_int i = lo; i < hi; i++) {
            double r = y[i] - ynew[i];
            sum += r * r;
            bp[i] = b[i] - ynew[i];
        }
        part[t * PART] = sum;
        if (t == 0)
            p = q;
    });
    combine(part, p, 1, &ss);
    hpls_be_reduce(be, &ss, 1, HPLS_RED_SUM);
    return sqrt(ss);
}

static hpls_int v_finite(hpls_backend *be, hpls_int n, const hpls_dvec *xv, double *bad)
{
    const hpls_real *x = C_(xv);
    hpls_int firsts[HPLS_MAX_THREADS], first = n;
    int p = nthreads_for(be, n);
    HPLS_TEAM(p, t, q, {
        hpls_int lo, hi;
        span(n, t, q, &lo, &hi);
        hpls_int f = hpls_first_nonfinite(x + lo, hi - lo); /* the bit test, vectorised */
        firsts[t] = f < 0 ? n : lo + f;
        if (t == 0)
            p = q;
    });
    for (int t = 0; t < p; t++)
        first = firsts[t] < first ? firsts[t] : first;
    if (first == n)
        return -1;
    *bad = x[first];
    return first;
}

const hpls_vops hpls_cpu_vops = HPLS_VOPS_OF(v_, CPU);

hpls_status hpls_cpu_init(hpls_backend *be)
{
    be->impl = hpls_malloc((hpls_int)be->nthreads * PART, sizeof(double));
    return be->impl ? HPLS_OK : HPLS_ERR_NOMEM;
}

void hpls_cpu_fini(hpls_backend *be)
{
    hpls_free(be->impl);
    be->impl = NULL;
}

const hpls_kernels hpls_cpu_kernels = {
    .spmv = hpls_k_spmv_pf,
    .spmv_t = hpls_k_spmv_t_pf,
    .residual = hpls_k_residual_pf,
    .residual_block = hpls_k_residual_block,
    .gemv = hpls_k_gemv,
    .dense_residual = hpls_k_dense_residual,
};

/* reproducible=1's table (blas1.h): the operations it keeps from cpu, where
 * nothing is summed across entries (finite's first index is the same on any
 * partition), and the summing ones of blas1_exact.c. */
#define x_alloc v_alloc
#define x_release v_release
#define x_upload v_upload
#define x_download v_download
#define x_host v_host
#define x_copy v_copy
#define x_set v_set
#define x_scale v_scale
#define x_axpy v_axpy
#define x_axpby v_axpby
#define x_xpay v_xpay
#define x_waxpy v_waxpy
#define x_axpbypcz v_axpbypcz
#define x_pmult v_pmult
#define x_diag_axpy v_diag_axpy
#define x_maxpy v_maxpy
#define x_maxpy2 v_maxpy2
#define x_finite v_finite
#define x_dot hpls_cpu_x_dot
#define x_nrm2 hpls_cpu_x_nrm2
#define x_mdot hpls_cpu_x_mdot
#define x_mdot2 hpls_cpu_x_mdot2
const hpls_vops hpls_cpu_exact_vops = HPLS_VOPS_OF(x_, CPU_EXACT);
