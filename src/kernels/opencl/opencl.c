/* opencl.c: the opencl backend (backend/backend.h) on the OpenCL 1.2 host API.
 * Vectors are device buffers; every vector operation is a kernel of
 * kernels/device/vector.cl, a reduction two launches (work-group partials,
 * then one group combines them: red_final) and one read of its k results,
 * which then pass through be->reduce.  A CSR matrix is uploaded once at setup
 * (hpls_devops) and multiplied by kernels/device/spmv.cl.
 *
 * The context and the program are the process's: the first backend created
 * picks the first platform with a device, builds the kernels from the
 * embedded text (cmake/embed.cmake) and keeps both until exit, so later
 * solvers pay neither; each backend has its own in-order queue and kernel
 * objects (a kernel's arguments are per object: two solvers never share one).
 *
 * Host kernels (be->k) are the cpu backend's: the solver uses them only on
 * host arrays (the user's residual of scale=); a method whose kernels are not
 * on the device yet is refused at setup (solver.c, HPLS_M_DEVICE). */
#include "backend/backend.h"
#include "kernels/cpu/sptrsv.h"

#include <CL/cl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <threads.h>

extern const char hpls_device_src[]; /* dialect.h + the kernel files (generated) */

enum { WG = 128, NGMAX = 256 };     /* work-group size (dialect.h's WG), groups of a reduction */
enum { RED_SUM, RED_MAX, RED_MIN }; /* vector.cl's */
/* mean nonzeros per row from which the vector SpMV (VW = 8 lanes a row) is used:
 * below it most of a row's lanes would idle (Bell & Garland's rule of thumb) */
enum { VECTOR_MIN_ROW = 16 };

/* clang-format off */
#define KERNELS(X)                                                                            \
    X(red_final) X(dot_part) X(amax_part) X(sscaled_part) X(finite_part)                      \
    X(v_set) X(v_scale) X(v_axpy) X(v_axpby) X(v_xpay) X(v_waxpy) X(v_axpbypcz) X(v_pmult)    \
    X(v_diag_axpy) X(v_axpy2) X(v_maxpy2_end) X(v_bicgstab_p) X(v_bicgstab_xr)              \
    X(hisa_update_part) X(csr_spmv_scalar) X(csr_residual_scalar) X(csr_spmv_vector)        \
    X(b_minus_part) X(tri_cr) X(sweep_level) X(sweep_syncfree)
/* clang-format on */
#define K_ENUM(k) K_##k,
#define K_NAME(k) #k,
enum { KERNELS(K_ENUM) K_COUNT };
static const char *const kernel_names[] = {KERNELS(K_NAME)};

/* The process's device, context and program (built once, kept until exit). */
static struct {
    hpls_status st;
    char msg[200];
    int cpu; /* the device is a CPU (PoCL): its work-groups are threads the OS may preempt */
    cl_device_id dev;
    cl_context ctx;
    cl_program prog;
} G;

typedef struct ocl_state {
    cl_command_queue q;
    cl_kernel k[K_COUNT];
    cl_mem part, out; /* reduction partials (NGMAX x cap), results (cap) */
    int cap;
} ocl_state;

struct ocl_vec {
    cl_mem m;
    hpls_int n;
};
#define MEM(v) (((const struct ocl_vec *)(v))->m)

struct hpls_dmat {
    cl_mem rp, ci, val;
    hpls_int n;
    int vector; /* 1: csr_spmv_vector */
};

static const char *cl_err(cl_int e)
{
    switch (e) {
    case CL_DEVICE_NOT_FOUND: return "no device";
    case CL_OUT_OF_RESOURCES: return "out of resources";
    case CL_OUT_OF_HOST_MEMORY: return "out of host memory";
    case CL_MEM_OBJECT_ALLOCATION_FAILURE: return "device memory allocation failed";
    case CL_BUILD_PROGRAM_FAILURE: return "kernel build failed";
    case CL_INVALID_KERNEL_ARGS: return "kernel arguments not set";
    case CL_INVALID_WORK_GROUP_SIZE: return "work-group size not supported";
    case -1001: /* CL_PLATFORM_NOT_FOUND_KHR: the ICD loader found no platform */
        return "the ICD loader found none";
    default: return "OpenCL error";
    }
}

/* Records a failed call (first failure only) and returns nonzero. */
static int bad(hpls_backend *be, cl_int e, const char *what)
{
    if (e == CL_SUCCESS)
        return 0;
    hpls_status st = e == CL_MEM_OBJECT_ALLOCATION_FAILURE || e == CL_OUT_OF_HOST_MEMORY
                         ? HPLS_ERR_NOMEM
                         : HPLS_ERR_INTERNAL;
    hpls_be_fail(be, st, "opencl backend: %s: %s (%d)", what, cl_err(e), (int)e);
    return 1;
}

/* Why the kernels cannot run on dev (NULL: they can): doubles, work-groups
 * of WG, local memory for tri_cr's five arrays of HPLS_DEVICE_TRI_MAX doubles. */
