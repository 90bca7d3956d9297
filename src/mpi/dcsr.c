/* SPDX-License-Identifier: BSD-3-Clause */
/* dcsr.c: the distributed CSR matrix (dcsr.h): building it from each rank's
 * rows (the diagonal and off-diagonal blocks, the ghost columns, the halo
 * plan), cutting a matrix held by one rank into row blocks, generating each
 * rank's rows, and moving vectors between one rank and all.
 *
 * The halo plan: each rank lists the ghosts it needs (sorted, so those of one
 * owner are contiguous), tells every owner how many and which (one
 * MPI_Alltoall, one MPI_Alltoallv at setup), and from then on one persistent
 * receive per owner and one persistent send per rank needing its values. */
#include "mpi/dcsr_ops.h"

#include "gen/gen.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { HALO_TAG = 7 };

static int cmp_int(const void *a, const void *b)
{
    hpls_int x = *(const hpls_int *)a, y = *(const hpls_int *)b;
    return (x > y) - (x < y);
}

/* The rank owning global row j (rowstart: size + 1 increasing firsts). */
static int owner(const hpls_dcsr *D, hpls_int j)
{
    int lo = 0, hi = D->size - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (D->rowstart[mid] <= j)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* The position of global column j in garray (it is there). */
static hpls_int ghost_of(const hpls_dcsr *D, hpls_int j)
{
    hpls_int lo = 0, hi = D->nghost - 1;
    while (lo < hi) {
        hpls_int mid = (lo + hi) / 2;
        if (D->garray[mid] < j)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* My rows checked: columns increasing and in range, values finite. */
static hpls_status check_rows(const hpls_dcsr *D, const hpls_int *rowptr, const hpls_int *gcol,
                              const hpls_real *val)
{
    if (rowptr[0] != 0)
        return hpls_fail(HPLS_ERR_ARG, "rank %d: rowptr[0] = %lld, not 0", D->rank,
                         (long long)rowptr[0]);
    for (hpls_int i = 0; i < D->nlocal; i++) {
        if (rowptr[i + 1] < rowptr[i])
            return hpls_fail(HPLS_ERR_ARG, "row %lld: rowptr decreases",
                             (long long)(D->first + i) + 1);
        for (hpls_int p = rowptr[i]; p < rowptr[i + 1]; p++) {
            if (gcol[p] < 0 || gcol[p] >= D->n || (p > rowptr[i] && gcol[p] <= gcol[p - 1]))
                return hpls_fail(HPLS_ERR_SIZE, "row %lld: column %lld out of range or order",
                                 (long long)(D->first + i) + 1, (long long)gcol[p] + 1);
            if (!isfinite(val[p]))
                return hpls_fail(HPLS_ERR_VALUE, "row %lld, column %lld: value %g",
                                 (long long)(D->first + i) + 1, (long long)gcol[p] + 1, val[p]);
        }
    }
    return HPLS_OK;
}

/* Ad, Ao and garray from my rows. */
static hpls_status split_blocks(hpls_dcsr *D, const hpls_int *rowptr, const hpls_int *gcol,
                                const hpls_real *val)
{
    hpls_int m = D->nlocal, nnz = rowptr[m], last = D->first + m, noff = 0;
    for (hpls_int p = 0; p < nnz; p++)
        noff += gcol[p] < D->first || gcol[p] >= last;
    hpls_int *g = hpls_malloc(noff > 0 ? noff : 1, sizeof *g);
    if (!g)
        return HPLS_ERR_NOMEM;
    hpls_int k = 0;
    for (hpls_int p = 0; p < nnz; p++)
        if (gcol[p] < D->first || gcol[p] >= last)
            g[k++] = gcol[p];
    qsort(g, (size_t)noff, sizeof *g, cmp_int);
    D->nghost = 0;
    for (hpls_int p = 0; p < noff; p++)
        if (p == 0 || g[p] != g[p - 1])
            g[D->nghost++] = g[p];
    D->garray = g;
    if (D->nghost > INT32_MAX || m > INT32_MAX)
        return hpls_fail(HPLS_ERR_SIZE,
                         "rank %d: %lld rows and %lld ghost columns: a block's "
                         "columns must fit 32 bits",
                         D->rank, (long long)m, (long long)D->nghost);
    hpls_status st = hpls_csr_create(m, m, nnz - noff, &D->Ad);
    if (st == HPLS_OK)
        st = hpls_csr_create(m, D->nghost, noff, &D->Ao);
    if (st != HPLS_OK)
        return st;
    hpls_int pd = 0, po = 0;
    for (hpls_int i = 0; i < m; i++) {
        for (hpls_int p = rowptr[i]; p < rowptr[i + 1]; p++) {
            if (gcol[p] >= D->first && gcol[p] < last) {
                D->Ad->colind[pd] = (hpls_idx)(gcol[p] - D->first);
                D->Ad->val[pd++] = val[p];
            } else {
                D->Ao->colind[po] = (hpls_idx)ghost_of(D, gcol[p]);
                D->Ao->val[po++] = val[p];
            }
        }
        D->Ad->rowptr[i + 1] = pd;
        D->Ao->rowptr[i + 1] = po;
    }
    return HPLS_OK;
}

/* The halo plan and its persistent requests (collective). */
static hpls_status plan_halo(hpls_dcsr *D)
{
    int p = D->size;
    int *need = hpls_calloc(p, sizeof *need), *give = hpls_calloc(p, sizeof *give);
    int *rdisp = hpls_calloc(p + 1, sizeof *rdisp), *sdisp = hpls_calloc(p + 1, sizeof *sdisp);
    int64_t *asked = NULL;
    hpls_status st = need && give && rdisp && sdisp ? HPLS_OK : HPLS_ERR_NOMEM;
    for (hpls_int g = 0; st == HPLS_OK && g < D->nghost; g++)
        need[owner(D, D->garray[g])]++;
    /* every rank learns how many of its rows each other rank needs */
    if (MPI_Alltoall(need, 1, MPI_INT, give, 1, MPI_INT, D->comm) != MPI_SUCCESS)
        st = HPLS_ERR_INTERNAL;
    for (int q = 0; q < p; q++) {
        rdisp[q + 1] = rdisp[q] + need[q];
        sdisp[q + 1] = sdisp[q] + give[q];
        D->nrecv += need[q] > 0;
        D->nsend += give[q] > 0;
    }
    hpls_int nsendv = sdisp[p];
    D->recv_rank = hpls_malloc(D->nrecv + 1, sizeof *D->recv_rank);
    D->send_rank = hpls_malloc(D->nsend + 1, sizeof *D->send_rank);
    D->recv_ptr = hpls_malloc(D->nrecv + 1, sizeof *D->recv_ptr);
    D->send_ptr = hpls_malloc(D->nsend + 1, sizeof *D->send_ptr);
    D->send_idx = hpls_malloc(nsendv + 1, sizeof *D->send_idx);
    D->sendbuf = hpls_malloc(nsendv + 1, sizeof *D->sendbuf);
    D->ghost = hpls_malloc(D->nghost + 1, sizeof *D->ghost);
    D->req = hpls_malloc(D->nrecv + D->nsend + 1, sizeof *D->req);
    asked = hpls_malloc(nsendv + 1, sizeof *asked);
    if (!D->recv_rank || !D->send_rank || !D->recv_ptr || !D->send_ptr || !D->send_idx ||
        !D->sendbuf || !D->ghost || !D->req || !asked)
        st = HPLS_ERR_NOMEM;
    /* the global rows each rank needs of mine (a failure still joins the collective) */
    if (MPI_Alltoallv(st == HPLS_OK ? D->garray : NULL, need, rdisp, MPI_INT64_T, asked, give,
                      sdisp, MPI_INT64_T, D->comm) != MPI_SUCCESS)
        st = HPLS_ERR_INTERNAL;
    if (st == HPLS_OK) {
        int r = 0, s = 0;
        D->recv_ptr[0] = D->send_ptr[0] = 0;
        for (int q = 0; q < p; q++) {
            if (need[q] > 0) {
                D->recv_rank[r] = q;
                D->recv_ptr[r + 1] = rdisp[q + 1];
                r++;
            }
            if (give[q] > 0) {
                D->send_rank[s] = q;
                D->send_ptr[s + 1] = sdisp[q + 1];
                s++;
            }
        }
        for (hpls_int k = 0; k < nsendv; k++)
            D->send_idx[k] = asked[k] - D->first;
        for (int k = 0; k < D->nrecv; k++)
            MPI_Recv_init(D->ghost + D->recv_ptr[k], (int)(D->recv_ptr[k + 1] - D->recv_ptr[k]),
                          MPI_DOUBLE, D->recv_rank[k], HALO_TAG, D->comm, &D->req[k]);
        for (int k = 0; k < D->nsend; k++)
            MPI_Send_init(D->sendbuf + D->send_ptr[k], (int)(D->send_ptr[k + 1] - D->send_ptr[k]),
                          MPI_DOUBLE, D->send_rank[k], HALO_TAG, D->comm, &D->req[D->nrecv + k]);
    } else {
        D->nrecv = D->nsend = 0; /* no requests to free */
    }
    hpls_free(need);
    hpls_free(give);
    hpls_free(rdisp);
    hpls_free(sdisp);
    hpls_free(asked);
    return st;
}

hpls_status hpls_dcsr_comm_ok(MPI_Comm comm, const char *fn)
{
    int up = 0, down = 0;
    MPI_Initialized(&up);
    MPI_Finalized(&down);
    if (!up || down)
        return hpls_fail(HPLS_ERR_STATE,
                         "%s: MPI is not running (call it between MPI_Init and "
                         "MPI_Finalize)",
                         fn);
    if (comm == MPI_COMM_NULL)
        return hpls_fail(HPLS_ERR_ARG, "%s: the communicator is MPI_COMM_NULL", fn);
    return HPLS_OK;
}

hpls_status hpls_dcsr_create(MPI_Comm comm, hpls_int n, hpls_int nlocal, const hpls_int *rowptr,
                             const hpls_int *gcol, const hpls_real *val, hpls_dcsr **out)
{
    hpls_status st = hpls_dcsr_comm_ok(comm, "hpls_dcsr_create");
    if (st != HPLS_OK)
        return st;
    if (out)
        *out = NULL;
    hpls_dcsr *D = hpls_calloc(1, sizeof *D);
    if (D)
        D->comm = MPI_COMM_NULL; /* none to free yet */
    st = !out ? hpls_fail(HPLS_ERR_ARG, "hpls_dcsr_create: NULL output")
         : D  ? HPLS_OK
              : HPLS_ERR_NOMEM;
    int size, rank;
    MPI_Comm_size(comm, &size);
    MPI_Comm_rank(comm, &rank);
    long long mine = nlocal, first = 0, total = 0;
    MPI_Exscan(&mine, &first, 1, MPI_LONG_LONG, MPI_SUM, comm);
    MPI_Allreduce(&mine, &total, 1, MPI_LONG_LONG, MPI_SUM, comm);
    if (rank == 0)
        first = 0; /* MPI_Exscan leaves rank 0's undefined */
    if (st == HPLS_OK) {
        D->rank = rank;
        D->size = size;
        D->n = n;
        D->first = first;
        D->nlocal = nlocal;
        D->comm = MPI_COMM_NULL;
        D->rowstart = hpls_malloc(size + 1, sizeof *D->rowstart);
        if (!D->rowstart)
            st = HPLS_ERR_NOMEM;
        else if (nlocal < 0 || total != n)
            st = hpls_fail(HPLS_ERR_SIZE,
                           "the ranks hold %lld rows in all, the matrix has %lld "
                           "(rank %d: %lld)",
                           total, (long long)n, rank, mine);
        else if (!rowptr || (nlocal > 0 && (!gcol || !val)))
            st = hpls_fail(HPLS_ERR_ARG, "rank %d: NULL rows", rank);
    }
    long long *all = hpls_malloc(size + 1, sizeof *all);
    if (!all && st == HPLS_OK)
        st = HPLS_ERR_NOMEM;
    st = hpls_mpi_agree(comm, st, 0, NULL, 0);
    if (st == HPLS_OK) {
        MPI_Allgather(&first, 1, MPI_LONG_LONG, all, 1, MPI_LONG_LONG, comm);
        for (int q = 0; q < size; q++)
            D->rowstart[q] = all[q];
        D->rowstart[size] = n;
        MPI_Comm_dup(comm, &D->comm);
        st = check_rows(D, rowptr, gcol, val);
        if (st == HPLS_OK)
            st = split_blocks(D, rowptr, gcol, val);
        st = hpls_mpi_agree(comm, st, 0, NULL, 0);
    }
    hpls_free(all);
    if (st == HPLS_OK)
        st = hpls_mpi_agree(comm, plan_halo(D), 0, NULL, 0);
    if (st == HPLS_OK) {
        long long nnz = rowptr[nlocal], sum = 0;
        MPI_Allreduce(&nnz, &sum, 1, MPI_LONG_LONG, MPI_SUM, comm);
        D->nnz = sum;
        *out = D;
        return HPLS_OK;
    }
    hpls_dcsr_destroy(D);
    return st;
}

void hpls_dcsr_destroy(hpls_dcsr *D)
{
    if (!D)
        return;
    hpls_dcsr_reverse_destroy(D);
    for (int k = 0; D->req && k < D->nrecv + D->nsend; k++)
        MPI_Request_free(&D->req[k]);
    if (D->comm != MPI_COMM_NULL)
        MPI_Comm_free(&D->comm);
    hpls_csr_destroy(D->Ad);
    hpls_csr_destroy(D->Ao);
    hpls_free(D->rowstart);
    hpls_free(D->garray);
    hpls_free(D->recv_rank);
    hpls_free(D->send_rank);
    hpls_free(D->recv_ptr);
    hpls_free(D->send_ptr);
    hpls_free(D->send_idx);
    hpls_free(D->ghost);
    hpls_free(D->sendbuf);
    hpls_free(D->req);
    hpls_free(D);
}

/* My entries in hpls_dcsr_create's order (row by row, global columns
 * increasing: the ghosts left of my columns, mine, the ghosts right of them,
 * as hpls_dcsr_rows walks them), val[k] the k-th: write = 0 names the first
 * value that is not finite (hpls_first_nonfinite found one); 1 stores them in
 * Ad and Ao. */
static hpls_status put_values(hpls_dcsr *D, const hpls_real *val, int write)
{
    hpls_csr *Ad = D->Ad, *Ao = D->Ao;
    hpls_int k = 0;
    for (hpls_int i = 0; i < D->nlocal; i++) {
        hpls_int p = Ao->rowptr[i], pend = Ao->rowptr[i + 1];
        hpls_int q = Ad->rowptr[i], qend = Ad->rowptr[i + 1];
        for (; p < pend || q < qend; k++) {
            int ghost = p < pend && (q == qend || D->garray[Ao->colind[p]] < D->first);
            if (!write && !isfinite(val[k])) {
                hpls_int j = ghost ? D->garray[Ao->colind[p]] : D->first + Ad->colind[q];
                return hpls_fail(HPLS_ERR_VALUE,
                                 "hpls_dcsr_set_values: row %lld, column %lld (rank %d's "
                                 "entry %lld): value %g",
                                 (long long)(D->first + i) + 1, (long long)j + 1, D->rank,
                                 (long long)k + 1, val[k]);
            }
            hpls_real *at = ghost ? &Ao->val[p++] : &Ad->val[q++];
            if (write)
                *at = val[k];
        }
    }
    return HPLS_OK;
}

hpls_status hpls_dcsr_set_values(hpls_dcsr *D, const hpls_real *val)
{
    if (!D)
        return hpls_fail(HPLS_ERR_ARG, "hpls_dcsr_set_values: NULL matrix");
    hpls_int mine = D->Ad->nnz + D->Ao->nnz;
    hpls_status st = HPLS_OK;
    if (!val && mine > 0)
        st = hpls_fail(HPLS_ERR_ARG,
                       "hpls_dcsr_set_values: rank %d passed NULL for its %lld "
                       "values",
                       D->rank, (long long)mine);
    else if (hpls_first_nonfinite(val, mine) >= 0)
        st = put_values(D, val, 0);
    /* every rank's values checked before any is stored: a refusal changes nothing */
    if ((st = hpls_mpi_agree(D->comm, st, 0, NULL, 0)) != HPLS_OK)
        return st;
    D->version++;
    put_values(D, val, 1);
    if (D->rev) { /* A^T x's copy of the ghost block: the update makes it again */
        hpls_csr_destroy(D->rev->AoT);
        D->rev->AoT = NULL;
    }
    return HPLS_OK;
}

hpls_status hpls_dcsr_halo_start(hpls_dcsr *D, const hpls_real *x)
{
    if (D->nrecv > 0 && MPI_Startall(D->nrecv, D->req) != MPI_SUCCESS)
        return hpls_fail(HPLS_ERR_INTERNAL, "rank %d: MPI_Startall (halo receives)", D->rank);
    hpls_int ns = D->send_ptr[D->nsend];
    for (hpls_int k = 0; k < ns; k++)
        D->sendbuf[k] = x[D->send_idx[k]];
    if (D->nsend > 0 && MPI_Startall(D->nsend, D->req + D->nrecv) != MPI_SUCCESS)
        return hpls_fail(HPLS_ERR_INTERNAL, "rank %d: MPI_Startall (halo sends)", D->rank);
    D->messages += D->nsend;
    return HPLS_OK;
}

hpls_status hpls_dcsr_halo_finish(hpls_dcsr *D)
{
    int k = D->nrecv + D->nsend;
    if (k > 0 && MPI_Waitall(k, D->req, MPI_STATUSES_IGNORE) != MPI_SUCCESS)
        return hpls_fail(HPLS_ERR_INTERNAL, "rank %d: MPI_Waitall (halo)", D->rank);
    return HPLS_OK;
}

/* Row blocks of nearly equal nonzeros: rank q gets rows cut[q] .. cut[q+1]-1,
 * cut[q] the first row whose entries start at or past q nnz / size. */
static void cut_rows(const hpls_csr *A, int size, hpls_int *cut)
{
    hpls_int i = 0;
    for (int q = 0; q < size; q++) {
        double target = (double)A->nnz * q / size;
        while (i < A->nrows && (double)A->rowptr[i] < target)
            i++;
        cut[q] = i;
    }
    cut[size] = A->nrows;
}

hpls_status hpls_dcsr_scatter(MPI_Comm comm, int root, const hpls_csr *A, hpls_dcsr **D)
{
    hpls_status st = hpls_dcsr_comm_ok(comm, "hpls_dcsr_scatter");
    if (st != HPLS_OK)
        return st;
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    if (!D)
        return hpls_fail(HPLS_ERR_ARG, "hpls_dcsr_scatter: NULL output");
    *D = NULL;
    if (root < 0 || root >= size)
        return hpls_fail(HPLS_ERR_ARG, "hpls_dcsr_scatter: root %d is not one of the %d ranks",
                         root, size);
    hpls_int *cut = hpls_malloc(size + 1, sizeof *cut);
    st = cut ? HPLS_OK : HPLS_ERR_NOMEM;
    if (rank == root && st == HPLS_OK) {
        if (!A)
            st = hpls_fail(HPLS_ERR_ARG, "hpls_dcsr_scatter: no matrix at the root, rank %d", root);
        else if (A->nrows != A->ncols)
            st = hpls_fail(HPLS_ERR_SIZE, "the matrix must be square");
        else
            cut_rows(A, size, cut);
    }
    st = hpls_mpi_agree(comm, st, 0, NULL, 0);
    if (st != HPLS_OK) {
        hpls_free(cut);
        return st;
    }
    MPI_Bcast(cut, size + 1, MPI_INT64_T, root, comm);
    hpls_int m = cut[rank + 1] - cut[rank], n = cut[size];
    long long nnz = 0; /* of my rows */
    if (rank == root) {
        for (int q = 0; q < size; q++) {
            long long c = A->rowptr[cut[q + 1]] - A->rowptr[cut[q]];
            if (q == root)
                nnz = c;
            else
                MPI_Send(&c, 1, MPI_LONG_LONG, q, HALO_TAG, comm);
        }
    } else {
        MPI_Recv(&nnz, 1, MPI_LONG_LONG, root, HALO_TAG, comm, MPI_STATUS_IGNORE);
    }
    hpls_int *rp = hpls_malloc(m + 1, sizeof *rp), *gc = hpls_malloc(nnz + 1, sizeof *gc);
    hpls_idx *c32 = hpls_malloc(nnz + 1, sizeof *c32);
    hpls_real *v = hpls_malloc(nnz + 1, sizeof *v);
    st = rp && gc && c32 && v ? HPLS_OK : HPLS_ERR_NOMEM;
    if (nnz > INT_MAX || m >= INT_MAX)
        st = hpls_fail(HPLS_ERR_SIZE, "rank %d: %lld entries in one message (at most %d)", rank,
                       nnz, INT_MAX);
    st = hpls_mpi_agree(comm, st, 0, NULL, 0);
    if (st == HPLS_OK) {
        /* root sends each rank its rows: offsets, 32-bit columns, values */
        if (rank == root) {
            for (int q = 0; q < size; q++) {
                hpls_int a = cut[q], b = cut[q + 1], p0 = A->rowptr[a];
                int cnt = (int)(A->rowptr[b] - p0);
                if (q == root) {
                    for (hpls_int i = 0; i <= m; i++)
                        rp[i] = A->rowptr[a + i] - p0;
                    memcpy(c32, A->colind + p0, (size_t)cnt * sizeof *c32);
                    memcpy(v, A->val + p0, (size_t)cnt * sizeof *v);
                    continue;
                }
                MPI_Send(A->rowptr + a, (int)(b - a + 1), MPI_INT64_T, q, HALO_TAG, comm);
                MPI_Send(A->colind + p0, cnt, MPI_INT32_T, q, HALO_TAG, comm);
                MPI_Send(A->val + p0, cnt, MPI_DOUBLE, q, HALO_TAG, comm);
            }
        } else {
            MPI_Recv(rp, (int)(m + 1), MPI_INT64_T, root, HALO_TAG, comm, MPI_STATUS_IGNORE);
            MPI_Recv(c32, (int)nnz, MPI_INT32_T, root, HALO_TAG, comm, MPI_STATUS_IGNORE);
            MPI_Recv(v, (int)nnz, MPI_DOUBLE, root, HALO_TAG, comm, MPI_STATUS_IGNORE);
            for (hpls_int i = m; i >= 0; i--)
                rp[i] -= rp[0];
        }
        for (hpls_int p = 0; p < nnz; p++)
            gc[p] = c32[p];
        st = hpls_dcsr_create(comm, n, m, rp, gc, v, D);
    }
    hpls_free(cut);
    hpls_free(rp);
    hpls_free(gc);
    hpls_free(c32);
    hpls_free(v);
    return st;
}

hpls_status hpls_dcsr_generate(MPI_Comm comm, const char *spec, hpls_dcsr **D, hpls_vec **b)
{
    hpls_status st = hpls_dcsr_comm_ok(comm, "hpls_dcsr_generate");
    if (st != HPLS_OK)
        return st;
    if (!spec || !D)
        return hpls_fail(HPLS_ERR_ARG, "hpls_dcsr_generate: NULL argument");
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    *D = NULL;
    if (b)
        *b = NULL;
    hpls_int n = 0, *rp = NULL, *gc = NULL;
    hpls_real *v = NULL, *bl = NULL;
    st = hpls_gen_rows(spec, 0, -1, &n, NULL, NULL, NULL, NULL);
    if (st == HPLS_OK) { /* equal row blocks */
        hpls_int lo = n * rank / size, hi = n * (rank + 1) / size;
        st = hpls_gen_rows(spec, lo, hi, &n, &rp, &gc, &v, &bl);
        if (st == HPLS_OK && b && (st = hpls_vec_create(hi - lo, b)) == HPLS_OK)
            memcpy((*b)->data, bl, (size_t)(hi - lo) * sizeof *bl);
        st = hpls_mpi_agree(comm, st, 0, NULL, 0);
        if (st == HPLS_OK)
            st = hpls_dcsr_create(comm, n, hi - lo, rp, gc, v, D);
    } /* else a bad spec, the same on every rank: no collective entered */
    hpls_free(rp);
    hpls_free(gc);
    hpls_free(v);
    hpls_free(bl);
    if (st != HPLS_OK && b) {
        hpls_vec_destroy(*b);
        *b = NULL;
    }
    return st;
}

/* Counts and displacements of every rank's part, as MPI's ints. */
static hpls_status parts(const hpls_dcsr *D, int **cnt, int **disp)
{
    *cnt = hpls_malloc(D->size, sizeof **cnt);
    *disp = hpls_malloc(D->size, sizeof **disp);
    if (!*cnt || !*disp)
        return HPLS_ERR_NOMEM;
    if (D->n > INT_MAX)
        return hpls_fail(HPLS_ERR_SIZE, "a vector of %lld entries on one rank", (long long)D->n);
    for (int q = 0; q < D->size; q++) {
        (*cnt)[q] = (int)(D->rowstart[q + 1] - D->rowstart[q]);
        (*disp)[q] = (int)D->rowstart[q];
    }
    return HPLS_OK;
}

/* The local checks of scatter_vec and gather_vec (the same on every rank). */
static hpls_status vec_args(const hpls_dcsr *D, int root, const char *fn)
{
    if (!D)
        return hpls_fail(HPLS_ERR_ARG, "%s: NULL matrix", fn);
    if (root < 0 || root >= D->size)
        return hpls_fail(HPLS_ERR_ARG, "%s: root %d is not one of the %d ranks", fn, root, D->size);
    return HPLS_OK;
}

hpls_status hpls_dcsr_scatter_vec(const hpls_dcsr *D, int root, const hpls_real *v, hpls_real *mine)
{
    hpls_status st = vec_args(D, root, "hpls_dcsr_scatter_vec");
    if (st != HPLS_OK)
        return st;
    int *cnt, *disp;
    st = hpls_mpi_agree(D->comm, parts(D, &cnt, &disp), 0, NULL, 0);
    if (st == HPLS_OK)
        MPI_Scatterv(v, cnt, disp, MPI_DOUBLE, mine, (int)D->nlocal, MPI_DOUBLE, root, D->comm);
    hpls_free(cnt);
    hpls_free(disp);
    return st;
}

hpls_status hpls_dcsr_gather_vec(const hpls_dcsr *D, int root, const hpls_real *mine, hpls_real *v)
{
    hpls_status st = vec_args(D, root, "hpls_dcsr_gather_vec");
    if (st != HPLS_OK)
        return st;
    int *cnt, *disp;
    st = hpls_mpi_agree(D->comm, parts(D, &cnt, &disp), 0, NULL, 0);
    if (st == HPLS_OK)
        MPI_Gatherv(mine, (int)D->nlocal, MPI_DOUBLE, v, cnt, disp, MPI_DOUBLE, root, D->comm);
    hpls_free(cnt);
    hpls_free(disp);
    return st;
}

void hpls_dcsr_row_sums(const hpls_dcsr *D, hpls_real *b)
{
    const hpls_csr *Ad = D->Ad, *Ao = D->Ao;
    for (hpls_int i = 0; i < D->nlocal; i++) {
        /* in global column order, as A 1 sums a whole row: the ghosts left
         * of my columns, mine, the ghosts right of them */
        double sum = 0.0;
        hpls_int p = Ao->rowptr[i], end = Ao->rowptr[i + 1];
        for (; p < end && D->garray[Ao->colind[p]] < D->first; p++)
            sum += Ao->val[p];
        for (hpls_int q = Ad->rowptr[i]; q < Ad->rowptr[i + 1]; q++)
            sum += Ad->val[q];
        for (; p < end; p++)
            sum += Ao->val[p];
        b[i] = sum;
    }
}

hpls_status hpls_dcsr_get_sizes(const hpls_dcsr *D, hpls_int *n, hpls_int *first, hpls_int *nlocal,
                                hpls_int *nnz)
{
    if (!D)
        return hpls_fail(HPLS_ERR_ARG, "hpls_dcsr_get_sizes: NULL matrix");
    if (n)
        *n = D->n;
    if (first)
        *first = D->first;
    if (nlocal)
        *nlocal = D->nlocal;
    if (nnz)
        *nnz = D->nnz;
    return HPLS_OK;
}

hpls_read_mode hpls_dcsr_read_mode(const hpls_dcsr *D)
{
    return D ? D->read : HPLS_READ_AUTO;
}

/* y = Ad x while the halo travels, then y += Ao ghost (dcsr_spmv.c's
 * operator does the same on a solver's backend). */
hpls_status hpls_dcsr_spmv(hpls_dcsr *D, const hpls_real *x, hpls_real *y)
{
    if (!D)
        return hpls_fail(HPLS_ERR_ARG, "hpls_dcsr_spmv: NULL matrix");
    /* agreed before the halo: a rank that stopped here would leave the others
     * waiting for its messages */
    hpls_status st =
        D->nlocal > 0 && (!x || !y || x == y)
            ? hpls_fail(HPLS_ERR_ARG, "hpls_dcsr_spmv: rank %d: x or y NULL, or the same array",
                        D->rank)
            : HPLS_OK;
    if ((st = hpls_mpi_agree(D->comm, st, 0, NULL, 0)) != HPLS_OK)
        return st;
    const hpls_csr *Ao = D->Ao;
    st = hpls_dcsr_halo_start(D, x);
    hpls_k_spmv(hpls_default_threads(), D->Ad, x, y); /* y = Ad x while the halo travels */
    if (st == HPLS_OK && (st = hpls_dcsr_halo_finish(D)) == HPLS_OK) {
#pragma omp parallel for schedule(static) if (D->nlocal > 32768)
        for (hpls_int i = 0; i < D->nlocal; i++) { /* y += Ao ghost */
            double sum = 0.0;
            for (hpls_int p = Ao->rowptr[i]; p < Ao->rowptr[i + 1]; p++)
                sum += Ao->val[p] * D->ghost[Ao->colind[p]];
            y[i] += sum;
        }
    }
    return hpls_mpi_agree(D->comm, st, 0, NULL, 0);
}
