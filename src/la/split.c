/* SPDX-License-Identifier: BSD-3-Clause */
/* split.c: the HISA splitting A = T + S (Li, Yang, Li 2016, Sec. 4.1 and 5.2):
 * T the tridiagonal band (three arrays), S the rest (CSR).  With blocks of k
 * rows (BHISA, Sec. 5.2), the band couplings across block boundaries move into S,
 * so T is block diagonal and its blocks can be solved independently.
 * Storage: T 3n, S about NNZ - 3n entries: 2 NNZ + n words overall (Sec. 4.5). */
#include "la/split.h"

hpls_status hpls_split_tridiag(const hpls_csr *A, hpls_int block, int nt, hpls_tridiag **Tout,
                               hpls_csr **Sout)
{
    *Tout = NULL;
    *Sout = NULL;
    if (A->nrows != A->ncols)
        return hpls_fail(HPLS_ERR_SIZE, "the matrix is %lld x %lld: it must be square",
                         (long long)A->nrows, (long long)A->ncols);
    hpls_int n = A->nrows;
    if (block <= 0 || block > n)
        block = n > 0 ? n : 1;
    hpls_tridiag *T;
    hpls_status st = hpls_tridiag_create(n, &T);
    if (st != HPLS_OK)
        return st;
    /* an entry belongs to T when it is in the band and does not cross a block boundary */
#define IN_T(i, j) ((j) - (i) <= 1 && (i) - (j) <= 1 && (i) / block == (j) / block)
    hpls_csr *S;
    if ((st = hpls_csr_create(n, n, 0, &S)) != HPLS_OK) {
        hpls_tridiag_destroy(T);
        return st;
    }
    /* two parallel passes (count, fill): each thread first-touches its rows of S */
#pragma omp parallel for schedule(static) num_threads(nt)
    for (hpls_int i = 0; i < n; i++) {
        hpls_int c = 0;
        for (hpls_int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++)
            c += !IN_T(i, (hpls_int)A->colind[p]);
        S->rowptr[i + 1] = c;
    }
    for (hpls_int i = 0; i < n; i++)
        S->rowptr[i + 1] += S->rowptr[i];
    S->nnz = S->rowptr[n];
    hpls_free(S->colind);
    hpls_free(S->val);
    S->colind = hpls_malloc(S->nnz, sizeof *S->colind);
    S->val = hpls_malloc(S->nnz, sizeof *S->val);
    if (!S->colind || !S->val) {
        hpls_csr_destroy(S);
        hpls_tridiag_destroy(T);
        return HPLS_ERR_NOMEM;
    }
#pragma omp parallel for schedule(static) num_threads(nt)
    for (hpls_int i = 0; i < n; i++) {
        hpls_int q = S->rowptr[i];
        for (hpls_int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++) {
            hpls_int j = A->colind[p];
            if (!IN_T(i, j)) {
                S->colind[q] = (hpls_idx)j;
                S->val[q++] = A->val[p];
            } else if (j == i - 1) {
                T->dl[i] = A->val[p];
            } else if (j == i) {
                T->d[i] = A->val[p];
            } else {
                T->du[i] = A->val[p];
            }
        }
    }
#undef IN_T
    *Tout = T;
    *Sout = S;
    return HPLS_OK;
}
