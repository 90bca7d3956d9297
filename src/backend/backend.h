/* SPDX-License-Identifier: BSD-3-Clause */
/* backend.h: the executor every method runs on (DESIGN.md "Backends"; the idea
 * of Ginkgo's executor and of PETSc's Vec operations table).  A backend owns
 * the memory of the vectors a solve works on and the operations on them; a
 * method holds only opaque hpls_dvec handles and calls the hpls_v_* helpers
 * below, so the same body runs on host memory, device memory or a rank's part.
 *
 *   backend = { memory (alloc, release, upload, download, attach, detach),
 *               vector operations (the axpy family, multi-dot, multi-axpy,
 *               finite check; the family of the methods' fused kernels that
 *               work on its vectors), reduce (every local partial sum
 *               passes through it: identity in one process), threads,
 *               a sticky error }
 *   cpu: OpenMP kernels (kernels/cpu/blas1.c), vectors are host arrays
 *   ref: the sequential oracle (kernels/ref/ref.c); it hands out descriptors,
 *        not arrays, and checks every handle it is given against the vectors
 *        it allocated: a method that touches memory behind the backend's back
 *        fails there with HPLS_ERR_INTERNAL
 *   opencl: device buffers and the kernels of kernels/device, driven by the
 *        device host layer (kernels/device/devhost.h) on OpenCL's primitives
 *        (kernels/opencl/opencl.c, built with HPLS_OPENCL); A is multiplied
 *        on the device (be->d)
 *   cuda: the same layer and kernels, the kernels compiled by nvcc, on the
 *        CUDA runtime's primitives in a module loaded with dlopen
 *        (backend/cuda_loader.c, kernels/cuda/cuda.c, built with HPLS_CUDA)
 *
 * Errors: operations on vectors return values, not statuses (a dot returns
 * its number), so a backend records its first failure in be->err (sticky,
 * with a message).  The convergence test stops a solve once it is set, and
 * hpls_solver_solve returns it.  Operators and preconditioners return their
 * status and the solver records it there too.
 *
 * Host kernels: the algorithms that are kernels themselves (SpMV, sweeps) work
 * on host arrays; both host backends run them, cpu through kernels/cpu with its
 * thread count, ref through the sequential reference where one exists (be->k),
 * and algorithm objects built under a backend (tridiagonal factors, level sets,
 * quad-trees) take its thread count, so ref runs them on one thread. */
#ifndef HPLS_BACKEND_H
#define HPLS_BACKEND_H

#include "core/internal.h"
#include "kernels/device/sizes.h"
#include "la/tri.h"

#include <stdio.h>

typedef struct hpls_dvec hpls_dvec; /* a vector in a backend's memory: opaque */
typedef struct hpls_backend hpls_backend;

typedef enum { HPLS_RED_SUM, HPLS_RED_MAX } hpls_red_op;

/* The families of the fused kernels a method declares beside it, not here
 * (Ginkgo's core/solver/bicgstab_kernels.hpp: BiCGSTAB's in kernels/bicgstab.h,
 * a family's as a table in iter/bicgstab_kernels.h; HISA's alike).  Each table
 * of vector operations names its family (hpls_vops.family), so the fused
 * kernels a method takes work on the vectors those operations made, and
 * reproducible=1's swap of the table swaps them too.  X(FAMILY, prefix):
 * HPLS_KF_FAMILY's kernels are the functions hpls_<prefix>_<method>_<kernel>;
 * a family lacking one fails the link. */
#define HPLS_KFAMILIES(X) X(CPU, cpu) X(CPU_EXACT, cpu_x) X(REF, ref) X(DEVICE, dev)
#define HPLS_KF_ENUM_(f, p) HPLS_KF_##f,
typedef enum { HPLS_KFAMILIES(HPLS_KF_ENUM_) HPLS_KF_COUNT } hpls_kfamily;

/* The vector operations of a backend.  n is the (local) length; handles are
 * the backend's own.  Reductions return the reduced value (after be->reduce). */
