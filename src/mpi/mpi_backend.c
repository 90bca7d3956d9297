/* SPDX-License-Identifier: BSD-3-Clause */
/* mpi_backend.c: the mpi backend, the cpu backend on a rank's part of every
 * vector.  Each vector operation sums its part locally (OpenMP, per thread in
 * thread order) and hands its k partial sums to reduce once: here that is one
 * MPI_Allreduce of the k values, so BiCGSTAB makes 3 per iteration and GMRES
 * one per Arnoldi step, whatever the number of ranks.
 *
 * reproducible=1 (exact): the cpu backend's exact operations
 * (kernels/cpu/exact_sum.h) hand over each sum as HPLS_XS_LIMBS integers below
 * 2^31 in doubles, which MPI_SUM adds exactly in any order and any tree, so
 * the same MPI_Allreduce gives every rank the exact sum over all ranks, the
 * same bits for any number of ranks and threads (560 bytes per value instead
 * of 8; one buffer holds the largest exact reduction, so it is still one call).
 *
 * A failure on one rank (a preconditioner's, an operator's) must stop every
 * rank at the same iteration, or the others would wait in the next
 * reduction for ever: each reduction carries one more value, 1 on a rank
 * whose backend has failed, and a rank that sees a nonzero sum stops too
 * (the solver then agrees on the failing rank's status and message).
 * MPI is called from the thread that calls the backend, outside parallel
 * regions (MPI_THREAD_FUNNELED is enough). */
