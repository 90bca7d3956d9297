/* solver.h: what a method and a preconditioner see of the solver.
 *
 * A method never loops over A itself: it calls the operator (s->op), the
 * preconditioner (hpls_pc_apply) and the vector kernels (hpls_k_*), and hands
 * every residual norm to hpls_conv_check.  That keeps one body per method for
 * every backend (a CUDA or MPI backend supplies another operator and kernels). */
#ifndef HPLS_SOLVER_H
#define HPLS_SOLVER_H

#include "core/internal.h"

/* The operator y = A x (and y = A^T x for methods flagged HPLS_M_TRANSPOSE, from
 * a transpose built once at setup).  A stays reachable for the true residual. */
struct hpls_qtree;

typedef struct hpls_op {
    hpls_int n;
    const hpls_csr *A;    /* the matrix in CSR, or NULL */
    const hpls_dense *Ad; /* or the dense matrix (methods flagged HPLS_M_DENSE) */
    const hpls_csr *At;   /* A^T, or NULL */
    const struct hpls_qtree *qt; /* A as a quad-tree (format=qtree), or NULL */
    void (*apply)(const struct hpls_op *op, const hpls_real *x, hpls_real *y);
    void (*apply_t)(const struct hpls_op *op, const hpls_real *x, hpls_real *y);
    /* r = b - A x, returns ||r||_2 (one pass) */
    double (*residual)(const struct hpls_op *op, const hpls_real *b, const hpls_real *x,
                       hpls_real *r);
} hpls_op;

/* A preconditioner z = M^{-1} r (and z = M^{-T} r); apply == NULL means the identity. */
typedef struct hpls_pc {
    void *ctx;
    void (*apply)(const struct hpls_pc *pc, const hpls_real *r, hpls_real *z);
    void (*apply_t)(const struct hpls_pc *pc, const hpls_real *r, hpls_real *z);
    void (*destroy)(void *ctx);
} hpls_pc;

/* Registry entries: adding a method is one file plus one line in registry.c. */
enum {
    HPLS_M_PRECOND = 1u, /* takes a preconditioner */
    HPLS_M_OMEGA = 2u,   /* uses the relaxation weight omega */
    HPLS_M_DIAG = 4u,    /* needs a nonzero diagonal (checked in setup) */
    HPLS_M_RESTART = 8u,   /* restarted Krylov method (uses restart) */
    HPLS_M_TRANSPOSE = 16u, /* applies A^T (and M^-T): A^T is built at setup */
    HPLS_M_LEFT = 32u,      /* allows left preconditioning (pc_side=left) */
    HPLS_M_DIRECT = 64u,    /* a direct solver: no iterations, tol only judges the result */
    HPLS_M_GSPIKE = 128u,   /* uses gspike_p and gspike_delta */
    HPLS_M_TRIDIAG = 256u,  /* solves with T by the `tridiag` method */
    HPLS_M_BLOCK = 512u,    /* cuts T into blocks of `block` rows */
    HPLS_M_XTOL = 1024u,    /* has the step test `xtol` */
    HPLS_M_TRISOLVE = 2048u, /* uses trisolve and shift (dilu, dic, ilu0) */
    HPLS_M_DENSE = 4096u,   /* runs on a dense matrix too (hpls_solver_setup_dense) */
    HPLS_M_PSIZE = 8192u,   /* uses psize (pjg) */
    HPLS_M_FORMAT = 16384u, /* its operator may walk a quad-tree (format, qt_d) */
    HPLS_M_QTREE = 32768u   /* format=qtree always (qtbicgstab) */
};

typedef struct hpls_solver hpls_solver;

typedef struct hpls_method {
    const char *name;
    const char *help;
    unsigned flags;
    int nwork; /* work vectors of length n allocated at setup (at least 1) */
    /* optional: builds the method's own data (s->mdata) after the common setup */
    hpls_status (*setup)(hpls_solver *s);
    hpls_status (*solve)(hpls_solver *s, const hpls_real *b, hpls_real *x);
    void (*destroy)(void *mdata); /* frees s->mdata; required when setup is given */
} hpls_method;

