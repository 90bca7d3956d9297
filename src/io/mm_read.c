/* SPDX-License-Identifier: BSD-3-Clause */
/* mm_read.c: the whole-file Matrix Market readers of the public API (a CSR
 * matrix, a dense one, a vector) on mmio.c's parser (mm_parse.h): the memory
 * each needs checked first, the entries read into it, duplicates summed and
 * checked. */
#define _POSIX_C_SOURCE 200809L /* locale_t in mm_parse.h */

#include "io/mm_parse.h"

#include <math.h>

/* Duplicates are summed: finite values may add up to an infinity, which no
 * later check of the caller expects from a reader that rejects "inf". */
hpls_status hpls_mm_check_sums(const char *path, const hpls_csr *A, hpls_int first)
{
    for (hpls_int i = 0; i < A->nrows; i++)
        for (hpls_int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++)
            if (!isfinite(A->val[p]))
                return hpls_fail(HPLS_ERR_VALUE,
                                 "%s: the duplicates of entry (%lld, %lld) sum to an infinity",
                                 path, (long long)(first + i) + 1, (long long)A->colind[p] + 1);
    return HPLS_OK;
}

static hpls_status check_sums(const hpls_mm_reader *r, hpls_csr **A)
{
    hpls_status st = hpls_mm_check_sums(r->path, *A, 0);
    if (st != HPLS_OK) {
        hpls_csr_destroy(*A);
        *A = NULL;
    }
    return st;
}

/* Coordinate file -> COO triplets (expanded) -> CSR, duplicates summed and
 * explicit zeros kept. */
static hpls_status csr_from_coordinate(hpls_mm_reader *r, const hpls_mm_header *h, hpls_csr **A)
{
    double stored = (double)h->entries * (h->symmetry == HPLS_MM_GENERAL ? 1 : 2);
    /* COO triplets (8+8+8) + CSR colind and val (4+8) + rowptr and its copy */
    hpls_status st = hpls_mm_check_memory(r, h, stored * 36.0 + ((double)h->nrows + 1) * 16.0);
    if (st != HPLS_OK)
        return st;
    hpls_int cap = (hpls_int)stored;
    hpls_mm_sink s = {0};
    s.rows = hpls_malloc(cap, sizeof *s.rows);
    s.cols = hpls_malloc(cap, sizeof *s.cols);
    s.vals = hpls_malloc(cap, sizeof *s.vals);
    if (!s.rows || !s.cols || !s.vals) {
        st = hpls_mm_restate(HPLS_ERR_NOMEM, r->path);
        goto free_coo;
    }
    st = hpls_mm_read_coordinate(r, h, &s);
    if (st != HPLS_OK)
        goto free_coo;
    st = hpls_csr_from_coo(h->nrows, h->ncols, s.n, s.rows, s.cols, s.vals, A);
    if (st != HPLS_OK)
        st = hpls_mm_restate(st, r->path);
    else
        st = check_sums(r, A);
free_coo:
    hpls_free(s.rows);
    hpls_free(s.cols);
    hpls_free(s.vals);
    return st;
}

/* Array file -> dense -> CSR of the nonzero values: an array file stores
 * every value, so its zeros are structural and are dropped. */
static hpls_status csr_from_array(hpls_mm_reader *r, const hpls_mm_header *h, hpls_csr **A)
{
    double cells = (double)h->nrows * (double)h->ncols;
    /* dense values (8) + CSR colind and val (12) at worst + rowptr */
    hpls_status st = hpls_mm_check_memory(r, h, cells * 20.0 + ((double)h->nrows + 1) * 8.0);
    if (st != HPLS_OK)
        return st;
    hpls_dense *D;
    if ((st = hpls_dense_create(h->nrows, h->ncols, &D)) != HPLS_OK)
        return hpls_mm_restate(st, r->path);
    if ((st = hpls_mm_read_into_dense(r, h, D->data)) != HPLS_OK)
        goto free_dense;
    hpls_int nnz = 0;
    for (hpls_int p = 0; p < h->nrows * h->ncols; p++)
        nnz += D->data[p] != 0.0;
    hpls_csr *M;
    if ((st = hpls_csr_create(h->nrows, h->ncols, nnz, &M)) != HPLS_OK) {
        st = hpls_mm_restate(st, r->path);
        goto free_dense;
    }
    hpls_int out = 0;
    for (hpls_int i = 0; i < h->nrows; i++) {
        const hpls_real *row = D->data + i * h->ncols;
        for (hpls_int j = 0; j < h->ncols; j++) {
            if (row[j] != 0.0) {
                M->colind[out] = (hpls_idx)j;
                M->val[out] = row[j];
                out++;
            }
        }
        M->rowptr[i + 1] = out;
    }
    *A = M;
free_dense:
    hpls_dense_destroy(D);
    return st;
}