static const char *unusable(cl_device_id dev)
{
    cl_device_fp_config fp = 0;
    size_t wg = 0;
    cl_ulong lmem = 0;
    clGetDeviceInfo(dev, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp, &fp, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof wg, &wg, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_LOCAL_MEM_SIZE, sizeof lmem, &lmem, NULL);
    if (!fp)
        return "no double precision";
    if (wg < WG)
        return "work-groups smaller than 128";
    if (lmem < 5 * HPLS_DEVICE_TRI_MAX * sizeof(double))
        return "local memory under 20 KiB";
    return NULL;
}

/* The first device of the first platform that has one, its context and the
 * program (once per process; a failure is kept and told every time). */
static hpls_status global_init(void)
{
    cl_uint np = 0;
    cl_platform_id plats[16];
    cl_int e = clGetPlatformIDs(16, plats, &np);
    if (e != CL_SUCCESS || np == 0) {
        snprintf(G.msg, sizeof G.msg,
                 "opencl backend: no OpenCL platform found (%s); "
                 "install an ICD, e.g. Debian's pocl-opencl-icd",
                 e == CL_SUCCESS ? "none listed" : cl_err(e));
        return HPLS_ERR_UNSUPPORTED;
    }
    for (cl_uint p = 0; p < np && p < 16 && !G.dev; p++) {
        cl_uint nd = 0;
        if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 1, &G.dev, &nd) != CL_SUCCESS || nd == 0)
            G.dev = NULL;
    }
    if (!G.dev) {
        snprintf(G.msg, sizeof G.msg, "opencl backend: %u OpenCL platform(s), no device in any",
                 (unsigned)np);
        return HPLS_ERR_UNSUPPORTED;
    }
    const char *why = unusable(G.dev);
    if (why) {
        snprintf(G.msg, sizeof G.msg, "opencl backend: the first device is not usable: %s", why);
        return HPLS_ERR_UNSUPPORTED;
    }
    cl_device_type type = 0;
    clGetDeviceInfo(G.dev, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    G.cpu = (type & CL_DEVICE_TYPE_CPU) != 0;
    G.ctx = clCreateContext(NULL, 1, &G.dev, NULL, NULL, &e);
    if (e != CL_SUCCESS) {
        snprintf(G.msg, sizeof G.msg, "opencl backend: clCreateContext: %s (%d)", cl_err(e), e);
        return HPLS_ERR_UNSUPPORTED;
    }
    const char *src = hpls_device_src;
    G.prog = clCreateProgramWithSource(G.ctx, 1, &src, NULL, &e);
    if (e == CL_SUCCESS) {
        char opts[96]; /* the sizes the kernels and this file share */
        snprintf(opts, sizeof opts, "-cl-std=CL1.2 -DWG=%d -DTB=%d", WG, HPLS_DEVICE_TRI_MAX);
        e = clBuildProgram(G.prog, 1, &G.dev, opts, NULL, NULL);
    }
    if (e != CL_SUCCESS) {
        char log[120] = "";
        if (G.prog)
            clGetProgramBuildInfo(G.prog, G.dev, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
        snprintf(G.msg, sizeof G.msg, "opencl backend: building the kernels: %s (%d): %s",
                 cl_err(e), e, log);
        return HPLS_ERR_INTERNAL;
    }
    return HPLS_OK;
}

static void global_once(void)
{
    G.st = global_init();
}

static hpls_status global_get(void)
{
    static once_flag once = ONCE_FLAG_INIT;
    call_once(&once, global_once);
    return G.st == HPLS_OK ? HPLS_OK : hpls_fail(G.st, "%s", G.msg);
}

hpls_status hpls_opencl_init(hpls_backend *be)
{
    hpls_status st = global_get();
    if (st != HPLS_OK)
        return st;
    ocl_state *S = hpls_calloc(1, sizeof *S);
    if (!S)
        return HPLS_ERR_NOMEM;
    be->impl = S;
    cl_int e;
    S->q = clCreateCommandQueue(G.ctx, G.dev, 0, &e);
    for (int i = 0; e == CL_SUCCESS && i < K_COUNT; i++)
        S->k[i] = clCreateKernel(G.prog, kernel_names[i], &e);
    if (e != CL_SUCCESS) {
        hpls_opencl_fini(be);
        return hpls_fail(HPLS_ERR_INTERNAL, "opencl backend: queue or kernels: %s (%d)", cl_err(e),
                         (int)e);
    }
    return HPLS_OK;
}

void hpls_opencl_fini(hpls_backend *be)
{
    ocl_state *S = be->impl;
    if (!S)
        return;
    for (int i = 0; i < K_COUNT; i++)
        if (S->k[i])
            clReleaseKernel(S->k[i]);
    if (S->part)
        clReleaseMemObject(S->part);
    if (S->out)
        clReleaseMemObject(S->out);
    if (S->q)
        clReleaseCommandQueue(S->q);
    hpls_free(S);
    be->impl = NULL;
}

/* ---- launching ---------------------------------------------------------- */
typedef struct karg {
    size_t size;
    const void *p;
} karg;
#define ARG(x)                                                                                     \
    {                                                                                              \
        sizeof(x), &(x)                                                                            \
    }
#define RUN(be, kid, groups, ...) RUNL(be, kid, groups, WG, __VA_ARGS__)
#define RUNL(be, kid, groups, local, ...)                                                          \
    run(be, kid, groups, local, (const karg[]){__VA_ARGS__},                                       \
        sizeof((const karg[]){__VA_ARGS__}) / sizeof(karg))

/* kernel kid on groups work-groups of local items (nothing after a failure) */
static void run(hpls_backend *be, int kid, size_t groups, size_t local, const karg *a, size_t na)
{
    ocl_state *S = be->impl;
    if (be->err != HPLS_OK)
        return;
    cl_int e = CL_SUCCESS;
    for (size_t i = 0; e == CL_SUCCESS && i < na; i++)
        e = clSetKernelArg(S->k[kid], (cl_uint)i, a[i].size, a[i].p);
    size_t global = groups * local;
    if (e == CL_SUCCESS)
        e = clEnqueueNDRangeKernel(S->q, S->k[kid], 1, NULL, &global, &local, 0, NULL, NULL);
    if (e != CL_SUCCESS) {
        char what[64];
        snprintf(what, sizeof what, "kernel %s", kernel_names[kid]);
        bad(be, e, what);
    }
}

/* groups of an element-wise kernel (each item strides over the rest) */
static size_t groups_for(hpls_int n)
{
    hpls_int g = (n + WG - 1) / WG;
    return g < 1 ? 1 : g > 4 * NGMAX ? 4 * NGMAX : (size_t)g;
}

/* groups of a reduction: at most NGMAX partials per column */
static int rgroups(hpls_int n)
{
    hpls_int g = (n + WG - 1) / WG;
    return g < 1 ? 1 : g > NGMAX ? NGMAX : (int)g;
}

/* Room for ncol columns of partials and results. */
static int ensure_part(hpls_backend *be, int ncol)
{
    ocl_state *S = be->impl;
    if (ncol <= S->cap)
        return be->err == HPLS_OK;
    int cap = ncol < 16 ? 16 : ncol;
    cl_int e;
    cl_mem part =
        clCreateBuffer(G.ctx, CL_MEM_READ_WRITE, (size_t)NGMAX * cap * sizeof(double), NULL, &e);
    if (bad(be, e, "reduction buffer"))
        return 0;
    cl_mem out = clCreateBuffer(G.ctx, CL_MEM_READ_WRITE, (size_t)cap * sizeof(double), NULL, &e);
    if (bad(be, e, "reduction buffer")) {
        clReleaseMemObject(part);
        return 0;
    }
    if (S->part) {
        clReleaseMemObject(S->part);
        clReleaseMemObject(S->out);
    }
    S->part = part;
    S->out = out;
    S->cap = cap;
    return be->err == HPLS_OK;
}

/* The second stage: ncol columns of ng partials combined by op into h (NaN
 * after a failure, so a method stops at its next test). */
static void finish(hpls_backend *be, int ng, int ncol, int op, double *h)
{
    ocl_state *S = be->impl;
    RUN(be, K_red_final, 1, ARG(ng), ARG(ncol), ARG(op), ARG(S->part), ARG(S->out));
    if (be->err == HPLS_OK)
        bad(be,
            clEnqueueReadBuffer(S->q, S->out, CL_TRUE, 0, (size_t)ncol * sizeof *h, h, 0, NULL,
                                NULL),
            "reading a reduction");
    for (int c = 0; be->err != HPLS_OK && c < ncol; c++)
        h[c] = NAN;
}

/* m <= 3 dot products (a[i], b[i]) in one pass into columns col[i] of ncol */
static void dots(hpls_backend *be, hpls_int n, int m, const hpls_dvec *const *a,
                 const hpls_dvec *const *b, const int *col, int ncol)
{
    ocl_state *S = be->impl;
    cl_long nn = n;
    cl_mem A[3], B[3];
    int c[3];
    for (int i = 0; i < 3; i++) { /* unused pairs repeat the first (not read) */
        A[i] = MEM(a[i < m ? i : 0]);
        B[i] = MEM(b[i < m ? i : 0]);
        c[i] = col[i < m ? i : 0];
    }
    RUN(be, K_dot_part, (size_t)rgroups(n), ARG(nn), ARG(m), ARG(A[0]), ARG(B[0]), ARG(A[1]),
        ARG(B[1]), ARG(A[2]), ARG(B[2]), ARG(S->part), ARG(ncol), ARG(c[0]), ARG(c[1]), ARG(c[2]));
}

/* ---- memory ------------------------------------------------------------- */
static hpls_status v_alloc(hpls_backend *be, hpls_int n, hpls_dvec **out)
{
    ocl_state *S = be->impl;
    *out = NULL;
    struct ocl_vec *v = hpls_malloc(1, sizeof *v);
    if (!v)
        return HPLS_ERR_NOMEM;
    size_t bytes = (size_t)(n > 0 ? n : 1) * sizeof(double);
    cl_int e;
    v->m = clCreateBuffer(G.ctx, CL_MEM_READ_WRITE, bytes, NULL, &e);
    v->n = n;
    if (e == CL_SUCCESS) {
        double zero = 0.0;
        e = clEnqueueFillBuffer(S->q, v->m, &zero, sizeof zero, 0, bytes, 0, NULL, NULL);
        if (e != CL_SUCCESS)
            clReleaseMemObject(v->m);
    }
    if (e != CL_SUCCESS) {
        hpls_free(v);
        return hpls_fail(e == CL_MEM_OBJECT_ALLOCATION_FAILURE ? HPLS_ERR_NOMEM : HPLS_ERR_INTERNAL,
                         "opencl backend: a vector of %lld values: %s (%d)", (long long)n,
                         cl_err(e), (int)e);
    }
    *out = (hpls_dvec *)v;
    return HPLS_OK;
}

static void v_release(hpls_backend *be, hpls_dvec *v)
{
    (void)be;
    if (!v)
        return;
    clReleaseMemObject(MEM(v));
    hpls_free(v);
}

static void v_upload(hpls_backend *be, hpls_int n, const hpls_real *h, hpls_dvec *v)
{
    ocl_state *S = be->impl;
    if (n > 0 && be->err == HPLS_OK)
        bad(be,
            clEnqueueWriteBuffer(S->q, MEM(v), CL_TRUE, 0, (size_t)n * sizeof *h, h, 0, NULL, NULL),
            "upload");
}

static void v_download(hpls_backend *be, hpls_int n, const hpls_dvec *v, hpls_real *h)
{
    ocl_state *S = be->impl;
    if (n > 0 && be->err == HPLS_OK)
        bad(be,
            clEnqueueReadBuffer(S->q, MEM(v), CL_TRUE, 0, (size_t)n * sizeof *h, h, 0, NULL, NULL),
            "download");
}

/* A device vector has no host array: a host kernel that asks is a method or
 * preconditioner not on the device (refused at setup; this is the guard). */
static hpls_real *v_host(hpls_backend *be, const hpls_dvec *v)
{
    hpls_be_fail(be, HPLS_ERR_UNSUPPORTED,
                 "opencl backend: a host kernel asked for the host array "
                 "of device vector %p",
                 (const void *)v);
    return NULL;
}

/* ---- element-wise operations ------------------------------------------- */
static void v_copy(hpls_backend *be, hpls_int n, const hpls_dvec *x, hpls_dvec *y)
{
    ocl_state *S = be->impl;
    if (n > 0 && be->err == HPLS_OK && x != y)
        bad(be,
            clEnqueueCopyBuffer(S->q, MEM(x), MEM(y), 0, 0, (size_t)n * sizeof(double), 0, NULL,
                                NULL),
            "copy");
}

static void v_set(hpls_backend *be, hpls_int n, double a, hpls_dvec *y)
{
    cl_long nn = n;
    RUN(be, K_v_set, groups_for(n), ARG(nn), ARG(a), ARG(MEM(y)));
}

static void v_scale(hpls_backend *be, hpls_int n, double a, hpls_dvec *y)
{
    cl_long nn = n;
    RUN(be, K_v_scale, groups_for(n), ARG(nn), ARG(a), ARG(MEM(y)));
}

static void v_axpy(hpls_backend *be, hpls_int n, double a, const hpls_dvec *x, hpls_dvec *y)
{
    cl_long nn = n;
    RUN(be, K_v_axpy, groups_for(n), ARG(nn), ARG(a), ARG(MEM(x)), ARG(MEM(y)));
}

static void v_axpby(hpls_backend *be, hpls_int n, double a, const hpls_dvec *x, double b,
                    hpls_dvec *y)
{
    cl_long nn = n;
    RUN(be, K_v_axpby, groups_for(n), ARG(nn), ARG(a), ARG(MEM(x)), ARG(b), ARG(MEM(y)));
}

static void v_xpay(hpls_backend *be, hpls_int n, const hpls_dvec *x, double a, hpls_dvec *y)
{
    cl_long nn = n;
    RUN(be, K_v_xpay, groups_for(n), ARG(nn), ARG(MEM(x)), ARG(a), ARG(MEM(y)));
}

static void v_waxpy(hpls_backend *be, hpls_int n, double a, const hpls_dvec *x, const hpls_dvec *y,
                    hpls_dvec *w)
{
    cl_long nn = n;
    RUN(be, K_v_waxpy, groups_for(n), ARG(nn), ARG(a), ARG(MEM(x)), ARG(MEM(y)), ARG(MEM(w)));
}

static void v_axpbypcz(hpls_backend *be, hpls_int n, double a, const hpls_dvec *x, double b,
                       const hpls_dvec *y, double c, hpls_dvec *z)
{
    cl_long nn = n;
    RUN(be, K_v_axpbypcz, groups_for(n), ARG(nn), ARG(a), ARG(MEM(x)), ARG(b), ARG(MEM(y)), ARG(c),
        ARG(MEM(z)));
}

static void v_pmult(hpls_backend *be, hpls_int n, const hpls_dvec *x, const hpls_dvec *y,
                    hpls_dvec *z)
{
    cl_long nn = n;
    RUN(be, K_v_pmult, groups_for(n), ARG(nn), ARG(MEM(x)), ARG(MEM(y)), ARG(MEM(z)));
}

static void v_diag_axpy(hpls_backend *be, hpls_int n, double a, const hpls_dvec *d,
                        const hpls_dvec *x, hpls_dvec *y)
{
    cl_long nn = n;
    RUN(be, K_v_diag_axpy, groups_for(n), ARG(nn), ARG(a), ARG(MEM(d)), ARG(MEM(x)), ARG(MEM(y)));
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
    cl_long nn = n;
    for (int j = 0; j < k; j++)
        RUN(be, K_v_axpy2, groups_for(n), ARG(nn), ARG(a[j]), ARG(b[j]), ARG(MEM(V[j])),
            ARG(MEM(x)), ARG(MEM(y)));
    RUN(be, K_v_maxpy2_end, groups_for(n), ARG(nn), ARG(alpha), ARG(MEM(x)), ARG(beta), ARG(gamma),
        ARG(MEM(y)));
}

static void v_bicgstab_p(hpls_backend *be, hpls_int n, const hpls_dvec *r, double beta,
                         double omega, const hpls_dvec *v, hpls_dvec *p)
{
    cl_long nn = n;
    RUN(be, K_v_bicgstab_p, groups_for(n), ARG(nn), ARG(MEM(r)), ARG(beta), ARG(omega), ARG(MEM(v)),
        ARG(MEM(p)));
}

/* ---- reductions --------------------------------------------------------- */
static double v_dot(hpls_backend *be, hpls_int n, const hpls_dvec *x, const hpls_dvec *y)
{
    double s = NAN;
    int c = 0;
    if (ensure_part(be, 1)) {
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
    ocl_state *S = be->impl;
    double ss = v_dot(be, n, x, x);
    if (be->err != HPLS_OK)
        return NAN;
    if (isfinite(ss) && ss > 1e-280 && ss < 1e280)
        return sqrt(ss);
    cl_long nn = n;
    int ng = rgroups(n);
    double amax = NAN, s = NAN;
    RUN(be, K_amax_part, (size_t)ng, ARG(nn), ARG(MEM(x)), ARG(S->part));
    finish(be, ng, 1, RED_MAX, &amax);
    hpls_be_reduce(be, &amax, 1, HPLS_RED_MAX);
    if (amax == 0.0 || !isfinite(amax))
        return amax;
    RUN(be, K_sscaled_part, (size_t)ng, ARG(nn), ARG(amax), ARG(MEM(x)), ARG(S->part));
    finish(be, ng, 1, RED_SUM, &s);
    hpls_be_reduce(be, &s, 1, HPLS_RED_SUM);
    return amax * sqrt(s);
}

static void v_mdot(hpls_backend *be, hpls_int n, int k, const hpls_dvec *const *V,
                   const hpls_dvec *w, double *h)
{
    const hpls_dvec *W[3] = {w, w, w};
    if (!ensure_part(be, k)) {
        for (int j = 0; j < k; j++)
            h[j] = NAN;
        return;
    }
    for (int j = 0; j < k; j += 3) { /* three basis vectors a pass over w */
        int col[3] = {j, j + 1, j + 2};
        dots(be, n, k - j < 3 ? k - j : 3, V + j, W, col, k);
    }
    if (k > 0)
        finish(be, rgroups(n), k, RED_SUM, h);
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
    cl_long nn = n;
    RUN(be, K_v_bicgstab_xr, groups_for(n), ARG(nn), ARG(alpha), ARG(MEM(phat)), ARG(omega),
        ARG(MEM(shat)), ARG(MEM(s)), ARG(MEM(t)), ARG(MEM(x)), ARG(MEM(r)));
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
    ocl_state *S = be->impl;
    double s = NAN;
    if (ensure_part(be, 1)) {
        cl_long nn = n;
        int ng = rgroups(n);
        RUN(be, K_hisa_update_part, (size_t)ng, ARG(nn), ARG(MEM(b)), ARG(MEM(y)), ARG(MEM(ynew)),
            ARG(MEM(bp)), ARG(S->part));
        finish(be, ng, 1, RED_SUM, &s);
    }
    hpls_be_reduce(be, &s, 1, HPLS_RED_SUM);
    return sqrt(s);
}

static hpls_int v_finite(hpls_backend *be, hpls_int n, const hpls_dvec *x, double *bad_value)
{
    ocl_state *S = be->impl;
    double first = NAN;
    if (ensure_part(be, 1)) {
        cl_long nn = n;
        int ng = rgroups(n);
        RUN(be, K_finite_part, (size_t)ng, ARG(nn), ARG(MEM(x)), ARG(S->part));
        finish(be, ng, 1, RED_MIN, &first);
    }
    if (be->err != HPLS_OK || !(first < (double)n))
        return -1;
    hpls_int i = (hpls_int)first;
    bad(be,
        clEnqueueReadBuffer(S->q, MEM(x), CL_TRUE, (size_t)i * sizeof(double), sizeof(double),
                            bad_value, 0, NULL, NULL),
        "reading a non-finite entry");
    return be->err == HPLS_OK ? i : -1;
}

const hpls_vops hpls_opencl_vops = HPLS_VOPS_OF(v_);

/* ---- CSR on the device -------------------------------------------------- */
/* the buffers of a matrix (NULL: never made) */
static void release3(cl_mem a, cl_mem b, cl_mem c)
{
    const cl_mem m[3] = {a, b, c};
    for (int i = 0; i < 3; i++)
        if (m[i])
            clReleaseMemObject(m[i]);
}

static void csr_release(hpls_backend *be, hpls_dmat *A)
{
    (void)be;
    if (!A)
        return;
    release3(A->rp, A->ci, A->val);
    hpls_free(A);
}

static cl_mem buffer_of(const void *h, size_t bytes, cl_int *e)
{
    if (*e != CL_SUCCESS)
        return NULL;
    if (bytes == 0) /* an empty matrix: a buffer nobody reads */
        return clCreateBuffer(G.ctx, CL_MEM_READ_ONLY, sizeof(double), NULL, e);
    return clCreateBuffer(G.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, (void *)h, e);
}

static hpls_status csr_upload(hpls_backend *be, const hpls_csr *A, int variant, hpls_dmat **out)
{
    *out = NULL;
    hpls_dmat *D = hpls_calloc(1, sizeof *D);
    if (!D)
        return HPLS_ERR_NOMEM;
    cl_int e = CL_SUCCESS;
    D->n = A->nrows;
    D->rp = buffer_of(A->rowptr, (size_t)(A->nrows + 1) * sizeof *A->rowptr, &e);
    D->ci = buffer_of(A->colind, (size_t)A->nnz * sizeof *A->colind, &e);
    D->val = buffer_of(A->val, (size_t)A->nnz * sizeof *A->val, &e);
    if (e != CL_SUCCESS) {
        csr_release(be, D);
        return hpls_fail(e == CL_MEM_OBJECT_ALLOCATION_FAILURE ? HPLS_ERR_NOMEM : HPLS_ERR_INTERNAL,
                         "opencl backend: a CSR matrix of %lld rows, %lld nonzeros: %s (%d)",
                         (long long)A->nrows, (long long)A->nnz, cl_err(e), (int)e);
    }
    D->vector = variant == 2 || (variant == 0 && A->nnz >= (hpls_int)VECTOR_MIN_ROW * A->nrows);
    *out = D;
    return HPLS_OK;
}

static void csr_spmv(hpls_backend *be, const hpls_dmat *A, const hpls_dvec *x, hpls_dvec *y)
{
    cl_long nn = A->n;
    if (A->vector)
        RUN(be, K_csr_spmv_vector, groups_for(A->n * 8), ARG(nn), ARG(A->rp), ARG(A->ci),
            ARG(A->val), ARG(MEM(x)), ARG(MEM(y)));
    else
        RUN(be, K_csr_spmv_scalar, groups_for(A->n), ARG(nn), ARG(A->rp), ARG(A->ci), ARG(A->val),
            ARG(MEM(x)), ARG(MEM(y)));
}

static double csr_residual(hpls_backend *be, const hpls_dmat *A, const hpls_dvec *b,
                           const hpls_dvec *x, hpls_dvec *r)
{
    ocl_state *S = be->impl;
    double ss = NAN;
    if (!ensure_part(be, 1))
        return ss;
    cl_long nn = A->n;
    int ng = rgroups(A->n);
    if (A->vector) { /* A x by rows of lanes, then r = b - A x with the sum */
        csr_spmv(be, A, x, r);
        RUN(be, K_b_minus_part, (size_t)ng, ARG(nn), ARG(MEM(b)), ARG(MEM(r)), ARG(S->part));
    } else {
        RUN(be, K_csr_residual_scalar, (size_t)ng, ARG(nn), ARG(A->rp), ARG(A->ci), ARG(A->val),
            ARG(MEM(b)), ARG(MEM(x)), ARG(MEM(r)), ARG(S->part));
    }
    finish(be, ng, 1, RED_SUM, &ss);
    return ss;
}

/* ---- tridiagonal blocks on the device ------------------------------------ */
struct hpls_dtri {
    cl_mem dl, d, du;
    hpls_int n, block;
};

static void tri_release(hpls_backend *be, hpls_dtri *T)
{
    (void)be;
    if (!T)
        return;
    release3(T->dl, T->d, T->du);
    hpls_free(T);
}

static hpls_status tri_upload(hpls_backend *be, const hpls_tridiag *T, hpls_int block,
                              hpls_dtri **out)
{
    *out = NULL;
    if (block < 1 || block > HPLS_DEVICE_TRI_MAX)
        return hpls_fail(HPLS_ERR_ARG, "opencl backend: tridiagonal blocks of %lld rows (1 to %d)",
                         (long long)block, HPLS_DEVICE_TRI_MAX);
    hpls_dtri *D = hpls_calloc(1, sizeof *D);
    if (!D)
        return HPLS_ERR_NOMEM;
    cl_int e = CL_SUCCESS;
    size_t bytes = (size_t)T->n * sizeof(double);
    *D = (hpls_dtri){.n = T->n, .block = block};
    D->dl = buffer_of(T->dl, bytes, &e);
    D->d = buffer_of(T->d, bytes, &e);
    D->du = buffer_of(T->du, bytes, &e);
    if (e != CL_SUCCESS) {
        tri_release(be, D);
        return hpls_fail(e == CL_MEM_OBJECT_ALLOCATION_FAILURE ? HPLS_ERR_NOMEM : HPLS_ERR_INTERNAL,
                         "opencl backend: a tridiagonal matrix of %lld rows: %s (%d)",
                         (long long)T->n, cl_err(e), (int)e);
    }
    *out = D;
    return HPLS_OK;
}

static void tri_solve(hpls_backend *be, const hpls_dtri *T, const hpls_dvec *b, hpls_dvec *x)
{
    cl_long nn = T->n, bs = T->block;
    hpls_int nb = (T->n + T->block - 1) / T->block; /* a work-group a block (strided beyond) */
    size_t groups = nb < 1 ? 1 : nb > 4 * NGMAX ? 4 * NGMAX : (size_t)nb;
    RUN(be, K_tri_cr, groups, ARG(nn), ARG(bs), ARG(T->dl), ARG(T->d), ARG(T->du), ARG(MEM(b)),
        ARG(MEM(x)));
}

/* ---- triangular sweeps (dilu, dic, ilu0) -------------------------------- */
struct hpls_dsweep {
    cl_mem lo, hi, col, val, row, order, bscale, dinv; /* row, order, bscale, dinv: optional */
    cl_mem flag, ticket;    /* syncfree: ready flags (sweeps done per row), the row ticket */
    hpls_int n, nlev, *off; /* off: the level sets' nlev + 1 offsets, on the host */
    int upper, scaled;      /* scaled: 1 bscale, 2 dinv (sweep.cl) */
    cl_ulong epoch;         /* sweeps started */
};

static void sweep_release(hpls_backend *be, hpls_dsweep *W)
{
    (void)be;
    if (!W)
        return;
    release3(W->lo, W->hi, W->col);
    release3(W->val, W->row, W->order);
    release3(W->bscale, W->dinv, W->flag);
    release3(W->ticket, NULL, NULL);
    hpls_free(W->off);
    hpls_free(W);
}

/* A buffer of n values of size each from h, or NULL when h is (not used) */
static cl_mem optional_buffer(const void *h, size_t n, size_t size, cl_int *e)
{
    return h ? buffer_of(h, n * size, e) : NULL;
}

static hpls_status sweep_upload(hpls_backend *be, const hpls_sweep *w, hpls_dsweep **out)
{
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
    cl_int e = CL_SUCCESS;
    W->lo = buffer_of(T->lo, (size_t)n * sizeof *T->lo, &e);
    W->hi = buffer_of(T->hi, (size_t)n * sizeof *T->hi, &e);
    W->col = buffer_of(T->col, (size_t)nnz * sizeof *T->col, &e);
    W->val = buffer_of(T->val, (size_t)nnz * sizeof *T->val, &e);
    W->row = optional_buffer(T->row, n, sizeof *T->row, &e);
    W->bscale = optional_buffer(w->bscale, n, sizeof *w->bscale, &e);
    W->dinv = optional_buffer(w->dinv, n, sizeof *w->dinv, &e);
    if (w->lev.nlev > 0) {
        W->order = buffer_of(w->lev.order, (size_t)n * sizeof *w->lev.order, &e);
        W->nlev = w->lev.nlev;
        W->off = hpls_malloc(W->nlev + 1, sizeof *W->off);
        for (hpls_int l = 0; W->off && l <= W->nlev; l++)
            W->off[l] = w->lev.off[l];
    }
    if (e == CL_SUCCESS) {
        W->flag = clCreateBuffer(G.ctx, CL_MEM_READ_WRITE,
                                 (size_t)(n > 0 ? n : 1) * sizeof(cl_ulong), NULL, &e);
        cl_ulong zero = 0;
        if (e == CL_SUCCESS)
            e = clEnqueueFillBuffer(((ocl_state *)be->impl)->q, W->flag, &zero, sizeof zero, 0,
                                    (size_t)(n > 0 ? n : 1) * sizeof zero, 0, NULL, NULL);
        if (e == CL_SUCCESS)
            W->ticket = clCreateBuffer(G.ctx, CL_MEM_READ_WRITE, sizeof(cl_ulong), NULL, &e);
    }
    if (e != CL_SUCCESS || (W->nlev > 0 && !W->off)) {
        sweep_release(be, W);
        return e == CL_SUCCESS
                   ? HPLS_ERR_NOMEM
                   : hpls_fail(e == CL_MEM_OBJECT_ALLOCATION_FAILURE ? HPLS_ERR_NOMEM
                                                                     : HPLS_ERR_INTERNAL,
                               "opencl backend: a triangular sweep of %lld rows: %s (%d)",
                               (long long)n, cl_err(e), (int)e);
    }
    *out = W;
    return HPLS_OK;
}

/* Work-groups of one item that run the syncfree sweep: enough to keep every
 * compute unit busy; serial: one, which then takes the rows in order. */
enum { SYNCFREE_GROUPS = 64 };

static void sweep_run(hpls_backend *be, hpls_dsweep *W, int strategy, const hpls_dvec *b,
                      hpls_dvec *x)
{
    ocl_state *S = be->impl;
    cl_mem bm = MEM(b), xm = MEM(x);
    /* an absent optional buffer is passed as lo, never read (scaled says so) */
    cl_mem row = W->row ? W->row : W->lo, bscale = W->bscale ? W->bscale : W->lo;
    cl_mem dinv = W->dinv ? W->dinv : W->lo;
    int has_row = W->row != NULL;
    if (W->n == 0 || be->err != HPLS_OK)
        return;
    if (strategy == 1 && W->nlev > 0) { /* HPLS_TRI_LEVELS: a launch a level */
        for (hpls_int l = 0; l < W->nlev; l++) {
            cl_long first = W->off[l], count = W->off[l + 1] - W->off[l];
            RUN(be, K_sweep_level, groups_for(count), ARG(first), ARG(count), ARG(has_row),
                ARG(W->order), ARG(W->lo), ARG(W->hi), ARG(W->col), ARG(W->val), ARG(bscale),
                ARG(dinv), ARG(W->scaled), ARG(bm), ARG(xm));
        }
        return;
    }
    cl_ulong zero = 0, epoch = ++W->epoch;
    cl_long nn = W->n;
    if (bad(be,
            clEnqueueFillBuffer(S->q, W->ticket, &zero, sizeof zero, 0, sizeof zero, 0, NULL, NULL),
            "the sweep's ticket"))
        return;
    RUNL(be, K_sweep_syncfree, strategy == 2 ? SYNCFREE_GROUPS : 1, 1, ARG(nn), ARG(W->upper),
         ARG(has_row), ARG(row), ARG(W->lo), ARG(W->hi), ARG(W->col), ARG(W->val), ARG(bscale),
         ARG(dinv), ARG(W->scaled), ARG(bm), ARG(xm), ARG(W->flag), ARG(W->ticket), ARG(epoch));
}

/* trisolve=auto: syncfree on a GPU, whose resident work-groups are never
 * preempted; levels on a CPU device, where a work-group holding a ticket is a
 * thread the OS may preempt while the others spin on its rows (convdiff3d
 * nx=32, bicgstab + dilu on PoCL, 2 threads, load 11: syncfree 14.2 s, levels
 * 0.12 s a solve) */
static int auto_sweep(hpls_backend *be)
{
    (void)be;
    return G.cpu ? 1 : 2;
}

const hpls_devops hpls_opencl_devops = {.csr_upload = csr_upload,
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
hpls_status hpls_opencl_devices(FILE *out)
{
    cl_uint np = 0;
    cl_platform_id plats[16];
    cl_int e = clGetPlatformIDs(16, plats, &np);
    if (e != CL_SUCCESS || np == 0) {
        fprintf(out, "opencl: no platform (%s): install an ICD, e.g. Debian's pocl-opencl-icd\n",
                e == CL_SUCCESS ? "none listed" : cl_err(e));
        return HPLS_OK;
    }
    for (cl_uint p = 0; p < np && p < 16; p++) {
        char name[128] = "", ver[128] = "";
        clGetPlatformInfo(plats[p], CL_PLATFORM_NAME, sizeof name - 1, name, NULL);
        clGetPlatformInfo(plats[p], CL_PLATFORM_VERSION, sizeof ver - 1, ver, NULL);
        fprintf(out, "opencl platform %u: %s (%s)\n", (unsigned)p, name, ver);
        cl_device_id devs[16];
        cl_uint nd = 0;
        if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 16, devs, &nd) != CL_SUCCESS)
            nd = 0;
        for (cl_uint d = 0; d < nd && d < 16; d++) {
            char dn[128] = "";
            cl_uint cu = 0;
            cl_ulong mem = 0;
            clGetDeviceInfo(devs[d], CL_DEVICE_NAME, sizeof dn - 1, dn, NULL);
            clGetDeviceInfo(devs[d], CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, NULL);
            clGetDeviceInfo(devs[d], CL_DEVICE_GLOBAL_MEM_SIZE, sizeof mem, &mem, NULL);
            const char *why = unusable(devs[d]);
            fprintf(out, "  device %u: %s, %u compute units, %.1f GiB, %s%s\n", (unsigned)d, dn,
                    (unsigned)cu, (double)mem / (1024.0 * 1024 * 1024),
                    why ? "not usable: " : "usable", why ? why : "");
        }
        if (nd == 0)
            fprintf(out, "  no device\n");
    }
    return HPLS_OK;
}