typedef struct hpls_pc_type {
    const char *name;
    const char *help;
    unsigned flags; /* HPLS_M_OMEGA if it uses omega */
    /* builds M for s->A (and s->op.At when the method needs M^-T) */
    hpls_status (*setup)(const hpls_solver *s, hpls_pc *pc);
} hpls_pc_type;

extern const hpls_method hpls_methods[];
extern const int hpls_nmethods;
extern const hpls_pc_type hpls_pc_types[];
extern const int hpls_npc_types;

/* Rows per block of bhisa and btridiag when `block` is 0: one block per thread.
 * Every cut moves band couplings into S and, measured on the gas family, costs
 * iterations (n = 1e5: 9 with 2 blocks, 11 with 10, 17 with 25, 23 with 1563
 * blocks of 64, the paper's GPU choice), while a CPU thread needs only one block. */
hpls_int hpls_bhisa_block(hpls_int n, hpls_int block);

/* Residual-norm reference of the relative test. */
typedef enum { HPLS_REF_B, HPLS_REF_R0 } hpls_ref;

typedef struct hpls_options {
    const hpls_method *method;
    const hpls_pc_type *pc_type;
    double tol, atol, divtol, omega;
    int ref; /* hpls_ref */
    hpls_int maxiter, stag_window, restart;
    hpls_int gspike_p;   /* g-Spike partitions (0: automatic) */
    double gspike_delta; /* g-Spike singularity threshold, relative to the block norm */
    int tridiag;         /* hpls_tridiag_method of hisa, bhisa and precond tridiag */
    hpls_int block;      /* bhisa / btridiag block rows (0: HPLS_BHISA_BLOCK) */
    double xtol;         /* hisa step test (0: off) */
    int trisolve;        /* dilu/dic/ilu0 strategy: serial, levels, syncfree, auto (that order) */
    double shift;        /* dilu/dic/ilu0: diagonal shift, A_ii + shift sgn(A_ii) max_j |A_ij| */
    hpls_int psize;      /* pjg block size (0: hpls_pjg_default_psize) */
    hpls_int sweeps;     /* precond pjg: sweeps per application */
    int left; /* pc_side=left */
    int initial_guess; /* 1: use x as given */
    hpls_int threads;  /* 0: OpenMP default */
    int format;        /* 0 csr, 1 qtree (Krylov methods) */
    hpls_int qt_d;     /* quad-tree target division length (0: automatic, Eq. 17) */
    int reorder;       /* 0 none, 1 rcm (reverse Cuthill-McKee, every method) */
} hpls_options;

/* Convergence state of one solve. */
typedef struct hpls_conv {
    double bnorm;    /* ||b|| */
    double test_bnorm; /* the norm the relative test divides by: ||b||, or ||M^-1 b|| */
    double r0norm;   /* ||b - A x0|| */
    double target;   /* max(tol * ref, atol) */
    double best;     /* smallest residual seen */
    hpls_int best_it;
    double t0;       /* solve start, for the history */
    int confirms;    /* true-residual confirmations that failed */
} hpls_conv;

struct hpls_solver {
    hpls_options opt;
    unsigned set_mask; /* options the user set (bit per option) */
    char values[32][32]; /* option values as strings, for get_option */
    const hpls_csr *A;    /* CSR matrix of the setup, or NULL for a dense one */
    const hpls_dense *Ad; /* dense matrix of hpls_solver_setup_dense, or NULL */
    hpls_op op;
    hpls_pc pc;
    hpls_int diag_missing; /* for methods needing the diagonal */
    hpls_csr *At;          /* A^T (HPLS_M_TRANSPOSE methods) */
    hpls_int *diagpos;     /* position of A_ii in row i (HPLS_M_DIAG methods) */
    hpls_real *invdiag;    /* 1 / A_ii (HPLS_M_DIAG methods) */
    hpls_real **work;
    int nwork;
    void *mdata; /* the method's own setup data (method->setup) */
    void (*mdata_destroy)(void *mdata); /* its destroy, kept: options may change later */
    int ready;
    hpls_conv conv;
    hpls_info info;
    hpls_monitor_fn monitor;
    void *monitor_ctx;
    int monitor_stop;
    hpls_int hist_len, hist_cap;
    hpls_int *hist_it;
    double *hist_res, *hist_t;
    hpls_int part_nblocks;      /* pjg: the user's partition (hpls_solver_set_partition) */
    hpls_int *part_ptr, *part_idx;
    struct hpls_qtree *qt; /* the quad-tree of A (format=qtree) */
    const hpls_csr *Auser; /* reorder=rcm: the user's A (s->A is then Aperm) */
    hpls_csr *Aperm;       /* reorder=rcm: P A P^T */
    hpls_int *perm;        /* reorder=rcm: unknown k of Aperm is perm[k] of A */
    hpls_real *pb, *px;    /* reorder=rcm: b and x permuted */
    char fmt[160];         /* what the operator is (hpls_solver_format), "" if plain CSR */
    char msg[512];
};

