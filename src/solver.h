/* SPDX-License-Identifier: BSD-3-Clause */
/* solver.h: what a method and a preconditioner see of the solver.
 *
 * A method never loops over A or over a vector itself: it calls the operator
 * (hpls_op_apply), the preconditioner (hpls_pc_apply) and the backend's vector
 * operations (hpls_v_*, backend/backend.h) on opaque vectors, and hands every
 * residual norm to hpls_conv_check.  That keeps one body per method for every
 * backend (cpu, ref; later device and MPI backends). */
#ifndef HPLS_SOLVER_H
#define HPLS_SOLVER_H

#include "backend/backend.h"

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

/* The operator of a CSR or a dense matrix on backend be (src/operator.c). */
hpls_op hpls_op_csr(hpls_backend *be, const hpls_csr *A);
hpls_op hpls_op_dense(hpls_backend *be, const hpls_dense *A);
hpls_op hpls_op_shell(hpls_backend *be, hpls_int n, const hpls_shell *sh);
/* Adds y = A^T x from At (the transpose of op->A) to a CSR operator. */
void hpls_op_set_transpose(hpls_op *op, const hpls_csr *At);
/* A (and A^T) copied to a device backend's memory, replacing an older copy
 * (setup and new values); release frees them.  A host backend: nothing. */
hpls_status hpls_op_upload(hpls_op *op);
void hpls_op_release(hpls_op *op);
/* Makes a CSR operator apply A (and A^T) through the quad-tree qt. */
void hpls_op_set_qtree(hpls_op *op, const struct hpls_qtree *qt);

/* A preconditioner z = M^{-1} r (and z = M^{-T} r) on backend be; apply == NULL
 * means the identity.  Built by its type's setup from the backend, the matrix
 * and its own options only: it does not see the solver. */
typedef struct hpls_pc {
    void *ctx;
    hpls_backend *be;
    hpls_status (*apply)(const struct hpls_pc *pc, const hpls_dvec *r, hpls_dvec *z);
    hpls_status (*apply_t)(const struct hpls_pc *pc, const hpls_dvec *r, hpls_dvec *z);
    void (*destroy)(void *ctx);
    /* optional: the numeric part of setup again for A (and At) with the values
     * changed and the same pattern; NULL: the whole setup is redone */
    hpls_status (*update)(struct hpls_pc *pc, const hpls_csr *A, const hpls_csr *At);
} hpls_pc;

/* Registry entries: adding a method is one file plus one line in registry.c. */
enum {
    HPLS_M_PRECOND = 1u,     /* takes a preconditioner */
    HPLS_M_OMEGA = 2u,       /* uses the relaxation weight omega */
    HPLS_M_DIAG = 4u,        /* needs a nonzero diagonal (checked in setup) */
    HPLS_M_RESTART = 8u,     /* restarted Krylov method (uses restart) */
    HPLS_M_TRANSPOSE = 16u,  /* applies A^T (and M^-T): A^T is built at setup */
    HPLS_M_LEFT = 32u,       /* allows left preconditioning (pc_side=left) */
    HPLS_M_DIRECT = 64u,     /* a direct solver: no iterations, tol only judges the result */
    HPLS_M_GSPIKE = 128u,    /* uses gspike_p and gspike_delta */
    HPLS_M_TRIDIAG = 256u,   /* solves with T by the `tridiag` method */
    HPLS_M_BLOCK = 512u,     /* cuts T into blocks of `block` rows */
    HPLS_M_XTOL = 1024u,     /* has the step test `xtol` */
    HPLS_M_TRISOLVE = 2048u, /* uses trisolve and shift (dilu, dic, ilu0) */
    HPLS_M_DENSE = 4096u,    /* runs on a dense matrix too (hpls_solver_setup_dense) */
    HPLS_M_PSIZE = 8192u,    /* uses psize (pjg) */
    HPLS_M_FORMAT = 16384u,  /* its operator may walk a quad-tree (format, qt_d) */
    HPLS_M_QTREE = 32768u,   /* format=qtree always (qtbicgstab) */
    HPLS_M_DILU = 65536u,    /* uses dilu_order (dilu, dic) */
    HPLS_M_ELL = 131072u,    /* uses ell (bicgstabl) */
    HPLS_M_DEVICE = 262144u, /* runs on a device backend (opencl): only vector ops and A x */
    HPLS_M_AUTO = 524288u,   /* solver=auto: hpls info's advice chooses at setup (advice.c) */
    HPLS_M_DIST = 1048576u,  /* runs on a matrix distributed over MPI ranks (src/mpi) */
    HPLS_M_RELAX = 2097152u, /* relaxation sweeps scheduled by trisolve on a device (gs, sor,
                                ssor, precond ssor) */
    HPLS_M_BLKDEV = 4194304u, /* its solve_block (solve_many) runs on a device too */
    HPLS_M_CONVTEST = 8388608u /* hands its residual vector to a user convergence test
                                  (hpls_conv.r, hpls_conv_met) */
};

