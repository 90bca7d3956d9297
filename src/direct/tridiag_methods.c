/* SPDX-License-Identifier: BSD-3-Clause */
/* tridiag_methods.c: the public hpls_tridiag_* API over the direct solvers
 * (factor, solve with the factors, one-shot, from CSR, T x).  Their use as
 * solver methods, `--solver thomas|cr|gspike|lapack`, is iter/direct.c's. */
#include "direct/direct.h"

#include <math.h>
#include <omp.h>
#include <string.h>

struct hpls_tridiag_factors {
    hpls_tridiag_method method;
    hpls_int n;
    int nt; /* threads of the factorization and the solves */
    hpls_thomas thomas;
    hpls_cr cr;
    hpls_gspike *gspike;
    hpls_lapack_gt lapack;
    int refine; /* thomas, cr: the growth called for refinement (refine.c) */
    hpls_trefine ref;
};

static const char *const method_names[] = {"thomas", "cr", "gspike", "lapack"};
enum { NMETHODS = sizeof method_names / sizeof method_names[0] };

hpls_status hpls_tridiag_method_from_name(const char *name, hpls_tridiag_method *m)
{
    for (int k = 0; name && m && k < NMETHODS; k++)
        if (strcmp(name, method_names[k]) == 0) {
            *m = (hpls_tridiag_method)k;
            return HPLS_OK;
        }
    return hpls_fail(HPLS_ERR_ARG, "unknown tridiagonal method \"%s\" (thomas, cr, gspike, lapack)",
                     name ? name : "(null)");
}

const char *hpls_tridiag_method_name(hpls_tridiag_method m)
{
    return (unsigned)m < NMETHODS ? method_names[m] : "unknown";
}

hpls_status hpls_tridiag_check_finite(const hpls_tridiag *T, const char *who)
{
    for (hpls_int i = 0; i < T->n; i++)
        if (!isfinite(T->d[i]) || (i > 0 && !isfinite(T->dl[i])) ||
            (i < T->n - 1 && !isfinite(T->du[i])))
            return hpls_fail(HPLS_ERR_VALUE, "%s: row %lld holds NaN or Inf", who,
                             (long long)i + 1);
    return HPLS_OK;
}

static hpls_status check_tridiag(const hpls_tridiag *T, const char *who)
{
    if (!T || T->n < 0 || (T->n > 0 && (!T->dl || !T->d || !T->du)))
        return hpls_fail(HPLS_ERR_ARG, "%s: NULL or malformed tridiagonal matrix", who);
    return HPLS_OK;
}

hpls_status hpls_tridiag_factor_sized(const hpls_tridiag *T, hpls_tridiag_method m,
                                      const hpls_tridiag_opts *opts, size_t opts_size,
                                      hpls_tridiag_factors **out)
{
    if (!out)
        return hpls_fail(HPLS_ERR_ARG, "hpls_tridiag_factor: NULL output");
    *out = NULL;
    hpls_status st = check_tridiag(T, "hpls_tridiag_factor");
    if (st != HPLS_OK)
        return st;
    if ((unsigned)m >= NMETHODS)
        return hpls_fail(HPLS_ERR_ARG, "hpls_tridiag_factor: unknown method %d", (int)m);
    /* the fields the caller's struct has; the defaults for the rest (hpls.h, ABI) */
    hpls_tridiag_opts o = {0, HPLS_TRIDIAG_DELTA_DEFAULT, 0};
    if (opts)
        memcpy(&o, opts, opts_size < sizeof o ? opts_size : sizeof o);
    if (o.partitions < 0 || !(o.delta >= 0) || o.threads < 0)
        return hpls_fail(HPLS_ERR_ARG, "hpls_tridiag_factor: partitions %lld, delta %g or "
                         "threads %d negative", (long long)o.partitions, o.delta, o.threads);
    if ((st = hpls_tridiag_check_finite(T, "hpls_tridiag_factor")) != HPLS_OK)
        return st;
    hpls_int n = T->n;
    hpls_tridiag_factors *F = hpls_calloc(1, sizeof *F);
    if (!F)
        return HPLS_ERR_NOMEM;
    F->method = m;
    F->n = n;
    F->nt = o.threads > 0 ? (o.threads < HPLS_MAX_THREADS ? o.threads : HPLS_MAX_THREADS)
                          : hpls_default_threads();
    switch (m) {
    case HPLS_TRIDIAG_THOMAS: st = hpls_thomas_factor(n, T->dl, T->d, T->du, &F->thomas); break;
    case HPLS_TRIDIAG_CR: st = hpls_cr_factor(n, T->dl, T->d, T->du, F->nt, &F->cr); break;
    case HPLS_TRIDIAG_GSPIKE:
        st = hpls_gspike_factor(n, T->dl, T->d, T->du, F->nt, o.partitions, o.delta, 1,
                                &F->gspike);
        break;
    case HPLS_TRIDIAG_LAPACK: st = hpls_lapack_gt_factor(n, T->dl, T->d, T->du, &F->lapack); break;
    }
    /* thomas and cr refine where their growth calls for it (refine.c) */
    if (st == HPLS_OK && (m == HPLS_TRIDIAG_THOMAS || m == HPLS_TRIDIAG_CR)) {
        const void *fac = m == HPLS_TRIDIAG_CR ? (const void *)&F->cr : (const void *)&F->thomas;
        st = hpls_trefine_setup(m, fac, n, T->dl, T->d, T->du, F->nt, &F->ref);
        F->refine = F->ref.n > 0;
    }
    if (st != HPLS_OK) {
        hpls_tridiag_factors_destroy(F);
        return st;
    }
    *out = F;
    return HPLS_OK;
}

