/* SPDX-License-Identifier: BSD-3-Clause */
/* ref.c: the ref backend (backend/backend.h; its family of the methods' fused
 * kernels: kernels/bicgstab.h, hisa.h, pjg.h, relax.h): plain sequential loops, as
 * readable as a textbook, the oracle the cpu (and later device) backends are
 * tested against.  It is also the checker: its handles are descriptors kept in
 * a registry, and every handle an operation is given must be one of its live
 * vectors, long enough; anything else (a raw array, a freed or a foreign
 * vector) is refused with HPLS_ERR_INTERNAL and the operation does nothing.
 * The test suite runs every method on it, which proves that methods reach
 * vectors only through the backend. */
#include "backend/backend.h"
#include "kernels/bicgstab.h"
#include "kernels/hisa.h"
#include "kernels/pjg.h"
#include "kernels/relax.h"

#include <math.h>
#include <string.h>

struct ref_vec {
    hpls_int n;
    hpls_real *data;
};

typedef struct ref_state {
    struct ref_vec **live; /* the vectors allocated and not released */
    hpls_int nlive, cap;
} ref_state;

hpls_status hpls_ref_init(hpls_backend *be)
{
    be->impl = hpls_calloc(1, sizeof(ref_state));
    return be->impl ? HPLS_OK : HPLS_ERR_NOMEM;
}

void hpls_ref_fini(hpls_backend *be)
{
    ref_state *R = be->impl;
    if (!R)
        return;
    for (hpls_int i = 0; i < R->nlive; i++) { /* what a failed setup left behind */
        hpls_free(R->live[i]->data);
        hpls_free(R->live[i]);
    }
    hpls_free(R->live);
    hpls_free(R);
    be->impl = NULL;
}

/* Position of v in the registry, or -1 (the handle is never dereferenced first). */
static hpls_int find(const ref_state *R, const hpls_dvec *v)
{
    for (hpls_int i = R->nlive - 1; i >= 0; i--)
        if ((const void *)R->live[i] == (const void *)v)
            return i;
    return -1;
}

/* The array of v if v is a live vector of at least n values, else NULL after
 * recording why. */
static hpls_real *arr(hpls_backend *be, const hpls_dvec *v, hpls_int n, const char *op)
{
    const ref_state *R = be->impl;
    hpls_int i = v ? find(R, v) : -1;
    if (i < 0) {
        hpls_be_fail(be, HPLS_ERR_INTERNAL, "ref backend: %s was handed %p, which is not one "
                     "of its vectors (a method touched memory behind the backend)", op,
                     (const void *)v);
        return NULL;
    }
    if (R->live[i]->n < n) {
        hpls_be_fail(be, HPLS_ERR_INTERNAL, "ref backend: %s on %lld values of a vector of %lld",
                     op, (long long)n, (long long)R->live[i]->n);
        return NULL;
    }
    return R->live[i]->data;
}

static hpls_status v_alloc(hpls_backend *be, hpls_int n, hpls_dvec **out)
{
    ref_state *R = be->impl;
    *out = NULL;
    if (R->nlive == R->cap) {
        hpls_int cap = R->cap ? 2 * R->cap : 32;
        struct ref_vec **live = hpls_malloc(cap, sizeof *live);
        if (!live)
            return HPLS_ERR_NOMEM;
        for (hpls_int i = 0; i < R->nlive; i++)
            live[i] = R->live[i];
        hpls_free(R->live);
        R->live = live;
        R->cap = cap;
    }
    struct ref_vec *v = hpls_malloc(1, sizeof *v);
    hpls_real *data = v ? hpls_calloc(n, sizeof *data) : NULL;
    if (!data) {
        hpls_free(v);
        return HPLS_ERR_NOMEM;
    }
    *v = (struct ref_vec){.n = n, .data = data};
    R->live[R->nlive++] = v;
    *out = (hpls_dvec *)v;
    return HPLS_OK;
}

