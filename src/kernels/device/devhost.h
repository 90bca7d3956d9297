/* SPDX-License-Identifier: BSD-3-Clause */
/* devhost.h: the host side of every device backend, written once.  The
 * vector operations, the reductions, the uploads of CSR matrices, tridiagonal
 * blocks and sweeps, and every hpls_devops entry (devhost.c, devops.c) call
 * only the functions below, which run on a small table of primitives
 * (hpls_devtab) that each device backend implements:
 *
 *   opencl  kernels/opencl/opencl.c, in libhpls (OpenCL 1.2 host API)
 *   cuda    kernels/cuda/cuda.c, in the module libhpls_cuda.so (CUDA runtime),
 *           which hands libhpls its table through hpls_cuda_entry
 *
 * so the same host code drives the same kernels (the .cl files of kernels/device, listed
 * in kernels.h) on either, and a method's device code is compiled once, into
 * libhpls, and never sees OpenCL or CUDA.  docs/gpu.md ("Adding a kernel")
 * says how a new method adds its kernels.
 *
 * Errors: the primitives report with hpls_fail (what failed and why: "kernel
 * v_axpy: out of resources (-5)"; init says whose: "cuda backend: ...") and
 * return the status.  The setup functions here (alloc, upload) return it as
 * well; the ones a solve calls (write, read, copy, zero, launch, sync, the
 * reductions) do nothing once be->err is set and record their own failure
 * there, as "<backend> backend: <message>" (sticky), as every vector
 * operation does. */
#ifndef HPLS_DEVHOST_H
#define HPLS_DEVHOST_H

#include "backend/backend.h"
#include "kernels/device/kernels.h"
#include "kernels/device/sizes.h"

#include <stddef.h>
#include <stdio.h>

/* Groups of a reduction at most on a CPU device (its partials per column; a
 * GPU's: hpls_dev_gpu_red_groups), and those of an element-wise kernel (the
 * work-group size HPLS_DEV_WG: sizes.h). */
enum { HPLS_DEV_NGMAX = 256, HPLS_DEV_GMAX = 4 * HPLS_DEV_NGMAX };
/* A GPU's reduction groups a compute unit (16 x 128 items: the 2048 threads
 * an SM holds since Volta), and the most on any device (the partials buffer
 * holds this many doubles a column: 64 KiB). */
enum { HPLS_DEV_RED_PER_UNIT = 16, HPLS_DEV_RED_MAX = 1 << 13 };
/* A reduction's operation (vector.cl's RED_SUM, RED_MAX, RED_MIN). */
enum { HPLS_DEV_SUM, HPLS_DEV_MAX, HPLS_DEV_MIN };

/* A buffer in device memory: the backend's own handle (a cl_mem, a CUDA
 * device pointer), never dereferenced on the host. */
typedef struct hpls_dbuf hpls_dbuf;

/* One kernel argument: kind is its letter in kernels.h's signature. */
typedef struct hpls_karg {
    char kind;
    union {
        long long l;          /* idx_t */
        int i;                /* int */
        unsigned long long u; /* u64_t */
        double d;             /* double */
        hpls_dbuf *g;         /* GLOBAL T *: the buffer's handle */
    } v;
} hpls_karg;
#define HPLS_KL(x) ((hpls_karg){.kind = 'l', .v.l = (long long)(x)})
#define HPLS_KI(x) ((hpls_karg){.kind = 'i', .v.i = (int)(x)})
#define HPLS_KU(x) ((hpls_karg){.kind = 'u', .v.u = (unsigned long long)(x)})
#define HPLS_KD(x) ((hpls_karg){.kind = 'd', .v.d = (double)(x)})
#define HPLS_KG(b) ((hpls_karg){.kind = 'g', .v.g = (hpls_dbuf *)(b)})
#define HPLS_KV(vec) HPLS_KG(hpls_dev_vbuf(vec))

typedef struct hpls_dev hpls_dev;

/* What a device backend implements.  Every member reports a failure with
 * hpls_fail and returns its status; none looks at be->err. */
