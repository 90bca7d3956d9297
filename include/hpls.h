/* SPDX-License-Identifier: BSD-3-Clause */
/* hpls.h: the public C API of hpls (Hybrid Parallel Linear Solvers).
 *
 * Lifecycle of a solve:  hpls_solver_create -> hpls_solver_set_option(s) ->
 * hpls_solver_setup(A) -> hpls_solver_solve(b, x) (as often as needed) ->
 * hpls_solver_destroy.  Every function returns an hpls_status; the detailed
 * message of a failure is kept in the object concerned (hpls_solver_message)
 * or, for object-less calls (file reading, object creation), thread-locally
 * (hpls_last_error).  C11, usable from C++. */
#ifndef HPLS_H
#define HPLS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this header; hpls_version() gives the library's.  Until 1.0,
 * a minor version may change the ABI (soname libhpls.so.0.MINOR); from 1.0 on
 * only a major version does (libhpls.so.MAJOR).  CMakeLists.txt reads these. */
#define HPLS_VERSION_MAJOR 0
#define HPLS_VERSION_MINOR 2
#define HPLS_VERSION_PATCH 0

/* What the shared library exports: exactly the functions declared here. */
#if defined(HPLS_BUILDING) && defined(__GNUC__)
#define HPLS_API __attribute__((visibility("default")))
#else
#define HPLS_API
#endif

/* ABI of growing structs (hpls_info, hpls_tridiag_opts): they only ever grow
 * at the end, and the functions that take one are called through a macro
 * passing sizeof as compiled into the caller, so a program built against an
 * older header keeps working with a newer library (fields it does not know are
 * neither written nor read: a missing input field takes its default). */

typedef int64_t hpls_int; /* sizes, counts, row pointers */
typedef int32_t hpls_idx; /* column indices */
typedef double hpls_real; /* values */

typedef enum hpls_status {
    HPLS_OK = 0,
    HPLS_ERR_ARG,          /* invalid argument (NULL, negative size, ...) */
    HPLS_ERR_NOMEM,        /* allocation failed, or sizes would not fit in memory */
    HPLS_ERR_IO,           /* a file could not be opened, read or written */
    HPLS_ERR_PARSE,        /* a file is malformed (message names file and line) */
    HPLS_ERR_UNSUPPORTED,  /* valid input that hpls does not handle (complex field) */
    HPLS_ERR_OPTION,       /* unknown option key or malformed value (message names it) */
    HPLS_ERR_SIZE,         /* dimensions disagree, or an index is out of range */
    HPLS_ERR_VALUE,        /* NaN or Inf in the input */
    HPLS_ERR_ZERO_DIAG,    /* zero or missing diagonal entry (message names the row) */
    HPLS_ERR_STATE,        /* call out of order (solve before setup) */
    HPLS_ERR_NOT_COMPILED, /* the backend or feature is not built into this library */
    HPLS_ERR_INTERNAL,     /* a bug in hpls: please report it */
    HPLS_ERR_SINGULAR,     /* a zero or tiny pivot: singular for this method (message names the row) */
    HPLS_ERR_CALLBACK      /* a user callback (operator, preconditioner) returned nonzero */
} hpls_status;

/* The library's version "MAJOR.MINOR.PATCH"; each pointer may be NULL. */
HPLS_API const char *hpls_version(int *major, int *minor, int *patch);

/* Name of a status ("invalid argument", ...); never NULL. */
HPLS_API const char *hpls_strerror(hpls_status st);
/* Detail of the last failure of an object-less call on this thread ("" if none). */
HPLS_API const char *hpls_last_error(void);

/* ---- vectors: n values, owned by the vector ---------------------------- */
typedef struct hpls_vec {
    hpls_int n;      /* length */
    hpls_real *data; /* n values */
} hpls_vec;

HPLS_API hpls_status hpls_vec_create(hpls_int n, hpls_vec **v); /* zero-filled */
HPLS_API void hpls_vec_destroy(hpls_vec *v);                    /* accepts NULL */

