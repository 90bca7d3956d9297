/* SPDX-License-Identifier: BSD-3-Clause */
/* timer.c: a monotonic wall clock for setup and solve times. */
#define _POSIX_C_SOURCE 200809L
#include "internal.h"

#include <time.h>

double hpls_wtime(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