typedef struct hpls_vops {
    hpls_status (*alloc)(hpls_backend *be, hpls_int n, hpls_dvec **v); /* zero-filled */
    void (*release)(hpls_backend *be, hpls_dvec *v);                   /* accepts NULL */
    void (*upload)(hpls_backend *be, hpls_int n, const hpls_real *h, hpls_dvec *v);
    void (*download)(hpls_backend *be, hpls_int n, const hpls_dvec *v, hpls_real *h);
    /* the host array of v on a host backend (ref: NULL after recording the
     * failure when v is not one of its vectors) */
    hpls_real *(*host)(hpls_backend *be, const hpls_dvec *v);
    void (*copy)(hpls_backend *be, hpls_int n, const hpls_dvec *x, hpls_dvec *y); /* y = x */
    void (*set)(hpls_backend *be, hpls_int n, double a, hpls_dvec *y);            /* y = a */
    void (*scale)(hpls_backend *be, hpls_int n, double a, hpls_dvec *y);          /* y = a y */
    void (*axpy)(hpls_backend *be, hpls_int n, double a, const hpls_dvec *x, hpls_dvec *y);
    void (*axpby)(hpls_backend *be, hpls_int n, double a, const hpls_dvec *x, double b,
                  hpls_dvec *y); /* y = a x + b y */
    void (*xpay)(hpls_backend *be, hpls_int n, const hpls_dvec *x, double a,
                 hpls_dvec *y); /* y = x + a y */
    void (*waxpy)(hpls_backend *be, hpls_int n, double a, const hpls_dvec *x, const hpls_dvec *y,
                  hpls_dvec *w); /* w = y + a x */
    void (*axpbypcz)(hpls_backend *be, hpls_int n, double a, const hpls_dvec *x, double b,
                     const hpls_dvec *y, double c, hpls_dvec *z); /* z = a x + b y + c z */
    void (*pmult)(hpls_backend *be, hpls_int n, const hpls_dvec *x, const hpls_dvec *y,
                  hpls_dvec *z); /* z = x .* y */
    void (*diag_axpy)(hpls_backend *be, hpls_int n, double a, const hpls_dvec *d,
                      const hpls_dvec *x, hpls_dvec *y); /* y += a d .* x */
    double (*dot)(hpls_backend *be, hpls_int n, const hpls_dvec *x, const hpls_dvec *y);
    double (*nrm2)(hpls_backend *be, hpls_int n, const hpls_dvec *x);
    /* h[i] = (V[i], w), i < k: one pass over w, one reduction of k sums */
    void (*mdot)(hpls_backend *be, hpls_int n, int k, const hpls_dvec *const *V, const hpls_dvec *w,
                 double *h);
    /* w = beta w + sum_{i<k} a[i] V[i] (beta = 0: w is not read): one pass */
    void (*maxpy)(hpls_backend *be, hpls_int n, int k, const double *a, const hpls_dvec *const *V,
                  double beta, hpls_dvec *w);
    /* one pass over V, x and y: h[i] = (V[i], x), h[k + i] = (V[i], y) for i < k,
     * then h[2k] = (x, x), h[2k + 1] = (x, y), h[2k + 2] = (y, y): one reduction */
    void (*mdot2)(hpls_backend *be, hpls_int n, int k, const hpls_dvec *const *V,
                  const hpls_dvec *x, const hpls_dvec *y, double *h);
    /* one pass over V: x = alpha (x + sum a[i] V[i]), then y = gamma (y + sum
     * b[i] V[i] + beta x) with x's new values (GMRES's delayed
     * reorthogonalisation finishes one basis vector and projects the next) */
    void (*maxpy2)(hpls_backend *be, hpls_int n, int k, const hpls_dvec *const *V, const double *a,
                   double alpha, hpls_dvec *x, const double *b, double beta, double gamma,
                   hpls_dvec *y);
    /* index of the first entry of x that is NaN or Inf (its value in *bad), or -1 */
    hpls_int (*finite)(hpls_backend *be, hpls_int n, const hpls_dvec *x, double *bad);
    hpls_kfamily family; /* whose fused kernels a method runs on these vectors */
} hpls_vops;

