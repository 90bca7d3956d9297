/* SPDX-License-Identifier: BSD-3-Clause */
/* exact_sum.c: the long accumulator of exact_sum.h (carries, merging, the
 * rounding to nearest, the limbs a reduction over ranks adds) and the exact
 * sums the reproducible kernels need beside the vector operations: a sum of
 * squares, and || |A| |x| || row by row in global column order. */
#include "kernels/cpu/exact_sum.h"

#include <math.h>
#include <omp.h>

#define TWO32 ((int64_t)1 << 32)
/* Below this length a sum runs on one thread (blas1.c's PAR_MIN). */
#define PAR_MIN 8192

/* floor(x / 2^32): a right shift of a negative value is implementation-defined in C */
static int64_t floor32(int64_t x)
{
    return x >= 0 ? x / TWO32 : -((-x - 1) / TWO32) - 1;
}

void hpls_xsum_zero(hpls_xsum *a)
{
    memset(a, 0, sizeof *a);
}

void hpls_xsum_special(hpls_xsum *a, uint64_t bits)
{
    if (bits & ((UINT64_C(1) << 52) - 1))
        a->nan++;
    else if (bits >> 63)
        a->ninf++;
    else
        a->pinf++;
}

void hpls_xsum_carry(hpls_xsum *a)
{
    for (int i = 0; i < HPLS_XS_DIGITS - 1; i++) {
        int64_t c = floor32(a->d[i] + TWO32 / 2); /* d[i] - c 2^32 in [-2^31, 2^31) */
        a->d[i] -= c * TWO32;
        a->d[i + 1] += c;
    }
}

void hpls_xsum_merge(hpls_xsum *a, const hpls_xsum *b)
{
    for (int i = 0; i < HPLS_XS_DIGITS; i++)
        a->d[i] += b->d[i];
    a->nan += b->nan;
    a->pinf += b->pinf;
    a->ninf += b->ninf;
    hpls_xsum_carry(a);
}

/* Digits 0 .. top-1 into [0, 2^32), their carries into the top one, which
 * then has the sign of the number. */
static void carry_unsigned(int64_t *d, int top)
{
    for (int i = 0; i < top; i++) {
        int64_t c = floor32(d[i]);
        d[i] -= c * TWO32;
        d[i + 1] += c;
    }
}

/* The 64 bits of N = sum_{q <= top} d[q] 2^(32 q) (digits in [0, 2^32)) from
 * bit pos up (pos may be below 0: zeros there; no bit of N above pos + 63);
 * *sticky set when a bit of N below pos is. */
static uint64_t window(const int64_t *d, int top, int pos, int *sticky)
{
    uint64_t w = 0;
    for (int q = 0; q <= top; q++) {
        uint64_t v = (uint64_t)d[q];
        int shift = 32 * q - pos;
        if (shift >= 0) {
            w |= v << shift;
        } else if (shift > -32) {
            w |= v >> -shift;
            *sticky |= (v & ((UINT64_C(1) << -shift) - 1)) != 0;
        } else {
            *sticky |= v != 0;
        }
    }
    return w;
}

double hpls_xsum_round(const hpls_xsum *a)
{
    if (a->nan > 0 || (a->pinf > 0 && a->ninf > 0))
        return NAN;
    if (a->pinf > 0)
        return INFINITY;
    if (a->ninf > 0)
        return -INFINITY;
    int64_t d[HPLS_XS_DIGITS];
    const int top = HPLS_XS_DIGITS - 1;
    memcpy(d, a->d, sizeof d);
    carry_unsigned(d, top);
    int neg = d[top] < 0;
    if (neg) { /* round |sum|: to nearest, ties to even, is symmetric */
        for (int i = 0; i <= top; i++)
            d[i] = -d[i];
        carry_unsigned(d, top);
    }
    int h = top;
    while (h >= 0 && d[h] == 0)
        h--;
    if (h < 0)
        return 0.0;
    /* the sum is N 2^-1074, N = sum d[i] 2^(32 i), its leading bit at lead */
    int lead = 32 * h + 63 - __builtin_clzll((unsigned long long)d[h]);
    double r;
    if (lead > 1023 + 1074) { /* N 2^-1074 >= 2^1024 */
        r = INFINITY;
    } else if (lead < 53) { /* N < 2^53: a subnormal or a normal double, exactly */
        r = ldexp((double)((uint64_t)d[0] + ((uint64_t)d[1] << 32)), -1074);
    } else { /* 53 bits from lead down; the bit below them and any other below */
        int sticky = 0;
        uint64_t w = window(d, h, lead - 63, &sticky);
        uint64_t m = w >> 11;
        sticky |= (w & 0x3ff) != 0;
        if ((w >> 10 & 1) && (sticky || (m & 1))) /* above half an ulp, or half and m odd */
            m++;
        /* m = 2^53 is exact; rounded up past DBL_MAX (lead = 2097): Inf, said
         * rather than made by ldexp, whose overflow would trap (feenableexcept) */
        r = (m >> 53) && lead - 1073 >= 1024 ? INFINITY : ldexp((double)m, lead - 52 - 1074);
    }
    return neg ? -r : r;
}

