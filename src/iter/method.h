/* SPDX-License-Identifier: BSD-3-Clause */
/* method.h: what a method sees: its context (hpls_mctx), the operator and
 * preconditioner it applies (the preconditioner's hpls_pc, and what methods
 * share with preconditioners, are precond/pc.h's), the convergence test it
 * calls, and the methods themselves (src/iter/<name>.c).
 *
 * A method never loops over A or over a vector itself: it calls the operator
 * (hpls_m_op_apply), the preconditioner (hpls_m_pc_apply) and the backend's
 * vector operations (hpls_v_*, backend/backend.h) on opaque vectors, and hands
 * every residual norm to hpls_conv_check.  That keeps one body per method for
 * every backend.  It does not see the solver: the driver (src/solver/) fills
 * the context before the method's setup and before each solve, and reads back
 * what the method leaves there (its data and their destroy, the reason, the
 * iterations, a direct method's rcond, the history). */
#ifndef HPLS_METHOD_H
#define HPLS_METHOD_H

#include "precond/pc.h"

/* The operator y = A x (and y = A^T x for methods flagged HPLS_M_TRANSPOSE, from
 * a transpose built once at setup) on a backend (src/operator.c).  A stays
 * reachable for the true residual.  Apply functions return a failure of the
 * backend (a device or MPI error) as their status. */
struct hpls_qtree;

/* A matrix-free operator: the user's functions (hpls_solver_setup_shell). */
typedef struct hpls_shell {
    hpls_apply_fn apply, apply_t; /* apply_t may be NULL */
    void *ctx;
} hpls_shell;

typedef struct hpls_op {
    hpls_int n;
    hpls_backend *be;
    const hpls_csr *A;           /* the matrix in CSR, or NULL */
    const hpls_dense *Ad;        /* or the dense matrix (methods flagged HPLS_M_DENSE) */
    const hpls_csr *At;          /* A^T, or NULL */
    const struct hpls_qtree *qt; /* A as a quad-tree (format=qtree), or NULL */
    const hpls_shell *shell;     /* or the user's functions (then A and Ad are NULL) */
    hpls_dmat *dA, *dAt;         /* A and A^T on a device backend (hpls_op_upload), or NULL */
    hpls_ddense *dAd;            /* or the dense A there */
    struct hpls_dcsr *D;         /* or a matrix distributed over MPI ranks (src/mpi); A is then
                                    this rank's diagonal block */
    hpls_status (*apply)(const struct hpls_op *op, const hpls_dvec *x, hpls_dvec *y);
    hpls_status (*apply_t)(const struct hpls_op *op, const hpls_dvec *x, hpls_dvec *y);
    /* r = b - A x, *rnorm = ||r||_2 (one pass) */
    hpls_status (*residual)(const struct hpls_op *op, const hpls_dvec *b, const hpls_dvec *x,
                            hpls_dvec *r, double *rnorm);
    /* optional: || |A| |x| || (the attainable accuracy); NULL: computed from A */
    double (*abs_norm)(const struct hpls_op *op, const hpls_real *x);
    /* a distributed A only: y += sign (A - Ad) v, the other ranks' entries of v
     * through the halo (v, y: this rank's host arrays); returns sum y_i^2 here */
    double (*coupling)(const struct hpls_op *op, const hpls_real *v, double sign, hpls_real *y);
    /* a distributed A only: HISA's and PJG's kernels over the ranks (below), else NULL */
    const struct hpls_distops *dk;
} hpls_op;

/* Residual-norm reference of the relative test. */
typedef enum { HPLS_REF_B, HPLS_REF_R0 } hpls_ref;

/* The options a method reads: the driver copies them from the solver's
 * (hpls_options, solver.h) before the method's setup and before each solve,
 * so that those the solve alone reads (tol ... maxiter) may change between
 * solves. */
typedef struct hpls_mopts {
    double tol, atol, divtol; /* the stop test (conv.c) */
    int ref;                  /* hpls_ref: what tol is relative to */
    hpls_int maxiter, miniter, stag_window;
    int confirm;           /* 0: a user test's stop is not confirmed on b - A x */
    double omega;          /* the relaxation weight (jacobi, sor, ssor) */
    hpls_int restart;      /* gmres, fgmres: the cycle's length */
    int left;              /* pc_side=left */
    int precnorm;          /* norm=preconditioned: left gmres tests ||M^-1 r|| / ||M^-1 b|| */
    hpls_int ell;          /* bicgstabl: BiCG steps per minimal-residual step */
    int tridiag;           /* hpls_tridiag_method of hisa and bhisa */
    int tridiag_set;       /* 1 when the user gave tridiag (a device chooses its own if not) */
    hpls_int block;        /* bhisa: block rows (0: hpls_bhisa_block's) */
    hpls_int gspike_p;     /* g-Spike partitions (0: automatic) */
    double gspike_delta;   /* g-Spike singularity threshold, relative to the block norm */
    double xtol;           /* hisa's step test (0: off) */
    int trisolve;          /* gs, sor, ssor on a device: the sweeps' schedule */
    hpls_int psize;        /* pjg block size (0: hpls_pjg_default_psize) */
    hpls_int part_nblocks; /* pjg: the user's partition (hpls_solver_set_partition) */
    const hpls_int *part_ptr, *part_idx; /* or NULL */
} hpls_mopts;

