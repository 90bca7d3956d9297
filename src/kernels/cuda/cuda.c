/* cuda.c: the cuda backend (backend/backend.h) on the CUDA runtime, in the
 * optional module libhpls_cuda.so (kernels/cuda/module.h says how libhpls
 * loads it).  The structure is the opencl backend's (kernels/opencl/opencl.c):
 * vectors are device arrays; every vector operation launches a kernel of
 * kernels/device, the same bodies compiled by nvcc through dialect.h
 * (table.cuh); a reduction is two launches (work-group partials, then one
 * group combines them: red_final) and one copy of its k results to the host,
 * which then pass through be->reduce.  A CSR matrix is uploaded once at setup
 * (hpls_devops) and multiplied by spmv.cl's kernels.
 *
 * Two switches put NVIDIA's libraries in place of our kernels, for a
 * benchmark on a GPU to decide (bench/cuda_switch.sh; nothing here has run on
 * one): HPLS_CUDA_SPMV=cusparse (cusparseSpMV, CSR_ALG2: deterministic) and
 * HPLS_CUDA_DOT=cublas (cublasDdot for dot and mdot).  The default, ours,
 * rounds as ref does where nothing is summed and sums as the opencl backend.
 *
 * Each backend has its own stream (its launches run in order), its cuSPARSE
 * and cuBLAS handles bound to it and its reduction buffers, on device 0
 * (CUDA_VISIBLE_DEVICES picks another). */
#include "kernels/cpu/sptrsv.h"
#include "kernels/cuda/kernels.h"
#include "kernels/cuda/module.h"
#include "precond/trisolve.h"

#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <cusparse.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

extern const void *const hpls_cuda_kernel[]; /* table.cuh: the host stubs */

enum { WG = 128, NGMAX = 256 };     /* block size (dialect.h's WG), blocks of a reduction */
enum { RED_SUM, RED_MAX, RED_MIN }; /* vector.cl's */
/* mean nonzeros per row from which the vector SpMV (VW = 8 lanes a row) is
 * used: below it most of a row's lanes would idle (Bell & Garland) */
enum { VECTOR_MIN_ROW = 16 };

#define K_ENUM(k) K_##k,
#define K_NAME(k) #k,
enum { HPLS_CUDA_KERNELS(K_ENUM) K_COUNT };
static const char *const kernel_names[] = {HPLS_CUDA_KERNELS(K_NAME)};

typedef struct cu_state {
    cudaStream_t q;
    double *part, *out; /* reduction partials (NGMAX x cap), results (cap) */
    int cap;
    cusparseHandle_t sp; /* HPLS_CUDA_SPMV=cusparse, else NULL */
    cublasHandle_t blas; /* HPLS_CUDA_DOT=cublas, else NULL */
} cu_state;

struct cu_vec {
    double *p;
    hpls_int n;
};
#define MEM(v) (((struct cu_vec *)(v))->p)

struct hpls_dmat {
    long long *rp; /* idx_t, 64-bit row pointers */
    int *ci;
    double *val;
    hpls_int n;
    int vector; /* 1: csr_spmv_vector */
    /* cuSPARSE's copy (S->sp and nnz < 2^31): 32-bit row offsets, descriptors, buffer */
    int *rp32;
    cusparseSpMatDescr_t mat;
    cusparseDnVecDescr_t dx, dy;
    void *buf;
};

/* Records a failed call (first failure only) and returns nonzero. */
static int bad(hpls_backend *be, cudaError_t e, const char *what)
{
    if (e == cudaSuccess)
        return 0;
    hpls_be_fail(be, e == cudaErrorMemoryAllocation ? HPLS_ERR_NOMEM : HPLS_ERR_INTERNAL,
                 "cuda backend: %s: %s (%s)", what, cudaGetErrorString(e), cudaGetErrorName(e));
    return 1;
}

static int bad_sparse(hpls_backend *be, cusparseStatus_t e, const char *what)
{
    if (e == CUSPARSE_STATUS_SUCCESS)
        return 0;
    hpls_be_fail(be, e == CUSPARSE_STATUS_ALLOC_FAILED ? HPLS_ERR_NOMEM : HPLS_ERR_INTERNAL,
                 "cuda backend: %s: %s", what, cusparseGetErrorString(e));
    return 1;
}

static int bad_blas(hpls_backend *be, cublasStatus_t e, const char *what)
{
    if (e == CUBLAS_STATUS_SUCCESS)
        return 0;
    hpls_be_fail(be, e == CUBLAS_STATUS_ALLOC_FAILED ? HPLS_ERR_NOMEM : HPLS_ERR_INTERNAL,
                 "cuda backend: %s: %s", what, cublasGetStatusString(e));
    return 1;
}

/* "own" (or unset) or the library's name */
static hpls_status use_library(const char *env, const char *lib, int *on)
{
    const char *v = getenv(env);
    *on = v && strcmp(v, lib) == 0;
    if (!v || !*v || *on || strcmp(v, "own") == 0)
        return HPLS_OK;
    return hpls_fail(HPLS_ERR_OPTION, "cuda backend: %s=%s: expected own or %s", env, v, lib);
}

static void cu_fini(hpls_backend *be)
{
    cu_state *S = be->impl;
    if (!S)
        return;
    cudaFree(S->part);
    cudaFree(S->out);
    if (S->sp)
        cusparseDestroy(S->sp);
    if (S->blas)
        cublasDestroy(S->blas);
    if (S->q)
        cudaStreamDestroy(S->q);
    hpls_free(S);
    be->impl = NULL;
}