#include "kernels/cpu/exact_sum.h"
#include "mpi/dcsr.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Values per MPI call of a reduction (and the failure flag): a longer one
 * (GMRES's multi-dots at restart > ~120) goes in pieces, the same on every
 * rank, so reduce never allocates and cannot fail halfway.  Exact: the
 * limbs of the largest exact reduction. */
enum { RED_CAP = 256, RED_CAP_EXACT = HPLS_XS_MAXVALS * HPLS_XS_LIMBS };
/* Ranks whose limbs (each below 2^31) MPI_SUM adds below 2^53, exactly. */
#define EXACT_MAX_RANKS (1 << 21)

typedef struct mpi_state {
    hpls_vops vops;       /* cpu's (exact: its exact ones), with finite made global */
    MPI_Comm comm;        /* the matrix's (not owned) */
    hpls_int first;       /* global index of my first entry */
    int cap;              /* values per MPI call */
    double *buf;          /* cap + 1: the piece under way and the flag */
    long long reductions; /* MPI calls made for reductions */
    long long values;     /* doubles reduced (flags left out) */
    int stopped;          /* 1: stopped because another rank failed */
} mpi_state;

/* buf[0 .. c] (c values, then the flag) reduced over the ranks, in place. */
static int reduce_piece(mpi_state *m, int c, hpls_red_op op)
{
    m->reductions++;
    m->values += c;
    return MPI_Allreduce(MPI_IN_PLACE, m->buf, c + 1, MPI_DOUBLE,
                         op == HPLS_RED_SUM ? MPI_SUM : MPI_MAX, m->comm);
}

static hpls_status mpi_reduce(hpls_backend *be, double *vals, int k, hpls_red_op op)
{
    mpi_state *m = be->reduce_ctx;
    double failed = be->err != HPLS_OK && !m->stopped, anyone = 0;
    int off = 0;
    do {
        int c = k - off < m->cap ? k - off : m->cap;
        memcpy(m->buf, vals + off, (size_t)c * sizeof *vals);
        m->buf[c] = failed;
        if (reduce_piece(m, c, op) != MPI_SUCCESS)
            return HPLS_ERR_INTERNAL;
        memcpy(vals + off, m->buf, (size_t)c * sizeof *vals);
        anyone += m->buf[c];
        off += c;
    } while (off < k);
    if (anyone > 0 && be->err == HPLS_OK) {
        m->stopped = 1;
        hpls_be_fail(be, HPLS_ERR_INTERNAL, "stopped: another rank failed");
    }
    return HPLS_OK;
}

/* The first non-finite entry over all ranks: its global index (and value,
 * from the rank holding it), or -1; every rank gets the same answer. */
static hpls_int mpi_finite(hpls_backend *be, hpls_int n, const hpls_dvec *x, double *bad)
{
    mpi_state *m = be->reduce_ctx;
    double value = 0;
    hpls_int i = hpls_cpu_vops.finite(be, n, x, &value);
    int rank;
    MPI_Comm_rank(m->comm, &rank);
    struct {
        double index;
        int rank;
    } loc = {i >= 0 ? (double)(m->first + i) : HUGE_VAL, rank};
    m->reductions++;
    if (MPI_Allreduce(MPI_IN_PLACE, &loc, 1, MPI_DOUBLE_INT, MPI_MINLOC, m->comm) != MPI_SUCCESS) {
        hpls_be_fail(be, HPLS_ERR_INTERNAL, "MPI_Allreduce failed");
        return -1;
    }
    if (loc.index == HUGE_VAL)
        return -1;
    MPI_Bcast(&value, 1, MPI_DOUBLE, loc.rank, m->comm);
    *bad = value;
    return (hpls_int)loc.index;
}

static void mpi_free(void *ctx)
{
    mpi_state *m = ctx;
    if (m)
        hpls_free(m->buf);
    hpls_free(m);
}

hpls_status hpls_backend_create_mpi(const hpls_dcsr *D, int nthreads, int exact, hpls_backend **out)
{
    if (exact && D->size > EXACT_MAX_RANKS)
        return hpls_fail(HPLS_ERR_UNSUPPORTED,
                         "reproducible=1 adds the ranks' sums exactly on at most %d ranks, not %d",
                         EXACT_MAX_RANKS, D->size);
    hpls_backend *be = NULL;
    hpls_status st = hpls_backend_create(HPLS_BACKEND_CPU, nthreads, &be);
    if (st == HPLS_OK && exact)
        st = hpls_cpu_set_exact(be);
    if (st != HPLS_OK) {
        hpls_backend_destroy(be);
        return st;
    }
    mpi_state *m = hpls_calloc(1, sizeof *m);
    int cap = exact ? RED_CAP_EXACT : RED_CAP;
    if (m && !(m->buf = hpls_malloc(cap + 1, sizeof *m->buf))) {
        hpls_free(m);
        m = NULL;
    }
    if (!m) {
        hpls_backend_destroy(be);
        return HPLS_ERR_NOMEM;
    }
    m->vops = *be->v;
    m->vops.finite = mpi_finite;
    m->comm = D->comm;
    m->first = D->first;
    m->cap = cap;
    be->name = "mpi";
    be->v = &m->vops;
    be->reduce = mpi_reduce;
    be->reduce_ctx = m;
    be->reduce_free = mpi_free;
    *out = be;
    return HPLS_OK;
}

long long hpls_mpi_reductions(const hpls_backend *be)
{
    const mpi_state *m = be->reduce_ctx;
    return m ? m->reductions : 0;
}

long long hpls_mpi_reduced_values(const hpls_backend *be)
{
    const mpi_state *m = be->reduce_ctx;
    return m ? m->values : 0;
}

hpls_status hpls_mpi_volume(const hpls_backend *be, const hpls_dcsr *D, hpls_mpi_vol *v)
{
    /* every exchange sends the same values: messages / nsend exchanges */
    long long ex = D->nsend > 0 ? D->messages / D->nsend : 0, per = 8LL * D->send_ptr[D->nsend];
    long long most[3] = {ex, D->nsend, per}, sent = ex * per;
    if (MPI_Allreduce(MPI_IN_PLACE, most, 3, MPI_LONG_LONG, MPI_MAX, D->comm) != MPI_SUCCESS ||
        MPI_Allreduce(MPI_IN_PLACE, &sent, 1, MPI_LONG_LONG, MPI_SUM, D->comm) != MPI_SUCCESS)
        return hpls_fail(HPLS_ERR_INTERNAL, "rank %d: MPI_Allreduce (volume)", D->rank);
    *v = (hpls_mpi_vol){.reduction_bytes = 8 * hpls_mpi_reduced_values(be),
                        .halo_exchanges = most[0],
                        .halo_bytes = sent,
                        .neighbours_max = most[1],
                        .exchange_bytes_max = most[2]};
    return HPLS_OK;
}

void hpls_mpi_reset_counts(hpls_backend *be)
{
    mpi_state *m = be->reduce_ctx;
    if (m) {
        m->reductions = 0;
        m->values = 0;
        m->stopped = 0;
    }
}

hpls_status hpls_mpi_agree(MPI_Comm comm, hpls_status st, int stopped, char *msg, size_t msglen)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    /* the lowest rank that failed on its own, else the lowest stopped one */
    int mine[2] = {st == HPLS_OK ? INT_MAX : stopped ? size + rank : rank, st}, first[2];
    MPI_Allreduce(mine, first, 1, MPI_2INT, MPI_MINLOC, comm);
    if (first[0] == INT_MAX)
        return HPLS_OK;
    int root = first[0] % size;
    char text[512];
    if (rank == root)
        snprintf(text, sizeof text, "%s", msg && msg[0] ? msg : hpls_last_error());
    MPI_Bcast(text, (int)sizeof text, MPI_CHAR, root, comm);
    st = (hpls_status)first[1];
    if (rank != root && size > 1)
        hpls_fail(st, "rank %d: %s", root, text);
    else
        hpls_fail(st, "%s", text);
    if (msg && msglen)
        snprintf(msg, msglen, "%s", hpls_last_error());
    return st;
}

int hpls_mpi_stopped(const hpls_backend *be)
{
    const mpi_state *m = be->reduce_ctx;
    return m && m->stopped;
}