/* Convergence state of one solve. */
typedef struct hpls_conv {
    double bnorm;       /* ||b|| */
    double test_bnorm;  /* the norm the relative test divides by: ||b||, or ||M^-1 b|| */
    double r0norm;      /* ||b - A x0|| */
    double target;      /* max(tol * ref, atol) */
    double band;        /* stagnation: the residual's band is band / (1 + HPLS_STAG_BAND) .. */
    hpls_int band_it;   /* band * (1 + HPLS_STAG_BAND), entered at iteration band_it */
    double t0;          /* solve start, for the history */
    int confirms;       /* true-residual confirmations that failed */
    const hpls_dvec *r; /* HPLS_M_CONVTEST methods: the vector whose norm is tested */
    double tested;      /* the norm of the residual tested last */
    /* the x a method stopped with after hpls_conv_confirm recomputed b - A x
     * for it (NULL: none), and that residual's norm: the solve's final report
     * takes it instead of computing the same again */
    const hpls_dvec *final_x;
    double final_rnorm;
    int unconfirmed; /* 1: confirm=no took a user test's stop, final_rnorm the tested norm */
} hpls_conv;

/* What a solve tells the driver, which copies it into the solver's info. */
typedef struct hpls_minfo {
    hpls_reason reason;
    hpls_int iterations;
    int precond_norm; /* the test used ||M^-1 r|| (hpls_conv_use_precond_norm) */
} hpls_minfo;

/* The residual history: iteration, relative residual, seconds since the solve
 * started; kept until the next solve (hpls_solver_history). */
typedef struct hpls_hist {
    hpls_int len, cap;
    hpls_int *it;
    double *res, *t;
} hpls_hist;

/* The method context: the solver (src/solver/) holds one and fills what is
 * marked "in" before a method's setup and before each solve; "out" is the
 * method's, which the driver reads after setup and after a solve. */
typedef struct hpls_mctx {
    /* in: what the method runs on */
    const char *name;        /* the method's name (messages) */
    hpls_backend *be;        /* the vectors' backend */
    const hpls_op *op;       /* A */
    hpls_int n;              /* op->n: the (local) length of every vector */
    const hpls_pc *pc;       /* M (pc->apply NULL: the identity) */
    const char *pc_name;     /* M's name in a failure's message */
    const hpls_csr *A;       /* A on the host (kernels that are methods), or NULL */
    const hpls_dense *Ad;    /* or the dense A */
    const hpls_int *diagpos; /* position of A_ii in row i (HPLS_M_DIAG methods on CSR) */
    hpls_dvec *invdiag;      /* 1 / A_ii (HPLS_M_DIAG methods) */
    hpls_dvec **work;        /* the method's work vectors (hpls_method.nwork) */
    hpls_mopts opt;          /* the options it reads */
    /* in: the user's hooks (solve) */
    hpls_monitor_fn monitor;
    void *monitor_ctx;
    hpls_converged_fn conv_fn; /* the user's convergence test, or NULL: tol and atol */
    void *conv_ctx;
    char *msg; /* where a message is told (the owner's buffer of msglen bytes) */
    size_t msglen;
    /* out: setup */
    void *mdata;                        /* the method's own data (hpls_method.setup) */
    void (*mdata_destroy)(void *mdata); /* its destroy (the method's, unless setup sets one) */
    double rcond; /* a direct method's estimate of 1/cond_1(A), 0 for the others */
    /* out: a solve */
    hpls_conv conv;   /* the convergence state (the driver sets t0, bnorm, test_bnorm) */
    hpls_minfo info;  /* reason, iterations */
    hpls_hist hist;   /* the residual history (the driver empties it before a solve) */
    int monitor_stop; /* the monitor asked to stop */
} hpls_mctx;

/* The methods that are kernels themselves, on a matrix distributed over MPI
 * ranks (src/mpi/dist.h; op->dk): each row keeps the one-process arithmetic,
 * in the same order, so the iterates are those of one process with the same
 * blocks.  Host arrays are the rank's parts. */