void hpls_tridiag_factors_destroy(hpls_tridiag_factors *F)
{
    if (!F)
        return;
    hpls_thomas_free(&F->thomas);
    hpls_cr_free(&F->cr);
    hpls_gspike_free(F->gspike);
    hpls_lapack_gt_free(&F->lapack);
    hpls_trefine_free(&F->ref);
    hpls_free(F);
}

hpls_int hpls_tridiag_factors_singular(const hpls_tridiag_factors *F)
{
    return F && F->method == HPLS_TRIDIAG_GSPIKE ? hpls_gspike_singular_blocks(F->gspike) : 0;
}

hpls_status hpls_tridiag_rcond(const hpls_tridiag *T, double *rcond)
{
    if (!rcond)
        return hpls_fail(HPLS_ERR_ARG, "hpls_tridiag_rcond: NULL rcond");
    *rcond = 0.0;
    hpls_status st = check_tridiag(T, "hpls_tridiag_rcond");
    if (st == HPLS_OK)
        st = hpls_tridiag_check_finite(T, "hpls_tridiag_rcond");
    if (st == HPLS_OK && T->n == 0)
        *rcond = 1.0; /* dgtcon's answer for an empty matrix */
    else if (st == HPLS_OK)
        st = hpls_tridiag_condition(T, "hpls_tridiag_rcond", hpls_default_threads(), rcond);
    return st;
}

/* thomas or cr with refinement, column by column (the residual is parallel) */
static hpls_status solve_refined(const hpls_tridiag_factors *F, hpls_int nrhs, const hpls_real *b,
                                 hpls_real *x)
{
    hpls_int n = F->n;
    hpls_trefine_crctx c = {&F->cr, NULL};
    if (F->method == HPLS_TRIDIAG_CR &&
        !(c.work = hpls_malloc(F->cr.off[F->cr.nlev] - n + 1, sizeof *c.work)))
        return HPLS_ERR_NOMEM;
    hpls_status st = HPLS_OK;
    for (hpls_int k = 0; k < nrhs && st == HPLS_OK; k++)
        st = F->method == HPLS_TRIDIAG_CR
                 ? hpls_trefine_solve(&F->ref, "cr", hpls_trefine_cr, &c, b + k * n, x + k * n)
                 : hpls_trefine_solve(&F->ref, "thomas", hpls_trefine_thomas, &F->thomas, b + k * n,
                                      x + k * n);
    hpls_free(c.work);
    return st;
}

int hpls_tridiag_factors_refine(const hpls_tridiag_factors *F)
{
    return F ? F->refine : 0;
}

