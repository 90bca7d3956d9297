/* SPDX-License-Identifier: BSD-3-Clause */
/* fpe.c: HPLS_TEST_TRAP_FPE=1 runs a unit test with the floating-point
 * exceptions OpenFOAM traps (trapFpe, sigFpe.C: FE_DIVBYZERO | FE_INVALID |
 * FE_OVERFLOW) enabled from before main, so that any such operation in the
 * library kills the test with SIGFPE (cmocka reports it as the failing test).
 * Threads made later (OpenMP's, PoCL's) inherit the main thread's
 * floating-point environment.  Linked into every unit test (tests/CMakeLists.txt),
 * run by `make check-fpe`.  tu_fpe_hold / tu_fpe_release lift the traps around
 * a call into a third-party library that raises them on purpose (the list is
 * in docs/testing.md), never around hpls's own code. */
#define _GNU_SOURCE /* feenableexcept */
#include "testutil.h"

#include <fenv.h>
#include <stdlib.h>
#include <string.h>

enum { TU_FPE_TRAPS = FE_DIVBYZERO | FE_INVALID | FE_OVERFLOW };

static int trapping; /* the traps are wanted (HPLS_TEST_TRAP_FPE=1) */

__attribute__((constructor)) static void tu_fpe_start(void)
{
    const char *v = getenv("HPLS_TEST_TRAP_FPE");
    if (v && strcmp(v, "1") == 0) {
        trapping = 1;
        feclearexcept(FE_ALL_EXCEPT);
        feenableexcept(TU_FPE_TRAPS);
    }
}

int tu_fpe_trapping(void)
{
    return trapping;
}

/* The traps are per thread: OpenMP's pool threads (made by now, or made
 * later from a thread that holds) are set too, by a region wider than any
 * team the tests ask for. */
enum { TU_FPE_POOL = 64 };

int tu_fpe_hold(void)
{
    int was = fegetexcept() & TU_FPE_TRAPS;
    if (was) {
#pragma omp parallel num_threads(TU_FPE_POOL)
        fedisableexcept(TU_FPE_TRAPS);
    }
    return was;
}

void tu_fpe_release(int was)
{
    if (was) {
#pragma omp parallel num_threads(TU_FPE_POOL)
        {
            feclearexcept(FE_ALL_EXCEPT); /* the flags the held calls raised */
            feenableexcept(was);
        }
    }
}