typedef struct hpls_devtab {
    /* the device, this backend's queue or stream and kernels: sets
     * dev->native, dev->cpu and dev->lib (HPLS_ERR_UNSUPPORTED with a
     * message when there is no platform, driver, device or kernel image) */
    hpls_status (*init)(hpls_backend *be, hpls_dev *dev);
    void (*fini)(hpls_backend *be, hpls_dev *dev); /* what init made (after a failed init too) */
    hpls_status (*alloc)(hpls_backend *be, size_t bytes, hpls_dbuf **b); /* bytes >= 1 */
    void (*release)(hpls_backend *be, hpls_dbuf *b);                     /* accepts NULL */
    /* bytes to (from) the buffer at byte off; both return when the host
     * memory may be reused, read after the work queued before it */
    hpls_status (*write)(hpls_backend *be, hpls_dbuf *b, size_t off, const void *h, size_t bytes);
    hpls_status (*read)(hpls_backend *be, const hpls_dbuf *b, size_t off, void *h, size_t bytes);
    /* queued, in order with the launches */
    hpls_status (*copy)(hpls_backend *be, const hpls_dbuf *src, size_t soff, hpls_dbuf *dst,
                        size_t doff, size_t bytes);
    hpls_status (*zero)(hpls_backend *be, hpls_dbuf *b, size_t off, size_t bytes);
    /* kernel (HPLS_K_*) on groups work-groups of local items; a[0..na) in
     * the kernel's order, checked against its signature by the caller */
    hpls_status (*launch)(hpls_backend *be, int kernel, size_t groups, size_t local,
                          const hpls_karg *a, int na);
    hpls_status (*sync)(hpls_backend *be); /* waits for everything queued */
    void (*devices)(FILE *out);            /* hpls info --devices: what is there, what is usable */
} hpls_devtab;
/* Every member, for a backend's table ({HPLS_DEVTAB(X)} with X(m) giving
 * .m = its function): a member missing here fails the assertion, a backend
 * without one of the functions fails its compile. */
#define HPLS_DEVTAB(X)                                                                             \
    X(init)                                                                                        \
    X(fini) X(alloc) X(release) X(write) X(read) X(copy) X(zero) X(launch) X(sync) X(devices)
#define HPLS_DEVTAB_ONE_(m) +1
_Static_assert(sizeof(hpls_devtab) == (0 HPLS_DEVTAB(HPLS_DEVTAB_ONE_)) * sizeof(void (*)(void)),
               "a member of hpls_devtab is missing from HPLS_DEVTAB");

/* A vendor library's routines in place of the layer's kernels (the cuda
 * backend's HPLS_CUDA_SPMV=cusparse and HPLS_CUDA_DOT=cublas); a NULL member
 * is not replaced. */
typedef struct hpls_devlib {
    /* the library's view of an uploaded CSR matrix (ci, val: its device
     * arrays), or *view NULL when it cannot take A (ours is used then) */
    hpls_status (*csr_view)(hpls_backend *be, const hpls_csr *A, hpls_dbuf *ci, hpls_dbuf *val,
                            void **view);
    void (*csr_unview)(hpls_backend *be, void *view); /* accepts NULL */
    /* y = alpha A x + beta y */
    hpls_status (*spmv)(hpls_backend *be, void *view, double alpha, const hpls_dbuf *x, double beta,
                        hpls_dbuf *y);
    /* *s = (x, y), unreduced */
    hpls_status (*dot)(hpls_backend *be, hpls_int n, const hpls_dbuf *x, const hpls_dbuf *y,
                       double *s);
} hpls_devlib;

/* The layer's state of one backend (be->impl). */
struct hpls_dev {
    const hpls_devtab *t;
    void *native;           /* the backend's own: its queue, kernel objects, handles */
    int cpu;                /* 1: a CPU device (PoCL), whose work-groups the OS may preempt */
    size_t syncfree_groups; /* of a sync-free launch (HPLS_DEV_SYNCFREE_GROUPS unless init
                               sets the GPU's: hpls_dev_gpu_syncfree_groups) */
    int red_groups;         /* of a reduction's first stage at most (HPLS_DEV_NGMAX unless
                               init sets the GPU's: hpls_dev_gpu_red_groups) */
    size_t syncfree_lanes;  /* most lanes a sync-free sweep gives a row (1: a CPU device;
                               HPLS_DEV_GPU_LANES on a GPU; sweep.cl) */
    const hpls_devlib *lib; /* NULL: the layer's kernels only */
    hpls_dbuf *part, *out;  /* reductions: partials (red_groups x cap), results (cap) */
    int cap;
};

/* The tables every device backend runs (devhost.c, devops.c). */
extern const hpls_vops hpls_dev_vops;
extern const hpls_devops hpls_dev_devops;

