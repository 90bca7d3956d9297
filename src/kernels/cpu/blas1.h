/* SPDX-License-Identifier: BSD-3-Clause */
/* blas1.h: what the cpu backend's vector operations (blas1.c) and their
 * exact-sum versions for reproducible=1 (blas1_exact.c) share: the thread
 * partition, the scratch of partial sums, and the exact table's entries.
 * Nothing outside src/kernels/cpu/ includes it. */
#ifndef HPLS_KERNELS_CPU_BLAS1_H
#define HPLS_KERNELS_CPU_BLAS1_H

#include "backend/backend.h"

/* Below this length a kernel runs on one thread: forking costs more. */
#define PAR_MIN 8192
/* Multi-dots and multi-axpys: vectors per pass (a thread's partial sums live
 * in the backend's scratch; blas1.c says why 64). */
#define MBLOCK 64
/* partial sums of a thread in the scratch: 2 lanes of 2 MBLOCK + 3 (mdot2) */
#define PART (2 * (2 * MBLOCK + 3))

#define A_(v) ((hpls_real *)(v)) /* a cpu handle is the host array */
#define C_(v) ((const hpls_real *)(v))

/* [lo, hi) of thread t among p for n items */
static inline void span(hpls_int n, int t, int p, hpls_int *lo, hpls_int *hi)
{
    *lo = n * t / p;
    *hi = n * (t + 1) / p;
}

/* Threads for n items: one below PAR_MIN. */
static inline int nthreads_for(const hpls_backend *be, hpls_int n)
{
    return n < PAR_MIN ? 1 : be->nthreads;
}

/* The cpu backend's scratch: PART partial sums per thread. */
static inline double *scratch(hpls_backend *be)
{
    return be->impl;
}

/* reproducible=1's table (hpls_cpu_set_exact): blas1.c's operations, with
 * those that sum across entries replaced by the exact ones below. */
extern const hpls_vops hpls_cpu_exact_vops;

/* blas1_exact.c: the operations of that name, every sum exact. */
double hpls_cpu_x_dot(hpls_backend *be, hpls_int n, const hpls_dvec *xv, const hpls_dvec *yv);
double hpls_cpu_x_nrm2(hpls_backend *be, hpls_int n, const hpls_dvec *xv);
void hpls_cpu_x_mdot(hpls_backend *be, hpls_int n, int k, const hpls_dvec *const *V,
                     const hpls_dvec *w, double *h);
void hpls_cpu_x_mdot2(hpls_backend *be, hpls_int n, int k, const hpls_dvec *const *V,
                      const hpls_dvec *xv, const hpls_dvec *yv, double *h);

#endif