static hpls_status cu_init(hpls_backend *be)
{
    int count = 0; /* cudaGetDeviceCount leaves it unchanged when it fails (no driver) */
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess)
        return hpls_fail(HPLS_ERR_UNSUPPORTED,
                         "cuda backend: no usable CUDA driver (cudaGetDeviceCount: %s, %s)",
                         cudaGetErrorName(e), cudaGetErrorString(e));
    if (count < 1)
        return hpls_fail(HPLS_ERR_UNSUPPORTED, "cuda backend: the CUDA driver lists no device");
    struct cudaFuncAttributes fa;
    e = cudaSetDevice(0);
    if (e == cudaSuccess) /* a kernel image (or PTX) this device can run */
        e = cudaFuncGetAttributes(&fa, hpls_cuda_kernel[K_red_final]);
    if (e != cudaSuccess) {
        int major = 0, minor = 0;
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0);
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0);
        return hpls_fail(HPLS_ERR_UNSUPPORTED,
                         "cuda backend: device 0 (compute capability %d.%d) cannot run the "
                         "module's kernels, built for CUDA architectures %s: %s",
                         major, minor, HPLS_CUDA_ARCHS, cudaGetErrorString(e));
    }
    int sparse = 0, blas = 0;
    hpls_status st = use_library("HPLS_CUDA_SPMV", "cusparse", &sparse);
    if (st == HPLS_OK)
        st = use_library("HPLS_CUDA_DOT", "cublas", &blas);
    if (st != HPLS_OK)
        return st;
    cu_state *S = hpls_calloc(1, sizeof *S);
    if (!S)
        return HPLS_ERR_NOMEM;
    be->impl = S;
    e = cudaStreamCreateWithFlags(&S->q, cudaStreamNonBlocking);
    const char *what = "cudaStreamCreate";
    if (e == cudaSuccess && sparse) {
        what = "cusparseCreate";
        if (cusparseCreate(&S->sp) != CUSPARSE_STATUS_SUCCESS ||
            cusparseSetStream(S->sp, S->q) != CUSPARSE_STATUS_SUCCESS)
            e = cudaErrorUnknown;
    }
    if (e == cudaSuccess && blas) {
        what = "cublasCreate";
        if (cublasCreate(&S->blas) != CUBLAS_STATUS_SUCCESS ||
            cublasSetStream(S->blas, S->q) != CUBLAS_STATUS_SUCCESS)
            e = cudaErrorUnknown;
    }
    if (e != cudaSuccess) {
        cu_fini(be);
        return hpls_fail(HPLS_ERR_INTERNAL, "cuda backend: %s failed (%s)", what,
                         cudaGetErrorName(e));
    }
    return HPLS_OK;
}

/* ---- launching ---------------------------------------------------------- */
/* kernel kid on groups blocks of threads threads; args: the address of
 * each argument, of the kernel's exact type (nothing after a failure) */
static void run(hpls_backend *be, int kid, unsigned groups, unsigned threads, void **args)
{
    cu_state *S = be->impl;
    if (be->err != HPLS_OK)
        return;
    dim3 grid = {groups, 1, 1}, block = {threads, 1, 1};
    cudaError_t e = cudaLaunchKernel(hpls_cuda_kernel[kid], grid, block, args, 0, S->q);
    if (e != cudaSuccess) {
        char what[64];
        snprintf(what, sizeof what, "kernel %s", kernel_names[kid]);
        bad(be, e, what);
    }
}
#define RUN(be, kid, groups, ...) run(be, kid, groups, WG, (void *[]){__VA_ARGS__})
#define RUNL(be, kid, groups, threads, ...) run(be, kid, groups, threads, (void *[]){__VA_ARGS__})

/* blocks of an element-wise kernel (each thread strides over the rest) */
static unsigned groups_for(hpls_int n)
{
    hpls_int g = (n + WG - 1) / WG;
    return g < 1 ? 1 : g > 4 * NGMAX ? 4 * NGMAX : (unsigned)g;
}

/* blocks of a reduction: at most NGMAX partials per column */
static int rgroups(hpls_int n)
{
    hpls_int g = (n + WG - 1) / WG;
    return g < 1 ? 1 : g > NGMAX ? NGMAX : (int)g;
}

/* Room for ncol columns of partials and results. */
static int ensure_part(hpls_backend *be, int ncol)
{
    cu_state *S = be->impl;
    if (ncol <= S->cap)
        return be->err == HPLS_OK;
    int cap = ncol < 16 ? 16 : ncol;
    double *part = NULL, *out = NULL;
    if (bad(be, cudaMalloc((void **)&part, (size_t)NGMAX * cap * sizeof(double)),
            "reduction buffer") ||
        bad(be, cudaMalloc((void **)&out, (size_t)cap * sizeof(double)), "reduction buffer")) {
        cudaFree(part);
        return 0;
    }
    cudaFree(S->part);
    cudaFree(S->out);
    S->part = part;
    S->out = out;
    S->cap = cap;
    return be->err == HPLS_OK;
}

/* Waits for the stream (an asynchronous failure shows here). */
static int sync_stream(hpls_backend *be, const char *what)
{
    cu_state *S = be->impl;
    return !bad(be, cudaStreamSynchronize(S->q), what);
}

/* The second stage: ncol columns of ng partials combined by op into h (NaN
 * after a failure, so a method stops at its next test). */
static void finish(hpls_backend *be, int ng, int ncol, int op, double *h)
{
    cu_state *S = be->impl;
    RUN(be, K_red_final, 1, &ng, &ncol, &op, &S->part, &S->out);
    if (be->err == HPLS_OK &&
        !bad(be, cudaMemcpyAsync(h, S->out, (size_t)ncol * sizeof *h, cudaMemcpyDeviceToHost, S->q),
             "reading a reduction"))
        sync_stream(be, "reading a reduction");
    for (int c = 0; be->err != HPLS_OK && c < ncol; c++)
        h[c] = NAN;
}