/* Kernels on host arrays that differ between the host backends (cpu: OpenMP
 * with nt threads; ref: the sequential reference, nt ignored).  Sums of
 * squares are returned unreduced: hpls_be_norm makes the norm. */
typedef struct hpls_kernels {
    /* y = A x with the prefetch variant pf (HPLS_PF_*: same bits; ref ignores it) */
    void (*spmv)(int nt, int pf, const hpls_csr *A, const hpls_real *x, hpls_real *y);
    /* y = A^T x, At the transpose of A (the same bits as spmv on At) */
    void (*spmv_t)(int nt, int pf, const hpls_csr *A, const hpls_csr *At, const hpls_real *x,
                   hpls_real *y);
    /* r = b - A x; returns sum r_i^2 */
    double (*residual)(int nt, int pf, const hpls_csr *A, const hpls_real *b, const hpls_real *x,
                       hpls_real *r);
    void (*gemv)(int nt, const hpls_dense *A, const hpls_real *x, hpls_real *y);
    double (*dense_residual)(int nt, const hpls_dense *A, const hpls_real *b, const hpls_real *x,
                             hpls_real *r);
    /* R = B - A X for k columns (hpls_k_residual_block) */
    void (*residual_block)(int nt, const hpls_csr *A, hpls_int k, const hpls_real *B,
                           const hpls_real *X, hpls_real *R, hpls_int ld, double *ss);
} hpls_kernels;

/* A CSR matrix in a device backend's memory (opaque). */
typedef struct hpls_dmat hpls_dmat;

/* A triangular sweep's copy on a device (opaque; the sweep: la/tri.h). */
typedef struct hpls_dsweep hpls_dsweep;
/* The strategies of a triangular sweep, in the order of the trisolve option's
 * choices (precond/trisolve.h).  block is another M: that of the
 * block-diagonal part of A, a block per thread (PETSc's block Jacobi inside
 * one process), built and swept by each thread alone. */
enum { HPLS_TRI_SERIAL, HPLS_TRI_LEVELS, HPLS_TRI_SYNCFREE, HPLS_TRI_AUTO, HPLS_TRI_BLOCK };
/* dilu/dic's or ilu0's construction on a device: A's pattern, the split and
 * its work arrays there (opaque), for kernels/trifac.h's hpls_trifac. */
typedef struct hpls_dfac hpls_dfac;
struct hpls_trifac;
/* A tridiagonal matrix cut into blocks, in a device backend's memory (opaque). */
typedef struct hpls_dtri hpls_dtri;
/* HPLS_DEVICE_TRI_MAX, the rows of a tridiagonal block a device solves in
 * local memory at most: kernels/device/sizes.h. */
/* A tridiagonal matrix's factors in a device backend's memory, by thomas, cr
 * or gspike (kernels/device/tridiag_direct.c; opaque). */
typedef struct hpls_dtfac hpls_dtfac;
/* Rows per partition of g-Spike on a device, at every level: a work-item per
 * partition, so many partitions (kernels/device/gspike.c). */
#define HPLS_DEVICE_GSPIKE_ROWS 32
/* tfac_factor's switches for gspike (0: the device's choice): its reduced
 * systems solved on the device (App. C's recursion) or on the host, its
 * factors in row order or marshalled (the paper's Sec. 3.2) */
enum {
    HPLS_TFAC_REDUCED_DEVICE = 1,
    HPLS_TFAC_REDUCED_HOST = 2,
    HPLS_TFAC_NATURAL = 4,
    HPLS_TFAC_TILED = 8
};
/* A dense square matrix on a device (kernels/device/dense.c, opaque). */
typedef struct hpls_ddense hpls_ddense;
/* Work-items that sum one dense row (kernels/device/dense.cl's DENSE_LANES:
 * the cpu backend's 16 partial sums). */
#define HPLS_DEVICE_DENSE_LANES 16
/* k right-hand sides and their iterates on a device (kernels/device/block.c,
 * opaque). */
typedef struct hpls_dblock hpls_dblock;

/* The operator's kernels of a device backend, whose vectors are not host
 * arrays: A is uploaded once (setup) and multiplied there (src/operator.c);
 * and the kernels of the methods that run there (HISA's T solve). */
