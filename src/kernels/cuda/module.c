/* module.c: the module's side of kernels/cuda/module.h: its entry point, and
 * libhpls's error and memory functions as calls through the table libhpls
 * lends it (hidden there, so the module cannot link them). */
#include "kernels/cuda/module.h"

#include <stdio.h>

extern const hpls_cuda_module hpls_cuda_module_table; /* cuda.c */

static const hpls_cuda_host *host;

hpls_status hpls_fail(hpls_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    st = host->vfail(st, fmt, ap);
    va_end(ap);
    return st;
}

hpls_status hpls_be_fail(hpls_backend *be, hpls_status st, const char *fmt, ...)
{
    char msg[sizeof be->msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return host->be_fail(be, st, "%s", msg);
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

double hpls_be_norm(hpls_backend *be, hpls_int n, double ss, const hpls_dvec *r)
{
    return host->norm(be, n, ss, r);
}

__attribute__((visibility("default"))) const hpls_cuda_module *
hpls_cuda_entry(long abi, size_t backend_size, size_t vops_size, const hpls_cuda_host *h)
{
    if (abi != HPLS_CUDA_ABI || backend_size != sizeof(hpls_backend) ||
        vops_size != sizeof(hpls_vops) || !h)
        return NULL;
    host = h;
    return &hpls_cuda_module_table;
}