typedef struct hpls_solver hpls_solver;
struct hpls_method;
struct hpls_pc_type;

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
     * setup puts the blocks and the exchange plan in s->mdata (and its
     * destroy in s->mdata_destroy); a sweep is hpls_k_pjg_sweep's, each
     * block's new values sent to the ranks holding them before the next
     * block (fresh: the first sweep of a solve, which fetches x's ghosts) */
    hpls_status (*pjg_setup)(hpls_solver *s);
    void (*pjg_sweep)(hpls_solver *s, int fresh, const hpls_real *dinv, const hpls_real *b,
                      hpls_real *x, hpls_real *xold, hpls_real *r);
    /* the tridiagonal direct methods' setup and solve (iter/direct.c) with T
     * cut at the ranks; NULL on one rank, where T is whole */
    hpls_status (*tridiag_setup)(hpls_solver *s);
    hpls_status (*tridiag_solve)(hpls_solver *s, const hpls_dvec *b, hpls_dvec *x);
} hpls_distops;

/* Residual-norm reference of the relative test. */
typedef enum { HPLS_REF_B, HPLS_REF_R0 } hpls_ref;

typedef struct hpls_options {
    const struct hpls_method *method;
    const struct hpls_pc_type *pc_type;
    double tol, atol, divtol, omega;
    int ref; /* hpls_ref */
    hpls_int maxiter, stag_window, restart;
    hpls_int miniter;      /* no convergence before this many iterations */
    hpls_int ell;          /* bicgstabl: BiCG steps per minimal-residual step */
    hpls_int gspike_p;     /* g-Spike partitions (0: automatic) */
    double gspike_delta;   /* g-Spike singularity threshold, relative to the block norm */
    int tridiag;           /* hpls_tridiag_method of hisa, bhisa and precond tridiag */
    hpls_int block;        /* bhisa / btridiag block rows (0: HPLS_BHISA_BLOCK) */
    double xtol;           /* hisa step test (0: off) */
    int trisolve;          /* dilu/dic/ilu0 strategy: serial, levels, syncfree, auto (that order) */
    double shift;          /* dilu/dic/ilu0: diagonal shift, A_ii + shift sgn(A_ii) max_j |A_ij| */
    int dilu_order;        /* dilu/dic: 0 rows (sum, then subtract), 1 faces (OpenFOAM's order) */
    hpls_int psize;        /* pjg block size (0: hpls_pjg_default_psize) */
    hpls_int sweeps;       /* precond pjg: sweeps per application */
    int left;              /* pc_side=left */
    int precnorm;          /* norm=preconditioned: left gmres tests ||M^-1 r|| / ||M^-1 b|| */
    int initial_guess;     /* 1: use x as given */
    hpls_int threads;      /* 0: OpenMP's default at setup */
    int backend;           /* index into HPLS_BACKEND_NAMES: 0 cpu, 1 ref */
    int prefetch;          /* HPLS_PF_* of the host CSR kernels; HPLS_PF_COUNT: auto */
    hpls_int reproducible; /* MPI: reduce the ranks' partials in rank order (OPT_INT) */
    int format;            /* 0 csr, 1 qtree (Krylov methods) */
    hpls_int qt_d;         /* quad-tree target division length (0: automatic, Eq. 17) */
    int reorder;           /* 0 none, 1 rcm (reverse Cuthill-McKee), 2 matching (every method) */
    int scale;             /* 0 none, 1 ruiz, 2 matching (the weighted matching's duals) */
    hpls_int part_nblocks; /* pjg: the user's partition (hpls_solver_set_partition) */
    const hpls_int *part_ptr, *part_idx; /* or NULL */
} hpls_options;

