/* SPDX-License-Identifier: BSD-3-Clause */
/* dist_pjg.c: PJG (Ahmadi et al., IEEE TPDS 32(7), 2021, Sec. 3, Eqs. 3-5,
 * Alg. 1) on a matrix distributed by rows over MPI ranks (dcsr.h).  Ranks own
 * rows of every block: block k is the union of every rank's k-th chunk of
 * psize rows, so all ranks work on every block, Jacobi inside it and
 * Gauss-Seidel between blocks as in one process:
 *
 *   sweep: gold = the ghosts (the other ranks' x_old)
 *          for k = 0 .. nblocks-1:
 *              my rows of block k: x_i = (b_i - sum_{j != i} a_ij x_j) / a_ii,
 *                  all from the same old values of the block (threads)
 *              send the new values of my chunk k to the ranks holding them as
 *                  ghosts, receive theirs of block k (the halo restricted to
 *                  the block: one message per neighbour that has entries in it)
 *
 * The true residual of the iterate the sweep started from rides along as in
 * kernels/cpu/pjg_sweep.c, the finished columns now including the ghosts of
 * earlier blocks, whose old values gold keeps:
 *   (b - A x_old)_i = s_i - a_ii x_i^old - sum_{j finished} a_ij (x_j^old - x_j^new).
 * Each row is summed in global column order (the ghosts left of my rows,
 * mine, the ghosts right of them), as the one-process sweep sums it, so the
 * iterates are bit for bit those of one process whose partition has the same
 * blocks (hpls_solver_set_partition; tests/mpi/dist_check.c).
 *
 * Cost of a sweep: nblocks exchanges one after the other, each a message to
 * every neighbour with ghosts in the block (a band matrix: the one or two
 * ranks beside mine), so nblocks message latencies on the critical path, and
 * one reduction (||r||).  psize must give a block enough work to hide them:
 * without psize, a rank takes at least DIST_WORK multiply-adds per block. */
#include "mpi/dist.h"
#include "precond/pjg_kernels.h"

#include <stdio.h>
#include <string.h>

/* Multiply-adds per rank and block without psize, on more than one rank: about
 * 65 us at 1 ns an entry (a CSR sweep streams A from memory), so a message's
 * latency (microseconds between ranks of a machine or over InfiniBand) is a
 * few per cent of the block; and two threads of a rank each get
 * PJG_PAR_WORK. */
#define DIST_WORK 65536
/* kernels/cpu/pjg_sweep.c's PJG_PAR_WORK: multiply-adds a thread should get
 * in a block before the parallel loop pays (the same rule, the same bits). */
#define PAR_WORK 32768
/* Not dcsr.c's halo tag: a block's messages never match the halo's. */
enum { PJG_TAG = 8 };

typedef struct pjg_dist {
    hpls_int psize;         /* my rows in a block: agreed, the same on every rank */
    hpls_int want;          /* the psize this rank asks for (given, or its default) */
    hpls_int nblocks;       /* blocks of a sweep: the most any rank's rows make */
    hpls_int *gblock;       /* nghost: the block of each ghost (its owner's chunk) */
    hpls_real *gnew, *gold; /* nghost: the ghosts' values now, and at the sweep's start */
    hpls_real *sendbuf;     /* the halo's send list, packed block by block */
    hpls_int *scur, *rcur;  /* per neighbour: the next entry of its send / receive list */
    MPI_Request *req;       /* a block's receives, then its sends */
} pjg_dist;

static void pjg_free(void *mdata)
{
    pjg_dist *P = mdata;
    if (!P)
        return;
    hpls_free(P->gblock);
    hpls_free(P->gnew);
    hpls_free(P->gold);
    hpls_free(P->sendbuf);
    hpls_free(P->scur);
    hpls_free(P->rcur);
    hpls_free(P->req);
    hpls_free(P);
}

/* The psize this rank would take: one process's default on one rank, else at
 * least DIST_WORK multiply-adds per block (and one process's default for its
 * threads when that is more); at most its rows. */