/* be (name, nthreads set) as a device backend on tab: the layer's state,
 * be->v and be->d, then tab->init.  destroy undoes it (hpls_backend_destroy). */
hpls_status hpls_dev_create(hpls_backend *be, const hpls_devtab *tab);
void hpls_dev_destroy(hpls_backend *be);

static inline hpls_dev *hpls_dev_of(const hpls_backend *be)
{
    return (hpls_dev *)be->impl;
}
/* the backend's own state (its primitives' way in) */
static inline void *hpls_dev_native(const hpls_backend *be)
{
    return hpls_dev_of(be)->native;
}
/* 1 on a CPU device: a work-group spinning on another's rows may starve it */
static inline int hpls_dev_cpu(const hpls_backend *be)
{
    return hpls_dev_of(be)->cpu;
}

/* A device backend's vector (the hpls_dvec its methods hold). */
struct hpls_devvec {
    hpls_dbuf *m;
    hpls_int n;
};
static inline hpls_dbuf *hpls_dev_vbuf(const hpls_dvec *v)
{
    return ((const struct hpls_devvec *)v)->m;
}

/* The name of kernel k (HPLS_K_*), for messages. */
const char *hpls_dev_kernel_name(int k);

/* ---- buffers ------------------------------------------------------------- */
/* A zero-filled buffer of bytes (an empty one holds 8 bytes nobody reads). */
hpls_status hpls_dev_alloc(hpls_backend *be, size_t bytes, hpls_dbuf **b);
/* A buffer holding a copy of the bytes at h (bytes 0: as alloc). */
hpls_status hpls_dev_upload(hpls_backend *be, const void *h, size_t bytes, hpls_dbuf **b);
void hpls_dev_free(hpls_backend *be, hpls_dbuf *b); /* accepts NULL */
/* st, with the message "<backend> backend: <fmt...>: <the last error>" (a
 * setup function's failure after a primitive's or hpls_dev_alloc's) */
hpls_status hpls_dev_fail(hpls_backend *be, hpls_status st, const char *fmt, ...) HPLS_PRINTF(3, 4);
void hpls_dev_write(hpls_backend *be, hpls_dbuf *b, size_t off, const void *h, size_t bytes);
void hpls_dev_read(hpls_backend *be, const hpls_dbuf *b, size_t off, void *h, size_t bytes);
void hpls_dev_copy(hpls_backend *be, const hpls_dbuf *src, size_t soff, hpls_dbuf *dst, size_t doff,
                   size_t bytes);
void hpls_dev_zero(hpls_backend *be, hpls_dbuf *b, size_t off, size_t bytes);
void hpls_dev_sync(hpls_backend *be);

/* ---- launching ----------------------------------------------------------- */
/* kernel k on groups work-groups of local items with a[0..na) (nothing once
 * be->err is set; arguments that do not match kernels.h's signature are an
 * HPLS_ERR_INTERNAL naming the kernel and the argument) */
void hpls_dev_launch(hpls_backend *be, int k, size_t groups, size_t local, const hpls_karg *a,
                     int na);
#define HPLS_DEV_RUN(be, k, groups, ...) HPLS_DEV_RUNL(be, k, groups, HPLS_DEV_WG, __VA_ARGS__)
#define HPLS_DEV_RUNL(be, k, groups, local, ...)                                                   \
    hpls_dev_launch(be, k, groups, local, HPLS_KARGS(__VA_ARGS__))
/* an argument list as an array and its length */
#define HPLS_KARGS(...)                                                                            \
    (const hpls_karg[]){__VA_ARGS__},                                                              \
        (int)(sizeof((const hpls_karg[]){__VA_ARGS__}) / sizeof(hpls_karg))
/* groups of an element-wise kernel over n (each item strides over the rest) */
size_t hpls_dev_groups(hpls_int n);
/* groups of a reduction over n: at most the device's red_groups partials a column */
int hpls_dev_rgroups(const hpls_backend *be, hpls_int n);

/* ---- reductions in two stages -------------------------------------------- */
/* The partials buffer with room for ncol columns (a kernel's group g writes
 * column c at part[g * ncol + c]); NULL after a failure. */
hpls_dbuf *hpls_dev_part(hpls_backend *be, int ncol);
/* The second stage: ncol columns of ng partials combined by op (in a fixed
 * order: red_final) into h, read back once; NaN after a failure, so a method
 * stops at its next test.  be->reduce is the caller's. */