/* m <= 3 dot products (a[i], b[i]) in one pass into columns col[i] of ncol */
static void dots(hpls_backend *be, hpls_int n, int m, const hpls_dvec *const *a,
                 const hpls_dvec *const *b, const int *col, int ncol)
{
    cu_state *S = be->impl;
    long long nn = n;
    double *A[3], *B[3];
    int c[3];
    for (int i = 0; i < 3; i++) { /* unused pairs repeat the first (not read) */
        A[i] = MEM(a[i < m ? i : 0]);
        B[i] = MEM(b[i < m ? i : 0]);
        c[i] = col[i < m ? i : 0];
    }
    RUN(be, K_dot_part, (unsigned)rgroups(n), &nn, &m, &A[0], &B[0], &A[1], &B[1], &A[2], &B[2],
        &S->part, &ncol, &c[0], &c[1], &c[2]);
}

/* ---- memory ------------------------------------------------------------- */
static hpls_status v_alloc(hpls_backend *be, hpls_int n, hpls_dvec **out)
{
    cu_state *S = be->impl;
    *out = NULL;
    struct cu_vec *v = hpls_malloc(1, sizeof *v);
    if (!v)
        return HPLS_ERR_NOMEM;
    size_t bytes = (size_t)(n > 0 ? n : 1) * sizeof(double);
    v->p = NULL;
    v->n = n;
    cudaError_t e = cudaMalloc((void **)&v->p, bytes);
    if (e == cudaSuccess)
        e = cudaMemsetAsync(v->p, 0, bytes, S->q);
    if (e != cudaSuccess) {
        cudaFree(v->p);
        hpls_free(v);
        return hpls_fail(e == cudaErrorMemoryAllocation ? HPLS_ERR_NOMEM : HPLS_ERR_INTERNAL,
                         "cuda backend: a vector of %lld values: %s", (long long)n,
                         cudaGetErrorString(e));
    }
    *out = (hpls_dvec *)v;
    return HPLS_OK;
}

static void v_release(hpls_backend *be, hpls_dvec *v)
{
    (void)be;
    if (!v)
        return;
    cudaFree(MEM(v));
    hpls_free(v);
}

static void v_upload(hpls_backend *be, hpls_int n, const hpls_real *h, hpls_dvec *v)
{
    cu_state *S = be->impl;
    if (n > 0 && be->err == HPLS_OK &&
        !bad(be, cudaMemcpyAsync(MEM(v), h, (size_t)n * sizeof *h, cudaMemcpyHostToDevice, S->q),
             "upload"))
        sync_stream(be, "upload");
}

static void v_download(hpls_backend *be, hpls_int n, const hpls_dvec *v, hpls_real *h)
{
    cu_state *S = be->impl;
    if (n > 0 && be->err == HPLS_OK &&
        !bad(be, cudaMemcpyAsync(h, MEM(v), (size_t)n * sizeof *h, cudaMemcpyDeviceToHost, S->q),
             "download"))
        sync_stream(be, "download");
}

/* A device vector has no host array: a host kernel that asks is a method or
 * preconditioner not on the device (refused at setup; this is the guard). */
static hpls_real *v_host(hpls_backend *be, const hpls_dvec *v)
{
    hpls_be_fail(be, HPLS_ERR_UNSUPPORTED,
                 "cuda backend: a host kernel asked for the host array of device vector %p",
                 (const void *)v);
    return NULL;
}

/* ---- element-wise operations ------------------------------------------- */
static void v_copy(hpls_backend *be, hpls_int n, const hpls_dvec *x, hpls_dvec *y)
{
    cu_state *S = be->impl;
    if (n > 0 && be->err == HPLS_OK && x != y)
        bad(be,
            cudaMemcpyAsync(MEM(y), MEM(x), (size_t)n * sizeof(double), cudaMemcpyDeviceToDevice,
                            S->q),
            "copy");
}

static void v_set(hpls_backend *be, hpls_int n, double a, hpls_dvec *y)
{
    long long nn = n;
    RUN(be, K_v_set, groups_for(n), &nn, &a, &MEM(y));
}

static void v_scale(hpls_backend *be, hpls_int n, double a, hpls_dvec *y)
{
    long long nn = n;
    RUN(be, K_v_scale, groups_for(n), &nn, &a, &MEM(y));
}

static void v_axpy(hpls_backend *be, hpls_int n, double a, const hpls_dvec *x, hpls_dvec *y)
{
    long long nn = n;
    RUN(be, K_v_axpy, groups_for(n), &nn, &a, &MEM(x), &MEM(y));
}

static void v_axpby(hpls_backend *be, hpls_int n, double a, const hpls_dvec *x, double b,
                    hpls_dvec *y)
{
    long long nn = n;
    RUN(be, K_v_axpby, groups_for(n), &nn, &a, &MEM(x), &b, &MEM(y));
}

static void v_xpay(hpls_backend *be, hpls_int n, const hpls_dvec *x, double a, hpls_dvec *y)
{
    long long nn = n;
    RUN(be, K_v_xpay, groups_for(n), &nn, &MEM(x), &a, &MEM(y));
}

static void v_waxpy(hpls_backend *be, hpls_int n, double a, const hpls_dvec *x, const hpls_dvec *y,
                    hpls_dvec *w)
{
    long long nn = n;
    RUN(be, K_v_waxpy, groups_for(n), &nn, &a, &MEM(x), &MEM(y), &MEM(w));
}

static void v_axpbypcz(hpls_backend *be, hpls_int n, double a, const hpls_dvec *x, double b,
                       const hpls_dvec *y, double c, hpls_dvec *z)
{
    long long nn = n;
    RUN(be, K_v_axpbypcz, groups_for(n), &nn, &a, &MEM(x), &b, &MEM(y), &c, &MEM(z));
}

static void v_pmult(hpls_backend *be, hpls_int n, const hpls_dvec *x, const hpls_dvec *y,
                    hpls_dvec *z)
{
    long long nn = n;
    RUN(be, K_v_pmult, groups_for(n), &nn, &MEM(x), &MEM(y), &MEM(z));
}