/* ---- CSR matrix ---------------------------------------------------------
 * Row i holds entries rowptr[i] .. rowptr[i+1]-1, columns strictly increasing. */
typedef struct hpls_csr {
    hpls_int nrows, ncols; /* dimensions */
    hpls_int nnz;          /* stored entries = rowptr[nrows] */
    hpls_int *rowptr;      /* nrows+1 offsets, 64-bit */
    hpls_idx *colind;      /* nnz column indices, 32-bit, sorted within a row */
    hpls_real *val;        /* nnz values */
} hpls_csr;

/* Assemble from nnz 0-based triplets (any order); duplicates are summed,
 * explicit zeros kept.  Indices out of range are an HPLS_ERR_SIZE naming the entry. */
HPLS_API hpls_status hpls_csr_from_coo(hpls_int nrows, hpls_int ncols, hpls_int nnz,
                              const hpls_int *rows, const hpls_int *cols,
                              const hpls_real *vals, hpls_csr **A);
/* Empty matrix with room for nnz entries (rowptr zeroed); the caller fills it. */
HPLS_API hpls_status hpls_csr_create(hpls_int nrows, hpls_int ncols, hpls_int nnz, hpls_csr **A);
HPLS_API void hpls_csr_destroy(hpls_csr *A);
/* Checks the invariants (sizes, monotone rowptr, sorted in-range columns, finite values). */
HPLS_API hpls_status hpls_csr_check(const hpls_csr *A);
/* At = A^T (a new matrix, columns sorted). */
HPLS_API hpls_status hpls_csr_transpose(const hpls_csr *A, hpls_csr **At);
/* y = A x (OpenMP, rows split by nonzeros; bit-repeatable for a fixed thread count). */
HPLS_API hpls_status hpls_csr_spmv(const hpls_csr *A, const hpls_vec *x, hpls_vec *y);
/* r = b - A x */
HPLS_API hpls_status hpls_csr_residual(const hpls_csr *A, const hpls_vec *b, const hpls_vec *x,
                              hpls_vec *r);

/* ---- dense row-major matrix -------------------------------------------- */
typedef struct hpls_dense {
    hpls_int nrows, ncols;
    hpls_real *data; /* nrows*ncols values, a[i*ncols + j] */
} hpls_dense;

HPLS_API hpls_status hpls_dense_create(hpls_int nrows, hpls_int ncols, hpls_dense **A);
HPLS_API void hpls_dense_destroy(hpls_dense *A);

/* ---- tridiagonal matrix (layout of LAPACK gtsv / cuSPARSE gtsv2) --------
 * Row i: dl[i]*x[i-1] + d[i]*x[i] + du[i]*x[i+1]; dl[0] = du[n-1] = 0. */
typedef struct hpls_tridiag {
    hpls_int n;
    hpls_real *dl, *d, *du; /* n values each */
} hpls_tridiag;

HPLS_API hpls_status hpls_tridiag_create(hpls_int n, hpls_tridiag **T);
HPLS_API void hpls_tridiag_destroy(hpls_tridiag *T);

/* ---- Matrix Market I/O (gzip read transparently) ----------------------- */
/* Reads a sparse matrix (coordinate or array format) into CSR.  Symmetric and
 * skew-symmetric storage is expanded.  Errors name the file and line. */
HPLS_API hpls_status hpls_mm_read_csr(const char *path, hpls_csr **A);
/* Reads a dense matrix (array or coordinate format). */
HPLS_API hpls_status hpls_mm_read_dense(const char *path, hpls_dense **A);
/* Reads a vector: an array file n x 1 (or 1 x n), or a coordinate n x 1 file. */
HPLS_API hpls_status hpls_mm_read_vec(const char *path, hpls_vec **v);
/* Writes atomically (temporary file + rename), values with %.17g. */
HPLS_API hpls_status hpls_mm_write_csr(const char *path, const hpls_csr *A);
HPLS_API hpls_status hpls_mm_write_vec(const char *path, const hpls_vec *v);
/* A dense matrix in array format (e.g. n x k solutions of hpls_solver_solve_many). */
HPLS_API hpls_status hpls_mm_write_dense(const char *path, const hpls_dense *A);
/* Reports whether a file holds array (dense) format: *is_array = 1 or 0. */
HPLS_API hpls_status hpls_mm_is_array(const char *path, int *is_array);

