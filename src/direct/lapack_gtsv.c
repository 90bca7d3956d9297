/* SPDX-License-Identifier: BSD-3-Clause */
/* lapack_gtsv.c: LAPACK's tridiagonal LU with partial pivoting (dgttrf, and
 * dgttrs per right-hand side; dgtsv for one-shot solves), the reference the
 * other tridiagonal solvers are measured against.  LAPACK keeps the
 * sub-diagonal in n-1 values starting at row 2: dl_lapack[i] = dl[i+1]. */
#include "direct/direct.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Fortran interfaces (LP64 LAPACK; gfortran passes the length of a character
 * argument as a trailing size_t) */
void dgttrf_(const int *n, double *dl, double *d, double *du, double *du2, int *ipiv, int *info);
void dgttrs_(const char *trans, const int *n, const int *nrhs, const double *dl, const double *d,
             const double *du, const double *du2, const int *ipiv, double *b, const int *ldb,
             int *info, size_t trans_len);
void dgtcon_(const char *norm, const int *n, const double *dl, const double *d, const double *du,
             const double *du2, const int *ipiv, const double *anorm, double *rcond, double *work,
             int *iwork, int *info, size_t norm_len);
void dgtsv_(const int *n, const int *nrhs, double *dl, double *d, double *du, double *b,
            const int *ldb, int *info);

static hpls_status check_n(hpls_int n)
{
    if (n > INT_MAX)
        return hpls_fail(HPLS_ERR_UNSUPPORTED, "lapack: n = %lld exceeds LAPACK's 32-bit sizes",
                         (long long)n);
    return HPLS_OK;
}

void hpls_lapack_gt_free(hpls_lapack_gt *f)
{
    hpls_free(f->dl);
    hpls_free(f->d);
    hpls_free(f->du);
    hpls_free(f->du2);
    hpls_free(f->ipiv);
    f->dl = f->d = f->du = f->du2 = NULL;
    f->ipiv = NULL;
}

hpls_status hpls_lapack_gt_factor(hpls_int n, const hpls_real *dl, const hpls_real *d,
                                  const hpls_real *du, hpls_lapack_gt *f)
{
    *f = (hpls_lapack_gt){.n = n};
    hpls_status st = check_n(n);
    if (st != HPLS_OK)
        return st;
    f->dl = hpls_malloc(n, sizeof *f->dl);
    f->d = hpls_malloc(n, sizeof *f->d);
    f->du = hpls_malloc(n, sizeof *f->du);
    f->du2 = hpls_malloc(n, sizeof *f->du2);
    f->ipiv = hpls_malloc(n, sizeof *f->ipiv);
    if (!f->dl || !f->d || !f->du || !f->du2 || !f->ipiv) {
        hpls_lapack_gt_free(f);
        return HPLS_ERR_NOMEM;
    }
    if (n == 0)
        return HPLS_OK;
    memcpy(f->dl, dl + 1, (size_t)(n - 1) * sizeof *dl);
    memcpy(f->d, d, (size_t)n * sizeof *d);
    memcpy(f->du, du, (size_t)(n - 1) * sizeof *du);
    int in = (int)n, info = 0;
    dgttrf_(&in, f->dl, f->d, f->du, f->du2, f->ipiv, &info);
    if (info > 0) {
        hpls_lapack_gt_free(f);
        return hpls_fail(HPLS_ERR_SINGULAR,
                         "lapack: U(%d, %d) is exactly zero: the matrix is singular", info, info);
    }
    if (info < 0) {
        hpls_lapack_gt_free(f);
        return hpls_fail(HPLS_ERR_INTERNAL, "dgttrf: info = %d", info);
    }
    for (hpls_int j = 0; j < n; j++) { /* ||T||_1, the largest column sum, for dgtcon */
        double c = fabs(d[j]) + (j + 1 < n ? fabs(dl[j + 1]) : 0.0) + (j > 0 ? fabs(du[j - 1]) : 0.0);
        f->anorm = c > f->anorm ? c : f->anorm;
    }
    return HPLS_OK;
}