static void v_diag_axpy(hpls_backend *be, hpls_int n, double a, const hpls_dvec *d,
                        const hpls_dvec *x, hpls_dvec *y)
{
    long long nn = n;
    RUN(be, K_v_diag_axpy, groups_for(n), &nn, &a, &MEM(d), &MEM(x), &MEM(y));
}

/* w = beta w + sum a[i] V[i]: a launch per vector, w rounded as the ref's loop */
static void v_maxpy(hpls_backend *be, hpls_int n, int k, const double *a, const hpls_dvec *const *V,
                    double beta, hpls_dvec *w)
{
    if (beta == 0.0)
        v_set(be, n, 0.0, w);
    else
        v_scale(be, n, beta, w);
    for (int j = 0; j < k; j++)
        v_axpy(be, n, a[j], V[j], w);
}

static void v_maxpy2(hpls_backend *be, hpls_int n, int k, const hpls_dvec *const *V,
                     const double *a, double alpha, hpls_dvec *x, const double *b, double beta,
                     double gamma, hpls_dvec *y)
{
    long long nn = n;
    for (int j = 0; j < k; j++) {
        double aj = a[j], bj = b[j];
        RUN(be, K_v_axpy2, groups_for(n), &nn, &aj, &bj, &MEM(V[j]), &MEM(x), &MEM(y));
    }
    RUN(be, K_v_maxpy2_end, groups_for(n), &nn, &alpha, &MEM(x), &beta, &gamma, &MEM(y));
}

static void v_bicgstab_p(hpls_backend *be, hpls_int n, const hpls_dvec *r, double beta,
                         double omega, const hpls_dvec *v, hpls_dvec *p)
{
    long long nn = n;
    RUN(be, K_v_bicgstab_p, groups_for(n), &nn, &MEM(r), &beta, &omega, &MEM(v), &MEM(p));
}

/* ---- reductions --------------------------------------------------------- */
/* (x, y) by cuBLAS (HPLS_CUDA_DOT=cublas), unreduced */
static double blas_dot(hpls_backend *be, hpls_int n, const hpls_dvec *x, const hpls_dvec *y)
{
    cu_state *S = be->impl;
    double s = NAN;
    if (be->err == HPLS_OK)
        bad_blas(be, cublasDdot_64(S->blas, n, MEM(x), 1, MEM(y), 1, &s), "cublasDdot");
    return be->err == HPLS_OK ? s : NAN;
}

static double v_dot(hpls_backend *be, hpls_int n, const hpls_dvec *x, const hpls_dvec *y)
{
    cu_state *S = be->impl;
    double s = NAN;
    int c = 0;
    if (S->blas)
        s = blas_dot(be, n, x, y);
    else if (ensure_part(be, 1)) {
        dots(be, n, 1, &x, &y, &c, 1);
        finish(be, rgroups(n), 1, RED_SUM, &s);
    }
    hpls_be_reduce(be, &s, 1, HPLS_RED_SUM);
    return s;
}

/* ||x||: sqrt((x, x)) unless the sum under- or overflowed, then the ref
 * backend's scaled sum (max |x_i| first) */
static double v_nrm2(hpls_backend *be, hpls_int n, const hpls_dvec *x)
{
    cu_state *S = be->impl;
    double ss = v_dot(be, n, x, x);
    if (be->err != HPLS_OK)
        return NAN;
    if (isfinite(ss) && ss > 1e-280 && ss < 1e280)
        return sqrt(ss);
    long long nn = n;
    int ng = rgroups(n);
    double amax = NAN, s = NAN;
    RUN(be, K_amax_part, (unsigned)ng, &nn, &MEM(x), &S->part);
    finish(be, ng, 1, RED_MAX, &amax);
    hpls_be_reduce(be, &amax, 1, HPLS_RED_MAX);
    if (amax == 0.0 || !isfinite(amax))
        return amax;
    RUN(be, K_sscaled_part, (unsigned)ng, &nn, &amax, &MEM(x), &S->part);
    finish(be, ng, 1, RED_SUM, &s);
    hpls_be_reduce(be, &s, 1, HPLS_RED_SUM);
    return amax * sqrt(s);
}

static void v_mdot(hpls_backend *be, hpls_int n, int k, const hpls_dvec *const *V,
                   const hpls_dvec *w, double *h)
{
    cu_state *S = be->impl;
    const hpls_dvec *W[3] = {w, w, w};
    if (S->blas) {
        for (int j = 0; j < k; j++)
            h[j] = blas_dot(be, n, V[j], w);
    } else if (!ensure_part(be, k)) {
        for (int j = 0; j < k; j++)
            h[j] = NAN;
    } else {
        for (int j = 0; j < k; j += 3) { /* three basis vectors a pass over w */
            int col[3] = {j, j + 1, j + 2};
            dots(be, n, k - j < 3 ? k - j : 3, V + j, W, col, k);
        }
        if (k > 0)
            finish(be, rgroups(n), k, RED_SUM, h);
    }
    hpls_be_reduce(be, h, k, HPLS_RED_SUM);
}

static void v_mdot2(hpls_backend *be, hpls_int n, int k, const hpls_dvec *const *V,
                    const hpls_dvec *x, const hpls_dvec *y, double *h)
{
    int ncol = 2 * k + 3;
    if (!ensure_part(be, ncol)) {
        for (int j = 0; j < ncol; j++)
            h[j] = NAN;
        return;
    }
    for (int j = 0; j < k; j++) { /* (V_j, x) and (V_j, y): one pass over V_j */
        const hpls_dvec *a[2] = {V[j], V[j]}, *b[2] = {x, y};
        int col[2] = {j, k + j};
        dots(be, n, 2, a, b, col, ncol);
    }
    const hpls_dvec *a[3] = {x, x, y}, *b[3] = {x, y, y};
    int col[3] = {2 * k, 2 * k + 1, 2 * k + 2};
    dots(be, n, 3, a, b, col, ncol);
    finish(be, rgroups(n), ncol, RED_SUM, h);
    hpls_be_reduce(be, h, ncol, HPLS_RED_SUM);
}

