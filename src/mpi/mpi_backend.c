/* mpi_backend.c: the mpi backend, the cpu backend on a rank's part of every
 * vector.  Each vector operation sums its part locally (OpenMP, per thread in
 * thread order) and hands its k partial sums to reduce once: here that is one
 * MPI_Allreduce of the k values, so BiCGSTAB makes 3 per iteration and GMRES
 * one per Arnoldi step, whatever the number of ranks.
 *
 * A failure on one rank (a preconditioner's, an operator's) must stop every
 * rank at the same iteration, or the others would wait in the next
 * reduction for ever: each reduction carries one more value, 1 on a rank
 * whose backend has failed, and a rank that sees a nonzero sum stops too
 * (the solver then agrees on the failing rank's status and message).
 * MPI is called from the thread that calls the backend, outside parallel
 * regions (MPI_THREAD_FUNNELED is enough). */
#include "mpi/dcsr.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Values per MPI call of a reduction (and the failure flag): a longer one
 * (GMRES's multi-dots at restart > ~120) goes in pieces, the same on every
 * rank, so reduce never allocates and cannot fail halfway. */
enum { RED_CAP = 256 };

typedef struct mpi_state {
    hpls_vops vops;          /* cpu's, with finite made global */
    MPI_Comm comm;           /* the matrix's (not owned) */
    hpls_int first;          /* global index of my first entry */
    int size;                /* ranks */
    int ordered;             /* 1: MPI_Allgather, then the ranks' values in rank order */
    double buf[RED_CAP + 1]; /* the piece under way and the flag */
    double *all;             /* ordered: every rank's piece, (RED_CAP + 1) x size */
    long long reductions;    /* MPI calls made for reductions */
    int stopped;             /* 1: stopped because another rank failed */
} mpi_state;

/* buf[0 .. c] (c values, then the flag) reduced over the ranks, in place. */
static int reduce_piece(mpi_state *m, int c, hpls_red_op op)
{
    m->reductions++;
    if (!m->ordered)
        return MPI_Allreduce(MPI_IN_PLACE, m->buf, c + 1, MPI_DOUBLE,
                             op == HPLS_RED_SUM ? MPI_SUM : MPI_MAX, m->comm);
    int rc = MPI_Allgather(m->buf, c + 1, MPI_DOUBLE, m->all, c + 1, MPI_DOUBLE, m->comm);
    for (int j = 0; j <= c; j++) { /* rank 0's value, then rank 1's ... */
        double v = m->all[j];
        for (int q = 1; q < m->size; q++) {
            double w = m->all[(size_t)q * (size_t)(c + 1) + (size_t)j];
            v = op == HPLS_RED_SUM ? v + w : (w > v || isnan(w) ? w : v);
        }
        m->buf[j] = v;
    }
    return rc;
}

static hpls_status mpi_reduce(hpls_backend *be, double *vals, int k, hpls_red_op op)
{
    mpi_state *m = be->reduce_ctx;
    double failed = be->err != HPLS_OK && !m->stopped, anyone = 0;
    int off = 0;
    do {
        int c = k - off < RED_CAP ? k - off : RED_CAP;
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
        hpls_free(m->all);
    hpls_free(m);
}

hpls_status hpls_backend_create_mpi(const hpls_dcsr *D, int nthreads, int ordered,
                                    hpls_backend **out)
{
    hpls_backend *be = NULL;
    hpls_status st = hpls_backend_create(0, nthreads, &be);
    if (st != HPLS_OK)
        return st;
    mpi_state *m = hpls_calloc(1, sizeof *m);
    if (m && ordered &&
        !(m->all = hpls_malloc((hpls_int)(RED_CAP + 1) * D->size, sizeof *m->all))) {
        hpls_free(m);
        m = NULL;
    }
    if (!m) {
        hpls_backend_destroy(be);
        return HPLS_ERR_NOMEM;
    }
    m->vops = hpls_cpu_vops;
    m->vops.finite = mpi_finite;
    m->comm = D->comm;
    m->first = D->first;
    m->size = D->size;
    m->ordered = ordered;
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

void hpls_mpi_reset_counts(hpls_backend *be)
{
    mpi_state *m = be->reduce_ctx;
    if (m) {
        m->reductions = 0;
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