/* ---- generators (seeded, reproducible) --------------------------------
 * spec: "name:key=value,key=value", e.g. "gas:n=1e6,k=2,seed=3"; numbers may be
 * written 1e6.  Names: gas, poisson2d, poisson3d, convdiff3d, dense-dd, tridiag.
 * b (optional, may be NULL) receives the generator's right-hand side (A*1 unless
 * the generator defines another, e.g. dense-dd: ones). */
HPLS_API hpls_status hpls_gen_csr(const char *spec, hpls_csr **A, hpls_vec **b);
HPLS_API hpls_status hpls_gen_dense(const char *spec, hpls_dense **A, hpls_vec **b);
/* One line per generator and option, with defaults, for --help. */
HPLS_API const char *hpls_gen_help(void);

/* ---- solvers ----------------------------------------------------------- */
typedef struct hpls_solver hpls_solver;

typedef enum hpls_reason {
    HPLS_NOT_RUN = 0,
    HPLS_CONVERGED_RTOL,      /* ||r|| <= rtol * ||b|| (or * ||r0||, see rtol_ref) */
    HPLS_CONVERGED_ATOL,      /* ||r|| <= atol */
    HPLS_DIVERGED_MAXIT,      /* maxiter reached */
    HPLS_DIVERGED_BREAKDOWN,  /* a Krylov scalar vanished (rho, (r0,v), omega ...) */
    HPLS_DIVERGED_STAGNATION, /* no progress over many iterations */
    HPLS_DIVERGED_NAN,        /* NaN or Inf appeared in the iteration */
    HPLS_DIVERGED_GROWTH,     /* residual grew by the factor `divtol` */
    HPLS_DIVERGED_INDEFINITE, /* CG met (p, A p) <= 0 */
    HPLS_CONVERGED_STEP,      /* ||x_m - x_{m-1}|| <= xtol ||x_m|| (hisa, bhisa) */
    HPLS_STOPPED_USER,        /* the monitor returned nonzero */
    HPLS_DIVERGED_ACCURACY,   /* tol below what rounding allows: the residual stopped at
                                 about eps ||A|| ||x|| (the message gives the figures) */
    HPLS_CONVERGED_USER       /* the convergence test of hpls_solver_set_convergence_test */
} hpls_reason;

HPLS_API const char *hpls_reason_str(hpls_reason r);
/* 1 for the CONVERGED_* reasons. */
HPLS_API int hpls_reason_converged(hpls_reason r);

typedef struct hpls_info {
    hpls_reason reason;
    hpls_int iterations;
    double relres;       /* final true relative residual ||b - A x|| / ||b||, recomputed */
    double resnorm;      /* final true residual norm ||b - A x|| */
    double setup_s;      /* seconds in setup */
    double solve_s;      /* seconds in the last solve */
    int precond_norm;    /* 1: the iteration tested ||M^-1 r|| / ||M^-1 b|| (pc_side=left
                            norm=preconditioned), and the history holds that ratio;
                            relres above is still the true residual */
    int threads;         /* threads the solver ran on (its `threads` option; for 0, one
                            thread below 1000000 stored entries, else OpenMP's default
                            when it was set up) */
    double rcond;        /* the direct methods (thomas, cr, gspike, lapack): an estimate of
                            1 / cond_1(A) (hpls_tridiag_rcond: a diagonal dominance bound
                            or LAPACK's dgtcon), the same for every method, partition,
                            thread and rank count; 0 for the other methods */
    int ill_conditioned; /* 1: 0 < rcond < the machine epsilon.  x was still computed, with
                            a small backward error, but may have no correct digit (a
                            singular A is refused with HPLS_ERR_SINGULAR instead) */
    int unconfirmed;     /* 1: confirm=no took the stop of a convergence test of the
                            caller's without b - A x: relres and resnorm are those of
                            the residual the iteration tested, not recomputed */
} hpls_info;

