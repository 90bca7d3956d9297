/* SPDX-License-Identifier: BSD-3-Clause */
/* dcsr_gather.c: a distributed matrix's rows with global columns, the whole
 * matrix gathered on one rank, and a whole matrix cut into the row blocks of
 * another distributed one (dcsr_ops.h).  The global orderings of the solver
 * (reorder=rcm|matching, scale=matching) need A whole: dist_transform.c
 * gathers it on rank 0 and sends the transformed matrix back in the user's
 * row blocks.  Counts and displacements of MPI_Gatherv and MPI_Scatterv are
 * ints: a matrix of more than 2^31 - 1 rows or stored entries is refused with
 * the figures. */
#include "mpi/dcsr_ops.h"

#include <limits.h>

hpls_status hpls_dcsr_rows(const hpls_dcsr *D, const double *dr, const double *dc,
                           const double *dcg, hpls_int **rowptr, hpls_int **gcol, hpls_real **val)
{
    const hpls_csr *Ad = D->Ad, *Ao = D->Ao;
    hpls_int m = D->nlocal, nnz = Ad->nnz + Ao->nnz;
    hpls_int *rp = hpls_malloc(m + 1, sizeof *rp), *gc = hpls_malloc(nnz + 1, sizeof *gc);
    hpls_real *v = hpls_malloc(nnz + 1, sizeof *v);
    if (!rp || !gc || !v) {
        hpls_free(rp);
        hpls_free(gc);
        hpls_free(v);
        return HPLS_ERR_NOMEM;
    }
    hpls_int k = 0;
    rp[0] = 0;
    for (hpls_int i = 0; i < m; i++) {
        /* the ghosts left of my columns, mine, the ghosts right of them; a
         * value scaled as hpls_csr_scale_permute does: (dr_i a_ij) c_j */
        hpls_int p = Ao->rowptr[i], end = Ao->rowptr[i + 1];
        for (; p < end && D->garray[Ao->colind[p]] < D->first; p++, k++) {
            gc[k] = D->garray[Ao->colind[p]];
            v[k] = dr ? dr[i] * Ao->val[p] * dcg[Ao->colind[p]] : Ao->val[p];
        }
        for (hpls_int q = Ad->rowptr[i]; q < Ad->rowptr[i + 1]; q++, k++) {
            gc[k] = D->first + Ad->colind[q];
            v[k] = dr ? dr[i] * Ad->val[q] * dc[Ad->colind[q]] : Ad->val[q];
        }
        for (; p < end; p++, k++) {
            gc[k] = D->garray[Ao->colind[p]];
            v[k] = dr ? dr[i] * Ao->val[p] * dcg[Ao->colind[p]] : Ao->val[p];
        }
        rp[i + 1] = k;
    }
    *rowptr = rp;
    *gcol = gc;
    *val = v;
    return HPLS_OK;
}

/* The refusal of a matrix too large for one rank's MPI counts. */
static hpls_status too_large(const hpls_dcsr *D, long long nnz)
{
    if (D->n <= INT_MAX && nnz <= INT_MAX)
        return HPLS_OK;
    return hpls_fail(HPLS_ERR_SIZE,
                     "A whole on one rank: %lld rows and %lld entries, MPI's counts hold at "
                     "most %d of each",
                     (long long)D->n, nnz, INT_MAX);
}

hpls_status hpls_dcsr_gather(const hpls_dcsr *D, int root, hpls_csr **A)
{
    *A = NULL;
    hpls_int m = D->nlocal, *rp = NULL, *gc = NULL, *len = NULL;
    hpls_real *v = NULL;
    hpls_idx *c32 = NULL;
    int p = D->size, r = D->rank == root;
    int *cnt = hpls_malloc(p, sizeof *cnt), *disp = hpls_malloc(p, sizeof *disp);
    int *ncnt = hpls_malloc(p, sizeof *ncnt), *ndisp = hpls_malloc(p, sizeof *ndisp);
    long long *all = hpls_malloc(p, sizeof *all); /* every rank's entries */
    hpls_csr *W = NULL;
    hpls_status st = too_large(D, (long long)D->nnz);
    if (st == HPLS_OK && (!cnt || !disp || !ncnt || !ndisp || !all))
        st = HPLS_ERR_NOMEM;
    if (st == HPLS_OK)
        st = hpls_dcsr_rows(D, NULL, NULL, NULL, &rp, &gc, &v);
    hpls_int nnz = rp ? rp[m] : 0;
    if (st == HPLS_OK &&
        (!(len = hpls_malloc(m + 1, sizeof *len)) || !(c32 = hpls_malloc(nnz + 1, sizeof *c32))))
        st = HPLS_ERR_NOMEM;
    for (hpls_int i = 0; st == HPLS_OK && i < m; i++)
        len[i] = rp[i + 1] - rp[i];
    for (hpls_int k = 0; st == HPLS_OK && k < nnz; k++)
        c32[k] = (hpls_idx)gc[k]; /* n <= INT_MAX: too_large */
    if (st == HPLS_OK && r)
        st = hpls_csr_create(D->n, D->n, D->nnz, &W);
    st = hpls_mpi_agree(D->comm, st, 0, NULL, 0);
    if (st == HPLS_OK) {
        long long mine = nnz;
        MPI_Allgather(&mine, 1, MPI_LONG_LONG, all, 1, MPI_LONG_LONG, D->comm);
        long long sum = 0;
        for (int q = 0; q < p; q++) {
            cnt[q] = (int)(D->rowstart[q + 1] - D->rowstart[q]);
            disp[q] = (int)D->rowstart[q];
            ncnt[q] = (int)all[q];
            ndisp[q] = (int)sum;
            sum += all[q];
        }
        /* row lengths into rowptr[1 ..], summed below; then columns, values */
        MPI_Gatherv(len, (int)m, MPI_INT64_T, r ? W->rowptr + 1 : NULL, cnt, disp, MPI_INT64_T,
                    root, D->comm);
        MPI_Gatherv(c32, (int)nnz, MPI_INT32_T, r ? W->colind : NULL, ncnt, ndisp, MPI_INT32_T,
                    root, D->comm);
        MPI_Gatherv(v, (int)nnz, MPI_DOUBLE, r ? W->val : NULL, ncnt, ndisp, MPI_DOUBLE, root,
                    D->comm);
        for (hpls_int i = 0; r && i < D->n; i++)
            W->rowptr[i + 1] += W->rowptr[i];
        *A = W;
        W = NULL;
    }
    hpls_csr_destroy(W);
    hpls_free(rp);
    hpls_free(gc);
    hpls_free(v);
    hpls_free(len);
    hpls_free(c32);
    hpls_free(cnt);
    hpls_free(disp);
    hpls_free(ncnt);
    hpls_free(ndisp);
    hpls_free(all);
    return st;
}

