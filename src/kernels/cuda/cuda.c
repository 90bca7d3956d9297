/* SPDX-License-Identifier: BSD-3-Clause */
/* cuda.c: the cuda backend's primitives (kernels/device/devhost.h's
 * hpls_devtab) on the CUDA runtime, in the optional module libhpls_cuda.so
 * (kernels/cuda/module.h says how libhpls loads it).  Buffers are device
 * arrays; copies, fills and launches go to the backend's stream in order; a
 * kernel is the host stub of a kernels/device body compiled by nvcc through
 * dialect.h (table.cuh), its arguments passed by the kinds of kernels.h.
 * Everything above these primitives (the vector operations, reductions,
 * uploads and devops) is libhpls's device host layer, shared with the opencl
 * backend.
 *
 * Two switches put NVIDIA's libraries in place of the layer's kernels, for a
 * benchmark on a GPU to decide (bench/cuda_switch.sh; nothing here has run on
 * one): HPLS_CUDA_SPMV=cusparse (cusparseSpMV, CSR_ALG2: deterministic) and
 * HPLS_CUDA_DOT=cublas (cublasDdot for dot and mdot), as the layer's
 * hpls_devlib.  The default, ours, rounds as ref does where nothing is summed
 * and sums as the opencl backend.  The module does not link either library
 * (cuBLAS pulls in cuBLASLt, half a gigabyte, which a host with only the
 * driver lacks): each is opened with dlopen when its switch asks for it, and
 * the few functions used are called through pointers (issue 33, finding 1).
 *
 * Each backend has its own stream (its launches run in order), its cuSPARSE
 * and cuBLAS handles bound to it, on device 0 (CUDA_VISIBLE_DEVICES picks
 * another).  The runtime's current device belongs to a thread, and a
 * backend may be called from threads other than its creator's (OpenMP's, a
 * user's): every primitive makes the backend's device current first
 * (enter(); issue 33, finding 5).
 *
 * A kernel that faults (an illegal address, a trap) is seen by the runtime
 * at the next call that waits, and the fault is sticky: the process's
 * context is lost, every later call fails with it.  A failure after a launch
 * names the last kernel launched on the stream; HPLS_CUDA_SYNC=1 waits after
 * every launch so that the kernel named is the one that faulted.  The first
 * sticky fault is kept, and a later init says the context is lost because
 * of it instead of blaming the device (issue 33, finding 4). */
#define _POSIX_C_SOURCE 200809L /* dlopen */
#include "kernels/cuda/module.h"

#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <cusparse.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

extern const void *const hpls_cuda_kernel[]; /* table.cuh: the host stubs, by HPLS_K_* */

#define K_NAME(name, sig) #name,
static const char *const kernel_names[] = {HPLS_DEVICE_KERNELS(K_NAME)};

#define STR_(x) #x
#define STR(x) STR_(x) /* after expansion: cublasCreate is a macro for cublasCreate_v2 */

/* The module's runtime version, and the driver it needs: one of the same
 * major version or later (CUDA's minor version compatibility). */
enum { RUNTIME_MAJOR = CUDART_VERSION / 1000, RUNTIME_MINOR = CUDART_VERSION % 1000 / 10 };

/* "driver 12.2 found, the module (runtime 13.0) needs >= 13.0": the versions
 * a failure to start may come from, in every init failure's message */
static const char *versions(char *buf, size_t size)
{
    int driver = 0; /* stays 0 without a driver */
    cudaDriverGetVersion(&driver);
    char found[32] = "no driver";
    if (driver > 0)
        snprintf(found, sizeof found, "driver %d.%d", driver / 1000, driver % 1000 / 10);
    snprintf(buf, size, "%s found, the module (runtime %d.%d) needs >= %d.0", found, RUNTIME_MAJOR,
             RUNTIME_MINOR, RUNTIME_MAJOR);
    return buf;
}

/* st with "cuda backend: <fmt...>; <versions>": init's failures */
static hpls_status init_fail(hpls_status st, const char *fmt, ...) HPLS_PRINTF(2, 3);
static hpls_status init_fail(hpls_status st, const char *fmt, ...)
{
    char what[1024], v[128];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return hpls_fail(st, "cuda backend: %s; %s", what, versions(v, sizeof v));
}