/* Called once per iteration with the residual norm the test uses; return
 * nonzero to stop the solve (reason HPLS_STOPPED_USER, status HPLS_OK). */
typedef int (*hpls_monitor_fn)(void *ctx, hpls_int iteration, double resnorm, double relres);

HPLS_API hpls_status hpls_solver_create(hpls_solver **s);
HPLS_API void hpls_solver_destroy(hpls_solver *s);
/* One "key=value" option (same names as the command line flags).  Method,
 * preconditioner and choice names are case-insensitive ("solver=BiCGSTAB"), and
 * precond=ilu is ilu0 (Lis's name); hpls_solver_get_option returns the names in
 * lower case as the help lists them.  The options only the solve reads (tol,
 * atol, rtol_ref, maxiter, miniter, confirm, divtol, stag_window, initial_guess) may be set
 * between solves and keep the setup (not with solver=auto); any other option
 * takes effect at the next hpls_solver_setup, which solve then requires. */
HPLS_API hpls_status hpls_solver_set_option(hpls_solver *s, const char *keyvalue);
/* Several options separated by spaces or commas: "solver=cg precond=jacobi tol=1e-10". */
HPLS_API hpls_status hpls_solver_set_options(hpls_solver *s, const char *options);
HPLS_API hpls_status hpls_solver_set_monitor(hpls_solver *s, hpls_monitor_fn fn, void *ctx);

/* A convergence test of the caller's in place of tol and atol (PETSc's
 * KSPSetConvergenceTest), for tests on the residual vector such as OpenFOAM's
 * sum|b - A x| / normFactor: called with the residual r the method holds (its
 * recursive one after each iteration, b - A x at iteration 0 and when hpls
 * confirms a "converged" on the true residual, as it does tol's; confirm=no
 * takes the test's "converged" as it is, as PETSc's KSP does), n values in
 * host memory (under MPI this rank's rows: the test reduces over the ranks
 * itself and answers alike on all), and ||r||_2.  Return 1 for converged
 * (HPLS_CONVERGED_USER), 0 to go on; it may be called more than once per
 * iteration.  miniter, maxiter, NaN, growth and stagnation still apply; under
 * miniter the test is still shown iteration 0 (a reference taken from b - A x0,
 * such as OpenFOAM's normFactor, needs it), its answer then ignored.  For
 * the methods that hold r: cg and bicgstab (bicgstab also tests s = r - alpha
 * A M^-1 p at its half step, as OpenFOAM's PBiCGStab does), on the host
 * backends (cpu, ref, mpi), without reorder or scale; setup refuses the others
 * (and this call on a solver set up for another, keeping its old test).
 * fn NULL: tol and atol again.  Takes effect at the next solve. */
typedef int (*hpls_converged_fn)(void *ctx, hpls_int iteration, hpls_int n, const hpls_real *r,
                                 double rnorm);
HPLS_API hpls_status hpls_solver_set_convergence_test(hpls_solver *s, hpls_converged_fn fn,
                                                      void *ctx);
/* Builds the method and preconditioner for A (A must outlive the solver's use). */
HPLS_API hpls_status hpls_solver_setup(hpls_solver *s, const hpls_csr *A);
/* Solves A x = b; x holds the initial guess on entry (use_x0=1) or is zeroed first. */
HPLS_API hpls_status hpls_solver_solve(hpls_solver *s, const hpls_vec *b, hpls_vec *x);
/* Solves A X = B for k right-hand sides: B and X column-major n x k (column j
 * at j*n), X the initial guesses (initial_guess=given) or zeroed; infos (k of
 * them, may be NULL) the outcome of each column, with the true residual.
 * Native, A read once for up to 8 columns per product: the tridiagonal direct
 * methods (one pass of the factors over all columns) and jacobi; every other
 * method solves the columns one after another (history and monitor then
 * follow each column; the native ones keep neither). */