typedef struct hpls_devops {
    /* A's copy on the device; variant 0 picks the SpMV by mean row length,
     * 1 a row per work-item, 2 a group of lanes per row (tests force each) */
    hpls_status (*csr_upload)(hpls_backend *be, const hpls_csr *A, int variant, hpls_dmat **dA);
    void (*csr_release)(hpls_backend *be, hpls_dmat *dA); /* accepts NULL */
    void (*spmv)(hpls_backend *be, const hpls_dmat *A, const hpls_dvec *x, hpls_dvec *y);
    /* r = b - A x; returns sum r_i^2 (not reduced: the caller's be->reduce) */
    double (*residual)(hpls_backend *be, const hpls_dmat *A, const hpls_dvec *b, const hpls_dvec *x,
                       hpls_dvec *r);
    /* T (no coupling between its blocks of block <= HPLS_DEVICE_TRI_MAX rows)
     * on the device, and x = T^-1 b by cyclic reduction, a work-group a block */
    hpls_status (*tri_upload)(hpls_backend *be, const hpls_tridiag *T, hpls_int block,
                              hpls_dtri **dT);
    void (*tri_release)(hpls_backend *be, hpls_dtri *dT); /* accepts NULL */
    void (*tri_solve)(hpls_backend *be, const hpls_dtri *T, const hpls_dvec *b, hpls_dvec *x);
    /* a sweep of dilu/dic/ilu0 (its level sets if built) on the device, and
     * x = the sweep of b (x may be b) by strategy (HPLS_TRI_*):
     * 0 serial (one work-group takes the rows in order), 1 levels (a launch
     * per level), 2 syncfree (rows from an atomic ticket, ready flags); the
     * device's x has the host's bits */
    hpls_status (*sweep_upload)(hpls_backend *be, const struct hpls_sweep *w, hpls_dsweep **dw);
    void (*sweep_release)(hpls_backend *be, hpls_dsweep *dw); /* accepts NULL */
    void (*sweep)(hpls_backend *be, hpls_dsweep *dw, int strategy, const hpls_dvec *b,
                  hpls_dvec *x);
    /* the strategy trisolve=auto takes on this device (same numbering) */
    int (*auto_sweep)(hpls_backend *be);
    /* dilu/dic's (kind 0) or ilu0's (kind 1) construction on the device
     * (kernels/device/factor.cl), after F's sweeps were uploaded (F->dev[]):
     * M's numbers from F->a.A's values by strategy (serial, levels over
     * F->fwd.lev, syncfree), the host's bits, the scaled copies' values written
     * into F->dev[0] and F->dev[1], the row scales (1/E; 1/u_ii) into the
     * sweeps that use them, M^-T's values into F->dev[2], F->dev[3]; dilu's E
     * and 1/E read back into F->vec[0], F->vec[1], ilu0's 1/u_ii into
     * F->vec[1].  F->dfac: A's pattern there, uploaded at the first call, kept
     * until fac_release.  *bad: the first row (0-based) whose pivot is
     * unusable, *pivot its value; *asym (dic): the first whose lower part
     * does not mirror its column; n when none. */
    hpls_status (*fac_build)(hpls_backend *be, struct hpls_trifac *F, int kind, int strategy,
                             hpls_int *bad, hpls_int *asym, double *pivot);
    void (*fac_release)(hpls_backend *be, hpls_dfac *D); /* accepts NULL */
    /* T's factors on the device by method (an hpls_tridiag_method): T's
     * blocks of `block` rows have no couplings between them (block >= n: one
     * system); thomas a work-item per block, cr a work-group per block of at
     * most HPLS_DEVICE_TRI_MAX rows or one system level by level, gspike one
     * system; lapack is refused.  opts: gspike's partitions and delta (NULL:
     * the defaults); how: HPLS_TFAC_* (0: the device's choice).  A failure is
     * the host's status and message for the same T */
    hpls_status (*tfac_factor)(hpls_backend *be, const hpls_tridiag *T, hpls_int block, int method,
                               const hpls_tridiag_opts *opts, int how, hpls_dtfac **F);
    void (*tfac_release)(hpls_backend *be, hpls_dtfac *F); /* accepts NULL */
    /* x = T^-1 b (x may be b) */
    void (*tfac_solve)(hpls_backend *be, hpls_dtfac *F, const hpls_dvec *b, hpls_dvec *x);
    /* gspike's blocks found singular and repaired, and its 1/cond bound
     * (other methods: 0 and 1) */
    void (*tfac_stats)(const hpls_dtfac *F, hpls_int *singular, double *rcond);

    /* ---- kernels/device/dense.c: a dense A ---- */
    hpls_status (*dense_upload)(hpls_backend *be, const hpls_dense *A, hpls_ddense **dA);
    void (*dense_release)(hpls_backend *be, hpls_ddense *dA); /* accepts NULL */
    void (*gemv)(hpls_backend *be, const hpls_ddense *A, const hpls_dvec *x, hpls_dvec *y);
    /* r = b - A x; returns sum r_i^2 (not reduced) */
    double (*dense_residual)(hpls_backend *be, const hpls_ddense *A, const hpls_dvec *b,
                             const hpls_dvec *x, hpls_dvec *r);
    /* ---- kernels/device/block.c: many right-hand sides ---- */
    /* B and X (n x k, column-major) copied to the device */
    hpls_status (*block_create)(hpls_backend *be, hpls_int n, hpls_int k, const hpls_real *B,
                                const hpls_real *X, hpls_dblock **dB);
    void (*block_release)(hpls_backend *be, hpls_dblock *dB); /* accepts NULL */
    /* the active columns: cols[0 .. na) */
    void (*block_columns)(hpls_backend *be, hpls_dblock *D, const hpls_int *cols, hpls_int na);
    /* R = B - A X of the active columns, ss[c]: column cols[c]'s sum of
     * squares, reduced over the device (not over processes) */
    void (*block_residual)(hpls_backend *be, hpls_dblock *D, const hpls_dmat *A, double *ss);
    /* X += omega D^-1 R on the active columns (jacobi) */
    void (*block_jacobi)(hpls_backend *be, hpls_dblock *D, double omega, const hpls_dvec *dinv);
    void (*block_download)(hpls_backend *be, const hpls_dblock *D, hpls_real *X); /* all k */
} hpls_devops;