void hpls_dev_reduce_part(hpls_backend *be, int ng, int ncol, int op, double *h);

/* ---- sync-free launches (sweep.cl, factor.cl, relax.cl) ------------------ */
/* A sync-free kernel's flag buffer: n + 3 words, the rows' ready flags
 * (launches done per row), the row ticket, the stall word and the
 * watchdog's bound (vector.cl's ready_wait). */
typedef struct hpls_dready {
    hpls_dbuf *flag;
    hpls_int n;
    unsigned long long epoch; /* launches started since the flags were zero */
    int stale;                /* a launch failed: its rows' flags may lag the epoch */
} hpls_dready;
/* The watchdog's bound: the spins a wait for a row's flag may last.  A
 * healthy wait lasts until the rows claimed before it are done: on a GPU the
 * at most syncfree_groups rows in flight, microseconds; on a CPU
 * device until the OS runs the thread holding the row, a scheduling period
 * (tens of ms; the waiter counts only while it runs).  A spin is at least
 * one atomic read of device memory, some 5 ns on a CPU and 100 ns or more
 * (an L2 round trip) on a GPU: 2^28 spins are over a second on a CPU and
 * half a minute on a GPU, far beyond a healthy wait, yet a stall ends as an
 * error, not a hang. */
#define HPLS_DEV_SPINS (1ull << 28)
hpls_status hpls_dev_ready_alloc(hpls_backend *be, hpls_int n, hpls_dready *R);
void hpls_dev_ready_free(hpls_backend *be, hpls_dready *R);
/* The sync-free kernel k on the device's sync-free groups (hpls_dev's
 * syncfree_groups; serial: one, which takes the rows in order) of `lanes`
 * items (1 unless k takes a row per group: sweep_syncfree_lanes)
 * with a[0..na) and then R's flags and epoch.  Nothing once be->err is set (the epoch
 * stays); after a failed launch the flags are zeroed before the next.  A
 * wait past the watchdog's bound is be's HPLS_ERR_INTERNAL naming k and the
 * row that never became ready. */
void hpls_dev_syncfree(hpls_backend *be, hpls_dready *R, int k, int serial, size_t lanes,
                       const hpls_karg *a, int na);
/* Test hooks: the k-th device write from now (hpls_dev_write or
 * hpls_dev_zero) fails (k >= 1; 0: none), and the watchdog's bound (0:
 * HPLS_DEV_SPINS) */
void hpls_dev_write_fail_at(long k);
void hpls_dev_spin_bound(unsigned long long spins);

/* ---- the layer's device objects ----------------------------------------- */
/* A triangular sweep on the device (devops.c's sweep_upload; dilu's device
 * construction, factor.c, writes its values in place). */
struct hpls_dsweep {
    hpls_dbuf *lo, *hi, *row, *order;     /* row, order: optional (NULL) */
    hpls_dbuf *col, *val, *bscale, *dinv; /* bscale, dinv: optional */
    hpls_dready ready;                    /* syncfree, serial */
    hpls_int n, nlev, *off;               /* off: the level sets' nlev + 1 offsets, on the host */
    size_t lanes;                         /* of a sync-free sweep's rows (devops.c: lanes_for) */
    int upper, scaled;                    /* scaled: 1 bscale, 2 dinv (sweep.cl) */
};

/* Work-groups of one item that run a syncfree kernel (sweep.cl says why
 * one) on a CPU device: as many as its threads could ever run at once.  A
 * GPU's backend sets more (hpls_dev's syncfree_groups): one row is in flight
 * per resident group, and 64 would leave a GPU of 132 SMs almost idle (a
 * level of poisson3d 100^3 holds 3356 rows on average; docs/gpu_model.md). */
enum { HPLS_DEV_SYNCFREE_GROUPS = 64 };
/* A GPU's lanes a row of a sync-free sweep: a warp (32 on NVIDIA; half an
 * AMD wave).  A row of m entries then waits for its x_j in ceil(m / 32)
 * rounds instead of m one after another. */
enum { HPLS_DEV_GPU_LANES = 32 };
/* A GPU's sync-free groups: every group it can hold resident (each of one
 * item takes a block slot), blocks_per_unit x units; surplus groups only
 * queue (a group claims a row once it runs), so the count is safe at any
 * size.  At least the CPU's count.  Inline: the cuda module, which links
 * none of libhpls's internals, calls it too. */