HPLS_API hpls_status hpls_solver_solve_many_sized(hpls_solver *s, hpls_int k, const hpls_real *B,
                                                  hpls_real *X, hpls_info *infos,
                                                  size_t info_size);
#define hpls_solver_solve_many(s, k, B, X, infos)                                              \
    hpls_solver_solve_many_sized((s), (k), (B), (X), (infos), sizeof(hpls_info))
/* info_size: sizeof(hpls_info) as the caller knows it (the macro passes it). */
HPLS_API hpls_status hpls_solver_get_info_sized(const hpls_solver *s, hpls_info *info,
                                                size_t info_size);
#define hpls_solver_get_info(s, info) hpls_solver_get_info_sized((s), (info), sizeof(hpls_info))
/* Setup for a dense matrix (methods pjg, jacobi, and the Krylov methods that do
 * not need A^T, unpreconditioned). */
HPLS_API hpls_status hpls_solver_setup_dense(hpls_solver *s, const hpls_dense *A);
/* pjg: an ordered list of nblocks blocks of unknowns (the PJG paper's
 * "decomposition of the identity"): block k is idx[ptr[k] .. ptr[k+1]-1], 0-based;
 * every unknown in exactly one block (checked at setup).  nblocks = 0: psize. */
HPLS_API hpls_status hpls_solver_set_partition(hpls_solver *s, hpls_int nblocks, const hpls_int *ptr,
                                      const hpls_int *idx);
/* A's values changed, its pattern not (the time-stepping case): redoes only
 * the numeric part of the setup: DILU's E, ILU(0)'s factors, 1/A_ii, A^T's
 * values, hisa's T factorization; kept: the backend, work vectors, level sets,
 * orderings (rcm), the trisolve choice.  A preconditioner object given with
 * hpls_solver_set_precond is the user's to update (hpls_precond_update_values).
 * format=qtree and the preconditioners without a numeric part (ssor, tridiag,
 * pjg) are set up again whole.  A must have the pattern of the setup's matrix. */
HPLS_API hpls_status hpls_solver_update_values(hpls_solver *s, const hpls_csr *A);
/* Residual history of the last solve: count entries of (iteration, relres, seconds). */
HPLS_API hpls_status hpls_solver_history(const hpls_solver *s, hpls_int *count, const hpls_int **its,
                                const double **relres, const double **seconds);
/* Message of the last failure of this solver ("" if none). */
HPLS_API const char *hpls_solver_message(const hpls_solver *s);
/* Name of the option value actually used (e.g. "solver" -> "bicgstab"). */
HPLS_API const char *hpls_solver_get_option(const hpls_solver *s, const char *key);

/* Triangular-solve strategy of the dilu / dic / ilu0 preconditioner in use
 * ("levels", or "auto: syncfree" once trisolve=auto has chosen); NULL otherwise. */
HPLS_API const char *hpls_solver_trisolve(const hpls_solver *s);
/* The software prefetch of the host CSR products ("rows+x-l2"; prefetch=auto:
 * "auto: measuring (5 products timed)", then "auto: rows-l2" once chosen, a
 * choice made once per setup); NULL before setup or on a backend other than cpu. */
HPLS_API const char *hpls_solver_prefetch(hpls_solver *s);
/* How the solver stores A after setup when format=qtree, solver=qtbicgstab or
 * reorder=rcm asked for it ("qtree d=2048 (auto, Eq. 17), ... 12345 leaves",
 * "csr (auto: x fits in L2 ...)", "rcm: bandwidth 900 -> 31"); NULL otherwise. */
