/* SPDX-License-Identifier: BSD-3-Clause */
/* opencl.c: the opencl backend's primitives (kernels/device/devhost.h's
 * hpls_devtab) on the OpenCL 1.2 host API: buffers are cl_mem objects, every
 * copy and launch goes to the backend's in-order queue, a kernel is a
 * cl_kernel of the program built from kernels/device (its arguments set by
 * the kinds of kernels.h).  Everything above these primitives (the vector
 * operations, reductions, uploads and devops) is the device host layer's,
 * shared with the cuda backend.
 *
 * The context and the program are the process's: the first backend created
 * picks the first platform with a device, builds the kernels from the
 * embedded text (cmake/embed.cmake) and keeps both until exit, so later
 * solvers pay neither; each backend has its own in-order queue and kernel
 * objects (a kernel's arguments are per object: two solvers never share one).
 *
 * Host kernels (be->k) are the cpu backend's: the solver uses them only on
 * host arrays (the user's residual of scale=); a method whose kernels are not
 * on the device yet is refused at setup (solver/setup.c, HPLS_M_DEVICE). */
#include "kernels/device/devhost.h"

#include <CL/cl.h>
#include <stdio.h>
#include <threads.h>

extern const char hpls_device_src[]; /* dialect.h + the kernel files (generated) */

#define K_NAME(name, sig) #name,
static const char *const kernel_names[] = {HPLS_DEVICE_KERNELS(K_NAME)};

/* The process's device, context and program (built once, kept until exit). */
static struct {
    hpls_status st;
    char msg[200];
    int cpu; /* the device is a CPU (PoCL): its work-groups are threads the OS may preempt */
    cl_uint units; /* its compute units */
    cl_device_id dev;
    cl_context ctx;
    cl_program prog;
} G;

/* A backend's own: its queue and a kernel object of every kernel. */
typedef struct ocl_state {
    cl_command_queue q;
    cl_kernel k[HPLS_K_COUNT];
} ocl_state;

#define MEM(b) ((cl_mem)(b))
#define QUEUE(be) (((ocl_state *)hpls_dev_native(be))->q)

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

/* The status of a failed call e, with "what: why (code)" as the message. */
static hpls_status cl_fail(cl_int e, const char *what)
{
    hpls_status st = e == CL_MEM_OBJECT_ALLOCATION_FAILURE || e == CL_OUT_OF_HOST_MEMORY
                         ? HPLS_ERR_NOMEM
                         : HPLS_ERR_INTERNAL;
    return hpls_fail(st, "%s: %s (%d)", what, cl_err(e), (int)e);
}
#define CL_STATUS(e, what) ((e) == CL_SUCCESS ? HPLS_OK : cl_fail(e, what))