static inline size_t hpls_dev_gpu_syncfree_groups(int units, int blocks_per_unit)
{
    size_t g =
        (size_t)(units > 0 ? units : 1) * (size_t)(blocks_per_unit > 0 ? blocks_per_unit : 1);
    return g > HPLS_DEV_SYNCFREE_GROUPS ? g : HPLS_DEV_SYNCFREE_GROUPS;
}

/* A GPU's reduction groups: HPLS_DEV_RED_PER_UNIT a unit, so the first stage
 * fills every unit (256 groups of 128 items, a CPU's count, keep 32768 loads in
 * flight: a fifth of an H100's resident threads); within [HPLS_DEV_NGMAX,
 * HPLS_DEV_RED_MAX].  Inline for the cuda module, as the one above. */
static inline int hpls_dev_gpu_red_groups(int units)
{
    long g = (long)(units > 0 ? units : 1) * HPLS_DEV_RED_PER_UNIT;
    return g < HPLS_DEV_NGMAX ? HPLS_DEV_NGMAX : g > HPLS_DEV_RED_MAX ? HPLS_DEV_RED_MAX : (int)g;
}

/* factor.c: dilu/dic's and ilu0's constructions on the device (backend.h's
 * hpls_devops) */
struct hpls_trifac;
hpls_status hpls_devop_fac_build(hpls_backend *be, struct hpls_trifac *F, int kind, int strategy,
                                 hpls_int *bad, hpls_int *asym, double *pivot);
void hpls_devop_fac_release(hpls_backend *be, hpls_dfac *D);

/* ---- the methods' device code -------------------------------------------- */
/* A CSR matrix on the device (devops.c uploads it); the methods' kernels read
 * its arrays. */
struct hpls_dmat {
    hpls_dbuf *rp, *ci, *val; /* rowptr (64-bit), colind (32-bit), values */
    hpls_int n;
    int vector; /* 1: csr_spmv_vector */
    void *view; /* the vendor library's view (hpls_devlib), or NULL */
};
/* A dense n x n matrix on the device, row-major (dense.c; pjg.c reads it). */
struct hpls_ddense {
    hpls_dbuf *a;
    hpls_int n;
};

/* dense.c: a dense A (kernels/device/dense.cl) */
hpls_status hpls_devop_dense_upload(hpls_backend *be, const hpls_dense *A, hpls_ddense **out);
void hpls_devop_dense_release(hpls_backend *be, hpls_ddense *D);
void hpls_devop_gemv(hpls_backend *be, const hpls_ddense *A, const hpls_dvec *x, hpls_dvec *y);
double hpls_devop_dense_residual(hpls_backend *be, const hpls_ddense *A, const hpls_dvec *b,
                                 const hpls_dvec *x, hpls_dvec *r);
/* block.c: many right-hand sides (kernels/device/block.cl) */
hpls_status hpls_devop_block_create(hpls_backend *be, hpls_int n, hpls_int k, const hpls_real *B,
                                    const hpls_real *X, hpls_dblock **out);
void hpls_devop_block_release(hpls_backend *be, hpls_dblock *D);
void hpls_devop_block_columns(hpls_backend *be, hpls_dblock *D, const hpls_int *cols, hpls_int na);
void hpls_devop_block_residual(hpls_backend *be, hpls_dblock *D, const hpls_dmat *A, double *ss);
void hpls_devop_block_jacobi(hpls_backend *be, hpls_dblock *D, double omega, const hpls_dvec *dinv);
void hpls_devop_block_download(hpls_backend *be, const hpls_dblock *D, hpls_real *X);

/* ---- the devops entries of the tridiagonal direct solvers (tridiag_direct.c;
 * backend.h's tfac_* members say what they do) ------------------------------ */
hpls_status hpls_devop_tfac_factor(hpls_backend *be, const hpls_tridiag *T, hpls_int block,
                                   int method, const hpls_tridiag_opts *opts, int how,
                                   hpls_dtfac **F);
void hpls_devop_tfac_release(hpls_backend *be, hpls_dtfac *F);
void hpls_devop_tfac_solve(hpls_backend *be, hpls_dtfac *F, const hpls_dvec *b, hpls_dvec *x);
void hpls_devop_tfac_stats(const hpls_dtfac *F, hpls_int *singular, double *rcond);

#endif /* HPLS_DEVHOST_H */