static void v_dot3(hpls_backend *be, hpls_int n, const hpls_dvec *t, const hpls_dvec *s, double *tt,
                   double *ts, double *ss)
{
    double v[3] = {NAN, NAN, NAN};
    if (ensure_part(be, 3)) {
        const hpls_dvec *a[3] = {t, t, s}, *b[3] = {t, s, s};
        int col[3] = {0, 1, 2};
        dots(be, n, 3, a, b, col, 3);
        finish(be, rgroups(n), 3, RED_SUM, v);
    }
    hpls_be_reduce(be, v, 3, HPLS_RED_SUM);
    *tt = v[0];
    *ts = v[1];
    *ss = v[2];
}

static void v_bicgstab_xr(hpls_backend *be, hpls_int n, double alpha, const hpls_dvec *phat,
                          double omega, const hpls_dvec *shat, const hpls_dvec *s,
                          const hpls_dvec *t, const hpls_dvec *rhat, hpls_dvec *x, hpls_dvec *r,
                          double *rnorm, double *rhat_r)
{
    long long nn = n;
    RUN(be, K_v_bicgstab_xr, groups_for(n), &nn, &alpha, &MEM(phat), &omega, &MEM(shat), &MEM(s),
        &MEM(t), &MEM(x), &MEM(r));
    double v[2] = {NAN, NAN};
    if (ensure_part(be, 2)) {
        const hpls_dvec *a[2] = {r, rhat}, *b[2] = {r, r};
        int col[2] = {0, 1};
        dots(be, n, 2, a, b, col, 2);
        finish(be, rgroups(n), 2, RED_SUM, v);
    }
    hpls_be_reduce(be, v, 2, HPLS_RED_SUM);
    *rnorm = hpls_be_norm(be, n, v[0], r);
    *rhat_r = v[1];
}

static double v_hisa_update(hpls_backend *be, hpls_int n, const hpls_dvec *b, const hpls_dvec *y,
                            const hpls_dvec *ynew, hpls_dvec *bp)
{
    cu_state *S = be->impl;
    double s = NAN;
    if (ensure_part(be, 1)) {
        long long nn = n;
        int ng = rgroups(n);
        RUN(be, K_hisa_update_part, (unsigned)ng, &nn, &MEM(b), &MEM(y), &MEM(ynew), &MEM(bp),
            &S->part);
        finish(be, ng, 1, RED_SUM, &s);
    }
    hpls_be_reduce(be, &s, 1, HPLS_RED_SUM);
    return sqrt(s);
}

static hpls_int v_finite(hpls_backend *be, hpls_int n, const hpls_dvec *x, double *bad_value)
{
    cu_state *S = be->impl;
    double first = NAN;
    if (ensure_part(be, 1)) {
        long long nn = n;
        int ng = rgroups(n);
        RUN(be, K_finite_part, (unsigned)ng, &nn, &MEM(x), &S->part);
        finish(be, ng, 1, RED_MIN, &first);
    }
    if (be->err != HPLS_OK || !(first < (double)n))
        return -1;
    hpls_int i = (hpls_int)first;
    if (!bad(be,
             cudaMemcpyAsync(bad_value, MEM(x) + i, sizeof(double), cudaMemcpyDeviceToHost, S->q),
             "reading a non-finite entry"))
        sync_stream(be, "reading a non-finite entry");
    return be->err == HPLS_OK ? i : -1;
}

static const hpls_vops cuda_vops = HPLS_VOPS_OF(v_);

/* ---- CSR on the device -------------------------------------------------- */
static void csr_release(hpls_backend *be, hpls_dmat *A)
{
    (void)be;
    if (!A)
        return;
    if (A->mat)
        cusparseDestroySpMat(A->mat);
    if (A->dx)
        cusparseDestroyDnVec(A->dx);
    if (A->dy)
        cusparseDestroyDnVec(A->dy);
    cudaFree(A->buf);
    cudaFree(A->rp32);
    cudaFree(A->rp);
    cudaFree(A->ci);
    cudaFree(A->val);
    hpls_free(A);
}

/* A device copy of the bytes at h (one byte when there are none: an empty matrix) */
static cudaError_t device_copy(const void *h, size_t bytes, void **d)
{
    cudaError_t e = cudaMalloc(d, bytes ? bytes : 1);
    if (e == cudaSuccess && bytes)
        e = cudaMemcpy(*d, h, bytes, cudaMemcpyHostToDevice);
    return e;
}

/* cuSPARSE's view of D (32-bit offsets: A has fewer than 2^31 entries): the
 * matrix, two vector descriptors re-pointed at every product, and the work
 * buffer cusparseSpMV_bufferSize asks for */