/* ---- cuSPARSE and cuBLAS, opened when a switch asks ------------------------ */
/* The entry points the switches call, by their headers' names (tests/cuda/
 * libs.c calls each, so their prototypes are checked by a link too); the
 * pointers have the headers' types. */
#define SPARSE_CALLS(X)                                                                            \
    X(cusparseCreate)                                                                              \
    X(cusparseDestroy)                                                                             \
    X(cusparseSetStream)                                                                           \
    X(cusparseGetErrorString)                                                                      \
    X(cusparseCreateCsr)                                                                           \
    X(cusparseDestroySpMat)                                                                        \
    X(cusparseCreateDnVec)                                                                         \
    X(cusparseDestroyDnVec) X(cusparseDnVecSetValues) X(cusparseSpMV_bufferSize) X(cusparseSpMV)
#define BLAS_CALLS(X)                                                                              \
    X(cublasCreate) X(cublasDestroy) X(cublasSetStream) X(cublasGetStatusString) X(cublasDdot_64)
#define FN_MEMBER(f) __typeof__(&f) f;
static struct {
    SPARSE_CALLS(FN_MEMBER)
} sp_fn;
static struct {
    BLAS_CALLS(FN_MEMBER)
} blas_fn;

/* A library: its file (the soname, from its header's major version), the
 * switch that asks for it, its symbols, and the outcome of the one attempt
 * to open it. */
typedef struct cu_sym {
    const char *name;
    void **slot;
} cu_sym;
typedef struct cu_library {
    const char *file, *env;
    const cu_sym *sym;
    int nsym;
    int ok;
    char why[768]; /* dlerror's words, when not ok */
} cu_library;
#define FN_SYM(f) {STR(f), (void **)&sp_fn.f},
static const cu_sym sp_syms[] = {SPARSE_CALLS(FN_SYM)};
#undef FN_SYM
#define FN_SYM(f) {STR(f), (void **)&blas_fn.f},
static const cu_sym blas_syms[] = {BLAS_CALLS(FN_SYM)};
#undef FN_SYM
#define LIBRARY(name, major, env_, syms)                                                           \
    {                                                                                              \
        .file = "lib" name ".so." STR(major), .env = env_, .sym = syms,                            \
        .nsym = (int)(sizeof syms / sizeof *syms)                                                  \
    }
static cu_library sp_lib =
    LIBRARY("cusparse", CUSPARSE_VER_MAJOR, "HPLS_CUDA_SPMV=cusparse", sp_syms);
static cu_library blas_lib = LIBRARY("cublas", CUBLAS_VER_MAJOR, "HPLS_CUDA_DOT=cublas", blas_syms);

/* Opens L and resolves its symbols; never closed (the process keeps a
 * library whose handles may outlive a backend, as libhpls keeps the module). */
static void open_library(cu_library *L)
{
    void *so = dlopen(L->file, RTLD_NOW | RTLD_LOCAL);
    const char *why = so ? NULL : dlerror();
    for (int i = 0; so && i < L->nsym && !why; i++) {
        *L->sym[i].slot = dlsym(so, L->sym[i].name); /* POSIX's way to a function pointer */
        if (!*L->sym[i].slot)
            why = dlerror();
    }
    L->ok = so && !why;
    if (!L->ok)
        snprintf(L->why, sizeof L->why, "%.700s", why ? why : "dlopen failed");
}
static void open_sparse(void)
{
    open_library(&sp_lib);
}
static void open_blas(void)
{
    open_library(&blas_lib);
}

/* L, opened once per process; a failure is init's error every time, naming
 * the switch, the file and the loader's reason. */
static hpls_status library(cu_library *L)
{
    static once_flag sp_once = ONCE_FLAG_INIT, blas_once = ONCE_FLAG_INIT;
    if (L == &sp_lib)
        call_once(&sp_once, open_sparse);
    else
        call_once(&blas_once, open_blas);
    if (L->ok)
        return HPLS_OK;
    return init_fail(HPLS_ERR_UNSUPPORTED, "%s needs %s, which cannot be loaded: %s", L->env,
                     L->file, L->why);
}