hpls_status hpls_lapack_gt_rcond(const hpls_lapack_gt *f, double *rcond)
{
    *rcond = 1.0;
    if (f->n == 0)
        return HPLS_OK;
    double *work = hpls_malloc(2 * f->n, sizeof *work);
    int *iwork = hpls_malloc(f->n, sizeof *iwork), in = (int)f->n, info = 0;
    if (work && iwork)
        dgtcon_("1", &in, f->dl, f->d, f->du, f->du2, f->ipiv, &f->anorm, rcond, work, iwork, &info, 1);
    hpls_free(work);
    hpls_free(iwork);
    if (!work || !iwork)
        return HPLS_ERR_NOMEM;
    return info == 0 ? HPLS_OK : hpls_fail(HPLS_ERR_INTERNAL, "dgtcon: info = %d", info);
}

hpls_status hpls_lapack_gt_solve(const hpls_lapack_gt *f, int nt, hpls_int nrhs,
                                 const hpls_real *b, hpls_real *x)
{
    hpls_int n = f->n;
    if (n == 0)
        return HPLS_OK;
    if (x != b)
        memcpy(x, b, (size_t)(n * nrhs) * sizeof *x);
    int in = (int)n, one = 1, bad = 0;
#pragma omp parallel for schedule(static) num_threads(nt) if (nrhs > 1) reduction(| : bad)
    for (hpls_int k = 0; k < nrhs; k++) {
        int info = 0;
        dgttrs_("N", &in, &one, f->dl, f->d, f->du, f->du2, f->ipiv, x + k * n, &in, &info, 1);
        bad |= info != 0;
    }
    return bad ? hpls_fail(HPLS_ERR_INTERNAL, "dgttrs failed") : HPLS_OK;
}

hpls_status hpls_tridiag_condition(const hpls_tridiag *T, const char *who, int nt, double *rcond)
{
    hpls_tridiag_dom dom;
    hpls_tridiag_dominance_rows(T->n, T->dl, T->d, T->du, &(hpls_tridiag_dom_edge){0}, nt, &dom);
    *rcond = hpls_tridiag_dominance_bound(&dom, T->n);
    if (*rcond >= HPLS_TRIDIAG_DOMINANT_RCOND)
        return HPLS_OK;
    hpls_lapack_gt f;
    *rcond = 0.0;
    if (T->n > INT_MAX) /* beyond LAPACK's sizes: no estimate (0), the method decides */
        return HPLS_OK;
    hpls_status st = hpls_lapack_gt_factor(T->n, T->dl, T->d, T->du, &f);
    if (st == HPLS_ERR_SINGULAR) { /* the row is in lapack's message: keep it, name who */
        char why[256];
        snprintf(why, sizeof why, "%s", hpls_last_error() + strlen("lapack: "));
        return hpls_fail(st, "%s: %s (LU with partial pivoting; the same for every direct method "
                             "and partition count)", who, why);
    }
    if (st == HPLS_OK)
        st = hpls_lapack_gt_rcond(&f, rcond);
    hpls_lapack_gt_free(&f);
    return st;
}

hpls_status hpls_lapack_gtsv(hpls_int n, const hpls_real *dl, const hpls_real *d,
                             const hpls_real *du, const hpls_real *b, hpls_real *x)
{
    hpls_status st = check_n(n);
    if (st != HPLS_OK || n == 0)
        return st;
    hpls_real *c = hpls_malloc(3 * n, sizeof *c);
    if (!c)
        return HPLS_ERR_NOMEM;
    memcpy(c, dl + 1, (size_t)(n - 1) * sizeof *c);
    memcpy(c + n, d, (size_t)n * sizeof *c);
    memcpy(c + 2 * n, du, (size_t)(n - 1) * sizeof *c);
    if (x != b)
        memcpy(x, b, (size_t)n * sizeof *x);
    int in = (int)n, one = 1, info = 0;
    dgtsv_(&in, &one, c, c + n, c + 2 * n, x, &in, &info);
    hpls_free(c);
    if (info > 0)
        return hpls_fail(HPLS_ERR_SINGULAR,
                         "lapack: U(%d, %d) is exactly zero: the matrix is singular", info, info);
    return info == 0 ? HPLS_OK : hpls_fail(HPLS_ERR_INTERNAL, "dgtsv: info = %d", info);
}
