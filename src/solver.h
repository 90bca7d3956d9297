/* SPDX-License-Identifier: BSD-3-Clause */
/* solver.h: the driver's header (src/solver/): the solver object, its options
 * and the registry of methods and preconditioner types.  A method sees its
 * context (iter/method.h), a preconditioner its options (precond/pc.h), not
 * this; the MPI layer still includes this one (issue 30). */
#ifndef HPLS_SOLVER_H
#define HPLS_SOLVER_H

#include "iter/method.h"

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

/* The options of a solver (options.c; a method reads its part of them,
 * hpls_mopts, from its context). */
typedef struct hpls_options {
    const struct hpls_method *method;
    const struct hpls_pc_type *pc_type;
    double tol, atol, divtol, omega;
    int ref; /* hpls_ref */
    hpls_int maxiter, stag_window, restart;
    hpls_int miniter;      /* no convergence before this many iterations */
    int confirm;           /* 1: a user test's stop is confirmed on b - A x (confirm=yes) */
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
    /* optional: builds the method's own data (c->mdata) after the common setup */
    hpls_status (*setup)(hpls_mctx *c);
    hpls_status (*solve)(hpls_mctx *c, const hpls_dvec *b, hpls_dvec *x);
    /* optional: k right-hand sides at once (hpls_solver_solve_many) on the
     * host arrays B and X (column j at j*n; X holds the initial guesses), the
     * outcome of column j in col[j] */
    hpls_status (*solve_block)(hpls_mctx *c, hpls_int k, const hpls_real *B, hpls_real *X,
                               hpls_info *col);
    void (*destroy)(void *mdata); /* frees c->mdata; required when setup is given */
} hpls_method;

typedef struct hpls_pc_type {
    const char *name;
    const char *help;
    unsigned flags; /* the option flags it uses (HPLS_M_OMEGA ...) */
    /* builds M for A on be with options o (hpls_options_pc's of the
     * solver's); At is A^T when the method applies M^-T, else NULL */
    hpls_status (*setup)(hpls_backend *be, const hpls_csr *A, const hpls_csr *At,
                         const hpls_pcopts *o, hpls_pc *pc);
} hpls_pc_type;

extern const hpls_method hpls_methods[];
extern const int hpls_nmethods;
extern const hpls_pc_type hpls_pc_types[];
extern const int hpls_npc_types;

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

/* ---- preconditioner objects (solver/precond.c) -------------------------- */
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
    int cols_stored; /* every column of A holds an entry (on every rank): a NaN or Inf
                        in x shows in ||b - A x||, no scan of x needed (setup) */
    /* the method's context (iter/method.h): filled before the method's setup
     * and each solve (hpls_solver_context), it holds what the method leaves:
     * its data and their destroy (kept: options may change later), rcond, the
     * convergence state, the reason and iterations (copied into info), the
     * history */
    hpls_mctx mc;
    int ready;
    hpls_info info;
    hpls_monitor_fn monitor;
    void *monitor_ctx;
    hpls_converged_fn conv_fn; /* the user's convergence test, or NULL: tol and atol */
    void *conv_ctx;
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

/* reorder and scale of A (square, checked) by s's options: s->Aperm, perm,
 * rp, cp, dr, dc, the buffers pb, px, pr of n values, and s->fmt
 * (solver/transform.c; src/mpi runs it on rank 0 for a distributed A). */
hpls_status hpls_solver_transform(hpls_solver *s, const hpls_csr *A);

/* HPLS_ERR_OPTION unless a user's convergence test (s->conv_fn) can be shown
 * the residual vector by s's method and backend (solver/setup.c). */
hpls_status hpls_solver_check_convtest(const hpls_solver *s);

/* Records a message in the solver (and thread-locally) and returns st. */
hpls_status hpls_solver_fail(hpls_solver *s, hpls_status st, const char *fmt, ...)
    HPLS_PRINTF(3, 4);

/* The method context's operations on the solver's context s->mc
 * (hpls_m_pc_apply ..., iter/method.h), for the driver, tests and benchmarks:
 * z = M^{-1} r (r itself for the identity), z = M^{-T} r, and the true
 * residual r = b - A x returning ||r||_2. */
const hpls_dvec *hpls_pc_apply(const hpls_solver *s, const hpls_dvec *r, hpls_dvec *z);
const hpls_dvec *hpls_pc_apply_t(const hpls_solver *s, const hpls_dvec *r, hpls_dvec *z);
double hpls_op_residual(const hpls_solver *s, const hpls_dvec *b, const hpls_dvec *x, hpls_dvec *r);

/* max |(V^T V - I)_ij| over the first k vectors of the basis of the last
 * GMRES (FGMRES) cycle of s (hpls_gmres_loss; tests and diagnostics). */
hpls_status hpls_gmres_basis_loss(const hpls_solver *s, hpls_int k, double *loss);

#endif /* HPLS_SOLVER_H */