hpls_status hpls_tridiag_solve_factored(const hpls_tridiag_factors *F, hpls_int nrhs,
                                        const hpls_real *b, hpls_real *x)
{
    if (!F || nrhs < 0 || (F->n > 0 && nrhs > 0 && (!b || !x)))
        return hpls_fail(HPLS_ERR_ARG, "hpls_tridiag_solve_factored: NULL argument or nrhs < 0");
    hpls_int n = F->n;
    if (n == 0 || nrhs == 0)
        return HPLS_OK;
    if (F->refine)
        return solve_refined(F, nrhs, b, x);
    hpls_status st = HPLS_OK;
    switch (F->method) {
    case HPLS_TRIDIAG_THOMAS:
        /* one right-hand side is sequential by nature; several go in parallel */
#pragma omp parallel for schedule(static) num_threads(F->nt) if (nrhs > 1)
        for (hpls_int k = 0; k < nrhs; k++)
            hpls_thomas_solve(&F->thomas, b + k * n, x + k * n);
        break;
    case HPLS_TRIDIAG_CR: {
        hpls_int wlen = F->cr.off[F->cr.nlev] - n;
        int nt = nrhs > 1 ? F->nt : 1;
        hpls_real *work = hpls_malloc(wlen * nt + 1, sizeof *work);
        if (!work)
            return HPLS_ERR_NOMEM;
#pragma omp parallel for schedule(static) num_threads(nt) if (nrhs > 1)
        for (hpls_int k = 0; k < nrhs; k++)
            hpls_cr_solve(&F->cr, b + k * n, x + k * n, work + wlen * omp_get_thread_num());
        hpls_free(work);
        break;
    }
    case HPLS_TRIDIAG_GSPIKE:
        for (hpls_int k = 0; k < nrhs && st == HPLS_OK; k++)
            st = hpls_gspike_solve(F->gspike, b + k * n, x + k * n);
        break;
    case HPLS_TRIDIAG_LAPACK: st = hpls_lapack_gt_solve(&F->lapack, F->nt, nrhs, b, x); break;
    }
    return st;
}

hpls_status hpls_tridiag_solve_sized(const hpls_tridiag *T, hpls_tridiag_method m,
                                     const hpls_tridiag_opts *opts, size_t opts_size,
                                     hpls_int nrhs, const hpls_real *b, hpls_real *x)
{
    hpls_tridiag_factors *F = NULL;
    hpls_status st = hpls_tridiag_factor_sized(T, m, opts, opts_size, &F);
    if (st == HPLS_OK)
        st = hpls_tridiag_solve_factored(F, nrhs, b, x);
    hpls_tridiag_factors_destroy(F);
    return st;
}

hpls_status hpls_tridiag_mv(const hpls_tridiag *T, const hpls_real *x, hpls_real *y)
{
    hpls_status st = check_tridiag(T, "hpls_tridiag_mv");
    if (st != HPLS_OK)
        return st;
    if (!x || !y)
        return hpls_fail(HPLS_ERR_ARG, "hpls_tridiag_mv: NULL vector");
    hpls_int n = T->n;
#pragma omp parallel for schedule(static)
    for (hpls_int i = 0; i < n; i++) {
        double s = T->d[i] * x[i];
        if (i > 0)
            s += T->dl[i] * x[i - 1];
        if (i < n - 1)
            s += T->du[i] * x[i + 1];
        y[i] = s;
    }
    return HPLS_OK;
}

hpls_status hpls_tridiag_from_csr(const hpls_csr *A, hpls_tridiag **out)
{
    if (!A || !out)
        return hpls_fail(HPLS_ERR_ARG, "hpls_tridiag_from_csr: NULL argument");
    *out = NULL;
    if (A->nrows != A->ncols)
        return hpls_fail(HPLS_ERR_SIZE, "the matrix is %lld x %lld: it must be square",
                         (long long)A->nrows, (long long)A->ncols);
    for (hpls_int i = 0; i < A->nrows; i++) /* the first offender, row by row */
        for (hpls_int k = A->rowptr[i]; k < A->rowptr[i + 1]; k++)
            if (A->colind[k] < i - 1 || A->colind[k] > i + 1)
                return hpls_fail(HPLS_ERR_SIZE, "entry (%lld, %lld) lies outside the tridiagonal band",
                                 (long long)i + 1, (long long)A->colind[k] + 1);
    hpls_tridiag *T = NULL;
    hpls_status st = hpls_tridiag_create(A->nrows, &T);
    if (st != HPLS_OK)
        return st;
#pragma omp parallel for schedule(static)
    for (hpls_int i = 0; i < A->nrows; i++)
        for (hpls_int k = A->rowptr[i]; k < A->rowptr[i + 1]; k++) {
            hpls_int j = A->colind[k];
            hpls_real *slot = j < i ? &T->dl[i] : j == i ? &T->d[i] : &T->du[i];
            *slot = A->val[k];
        }
    *out = T;
    return HPLS_OK;
}