static hpls_int default_psize(const hpls_dcsr *D, int nthreads)
{
    hpls_int m = D->nlocal, nnz = D->Ad->nnz + D->Ao->nnz;
    hpls_int ps = hpls_pjg_default_psize(m, nnz, nthreads);
    if (D->size == 1 || m == 0)
        return ps > 0 ? ps : 1;
    hpls_int per_row = nnz / m + 1, least = DIST_WORK / per_row + 1;
    ps = ps > least ? ps : least;
    return ps < m ? ps : m;
}

hpls_status hpls_dist_pjg_setup(hpls_mctx *mc)
{
    const hpls_dcsr *D = mc->op->D;
    if (mc->opt.part_ptr)
        return hpls_fail(HPLS_ERR_OPTION, "pjg on MPI ranks takes psize, not a partition "
                                          "(hpls_solver_set_partition): block k is every rank's "
                                          "k-th chunk of psize rows");
    pjg_dist *P = hpls_calloc(1, sizeof *P);
    if (!P)
        return HPLS_ERR_NOMEM;
    hpls_int g = D->nghost + 1, ns = D->send_ptr[D->nsend] + 1;
    P->gblock = hpls_malloc(g, sizeof *P->gblock);
    P->gnew = hpls_malloc(g, sizeof *P->gnew);
    P->gold = hpls_malloc(g, sizeof *P->gold);
    P->sendbuf = hpls_malloc(ns, sizeof *P->sendbuf);
    P->scur = hpls_malloc(D->nsend + 1, sizeof *P->scur);
    P->rcur = hpls_malloc(D->nrecv + 1, sizeof *P->rcur);
    P->req = hpls_malloc(D->nrecv + D->nsend + 1, sizeof *P->req);
    if (!P->gblock || !P->gnew || !P->gold || !P->sendbuf || !P->scur || !P->rcur || !P->req) {
        pjg_free(P);
        return HPLS_ERR_NOMEM;
    }
    P->want = mc->opt.psize > 0 ? mc->opt.psize : default_psize(D, mc->be->nthreads);
    P->psize = P->want;
    mc->mdata = P;
    mc->mdata_destroy = pjg_free;
    return HPLS_OK;
}

void hpls_dist_pjg_agree(hpls_solver *s)
{
    pjg_dist *P = s->mc.mdata;
    const hpls_dcsr *D = s->dist;
    long long ps = P->want;
    MPI_Allreduce(MPI_IN_PLACE, &ps, 1, MPI_LONG_LONG, MPI_MAX, D->comm);
    P->psize = ps;
    P->nblocks = 0;
    for (int q = 0; q < D->size; q++) {
        hpls_int rows = D->rowstart[q + 1] - D->rowstart[q], nb = (rows + ps - 1) / ps;
        P->nblocks = nb > P->nblocks ? nb : P->nblocks;
    }
    /* ghosts from one rank are its rows in increasing order: their blocks too */
    for (int k = 0; k < D->nrecv; k++)
        for (hpls_int g = D->recv_ptr[k]; g < D->recv_ptr[k + 1]; g++)
            P->gblock[g] = (D->garray[g] - D->rowstart[D->recv_rank[k]]) / ps;
    if (D->size == 1)
        return; /* one process's pjg */
    /* messages a sweep: one per neighbour and block it has entries of mine in */
    long long sent = 0;
    for (int k = 0; k < D->nsend; k++)
        for (hpls_int e = D->send_ptr[k]; e < D->send_ptr[k + 1]; e++)
            sent += e == D->send_ptr[k] || D->send_idx[e] / ps != D->send_idx[e - 1] / ps;
    MPI_Allreduce(MPI_IN_PLACE, &sent, 1, MPI_LONG_LONG, MPI_SUM, D->comm);
    size_t used = strlen(s->fmt);
    snprintf(s->fmt + used, sizeof s->fmt - used,
             "%spjg: %lld blocks, block k = each rank's k-th %lld rows; a sweep: %lld exchanges "
             "in turn, %lld messages",
             used ? ", " : "", (long long)P->nblocks, ps, (long long)P->nblocks, sent);
}

/* Row i of my chunk k (rows lo ..): x_i^new, and r_i = (b - A x_old)_i, the
 * sums in global column order; finished columns: mine below lo, ghosts of a
 * block before k. */