HPLS_API const char *hpls_solver_format(const hpls_solver *s);
/* solver=auto: what the advice chose for the matrix of the last setup and why
 * (the evidence hpls info prints), and, after a solve that did not converge,
 * the fallback to the next advice; NULL when the solver is not solver=auto
 * or not set up.  hpls_solver_get_option(s, "solver") then names the method
 * in use; setting an option or setting up again chooses afresh. */
HPLS_API const char *hpls_solver_auto(const hpls_solver *s);

/* Help of every option with its default, and of every method and preconditioner. */
HPLS_API const char *hpls_solver_help(void);

/* ---- user operators and preconditioners (callbacks) --------------------
 * y = A x (or M^-1 x ...) on n host values; return 0 on success, anything else
 * stops the solve: hpls_solver_solve returns HPLS_ERR_CALLBACK and the
 * message says which callback returned what. */
typedef int (*hpls_apply_fn)(void *ctx, hpls_int n, const hpls_real *x, hpls_real *y);

/* Setup for a matrix-free operator (PETSc's MatShell, scipy's LinearOperator):
 * y = A x by apply, y = A^T x by apply_t (may be NULL: then bicg and qmr are
 * refused).  Krylov methods only; a preconditioner must then be a
 * preconditioner object (hpls_solver_set_precond), since there is no matrix to
 * build one from.  ctx must outlive the solver's use. */
HPLS_API hpls_status hpls_solver_setup_shell(hpls_solver *s, hpls_int n, hpls_apply_fn apply,
                                             hpls_apply_fn apply_t, void *ctx);

/* ---- preconditioner objects ---------------------------------------------
 * A preconditioner on its own, for a solver of the user's or to share one
 * factorization between solvers: the same names and options as a solver's
 * ("precond=dilu trisolve=auto threads=2"; hpls_solver_help lists them).
 * Lifecycle: create -> set_options -> setup(A) -> apply (as often as needed)
 * -> destroy.  Applies of one object are serialised (a mutex): solvers that
 * share it may run in different threads. */
typedef struct hpls_precond hpls_precond;

HPLS_API hpls_status hpls_precond_create(hpls_precond **P);
/* A preconditioner given by the user's functions (PETSc's PCShell): z = M^-1 r
 * by apply, z = M^-T r by apply_t (may be NULL) on n values. */
HPLS_API hpls_status hpls_precond_create_shell(hpls_int n, hpls_apply_fn apply,
                                               hpls_apply_fn apply_t, void *ctx,
                                               hpls_precond **P);
/* Drops the caller's reference: the object lives on while a solver uses it. */
HPLS_API void hpls_precond_destroy(hpls_precond *P); /* accepts NULL */
/* Options separated by spaces or commas: "precond=ilu0 shift=0.01". */
HPLS_API hpls_status hpls_precond_set_options(hpls_precond *P, const char *options);
HPLS_API const char *hpls_precond_get_option(const hpls_precond *P, const char *key);
/* Setup flags: also build M^-T (hpls_precond_apply_transpose, bicg, qmr). */
#define HPLS_PRECOND_TRANSPOSE 1u
/* Builds M for the square CSR matrix A (A must outlive the use of P). */
HPLS_API hpls_status hpls_precond_setup(hpls_precond *P, const hpls_csr *A, unsigned flags);
/* Redoes only the numeric part of the setup for A with the values changed and
 * the same pattern (level sets, orderings, the trisolve choice kept). */
HPLS_API hpls_status hpls_precond_update_values(hpls_precond *P, const hpls_csr *A);
/* z = M^-1 r and z = M^-T r (z must not be r). */
HPLS_API hpls_status hpls_precond_apply(hpls_precond *P, const hpls_vec *r, hpls_vec *z);
HPLS_API hpls_status hpls_precond_apply_transpose(hpls_precond *P, const hpls_vec *r,
                                                  hpls_vec *z);
/* Seconds of the last setup and the triangular-solve strategy of dilu / dic /
 * ilu0 ("levels", "auto: syncfree" ...; NULL for the others); either may be NULL. */