/* The blocks of a PJG sweep: block k is unknowns idx[ptr[k] .. ptr[k+1]-1]. */
typedef struct hpls_pjg_partition {
    hpls_int nblocks, psize; /* psize: 0 for a user partition */
    hpls_int *ptr, *idx;
    hpls_int *blockof; /* block of each unknown */
    hpls_int *lo;      /* contiguous blocks: first unknown of i's block, else NULL */
} hpls_pjg_partition;
hpls_status hpls_pjg_partition_build(const hpls_solver *s, hpls_pjg_partition **P);
void hpls_pjg_partition_free(hpls_pjg_partition *P);
hpls_int hpls_pjg_default_psize(hpls_int n, hpls_int nnz);

/* Records a message in the solver (and thread-locally) and returns st. */
hpls_status hpls_solver_fail(hpls_solver *s, hpls_status st, const char *fmt, ...)
    HPLS_PRINTF(3, 4);

/* z = M^{-1} r; returns z, or r itself when the preconditioner is the identity
 * (so unpreconditioned methods copy nothing). */
const hpls_real *hpls_pc_apply(const hpls_solver *s, const hpls_real *r, hpls_real *z);
/* z = M^{-T} r, or r itself for the identity. */
const hpls_real *hpls_pc_apply_t(const hpls_solver *s, const hpls_real *r, hpls_real *z);
static inline void hpls_op_apply(const hpls_solver *s, const hpls_real *x, hpls_real *y)
{
    s->op.apply(&s->op, x, y);
}
/* r = b - A x, returns ||r||_2: the true residual, whatever A's storage. */
static inline double hpls_op_residual(const hpls_solver *s, const hpls_real *b,
                                      const hpls_real *x, hpls_real *r)
{
    return s->op.residual(&s->op, b, x, r);
}
static inline void hpls_op_apply_t(const hpls_solver *s, const hpls_real *x, hpls_real *y)
{
    s->op.apply_t(&s->op, x, y);
}

/* Starts the convergence test of a solve: r0norm = ||b - A x0||.  Returns the
 * reason to stop at once (x0 already converged) or HPLS_NOT_RUN. */
hpls_reason hpls_conv_start(hpls_solver *s, double r0norm);
/* Ends a solve on a vanished (or non-finite) Krylov scalar: reason BREAKDOWN (or
 * NAN), and the message "what = value at iteration it".  Returns HPLS_OK. */
hpls_status hpls_breakdown(hpls_solver *s, double value, const char *what, hpls_int it);
/* For methods whose iteration residual is M^-1 r (left preconditioning): the
 * tests use ||M^-1 r|| relative to pbnorm = ||M^-1 b||, and info says so.
 * Call before hpls_conv_start. */
void hpls_conv_use_precond_norm(hpls_solver *s, double pbnorm);
/* Tests the residual norm after iteration it; records history, calls the
 * monitor.  Returns HPLS_NOT_RUN to go on, else the reason to stop. */
hpls_reason hpls_conv_check(hpls_solver *s, hpls_int it, double rnorm);
/* For methods with a recursive residual: when hpls_conv_check said converged,
 * recompute r = b - A x.  Returns the reason if the true residual passes too
 * (or after repeated failures, STAGNATION); HPLS_NOT_RUN means "r now holds the
 * true residual, restart the recurrence from it". */
hpls_reason hpls_conv_confirm(hpls_solver *s, const hpls_real *b, const hpls_real *x,
                              hpls_real *r, hpls_int it);

