/* SPDX-License-Identifier: BSD-3-Clause */
/* objects.c: the plain containers: vector, dense row-major matrix, tridiagonal matrix.
 * Values are first touched by the OpenMP kernels' static partition (NUMA first touch). */
#include "core/internal.h"

static int size_ok(hpls_int n, const char *what)
{
    if (n >= 0)
        return 1;
    hpls_fail(HPLS_ERR_ARG, "%s: negative size %lld", what, (long long)n);
    return 0;
}

hpls_status hpls_vec_create(hpls_int n, hpls_vec **v)
{
    if (!v)
        return hpls_fail(HPLS_ERR_ARG, "hpls_vec_create: NULL output");
    *v = NULL;
    if (!size_ok(n, "hpls_vec_create"))
        return HPLS_ERR_ARG;
    hpls_vec *w = hpls_malloc(1, sizeof *w);
    if (!w)
        return HPLS_ERR_NOMEM;
    w->n = n;
    w->data = hpls_malloc(n, sizeof *w->data);
    if (!w->data) {
        hpls_free(w);
        return HPLS_ERR_NOMEM;
    }
    hpls_k_set(hpls_default_threads(), n, 0.0, w->data);
    *v = w;
    return HPLS_OK;
}

void hpls_vec_destroy(hpls_vec *v)
{
    if (!v)
        return;
    hpls_free(v->data);
    hpls_free(v);
}

hpls_status hpls_dense_create(hpls_int nrows, hpls_int ncols, hpls_dense **A)
{
    if (!A)
        return hpls_fail(HPLS_ERR_ARG, "hpls_dense_create: NULL output");
    *A = NULL;
    if (!size_ok(nrows, "hpls_dense_create") || !size_ok(ncols, "hpls_dense_create"))
        return HPLS_ERR_ARG;
    if (ncols > 0 && nrows > INT64_MAX / ncols)
        return hpls_fail(HPLS_ERR_NOMEM, "dense %lld x %lld matrix: size overflows",
                         (long long)nrows, (long long)ncols);
    hpls_dense *M = hpls_malloc(1, sizeof *M);
    if (!M)
        return HPLS_ERR_NOMEM;
    M->nrows = nrows;
    M->ncols = ncols;
    M->data = hpls_malloc(nrows * ncols, sizeof *M->data);
    if (!M->data) {
        hpls_free(M);
        return HPLS_ERR_NOMEM;
    }
    hpls_k_set(hpls_default_threads(), nrows * ncols, 0.0, M->data);
    *A = M;
    return HPLS_OK;
}

void hpls_dense_destroy(hpls_dense *A)
{
    if (!A)
        return;
    hpls_free(A->data);
    hpls_free(A);
}

hpls_status hpls_tridiag_create(hpls_int n, hpls_tridiag **T)
{
    if (!T)
        return hpls_fail(HPLS_ERR_ARG, "hpls_tridiag_create: NULL output");
    *T = NULL;
    if (!size_ok(n, "hpls_tridiag_create"))
        return HPLS_ERR_ARG;
    hpls_tridiag *M = hpls_calloc(1, sizeof *M);
    if (!M)
        return HPLS_ERR_NOMEM;
    M->n = n;
    M->dl = hpls_malloc(n, sizeof *M->dl);
    M->d = hpls_malloc(n, sizeof *M->d);
    M->du = hpls_malloc(n, sizeof *M->du);
    if (!M->dl || !M->d || !M->du) {
        hpls_tridiag_destroy(M);
        return HPLS_ERR_NOMEM;
    }
    hpls_k_set(hpls_default_threads(), n, 0.0, M->dl);
    hpls_k_set(hpls_default_threads(), n, 0.0, M->d);
    hpls_k_set(hpls_default_threads(), n, 0.0, M->du);
    *T = M;
    return HPLS_OK;
}

void hpls_tridiag_destroy(hpls_tridiag *T)
{
    if (!T)
        return;
    hpls_free(T->dl);
    hpls_free(T->d);
    hpls_free(T->du);
    hpls_free(T);
}