/* Every member of hpls_devops, for its one table (kernels/device/devops.c:
 * .m = hpls_devop_m for each).  A member missing here fails the assertion, a
 * name here without a member or without its hpls_devop_ function fails the
 * table's compile: no entry can be a NULL call on a device. */
#define HPLS_DEVOPS(X)                                                                             \
    X(csr_upload)                                                                                  \
    X(csr_release)                                                                                 \
    X(spmv)                                                                                        \
    X(residual)                                                                                    \
    X(tri_upload)                                                                                  \
    X(tri_release)                                                                                 \
    X(tri_solve)                                                                                   \
    X(sweep_upload)                                                                                \
    X(sweep_release)                                                                               \
    X(sweep)                                                                                       \
    X(auto_sweep)                                                                                  \
    X(fac_build)                                                                                   \
    X(fac_release)                                                                                 \
    HPLS_DEVOPS_METHODS(X)                                                                         \
    HPLS_DEVOPS_TRIDIAG(X)
/* dense A, many right-hand sides (kernels/device/dense.c, block.c) */
#define HPLS_DEVOPS_METHODS(X)                                                                     \
    X(dense_upload)                                                                                \
    X(dense_release)                                                                               \
    X(gemv)                                                                                        \
    X(dense_residual)                                                                              \
    X(block_create)                                                                                \
    X(block_release)                                                                               \
    X(block_columns)                                                                               \
    X(block_residual)                                                                              \
    X(block_jacobi)                                                                                \
    X(block_download)