/* A backend's own: its stream, the libraries' handles (NULL unless switched
 * on) and the routines it lends the layer. */
typedef struct cu_state {
    int device; /* the runtime's device number */
    cudaStream_t q;
    cusparseHandle_t sp; /* HPLS_CUDA_SPMV=cusparse */
    cublasHandle_t blas; /* HPLS_CUDA_DOT=cublas */
    hpls_devlib lib;
    int last; /* the kernel launched last (HPLS_K_*), -1 before any */
    int sync; /* HPLS_CUDA_SYNC=1: wait after every launch */
} cu_state;

#define PTR(b) ((void *)(b))
#define STATE(be) ((cu_state *)hpls_dev_native(be))

/* The backend's device made current in the calling thread, before any call
 * that allocates, copies, launches or waits: the functions of this file are
 * the only code calling the runtime for a backend, and each starts here.  (A
 * failed init leaves no state, and nothing of it on a device.) */
static cudaError_t enter(hpls_backend *be)
{
    const cu_state *S = STATE(be);
    return S ? cudaSetDevice(S->device) : cudaSuccess;
}

/* 1 for the errors the runtime documents as leaving the process's context
 * unusable ("any further CUDA work will return the same error"): a fault
 * of a running kernel. */
static int sticky(cudaError_t e)
{
    switch (e) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchTimeout:
    case cudaErrorAssert:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorLaunchFailure: return 1;
    default: return 0;
    }
}

/* The process's first sticky fault, as its message, for every later init
 * (state: 0 none, 1 being written, 2 written). */
static struct {
    atomic_int state;
    char what[512];
} lost;

static void lost_record(const char *what)
{
    int none = 0;
    if (!atomic_compare_exchange_strong(&lost.state, &none, 1))
        return; /* an earlier fault is the one to tell */
    snprintf(lost.what, sizeof lost.what, "%s", what);
    atomic_store(&lost.state, 2);
}

/* The status of a failed call, with "what: why (name)" as the message; a
 * kernel's fault also names the kernel launched last (asynchronous: it may
 * be an earlier one, unless HPLS_CUDA_SYNC=1) and is kept for later inits. */
static hpls_status cu_fail(hpls_backend *be, cudaError_t e, const char *what)
{
    const cu_state *S = be ? STATE(be) : NULL;
    char msg[512], after[160] = "";
    if (sticky(e) && S && S->last >= 0 && !S->sync)
        snprintf(after, sizeof after,
                 ", after kernel %s, the last launched (HPLS_CUDA_SYNC=1 names the one that "
                 "faulted)",
                 kernel_names[S->last]);
    snprintf(msg, sizeof msg, "%s: %s (%s)%s", what, cudaGetErrorString(e), cudaGetErrorName(e),
             after);
    if (sticky(e))
        lost_record(msg);
    return hpls_fail(e == cudaErrorMemoryAllocation ? HPLS_ERR_NOMEM : HPLS_ERR_INTERNAL, "%s",
                     msg);
}
/* (a function: a macro would make a failed call twice) */
static hpls_status cu_status(hpls_backend *be, cudaError_t e, const char *what)
{
    return e == cudaSuccess ? HPLS_OK : cu_fail(be, e, what);
}

static hpls_status sparse_status(cusparseStatus_t e, const char *what)
{
    if (e == CUSPARSE_STATUS_SUCCESS)
        return HPLS_OK;
    return hpls_fail(e == CUSPARSE_STATUS_ALLOC_FAILED ? HPLS_ERR_NOMEM : HPLS_ERR_INTERNAL,
                     "%s: %s", what, sp_fn.cusparseGetErrorString(e));
}

