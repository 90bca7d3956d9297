/* SPDX-License-Identifier: BSD-3-Clause */
/* hpls_mpi.h: hpls on the ranks of an MPI communicator (installed by an MPI
 * build of hpls only; it includes <mpi.h> and <hpls.h>).
 *
 * A matrix distributed by rows: rank p owns the rows first_p .. first_p +
 * nlocal_p - 1, in rank order (rank 0 the first block), and the same entries
 * of every vector (b, x).  Each rank stores its rows as a block on its own
 * columns and a block on the other ranks' columns it needs (PETSc's MPIAIJ
 * layout); y = A x exchanges those "ghost" values with the neighbouring ranks.
 *
 * Lifecycle: hpls_dcsr_create (each rank gives its rows), _read (one Matrix
 * Market file), _scatter (a matrix held by one rank) or _generate ->
 * hpls_solver_setup_dcsr(s, D) -> hpls_solver_solve(s, b, x) with this rank's
 * nlocal entries of b and x, as often as needed (hpls_solver_solve_many:
 * nlocal x k columns) -> hpls_solver_destroy(s) -> hpls_dcsr_destroy(D).  New
 * values on the same pattern (a Newton step, a time step): hpls_dcsr_set_values(D,
 * val) then hpls_solver_update_dcsr(s, D) for every solver set up on D, which
 * redoes only the numeric work (hpls_solver_update_values' counterpart).
 *
 * Every function here except hpls_dcsr_get_sizes and hpls_dcsr_read_mode is
 * collective: every rank of the communicator calls it, with the same
 * arguments where they are global (path, spec, root, n).  A failure on any
 * rank (bad input, no memory, a solver that breaks down on one rank's rows)
 * returns the same status on every rank, with the first failing rank's
 * message (hpls_last_error, or hpls_solver_message), so no rank is left
 * waiting in a collective.  hpls_solver_solve and hpls_solver_solve_many on a
 * distributed solver are collective too.  hpls calls MPI from the thread that
 * calls it only (OpenMP threads work inside each rank): initialize MPI with
 * MPI_THREAD_FUNNELED at least.  Methods: jacobi, gs, sor, ssor, pjg, hisa,
 * bhisa, the Krylov methods and the tridiagonal direct ones (thomas, cr and
 * lapack on T gathered to rank 0) on any number of ranks, the others on one;
 * a preconditioner acts on each rank's diagonal block (block Jacobi).
 * README.md, "Many machines (MPI)". */
#ifndef HPLS_MPI_H
#define HPLS_MPI_H

#include <hpls.h>
#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hpls_dcsr hpls_dcsr;

/* The matrix of order n from my rows: nlocal of them, row i's entries
 * rowptr[i] .. rowptr[i+1]-1 (rowptr[0] = 0) at global columns gcol[]
 * (0-based, strictly increasing in a row) with values val[] (finite).  The
 * ranks' nlocal must add up to n.  The arrays are copied. */
HPLS_API hpls_status hpls_dcsr_create(MPI_Comm comm, hpls_int n, hpls_int nlocal,
                                      const hpls_int *rowptr, const hpls_int *gcol,
                                      const hpls_real *val, hpls_dcsr **D);

/* Rank root holds the square matrix A (the others pass NULL): A is cut into
 * row blocks of nearly equal nonzeros, and each rank gets its rows. */
HPLS_API hpls_status hpls_dcsr_scatter(MPI_Comm comm, int root, const hpls_csr *A, hpls_dcsr **D);

/* How hpls_dcsr_read reads the file. */
typedef enum hpls_read_mode {
    HPLS_READ_AUTO,    /* PARALLEL for a plain coordinate file of 32 MiB or more on more
                          than one rank, else ROOT */
    HPLS_READ_ROOT,    /* rank 0 reads the file and scatters the rows (hpls_dcsr_scatter) */
    HPLS_READ_PARALLEL /* every rank reads and parses a byte range of the file, then the
                          entries go to the ranks owning their rows: memory per rank
                          O(nnz/P + n/P), never the whole matrix on one rank.  A gzip
                          file or an array (dense) file cannot be cut at byte offsets:
                          they are read as ROOT (hpls_dcsr_read_mode says so) */
} hpls_read_mode;

