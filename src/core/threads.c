/* SPDX-License-Identifier: BSD-3-Clause */
/* threads.c: how many threads a call runs on when it is not told (OpenMP's
 * default, capped at HPLS_MAX_THREADS; one for a small matrix).  Here, not in
 * the backend, because the objects of la/ and the solvers of direct/ ask too. */
#include "internal.h"

#include <omp.h>

int hpls_default_threads(void)
{
    int p = omp_get_max_threads();
    return p > HPLS_MAX_THREADS ? HPLS_MAX_THREADS : p;
}

int hpls_auto_threads(double nnz)
{
    return nnz >= 0 && nnz < HPLS_ONE_THREAD_NNZ ? 1 : hpls_default_threads();
}