typedef struct hpls_distops {
    /* y = (B + A - Ad) x: B a matrix on the rank's own rows and columns (HISA's
     * S there), the other ranks' x through the halo, each row summed in global
     * column order as one process sums it; a failure is recorded in op->be */
    void (*apply_part)(const hpls_op *op, const hpls_csr *B, const hpls_real *x, hpls_real *y);
    /* PJG over the ranks: block k is every rank's k-th chunk of psize rows;
     * setup puts the blocks and the exchange plan in mc->mdata (and its
     * destroy in mc->mdata_destroy); a sweep is kernels/cpu/pjg_sweep.c's
     * on the rank's vectors, each block's new values sent to the ranks
     * holding them before the next block (fresh: the first sweep of a solve,
     * which fetches x's ghosts) */
    hpls_status (*pjg_setup)(hpls_mctx *mc);
    void (*pjg_sweep)(hpls_mctx *mc, int fresh, const hpls_dvec *dinv, const hpls_dvec *b,
                      hpls_dvec *x, hpls_dvec *xold, hpls_dvec *r);
    /* the tridiagonal direct methods' setup and solve (iter/direct.c) with T
     * cut at the ranks; NULL on one rank, where T is whole */
    hpls_status (*tridiag_setup)(hpls_mctx *mc);
    hpls_status (*tridiag_solve)(hpls_mctx *mc, const hpls_dvec *b, hpls_dvec *x);
} hpls_distops;

/* ---- the operator and the preconditioner (method.c) --------------------- */
/* z = M^{-1} r; returns z, or r itself when the preconditioner is the identity
 * (so unpreconditioned methods copy nothing).  A failure of the preconditioner
 * is recorded in the backend (sticky): the next convergence test stops. */
const hpls_dvec *hpls_m_pc_apply(const hpls_mctx *mc, const hpls_dvec *r, hpls_dvec *z);
/* z = M^{-T} r, or r itself for the identity. */
const hpls_dvec *hpls_m_pc_apply_t(const hpls_mctx *mc, const hpls_dvec *r, hpls_dvec *z);
/* y = A x and y = A^T x; a failure is recorded in the backend like the above. */
void hpls_m_op_apply(const hpls_mctx *mc, const hpls_dvec *x, hpls_dvec *y);
void hpls_m_op_apply_t(const hpls_mctx *mc, const hpls_dvec *x, hpls_dvec *y);
/* r = b - A x, returns ||r||_2: the true residual, whatever A's storage
 * (NaN after a failure, which is recorded). */
double hpls_m_op_residual(const hpls_mctx *mc, const hpls_dvec *b, const hpls_dvec *x,
                          hpls_dvec *r);
/* Records a message in mc->msg (and thread-locally) and returns st. */
hpls_status hpls_m_fail(hpls_mctx *mc, hpls_status st, const char *fmt, ...) HPLS_PRINTF(3, 4);

/* ---- the convergence test (conv.c) --------------------------------------- */
/* Stagnation (conv.c): the residual stayed within a factor 1 + HPLS_STAG_BAND of
 * one value for stag_window iterations (bench/results/stagnation.md). */
#define HPLS_STAG_BAND 1e-4
/* The attainable accuracy: a residual within HPLS_ACC_FACTOR eps (|| |A| |x| ||
 * + ||b||) is at the rounding level of computing b - A x.  At tol 1e-20, solves
 * that had reached their floor ended 5e-5 to 1e3 times that level; those stuck
 * far above it, 3e5 times and more (5 methods x the test matrices). */
#define HPLS_ACC_FACTOR 1000.0

/* After the true residual resnorm of the final x (host memory, the solved
 * system's ordering): a solve that stopped unconverged (reason stagnation,
 * maxiter) with that residual within HPLS_ACC_FACTOR of eps (|| |A| |x| || +
 * ||b||), the rounding error of b - A x, gets the reason ACCURACY (returned)
 * and a message with the figures: no method could be sure to do better. */
hpls_reason hpls_conv_finish(hpls_mctx *mc, const hpls_real *x, hpls_reason reason, double resnorm);
/* Starts the convergence test of a solve: r0norm = ||b - A x0||.  Returns the
 * reason to stop at once (x0 already converged) or HPLS_NOT_RUN. */
hpls_reason hpls_conv_start(hpls_mctx *mc, double r0norm);
/* For methods whose iteration residual is M^-1 r (left preconditioning): the
 * tests use ||M^-1 r|| relative to pbnorm = ||M^-1 b||, and info says so.
 * Call before hpls_conv_start. */