hpls_status hpls_mm_read_csr(const char *path, hpls_csr **A)
{
    if (!path || !A)
        return hpls_fail(HPLS_ERR_ARG, "hpls_mm_read_csr: NULL argument");
    *A = NULL;
    hpls_mm_reader r;
    hpls_mm_header h;
    hpls_status st = hpls_mm_open(&r, path);
    if (st == HPLS_OK)
        st = hpls_mm_read_header(&r, &h);
    if (st == HPLS_OK)
        st = h.array ? csr_from_array(&r, &h, A) : csr_from_coordinate(&r, &h, A);
    hpls_mm_close(&r);
    return st;
}

hpls_status hpls_mm_read_dense(const char *path, hpls_dense **A)
{
    if (!path || !A)
        return hpls_fail(HPLS_ERR_ARG, "hpls_mm_read_dense: NULL argument");
    *A = NULL;
    hpls_mm_reader r;
    hpls_mm_header h;
    hpls_status st = hpls_mm_open(&r, path);
    if (st == HPLS_OK)
        st = hpls_mm_read_header(&r, &h);
    if (st == HPLS_OK)
        st = hpls_mm_check_memory(&r, &h, (double)h.nrows * (double)h.ncols * sizeof(hpls_real));
    hpls_dense *D = NULL;
    if (st == HPLS_OK && (st = hpls_dense_create(h.nrows, h.ncols, &D)) != HPLS_OK)
        st = hpls_mm_restate(st, path);
    if (st == HPLS_OK)
        st = hpls_mm_read_into_dense(&r, &h, D->data);
    hpls_mm_close(&r);
    if (st != HPLS_OK) {
        hpls_dense_destroy(D);
        return st;
    }
    *A = D;
    return HPLS_OK;
}

hpls_status hpls_mm_read_vec(const char *path, hpls_vec **v)
{
    if (!path || !v)
        return hpls_fail(HPLS_ERR_ARG, "hpls_mm_read_vec: NULL argument");
    *v = NULL;
    hpls_mm_reader r;
    hpls_mm_header h;
    hpls_status st = hpls_mm_open(&r, path);
    if (st == HPLS_OK)
        st = hpls_mm_read_header(&r, &h);
    if (st == HPLS_OK && h.nrows > 1 && h.ncols > 1)
        st = hpls_fail(HPLS_ERR_SIZE, "%s:%ld: a vector must be n x 1 or 1 x n, not %lld x %lld",
                       path, h.size_line, (long long)h.nrows, (long long)h.ncols);
    if (st == HPLS_OK)
        st = hpls_mm_check_memory(&r, &h, (double)h.nrows * (double)h.ncols * sizeof(hpls_real));
    hpls_vec *w = NULL;
    if (st == HPLS_OK && (st = hpls_vec_create(h.nrows * h.ncols, &w)) != HPLS_OK)
        st = hpls_mm_restate(st, path);
    if (st == HPLS_OK) /* n x 1 and 1 x n alike: row-major index i*ncols + j is the position */
        st = hpls_mm_read_into_dense(&r, &h, w->data);
    hpls_mm_close(&r);
    if (st != HPLS_OK) {
        hpls_vec_destroy(w);
        return st;
    }
    *v = w;
    return HPLS_OK;
}
