/* SPDX-License-Identifier: BSD-3-Clause */
/* csr.c: the CSR matrix: creation, assembly from COO (duplicates summed),
 * invariant checks, and the public SpMV / residual entry points. */
#include "core/internal.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

hpls_status hpls_csr_create(hpls_int nrows, hpls_int ncols, hpls_int nnz, hpls_csr **A)
{
    if (!A)
        return hpls_fail(HPLS_ERR_ARG, "hpls_csr_create: NULL output");
    *A = NULL;
    if (nrows < 0 || ncols < 0 || nnz < 0)
        return hpls_fail(HPLS_ERR_ARG, "hpls_csr_create: negative size %lld x %lld, nnz %lld",
                         (long long)nrows, (long long)ncols, (long long)nnz);
    if (ncols > INT32_MAX)
        return hpls_fail(HPLS_ERR_SIZE, "%lld columns exceed the 32-bit column index limit",
                         (long long)ncols);
    hpls_csr *M = hpls_calloc(1, sizeof *M);
    if (!M)
        return HPLS_ERR_NOMEM;
    M->nrows = nrows;
    M->ncols = ncols;
    M->nnz = nnz;
    M->rowptr = hpls_calloc(nrows + 1, sizeof *M->rowptr);
    M->colind = hpls_malloc(nnz, sizeof *M->colind);
    M->val = hpls_malloc(nnz, sizeof *M->val);
    if (!M->rowptr || !M->colind || !M->val) {
        hpls_csr_destroy(M);
        return HPLS_ERR_NOMEM;
    }
    *A = M;
    return HPLS_OK;
}

void hpls_csr_destroy(hpls_csr *A)
{
    if (!A)
        return;
    hpls_free(A->rowptr);
    hpls_free(A->colind);
    hpls_free(A->val);
    hpls_free(A);
}

/* Sorts row entries by column (insertion sort: rows are short and often nearly
 * sorted; long rows fall back to a merge-free shell sort). */
static void sort_row(hpls_idx *c, hpls_real *v, hpls_int len)
{
    static const hpls_int gaps[] = {701, 301, 132, 57, 23, 10, 4, 1};
    for (size_t g = 0; g < sizeof gaps / sizeof gaps[0]; g++) {
        hpls_int gap = gaps[g];
        for (hpls_int i = gap; i < len; i++) {
            hpls_idx ci = c[i];
            hpls_real vi = v[i];
            hpls_int j = i;
            for (; j >= gap && c[j - gap] > ci; j -= gap) {
                c[j] = c[j - gap];
                v[j] = v[j - gap];
            }
            c[j] = ci;
            v[j] = vi;
        }
    }
}

hpls_status hpls_csr_from_coo(hpls_int nrows, hpls_int ncols, hpls_int nnz,
                              const hpls_int *rows, const hpls_int *cols,
                              const hpls_real *vals, hpls_csr **A)
{
    if (!A || (nnz > 0 && (!rows || !cols || !vals)))
        return hpls_fail(HPLS_ERR_ARG, "hpls_csr_from_coo: NULL argument");
    *A = NULL;
    for (hpls_int k = 0; k < nnz; k++)
        if (rows[k] < 0 || rows[k] >= nrows || cols[k] < 0 || cols[k] >= ncols)
            return hpls_fail(HPLS_ERR_SIZE,
                             "entry %lld at (%lld, %lld) is outside the %lld x %lld matrix",
                             (long long)k, (long long)rows[k], (long long)cols[k],
                             (long long)nrows, (long long)ncols);
    hpls_csr *M;
    hpls_status st = hpls_csr_create(nrows, ncols, nnz, &M);
    if (st != HPLS_OK)
        return st;
    /* counting sort by row */
    for (hpls_int k = 0; k < nnz; k++)
        M->rowptr[rows[k] + 1]++;
    for (hpls_int i = 0; i < nrows; i++)
        M->rowptr[i + 1] += M->rowptr[i];
    hpls_int *next = hpls_malloc(nrows + 1, sizeof *next);
    if (!next) {
        hpls_csr_destroy(M);
        return HPLS_ERR_NOMEM;
    }
    memcpy(next, M->rowptr, (size_t)(nrows + 1) * sizeof *next);
    for (hpls_int k = 0; k < nnz; k++) {
        hpls_int p = next[rows[k]]++;
        M->colind[p] = (hpls_idx)cols[k];
        M->val[p] = vals[k];
    }
    hpls_free(next);
    /* sort each row, sum duplicates, compact in place */
    hpls_int out = 0;
    hpls_int start = 0;
    for (hpls_int i = 0; i < nrows; i++) {
        hpls_int end = M->rowptr[i + 1];
        sort_row(M->colind + start, M->val + start, end - start);
        hpls_int row_begin = out;
        for (hpls_int p = start; p < end; p++) {
            if (out > row_begin && M->colind[out - 1] == M->colind[p]) {
                M->val[out - 1] += M->val[p];
            } else {
                M->colind[out] = M->colind[p];
                M->val[out] = M->val[p];
                out++;
            }
        }
        M->rowptr[i] = row_begin;
        start = end;
    }
    M->rowptr[nrows] = out;
    M->nnz = out;
    *A = M;
    return HPLS_OK;
}

