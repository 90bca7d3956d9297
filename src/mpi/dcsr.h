/* SPDX-License-Identifier: BSD-3-Clause */
/* dcsr.h: a CSR matrix distributed by row blocks over the ranks of an MPI
 * communicator, and what the solver and the command need to run on it
 * (the layout is PETSc's MPIAIJ idea, written from its description).
 *
 * Rank p owns the rows rowstart[p] .. rowstart[p+1]-1 and the same entries
 * of every vector (x, b, r).  Its rows are stored as two CSR blocks:
 *   Ad  nlocal x nlocal: the columns it owns, numbered from its first row;
 *   Ao  nlocal x nghost: the other columns, compressed to the ghosts it needs,
 *       ghost g being the global column garray[g] (sorted: the ghosts owned
 *       by one rank are contiguous, and received in one message).
 * y = A x: start the halo exchange (persistent requests: x's entries others
 * need, into ghost[] here), y = Ad x_local while the messages travel, wait,
 * y += Ao ghost.  Global indices are 64-bit; the blocks' are 32-bit.
 *
 * Every function here is collective over the communicator: a failure on one
 * rank (bad input, no memory) is the same status on every rank, with the
 * failing rank's message (hpls_last_error), so no rank is left waiting. */
#ifndef HPLS_MPI_DCSR_H
#define HPLS_MPI_DCSR_H

#include "solver.h"

#include "hpls_mpi.h"

struct hpls_dcsr {
    MPI_Comm comm; /* a duplicate of the caller's: our messages never mix with theirs */
    int rank, size;
    hpls_int n;         /* global order */
    hpls_int first;     /* my first row */
    hpls_int nlocal;    /* my rows */
    hpls_int nnz;       /* stored entries of the whole matrix */
    hpls_int *rowstart; /* size + 1: first row of each rank */
    hpls_csr *Ad;       /* my rows, my columns (local numbering) */
    hpls_csr *Ao;       /* my rows, the ghost columns (ghost numbering) */
    hpls_int nghost;
    hpls_int *garray; /* nghost global columns, increasing */
    /* the halo: ghosts recv_ptr[k] .. recv_ptr[k+1]-1 come from rank recv_rank[k];
     * sendbuf[send_ptr[k] ..] = x[send_idx[..]] goes to rank send_rank[k] */
    int nrecv, nsend;
    int *recv_rank, *send_rank;
    hpls_int *recv_ptr, *send_ptr, *send_idx;
    hpls_real *ghost, *sendbuf;
    MPI_Request *req;          /* nrecv receives, then nsend sends (persistent) */
    const hpls_real *xsent;    /* the x of the exchange under way, or NULL */
    long long messages;        /* halo messages this rank has sent */
    struct hpls_dcsr_rev *rev; /* the reverse halo (dcsr_ops.h), made on first use, or NULL */
    hpls_read_mode read;       /* how it was read: ROOT, PARALLEL, or AUTO (not from a file) */
    unsigned long version;     /* hpls_dcsr_set_values calls: a solver set up before the
                                  last one refuses to solve until hpls_solver_update_dcsr */
};

/* Public (hpls_mpi.h): hpls_dcsr_create, _scatter, _read, _generate, _destroy,
 * _get_sizes, _read_mode, _set_values, _spmv, _scatter_vec, _gather_vec,
 * hpls_solver_setup_dcsr, hpls_solver_update_dcsr and hpls_solver_mpi_counts. */

/* What every public entry checks before its first collective: MPI is
 * running and comm is a communicator (fn names the entry in the message). */
hpls_status hpls_dcsr_comm_ok(MPI_Comm comm, const char *fn);

/* b = A 1, my entries: the row sums (no communication). */
void hpls_dcsr_row_sums(const hpls_dcsr *D, hpls_real *b);

/* The halo exchange of x (my nlocal values): start sends x's values that
 * others need and receives the ghosts; finish waits, D->ghost then holds them. */
hpls_status hpls_dcsr_halo_start(hpls_dcsr *D, const hpls_real *x);
hpls_status hpls_dcsr_halo_finish(hpls_dcsr *D);

