/* SPDX-License-Identifier: BSD-3-Clause */
/* team.h: the cpu kernels' parallel loops and regions, run without OpenMP on
 * one thread.  libgomp's parallel region costs about a microsecond even for a
 * team of one (it allocates the team, frees it, and wakes its barrier with a
 * futex call: perf and strace on a 1-thread BiCGSTAB at n = 2000, about ten
 * regions an iteration); most regions here run on one thread below PAR_MIN.
 * One thread runs the same body in place: the same operations in the same
 * order, so no result changes.  The body is a macro argument: it may not hold
 * a #pragma (a region's `omp single` becomes `if (t == 0)`). */
#ifndef HPLS_KERNELS_CPU_TEAM_H
#define HPLS_KERNELS_CPU_TEAM_H

#include <omp.h>

/* for (hpls_int I = 0; I < N; I++) STATEMENT; on NT threads, static partition */
#define HPLS_FOR(NT, I, N, ...)                                                                    \
    do {                                                                                           \
        const int hpls_team_nt_ = (NT);                                                            \
        const hpls_int hpls_team_n_ = (N);                                                         \
        if (hpls_team_nt_ <= 1) {                                                                  \
            for (hpls_int I = 0; I < hpls_team_n_; I++) {                                          \
                __VA_ARGS__;                                                                       \
            }                                                                                      \
        } else {                                                                                   \
            _Pragma("omp parallel for schedule(static) num_threads(hpls_team_nt_)")               \
            for (hpls_int I = 0; I < hpls_team_n_; I++) {                                          \
                __VA_ARGS__;                                                                       \
            }                                                                                      \
        }                                                                                          \
    } while (0)

/* { ... } on a team of NT threads: T the thread's number, Q the team's size
 * (OpenMP may give fewer threads than asked) */
#define HPLS_TEAM(NT, T, Q, ...)                                                                   \
    do {                                                                                           \
        const int hpls_team_nt_ = (NT);                                                            \
        if (hpls_team_nt_ <= 1) {                                                                  \
            const int T = 0, Q = 1;                                                                \
            (void)T, (void)Q;                                                                      \
            __VA_ARGS__                                                                            \
        } else {                                                                                   \
            _Pragma("omp parallel num_threads(hpls_team_nt_)")                                     \
            {                                                                                      \
                const int T = omp_get_thread_num(), Q = omp_get_num_threads();                     \
                (void)T, (void)Q;                                                                  \
                __VA_ARGS__                                                                        \
            }                                                                                      \
        }                                                                                          \
    } while (0)

#endif