hpls_status hpls_dcsr_scatter_like(const hpls_dcsr *D, int root, const hpls_csr *A, hpls_dcsr **out)
{
    *out = NULL;
    hpls_int m = D->nlocal, *len = NULL, *alen = NULL, *rp = NULL, *gc = NULL;
    hpls_idx *c32 = NULL;
    hpls_real *v = NULL;
    int p = D->size;
    int *cnt = hpls_malloc(p, sizeof *cnt), *disp = hpls_malloc(p, sizeof *disp);
    int *ncnt = hpls_malloc(p, sizeof *ncnt), *ndisp = hpls_malloc(p, sizeof *ndisp);
    long long nnz = 0; /* of my rows */
    hpls_status st = cnt && disp && ncnt && ndisp ? HPLS_OK : HPLS_ERR_NOMEM;
    if (st == HPLS_OK && D->rank == root) {
        if (!A)
            st = hpls_fail(HPLS_ERR_ARG, "hpls_dcsr_scatter_like: no matrix at rank %d", root);
        else if (A->nrows != D->n || A->ncols != D->n)
            st = hpls_fail(HPLS_ERR_SIZE, "a %lld x %lld matrix cut into the row blocks of %lld",
                           (long long)A->nrows, (long long)A->ncols, (long long)D->n);
        else if ((st = too_large(D, (long long)A->nnz)) == HPLS_OK &&
                 !(alen = hpls_malloc(D->n + 1, sizeof *alen)))
            st = HPLS_ERR_NOMEM;
        for (hpls_int i = 0; st == HPLS_OK && i < D->n; i++)
            alen[i] = A->rowptr[i + 1] - A->rowptr[i];
        for (int q = 0; st == HPLS_OK && q < p; q++) {
            ndisp[q] = (int)A->rowptr[D->rowstart[q]];
            ncnt[q] = (int)(A->rowptr[D->rowstart[q + 1]] - ndisp[q]);
        }
    }
    st = hpls_mpi_agree(D->comm, st, 0, NULL, 0);
    if (st == HPLS_OK) {
        for (int q = 0; q < p; q++) {
            cnt[q] = (int)(D->rowstart[q + 1] - D->rowstart[q]);
            disp[q] = (int)D->rowstart[q];
        }
        int mine = 0;
        MPI_Scatter(ncnt, 1, MPI_INT, &mine, 1, MPI_INT, root, D->comm);
        nnz = mine;
        len = hpls_malloc(m + 1, sizeof *len);
        rp = hpls_malloc(m + 1, sizeof *rp);
        gc = hpls_malloc(nnz + 1, sizeof *gc);
        c32 = hpls_malloc(nnz + 1, sizeof *c32);
        v = hpls_malloc(nnz + 1, sizeof *v);
        st = hpls_mpi_agree(D->comm, len && rp && gc && c32 && v ? HPLS_OK : HPLS_ERR_NOMEM, 0,
                            NULL, 0);
    }
    if (st == HPLS_OK) {
        int r = D->rank == root;
        MPI_Scatterv(r ? alen : NULL, cnt, disp, MPI_INT64_T, len, (int)m, MPI_INT64_T, root,
                     D->comm);
        MPI_Scatterv(r ? A->colind : NULL, ncnt, ndisp, MPI_INT32_T, c32, (int)nnz, MPI_INT32_T,
                     root, D->comm);
        MPI_Scatterv(r ? A->val : NULL, ncnt, ndisp, MPI_DOUBLE, v, (int)nnz, MPI_DOUBLE, root,
                     D->comm);
        rp[0] = 0;
        for (hpls_int i = 0; i < m; i++)
            rp[i + 1] = rp[i] + len[i];
        for (hpls_int k = 0; k < nnz; k++)
            gc[k] = c32[k];
        st = hpls_dcsr_create(D->comm, D->n, m, rp, gc, v, out);
    }
    hpls_free(alen);
    hpls_free(len);
    hpls_free(rp);
    hpls_free(gc);
    hpls_free(c32);
    hpls_free(v);
    hpls_free(cnt);
    hpls_free(disp);
    hpls_free(ncnt);
    hpls_free(ndisp);
    return st;
}