typedef struct hpls_method {
    const char *name;
    const char *help;
    unsigned flags;
    int nwork; /* work vectors of length n allocated at setup (at least 1) */
    /* optional: builds the method's own data (s->mdata) after the common setup */
    hpls_status (*setup)(hpls_solver *s);
    hpls_status (*solve)(hpls_solver *s, const hpls_dvec *b, hpls_dvec *x);
    /* optional: k right-hand sides at once (hpls_solver_solve_many) on the
     * host arrays B and X (column j at j*n; X holds the initial guesses), the
     * outcome of column j in col[j] */
    hpls_status (*solve_block)(hpls_solver *s, hpls_int k, const hpls_real *B, hpls_real *X,
                               hpls_info *col);
    void (*destroy)(void *mdata); /* frees s->mdata; required when setup is given */
} hpls_method;

typedef struct hpls_pc_type {
    const char *name;
    const char *help;
    unsigned flags; /* the option flags it uses (HPLS_M_OMEGA ...) */
    /* builds M for A on be with options o; At is A^T when the method applies
     * M^-T, else NULL */
    hpls_status (*setup)(hpls_backend *be, const hpls_csr *A, const hpls_csr *At,
                         const hpls_options *o, hpls_pc *pc);
} hpls_pc_type;

extern const hpls_method hpls_methods[];
extern const int hpls_nmethods;
extern const hpls_pc_type hpls_pc_types[];
extern const int hpls_npc_types;

/* Rows per block of bhisa and btridiag when `block` is 0: one block per thread
 * of the backend.  Every cut moves band couplings into S and, measured on the
 * gas family, costs iterations (n = 1e5: 9 with 2 blocks, 11 with 10, 17 with
 * 25, 23 with 1563 blocks of 64, the paper's GPU choice), while a CPU thread
 * needs only one block. */
hpls_int hpls_bhisa_block(hpls_int n, hpls_int block, int nthreads);

/* Convergence state of one solve. */
typedef struct hpls_conv {
    double bnorm;      /* ||b|| */
    double test_bnorm; /* the norm the relative test divides by: ||b||, or ||M^-1 b|| */
    double r0norm;     /* ||b - A x0|| */
    double target;     /* max(tol * ref, atol) */
    double band;       /* stagnation: the residual's band is band / (1 + HPLS_STAG_BAND) .. */
    hpls_int band_it;  /* band * (1 + HPLS_STAG_BAND), entered at iteration band_it */
    double t0;         /* solve start, for the history */
    int confirms;      /* true-residual confirmations that failed */
    const hpls_dvec *r; /* HPLS_M_CONVTEST methods: the vector whose norm is tested */
    /* the x a method stopped with after hpls_conv_confirm recomputed b - A x
     * for it (NULL: none), and that residual's norm: the solve's final report
     * takes it instead of computing the same again */
    const hpls_dvec *final_x;
    double final_rnorm;
} hpls_conv;

/* Stagnation (conv.c): the residual stayed within a factor 1 + HPLS_STAG_BAND of
 * one value for stag_window iterations (bench/results/stagnation.md). */