static void v_release(hpls_backend *be, hpls_dvec *h)
{
    ref_state *R = be->impl;
    if (!h)
        return;
    hpls_int i = find(R, h);
    if (i < 0) {
        hpls_be_fail(be, HPLS_ERR_INTERNAL, "ref backend: release of %p, not one of its vectors",
                     (void *)h);
        return;
    }
    hpls_free(R->live[i]->data);
    hpls_free(R->live[i]);
    R->live[i] = R->live[--R->nlive];
}

static void v_upload(hpls_backend *be, hpls_int n, const hpls_real *h, hpls_dvec *v)
{
    hpls_real *y = arr(be, v, n, "upload");
    for (hpls_int i = 0; y && i < n; i++)
        y[i] = h[i];
}

static void v_download(hpls_backend *be, hpls_int n, const hpls_dvec *v, hpls_real *h)
{
    const hpls_real *x = arr(be, v, n, "download");
    for (hpls_int i = 0; x && i < n; i++)
        h[i] = x[i];
}

static hpls_real *v_host(hpls_backend *be, const hpls_dvec *v)
{
    return arr(be, v, 0, "host");
}

static void v_copy(hpls_backend *be, hpls_int n, const hpls_dvec *xv, hpls_dvec *yv)
{
    const hpls_real *x = arr(be, xv, n, "copy");
    hpls_real *y = arr(be, yv, n, "copy");
    for (hpls_int i = 0; x && y && i < n; i++)
        y[i] = x[i];
}

static void v_set(hpls_backend *be, hpls_int n, double a, hpls_dvec *yv)
{
    hpls_real *y = arr(be, yv, n, "set");
    for (hpls_int i = 0; y && i < n; i++)
        y[i] = a;
}

static void v_scale(hpls_backend *be, hpls_int n, double a, hpls_dvec *yv)
{
    hpls_real *y = arr(be, yv, n, "scale");
    for (hpls_int i = 0; y && i < n; i++)
        y[i] = a * y[i];
}

static void v_axpy(hpls_backend *be, hpls_int n, double a, const hpls_dvec *xv, hpls_dvec *yv)
{
    const hpls_real *x = arr(be, xv, n, "axpy");
    hpls_real *y = arr(be, yv, n, "axpy");
    for (hpls_int i = 0; x && y && i < n; i++)
        y[i] = y[i] + a * x[i];
}

static void v_axpby(hpls_backend *be, hpls_int n, double a, const hpls_dvec *xv, double b,
                    hpls_dvec *yv)
{
    const hpls_real *x = arr(be, xv, n, "axpby");
    hpls_real *y = arr(be, yv, n, "axpby");
    for (hpls_int i = 0; x && y && i < n; i++)
        y[i] = a * x[i] + b * y[i];
}

static void v_xpay(hpls_backend *be, hpls_int n, const hpls_dvec *xv, double a, hpls_dvec *yv)
{
    const hpls_real *x = arr(be, xv, n, "xpay");
    hpls_real *y = arr(be, yv, n, "xpay");
    for (hpls_int i = 0; x && y && i < n; i++)
        y[i] = x[i] + a * y[i];
}

static void v_waxpy(hpls_backend *be, hpls_int n, double a, const hpls_dvec *xv,
                    const hpls_dvec *yv, hpls_dvec *wv)
{
    const hpls_real *x = arr(be, xv, n, "waxpy"), *y = arr(be, yv, n, "waxpy");
    hpls_real *w = arr(be, wv, n, "waxpy");
    for (hpls_int i = 0; x && y && w && i < n; i++)
        w[i] = y[i] + a * x[i];
}

static void v_axpbypcz(hpls_backend *be, hpls_int n, double a, const hpls_dvec *xv, double b,
                       const hpls_dvec *yv, double c, hpls_dvec *zv)
{
    const hpls_real *x = arr(be, xv, n, "axpbypcz"), *y = arr(be, yv, n, "axpbypcz");
    hpls_real *z = arr(be, zv, n, "axpbypcz");
    for (hpls_int i = 0; x && y && z && i < n; i++)
        z[i] = a * x[i] + b * y[i] + c * z[i];
}