static hpls_status sparse_view(hpls_backend *be, const hpls_csr *A, hpls_dmat *D)
{
    cu_state *S = be->impl;
    int *rp = hpls_malloc(A->nrows + 1, sizeof *rp);
    if (!rp)
        return HPLS_ERR_NOMEM;
    for (hpls_int i = 0; i <= A->nrows; i++)
        rp[i] = (int)A->rowptr[i];
    cudaError_t e = device_copy(rp, (size_t)(A->nrows + 1) * sizeof *rp, (void **)&D->rp32);
    hpls_free(rp);
    double one = 1.0, zero = 0.0;
    size_t size = 0;
    cusparseStatus_t s = CUSPARSE_STATUS_SUCCESS;
    if (e == cudaSuccess)
        s = cusparseCreateCsr(&D->mat, A->nrows, A->ncols, A->nnz, D->rp32, D->ci, D->val,
                              CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                              CUDA_R_64F);
    if (e == cudaSuccess && s == CUSPARSE_STATUS_SUCCESS) /* values: placeholders */
        s = cusparseCreateDnVec(&D->dx, A->ncols, D->val, CUDA_R_64F);
    if (e == cudaSuccess && s == CUSPARSE_STATUS_SUCCESS)
        s = cusparseCreateDnVec(&D->dy, A->nrows, D->val, CUDA_R_64F);
    if (e == cudaSuccess && s == CUSPARSE_STATUS_SUCCESS)
        s = cusparseSpMV_bufferSize(S->sp, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, D->mat, D->dx,
                                    &zero, D->dy, CUDA_R_64F, CUSPARSE_SPMV_CSR_ALG2, &size);
    if (e == cudaSuccess && s == CUSPARSE_STATUS_SUCCESS)
        e = cudaMalloc(&D->buf, size ? size : 1);
    if (s != CUSPARSE_STATUS_SUCCESS)
        return hpls_fail(s == CUSPARSE_STATUS_ALLOC_FAILED ? HPLS_ERR_NOMEM : HPLS_ERR_INTERNAL,
                         "cuda backend: cuSPARSE's view of A: %s", cusparseGetErrorString(s));
    if (e != cudaSuccess)
        return hpls_fail(e == cudaErrorMemoryAllocation ? HPLS_ERR_NOMEM : HPLS_ERR_INTERNAL,
                         "cuda backend: cuSPARSE's view of A: %s", cudaGetErrorString(e));
    return HPLS_OK;
}

static hpls_status csr_upload(hpls_backend *be, const hpls_csr *A, int variant, hpls_dmat **out)
{
    cu_state *S = be->impl;
    *out = NULL;
    hpls_dmat *D = hpls_calloc(1, sizeof *D);
    if (!D)
        return HPLS_ERR_NOMEM;
    D->n = A->nrows;
    cudaError_t e =
        device_copy(A->rowptr, (size_t)(A->nrows + 1) * sizeof *A->rowptr, (void **)&D->rp);
    if (e == cudaSuccess)
        e = device_copy(A->colind, (size_t)A->nnz * sizeof *A->colind, (void **)&D->ci);
    if (e == cudaSuccess)
        e = device_copy(A->val, (size_t)A->nnz * sizeof *A->val, (void **)&D->val);
    hpls_status st = HPLS_OK;
    if (e != cudaSuccess)
        st = hpls_fail(e == cudaErrorMemoryAllocation ? HPLS_ERR_NOMEM : HPLS_ERR_INTERNAL,
                       "cuda backend: a CSR matrix of %lld rows, %lld nonzeros: %s",
                       (long long)A->nrows, (long long)A->nnz, cudaGetErrorString(e));
    D->vector = variant == 2 || (variant == 0 && A->nnz >= (hpls_int)VECTOR_MIN_ROW * A->nrows);
    if (st == HPLS_OK && S->sp && variant == 0 && A->nnz < INT_MAX)
        st = sparse_view(be, A, D);
    if (st != HPLS_OK) {
        csr_release(be, D);
        return st;
    }
    *out = D;
    return HPLS_OK;
}

/* y = alpha A x + beta y by cuSPARSE */
static void sparse_mv(hpls_backend *be, const hpls_dmat *A, double alpha, const hpls_dvec *x,
                      double beta, hpls_dvec *y)
{
    cu_state *S = be->impl;
    if (be->err == HPLS_OK &&
        !bad_sparse(be, cusparseDnVecSetValues(A->dx, MEM(x)), "cusparseDnVecSetValues") &&
        !bad_sparse(be, cusparseDnVecSetValues(A->dy, MEM(y)), "cusparseDnVecSetValues"))
        bad_sparse(be,
                   cusparseSpMV(S->sp, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A->mat, A->dx,
                                &beta, A->dy, CUDA_R_64F, CUSPARSE_SPMV_CSR_ALG2, A->buf),
                   "cusparseSpMV");
}

static void csr_spmv(hpls_backend *be, const hpls_dmat *A, const hpls_dvec *x, hpls_dvec *y)
{
    long long nn = A->n, *rp = A->rp;
    int *ci = A->ci;
    double *val = A->val;
    if (A->mat)
        sparse_mv(be, A, 1.0, x, 0.0, y);
    else if (A->vector)
        RUN(be, K_csr_spmv_vector, groups_for(A->n * 8), &nn, &rp, &ci, &val, &MEM(x), &MEM(y));
    else
        RUN(be, K_csr_spmv_scalar, groups_for(A->n), &nn, &rp, &ci, &val, &MEM(x), &MEM(y));
}

static double csr_residual(hpls_backend *be, const hpls_dmat *A, const hpls_dvec *b,
                           const hpls_dvec *x, hpls_dvec *r)
{
    cu_state *S = be->impl;
    double ss = NAN;
    if (!ensure_part(be, 1))
        return ss;
    long long nn = A->n;
    int ng = rgroups(A->n);
    if (A->mat) { /* r = b, r = b - A x by cuSPARSE, then (r, r) */
        int c = 0;
        v_copy(be, A->n, b, r);
        sparse_mv(be, A, -1.0, x, 1.0, r);
        const hpls_dvec *rr = r;
        dots(be, A->n, 1, &rr, &rr, &c, 1);
    } else if (A->vector) { /* A x by rows of lanes, then r = b - A x with the sum */
        csr_spmv(be, A, x, r);
        RUN(be, K_b_minus_part, (unsigned)ng, &nn, &MEM(b), &MEM(r), &S->part);
    } else {
        long long *rp = A->rp;
        int *ci = A->ci;
        double *val = A->val;
        RUN(be, K_csr_residual_scalar, (unsigned)ng, &nn, &rp, &ci, &val, &MEM(b), &MEM(x), &MEM(r),
            &S->part);
    }
    finish(be, ng, 1, RED_SUM, &ss);
    return ss;
}