#define HPLS_STAG_BAND 1e-4
/* The attainable accuracy: a residual within HPLS_ACC_FACTOR eps (|| |A| |x| ||
 * + ||b||) is at the rounding level of computing b - A x.  At tol 1e-20, solves
 * that had reached their floor ended 5e-5 to 1e3 times that level; those stuck
 * far above it, 3e5 times and more (5 methods x the test matrices). */
#define HPLS_ACC_FACTOR 1000.0

/* How an owner's options were given (options.c): its typed options, the
 * strings they came as, which the user set, and where failures are told. */
enum { HPLS_MAX_OPTS = 64 }; /* options a solver has at most (one bit each in set_mask) */
typedef struct hpls_optset {
    hpls_options *opt;
    uint64_t set_mask;              /* bit per option: set by the user (not a default) */
    char values[HPLS_MAX_OPTS][32]; /* every option's value as given (defaults too) */
    char *msg;                      /* the owner's message buffer */
    size_t msglen;
} hpls_optset;

/* ---- preconditioner objects (precond/precond.c) ------------------------- */
/* The n of a set-up object, or -1 when it is not set up. */
hpls_int hpls_precond_size(const hpls_precond *P);
/* Whether P applies M^-T too. */
int hpls_precond_has_transpose(const hpls_precond *P);
/* A preconditioner of a solver on backend be that applies P (copying through
 * host memory when be's vectors are not P's kind); it holds no reference. */
hpls_pc hpls_precond_bridge(hpls_precond *P, hpls_backend *be);
/* Another reference to P (hpls_precond_destroy drops one). */
void hpls_precond_retain(hpls_precond *P);

struct hpls_solver {
    hpls_options opt;
    hpls_optset os;        /* how opt was given (options.h) */
    const hpls_csr *A;     /* CSR matrix of the setup, or NULL for a dense one */
    const hpls_csr *Auser; /* the user's matrix of the setup (A is Aperm under reorder, scale) */
    const hpls_dense *Ad;  /* dense matrix of hpls_solver_setup_dense, or NULL */
    hpls_backend *be;      /* what the solve runs on (built at setup) */
    hpls_op op;
    hpls_pc pc;
    hpls_precond *ext_pc; /* the user's preconditioner object (a reference), or NULL */
    hpls_shell shell;     /* the user's operator (hpls_solver_setup_shell) */
    hpls_csr *At;         /* A^T (HPLS_M_TRANSPOSE methods) */
    hpls_int *diagpos;    /* position of A_ii in row i (HPLS_M_DIAG methods on CSR) */
    hpls_dvec *invdiag;   /* 1 / A_ii (HPLS_M_DIAG methods) */
    hpls_dvec **work;
    int nwork;
    void *mdata;                        /* the method's own setup data (method->setup) */
    void (*mdata_destroy)(void *mdata); /* its destroy, kept: options may change later */
    int ready;
    double rcond; /* a direct method's estimate of 1/cond_1(A), 0 for the others (info.rcond) */
    hpls_conv conv;
    hpls_info info;
    hpls_monitor_fn monitor;
    void *monitor_ctx;
    hpls_converged_fn conv_fn; /* the user's convergence test, or NULL: tol and atol */
    void *conv_ctx;
    int monitor_stop;
    hpls_int hist_len, hist_cap;
    hpls_int *hist_it;
    double *hist_res, *hist_t;
    hpls_int *part_ptr, *part_idx; /* the user's partition (opt.part_* point here) */
    struct hpls_qtree *qt;         /* the quad-tree of A (format=qtree) */
    struct hpls_dcsr *dist;        /* the distributed matrix of hpls_solver_setup_dcsr, or NULL */
    unsigned long dist_version;    /* the user's distributed matrix's version set up (dcsr.h) */
    hpls_csr *Aperm;               /* reorder, scale: Dr A Dc permuted (s->A is then Aperm) */
    hpls_int *perm;                /* the permutation rp and cp point to (owned) */
    const hpls_int *rp;            /* row k of Aperm is row rp[k] of A (NULL: k) */
    const hpls_int *cp;            /* unknown l of Aperm is unknown cp[l] of A (NULL: l) */
    double *dr, *dc;         /* scale: row and column factors of A's rows, columns (or NULL) */
    hpls_real *pb, *px, *pr; /* reorder, scale: b, x of Aperm's system; r of A's (host) */
    struct hpls_dtrans *dtr; /* reorder, scale on a distributed matrix (src/mpi), or NULL */
    const struct hpls_env *env; /* one process or MPI ranks: the driver's hooks (driver.h) */
    char fmt[160];           /* what the operator is (hpls_solver_format), "" if plain CSR */
    char pfmsg[64];          /* hpls_solver_prefetch's words */
    /* solver=auto: the user's options (restored before anything else), the
     * advice, the candidate in use, whether it fell back, and what it said */
    int auto_on; /* the options in effect are candidate auto_pick's */
    hpls_options auto_opt;
    hpls_optset auto_os;
    struct hpls_advice *adv;
    int auto_pick, auto_fell;
    char auto_msg[1024];
    char msg[512];
};