/* kernels/device/tridiag_direct.c's */
#define HPLS_DEVOPS_TRIDIAG(X) X(tfac_factor) X(tfac_release) X(tfac_solve) X(tfac_stats)
#define HPLS_DEVOPS_ONE_(m) +1
_Static_assert(sizeof(hpls_devops) == (0 HPLS_DEVOPS(HPLS_DEVOPS_ONE_)) * sizeof(void (*)(void)),
               "a member of hpls_devops is missing from HPLS_DEVOPS");

struct hpls_backend {
    const char *name; /* "cpu", "ref", "opencl", "cuda" */
    const hpls_vops *v;
    const hpls_kernels *k;
    const hpls_devops *d; /* a device backend's operator kernels; NULL on host backends */
    int nthreads;         /* threads of every parallel region run for this backend */
    int host_arrays;      /* 1: a handle is the host array itself (attach copies nothing) */
    int exact;            /* 1: reproducible=1, every sum exact (hpls_cpu_set_exact) */
    /* The host CSR kernels' software prefetch (HPLS_PF_*, kernels/cpu/spmv.c);
     * under prefetch=auto (pf_auto, hpls_be_spmv): the products timed so far
     * (pf_timed; -1 once chosen), the round, the candidate timed next and
     * each candidate's best time so far. */
    int pf, pf_auto, pf_timed, pf_round, pf_next;
    double pf_best[HPLS_PF_COUNT];
    /* applied to every local partial sum (k values in place); NULL: one process */
    hpls_status (*reduce)(hpls_backend *be, double *vals, int k, hpls_red_op op);
    void *reduce_ctx;
    void (*reduce_free)(void *ctx); /* frees reduce_ctx at destroy (NULL: nothing to free) */
    void (*fini)(hpls_backend *be); /* undoes the kind's start (hpls_backend_destroy) */
    hpls_status err;                /* the first failure (sticky), HPLS_OK if none */
    char msg[256];                  /* its message */
    void *impl;                     /* the backend's own state (ref: its vector registry) */
};

/* y = A x on host arrays with the backend's prefetch variant; while
 * prefetch=auto measures, each product runs the next candidate and is timed
 * (every candidate gives the same bits), and the last picks the fastest. */
void hpls_be_spmv(hpls_backend *be, const hpls_csr *A, const hpls_real *x, hpls_real *y);
/* Fixes the variant (pf < HPLS_PF_COUNT) or starts prefetch=auto's
 * measurement (pf == HPLS_PF_COUNT). */
void hpls_be_set_prefetch(hpls_backend *be, int pf);
/* A variant's name ("rows+x-l2"; HPLS_PF_COUNT: "auto"), as the option spells it. */
const char *hpls_be_pf_name(int pf);
/* The variant in words: "rows+x-l2", "auto: rows-l2" once chosen, or
 * "auto: measuring (5 products timed)"; buf holds at least 64 bytes. */
const char *hpls_be_prefetch(const hpls_backend *be, char *buf, size_t len);

/* Names of the backends, for --help and errors (opencl answers
 * HPLS_ERR_NOT_COMPILED in a library built without it), in the order of
 * their indices (backend.c's table checks the count; test_backend the names). */
#define HPLS_BACKEND_NAMES "cpu,ref,opencl,cuda"
enum {
    HPLS_BACKEND_CPU,
    HPLS_BACKEND_REF,
    HPLS_BACKEND_OPENCL,
    HPLS_BACKEND_CUDA,
    HPLS_BACKEND_COUNT
};
/* The name of backend index which (NULL: none). */
const char *hpls_backend_kind_name(int which);

/* A backend by index into HPLS_BACKEND_NAMES, running on nthreads threads
 * (cpu; 0: OpenMP's default now; ref always runs on one). */
hpls_status hpls_backend_create(int which, int nthreads, hpls_backend **be);
void hpls_backend_destroy(hpls_backend *be); /* accepts NULL */
/* Records the first failure (later ones are dropped) and returns st. */
hpls_status hpls_be_fail(hpls_backend *be, hpls_status st, const char *fmt, ...) HPLS_PRINTF(3, 4);
/* Clears the sticky error (at the start of a solve). */
void hpls_be_clear(hpls_backend *be);

