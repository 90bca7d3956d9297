/* SPDX-License-Identifier: BSD-3-Clause */
/* module.c: the module's side of kernels/cuda/module.h: its entry point, and
 * libhpls's error and memory functions as calls through the table libhpls
 * lends it (hidden there, so the module cannot link them). */
#include "kernels/cuda/module.h"

extern const hpls_devtab hpls_cuda_tab; /* cuda.c */

static const hpls_cuda_host *host;

hpls_status hpls_fail(hpls_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    st = host->vfail(st, fmt, ap);
    va_end(ap);
    return st;
}

void *hpls_malloc(hpls_int count, size_t size)
{
    return host->malloc(count, size);
}

void *hpls_calloc(hpls_int count, size_t size)
{
    return host->calloc(count, size);
}

void hpls_free(void *p)
{
    host->free(p);
}

__attribute__((visibility("default"))) const hpls_devtab *
hpls_cuda_entry(long abi, size_t backend_size, size_t tab_size, size_t dev_size,
                const hpls_cuda_host *h)
{
    if (abi != HPLS_CUDA_ABI || backend_size != sizeof(hpls_backend) ||
        tab_size != sizeof(hpls_devtab) || dev_size != sizeof(hpls_dev) || !h)
        return NULL;
    host = h;
    return &hpls_cuda_tab;
}
