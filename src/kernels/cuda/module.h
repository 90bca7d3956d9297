/* module.h: what libhpls and the optional module libhpls_cuda.so hand each
 * other.  The module (src/kernels/cuda, built with HPLS_CUDA) is loaded with
 * dlopen by src/backend/cuda_loader.c the first time backend=cuda is asked
 * for, so libhpls and the command never depend on the CUDA driver or
 * libraries: without the module or a driver, creating the backend fails with
 * a message and the caller may use another.
 *
 * libhpls's internal functions are hidden (and absent from the command, which
 * links libhpls statically), so the module reaches the few it needs, the
 * error recording and the checked allocator, through hpls_cuda_host; its
 * module.c defines hpls_fail, hpls_be_fail, hpls_malloc ... as calls through
 * that table, and the backend code reads like any other backend's. */
#ifndef HPLS_CUDA_MODULE_H
#define HPLS_CUDA_MODULE_H

#include "backend/backend.h"

/* libhpls's side: lent to the module at load */
typedef struct hpls_cuda_host {
    hpls_status (*vfail)(hpls_status st, const char *fmt, va_list ap); /* hpls_vfail */
    hpls_status (*be_fail)(hpls_backend *be, hpls_status st, const char *fmt, ...)
        HPLS_PRINTF(3, 4);
    void *(*malloc)(hpls_int count, size_t size);
    void *(*calloc)(hpls_int count, size_t size);
    void (*free)(void *p);
    double (*norm)(hpls_backend *be, hpls_int n, double ss, const hpls_dvec *r); /* hpls_be_norm */
} hpls_cuda_host;

/* the module's side */
typedef struct hpls_cuda_module {
    const hpls_vops *vops;
    const hpls_devops *devops;
    /* the device and this backend's stream, handles and buffers: HPLS_ERR_UNSUPPORTED
     * with a message when there is no driver, no device or no kernel image for it */
    hpls_status (*init)(hpls_backend *be);
    void (*fini)(hpls_backend *be);
    void (*devices)(FILE *out); /* driver, runtime, devices (hpls info --devices) */
} hpls_cuda_module;

/* The module's one exported symbol, HPLS_CUDA_ENTRY: its table, or NULL when
 * it was built from another version of hpls (abi and the two sizes differ). */
typedef const hpls_cuda_module *(*hpls_cuda_entry_fn)(long abi, size_t backend_size,
                                                      size_t vops_size, const hpls_cuda_host *host);
#define HPLS_CUDA_ENTRY "hpls_cuda_entry"
const hpls_cuda_module *hpls_cuda_entry(long abi, size_t backend_size, size_t vops_size,
                                        const hpls_cuda_host *host);
#define HPLS_CUDA_ABI (HPLS_VERSION_MAJOR * 10000L + HPLS_VERSION_MINOR * 100L + HPLS_VERSION_PATCH)

#endif /* HPLS_CUDA_MODULE_H */
