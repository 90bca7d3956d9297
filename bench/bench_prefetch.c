/* SPDX-License-Identifier: BSD-3-Clause */
/* bench_prefetch.c: the SpMV's software-prefetch variants (kernels/cpu/spmv.c,
 * HPLS_PF_*) on this machine, and the one prefetch=auto keeps.
 *
 *   bench_prefetch [--reps R] [--threads "1 2"] SPEC...
 *       prints one Markdown row per matrix and thread count: the median time of
 *       each variant's SpMV and of the plain -O3 loop (bench_util.h; calls
 *       interleaved, R rounds, each the faster of two calls), the fastest
 *       variant, the default's and auto's choice over the fastest and the
 *       default over the plain loop, and auto's choice (after a solver's first products, 6 to 12, as a solve makes them).
 *
 * The variants give the same bits (tests/unit/test_kernels.c); only their
 * speed differs, and by CPU: this table is the measurement behind the
 * default (rows+x at locality 2) and behind measuring at setup at all. */
#define _POSIX_C_SOURCE 200809L

#include "bench_util.h"
#include "backend/backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_REPS 201
#define NT (HPLS_PF_COUNT + 1) /* the variants, then the plain loop */


static _Noreturn void die(const char *what, const char *detail)
{
    fprintf(stderr, "bench_prefetch: %s%s\n", what, detail);
    exit(1);
}

/* The variant a solver with prefetch=auto keeps after its first products of A. */
static const char *auto_choice(const hpls_csr *A, int nt, char *buf, size_t len)
{
    hpls_solver *s;
    char opts[96];
    snprintf(opts, sizeof opts, "solver=bicgstab tol=0 maxiter=8 prefetch=auto threads=%d", nt);
    hpls_vec *b, *x;
    if (hpls_solver_create(&s) != HPLS_OK || hpls_solver_set_options(s, opts) != HPLS_OK ||
        hpls_solver_setup(s, A) != HPLS_OK || hpls_vec_create(A->nrows, &b) != HPLS_OK ||
        hpls_vec_create(A->nrows, &x) != HPLS_OK)
        die("solver setup failed: ", hpls_last_error());
    for (hpls_int i = 0; i < A->nrows; i++)
        b->data[i] = 1.0;
    if (hpls_solver_solve(s, b, x) != HPLS_OK) /* 8 iterations: 16 products and more */
        die("solve failed: ", hpls_solver_message(s));
    snprintf(buf, len, "%s", hpls_solver_prefetch(s) + strlen("auto: "));
    hpls_vec_destroy(b);
    hpls_vec_destroy(x);
    hpls_solver_destroy(s);
    return buf;
}

int main(int argc, char **argv)
{
    int reps = 21, nthr = 0, thr[8];
    const char *threads = "1 2";
    int first = 1;
    for (; first < argc && strncmp(argv[first], "--", 2) == 0; first += 2) {
        if (first + 1 >= argc)
            die("every option takes a value: ", argv[first]);
        if (strcmp(argv[first], "--reps") == 0)
            reps = atoi(argv[first + 1]);
        else if (strcmp(argv[first], "--threads") == 0)
            threads = argv[first + 1];
        else
            die("unknown option ", argv[first]);
    }
    if (reps < 1 || reps > MAX_REPS)
        die("--reps must be 1 to 201", "");
    for (const char *p = threads; *p && nthr < 8;) {
        char *end;
        long t = strtol(p, &end, 10);
        if (end == p || t < 1 || t > HPLS_MAX_THREADS)
            die("bad --threads list: ", threads);
        thr[nthr++] = (int)t;
        p = end;
    }
    if (first >= argc)
        die("usage: bench_prefetch [--reps R] [--threads \"1 2\"] SPEC...", "");
    printf("| matrix | n | nnz | threads |");
    for (int v = 0; v < HPLS_PF_COUNT; v++)
        printf(" %s, us |", hpls_be_pf_name(v));
    printf(" plain -O3 loop, us | fastest | default / fastest | auto keeps | auto's / fastest | "
           "default / plain loop |\n|---|---:|---:|---:|");
    for (int v = 0; v < NT; v++)
        printf("---:|");
    printf("---|---:|---|---:|---:|\n");
    for (int m = first; m < argc; m++) {
        hpls_csr *A;
        hpls_vec *bvec;
        if (hpls_gen_csr(argv[m], &A, &bvec) != HPLS_OK)
            die("cannot generate the matrix: ", hpls_last_error());
        hpls_real *x = malloc((size_t)A->ncols * sizeof *x), *y = malloc((size_t)A->nrows * sizeof *y);
        if (!x || !y)
            die("out of memory", "");
        for (hpls_int i = 0; i < A->ncols; i++)
            x[i] = 1.0 + (double)(i % 7);
        for (int k = 0; k < nthr; k++) {
            static double t[NT][MAX_REPS];
            for (int r = 0; r < reps; r++)
                for (int v = 0; v < NT; v++) {
                    double best = 1e300;
                    for (int c = 0; c < 2; c++) {
                        double t0 = hpls_wtime();
                        if (v < HPLS_PF_COUNT)
                            hpls_k_spmv_pf(thr[k], v, A, x, y);
                        else
                            bench_plain_spmv(thr[k], A, x, y);
                        double dt = hpls_wtime() - t0;
                        best = dt < best ? dt : best;
                    }
                    t[v][r] = best;
                }
            double med[NT];
            int fast = 0;
            printf("| %s | %lld | %lld | %d |", argv[m], (long long)A->nrows, (long long)A->nnz,
                   thr[k]);
            for (int v = 0; v < NT; v++) {
                med[v] = median(t[v], reps);
                fast = v < HPLS_PF_COUNT && med[v] < med[fast] ? v : fast;
                printf(" %.1f |", 1e6 * med[v]);
            }
            char choice[64];
            auto_choice(A, thr[k], choice, sizeof choice);
            int chosen = 0;
            for (int v = 0; v < HPLS_PF_COUNT; v++)
                chosen = strcmp(choice, hpls_be_pf_name(v)) == 0 ? v : chosen;
            printf(" %s | %.2f | %s | %.2f | %.2f |\n", hpls_be_pf_name(fast), med[0] / med[fast], choice,
                   med[chosen] / med[fast], med[0] / med[HPLS_PF_COUNT]);
        }
        free(x);
        free(y);
        hpls_csr_destroy(A);
        hpls_vec_destroy(bvec);
    }
    return 0;
}
