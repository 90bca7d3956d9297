/* SPDX-License-Identifier: BSD-3-Clause */
/* bench_many.c: many right-hand sides (hpls_solver_solve_many): seconds per
 * column at nrhs = 1, 2, 4, 8, 16 against nrhs = 1, in one run.
 *
 *   bench_many [--threads "1 2"] [--reps R] [--iters M] SPEC...
 *       prints the Markdown rows of bench/results/many_rhs.md
 *
 * Per matrix, thread count and nrhs, the median of R timings of
 *   - the block residual R = B - A X (A read once per block of up to 8 columns),
 *   - solve_many with jacobi, M iterations (tol 0): native, block residuals,
 *   - solve_many with bicgstab, M iterations: columns one after another
 *     (the control: its ratio stays ~1, there is no block Krylov method yet). */
#define _POSIX_C_SOURCE 200809L

#include "bench_util.h"
#include "core/internal.h"
#include "hpls.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Noreturn void die(const char *what, const char *detail)
{
    fprintf(stderr, "bench_many: %s%s\n", what, detail ? detail : "");
    exit(2);
}

/* seconds per column of one timing of what (0 kernel, 1 jacobi, 2 bicgstab) */
static double time_one(int what, const hpls_csr *A, int nt, hpls_int k, int iters,
                       const hpls_real *B, hpls_real *X, hpls_real *R, double *ss)
{
    hpls_int n = A->nrows;
    if (what == 0) {
        double t0 = hpls_wtime();
        hpls_k_residual_block(nt, A, k, B, X, R, n, ss);
        return (hpls_wtime() - t0) / (double)k;
    }
    hpls_solver *s;
    char opt[128];
    snprintf(opt, sizeof opt, "solver=%s tol=0 maxiter=%d threads=%d",
             what == 1 ? "jacobi" : "bicgstab", iters, nt);
    if (hpls_solver_create(&s) != HPLS_OK || hpls_solver_set_options(s, opt) != HPLS_OK ||
        hpls_solver_setup(s, A) != HPLS_OK)
        die("setup failed: ", hpls_last_error());
    double t0 = hpls_wtime();
    if (hpls_solver_solve_many(s, k, B, X, NULL) != HPLS_OK)
        die("solve failed: ", hpls_solver_message(s));
    double t = (hpls_wtime() - t0) / (double)k;
    hpls_solver_destroy(s);
    return t;
}

int main(int argc, char **argv)
{
    const char *threads = "1 2";
    int reps = 5, iters = 20, first = 1;
    for (; first < argc && strncmp(argv[first], "--", 2) == 0; first += 2) {
        if (first + 1 >= argc)
            die("a value is missing after ", argv[first]);
        if (strcmp(argv[first], "--threads") == 0)
            threads = argv[first + 1];
        else if (strcmp(argv[first], "--reps") == 0)
            reps = atoi(argv[first + 1]);
        else if (strcmp(argv[first], "--iters") == 0)
            iters = atoi(argv[first + 1]);
        else
            die("unknown option ", argv[first]);
    }
    if (reps < 1 || reps > 100 || iters < 1 || first >= argc)
        die("usage: bench_many [--threads \"1 2\"] [--reps R] [--iters M] SPEC...", NULL);
    static const hpls_int ks[] = {1, 2, 4, 8, 16};
    static const char *const what[] = {"R = B - A X", "jacobi (native)", "bicgstab (per column)"};
    enum { NK = sizeof ks / sizeof *ks };
    for (int a = first; a < argc; a++) {
        hpls_csr *A;
        if (hpls_gen_csr(argv[a], &A, NULL) != HPLS_OK)
            die("generator: ", hpls_last_error());
        hpls_int n = A->nrows, kmax = ks[NK - 1];
        hpls_real *B = hpls_malloc(n * kmax, sizeof *B), *X = hpls_malloc(n * kmax, sizeof *X);
        hpls_real *R = hpls_malloc(n * kmax, sizeof *R);
        double ss[16], t[100];
        if (!B || !X || !R)
            die("out of memory", NULL);
        for (hpls_int i = 0; i < n * kmax; i++) { /* first touch in parallel, as the solves */
            B[i] = 1.0 + (double)(i / n);
            X[i] = 0.0;
            R[i] = 0.0;
        }
        char list[64];
        snprintf(list, sizeof list, "%s", threads);
        for (char *tok = strtok(list, " "); tok; tok = strtok(NULL, " ")) {
            int nt = atoi(tok);
            for (int w = 0; w < 3; w++) {
                double per[NK];
                for (int q = 0; q < NK; q++) {
                    for (int r = 0; r < reps; r++)
                        t[r] = time_one(w, A, nt, ks[q], iters, B, X, R, ss);
                    per[q] = median(t, reps);
                }
                printf("| %s | %s | %d | %.3g |", argv[a], what[w], nt,
                       1e3 * per[0] / (w ? iters : 1));
                for (int q = 1; q < NK; q++)
                    printf(" %.3f |", per[q] / per[0]);
                printf("\n");
                fflush(stdout);
            }
        }
        hpls_free(B);
        hpls_free(X);
        hpls_free(R);
        hpls_csr_destroy(A);
    }
    return 0;
}