static hpls_status blas_status(cublasStatus_t e, const char *what)
{
    if (e == CUBLAS_STATUS_SUCCESS)
        return HPLS_OK;
    return hpls_fail(e == CUBLAS_STATUS_ALLOC_FAILED ? HPLS_ERR_NOMEM : HPLS_ERR_INTERNAL, "%s: %s",
                     what, blas_fn.cublasGetStatusString(e));
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

/* ---- cuSPARSE's SpMV and cuBLAS's dot (hpls_devlib) ---------------------- */
/* cuSPARSE's view of an uploaded A (32-bit offsets: A has fewer than 2^31
 * entries): the matrix, two vector descriptors re-pointed at every product,
 * and the work buffer cusparseSpMV_bufferSize asks for */
typedef struct cu_view {
    int *rp32;
    cusparseSpMatDescr_t mat;
    cusparseDnVecDescr_t dx, dy;
    void *buf;
} cu_view;

static void cu_csr_unview(hpls_backend *be, void *view)
{
    cu_view *V = view;
    if (!V)
        return;
    enter(be); /* a failure shows at the next call that reports */
    if (V->mat)
        sp_fn.cusparseDestroySpMat(V->mat);
    if (V->dx)
        sp_fn.cusparseDestroyDnVec(V->dx);
    if (V->dy)
        sp_fn.cusparseDestroyDnVec(V->dy);
    cudaFree(V->buf);
    cudaFree(V->rp32);
    hpls_free(V);
}

static hpls_status cu_csr_view(hpls_backend *be, const hpls_csr *A, hpls_dbuf *ci, hpls_dbuf *val,
                               void **out)
{
    cu_state *S = STATE(be);
    *out = NULL;
    if (A->nnz >= INT_MAX) /* ours multiplies it */
        return HPLS_OK;
    cu_view *V = hpls_calloc(1, sizeof *V);
    int *rp = hpls_malloc(A->nrows + 1, sizeof *rp);
    if (!V || !rp) {
        hpls_free(V);
        hpls_free(rp);
        return HPLS_ERR_NOMEM;
    }
    for (hpls_int i = 0; i <= A->nrows; i++)
        rp[i] = (int)A->rowptr[i];
    size_t bytes = (size_t)(A->nrows + 1) * sizeof *rp, size = 0;
    cudaError_t e = enter(be);
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&V->rp32, bytes);
    /* on the backend's stream, waited for: a plain cudaMemcpy runs on the
     * legacy default stream, which a cudaStreamNonBlocking stream's SpMV does
     * not wait for (issue 33, finding 2) */
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(V->rp32, rp, bytes, cudaMemcpyHostToDevice, S->q);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(S->q);
    hpls_free(rp);
    double one = 1.0, zero = 0.0;
    hpls_status st = cu_status(be, e, "cuSPARSE's row offsets");
    if (st == HPLS_OK)
        st = sparse_status(sp_fn.cusparseCreateCsr(&V->mat, A->nrows, A->ncols, A->nnz, V->rp32,
                                                   PTR(ci), PTR(val), CUSPARSE_INDEX_32I,
                                                   CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                                                   CUDA_R_64F),
                           "cusparseCreateCsr");
    if (st == HPLS_OK) /* values: placeholders */
        st = sparse_status(sp_fn.cusparseCreateDnVec(&V->dx, A->ncols, PTR(val), CUDA_R_64F),
                           "cusparseCreateDnVec");
    if (st == HPLS_OK)
        st = sparse_status(sp_fn.cusparseCreateDnVec(&V->dy, A->nrows, PTR(val), CUDA_R_64F),
                           "cusparseCreateDnVec");
    if (st == HPLS_OK)
        st = sparse_status(sp_fn.cusparseSpMV_bufferSize(S->sp, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                                         &one, V->mat, V->dx, &zero, V->dy,
                                                         CUDA_R_64F, CUSPARSE_SPMV_CSR_ALG2, &size),
                           "cusparseSpMV_bufferSize");
    if (st == HPLS_OK)
        st = cu_status(be, cudaMalloc(&V->buf, size ? size : 1), "cuSPARSE's work buffer");
    if (st != HPLS_OK) {
        cu_csr_unview(be, V);
        return st;
    }
    *out = V;
    return HPLS_OK;
}