/* ---- tridiagonal blocks on the device ------------------------------------ */
struct hpls_dtri {
    double *dl, *d, *du;
    hpls_int n, block;
};

static void tri_release(hpls_backend *be, hpls_dtri *T)
{
    (void)be;
    if (!T)
        return;
    cudaFree(T->dl);
    cudaFree(T->d);
    cudaFree(T->du);
    hpls_free(T);
}

static hpls_status tri_upload(hpls_backend *be, const hpls_tridiag *T, hpls_int block,
                              hpls_dtri **out)
{
    *out = NULL;
    if (block < 1 || block > HPLS_DEVICE_TRI_MAX)
        return hpls_fail(HPLS_ERR_ARG, "cuda backend: tridiagonal blocks of %lld rows (1 to %d)",
                         (long long)block, HPLS_DEVICE_TRI_MAX);
    hpls_dtri *D = hpls_calloc(1, sizeof *D);
    if (!D)
        return HPLS_ERR_NOMEM;
    size_t bytes = (size_t)T->n * sizeof(double);
    *D = (hpls_dtri){.n = T->n, .block = block};
    cudaError_t e = device_copy(T->dl, bytes, (void **)&D->dl);
    if (e == cudaSuccess)
        e = device_copy(T->d, bytes, (void **)&D->d);
    if (e == cudaSuccess)
        e = device_copy(T->du, bytes, (void **)&D->du);
    if (e != cudaSuccess) {
        tri_release(be, D);
        return hpls_fail(e == cudaErrorMemoryAllocation ? HPLS_ERR_NOMEM : HPLS_ERR_INTERNAL,
                         "cuda backend: a tridiagonal matrix of %lld rows: %s", (long long)T->n,
                         cudaGetErrorString(e));
    }
    *out = D;
    return HPLS_OK;
}

/* x = T^-1 b: a block of threads a block of T (strided beyond 4 NGMAX blocks) */
static void tri_solve(hpls_backend *be, const hpls_dtri *T, const hpls_dvec *b, hpls_dvec *x)
{
    long long nn = T->n, bs = T->block;
    double *dl = T->dl, *d = T->d, *du = T->du;
    hpls_int nb = (T->n + T->block - 1) / T->block;
    unsigned groups = nb < 1 ? 1 : nb > 4 * NGMAX ? 4 * NGMAX : (unsigned)nb;
    RUN(be, K_tri_cr, groups, &nn, &bs, &dl, &d, &du, &MEM(b), &MEM(x));
}

/* ---- triangular sweeps (dilu, dic, ilu0) -------------------------------- */
struct hpls_dsweep {
    long long *lo, *hi, *row, *order; /* row, order: optional */
    int *col;
    double *val, *bscale, *dinv;       /* bscale, dinv: optional */
    unsigned long long *flag, *ticket; /* syncfree: ready flags (sweeps done per row), ticket */
    hpls_int n, nlev, *off;            /* off: the level sets' nlev + 1 offsets, on the host */
    int upper, scaled;                 /* scaled: 1 bscale, 2 dinv (sweep.cl) */
    unsigned long long epoch;          /* sweeps started */
};

static void sweep_release(hpls_backend *be, hpls_dsweep *W)
{
    (void)be;
    if (!W)
        return;
    void *const mem[] = {W->lo,  W->hi,     W->row,  W->order, W->col,
                         W->val, W->bscale, W->dinv, W->flag,  W->ticket};
    for (size_t k = 0; k < sizeof mem / sizeof *mem; k++)
        cudaFree(mem[k]);
    hpls_free(W->off);
    hpls_free(W);
}

/* a device copy of n values of size each from h, or nothing when h is NULL (not used) */
static cudaError_t optional_copy(const void *h, size_t n, size_t size, void **d)
{
    return h ? device_copy(h, n * size, d) : cudaSuccess;
}

static hpls_status sweep_upload(hpls_backend *be, const hpls_sweep *w, hpls_dsweep **out)
{
    cu_state *S = be->impl;
    const hpls_tri *T = &w->T;
    hpls_int n = T->n;
    *out = NULL;
    hpls_dsweep *W = hpls_calloc(1, sizeof *W);
    if (!W)
        return HPLS_ERR_NOMEM;
    hpls_int nnz = 0; /* the entries' extent: col and val are read below it */
    for (hpls_int k = 0; k < n; k++)
        nnz = T->hi[k] > nnz ? T->hi[k] : nnz;
    *W =
        (hpls_dsweep){.n = n, .upper = T->upper, .scaled = (w->bscale ? 1 : 0) | (w->dinv ? 2 : 0)};
    size_t nb = (size_t)n * sizeof(long long), flags = (size_t)(n > 0 ? n : 1) * sizeof *W->flag;
    cudaError_t e = device_copy(T->lo, nb, (void **)&W->lo);
    if (e == cudaSuccess)
        e = device_copy(T->hi, nb, (void **)&W->hi);
    if (e == cudaSuccess)
        e = device_copy(T->col, (size_t)nnz * sizeof *T->col, (void **)&W->col);
    if (e == cudaSuccess)
        e = device_copy(T->val, (size_t)nnz * sizeof *T->val, (void **)&W->val);
    if (e == cudaSuccess)
        e = optional_copy(T->row, n, sizeof *T->row, (void **)&W->row);
    if (e == cudaSuccess)
        e = optional_copy(w->bscale, n, sizeof *w->bscale, (void **)&W->bscale);
    if (e == cudaSuccess)
        e = optional_copy(w->dinv, n, sizeof *w->dinv, (void **)&W->dinv);
    if (e == cudaSuccess && w->lev.nlev > 0) {
        e = device_copy(w->lev.order, nb, (void **)&W->order);
        W->nlev = w->lev.nlev;
        W->off = hpls_malloc(W->nlev + 1, sizeof *W->off);
        for (hpls_int l = 0; W->off && l <= W->nlev; l++)
            W->off[l] = w->lev.off[l];
    }
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&W->flag, flags);
    if (e == cudaSuccess)
        e = cudaMemsetAsync(W->flag, 0, flags, S->q);
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&W->ticket, sizeof *W->ticket);
    if (e != cudaSuccess || (W->nlev > 0 && !W->off)) {
        sweep_release(be, W);
        return e == cudaSuccess
                   ? HPLS_ERR_NOMEM
                   : hpls_fail(e == cudaErrorMemoryAllocation ? HPLS_ERR_NOMEM : HPLS_ERR_INTERNAL,
                               "cuda backend: a triangular sweep of %lld rows: %s", (long long)n,
                               cudaGetErrorString(e));
    }
    *out = W;
    return HPLS_OK;
}