/* The backend's reduction of k local values (identity without a hook). */
static inline void hpls_be_reduce(hpls_backend *be, double *vals, int k, hpls_red_op op)
{
    if (be->reduce) {
        hpls_status st = be->reduce(be, vals, k, op);
        if (st != HPLS_OK)
            hpls_be_fail(be, st, "reduction of %d values failed", k);
    }
}

/* 1 when be's reductions are collective (the mpi backend: each one an
 * MPI_Allreduce, a message round over the ranks), so that a method fuses
 * two of them even where that costs it some work (cg). */
static inline int hpls_be_collective(const hpls_backend *be)
{
    return be->reduce != NULL;
}

/* ||r|| from ss, the (reduced) sum of squares of r: its square root, or a
 * scaled pass over r when ss under- or overflowed. */
double hpls_be_norm(hpls_backend *be, hpls_int n, double ss, const hpls_dvec *r);

/* A vector holding the host array h of n values: h itself on a backend whose
 * vectors are host arrays, else a new vector (with h's values if copy).
 * detach ends it: the values go back to h (if copy) and a copy is freed. */
hpls_status hpls_be_attach(hpls_backend *be, hpls_int n, hpls_real *h, int copy, hpls_dvec **v);
void hpls_be_detach(hpls_backend *be, hpls_int n, hpls_dvec *v, hpls_real *h, int copy);
/* A new vector with the n host values h. */
hpls_status hpls_be_vector(hpls_backend *be, hpls_int n, const hpls_real *h, hpls_dvec **v);

/* ---- the helpers methods call: one line per operation ------------------- */
static inline void hpls_v_copy(hpls_backend *be, hpls_int n, const hpls_dvec *x, hpls_dvec *y)
{
    be->v->copy(be, n, x, y);
}
static inline void hpls_v_set(hpls_backend *be, hpls_int n, double a, hpls_dvec *y)
{
    be->v->set(be, n, a, y);
}
static inline void hpls_v_scale(hpls_backend *be, hpls_int n, double a, hpls_dvec *y)
{
    be->v->scale(be, n, a, y);
}
static inline void hpls_v_axpy(hpls_backend *be, hpls_int n, double a, const hpls_dvec *x,
                               hpls_dvec *y)
{
    be->v->axpy(be, n, a, x, y);
}
static inline void hpls_v_axpby(hpls_backend *be, hpls_int n, double a, const hpls_dvec *x,
                                double b, hpls_dvec *y)
{
    be->v->axpby(be, n, a, x, b, y);
}
static inline void hpls_v_xpay(hpls_backend *be, hpls_int n, const hpls_dvec *x, double a,
                               hpls_dvec *y)
{
    be->v->xpay(be, n, x, a, y);
}
static inline void hpls_v_waxpy(hpls_backend *be, hpls_int n, double a, const hpls_dvec *x,
                                const hpls_dvec *y, hpls_dvec *w)
{
    be->v->waxpy(be, n, a, x, y, w);
}
static inline void hpls_v_axpbypcz(hpls_backend *be, hpls_int n, double a, const hpls_dvec *x,
                                   double b, const hpls_dvec *y, double c, hpls_dvec *z)
{
    be->v->axpbypcz(be, n, a, x, b, y, c, z);
}
static inline void hpls_v_pmult(hpls_backend *be, hpls_int n, const hpls_dvec *x,
                                const hpls_dvec *y, hpls_dvec *z)
{
    be->v->pmult(be, n, x, y, z);
}
static inline void hpls_v_diag_axpy(hpls_backend *be, hpls_int n, double a, const hpls_dvec *d,
                                    const hpls_dvec *x, hpls_dvec *y)
{
    be->v->diag_axpy(be, n, a, d, x, y);
}
static inline double hpls_v_dot(hpls_backend *be, hpls_int n, const hpls_dvec *x,
                                const hpls_dvec *y)
{
    return be->v->dot(be, n, x, y);
}
static inline double hpls_v_nrm2(hpls_backend *be, hpls_int n, const hpls_dvec *x)
{
    return be->v->nrm2(be, n, x);
}
static inline void hpls_v_mdot(hpls_backend *be, hpls_int n, int k, const hpls_dvec *const *V,
                               const hpls_dvec *w, double *h)
{
    be->v->mdot(be, n, k, V, w, h);
}
static inline void hpls_v_maxpy(hpls_backend *be, hpls_int n, int k, const double *a,
                                const hpls_dvec *const *V, double beta, hpls_dvec *w)
{
    be->v->maxpy(be, n, k, a, V, beta, w);
}
static inline void hpls_v_mdot2(hpls_backend *be, hpls_int n, int k, const hpls_dvec *const *V,
                                const hpls_dvec *x, const hpls_dvec *y, double *h)
{
    be->v->mdot2(be, n, k, V, x, y, h);
}
static inline void hpls_v_maxpy2(hpls_backend *be, hpls_int n, int k, const hpls_dvec *const *V,
                                 const double *a, double alpha, hpls_dvec *x, const double *b,
                                 double beta, double gamma, hpls_dvec *y)
{
    be->v->maxpy2(be, n, k, V, a, alpha, x, b, beta, gamma, y);
}
static inline hpls_int hpls_v_finite(hpls_backend *be, hpls_int n, const hpls_dvec *x, double *bad)
{
    return be->v->finite(be, n, x, bad);
}
/* For host kernels only (operators, preconditioners, sweeps): the array behind v. */
static inline hpls_real *hpls_v_host(hpls_backend *be, const hpls_dvec *v)
{
    return be->v->host(be, v);
}

