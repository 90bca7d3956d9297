/* bench_dilu.c: the DILU paper's Tables 2, 3 and 5 (Wang, Liu 2022) reshaped
 * for this machine: setup seconds of dilu and ilu0 per construction strategy,
 * iterations and seconds of BiCGSTAB with none / jacobi / dilu / ilu0, and
 * dilu-BiCGSTAB per application strategy (serial, levels, syncfree, auto).
 *
 *   bench_dilu REPS THREADS (A.mtx | gen-spec) ...
 *
 * One markdown table row per matrix; every time is the median of REPS runs. */
#include "solver.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct run {
    double setup, solve;
    hpls_int its;
    int converged;
    char strategy[32];
} run;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median times of reps setups + solves of b = A 1 with opts. */
static run measure(const hpls_csr *A, const hpls_vec *b, const char *opts, int reps)
{
    double setup[64], solve[64];
    run r = {0};
    hpls_vec *x;
    hpls_vec_create(A->nrows, &x);
    for (int k = 0; k < reps; k++) {
        hpls_solver *s;
        hpls_info info;
        hpls_solver_create(&s);
        if (hpls_solver_set_options(s, opts) != HPLS_OK || hpls_solver_setup(s, A) != HPLS_OK ||
            hpls_solver_solve(s, b, x) != HPLS_OK) {
            r.its = -1;
            snprintf(r.strategy, sizeof r.strategy, "error");
            hpls_solver_destroy(s);
            break;
        }
        hpls_solver_get_info(s, &info);
        setup[k] = info.setup_s;
        solve[k] = info.solve_s;
        r.its = info.iterations;
        r.converged = hpls_reason_converged(info.reason);
        const char *st = hpls_pc_strategy(s);
        snprintf(r.strategy, sizeof r.strategy, "%s", st ? st : "-");
        hpls_solver_destroy(s);
    }
    if (r.its >= 0) {
        qsort(setup, (size_t)reps, sizeof *setup, cmp_double);
        qsort(solve, (size_t)reps, sizeof *solve, cmp_double);
        r.setup = setup[reps / 2];
        r.solve = solve[reps / 2];
    }
    hpls_vec_destroy(x);
    return r;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: bench_dilu REPS THREADS (A.mtx | gen-spec) ...\n");
        return 2;
    }
    int reps = atoi(argv[1]), threads = atoi(argv[2]);
    reps = reps < 1 ? 1 : reps > 64 ? 64 : reps;
    static const char *const strat[] = {"serial", "levels", "syncfree", "auto"};
    static const char *const pcs[] = {"none", "jacobi", "dilu", "ilu0"};
    for (int a = 3; a < argc; a++) {
        hpls_csr *A = NULL;
        hpls_status st = strchr(argv[a], ':') ? hpls_gen_csr(argv[a], &A, NULL)
                                              : hpls_mm_read_csr(argv[a], &A);
        if (st != HPLS_OK) {
            fprintf(stderr, "%s: %s\n", argv[a], hpls_last_error());
            continue;
        }
        hpls_vec *one, *b;
        hpls_vec_create(A->nrows, &one);
        hpls_vec_create(A->nrows, &b);
        for (hpls_int i = 0; i < A->nrows; i++)
            one->data[i] = 1.0;
        hpls_csr_spmv(A, one, b);
        const char *name = strrchr(argv[a], '/') ? strrchr(argv[a], '/') + 1 : argv[a];
        char opts[256];
        printf("| %s | %d | %lld |", name, threads, (long long)A->nrows);
        for (int p = 2; p < 4; p++) /* Table 2: setup by construction strategy */
            for (int k = 0; k < 3; k++) {
                snprintf(opts, sizeof opts, "precond=%s trisolve=%s threads=%d maxiter=1 tol=0",
                         pcs[p], strat[k], threads);
                run r = measure(A, b, opts, reps);
                printf(r.its < 0 ? " error |" : " %.4f |", r.setup);
            }
        for (int p = 0; p < 4; p++) { /* Table 5: iterations and seconds */
            snprintf(opts, sizeof opts, "precond=%s threads=%d maxiter=5000", pcs[p], threads);
            run r = measure(A, b, opts, reps);
            if (r.its < 0)
                printf(" error |");
            else
                printf(" %lld%s / %.4f |", (long long)r.its, r.converged ? "" : "*", r.solve);
        }
        char chosen[32] = "";
        for (int k = 0; k < 4; k++) { /* Table 3: dilu-BiCGSTAB seconds by strategy */
            snprintf(opts, sizeof opts, "precond=dilu trisolve=%s threads=%d maxiter=5000",
                     strat[k], threads);
            run r = measure(A, b, opts, reps);
            printf(r.its < 0 ? " error |" : " %.4f |", r.solve);
            if (k == 3)
                snprintf(chosen, sizeof chosen, "%s", r.strategy);
        }
        printf(" %s |\n", chosen);
        fflush(stdout);
        hpls_vec_destroy(one);
        hpls_vec_destroy(b);
        hpls_csr_destroy(A);
    }
    return 0;
}