/* Whether A's pattern and values are valid, in passes that branch only per
 * row: rowptr never decreases; within a row the columns increase strictly
 * (counted as the descents ci[p] <= ci[p-1] of the whole array, which may only
 * sit where a row with entries starts), so only a row's first and last
 * columns need the range test; no value is NaN or Inf.  About 4 instructions
 * an entry of a 5-point row, where the entry-by-entry loop took 20. */
static int csr_valid(const hpls_csr *A)
{
    const hpls_int *rp = A->rowptr;
    const hpls_idx *ci = A->colind;
    hpls_int n = A->nrows, descents = 0, at_starts = 0;
    int bad = 0;
    for (hpls_int i = 0; i < n; i++)
        bad |= rp[i + 1] < rp[i];
    if (bad)
        return 0;
    for (hpls_int p = 1; p < A->nnz; p++)
        descents += ci[p] <= ci[p - 1];
    for (hpls_int i = 0; i < n; i++) {
        hpls_int p = rp[i], e = rp[i + 1];
        if (p < e) {
            at_starts += p > 0 && ci[p] <= ci[p - 1];
            bad |= ci[p] < 0 || ci[e - 1] >= A->ncols;
        }
    }
    return !bad && descents == at_starts && hpls_first_nonfinite(A->val, A->nnz) < 0;
}

hpls_status hpls_csr_check(const hpls_csr *A)
{
    if (!A || !A->rowptr || (A->nnz > 0 && (!A->colind || !A->val)))
        return hpls_fail(HPLS_ERR_ARG, "CSR matrix: NULL array");
    if (A->nrows < 0 || A->ncols < 0 || A->ncols > INT32_MAX)
        return hpls_fail(HPLS_ERR_SIZE, "CSR matrix: bad size %lld x %lld", (long long)A->nrows,
                         (long long)A->ncols);
    if (A->rowptr[0] != 0 || A->rowptr[A->nrows] != A->nnz)
        return hpls_fail(HPLS_ERR_SIZE, "CSR matrix: rowptr[0] = %lld, rowptr[n] = %lld, nnz = %lld",
                         (long long)A->rowptr[0], (long long)A->rowptr[A->nrows],
                         (long long)A->nnz);
    if (csr_valid(A))
        return HPLS_OK;
    /* the first fault, entry by entry, named */
    for (hpls_int i = 0; i < A->nrows; i++) {
        if (A->rowptr[i + 1] < A->rowptr[i])
            return hpls_fail(HPLS_ERR_SIZE, "CSR matrix: rowptr decreases at row %lld",
                             (long long)i);
        for (hpls_int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++) {
            if (A->colind[p] < 0 || A->colind[p] >= A->ncols ||
                (p > A->rowptr[i] && A->colind[p] <= A->colind[p - 1]))
                return hpls_fail(HPLS_ERR_SIZE,
                                 "CSR matrix: row %lld: column %d out of range or unsorted",
                                 (long long)i, (int)A->colind[p]);
            if (!isfinite(A->val[p]))
                return hpls_fail(HPLS_ERR_VALUE, "CSR matrix: value %g at row %lld, column %d",
                                 A->val[p], (long long)i, (int)A->colind[p]);
        }
    }
    return HPLS_OK;
}

