/* SPDX-License-Identifier: BSD-3-Clause */
/* klu_solve.c: SuiteSparse KLU (sparse LU, AMD ordering by default) on a Matrix
 * Market file, the direct peer of bench/results/hisa.md (the HISA paper's KLU).
 *
 *   klu_solve A.mtx [reps]
 *
 * b = A 1.  Each of reps runs times klu_analyze (ordering, symbolic), klu_factor
 * (numeric LU) and klu_solve separately; prints one key=value line with the
 * medians, the fill (nonzeros of L + U) and the true relative residual.  Not built
 * by CMake: bench/hisa_tables.sh compiles it with -lklu. */
#define _POSIX_C_SOURCE 200809L

#include <klu.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *t, int len)
{
    qsort(t, (size_t)len, sizeof *t, cmp_double);
    return len % 2 ? t[len / 2] : 0.5 * (t[len / 2 - 1] + t[len / 2]);
}

/* Reads a real general coordinate file into compressed columns (Ap: n+1 column
 * starts, Ai row indices, Ax values); returns n, or -1 with a message. */
static int read_csc(const char *path, int **Ap, int **Ai, double **Ax)
{
    FILE *f = fopen(path, "r");
    char line[1024];
    if (!f || !fgets(line, sizeof line, f) || !strstr(line, "coordinate") ||
        !strstr(line, "real") || !strstr(line, "general")) {
        fprintf(stderr, "klu_solve: %s: not a real general coordinate file\n", path);
        if (f)
            fclose(f);
        return -1;
    }
    do {
        if (!fgets(line, sizeof line, f)) {
            fclose(f);
            return -1;
        }
    } while (line[0] == '%');
    long m, n, nnz;
    if (sscanf(line, "%ld %ld %ld", &m, &n, &nnz) != 3 || m != n || n <= 0 || nnz < 0) {
        fprintf(stderr, "klu_solve: %s: bad size line\n", path);
        fclose(f);
        return -1;
    }
    int *ti = malloc((size_t)nnz * sizeof *ti), *tj = malloc((size_t)nnz * sizeof *tj);
    double *tv = malloc((size_t)nnz * sizeof *tv);
    *Ap = calloc((size_t)n + 1, sizeof **Ap);
    *Ai = malloc((size_t)nnz * sizeof **Ai);
    *Ax = malloc((size_t)nnz * sizeof **Ax);
    if (!ti || !tj || !tv || !*Ap || !*Ai || !*Ax) {
        fprintf(stderr, "klu_solve: out of memory\n");
        fclose(f);
        return -1;
    }
    for (long k = 0; k < nnz; k++) {
        long i, j;
        if (fscanf(f, "%ld %ld %lf", &i, &j, &tv[k]) != 3 || i < 1 || i > n || j < 1 || j > n) {
            fprintf(stderr, "klu_solve: %s: bad entry %ld\n", path, k + 1);
            fclose(f);
            return -1;
        }
        ti[k] = (int)(i - 1);
        tj[k] = (int)(j - 1);
        (*Ap)[j]++; /* count of column j-1, shifted by one */
    }
    fclose(f);
    for (long j = 0; j < n; j++)
        (*Ap)[j + 1] += (*Ap)[j]; /* column starts */
    int *next = malloc((size_t)n * sizeof *next);
    if (!next)
        return -1;
    memcpy(next, *Ap, (size_t)n * sizeof *next);
    for (long k = 0; k < nnz; k++) { /* scatter; KLU accepts unsorted rows */
        int p = next[tj[k]]++;
        (*Ai)[p] = ti[k];
        (*Ax)[p] = tv[k];
    }
    free(next);
    free(ti);
    free(tj);
    free(tv);
    return (int)n;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: klu_solve A.mtx [reps]\n");
        return 2;
    }
    int reps = argc >= 3 ? atoi(argv[2]) : 3;
    if (reps < 1 || reps > 50)
        reps = 3;
    int *Ap, *Ai;
    double *Ax;
    int n = read_csc(argv[1], &Ap, &Ai, &Ax);
    if (n < 0)
        return 2;
    double *b = calloc((size_t)n, sizeof *b), *x = malloc((size_t)n * sizeof *x);
    if (!b || !x)
        return 2;
    for (int j = 0; j < n; j++) /* b = A 1: add column j into b */
        for (int p = Ap[j]; p < Ap[j + 1]; p++)
            b[Ai[p]] += Ax[p];

    double ta[50], tf[50], ts[50];
    long fill = 0;
    klu_common common;
    klu_defaults(&common);
    for (int r = 0; r < reps; r++) {
        double t0 = now();
        klu_symbolic *sym = klu_analyze(n, Ap, Ai, &common);
        double t1 = now();
        klu_numeric *num = sym ? klu_factor(Ap, Ai, Ax, sym, &common) : NULL;
        double t2 = now();
        if (!num) {
            fprintf(stderr, "klu_solve: analyze/factor failed, status %d\n", common.status);
            return 3;
        }
        memcpy(x, b, (size_t)n * sizeof *x);
        if (!klu_solve(sym, num, n, 1, x, &common)) { /* x = A^-1 b in place */
            fprintf(stderr, "klu_solve: solve failed, status %d\n", common.status);
            return 3;
        }
        double t3 = now();
        ta[r] = t1 - t0;
        tf[r] = t2 - t1;
        ts[r] = t3 - t2;
        fill = (long)num->lnz + (long)num->unz;
        klu_free_numeric(&num, &common);
        klu_free_symbolic(&sym, &common);
    }
    double rn = 0.0, bn = 0.0;
    double *r = malloc((size_t)n * sizeof *r);
    if (!r)
        return 2;
    memcpy(r, b, (size_t)n * sizeof *r);
    for (int j = 0; j < n; j++) /* r = b - A x */
        for (int p = Ap[j]; p < Ap[j + 1]; p++)
            r[Ai[p]] -= Ax[p] * x[j];
    for (int i = 0; i < n; i++) {
        rn += r[i] * r[i];
        bn += b[i] * b[i];
    }
    double a = median(ta, reps), fa = median(tf, reps), s = median(ts, reps);
    printf("peer=klu-%d.%d.%d n=%d nnz=%d fill=%ld analyze_s=%.6f factor_s=%.6f solve_s=%.6f "
           "total_s=%.6f relres=%.3e\n",
           KLU_MAIN_VERSION, KLU_SUB_VERSION, KLU_SUBSUB_VERSION, n, Ap[n], fill, a, fa, s,
           a + fa + s, sqrt(rn / bn));
    free(r);
    free(b);
    free(x);
    free(Ap);
    free(Ai);
    free(Ax);
    return 0;
}
