/* SPDX-License-Identifier: BSD-3-Clause */
/* exact_sum.h: exact sums of doubles, the reductions of reproducible=1
 * (kernels/cpu/blas1_exact.c, mpi/dcsr_spmv.c).
 *
 * A sum is held as a long fixed-point number (Kulisch's long accumulator):
 * HPLS_XS_DIGITS signed digits, digit i weighing 2^(32 i - 1074), so the
 * lowest bit of a subnormal and the highest of DBL_MAX both fall inside.
 * Each digit is an int64_t holding a 32-bit digit plus room for carries, so
 * HPLS_XS_BATCH terms are added (a term touches two digits) before the
 * carries are propagated: Neal's "small superaccumulator" (R. M. Neal, Fast
 * exact summation using small and large superaccumulators, arXiv:1505.05571,
 * 2015, Sec. 3; the digit layout here is this file's own).  Adding is integer
 * addition, which is associative: the sum is the same whatever the order of
 * its terms and however they are cut among threads and ranks; it is rounded
 * once, at the end.  Ranks add their accumulators through the backend's
 * reduction hook as doubles (HPLS_XS_LIMBS per sum), each an integer below
 * 2^31 in magnitude after hpls_xsum_carry, so MPI_SUM adds them exactly in
 * any order on up to 2^21 ranks.
 *
 * The value of a sum (defined here, tested in tests/unit/test_exact_sum.c):
 *   a NaN term, or both a +Inf and a -Inf term: NaN (the default quiet NaN);
 *   else a +Inf term: +Inf; a -Inf term: -Inf;
 *   else the exact sum of the terms rounded to nearest, ties to even: +-Inf
 *   when that rounds beyond DBL_MAX, no overflow on the way (DBL_MAX +
 *   DBL_MAX - DBL_MAX is DBL_MAX), subnormal sums exact, an exact zero +0.
 * IEEE addition in one order agrees with it wherever that order's sum is
 * exact; elsewhere this is the correctly rounded sum, which no order of IEEE
 * additions is guaranteed to give. */
#ifndef HPLS_EXACT_SUM_H
#define HPLS_EXACT_SUM_H

#include "backend/backend.h"

#include <stdint.h>
#include <string.h>

/* 67 digits: a term's bits reach digit 65 (DBL_MAX's top bit is bit 2097
 * above 2^-1074); digit 66 takes the carries of sums beyond 2^1038: n terms
 * put at most n 2^-14 there. */
#define HPLS_XS_DIGITS 67
/* Terms added between two hpls_xsum_carry: a digit starts within 2^31 of 0
 * and a term adds less than 2^52 to it, so 1024 terms keep it below 2^63. */
#define HPLS_XS_BATCH 1024
/* Doubles a sum takes through a reduction: its digits, then its NaN, +Inf
 * and -Inf flags (0 or 1 per rank). */
#define HPLS_XS_LIMBS (HPLS_XS_DIGITS + 3)
/* Sums one exact reduction of the cpu backend holds at most (blas1_exact.c:
 * mdot2's block of 64 vectors against x and y, and x and y's 3 dots). */
#define HPLS_XS_MAXVALS (2 * 64 + 3)

typedef struct hpls_xsum {
    int64_t d[HPLS_XS_DIGITS]; /* the finite terms: sum of d[i] 2^(32 i - 1074) */
    int64_t nan, pinf, ninf;   /* counts of NaN, +Inf and -Inf terms */
} hpls_xsum;

void hpls_xsum_zero(hpls_xsum *a);
/* Propagates the carries: every digit but the top back within [-2^31, 2^31),
 * so HPLS_XS_BATCH more terms may be added. */
void hpls_xsum_carry(hpls_xsum *a);
/* a += b (both carried); a is carried after. */
void hpls_xsum_merge(hpls_xsum *a, const hpls_xsum *b);
/* The sum rounded to the nearest double (the definition above). */
double hpls_xsum_round(const hpls_xsum *a);
/* A carried a as HPLS_XS_LIMBS doubles (integers below 2^31 but the top
 * digit's), and back from the limbs the ranks' reduction added. */
void hpls_xsum_limbs(const hpls_xsum *a, double *limbs);
void hpls_xsum_from_limbs(hpls_xsum *a, const double *limbs);
/* out[j] = acc[j] (j < k, carried, this rank's) summed over the ranks by
 * be->reduce (one call of k HPLS_XS_LIMBS values, through limbs; none in one
 * process), rounded once.  acc holds the whole sums after. */
void hpls_xsum_reduce(hpls_backend *be, hpls_xsum *acc, int k, double *limbs, double *out);
/* sum x_i^2 over i < n, each square rounded, the sum exact (nt threads; no
 * reduction over ranks). */
double hpls_xsum_sumsq(int nt, hpls_int n, const hpls_real *x);
/* || |A| |x| ||_2 over my rows, reduced over the ranks: row i's sum of
 * |a_ij| |x_j| in global column order (Ao's entries at ghosts below left,
 * then Ad's, then Ao's others; Ao NULL in one process), the squares summed
 * exactly: the same bits on any partition (conv.c's attainable accuracy). */
double hpls_xsum_abs_rows(hpls_backend *be, const hpls_csr *Ad, const hpls_csr *Ao,
                          const hpls_real *x, const hpls_real *ghost, hpls_int left);

/* NaN and infinite terms (out of line: rare). */
void hpls_xsum_special(hpls_xsum *a, uint64_t bits);

/* a += v: v = +-m 2^(p - 1074) with m < 2^53 (p = 0 for subnormals), split at
 * digit p / 32 into the 32 bits of m 2^(p % 32) that fall there and the rest,
 * which go to the next digit. */
static inline void hpls_xsum_add(hpls_xsum *a, double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    uint64_t e = (u >> 52) & 0x7ff;
    if (e == 0x7ff) {
        hpls_xsum_special(a, u);
        return;
    }
    uint64_t normal = e != 0;
    uint64_t m = (u & ((UINT64_C(1) << 52) - 1)) | normal << 52;
    uint64_t p = e - normal, s = p & 31;
    int64_t lo = (int64_t)((m << s) & UINT64_C(0xffffffff)); /* unsigned: the high bits wrap away */
    int64_t hi = (int64_t)(m >> (32 - s));
    int64_t neg = -(int64_t)(u >> 63); /* 0 or -1: (x ^ neg) - neg is -x when negative */
    a->d[p >> 5] += (lo ^ neg) - neg;
    a->d[(p >> 5) + 1] += (hi ^ neg) - neg;
}

#endif /* HPLS_EXACT_SUM_H */
