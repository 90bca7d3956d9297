/* SPDX-License-Identifier: BSD-3-Clause */
/* memory.c: checked allocation with an injectable failure (the CSparse Tcov idea). */
#include "internal.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

static atomic_long alloc_count;   /* allocations since the last hpls_alloc_fail_at */
static atomic_long alloc_fail_at; /* 0: never fail; k: the k-th allocation fails */

long hpls_alloc_fail_at(long k)
{
    long made = atomic_exchange(&alloc_count, 0);
    atomic_store(&alloc_fail_at, k);
    return made;
}

static size_t checked_bytes(hpls_int count, size_t size)
{
    if (count < 0 || size == 0)
        return 0;
    if ((uint64_t)count > HPLS_MAX_ALLOC / size)
        return 0;
    return count == 0 ? 1 : (size_t)count * size;
}

static void *allocate(hpls_int count, size_t size, int zero)
{
    size_t bytes = checked_bytes(count, size);
    if (bytes == 0) {
        hpls_fail(HPLS_ERR_NOMEM, "cannot allocate %lld items of %zu bytes", (long long)count,
                  size);
        return NULL;
    }
    long k = atomic_load(&alloc_fail_at);
    if (atomic_fetch_add(&alloc_count, 1) + 1 == k) {
        hpls_fail(HPLS_ERR_NOMEM, "allocation %ld failed (injected)", k);
        return NULL;
    }
    void *p = zero ? calloc(1, bytes) : malloc(bytes);
    if (!p)
        hpls_fail(HPLS_ERR_NOMEM, "out of memory allocating %zu bytes", bytes);
    return p;
}

void *hpls_malloc(hpls_int count, size_t size) { return allocate(count, size, 0); }
void *hpls_calloc(hpls_int count, size_t size) { return allocate(count, size, 1); }
void hpls_free(void *p) { free(p); }