hpls_status hpls_csr_spmv(const hpls_csr *A, const hpls_vec *x, hpls_vec *y)
{
    if (!A || !x || !y)
        return hpls_fail(HPLS_ERR_ARG, "hpls_csr_spmv: NULL argument");
    if (x->n != A->ncols || y->n != A->nrows)
        return hpls_fail(HPLS_ERR_SIZE, "hpls_csr_spmv: A is %lld x %lld, x has %lld, y has %lld",
                         (long long)A->nrows, (long long)A->ncols, (long long)x->n,
                         (long long)y->n);
    hpls_k_spmv(hpls_default_threads(), A, x->data, y->data);
    return HPLS_OK;
}

hpls_status hpls_csr_residual(const hpls_csr *A, const hpls_vec *b, const hpls_vec *x,
                              hpls_vec *r)
{
    if (!A || !b || !x || !r)
        return hpls_fail(HPLS_ERR_ARG, "hpls_csr_residual: NULL argument");
    if (x->n != A->ncols || b->n != A->nrows || r->n != A->nrows)
        return hpls_fail(HPLS_ERR_SIZE,
                         "hpls_csr_residual: A is %lld x %lld, b has %lld, x has %lld, r has %lld",
                         (long long)A->nrows, (long long)A->ncols, (long long)b->n,
                         (long long)x->n, (long long)r->n);
    hpls_k_residual(hpls_default_threads(), A, b->data, x->data, r->data);
    return HPLS_OK;
}

/* Where row i stores column i (its columns are sorted), or -1. */
static hpls_int diag_slot(const hpls_csr *A, hpls_int i)
{
    hpls_int p = A->rowptr[i], end = A->rowptr[i + 1];
    while (p < end && A->colind[p] < i)
        p++;
    return p < end && A->colind[p] == i ? p : -1;
}

hpls_status hpls_csr_diag_positions(const hpls_csr *A, hpls_int *pos)
{
    for (hpls_int i = 0; i < A->nrows; i++) {
        hpls_int p = diag_slot(A, i);
        if (p < 0)
            return hpls_fail(HPLS_ERR_ZERO_DIAG, "row %lld has no diagonal entry",
                             (long long)i + 1);
        if (A->val[p] == 0.0)
            return hpls_fail(HPLS_ERR_ZERO_DIAG, "row %lld has a zero diagonal entry",
                             (long long)i + 1);
        if (pos)
            pos[i] = p;
    }
    return HPLS_OK;
}

/* Whether each row i of a square A stores column i (its value aside). */
static int every_diagonal_stored(const hpls_csr *A)
{
    for (hpls_int i = 0; i < A->nrows; i++)
        if (diag_slot(A, i) < 0)
            return 0;
    return 1;
}

int hpls_csr_columns_stored(const hpls_csr *A)
{
    /* a square A whose every diagonal entry is stored has them all: a short
     * search a row (the columns are sorted), no scatter over the columns */
    if (A->nrows == A->ncols && every_diagonal_stored(A))
        return 1;
    unsigned char *seen = hpls_calloc(A->ncols > 0 ? A->ncols : 1, 1);
    if (!seen)
        return 0;
    hpls_int count = 0;
    for (hpls_int p = 0; p < A->nnz; p++) {
        count += !seen[A->colind[p]];
        seen[A->colind[p]] = 1;
    }
    hpls_free(seen);
    return count == A->ncols;
}