static void v_pmult(hpls_backend *be, hpls_int n, const hpls_dvec *xv, const hpls_dvec *yv,
                    hpls_dvec *zv)
{
    const hpls_real *x = arr(be, xv, n, "pmult"), *y = arr(be, yv, n, "pmult");
    hpls_real *z = arr(be, zv, n, "pmult");
    for (hpls_int i = 0; x && y && z && i < n; i++)
        z[i] = x[i] * y[i];
}

static void v_diag_axpy(hpls_backend *be, hpls_int n, double a, const hpls_dvec *dv,
                        const hpls_dvec *xv, hpls_dvec *yv)
{
    const hpls_real *d = arr(be, dv, n, "diag_axpy"), *x = arr(be, xv, n, "diag_axpy");
    hpls_real *y = arr(be, yv, n, "diag_axpy");
    for (hpls_int i = 0; d && x && y && i < n; i++)
        y[i] = y[i] + a * d[i] * x[i];
}

/* sum x_i y_i, in order (a refused handle: NaN, so the method stops at once) */
static double sum_xy(const hpls_real *x, const hpls_real *y, hpls_int n)
{
    if (!x || !y)
        return NAN;
    double s = 0.0;
    for (hpls_int i = 0; i < n; i++)
        s += x[i] * y[i];
    return s;
}

static double v_dot(hpls_backend *be, hpls_int n, const hpls_dvec *xv, const hpls_dvec *yv)
{
    double s = sum_xy(arr(be, xv, n, "dot"), arr(be, yv, n, "dot"), n);
    hpls_be_reduce(be, &s, 1, HPLS_RED_SUM);
    return s;
}

/* ||x||_2 scaled by max |x_i|: no overflow or underflow in the squares */
static double v_nrm2(hpls_backend *be, hpls_int n, const hpls_dvec *xv)
{
    const hpls_real *x = arr(be, xv, n, "nrm2");
    if (!x)
        return NAN;
    double amax = 0.0, s = 0.0;
    for (hpls_int i = 0; i < n; i++)
        amax = isnan(x[i]) || isnan(amax) ? NAN : fmax(amax, fabs(x[i]));
    hpls_be_reduce(be, &amax, 1, HPLS_RED_MAX);
    if (amax == 0.0 || !isfinite(amax))
        return amax;
    for (hpls_int i = 0; i < n; i++)
        s += (x[i] / amax) * (x[i] / amax);
    hpls_be_reduce(be, &s, 1, HPLS_RED_SUM);
    return amax * sqrt(s);
}

static void v_mdot(hpls_backend *be, hpls_int n, int k, const hpls_dvec *const *V,
                   const hpls_dvec *wv, double *h)
{
    const hpls_real *w = arr(be, wv, n, "mdot");
    for (int j = 0; j < k; j++)
        h[j] = sum_xy(arr(be, V[j], n, "mdot"), w, n);
    hpls_be_reduce(be, h, k, HPLS_RED_SUM);
}

static void v_maxpy(hpls_backend *be, hpls_int n, int k, const double *a,
                    const hpls_dvec *const *V, double beta, hpls_dvec *wv)
{
    hpls_real *w = arr(be, wv, n, "maxpy");
    for (hpls_int i = 0; w && i < n; i++)
        w[i] = beta == 0.0 ? 0.0 : beta * w[i];
    for (int j = 0; j < k; j++) {
        const hpls_real *v = arr(be, V[j], n, "maxpy");
        for (hpls_int i = 0; v && w && i < n; i++)
            w[i] = w[i] + a[j] * v[i];
    }
}

static void v_mdot2(hpls_backend *be, hpls_int n, int k, const hpls_dvec *const *V,
                    const hpls_dvec *xv, const hpls_dvec *yv, double *h)
{
    const hpls_real *x = arr(be, xv, n, "mdot2"), *y = arr(be, yv, n, "mdot2");
    for (int j = 0; j < k; j++) {
        const hpls_real *v = arr(be, V[j], n, "mdot2");
        h[j] = sum_xy(v, x, n);
        h[k + j] = sum_xy(v, y, n);
    }
    h[2 * k] = sum_xy(x, x, n);
    h[2 * k + 1] = sum_xy(x, y, n);
    h[2 * k + 2] = sum_xy(y, y, n);
    hpls_be_reduce(be, h, 2 * k + 3, HPLS_RED_SUM);
}