void hpls_conv_use_precond_norm(hpls_mctx *mc, double pbnorm);
/* Whether rnorm = ||r|| after iteration it meets the stop test: the user's
 * (hpls_solver_set_convergence_test, shown r) or rnorm <= target; never
 * before miniter iterations (the user's test is still shown iteration 0). */
int hpls_conv_met(hpls_mctx *mc, hpls_int it, const hpls_dvec *r, double rnorm);
/* Tests the residual norm after iteration it; records history, calls the
 * monitor.  Returns HPLS_NOT_RUN to go on, else the reason to stop (a failure
 * recorded in the backend stops too: hpls_solver_solve then returns it). */
hpls_reason hpls_conv_check(hpls_mctx *mc, hpls_int it, double rnorm);
/* For methods with a recursive residual: when hpls_conv_check said converged,
 * recompute r = b - A x.  Returns the reason if the true residual passes too
 * (or after repeated failures, STAGNATION); HPLS_NOT_RUN means "r now holds the
 * true residual, restart the recurrence from it".  Under confirm=no a user
 * test's stop is returned as it is, b - A x not computed. */
hpls_reason hpls_conv_confirm(hpls_mctx *mc, const hpls_dvec *b, const hpls_dvec *x, hpls_dvec *r,
                              hpls_int it);
/* The whole test of a method with a recursive residual r of norm rnorm:
 * hpls_conv_check, and the confirmation when it says converged.  Returns 1 to
 * stop (the reason is in info); 0 to go on, with *restart = 1 when r was
 * replaced by the true residual and the recurrence must restart from it. */
int hpls_conv_step(hpls_mctx *mc, hpls_int it, double rnorm, const hpls_dvec *b, const hpls_dvec *x,
                   hpls_dvec *r, int *restart);

/* The test of one column of a block solve (solve_block): the rules of
 * hpls_conv_check (tolerances, NaN, growth, stagnation, maxiter) on the
 * column's own norms, without history or monitor. */
typedef struct hpls_colconv {
    double bnorm, r0norm, target, band;
    hpls_int band_it;
} hpls_colconv;
hpls_reason hpls_conv_column_start(const hpls_mctx *mc, hpls_colconv *c, double bnorm,
                                   double r0norm);
hpls_reason hpls_conv_column(const hpls_mctx *mc, hpls_colconv *c, hpls_int it, double rnorm);
/* The norms of k columns of n values (column j at j*n) into nrm[j]. */
void hpls_block_norms(const hpls_mctx *mc, hpls_int k, const hpls_real *V, double *nrm);
/* R = B - A X for k columns, rnorm[j] = ||R_j||: the backend's block kernel. */
void hpls_block_residual(const hpls_mctx *mc, hpls_int k, const hpls_real *B, const hpls_real *X,
                         hpls_real *R, double *rnorm);

/* ---- numerical stops: one place for every method ------------------------ */
/* Ends a solve on a vanished (or non-finite) Krylov scalar: reason BREAKDOWN (or
 * NAN), and the message "what = value at iteration it" (a NaN reads "nan").
 * Returns HPLS_OK, for `return hpls_breakdown(...)`. */
hpls_status hpls_breakdown(hpls_mctx *mc, double value, const char *what, hpls_int it);
/* A Krylov scalar that must not vanish (rho, (rhat, v) ...): returns 0 when it is
 * finite and nonzero; 1 when it vanished and the iteration should restart from
 * the current residual (the standard remedy), which it may do once; -1 when it
 * is NaN or Inf, or vanished again in an iteration already restarted (fresh),
 * after ending the solve by hpls_breakdown. */
int hpls_guard(hpls_mctx *mc, double value, const char *what, hpls_int it, int fresh);
/* Ends a solve on a quadratic form that proves A or M indefinite (value <= 0;
 * cg's (p, A p), minres's (r, M^-1 r)): reason INDEFINITE (NAN for a NaN), the
 * message "what = value at iteration it", it - 1 iterations done.  Returns HPLS_OK. */
hpls_status hpls_indefinite(hpls_mctx *mc, double value, const char *what, hpls_int it);

/* ---- the methods (src/iter/<name>.c): hpls_method's entries -------------- */
hpls_status hpls_solve_jacobi(hpls_mctx *mc, const hpls_dvec *b, hpls_dvec *x);
hpls_status hpls_solve_jacobi_block(hpls_mctx *mc, hpls_int k, const hpls_real *B, hpls_real *X,
                                    hpls_info *col);
