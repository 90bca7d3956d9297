/* ref.c: plain sequential kernels, as readable as a textbook: the oracle the
 * OpenMP (and later CUDA) kernels are tested against. */
#include "core/internal.h"

#include <math.h>

double hpls_ref_dot(hpls_int n, const hpls_real *x, const hpls_real *y)
{
    double s = 0.0;
    for (hpls_int i = 0; i < n; i++)
        s += x[i] * y[i];
    return s;
}

double hpls_ref_nrm2(hpls_int n, const hpls_real *x)
{
    double amax = 0.0, s = 0.0;
    for (hpls_int i = 0; i < n; i++)
        amax = fmax(amax, fabs(x[i]));
    if (amax == 0.0 || !isfinite(amax))
        return amax;
    for (hpls_int i = 0; i < n; i++)
        s += (x[i] / amax) * (x[i] / amax);
    return amax * sqrt(s);
}

void hpls_ref_axpby(hpls_int n, hpls_real a, const hpls_real *x, hpls_real b, hpls_real *y)
{
    for (hpls_int i = 0; i < n; i++)
        y[i] = a * x[i] + b * y[i];
}

void hpls_ref_axpbypcz(hpls_int n, hpls_real a, const hpls_real *x, hpls_real b,
                       const hpls_real *y, hpls_real c, hpls_real *z)
{
    for (hpls_int i = 0; i < n; i++)
        z[i] = a * x[i] + b * y[i] + c * z[i];
}

void hpls_ref_spmv(const hpls_csr *A, const hpls_real *x, hpls_real *y)
{
    for (hpls_int i = 0; i < A->nrows; i++) {
        double s = 0.0;
        for (hpls_int k = A->rowptr[i]; k < A->rowptr[i + 1]; k++)
            s += A->val[k] * x[A->colind[k]];
        y[i] = s;
    }
}

double hpls_ref_residual(const hpls_csr *A, const hpls_real *b, const hpls_real *x, hpls_real *r)
{
    for (hpls_int i = 0; i < A->nrows; i++) {
        double s = b[i];
        for (hpls_int k = A->rowptr[i]; k < A->rowptr[i + 1]; k++)
            s -= A->val[k] * x[A->colind[k]];
        r[i] = s;
    }
    return hpls_ref_nrm2(A->nrows, r);
}

void hpls_ref_bicgstab_p(hpls_int n, const hpls_real *r, hpls_real beta, hpls_real omega,
                         const hpls_real *v, hpls_real *p)
{
    for (hpls_int i = 0; i < n; i++)
        p[i] = r[i] + beta * (p[i] - omega * v[i]);
}

double hpls_ref_waxpy_nrm2(hpls_int n, hpls_real a, const hpls_real *x, const hpls_real *y,
                           hpls_real *w)
{
    for (hpls_int i = 0; i < n; i++)
        w[i] = y[i] + a * x[i];
    return hpls_ref_nrm2(n, w);
}

void hpls_ref_dot2(hpls_int n, const hpls_real *x, const hpls_real *y, double *xx, double *xy)
{
    *xx = hpls_ref_dot(n, x, x);
    *xy = hpls_ref_dot(n, x, y);
}

void hpls_ref_bicgstab_xr(hpls_int n, hpls_real alpha, const hpls_real *phat, hpls_real omega,
                          const hpls_real *shat, const hpls_real *s, const hpls_real *t,
                          const hpls_real *rhat, hpls_real *x, hpls_real *r, double *rnorm,
                          double *rhat_r)
{
    for (hpls_int i = 0; i < n; i++) {
        x[i] = alpha * phat[i] + omega * shat[i] + x[i];
        r[i] = s[i] - omega * t[i];
    }
    *rnorm = hpls_ref_nrm2(n, r);
    *rhat_r = hpls_ref_dot(n, rhat, r);
}