void hpls_xsum_limbs(const hpls_xsum *a, double *limbs)
{
    for (int i = 0; i < HPLS_XS_DIGITS; i++)
        limbs[i] = (double)a->d[i];
    limbs[HPLS_XS_DIGITS] = a->nan > 0;
    limbs[HPLS_XS_DIGITS + 1] = a->pinf > 0;
    limbs[HPLS_XS_DIGITS + 2] = a->ninf > 0;
}

/* A limb the ranks added: an integer below 2^53 (anything else, after a
 * failed reduction, reads as 0: the solve stops on the failure). */
static int64_t limb(double v)
{
    return fabs(v) < 0x1p62 ? (int64_t)v : 0;
}

void hpls_xsum_from_limbs(hpls_xsum *a, const double *limbs)
{
    for (int i = 0; i < HPLS_XS_DIGITS; i++)
        a->d[i] = limb(limbs[i]);
    a->nan = limb(limbs[HPLS_XS_DIGITS]);
    a->pinf = limb(limbs[HPLS_XS_DIGITS + 1]);
    a->ninf = limb(limbs[HPLS_XS_DIGITS + 2]);
    hpls_xsum_carry(a);
}

void hpls_xsum_reduce(hpls_backend *be, hpls_xsum *acc, int k, double *limbs, double *out)
{
    if (be->reduce) {
        for (int j = 0; j < k; j++)
            hpls_xsum_limbs(&acc[j], limbs + (size_t)j * HPLS_XS_LIMBS);
        hpls_be_reduce(be, limbs, k * HPLS_XS_LIMBS, HPLS_RED_SUM);
        for (int j = 0; j < k; j++)
            hpls_xsum_from_limbs(&acc[j], limbs + (size_t)j * HPLS_XS_LIMBS);
    }
    for (int j = 0; j < k; j++)
        out[j] = hpls_xsum_round(&acc[j]);
}

double hpls_xsum_sumsq(int nt, hpls_int n, const hpls_real *x)
{
    hpls_xsum total;
    hpls_xsum_zero(&total);
#pragma omp parallel num_threads(n < PAR_MIN ? 1 : nt)
    {
        int t = omp_get_thread_num(), p = omp_get_num_threads();
        hpls_xsum a;
        hpls_xsum_zero(&a);
        for (hpls_int b = n * t / p, hi = n * (t + 1) / p; b < hi; b += HPLS_XS_BATCH) {
            hpls_int e = hi - b < HPLS_XS_BATCH ? hi : b + HPLS_XS_BATCH;
            for (hpls_int i = b; i < e; i++) {
                double sq = x[i] * x[i];
                hpls_xsum_add(&a, sq);
            }
            hpls_xsum_carry(&a);
        }
#pragma omp critical
        hpls_xsum_merge(&total, &a); /* integer sums: the order of the threads does not matter */
    }
    return hpls_xsum_round(&total);
}

double hpls_xsum_abs_rows(hpls_backend *be, const hpls_csr *Ad, const hpls_csr *Ao,
                          const hpls_real *x, const hpls_real *ghost, hpls_int left)
{
    hpls_int m = Ad->nrows;
    hpls_xsum total;
    hpls_xsum_zero(&total);
#pragma omp parallel num_threads(m > 32768 ? be->nthreads : 1)
    {
        int t = omp_get_thread_num(), T = omp_get_num_threads(), adds = 0;
        hpls_xsum a;
        hpls_xsum_zero(&a);
        for (hpls_int i = m * t / T; i < m * (t + 1) / T; i++) {
            double sum = 0.0; /* (|A| |x|)_i, left to right in global columns */
            hpls_int p = Ao ? Ao->rowptr[i] : 0, end = Ao ? Ao->rowptr[i + 1] : 0;
            for (; p < end && Ao->colind[p] < left; p++) {
                double prod = fabs(Ao->val[p]) * fabs(ghost[Ao->colind[p]]);
                sum += prod;
            }
            for (hpls_int q = Ad->rowptr[i]; q < Ad->rowptr[i + 1]; q++) {
                double prod = fabs(Ad->val[q]) * fabs(x[Ad->colind[q]]);
                sum += prod;
            }
            for (; p < end; p++) {
                double prod = fabs(Ao->val[p]) * fabs(ghost[Ao->colind[p]]);
                sum += prod;
            }
            hpls_xsum_add(&a, sum * sum);
            if (++adds == HPLS_XS_BATCH) {
                hpls_xsum_carry(&a);
                adds = 0;
            }
        }
        hpls_xsum_carry(&a);
#pragma omp critical
        hpls_xsum_merge(&total, &a);
    }
    double ss, limbs[HPLS_XS_LIMBS];
    hpls_xsum_reduce(be, &total, 1, limbs, &ss);
    return sqrt(ss);
}