/* Methods (src/iter/<name>.c) */
hpls_status hpls_solve_jacobi(hpls_solver *s, const hpls_real *b, hpls_real *x);
hpls_status hpls_solve_gs(hpls_solver *s, const hpls_real *b, hpls_real *x);
hpls_status hpls_solve_sor(hpls_solver *s, const hpls_real *b, hpls_real *x);
hpls_status hpls_solve_ssor(hpls_solver *s, const hpls_real *b, hpls_real *x);
hpls_status hpls_solve_cg(hpls_solver *s, const hpls_real *b, hpls_real *x);
hpls_status hpls_solve_bicgstab(hpls_solver *s, const hpls_real *b, hpls_real *x);
hpls_status hpls_solve_bicg(hpls_solver *s, const hpls_real *b, hpls_real *x);
hpls_status hpls_solve_cgs(hpls_solver *s, const hpls_real *b, hpls_real *x);
hpls_status hpls_solve_tfqmr(hpls_solver *s, const hpls_real *b, hpls_real *x);
hpls_status hpls_solve_qmr(hpls_solver *s, const hpls_real *b, hpls_real *x);
hpls_status hpls_solve_bicrstab(hpls_solver *s, const hpls_real *b, hpls_real *x);
hpls_status hpls_solve_bicgsafe(hpls_solver *s, const hpls_real *b, hpls_real *x);
hpls_status hpls_solve_gmres(hpls_solver *s, const hpls_real *b, hpls_real *x);
hpls_status hpls_solve_fgmres(hpls_solver *s, const hpls_real *b, hpls_real *x);
hpls_status hpls_setup_gmres(hpls_solver *s);
hpls_status hpls_setup_fgmres(hpls_solver *s);
void hpls_destroy_gmres(void *mdata);
hpls_status hpls_solve_minres(hpls_solver *s, const hpls_real *b, hpls_real *x);
hpls_status hpls_setup_pjg(hpls_solver *s);
hpls_status hpls_solve_pjg(hpls_solver *s, const hpls_real *b, hpls_real *x);
void hpls_destroy_pjg(void *mdata);
hpls_status hpls_setup_hisa(hpls_solver *s);
hpls_status hpls_setup_bhisa(hpls_solver *s);
hpls_status hpls_solve_hisa(hpls_solver *s, const hpls_real *b, hpls_real *x);
void hpls_destroy_hisa(void *mdata);
struct hpls_btri;
/* A = T + S, T factored (block <= 0: one block); shared by hisa and precond tridiag. */
hpls_status hpls_hisa_build(const hpls_csr *A, hpls_int block, int method, double gspike_delta,
                            hpls_int gspike_p, hpls_csr **S, struct hpls_btri **B);
/* Preconditioners (src/precond/<name>.c) */
hpls_status hpls_pc_setup_jacobi(const hpls_solver *s, hpls_pc *pc);
hpls_status hpls_pc_setup_ssor(const hpls_solver *s, hpls_pc *pc);
hpls_status hpls_pc_setup_tridiag(const hpls_solver *s, hpls_pc *pc);
hpls_status hpls_pc_setup_dilu(const hpls_solver *s, hpls_pc *pc);
hpls_status hpls_pc_setup_dic(const hpls_solver *s, hpls_pc *pc);
hpls_status hpls_pc_setup_ilu0(const hpls_solver *s, hpls_pc *pc);
/* Strategy of the triangular sweeps of dilu, dic or ilu0 ("levels", or for
 * trisolve=auto "auto: levels" once decided); NULL for other preconditioners. */
const char *hpls_pc_strategy(const hpls_solver *s);
hpls_status hpls_pc_setup_pjg(const hpls_solver *s, hpls_pc *pc);
hpls_status hpls_pc_setup_btridiag(const hpls_solver *s, hpls_pc *pc);
/* Tridiagonal direct methods (src/direct/tridiag_methods.c): thomas, cr, gspike,
 * lapack; setup extracts and factors T, solve uses the factors. */
hpls_status hpls_setup_tridiag(hpls_solver *s);
hpls_status hpls_solve_tridiag(hpls_solver *s, const hpls_real *b, hpls_real *x);
void hpls_destroy_tridiag(void *mdata);

#endif /* HPLS_SOLVER_H */