/* Why the kernels cannot run on dev (NULL: they can): doubles, work-groups
 * of HPLS_DEV_WG, local memory for tri_cr's five arrays of HPLS_DEVICE_TRI_MAX doubles. */
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
    if (wg < HPLS_DEV_WG)
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
    clGetDeviceInfo(G.dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof G.units, &G.units, NULL);
    G.ctx = clCreateContext(NULL, 1, &G.dev, NULL, NULL, &e);
    if (e != CL_SUCCESS) {
        snprintf(G.msg, sizeof G.msg, "opencl backend: clCreateContext: %s (%d)", cl_err(e), e);
        return HPLS_ERR_UNSUPPORTED;
    }
    const char *src = hpls_device_src;
    G.prog = clCreateProgramWithSource(G.ctx, 1, &src, NULL, &e);
    if (e == CL_SUCCESS) {
        char opts[96]; /* the sizes the kernels and this file share */
        snprintf(opts, sizeof opts, "-cl-std=CL1.2 -DWG=%d -DTB=%d", HPLS_DEV_WG,
                 HPLS_DEVICE_TRI_MAX);
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

/* ---- the primitives ----------------------------------------------------- */
static void ocl_fini(hpls_backend *be, hpls_dev *dev)
{
    ocl_state *S = dev->native;
    (void)be;
    if (!S)
        return;
    for (int i = 0; i < HPLS_K_COUNT; i++)
        if (S->k[i])
            clReleaseKernel(S->k[i]);
    if (S->q)
        clReleaseCommandQueue(S->q);
    hpls_free(S);
    dev->native = NULL;
}

static hpls_status ocl_init(hpls_backend *be, hpls_dev *dev)
{
    (void)be;
    hpls_status st = global_get();
    if (st != HPLS_OK)
        return st;
    ocl_state *S = hpls_calloc(1, sizeof *S);
    if (!S)
        return HPLS_ERR_NOMEM;
    dev->native = S;
    dev->cpu = G.cpu;
    /* OpenCL tells no resident work-groups a unit: 32, an SM's block slots
     * (NVIDIA since Volta) and about an AMD CU's wave slots */
    if (!G.cpu) {
        dev->syncfree_groups = hpls_dev_gpu_syncfree_groups((int)G.units, 32);
        dev->red_groups = hpls_dev_gpu_red_groups((int)G.units);
        dev->syncfree_lanes = HPLS_DEV_GPU_LANES;
    }
    cl_int e;
    S->q = clCreateCommandQueue(G.ctx, G.dev, 0, &e);
    for (int i = 0; e == CL_SUCCESS && i < HPLS_K_COUNT; i++)
        S->k[i] = clCreateKernel(G.prog, kernel_names[i], &e);
    if (e != CL_SUCCESS)
        return hpls_fail(HPLS_ERR_INTERNAL, "opencl backend: queue or kernels: %s (%d)", cl_err(e),
                         (int)e);
    return HPLS_OK;
}

static hpls_status ocl_alloc(hpls_backend *be, size_t bytes, hpls_dbuf **b)
{
    (void)be;
    cl_int e;
    cl_mem m = clCreateBuffer(G.ctx, CL_MEM_READ_WRITE, bytes, NULL, &e);
    *b = e == CL_SUCCESS ? (hpls_dbuf *)m : NULL;
    return CL_STATUS(e, "clCreateBuffer");
}

static void ocl_release(hpls_backend *be, hpls_dbuf *b)
{
    (void)be;
    if (b)
        clReleaseMemObject(MEM(b));
}

static hpls_status ocl_write(hpls_backend *be, hpls_dbuf *b, size_t off, const void *h,
                             size_t bytes)
{
    cl_int e = clEnqueueWriteBuffer(QUEUE(be), MEM(b), CL_TRUE, off, bytes, h, 0, NULL, NULL);
    return CL_STATUS(e, "clEnqueueWriteBuffer");
}

static hpls_status ocl_read(hpls_backend *be, const hpls_dbuf *b, size_t off, void *h, size_t bytes)
{
    cl_int e = clEnqueueReadBuffer(QUEUE(be), MEM(b), CL_TRUE, off, bytes, h, 0, NULL, NULL);
    return CL_STATUS(e, "clEnqueueReadBuffer");
}

static hpls_status ocl_copy(hpls_backend *be, const hpls_dbuf *src, size_t soff, hpls_dbuf *dst,
                            size_t doff, size_t bytes)
{
    cl_int e = clEnqueueCopyBuffer(QUEUE(be), MEM(src), MEM(dst), soff, doff, bytes, 0, NULL, NULL);
    return CL_STATUS(e, "clEnqueueCopyBuffer");
}

/* a fill's pattern: the widest (up to a double) that divides off and bytes */
static hpls_status ocl_zero(hpls_backend *be, hpls_dbuf *b, size_t off, size_t bytes)
{
    static const unsigned char zeros[8];
    size_t ps = sizeof zeros;
    while (off % ps || bytes % ps)
        ps /= 2;
    cl_int e = clEnqueueFillBuffer(QUEUE(be), MEM(b), zeros, ps, off, bytes, 0, NULL, NULL);
    return CL_STATUS(e, "clEnqueueFillBuffer");
}

/* the arguments by their kinds (devhost.c checked them against kernels.h),
 * then the launch: groups x local work-items */
static hpls_status ocl_launch(hpls_backend *be, int k, size_t groups, size_t local,
                              const hpls_karg *a, int na)
{
    ocl_state *S = hpls_dev_native(be);
    cl_int e = CL_SUCCESS;
    for (int i = 0; e == CL_SUCCESS && i < na; i++) {
        size_t size = a[i].kind == 'i' ? sizeof(cl_int) : a[i].kind == 'g' ? sizeof(cl_mem) : 8;
        e = clSetKernelArg(S->k[k], (cl_uint)i, size, &a[i].v);
    }
    size_t global = groups * local;
    if (e == CL_SUCCESS)
        e = clEnqueueNDRangeKernel(S->q, S->k[k], 1, NULL, &global, &local, 0, NULL, NULL);
    if (e == CL_SUCCESS)
        return HPLS_OK;
    char what[64];
    snprintf(what, sizeof what, "kernel %s", kernel_names[k]);
    return cl_fail(e, what);
}

static hpls_status ocl_sync(hpls_backend *be)
{
    cl_int e = clFinish(QUEUE(be));
    return CL_STATUS(e, "clFinish");
}

/* ---- hpls info --devices -------------------------------------------------- */
static const char *type_name(cl_device_type t)
{
    return t & CL_DEVICE_TYPE_GPU           ? "GPU"
           : t & CL_DEVICE_TYPE_CPU         ? "CPU"
           : t & CL_DEVICE_TYPE_ACCELERATOR ? "accelerator"
                                            : "other";
}

/* Every platform's devices, each with its type (bench/gpu_measured.sh looks
 * for "(GPU)") and whether the kernels can run there; the one backend=opencl
 * takes (global_init: the first device of the first platform that has one)
 * says so. */
static void ocl_devices(FILE *out)
{
    cl_uint np = 0;
    cl_platform_id plats[16];
    cl_int e = clGetPlatformIDs(16, plats, &np);
    if (e != CL_SUCCESS || np == 0) {
        fprintf(out, "opencl: no platform (%s): install an ICD, e.g. Debian's pocl-opencl-icd\n",
                e == CL_SUCCESS ? "none listed" : cl_err(e));
        return;
    }
    int taken = 0; /* the device backend=opencl runs on is listed */
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
            cl_device_type type = 0;
            clGetDeviceInfo(devs[d], CL_DEVICE_NAME, sizeof dn - 1, dn, NULL);
            clGetDeviceInfo(devs[d], CL_DEVICE_TYPE, sizeof type, &type, NULL);
            clGetDeviceInfo(devs[d], CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, NULL);
            clGetDeviceInfo(devs[d], CL_DEVICE_GLOBAL_MEM_SIZE, sizeof mem, &mem, NULL);
            const char *why = unusable(devs[d]);
            int first = !taken && d == 0;
            fprintf(out, "  device %u: %s (%s), %u compute units, %.1f GiB, %s%s%s\n", (unsigned)d,
                    dn, type_name(type), (unsigned)cu, (double)mem / (1024.0 * 1024 * 1024),
                    why ? "not usable: " : "usable", why ? why : "",
                    first && !why ? "; backend=opencl runs on it" : "");
        }
        taken |= nd > 0;
        if (nd == 0)
            fprintf(out, "  no device\n");
    }
}

#define OCL(m) .m = ocl_##m,
const hpls_devtab hpls_opencl_tab = {HPLS_DEVTAB(OCL)};