/* A square matrix from the Matrix Market file path (every rank passes the same
 * path; with PARALLEL every rank opens it: on many machines it must be on a
 * shared file system).  The result is the same whatever the mode: the rows of
 * HPLS_READ_ROOT's cut, duplicates summed in file order, symmetric and
 * skew-symmetric storage expanded; a fault in the file is the message of
 * hpls_mm_read_csr (file and line) on every rank. */
HPLS_API hpls_status hpls_dcsr_read(MPI_Comm comm, const char *path, hpls_read_mode mode,
                                    hpls_dcsr **D);
/* How D was read: HPLS_READ_ROOT or HPLS_READ_PARALLEL; HPLS_READ_AUTO when it
 * was not read from a file (create, scatter, generate). */
HPLS_API hpls_read_mode hpls_dcsr_read_mode(const hpls_dcsr *D);

/* A generator spec (hpls_gen_csr's): each rank builds its own rows (equal row
 * blocks), never the whole matrix; *b (if b is not NULL) gets my part of the
 * generator's right-hand side. */
HPLS_API hpls_status hpls_dcsr_generate(MPI_Comm comm, const char *spec, hpls_dcsr **D,
                                        hpls_vec **b);

HPLS_API void hpls_dcsr_destroy(hpls_dcsr *D); /* accepts NULL; collective */

/* New values for my stored entries, the pattern kept: val[k] is my k-th entry
 * taken row by row, global columns increasing in each row (hpls_dcsr_create's
 * order for rows given that way; for a matrix read, scattered or generated,
 * the same order of its rows as stored).  Every value must be finite: a
 * refusal (HPLS_ERR_VALUE naming the row, the column and the rank) leaves every
 * rank's values unchanged.  A solver set up on D refuses to solve
 * (HPLS_ERR_STATE) until hpls_solver_update_dcsr(s, D). */
HPLS_API hpls_status hpls_dcsr_set_values(hpls_dcsr *D, const hpls_real *val);

/* The global order n, my first row (0-based), my number of rows and the
 * stored entries of the whole matrix; each pointer may be NULL.  Not collective. */
HPLS_API hpls_status hpls_dcsr_get_sizes(const hpls_dcsr *D, hpls_int *n, hpls_int *first,
                                         hpls_int *nlocal, hpls_int *nnz);

/* y = A x on my rows: x and y my nlocal entries (x's ghosts come from the
 * other ranks). */
HPLS_API hpls_status hpls_dcsr_spmv(hpls_dcsr *D, const hpls_real *x, hpls_real *y);

/* mine = my entries of the vector v of n values held by rank root (the other
 * ranks pass NULL); v = the whole vector at root, gathered from every rank's
 * mine (NULL elsewhere). */
HPLS_API hpls_status hpls_dcsr_scatter_vec(const hpls_dcsr *D, int root, const hpls_real *v,
                                           hpls_real *mine);
HPLS_API hpls_status hpls_dcsr_gather_vec(const hpls_dcsr *D, int root, const hpls_real *mine,
                                          hpls_real *v);

/* The solver on D (D must outlive the solver's use of it); then
 * hpls_solver_solve(s, b, x) takes my nlocal entries of b and x. */
HPLS_API hpls_status hpls_solver_setup_dcsr(hpls_solver *s, hpls_dcsr *D);
/* After hpls_dcsr_set_values(D, ...): the solver set up on D takes D's new
 * values, redoing what depends on them and keeping what depends only on the
 * pattern (the preconditioners' level sets and trials, the diagonal's
 * positions, the halo), as hpls_solver_update_values does in one process;
 * with reorder, scale or format=qtree (their own copies of the values) it is
 * hpls_solver_setup_dcsr again.  A failure (a zero pivot on one rank) is the
 * same status on every rank, and the solver is then not set up. */
HPLS_API hpls_status hpls_solver_update_dcsr(hpls_solver *s, hpls_dcsr *D);
/* Reductions (MPI_Allreduce calls) and halo messages of all ranks in the
 * last solve of the distributed solver s. */
HPLS_API hpls_status hpls_solver_mpi_counts(const hpls_solver *s, long long *reductions,
                                            long long *messages);

#ifdef __cplusplus
}
#endif
#endif /* HPLS_MPI_H */