/* The partition of n unknowns (nnz stored entries) into the blocks of a PJG
 * sweep (hpls_pjg_partition, backend/backend.h) from o's psize or user
 * partition; the default psize depends on the thread count nthreads. */
hpls_status hpls_pjg_partition_build(hpls_int n, hpls_int nnz, const hpls_options *o, int nthreads,
                                     hpls_pjg_partition **P);
void hpls_pjg_partition_free(hpls_pjg_partition *P);
hpls_int hpls_pjg_default_psize(hpls_int n, hpls_int nnz, int nthreads);
/* On a device backend (be->d): the psize for psize=0 there (n rows; dense:
 * rows of n entries), and P copied to the device (P->dev, freed with P). */
hpls_int hpls_pjg_device_psize(hpls_int n, int dense);
hpls_status hpls_pjg_partition_upload(hpls_backend *be, hpls_pjg_partition *P, hpls_int n,
                                      int dense);

/* reorder and scale of A (square, checked) by s's options: s->Aperm, perm,
 * rp, cp, dr, dc, the buffers pb, px, pr of n values, and s->fmt
 * (solver/transform.c; src/mpi runs it on rank 0 for a distributed A). */
hpls_status hpls_solver_transform(hpls_solver *s, const hpls_csr *A);

/* Records a message in the solver (and thread-locally) and returns st. */
hpls_status hpls_solver_fail(hpls_solver *s, hpls_status st, const char *fmt, ...)
    HPLS_PRINTF(3, 4);

/* z = M^{-1} r; returns z, or r itself when the preconditioner is the identity
 * (so unpreconditioned methods copy nothing).  A failure of the preconditioner
 * is recorded in the backend (sticky): the next convergence test stops. */
const hpls_dvec *hpls_pc_apply(const hpls_solver *s, const hpls_dvec *r, hpls_dvec *z);
/* z = M^{-T} r, or r itself for the identity. */
const hpls_dvec *hpls_pc_apply_t(const hpls_solver *s, const hpls_dvec *r, hpls_dvec *z);
/* y = A x and y = A^T x; a failure is recorded in the backend like the above. */
void hpls_op_apply(const hpls_solver *s, const hpls_dvec *x, hpls_dvec *y);
void hpls_op_apply_t(const hpls_solver *s, const hpls_dvec *x, hpls_dvec *y);
/* r = b - A x, returns ||r||_2: the true residual, whatever A's storage
 * (NaN after a failure, which is recorded). */
double hpls_op_residual(const hpls_solver *s, const hpls_dvec *b, const hpls_dvec *x, hpls_dvec *r);

/* After the true residual of the final x (host memory, the solved system's
 * ordering) is in info.resnorm: a solve that stopped unconverged (stagnation,
 * maxiter) with that residual within HPLS_ACC_FACTOR of eps (|| |A| |x| || +
 * ||b||), the rounding error of b - A x, gets the reason ACCURACY and a message
 * with the figures: no method could be sure to do better. */
