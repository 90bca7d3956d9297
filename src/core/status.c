/* SPDX-License-Identifier: BSD-3-Clause */
/* status.c: status names and the thread-local message of object-less calls. */
#include "internal.h"

#include <stdio.h>

static _Thread_local char last_error[512];

const char *hpls_strerror(hpls_status st)
{
    switch (st) {
    case HPLS_OK: return "success";
    case HPLS_ERR_ARG: return "invalid argument";
    case HPLS_ERR_NOMEM: return "out of memory";
    case HPLS_ERR_IO: return "input/output error";
    case HPLS_ERR_PARSE: return "malformed input";
    case HPLS_ERR_UNSUPPORTED: return "unsupported input";
    case HPLS_ERR_OPTION: return "bad option";
    case HPLS_ERR_SIZE: return "size mismatch or index out of range";
    case HPLS_ERR_VALUE: return "NaN or Inf in input";
    case HPLS_ERR_ZERO_DIAG: return "zero or missing diagonal entry";
    case HPLS_ERR_STATE: return "call out of order";
    case HPLS_ERR_NOT_COMPILED: return "feature not compiled in";
    case HPLS_ERR_INTERNAL: return "internal error";
    case HPLS_ERR_SINGULAR: return "singular matrix (zero or tiny pivot)";
    case HPLS_ERR_CALLBACK: return "a user callback failed";
    }
    return "unknown status";
}

const char *hpls_version(int *major, int *minor, int *patch)
{
    if (major)
        *major = HPLS_VERSION_MAJOR;
    if (minor)
        *minor = HPLS_VERSION_MINOR;
    if (patch)
        *patch = HPLS_VERSION_PATCH;
#define HPLS_STR2(x) #x
#define HPLS_STR(x) HPLS_STR2(x)
    return HPLS_STR(HPLS_VERSION_MAJOR) "." HPLS_STR(HPLS_VERSION_MINOR) "." HPLS_STR(
        HPLS_VERSION_PATCH);
}

const char *hpls_last_error(void) { return last_error; }

void hpls_clear_error(void) { last_error[0] = '\0'; }

hpls_status hpls_vfail(hpls_status st, const char *fmt, va_list ap)
{
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    return st;
}

hpls_status hpls_fail(hpls_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    hpls_vfail(st, fmt, ap);
    va_end(ap);
    return st;
}