hpls_int hpls_first_nonfinite(const hpls_real *v, hpls_int n)
{
    /* exponent bits all ones (NaN, Inf): adding one to the exponent field then
     * carries into the sign bit, which no finite value's sum reaches */
    const uint64_t exponent = 0x7ff0000000000000u, one = 0x0010000000000000u;
    uint64_t carry = 0;
#pragma GCC unroll 4 /* vectorised 2 values a trip, 3 of its 7 instructions the loop's */
    for (hpls_int p = 0; p < n; p++) {
        uint64_t bits;
        memcpy(&bits, &v[p], sizeof bits);
        carry |= (bits & exponent) + one;
    }
    if (!(carry >> 63))
        return -1;
    hpls_int p = 0;
    while (isfinite(v[p]))
        p++;
    return p;
}

hpls_status hpls_csr_same_pattern(const hpls_csr *A, const hpls_csr *B, const char *what)
{
    if (A->nrows != B->nrows || A->ncols != B->ncols || A->nnz != B->nnz)
        return hpls_fail(HPLS_ERR_SIZE, "%s: the matrix is %lld x %lld with %lld entries, the one "
                         "set up was %lld x %lld with %lld: same pattern needed", what,
                         (long long)B->nrows, (long long)B->ncols, (long long)B->nnz,
                         (long long)A->nrows, (long long)A->ncols, (long long)A->nnz);
    if (A->rowptr == B->rowptr && A->colind == B->colind) {
        /* the same arrays (B is A with new values): only the values to check */
        hpls_int p = hpls_first_nonfinite(B->val, B->nnz), i = 0;
        if (p < 0)
            return HPLS_OK;
        while (B->rowptr[i + 1] <= p)
            i++;
        return hpls_fail(HPLS_ERR_VALUE, "CSR matrix: value %g at row %lld, column %d", B->val[p],
                         (long long)i, (int)B->colind[p]);
    }
    for (hpls_int i = 0; i < A->nrows; i++) {
        int same = A->rowptr[i + 1] == B->rowptr[i + 1], finite = 1;
        hpls_int p = A->rowptr[i];
        for (; same && finite && p < A->rowptr[i + 1]; p++) {
            same = A->colind[p] == B->colind[p];
            finite = isfinite(B->val[p]);
        }
        if (!same)
            return hpls_fail(HPLS_ERR_SIZE, "%s: row %lld has another pattern than the matrix "
                             "set up: same pattern needed", what, (long long)i + 1);
        if (!finite)
            return hpls_fail(HPLS_ERR_VALUE, "CSR matrix: value %g at row %lld, column %d",
                             B->val[p - 1], (long long)i, (int)B->colind[p - 1]);
    }
    return HPLS_OK;
}

hpls_status hpls_csr_transpose(const hpls_csr *A, hpls_csr **At)
{
    if (!A || !At)
        return hpls_fail(HPLS_ERR_ARG, "hpls_csr_transpose: NULL argument");
    *At = NULL;
    if (A->nrows > INT32_MAX)
        return hpls_fail(HPLS_ERR_SIZE, "%lld rows exceed the 32-bit column index limit of A^T",
                         (long long)A->nrows);
    hpls_csr *T;
    hpls_status st = hpls_csr_create(A->ncols, A->nrows, A->nnz, &T);
    if (st != HPLS_OK)
        return st;
    hpls_int *next = hpls_malloc(A->ncols + 1, sizeof *next);
    if (!next) {
        hpls_csr_destroy(T);
        return HPLS_ERR_NOMEM;
    }
    for (hpls_int p = 0; p < A->nnz; p++)
        T->rowptr[A->colind[p] + 1]++;
    for (hpls_int j = 0; j < A->ncols; j++)
        T->rowptr[j + 1] += T->rowptr[j];
    memcpy(next, T->rowptr, (size_t)(A->ncols + 1) * sizeof *next);
    /* rows of A in increasing order keep the columns of A^T sorted */
    for (hpls_int i = 0; i < A->nrows; i++)
        for (hpls_int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++) {
            hpls_int q = next[A->colind[p]]++;
            T->colind[q] = (hpls_idx)i;
            T->val[q] = A->val[p];
        }
    hpls_free(next);
    *At = T;
    return HPLS_OK;
}