void hpls_conv_finish(hpls_solver *s, const hpls_real *x);
/* Starts the convergence test of a solve: r0norm = ||b - A x0||.  Returns the
 * reason to stop at once (x0 already converged) or HPLS_NOT_RUN. */
hpls_reason hpls_conv_start(hpls_solver *s, double r0norm);
/* For methods whose iteration residual is M^-1 r (left preconditioning): the
 * tests use ||M^-1 r|| relative to pbnorm = ||M^-1 b||, and info says so.
 * Call before hpls_conv_start. */
void hpls_conv_use_precond_norm(hpls_solver *s, double pbnorm);
/* Whether rnorm = ||r|| after iteration it meets the stop test: the user's
 * (hpls_solver_set_convergence_test, shown r) or rnorm <= target; never
 * before miniter iterations. */
int hpls_conv_met(hpls_solver *s, hpls_int it, const hpls_dvec *r, double rnorm);
/* Tests the residual norm after iteration it; records history, calls the
 * monitor.  Returns HPLS_NOT_RUN to go on, else the reason to stop (a failure
 * recorded in the backend stops too: hpls_solver_solve then returns it). */
hpls_reason hpls_conv_check(hpls_solver *s, hpls_int it, double rnorm);
/* For methods with a recursive residual: when hpls_conv_check said converged,
 * recompute r = b - A x.  Returns the reason if the true residual passes too
 * (or after repeated failures, STAGNATION); HPLS_NOT_RUN means "r now holds the
 * true residual, restart the recurrence from it". */
hpls_reason hpls_conv_confirm(hpls_solver *s, const hpls_dvec *b, const hpls_dvec *x, hpls_dvec *r,
                              hpls_int it);
/* The whole test of a method with a recursive residual r of norm rnorm:
 * hpls_conv_check, and the confirmation when it says converged.  Returns 1 to
 * stop (the reason is in info); 0 to go on, with *restart = 1 when r was
 * replaced by the true residual and the recurrence must restart from it. */
int hpls_conv_step(hpls_solver *s, hpls_int it, double rnorm, const hpls_dvec *b,
                   const hpls_dvec *x, hpls_dvec *r, int *restart);

/* The test of one column of a block solve (solve_block): the rules of
 * hpls_conv_check (tolerances, NaN, growth, stagnation, maxiter) on the
 * column's own norms, without history or monitor. */
typedef struct hpls_colconv {
    double bnorm, r0norm, target, band;
    hpls_int band_it;
} hpls_colconv;
hpls_reason hpls_conv_column_start(const hpls_solver *s, hpls_colconv *c, double bnorm,
                                   double r0norm);
hpls_reason hpls_conv_column(const hpls_solver *s, hpls_colconv *c, hpls_int it, double rnorm);
/* The norms of k columns of n values (column j at j*n) into nrm[j]. */
void hpls_block_norms(const hpls_solver *s, hpls_int k, const hpls_real *V, double *nrm);
/* R = B - A X for k columns, rnorm[j] = ||R_j||: the backend's block kernel. */
void hpls_block_residual(const hpls_solver *s, hpls_int k, const hpls_real *B, const hpls_real *X,
                         hpls_real *R, double *rnorm);

/* ---- numerical stops: one place for every method ------------------------ */
/* Ends a solve on a vanished (or non-finite) Krylov scalar: reason BREAKDOWN (or
 * NAN), and the message "what = value at iteration it" (a NaN reads "nan").
 * Returns HPLS_OK, for `return hpls_breakdown(...)`. */
hpls_status hpls_breakdown(hpls_solver *s, double value, const char *what, hpls_int it);
/* A Krylov scalar that must not vanish (rho, (rhat, v) ...): returns 0 when it is
 * finite and nonzero; 1 when it vanished and the iteration should restart from
 * the current residual (the standard remedy), which it may do once; -1 when it
 * is NaN or Inf, or vanished again in an iteration already restarted (fresh),
 * after ending the solve by hpls_breakdown. */