HPLS_API hpls_status hpls_precond_get_info(const hpls_precond *P, double *setup_seconds,
                                           const char **strategy);
/* Message of the last failure of this object ("" if none). */
HPLS_API const char *hpls_precond_message(const hpls_precond *P);
/* The solver uses P (set up, for the same n) instead of its `precond` option;
 * it holds a reference until destroyed or given another (NULL: its own again).
 * Takes effect at the next hpls_solver_setup. */
HPLS_API hpls_status hpls_solver_set_precond(hpls_solver *s, hpls_precond *P);

/* ---- tridiagonal direct solvers (src/direct) ----------------------------
 * One API for a family: factor once, solve with the factors as often as needed
 * (every method), one-shot solves, many right-hand sides, batches of systems.
 * thomas: LU without pivoting (a zero or tiny pivot is an HPLS_ERR_SINGULAR
 * naming the row); cr: cyclic reduction (HISA paper Sec. 5.1), no pivoting;
 * gspike: g-Spike (Venetis et al. 2015), Givens-QR of p partitions in parallel
 * with the repair of singular partitions, and iterative refinement when the
 * spikes grow or a partition was repaired (T is then kept: 11n values, else
 * 8n), on rows scaled by powers of two (so that row scaling changes nothing); lapack: LAPACK dgttrf/dgttrs (partial pivoting), the reference. */
typedef enum hpls_tridiag_method {
    HPLS_TRIDIAG_THOMAS,
    HPLS_TRIDIAG_CR,
    HPLS_TRIDIAG_GSPIKE,
    HPLS_TRIDIAG_LAPACK
} hpls_tridiag_method;

typedef struct hpls_tridiag_opts {
    hpls_int partitions; /* gspike: p of the top level, 0: from n and the threads */
    double delta;        /* gspike: partition j is singular when |(R_j)_mm| < delta*||A_j||_inf,
                            A_j's rows equilibrated (default 1e-6); 0 turns the repair off */
    int threads;         /* threads of the factorization and of its solves (0: OpenMP's
                            default when factored) */
} hpls_tridiag_opts;
#define HPLS_TRIDIAG_DELTA_DEFAULT 1e-6

typedef struct hpls_tridiag_factors hpls_tridiag_factors;

/* "thomas", "cr", "gspike", "lapack" <-> method. */
HPLS_API hpls_status hpls_tridiag_method_from_name(const char *name, hpls_tridiag_method *m);
HPLS_API const char *hpls_tridiag_method_name(hpls_tridiag_method m);
/* Factors T (opts may be NULL: defaults).  T may be freed afterwards.
 * opts_size: sizeof(hpls_tridiag_opts) as the caller knows it (the macro). */
HPLS_API hpls_status hpls_tridiag_factor_sized(const hpls_tridiag *T, hpls_tridiag_method m,
                                               const hpls_tridiag_opts *opts, size_t opts_size,
                                               hpls_tridiag_factors **F);
#define hpls_tridiag_factor(T, m, opts, F)                                                     \
    hpls_tridiag_factor_sized((T), (m), (opts), sizeof(hpls_tridiag_opts), (F))
/* x = T^{-1} b for nrhs right-hand sides stored one after another (n values
 * each); x may be b.  Thread-safe for one F. */
HPLS_API hpls_status hpls_tridiag_solve_factored(const hpls_tridiag_factors *F, hpls_int nrhs,
                                        const hpls_real *b, hpls_real *x);