static void v_maxpy2(hpls_backend *be, hpls_int n, int k, const hpls_dvec *const *V,
                     const double *a, double alpha, hpls_dvec *xv, const double *b, double beta,
                     double gamma, hpls_dvec *yv)
{
    hpls_real *x = arr(be, xv, n, "maxpy2"), *y = arr(be, yv, n, "maxpy2");
    for (int j = 0; x && y && j < k; j++) {
        const hpls_real *v = arr(be, V[j], n, "maxpy2");
        for (hpls_int i = 0; v && i < n; i++) {
            x[i] = x[i] + a[j] * v[i];
            y[i] = y[i] + b[j] * v[i];
        }
    }
    for (hpls_int i = 0; x && y && i < n; i++) {
        x[i] = alpha * x[i];
        y[i] = gamma * (y[i] + beta * x[i]);
    }
}

void hpls_ref_bicgstab_p(hpls_backend *be, hpls_int n, const hpls_dvec *rv, double beta,
                         double omega, const hpls_dvec *vv, hpls_dvec *pv)
{
    const hpls_real *r = arr(be, rv, n, "bicgstab_p"), *v = arr(be, vv, n, "bicgstab_p");
    hpls_real *p = arr(be, pv, n, "bicgstab_p");
    for (hpls_int i = 0; r && v && p && i < n; i++)
        p[i] = r[i] + beta * (p[i] - omega * v[i]);
}

void hpls_ref_bicgstab_dot3(hpls_backend *be, hpls_int n, const hpls_dvec *tv, const hpls_dvec *sv,
                            double *tt, double *ts, double *ss)
{
    const hpls_real *t = arr(be, tv, n, "dot3"), *s = arr(be, sv, n, "dot3");
    double v[3] = {sum_xy(t, t, n), sum_xy(t, s, n), sum_xy(s, s, n)};
    hpls_be_reduce(be, v, 3, HPLS_RED_SUM);
    *tt = v[0];
    *ts = v[1];
    *ss = v[2];
}

void hpls_ref_bicgstab_xr(hpls_backend *be, hpls_int n, double alpha, const hpls_dvec *phatv,
                          double omega, const hpls_dvec *shatv, const hpls_dvec *sv,
                          const hpls_dvec *tv, const hpls_dvec *rhatv, hpls_dvec *xv, hpls_dvec *rv,
                          double *rnorm, double *rhat_r)
{
    const char *op = "bicgstab_xr";
    const hpls_real *phat = arr(be, phatv, n, op), *shat = arr(be, shatv, n, op);
    const hpls_real *s = arr(be, sv, n, op), *t = arr(be, tv, n, op);
    hpls_real *x = arr(be, xv, n, op), *r = arr(be, rv, n, op);
    for (hpls_int i = 0; phat && shat && s && t && x && r && i < n; i++) {
        x[i] = alpha * phat[i] + omega * shat[i] + x[i];
        r[i] = s[i] - omega * t[i];
    }
    *rnorm = v_nrm2(be, n, rv);
    *rhat_r = v_dot(be, n, rhatv, rv);
}

double hpls_ref_hisa_update(hpls_backend *be, hpls_int n, const hpls_dvec *bv, const hpls_dvec *yv,
                            const hpls_dvec *ynewv, hpls_dvec *bpv)
{
    const char *op = "hisa_update";
    const hpls_real *b = arr(be, bv, n, op), *y = arr(be, yv, n, op);
    const hpls_real *ynew = arr(be, ynewv, n, op);
    hpls_real *bp = arr(be, bpv, n, op);
    if (!b || !y || !ynew || !bp)
        return NAN;
    double s = 0.0;
    for (hpls_int i = 0; i < n; i++) {
        s += (y[i] - ynew[i]) * (y[i] - ynew[i]);
        bp[i] = b[i] - ynew[i];
    }
    hpls_be_reduce(be, &s, 1, HPLS_RED_SUM);
    return sqrt(s);
}