int hpls_guard(hpls_solver *s, double value, const char *what, hpls_int it, int fresh);
/* Ends a solve on a quadratic form that proves A or M indefinite (value <= 0;
 * cg's (p, A p), minres's (r, M^-1 r)): reason INDEFINITE (NAN for a NaN), the
 * message "what = value at iteration it", it - 1 iterations done.  Returns HPLS_OK. */
hpls_status hpls_indefinite(hpls_solver *s, double value, const char *what, hpls_int it);

/* Methods (src/iter/<name>.c) */
hpls_status hpls_solve_jacobi(hpls_solver *s, const hpls_dvec *b, hpls_dvec *x);
hpls_status hpls_solve_jacobi_block(hpls_solver *s, hpls_int k, const hpls_real *B, hpls_real *X,
                                    hpls_info *col);
hpls_status hpls_solve_gs(hpls_solver *s, const hpls_dvec *b, hpls_dvec *x);
hpls_status hpls_solve_sor(hpls_solver *s, const hpls_dvec *b, hpls_dvec *x);
/* One SOR sweep of A (sor.c; a sequential host kernel, or a device's sweep
 * scheduled by trisolve): x swept with weight omega, forward or backward; dx
 * = x_old - x_new on the host, x_old on a device.  Then the true residual of
 * the new x, (T + dscale D)(x_old - x_new) with T A's strictly upper (upper)
 * or lower part, into r, returning its norm. */
void hpls_sor_sweep(hpls_solver *s, double omega, int backward, const hpls_dvec *b, hpls_dvec *x,
                    hpls_dvec *dx);
double hpls_sor_residual(hpls_solver *s, int upper, double dscale, const hpls_dvec *x,
                         const hpls_dvec *dx, hpls_dvec *r);
/* gs, sor, ssor: on a device backend, A's sweeps there (s->mdata); on a
 * host, nothing */
hpls_status hpls_setup_relax(hpls_solver *s);
void hpls_destroy_relax(void *mdata);
hpls_status hpls_solve_ssor(hpls_solver *s, const hpls_dvec *b, hpls_dvec *x);
hpls_status hpls_solve_cg(hpls_solver *s, const hpls_dvec *b, hpls_dvec *x);
hpls_status hpls_solve_bicgstab(hpls_solver *s, const hpls_dvec *b, hpls_dvec *x);
hpls_status hpls_solve_bicg(hpls_solver *s, const hpls_dvec *b, hpls_dvec *x);
hpls_status hpls_solve_cgs(hpls_solver *s, const hpls_dvec *b, hpls_dvec *x);
hpls_status hpls_solve_tfqmr(hpls_solver *s, const hpls_dvec *b, hpls_dvec *x);
hpls_status hpls_solve_qmr(hpls_solver *s, const hpls_dvec *b, hpls_dvec *x);
hpls_status hpls_solve_bicrstab(hpls_solver *s, const hpls_dvec *b, hpls_dvec *x);
hpls_status hpls_solve_bicgsafe(hpls_solver *s, const hpls_dvec *b, hpls_dvec *x);
hpls_status hpls_setup_bicgstabl(hpls_solver *s);
hpls_status hpls_solve_bicgstabl(hpls_solver *s, const hpls_dvec *b, hpls_dvec *x);
void hpls_destroy_bicgstabl(void *mdata);
hpls_status hpls_solve_gmres(hpls_solver *s, const hpls_dvec *b, hpls_dvec *x);
hpls_status hpls_solve_fgmres(hpls_solver *s, const hpls_dvec *b, hpls_dvec *x);
hpls_status hpls_setup_gmres(hpls_solver *s);
hpls_status hpls_setup_fgmres(hpls_solver *s);
/* max |(V^T V - I)_ij| over the first k vectors of the basis of the last
 * GMRES (FGMRES) cycle: its loss of orthogonality (tests and diagnostics). */