/* An hpls_vops of the functions named p##op (v_axpy ...) and of family
 * HPLS_KF_##fam: each backend's table has every operation and its family, or
 * does not compile. */
#define HPLS_VOPS_OF(p, fam)                                                                       \
    {                                                                                              \
        .alloc = p##alloc, .release = p##release, .upload = p##upload, .download = p##download,    \
        .host = p##host, .copy = p##copy, .set = p##set, .scale = p##scale, .axpy = p##axpy,       \
        .axpby = p##axpby, .xpay = p##xpay, .waxpy = p##waxpy, .axpbypcz = p##axpbypcz,            \
        .pmult = p##pmult, .diag_axpy = p##diag_axpy, .dot = p##dot, .nrm2 = p##nrm2,              \
        .mdot = p##mdot, .maxpy = p##maxpy, .mdot2 = p##mdot2, .maxpy2 = p##maxpy2,                \
        .finite = p##finite, .family = HPLS_KF_##fam                                               \
    }

/* The vector operations of each backend (kernels/cpu/blas1.c, kernels/ref/ref.c). */
extern const hpls_vops hpls_cpu_vops, hpls_ref_vops;
extern const hpls_kernels hpls_cpu_kernels, hpls_ref_kernels;
/* The backends' own state: cpu, its scratch of partial sums; ref, its
 * registry of live vectors. */
hpls_status hpls_cpu_init(hpls_backend *be);
void hpls_cpu_fini(hpls_backend *be);
/* reproducible=1 on a cpu backend: its reductions and the sums of squares of
 * its kernels become exact (kernels/cpu/exact_sum.h), so they give the same
 * bits on any number of threads and, through an mpi backend's hook, ranks. */
hpls_status hpls_cpu_set_exact(hpls_backend *be);
hpls_status hpls_ref_init(hpls_backend *be);
void hpls_ref_fini(hpls_backend *be);
/* The device backends run the one device host layer (kernels/device/devhost.h:
 * be->v, be->d and be->impl are its) on a table of primitives each: opencl's
 * (HPLS_HAVE_OPENCL, kernels/opencl/opencl.c; the device, context and program
 * are made at the first init of the process and kept), and cuda's, in the
 * optional module libhpls_cuda.so loaded at the first init (backend/cuda_loader.c). */
struct hpls_devtab;
extern const struct hpls_devtab hpls_opencl_tab;
hpls_status hpls_cuda_init(hpls_backend *be);
hpls_status hpls_cuda_devices(FILE *out);

/* Prints the devices each device backend could run on (hpls info --devices). */
hpls_status hpls_backend_devices(FILE *out);

#endif /* HPLS_BACKEND_H */