/* Blocks of one thread that run the syncfree sweep (sweep.cl says why one):
 * enough to keep the SMs busy; serial: one, which then takes the rows in order. */
enum { SYNCFREE_GROUPS = 64 };

static void sweep_run(hpls_backend *be, hpls_dsweep *W, int strategy, const hpls_dvec *b,
                      hpls_dvec *x)
{
    cu_state *S = be->impl;
    /* an absent optional array is passed as another of its type, never read
     * (has_row and scaled say so) */
    long long *row = W->row ? W->row : W->lo;
    double *bscale = W->bscale ? W->bscale : W->val, *dinv = W->dinv ? W->dinv : W->val;
    int has_row = W->row != NULL;
    if (W->n == 0 || be->err != HPLS_OK)
        return;
    if (strategy == 1 && W->nlev > 0) { /* HPLS_TRI_LEVELS: a launch a level */
        for (hpls_int l = 0; l < W->nlev; l++) {
            long long first = W->off[l], count = W->off[l + 1] - W->off[l];
            RUN(be, K_sweep_level, groups_for(count), &first, &count, &has_row, &W->order, &W->lo,
                &W->hi, &W->col, &W->val, &bscale, &dinv, &W->scaled, &MEM(b), &MEM(x));
        }
        return;
    }
    unsigned long long epoch = ++W->epoch;
    long long nn = W->n;
    if (bad(be, cudaMemsetAsync(W->ticket, 0, sizeof *W->ticket, S->q), "the sweep's ticket"))
        return;
    RUNL(be, K_sweep_syncfree, strategy == 2 ? SYNCFREE_GROUPS : 1, 1, &nn, &W->upper, &has_row,
         &row, &W->lo, &W->hi, &W->col, &W->val, &bscale, &dinv, &W->scaled, &MEM(b), &MEM(x),
         &W->flag, &W->ticket, &epoch);
}

/* trisolve=auto's sweep on a CUDA device, a GPU: syncfree (its blocks stay
 * resident, so a ticket holder is never preempted as a CPU thread can be) */
static int auto_sweep(hpls_backend *be)
{
    (void)be;
    return HPLS_TRI_SYNCFREE;
}

/* hpls_devops has no HPLS_VOPS_OF: a member added there must be added here,
 * or a method would call NULL on a GPU (nothing here runs one) */
_Static_assert(sizeof(hpls_devops) == 11 * sizeof(void (*)(void)),
               "hpls_devops changed: give the cuda backend its new entries");
static const hpls_devops cuda_devops = {.csr_upload = csr_upload,
                                        .csr_release = csr_release,
                                        .spmv = csr_spmv,
                                        .residual = csr_residual,
                                        .tri_upload = tri_upload,
                                        .tri_release = tri_release,
                                        .tri_solve = tri_solve,
                                        .sweep_upload = sweep_upload,
                                        .sweep_release = sweep_release,
                                        .sweep = sweep_run,
                                        .auto_sweep = auto_sweep};

/* ---- hpls info --devices -------------------------------------------------- */
static void cu_devices(FILE *out)
{
    int runtime = 0, driver = 0, count = 0; /* left unchanged by a failing call */
    cudaRuntimeGetVersion(&runtime);
    cudaDriverGetVersion(&driver);
    fprintf(out, "cuda: runtime %d.%d, kernels for CUDA architectures %s; ", runtime / 1000,
            runtime % 1000 / 10, HPLS_CUDA_ARCHS);
    cudaError_t e = cudaGetDeviceCount(&count);
    if (driver == 0 || e != cudaSuccess) {
        fprintf(out, "no usable driver (cudaGetDeviceCount: %s)\n", cudaGetErrorName(e));
        return;
    }
    fprintf(out, "driver %d.%d, %d device(s)\n", driver / 1000, driver % 1000 / 10, count);
    for (int d = 0; d < count; d++) {
        struct cudaDeviceProp p;
        struct cudaFuncAttributes fa;
        if (cudaGetDeviceProperties(&p, d) != cudaSuccess)
            continue;
        int usable = cudaSetDevice(d) == cudaSuccess &&
                     cudaFuncGetAttributes(&fa, hpls_cuda_kernel[K_red_final]) == cudaSuccess;
        fprintf(out, "  device %d: %s, compute capability %d.%d, %d SMs, %.1f GiB, %s\n", d, p.name,
                p.major, p.minor, p.multiProcessorCount,
                (double)p.totalGlobalMem / (1024.0 * 1024 * 1024),
                usable ? (d == 0 ? "usable (the one backend=cuda runs on)" : "usable")
                       : "not usable: no kernel image for it");
    }
    cudaSetDevice(0);
}

const hpls_cuda_module hpls_cuda_module_table = {.vops = &cuda_vops,
                                                 .devops = &cuda_devops,
                                                 .init = cu_init,
                                                 .fini = cu_fini,
                                                 .devices = cu_devices};