hpls_status hpls_gmres_basis_loss(const hpls_solver *s, hpls_int k, double *loss);
void hpls_destroy_gmres(void *mdata);
hpls_status hpls_solve_minres(hpls_solver *s, const hpls_dvec *b, hpls_dvec *x);
hpls_status hpls_setup_pjg(hpls_solver *s);
hpls_status hpls_solve_pjg(hpls_solver *s, const hpls_dvec *b, hpls_dvec *x);
void hpls_destroy_pjg(void *mdata);
hpls_status hpls_setup_hisa(hpls_solver *s);
hpls_status hpls_setup_bhisa(hpls_solver *s);
hpls_status hpls_solve_hisa(hpls_solver *s, const hpls_dvec *b, hpls_dvec *x);
void hpls_destroy_hisa(void *mdata);
struct hpls_btri;
/* A = T + S, T factored (block <= 0: one block) with nthreads threads; shared
 * by hisa and precond tridiag. */
hpls_status hpls_hisa_build(const hpls_csr *A, hpls_int block, int method, double gspike_delta,
                            hpls_int gspike_p, int nthreads, hpls_csr **S, struct hpls_btri **B);
/* The method solving T's blocks of rows rows (of n) on a device backend: given
 * (an hpls_tridiag_method; -1: not given, the device's choice) into *method,
 * or HPLS_ERR_UNSUPPORTED naming who when the device cannot (iter/hisa.c). */
hpls_status hpls_tridiag_device_method(const hpls_backend *be, const char *who, hpls_int n,
                                       hpls_int rows, int given, int *method);
/* Preconditioners (src/precond/<name>.c): hpls_pc_type.setup */
hpls_status hpls_pc_setup_jacobi(hpls_backend *be, const hpls_csr *A, const hpls_csr *At,
                                 const hpls_options *o, hpls_pc *pc);
hpls_status hpls_pc_setup_ssor(hpls_backend *be, const hpls_csr *A, const hpls_csr *At,
                               const hpls_options *o, hpls_pc *pc);
hpls_status hpls_pc_setup_tridiag(hpls_backend *be, const hpls_csr *A, const hpls_csr *At,
                                  const hpls_options *o, hpls_pc *pc);
hpls_status hpls_pc_setup_btridiag(hpls_backend *be, const hpls_csr *A, const hpls_csr *At,
                                   const hpls_options *o, hpls_pc *pc);
hpls_status hpls_pc_setup_dilu(hpls_backend *be, const hpls_csr *A, const hpls_csr *At,
                               const hpls_options *o, hpls_pc *pc);
hpls_status hpls_pc_setup_dic(hpls_backend *be, const hpls_csr *A, const hpls_csr *At,
                              const hpls_options *o, hpls_pc *pc);
hpls_status hpls_pc_setup_ilu0(hpls_backend *be, const hpls_csr *A, const hpls_csr *At,
                               const hpls_options *o, hpls_pc *pc);
hpls_status hpls_pc_setup_pjg(hpls_backend *be, const hpls_csr *A, const hpls_csr *At,
                              const hpls_options *o, hpls_pc *pc);
/* Strategy of the triangular sweeps of dilu, dic or ilu0 ("levels", or for
 * trisolve=auto "auto: levels" once decided); NULL for other preconditioners. */
const char *hpls_pc_strategy(const hpls_pc *pc);
/* Tridiagonal direct methods (src/iter/direct.c): thomas, cr, gspike,
 * lapack; setup extracts and factors T, solve uses the factors. */
hpls_status hpls_setup_tridiag(hpls_solver *s);
hpls_status hpls_solve_tridiag(hpls_solver *s, const hpls_dvec *b, hpls_dvec *x);
hpls_status hpls_solve_tridiag_block(hpls_solver *s, hpls_int k, const hpls_real *B, hpls_real *X,
                                     hpls_info *col);
void hpls_destroy_tridiag(void *mdata);
/* Partitions gspike found singular in a solver's direct method (its mdata:
 * factors on the host or on a device; 0 for the other methods). */
hpls_int hpls_tridiag_solver_singular(const void *mdata);

#endif /* HPLS_SOLVER_H */
