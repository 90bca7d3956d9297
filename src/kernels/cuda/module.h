/* SPDX-License-Identifier: BSD-3-Clause */
/* module.h: what libhpls and the optional module libhpls_cuda.so hand each
 * other.  The module (src/kernels/cuda, built with HPLS_CUDA) is loaded with
 * dlopen by src/backend/cuda_loader.c the first time backend=cuda is asked
 * for, so libhpls and the command never depend on the CUDA driver or
 * libraries: without the module or a driver, creating the backend fails with
 * a message and the caller may use another.
 *
 * The module holds the device kernels (compiled by nvcc) and the CUDA
 * runtime's side of the device host layer: a table of primitives
 * (kernels/device/devhost.h's hpls_devtab: buffers, copies, launches,
 * discovery) and the cuSPARSE/cuBLAS routines; everything above them (the
 * vector operations, reductions, uploads, devops) is libhpls's, shared with
 * the opencl backend.  libhpls's internal functions are hidden (and absent
 * from the command, which links libhpls statically), so the module reaches
 * the few it needs, the error recording and the checked allocator, through
 * hpls_cuda_host; its module.c defines hpls_fail, hpls_malloc ... as calls
 * through that table. */
#ifndef HPLS_CUDA_MODULE_H
#define HPLS_CUDA_MODULE_H

#include "kernels/device/devhost.h"

#include <stdarg.h>

/* libhpls's side: lent to the module at load */
typedef struct hpls_cuda_host {
    hpls_status (*vfail)(hpls_status st, const char *fmt, va_list ap); /* hpls_vfail */
    void *(*malloc)(hpls_int count, size_t size);
    void *(*calloc)(hpls_int count, size_t size);
    void (*free)(void *p);
} hpls_cuda_host;

/* The module's one exported symbol, HPLS_CUDA_ENTRY: its primitives, or NULL
 * when it was built from another version of hpls (abi or one of the sizes of
 * the structures both sides read differ). */
typedef const hpls_devtab *(*hpls_cuda_entry_fn)(long abi, size_t backend_size, size_t tab_size,
                                                 size_t dev_size, const hpls_cuda_host *host);
#define HPLS_CUDA_ENTRY "hpls_cuda_entry"
const hpls_devtab *hpls_cuda_entry(long abi, size_t backend_size, size_t tab_size, size_t dev_size,
                                   const hpls_cuda_host *host);
#define HPLS_CUDA_ABI (HPLS_VERSION_MAJOR * 10000L + HPLS_VERSION_MINOR * 100L + HPLS_VERSION_PATCH)

#endif /* HPLS_CUDA_MODULE_H */