static hpls_status cu_spmv(hpls_backend *be, void *view, double alpha, const hpls_dbuf *x,
                           double beta, hpls_dbuf *y)
{
    cu_view *V = view;
    hpls_status st = cu_status(be, enter(be), "cudaSetDevice");
    if (st == HPLS_OK)
        st = sparse_status(sp_fn.cusparseDnVecSetValues(V->dx, PTR(x)), "cusparseDnVecSetValues");
    if (st == HPLS_OK)
        st = sparse_status(sp_fn.cusparseDnVecSetValues(V->dy, PTR(y)), "cusparseDnVecSetValues");
    if (st == HPLS_OK)
        st = sparse_status(sp_fn.cusparseSpMV(STATE(be)->sp, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                              &alpha, V->mat, V->dx, &beta, V->dy, CUDA_R_64F,
                                              CUSPARSE_SPMV_CSR_ALG2, V->buf),
                           "cusparseSpMV");
    return st;
}

/* (x, y) into host memory: cuBLAS waits for it */
static hpls_status cu_dot(hpls_backend *be, hpls_int n, const hpls_dbuf *x, const hpls_dbuf *y,
                          double *s)
{
    hpls_status st = cu_status(be, enter(be), "cudaSetDevice");
    if (st == HPLS_OK)
        st = blas_status(blas_fn.cublasDdot_64(STATE(be)->blas, n, PTR(x), 1, PTR(y), 1, s),
                         "cublasDdot");
    return st;
}

/* ---- the primitives ----------------------------------------------------- */
static void cu_fini(hpls_backend *be, hpls_dev *dev)
{
    cu_state *S = dev->native;
    if (!S)
        return;
    enter(be);
    if (S->sp)
        sp_fn.cusparseDestroy(S->sp);
    if (S->blas)
        blas_fn.cublasDestroy(S->blas);
    if (S->q)
        cudaStreamDestroy(S->q);
    hpls_free(S);
    dev->native = NULL;
}

static hpls_status cu_init(hpls_backend *be, hpls_dev *dev)
{
    (void)be;
    int sparse = 0, blas = 0;
    hpls_status st = use_library("HPLS_CUDA_SPMV", "cusparse", &sparse);
    if (st == HPLS_OK)
        st = use_library("HPLS_CUDA_DOT", "cublas", &blas);
    const char *v = getenv("HPLS_CUDA_SYNC");
    int sync = v && strcmp(v, "1") == 0;
    if (st == HPLS_OK && v && *v && !sync && strcmp(v, "0") != 0)
        st = hpls_fail(HPLS_ERR_OPTION, "cuda backend: HPLS_CUDA_SYNC=%s: expected 0 or 1", v);
    if (st != HPLS_OK)
        return st;
    if (atomic_load(&lost.state) == 2)
        return init_fail(HPLS_ERR_UNSUPPORTED,
                         "the CUDA context is lost because of an earlier fault in this process "
                         "(%s): only a new process can use the GPU",
                         lost.what);
    int count = 0; /* cudaGetDeviceCount leaves it unchanged when it fails (no driver) */
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess)
        return init_fail(HPLS_ERR_UNSUPPORTED, "no usable CUDA driver (cudaGetDeviceCount: %s, %s)",
                         cudaGetErrorName(e), cudaGetErrorString(e));
    if (count < 1)
        return init_fail(HPLS_ERR_UNSUPPORTED, "the CUDA driver lists no device");
    struct cudaFuncAttributes fa;
    e = cudaSetDevice(0);
    if (e == cudaSuccess) /* a kernel image (or PTX) this device can run */
        e = cudaFuncGetAttributes(&fa, hpls_cuda_kernel[HPLS_K_red_final]);
    if (sticky(e))
        return init_fail(HPLS_ERR_UNSUPPORTED,
                         "the CUDA context is lost because of an earlier fault in this process, "
                         "outside hpls (%s, %s): only a new process can use the GPU",
                         cudaGetErrorName(e), cudaGetErrorString(e));
    if (e != cudaSuccess) {
        int major = 0, minor = 0;
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0);
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0);
        return init_fail(HPLS_ERR_UNSUPPORTED,
                         "device 0 (compute capability %d.%d) cannot run the module's kernels, "
                         "built for CUDA architectures %s: %s",
                         major, minor, HPLS_CUDA_ARCHS, cudaGetErrorString(e));
    }
    if (sparse)
        st = library(&sp_lib);
    if (st == HPLS_OK && blas)
        st = library(&blas_lib);
    if (st != HPLS_OK)
        return st;
    cu_state *S = hpls_calloc(1, sizeof *S);
    if (!S)
        return HPLS_ERR_NOMEM;
    dev->native = S;
    S->device = 0;
    S->last = -1;
    S->sync = sync;
    int sms = 0, slots = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    cudaDeviceGetAttribute(&slots, cudaDevAttrMaxBlocksPerMultiprocessor, 0);
    dev->syncfree_groups = hpls_dev_gpu_syncfree_groups(sms, slots);
    dev->red_groups = hpls_dev_gpu_red_groups(sms);
    dev->syncfree_lanes = HPLS_DEV_GPU_LANES;
    e = cudaStreamCreateWithFlags(&S->q, cudaStreamNonBlocking);
    const char *what = "cudaStreamCreate";
    if (e == cudaSuccess && sparse) {
        what = "cusparseCreate";
        if (sp_fn.cusparseCreate(&S->sp) != CUSPARSE_STATUS_SUCCESS ||
            sp_fn.cusparseSetStream(S->sp, S->q) != CUSPARSE_STATUS_SUCCESS)
            e = cudaErrorUnknown;
        S->lib.csr_view = cu_csr_view;
        S->lib.csr_unview = cu_csr_unview;
        S->lib.spmv = cu_spmv;
    }
    if (e == cudaSuccess && blas) {
        what = "cublasCreate";
        if (blas_fn.cublasCreate(&S->blas) != CUBLAS_STATUS_SUCCESS ||
            blas_fn.cublasSetStream(S->blas, S->q) != CUBLAS_STATUS_SUCCESS)
            e = cudaErrorUnknown;
        S->lib.dot = cu_dot;
    }
    if (e != cudaSuccess)
        return init_fail(HPLS_ERR_INTERNAL, "%s failed (%s)", what, cudaGetErrorName(e));
    dev->lib = sparse || blas ? &S->lib : NULL;
    return HPLS_OK;
}

