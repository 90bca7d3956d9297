/* SPDX-License-Identifier: BSD-3-Clause */
/* bench_util.h: what every benchmark program of bench/ sorts and reports by. */
#ifndef HPLS_BENCH_UTIL_H
#define HPLS_BENCH_UTIL_H

#include "hpls.h"

#include <stdlib.h>

/* qsort's order of doubles */
static inline int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The yardstick of issue 29: the textbook CSR product, y = A x, no prefetch, one
 * OpenMP loop over rows with a static schedule (what -O3 makes of it is what a
 * user's own loop would run at). */
static inline void bench_plain_spmv(int nt, const hpls_csr *A, const double *x, double *y)
{
#pragma omp parallel for num_threads(nt) schedule(static)
    for (hpls_int i = 0; i < A->nrows; i++) {
        double s = 0.0;
        for (hpls_int k = A->rowptr[i]; k < A->rowptr[i + 1]; k++)
            s += A->val[k] * x[A->colind[k]];
        y[i] = s;
    }
}

/* The median of t[0..len) (sorts t); for an even len the mean of the middle two. */
static inline double median(double *t, int len)
{
    qsort(t, (size_t)len, sizeof *t, cmp_double);
    return len % 2 ? t[len / 2] : 0.5 * (t[len / 2 - 1] + t[len / 2]);
}

#endif