static inline double row_update(const pjg_dist *P, const hpls_dcsr *D, hpls_int k, hpls_int lo,
                                hpls_int i, const hpls_real *dinv, const hpls_real *b,
                                const hpls_real *x, const hpls_real *xold, hpls_real *r)
{
    const hpls_csr *Ad = D->Ad, *Ao = D->Ao;
    double s = b[i], c = 0.0, aii = 0.0; /* c = sum over finished j of a_ij (xold_j - x_j) */
    hpls_int p = Ao->rowptr[i], end = Ao->rowptr[i + 1];
    for (; p < end && D->garray[Ao->colind[p]] < D->first; p++) { /* ghosts left of mine */
        hpls_int g = Ao->colind[p];
        s -= Ao->val[p] * P->gnew[g];
        if (P->gblock[g] < k)
            c += Ao->val[p] * (P->gold[g] - P->gnew[g]);
    }
    for (hpls_int q = Ad->rowptr[i]; q < Ad->rowptr[i + 1]; q++) {
        hpls_int j = Ad->colind[q];
        if (j == i) {
            aii = Ad->val[q];
            continue;
        }
        s -= Ad->val[q] * x[j];
        if (j < lo)
            c += Ad->val[q] * (xold[j] - x[j]);
    }
    for (; p < end; p++) { /* ghosts right of mine */
        hpls_int g = Ao->colind[p];
        s -= Ao->val[p] * P->gnew[g];
        if (P->gblock[g] < k)
            c += Ao->val[p] * (P->gold[g] - P->gnew[g]);
    }
    r[i] = s - aii * x[i] - c;
    return s * dinv[i];
}

/* My rows lo .. hi-1 of block k: the new values into xold first (no row of
 * the block reads xold of the block), then x and xold swap.  Orphaned loops:
 * shared by the threads of chunk's region, or run by the caller alone. */
static void chunk_rows(const pjg_dist *P, const hpls_dcsr *D, hpls_int k, hpls_int lo,
                       hpls_int hi, const hpls_real *dinv, const hpls_real *b, hpls_real *x,
                       hpls_real *xold, hpls_real *r)
{
#pragma omp for schedule(static)
    for (hpls_int i = lo; i < hi; i++)
        xold[i] = row_update(P, D, k, lo, i, dinv, b, x, xold, r);
#pragma omp for schedule(static)
    for (hpls_int i = lo; i < hi; i++) {
        double xnew = xold[i];
        xold[i] = x[i];
        x[i] = xnew;
    }
}

/* One thread opens no parallel region: an inactive one (if (0)) a block made
 * a sweep of psize = 1 (Gauss-Seidel, one rank's default on one thread) take
 * 794 ms on gas 1e6 k=2, 94 ms without it (bench/results/mpi.md). */
static void chunk(const pjg_dist *P, const hpls_dcsr *D, int nt, hpls_int k, hpls_int lo,
                  hpls_int hi, const hpls_real *dinv, const hpls_real *b, hpls_real *x,
                  hpls_real *xold, hpls_real *r)
{
    if (nt == 1) {
        chunk_rows(P, D, k, lo, hi, dinv, b, x, xold, r);
        return;
    }
#pragma omp parallel num_threads(nt)
    chunk_rows(P, D, k, lo, hi, dinv, b, x, xold, r);
}

/* Posts the receives of block k: from each neighbour, its ghosts in block k
 * (the next ones of its list), straight into gnew.  *nreq: requests posted. */
static hpls_status post_receives(pjg_dist *P, const hpls_dcsr *D, hpls_int k, int *nreq)
{
    *nreq = 0;
    for (int q = 0; q < D->nrecv; q++) {
        hpls_int a = P->rcur[q], e = a;
        while (e < D->recv_ptr[q + 1] && P->gblock[e] == k)
            e++;
        P->rcur[q] = e;
        if (e > a && MPI_Irecv(P->gnew + a, (int)(e - a), MPI_DOUBLE, D->recv_rank[q], PJG_TAG,
                               D->comm, &P->req[(*nreq)++]) != MPI_SUCCESS)
            return hpls_fail(HPLS_ERR_INTERNAL, "rank %d: MPI_Irecv (pjg block %lld)", D->rank,
                             (long long)k + 1);
    }
    return HPLS_OK;
}