hpls_status hpls_solve_gs(hpls_mctx *mc, const hpls_dvec *b, hpls_dvec *x);
hpls_status hpls_solve_sor(hpls_mctx *mc, const hpls_dvec *b, hpls_dvec *x);
/* One SOR sweep of A (sor.c; a sequential host kernel, or a device's sweep
 * scheduled by trisolve): x swept with weight omega, forward or backward; dx
 * = x_old - x_new on the host, x_old on a device.  Then the true residual of
 * the new x, (T + dscale D)(x_old - x_new) with T A's strictly upper (upper)
 * or lower part, into r, returning its norm. */
void hpls_sor_sweep(hpls_mctx *mc, double omega, int backward, const hpls_dvec *b, hpls_dvec *x,
                    hpls_dvec *dx);
double hpls_sor_residual(hpls_mctx *mc, int upper, double dscale, const hpls_dvec *x,
                         const hpls_dvec *dx, hpls_dvec *r);
/* gs, sor, ssor: on a device backend, A's sweeps there (mc->mdata); on a
 * host, nothing */
hpls_status hpls_setup_relax(hpls_mctx *mc);
void hpls_destroy_relax(void *mdata);
hpls_status hpls_solve_ssor(hpls_mctx *mc, const hpls_dvec *b, hpls_dvec *x);
hpls_status hpls_solve_cg(hpls_mctx *mc, const hpls_dvec *b, hpls_dvec *x);
hpls_status hpls_solve_bicgstab(hpls_mctx *mc, const hpls_dvec *b, hpls_dvec *x);
hpls_status hpls_solve_bicg(hpls_mctx *mc, const hpls_dvec *b, hpls_dvec *x);
hpls_status hpls_solve_cgs(hpls_mctx *mc, const hpls_dvec *b, hpls_dvec *x);
hpls_status hpls_solve_tfqmr(hpls_mctx *mc, const hpls_dvec *b, hpls_dvec *x);
hpls_status hpls_solve_qmr(hpls_mctx *mc, const hpls_dvec *b, hpls_dvec *x);
hpls_status hpls_solve_bicrstab(hpls_mctx *mc, const hpls_dvec *b, hpls_dvec *x);
hpls_status hpls_solve_bicgsafe(hpls_mctx *mc, const hpls_dvec *b, hpls_dvec *x);
hpls_status hpls_setup_bicgstabl(hpls_mctx *mc);
hpls_status hpls_solve_bicgstabl(hpls_mctx *mc, const hpls_dvec *b, hpls_dvec *x);
void hpls_destroy_bicgstabl(void *mdata);
hpls_status hpls_solve_gmres(hpls_mctx *mc, const hpls_dvec *b, hpls_dvec *x);
hpls_status hpls_solve_fgmres(hpls_mctx *mc, const hpls_dvec *b, hpls_dvec *x);
hpls_status hpls_setup_gmres(hpls_mctx *mc);
hpls_status hpls_setup_fgmres(hpls_mctx *mc);
/* max |(V^T V - I)_ij| over the first k vectors of the basis of the last
 * GMRES (FGMRES) cycle: its loss of orthogonality (tests and diagnostics). */
hpls_status hpls_gmres_loss(const hpls_mctx *mc, hpls_int k, double *loss);
void hpls_destroy_gmres(void *mdata);
hpls_status hpls_solve_minres(hpls_mctx *mc, const hpls_dvec *b, hpls_dvec *x);
hpls_status hpls_setup_pjg(hpls_mctx *mc);
hpls_status hpls_solve_pjg(hpls_mctx *mc, const hpls_dvec *b, hpls_dvec *x);
void hpls_destroy_pjg(void *mdata);
hpls_status hpls_setup_hisa(hpls_mctx *mc);
hpls_status hpls_setup_bhisa(hpls_mctx *mc);
hpls_status hpls_solve_hisa(hpls_mctx *mc, const hpls_dvec *b, hpls_dvec *x);
void hpls_destroy_hisa(void *mdata);
/* Tridiagonal direct methods (src/iter/direct.c): thomas, cr, gspike,
 * lapack; setup extracts and factors T, solve uses the factors. */
hpls_status hpls_setup_tridiag(hpls_mctx *mc);
hpls_status hpls_solve_tridiag(hpls_mctx *mc, const hpls_dvec *b, hpls_dvec *x);
hpls_status hpls_solve_tridiag_block(hpls_mctx *mc, hpls_int k, const hpls_real *B, hpls_real *X,
                                     hpls_info *col);
void hpls_destroy_tridiag(void *mdata);
/* Partitions gspike found singular in a direct method's data (mdata: factors
 * on the host or on a device). */
hpls_int hpls_tridiag_solver_singular(const void *mdata);

#endif /* HPLS_METHOD_H */
