/* bench_util.h: what every benchmark program of bench/ sorts and reports by. */
#ifndef HPLS_BENCH_UTIL_H
#define HPLS_BENCH_UTIL_H

#include <stdlib.h>

/* qsort's order of doubles */
static inline int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of t[0..len) (sorts t); for an even len the mean of the middle two. */
static inline double median(double *t, int len)
{
    qsort(t, (size_t)len, sizeof *t, cmp_double);
    return len % 2 ? t[len / 2] : 0.5 * (t[len / 2 - 1] + t[len / 2]);
}

#endif