HPLS_API void hpls_tridiag_factors_destroy(hpls_tridiag_factors *F); /* accepts NULL */
/* Partitions gspike found singular and repaired (0 for the other methods). */
HPLS_API hpls_int hpls_tridiag_factors_singular(const hpls_tridiag_factors *F);
/* The direct methods' singularity and condition test (docs/bad_inputs.md), which
 * the solver framework (solver=thomas|cr|gspike|lapack) runs before it factors.
 * Where T is diagonally dominant by columns with a margin, *rcond is Varah's
 * lower bound min_j (|d_j| - |du_{j-1}| - |dl_{j+1}|) / ||T||_1, if it is at
 * least sqrt(eps): one parallel pass, no LU (exact for a constant tridiag(l, d,
 * u); below dgtcon's estimate where one column's margin is far thinner).  Else
 * HPLS_ERR_SINGULAR when LU with partial pivoting (dgttrf) meets an exactly zero
 * pivot, whatever the method and partition count, or *rcond is LAPACK dgtcon's
 * estimate of 1/cond_1(T), below DBL_EPSILON for an ill-conditioned T, which the
 * methods still solve with a small backward error (0 when n exceeds LAPACK's int,
 * 1 for n = 0).  hpls_tridiag_factor, hpls_tridiag_solve and the batched solves
 * do not run it, as LAPACK's dgtsv does not run dgtcon: on a T that is not
 * dominant it costs an LU of T and dgtcon's solves, several dgtsv. */
HPLS_API hpls_status hpls_tridiag_rcond(const hpls_tridiag *T, double *rcond);
/* Factor and solve in one call. */
HPLS_API hpls_status hpls_tridiag_solve_sized(const hpls_tridiag *T, hpls_tridiag_method m,
                                              const hpls_tridiag_opts *opts, size_t opts_size,
                                              hpls_int nrhs, const hpls_real *b, hpls_real *x);
#define hpls_tridiag_solve(T, m, opts, nrhs, b, x)                                             \
    hpls_tridiag_solve_sized((T), (m), (opts), sizeof(hpls_tridiag_opts), (nrhs), (b), (x))
/* y = T x */
HPLS_API hpls_status hpls_tridiag_mv(const hpls_tridiag *T, const hpls_real *x, hpls_real *y);
/* The tridiagonal part of a square CSR matrix; an entry outside the band is an
 * HPLS_ERR_SIZE naming the first one, "entry (5, 9) lies outside the
 * tridiagonal band" (1-based, row by row). */
HPLS_API hpls_status hpls_tridiag_from_csr(const hpls_csr *A, hpls_tridiag **T);
/* Matrix id (1..21, not 21) of the g-Spike paper's Table A.1 of order n, its
 * random entries from seed; xtrue (optional) seeded standard normal, b
 * (optional) = T xtrue.  ids 8-11 (randsvd) are dense constructions, n <= 2048. */
HPLS_API hpls_status hpls_tridiag_gallery(int id, hpls_int n, uint64_t seed, hpls_tridiag **T,
                                 hpls_vec **xtrue, hpls_vec **b);

/* Batches of independent systems of order n, solved in place (b becomes x),
 * in parallel across systems.  STRIDED: system k's values at k*stride + i
 * (cuSPARSE gtsv2StridedBatch); INTERLEAVED: at i*batch + k.  dl[first] and
 * du[last] of each system are ignored.  Methods: thomas, lapack (strided only).
 * thomas solves a system whose elimination grows, or whose sweeps amplify
 * rounding errors, as hpls_tridiag_solve does (refined, or refused as needing
 * pivoting).  A failure names the first system that failed: HPLS_ERR_SINGULAR
 * (a zero or tiny pivot, a system that needs pivoting: lapack solves it, or
 * an x beyond the range of double), HPLS_ERR_VALUE (b holds NaN or Inf); the
 * others are solved. */
typedef enum hpls_batch_layout { HPLS_BATCH_STRIDED, HPLS_BATCH_INTERLEAVED } hpls_batch_layout;
HPLS_API hpls_status hpls_tridiag_solve_batch(hpls_tridiag_method m, hpls_batch_layout layout, hpls_int n,
                                     hpls_int batch, hpls_int stride, const hpls_real *dl,
                                     const hpls_real *d, const hpls_real *du, hpls_real *b);

#ifdef __cplusplus
}
#endif
#endif /* HPLS_H */