/* The operator of D on backend be (an mpi backend on D's communicator):
 * y = A x (Ad through op->qt when set), r = b - A x with ||r||, and
 * || |A| |x| || (dcsr_spmv.c); y = A^T x: hpls_op_dcsr_transpose. */
hpls_op hpls_op_dcsr(hpls_backend *be, hpls_dcsr *D);

/* The mpi backend: the cpu backend on my rows, every reduction one
 * MPI_Allreduce over D's communicator; exact = 1 (reproducible=1): the cpu
 * backend's exact sums, added exactly over the ranks (mpi_backend.c). */
hpls_status hpls_backend_create_mpi(const hpls_dcsr *D, int nthreads, int exact, hpls_backend **be);
/* Reductions (MPI_Allreduce calls) and the doubles they reduced (the failure
 * flags left out) since the last reset. */
long long hpls_mpi_reductions(const hpls_backend *be);
long long hpls_mpi_reduced_values(const hpls_backend *be);
void hpls_mpi_reset_counts(hpls_backend *be);
/* What a solve moved (collective): the bytes one rank put into reductions,
 * the halo exchanges of the rank that made most, the bytes all ranks sent,
 * the most ranks one rank sends to, the most bytes one rank sends per
 * exchange (bench/mpi_model.py's inputs). */
typedef struct hpls_mpi_vol {
    long long reduction_bytes, halo_exchanges, halo_bytes, neighbours_max, exchange_bytes_max;
} hpls_mpi_vol;
hpls_status hpls_mpi_volume(const hpls_backend *be, const hpls_dcsr *D, hpls_mpi_vol *v);

/* 1 when be stopped because another rank failed (not on its own). */
int hpls_mpi_stopped(const hpls_backend *be);
/* Collective agreement on a status: the status and message (msg if given
 * and not empty, else hpls_last_error) of the lowest rank that failed on its
 * own (not stopped by another: stopped), put in hpls_last_error and in msg
 * on every rank. */
hpls_status hpls_mpi_agree(MPI_Comm comm, hpls_status st, int stopped, char *msg, size_t msglen);

/* The solver on D (hpls_solver_setup_dcsr, hpls_mpi.h; dist_solver.c): methods
 * that reach A only through the operator and its diagonal run on any number
 * of ranks (the Krylov methods, A^T by the reverse halo, dcsr_ops.h; jacobi;
 * gs, sor and ssor sweep each rank's rows with the other ranks' unknowns
 * explicit, iter/sor.c; the tridiagonal direct methods, dist_tridiag.c); the
 * others on one rank only, and a preconditioner is built on Ad, my diagonal
 * block (block Jacobi: coupling between ranks is left out of M, as
 * OpenFOAM's DILU leaves processor boundaries out), as a preconditioner
 * object given with hpls_solver_set_precond acts on my rows.  reorder and
 * scale transform the system on D's row blocks (dist_transform.c),
 * format=qtree walks Ad's quad-tree.  b and x given to hpls_solver_solve are
 * my nlocal entries. */
/* The bytes a solve moved (hpls_mpi_volume), collective. */
hpls_status hpls_solver_mpi_volume(const hpls_solver *s, hpls_mpi_vol *v);

/* The tridiagonal direct methods (thomas, cr, gspike, lapack) on more than one
 * rank (dist_tridiag.c): gspike distributed (dist_gspike.c), the others on T
 * gathered to rank 0.  hpls_setup_tridiag and hpls_solve_tridiag call them
 * through op->dk (dist.c's hpls_dist_ops). */
hpls_status hpls_setup_tridiag_dist(hpls_mctx *mc);
hpls_status hpls_solve_tridiag_dist(hpls_mctx *mc, const hpls_dvec *b, hpls_dvec *x);
/* Partitions g-Spike found singular (all ranks, all levels) in the solver's
 * last setup; -1 when its method is not gspike or it is not set up. */
hpls_int hpls_solver_gspike_singular(const hpls_solver *s);
/* How a tridiagonal direct method runs on the ranks ("g-Spike on 4 ranks: 8
 * partitions ..."), or NULL (one rank, another method, not set up). */
const char *hpls_solver_dist_note(const hpls_solver *s);

#endif /* HPLS_MPI_DCSR_H */