/* Sends my new values of block k (rows below hi not sent yet) to each
 * neighbour holding some, then waits for the block's nreq messages. */
static hpls_status send_and_wait(pjg_dist *P, hpls_dcsr *D, hpls_int k, hpls_int hi,
                                 const hpls_real *x, int nreq)
{
    for (int q = 0; q < D->nsend; q++) {
        hpls_int a = P->scur[q], e = a;
        for (; e < D->send_ptr[q + 1] && D->send_idx[e] < hi; e++)
            P->sendbuf[e] = x[D->send_idx[e]];
        P->scur[q] = e;
        if (e == a)
            continue;
        if (MPI_Isend(P->sendbuf + a, (int)(e - a), MPI_DOUBLE, D->send_rank[q], PJG_TAG, D->comm,
                      &P->req[nreq++]) != MPI_SUCCESS)
            return hpls_fail(HPLS_ERR_INTERNAL, "rank %d: MPI_Isend (pjg block %lld)", D->rank,
                             (long long)k + 1);
        D->messages++;
    }
    if (nreq > 0 && MPI_Waitall(nreq, P->req, MPI_STATUSES_IGNORE) != MPI_SUCCESS)
        return hpls_fail(HPLS_ERR_INTERNAL, "rank %d: MPI_Waitall (pjg block %lld)", D->rank,
                         (long long)k + 1);
    return HPLS_OK;
}

void hpls_dist_pjg_sweep(hpls_mctx *mc, int fresh, const hpls_dvec *dinvv, const hpls_dvec *bv,
                         hpls_dvec *xv, hpls_dvec *xoldv, hpls_dvec *rv)
{
    hpls_backend *be = mc->be;
    const hpls_real *dinv = hpls_v_host(be, dinvv), *b = hpls_v_host(be, bv);
    hpls_real *x = hpls_v_host(be, xv), *xold = hpls_v_host(be, xoldv), *r = hpls_v_host(be, rv);
    if (!dinv || !b || !x || !xold || !r)
        return; /* a handle was refused: recorded */
    pjg_dist *P = mc->mdata;
    hpls_dcsr *D = mc->op->D;
    hpls_int m = D->nlocal, ps = P->psize;
    hpls_status st = HPLS_OK;
    if (fresh) { /* a solve's first sweep: the ghosts of x0 */
        st = hpls_dcsr_halo_start(D, x);
        if (st == HPLS_OK)
            st = hpls_dcsr_halo_finish(D);
        if (st == HPLS_OK && D->nghost > 0)
            memcpy(P->gnew, D->ghost, (size_t)D->nghost * sizeof *P->gnew);
    }
    if (D->nghost > 0)
        memcpy(P->gold, P->gnew, (size_t)D->nghost * sizeof *P->gold);
    for (int q = 0; q < D->nsend; q++)
        P->scur[q] = D->send_ptr[q];
    for (int q = 0; q < D->nrecv; q++)
        P->rcur[q] = D->recv_ptr[q];
    /* threads when a block gives each PAR_WORK multiply-adds (pjg_sweep.c's rule) */
    int nt = be->nthreads;
    double row_work = m > 0 ? (double)(D->Ad->nnz + D->Ao->nnz + m) / (double)m : 0.0;
    if (row_work * (double)ps < (double)nt * PAR_WORK)
        nt = 1;
    for (hpls_int k = 0; k < P->nblocks && st == HPLS_OK; k++) {
        hpls_int lo = k * ps < m ? k * ps : m, hi = lo + ps < m ? lo + ps : m;
        int nreq = 0;
        chunk(P, D, nt, k, lo, hi, dinv, b, x, xold, r);
        /* the receives only now: they write gnew, whose ghosts of block k the
         * chunk read as old values */
        st = post_receives(P, D, k, &nreq);
        if (st == HPLS_OK)
            st = send_and_wait(P, D, k, hi, x, nreq);
    }
    if (st != HPLS_OK) /* recorded: the reduction of ||r|| stops every rank */
        hpls_be_fail(be, st, "%s", hpls_last_error());
}