static hpls_status cu_alloc(hpls_backend *be, size_t bytes, hpls_dbuf **b)
{
    void *p = NULL;
    cudaError_t e = enter(be);
    if (e == cudaSuccess)
        e = cudaMalloc(&p, bytes);
    *b = e == cudaSuccess ? (hpls_dbuf *)p : NULL;
    return cu_status(be, e, "cudaMalloc");
}

static void cu_release(hpls_backend *be, hpls_dbuf *b)
{
    if (b && enter(be) == cudaSuccess)
        cudaFree(PTR(b));
}

/* Waits for the stream (an asynchronous failure shows here). */
static hpls_status cu_sync(hpls_backend *be)
{
    cudaError_t e = enter(be);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(STATE(be)->q);
    return cu_status(be, e, "cudaStreamSynchronize");
}

static hpls_status cu_write(hpls_backend *be, hpls_dbuf *b, size_t off, const void *h, size_t bytes)
{
    cudaError_t e = enter(be);
    if (e == cudaSuccess)
        e = cudaMemcpyAsync((char *)PTR(b) + off, h, bytes, cudaMemcpyHostToDevice, STATE(be)->q);
    return e == cudaSuccess ? cu_sync(be) : cu_fail(be, e, "cudaMemcpyAsync to the device");
}

static hpls_status cu_read(hpls_backend *be, const hpls_dbuf *b, size_t off, void *h, size_t bytes)
{
    cudaError_t e = enter(be);
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(h, (const char *)PTR(b) + off, bytes, cudaMemcpyDeviceToHost,
                            STATE(be)->q);
    return e == cudaSuccess ? cu_sync(be) : cu_fail(be, e, "cudaMemcpyAsync to the host");
}