static hpls_int v_finite(hpls_backend *be, hpls_int n, const hpls_dvec *xv, double *bad)
{
    const hpls_real *x = arr(be, xv, n, "finite");
    for (hpls_int i = 0; x && i < n; i++)
        if (!isfinite(x[i])) {
            *bad = x[i];
            return i;
        }
    return -1;
}

const hpls_vops hpls_ref_vops = HPLS_VOPS_OF(v_, REF);

/* ---- host kernels: the sequential reference (nt ignored) ---------------- */

void hpls_ref_spmv(int nt, const hpls_csr *A, const hpls_real *x, hpls_real *y)
{
    (void)nt;
    for (hpls_int i = 0; i < A->nrows; i++) {
        double s = 0.0;
        for (hpls_int k = A->rowptr[i]; k < A->rowptr[i + 1]; k++)
            s += A->val[k] * x[A->colind[k]];
        y[i] = s;
    }
}

double hpls_ref_residual(int nt, const hpls_csr *A, const hpls_real *b, const hpls_real *x,
                         hpls_real *r)
{
    (void)nt;
    double ss = 0.0;
    for (hpls_int i = 0; i < A->nrows; i++) {
        double s = b[i];
        for (hpls_int k = A->rowptr[i]; k < A->rowptr[i + 1]; k++)
            s -= A->val[k] * x[A->colind[k]];
        r[i] = s;
        ss += s * s;
    }
    return ss;
}

void hpls_ref_residual_block(int nt, const hpls_csr *A, hpls_int k, const hpls_real *B,
                             const hpls_real *X, hpls_real *R, hpls_int ld, double *ss)
{
    for (hpls_int j = 0; j < k; j++) {
        if (B) {
            ss[j] = hpls_ref_residual(nt, A, B + j * ld, X + j * ld, R + j * ld);
            continue;
        }
        hpls_ref_spmv(nt, A, X + j * ld, R + j * ld);
        ss[j] = 0.0;
        for (hpls_int i = 0; i < A->nrows; i++)
            ss[j] += R[j * ld + i] * R[j * ld + i];
    }
}

static void ref_gemv(int nt, const hpls_dense *A, const hpls_real *x, hpls_real *y)
{
    (void)nt;
    for (hpls_int i = 0; i < A->nrows; i++) {
        double s = 0.0;
        for (hpls_int j = 0; j < A->ncols; j++)
            s += A->data[i * A->ncols + j] * x[j];
        y[i] = s;
    }
}

static double ref_dense_residual(int nt, const hpls_dense *A, const hpls_real *b,
                                 const hpls_real *x, hpls_real *r)
{
    ref_gemv(nt, A, x, r);
    double ss = 0.0;
    for (hpls_int i = 0; i < A->nrows; i++) {
        r[i] = b[i] - r[i];
        ss += r[i] * r[i];
    }
    return ss;
}

static double ref_triangle_spmv(const hpls_csr *A, const hpls_int *diagpos, int upper,
                                double dscale, const hpls_real *dx, hpls_real *r)
{
    double ss = 0.0;
    for (hpls_int i = 0; i < A->nrows; i++) {
        double s = dscale * A->val[diagpos[i]] * dx[i];
        for (hpls_int k = A->rowptr[i]; k < A->rowptr[i + 1]; k++)
            if (upper ? A->colind[k] > i : A->colind[k] < i)
                s += A->val[k] * dx[A->colind[k]];
        r[i] = s;
        ss += s * s;
    }
    return ss;
}

static double ref_dense_triangle(const hpls_dense *A, int upper, double dscale, const hpls_real *dx,
                                 hpls_real *r)
{
    hpls_int n = A->nrows;
    double ss = 0.0;
    for (hpls_int i = 0; i < n; i++) {
        double s = 0.0;
        for (hpls_int j = upper ? i + 1 : 0; j < (upper ? n : i); j++)
            s += A->data[i * n + j] * dx[j];
        s += dscale * A->data[i * n + i] * dx[i];
        r[i] = s;
        ss += s * s;
    }
    return ss;
}

