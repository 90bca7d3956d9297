/* SPDX-License-Identifier: BSD-3-Clause */
/* bench_mmread.c: how fast hpls reads a Matrix Market file into CSR.
 *
 *   bench_mmread FILE [reps]                      median read time and MB/s over reps reads
 *   bench_mmread --make FILE n nnz_per_row seed   writes a random n x n coordinate file
 *
 * The read line is "key=value" pairs so that bench/mmread.sh can pick them up. */
#define _POSIX_C_SOURCE 200809L

#include "bench_util.h"
#include "core/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static uint64_t xorshift(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Row i gets one column in each of k equal bins of [0, n): distinct and
 * sorted without a sort; values uniform in [-1, 1) with all 53 bits used, so
 * the file holds full 17-digit numbers like real data. */
static int make(const char *path, hpls_int n, hpls_int k, unsigned long seed)
{
    if (n < 1 || k < 1 || k > n) {
        fprintf(stderr, "bench_mmread --make: need n >= 1 and 1 <= nnz_per_row <= n\n");
        return 2;
    }
    hpls_csr *A;
    hpls_status st = hpls_csr_create(n, n, n * k, &A);
    if (st != HPLS_OK) {
        fprintf(stderr, "bench_mmread: %s\n", hpls_last_error());
        return 1;
    }
    uint64_t s = 0x9e3779b97f4a7c15ull ^ (uint64_t)seed;
    for (hpls_int i = 0; i < n; i++) {
        for (hpls_int b = 0; b < k; b++) {
            hpls_int lo = b * n / k, hi = (b + 1) * n / k;
            hpls_int p = i * k + b;
            A->colind[p] = (hpls_idx)(lo + (hpls_int)(xorshift(&s) % (uint64_t)(hi - lo)));
            A->val[p] = (double)(xorshift(&s) >> 11) / 4503599627370496.0 - 1.0;
        }
        A->rowptr[i + 1] = (i + 1) * k;
    }
    st = hpls_mm_write_csr(path, A);
    hpls_csr_destroy(A);
    if (st != HPLS_OK) {
        fprintf(stderr, "bench_mmread: %s\n", hpls_last_error());
        return 1;
    }
    return 0;
}

static int bench(const char *path, int reps)
{
    struct stat sb;
    if (stat(path, &sb) != 0) {
        perror(path);
        return 1;
    }
    double *t = malloc((size_t)reps * sizeof *t);
    if (!t)
        return 1;
    hpls_int nrows = 0, nnz = 0;
    for (int r = 0; r < reps; r++) {
        hpls_csr *A;
        double t0 = hpls_wtime();
        hpls_status st = hpls_mm_read_csr(path, &A);
        t[r] = hpls_wtime() - t0;
        if (st != HPLS_OK) {
            fprintf(stderr, "bench_mmread: %s\n", hpls_last_error());
            free(t);
            return 1;
        }
        nrows = A->nrows;
        nnz = A->nnz;
        hpls_csr_destroy(A);
    }
    qsort(t, (size_t)reps, sizeof *t, cmp_double);
    double median = reps % 2 ? t[reps / 2] : 0.5 * (t[reps / 2 - 1] + t[reps / 2]);
    double mb = (double)sb.st_size / 1e6;
    printf("file=%s mb=%.1f rows=%lld nnz=%lld reps=%d median_s=%.3f mb_per_s=%.1f\n", path, mb,
           (long long)nrows, (long long)nnz, reps, median, mb / median);
    free(t);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 6 && strcmp(argv[1], "--make") == 0)
        return make(argv[2], (hpls_int)strtod(argv[3], NULL), (hpls_int)strtod(argv[4], NULL),
                    strtoul(argv[5], NULL, 10));
    if (argc == 2 || argc == 3) {
        int reps = argc == 3 ? atoi(argv[2]) : 5;
        return bench(argv[1], reps > 0 ? reps : 1);
    }
    fprintf(stderr, "usage: bench_mmread FILE [reps]\n"
                    "       bench_mmread --make FILE n nnz_per_row seed\n");
    return 2;
}