static hpls_status cu_copy(hpls_backend *be, const hpls_dbuf *src, size_t soff, hpls_dbuf *dst,
                           size_t doff, size_t bytes)
{
    cudaError_t e = enter(be);
    if (e == cudaSuccess)
        e = cudaMemcpyAsync((char *)PTR(dst) + doff, (const char *)PTR(src) + soff, bytes,
                            cudaMemcpyDeviceToDevice, STATE(be)->q);
    return cu_status(be, e, "cudaMemcpyAsync on the device");
}

static hpls_status cu_zero(hpls_backend *be, hpls_dbuf *b, size_t off, size_t bytes)
{
    cudaError_t e = enter(be);
    if (e == cudaSuccess)
        e = cudaMemsetAsync((char *)PTR(b) + off, 0, bytes, STATE(be)->q);
    return cu_status(be, e, "cudaMemsetAsync");
}

/* Most parameters a kernel has (kernels.h's longest signature is shorter). */
enum { MAX_ARGS = 32 };

/* cudaLaunchKernel reads each parameter from an address holding a value of
 * its exact type: every kind of hpls_karg's union is (kernels.h: l long long,
 * i int, u unsigned long long, d double, g a device pointer) */
static hpls_status cu_launch(hpls_backend *be, int k, size_t groups, size_t local,
                             const hpls_karg *a, int na)
{
    void *args[MAX_ARGS];
    if (na > MAX_ARGS)
        return hpls_fail(HPLS_ERR_INTERNAL, "kernel %s: %d arguments, at most %d", kernel_names[k],
                         na, MAX_ARGS);
    for (int i = 0; i < na; i++)
        args[i] = (void *)&a[i].v;
    dim3 grid = {(unsigned)groups, 1, 1}, block = {(unsigned)local, 1, 1};
    cudaError_t e = enter(be);
    if (e == cudaSuccess) {
        e = cudaLaunchKernel(hpls_cuda_kernel[k], grid, block, args, 0, STATE(be)->q);
        /* read and cleared now: a launch's own error (not sticky) would
         * otherwise be reported again by a later, unrelated call */
        cudaError_t pending = cudaGetLastError();
        if (e == cudaSuccess)
            e = pending;
    }
    char what[128];
    snprintf(what, sizeof what, "kernel %s", kernel_names[k]);
    if (e != cudaSuccess)
        return cu_fail(be, e, what);
    STATE(be)->last = k;
    if (!STATE(be)->sync)
        return HPLS_OK;
    snprintf(what, sizeof what, "kernel %s (HPLS_CUDA_SYNC=1: waited for it)", kernel_names[k]);
    return cu_status(be, cudaStreamSynchronize(STATE(be)->q), what);
}

/* ---- hpls info --devices -------------------------------------------------- */
static void cu_devices(FILE *out)
{
    int count = 0; /* left unchanged by a failing call */
    char v[128];
    fprintf(out, "cuda: kernels for CUDA architectures %s; %s; ", HPLS_CUDA_ARCHS,
            versions(v, sizeof v));
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) {
        fprintf(out, "no usable driver (cudaGetDeviceCount: %s)\n", cudaGetErrorName(e));
        return;
    }
    fprintf(out, "%d device(s)\n", count);
    int current = 0; /* the caller's, given back: the checks below switch devices */
    cudaGetDevice(&current);
    for (int d = 0; d < count; d++) {
        struct cudaDeviceProp p;
        struct cudaFuncAttributes fa;
        if (cudaGetDeviceProperties(&p, d) != cudaSuccess)
            continue;
        int usable = cudaSetDevice(d) == cudaSuccess &&
                     cudaFuncGetAttributes(&fa, hpls_cuda_kernel[HPLS_K_red_final]) == cudaSuccess;
        fprintf(out, "  device %d: %s, compute capability %d.%d, %d SMs, %.1f GiB, %s\n", d, p.name,
                p.major, p.minor, p.multiProcessorCount,
                (double)p.totalGlobalMem / (1024.0 * 1024 * 1024),
                usable ? (d == 0 ? "usable (the one backend=cuda runs on)" : "usable")
                       : "not usable: no kernel image for it");
    }
    cudaSetDevice(current);
}

#define CU(m) .m = cu_##m,
const hpls_devtab hpls_cuda_tab = {HPLS_DEVTAB(CU)};