/* The relaxation residual (kernels/relax.h) as it reads: r = (T + dscale D) dx,
 * dx = x_old - x_new from cpu's sweep. */
double hpls_ref_relax_residual(hpls_backend *be, const hpls_relax_matrix *M, const hpls_drelax *R,
                               int upper, double dscale, const hpls_dvec *x, const hpls_dvec *dxv,
                               hpls_dvec *rv)
{
    (void)R;
    (void)x;
    hpls_int n = M->A ? M->A->nrows : M->Ad->nrows;
    const hpls_real *dx = arr(be, dxv, n, "relax_residual");
    hpls_real *r = arr(be, rv, n, "relax_residual");
    if (!dx || !r)
        return NAN; /* recorded */
    return M->A ? ref_triangle_spmv(M->A, M->diagpos, upper, dscale, dx, r)
                : ref_dense_triangle(M->Ad, upper, dscale, dx, r);
}

/* The PJG sweep as its definition reads: r = b - A x_old first, then block by
 * block x_i = (b_i - sum_{j != i} a_ij x_j) / a_ii with the new x_j of earlier
 * blocks and the old x_j (kept in xold) of its own and later blocks. */
void hpls_ref_pjg_sweep(hpls_backend *be, const hpls_pjg_partition *P, const hpls_pjg_matrix *M,
                        const hpls_dvec *dinvv, const hpls_dvec *bv, hpls_dvec **xv,
                        hpls_dvec **xoldv, hpls_dvec *rv)
{
    const char *op = "pjg_sweep";
    const hpls_csr *A = M->A;
    const hpls_dense *Ad = M->Ad;
    hpls_int n = A ? A->nrows : Ad->nrows;
    const hpls_real *dinv = arr(be, dinvv, n, op), *b = arr(be, bv, n, op);
    hpls_real *x = arr(be, *xv, n, op), *xold = arr(be, *xoldv, n, op);
    hpls_real *r = rv ? arr(be, rv, n, op) : NULL;
    if (!dinv || !b || !x || !xold || (rv && !r))
        return; /* recorded */
    for (hpls_int i = 0; i < n; i++)
        xold[i] = x[i];
    if (r && A)
        hpls_ref_residual(1, A, b, xold, r);
    else if (r)
        ref_dense_residual(1, Ad, b, xold, r);
    for (hpls_int k = 0; k < P->nblocks; k++)
        for (hpls_int q = P->ptr[k]; q < P->ptr[k + 1]; q++) {
            hpls_int i = P->idx[q];
            double s = b[i];
            hpls_int p0 = A ? A->rowptr[i] : 0, p1 = A ? A->rowptr[i + 1] : n;
            for (hpls_int p = p0; p < p1; p++) {
                hpls_int j = A ? A->colind[p] : p;
                double a = A ? A->val[p] : Ad->data[i * n + j];
                if (j != i)
                    s -= a * (P->blockof[j] < k ? x[j] : xold[j]);
            }
            x[i] = s * dinv[i];
        }
}

static void ref_spmv_pf(int nt, int pf, const hpls_csr *A, const hpls_real *x, hpls_real *y)
{
    (void)pf;
    hpls_ref_spmv(nt, A, x, y);
}

static void ref_spmv_t(int nt, int pf, const hpls_csr *A, const hpls_csr *At, const hpls_real *x,
                       hpls_real *y)
{
    (void)pf, (void)A;
    hpls_ref_spmv(nt, At, x, y);
}

static double ref_residual_pf(int nt, int pf, const hpls_csr *A, const hpls_real *b,
                              const hpls_real *x, hpls_real *r)
{
    (void)pf;
    return hpls_ref_residual(nt, A, b, x, r);
}

const hpls_kernels hpls_ref_kernels = {
    .spmv = ref_spmv_pf,
    .spmv_t = ref_spmv_t,
    .residual = ref_residual_pf,
    .residual_block = hpls_ref_residual_block,
    .gemv = ref_gemv,
    .dense_residual = ref_dense_residual,
};
