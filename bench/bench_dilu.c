/* SPDX-License-Identifier: BSD-3-Clause */
/* bench_dilu.c: the DILU paper's Tables 2, 3 and 5 (Wang, Liu 2022) reshaped
 * for this machine: setup seconds of dilu and ilu0 per construction strategy,
 * iterations and seconds of BiCGSTAB with none / jacobi / dilu / ilu0, and
 * dilu-BiCGSTAB per application strategy (serial, levels, syncfree, auto).
 *
 *   bench_dilu REPS THREADS (A.mtx | gen-spec) ...
 *
 * One markdown table row per matrix; every time is the median of REPS runs.
 * The setup columns time the preconditioner's own setup (the counterpart of
 * PETSc's PCSetUp), not the solver's work vectors and checks around it.
 *
 *   bench_dilu --apply REPS THREADS (A.mtx | gen-spec) ...
 *
 * The apply against its memory-traffic bound: GB/s of a triad, of the SpMV
 * and of one dilu / ilu0 application (serial sweeps), each from its bytes:
 * SpMV 12 nnz + 8 (n+1) + 16 n; one application (split copies of L and U)
 * 12 (nnz - n) + 16 (n+1) + 40 n (r, 1/E or 1/U_ii, z written, read, written). */
#include "bench_util.h"
#include "options.h"

#include <omp.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct run {
    double setup, solve; /* setup: the preconditioner's own */
    hpls_int its;
    int converged;
    char strategy[32];
} run;

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
        if (s->opt.pc_type->setup) { /* the same setup again, timed alone */
            hpls_pc pc;
            const hpls_pcopts po = hpls_options_pc(&s->opt);
            double t0 = hpls_wtime();
            hpls_status pst = s->opt.pc_type->setup(s->be, s->A, s->At, &po, &pc);
            setup[k] = hpls_wtime() - t0;
            if (pst == HPLS_OK)
                pc.destroy(pc.ctx);
        }
        solve[k] = info.solve_s;
        r.its = info.iterations;
        r.converged = hpls_reason_converged(info.reason);
        const char *st = hpls_pc_strategy(&s->pc);
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

/* Median seconds of reps calls of what(ctx) (one warm-up call first). */
static double median_time(void (*what)(void *), void *ctx, int reps)
{
    double t[64];
    what(ctx);
    for (int k = 0; k < reps; k++) {
        double t0 = hpls_wtime();
        what(ctx);
        t[k] = hpls_wtime() - t0;
    }
    qsort(t, (size_t)reps, sizeof *t, cmp_double);
    return t[reps / 2];
}

typedef struct kctx {
    const hpls_csr *A;
    hpls_solver *s;
    hpls_real *x, *y, *z;
} kctx;

static void do_triad(void *p)
{
    kctx *c = p;
    hpls_int n = c->A->nnz; /* three arrays of nnz, well beyond the caches */
#pragma omp parallel for schedule(static)
    for (hpls_int i = 0; i < n; i++)
        c->z[i] = c->x[i] + 3.0 * c->y[i];
}

static void do_spmv(void *p)
{
    kctx *c = p;
    hpls_k_spmv(hpls_default_threads(), c->A, c->x, c->y);
}

static void do_apply(void *p)
{
    kctx *c = p;
    /* the cpu backend's vectors are host arrays */
    hpls_pc_apply(c->s, (const hpls_dvec *)c->x, (hpls_dvec *)c->y);
}

/* One row: triad, SpMV and dilu / ilu0 application GB/s (see the head). */
static void apply_row(const char *name, const hpls_csr *A, int reps, int threads)
{
    hpls_int n = A->nrows, nnz = A->nnz;
    kctx c = {.A = A};
    c.x = hpls_malloc(nnz, sizeof *c.x);
    c.y = hpls_malloc(nnz, sizeof *c.y);
    c.z = hpls_malloc(nnz, sizeof *c.z);
    hpls_k_set(threads, nnz, 1.0, c.x);
    hpls_k_set(threads, nnz, 2.0, c.y);
    hpls_k_set(threads, nnz, 0.0, c.z);
    double ttriad = median_time(do_triad, &c, reps), gb = 1e-9;
    double tspmv = median_time(do_spmv, &c, reps);
    double bspmv = 12.0 * nnz + 8.0 * (n + 1) + 16.0 * n, bapply = 12.0 * (nnz - n) + 16.0 * (n + 1) + 40.0 * n;
    printf("| %s | %d | %lld | %.1f | %.4f / %.1f |", name, threads, (long long)n,
           24.0 * nnz / ttriad * gb, tspmv, bspmv / tspmv * gb);
    static const char *const pcs[] = {"dilu", "ilu0"};
    for (int p = 0; p < 2; p++) {
        char opts[128];
        snprintf(opts, sizeof opts, "precond=%s trisolve=serial threads=%d", pcs[p], threads);
        hpls_solver_create(&c.s);
        if (hpls_solver_set_options(c.s, opts) != HPLS_OK || hpls_solver_setup(c.s, A) != HPLS_OK) {
            printf(" error |");
        } else {
            double t = median_time(do_apply, &c, reps);
            printf(" %.4f / %.1f (%.2fx SpMV) |", t, bapply / t * gb, t / tspmv);
        }
        hpls_solver_destroy(c.s);
    }
    printf("\n");
    hpls_free(c.x);
    hpls_free(c.y);
    hpls_free(c.z);
}

int main(int argc, char **argv)
{
    int apply = argc > 1 && strcmp(argv[1], "--apply") == 0;
    argv += apply;
    argc -= apply;
    if (argc < 4) {
        fprintf(stderr, "usage: bench_dilu [--apply] REPS THREADS (A.mtx | gen-spec) ...\n");
        return 2;
    }
    int reps = atoi(argv[1]), threads = atoi(argv[2]);
    reps = reps < 1 ? 1 : reps > 64 ? 64 : reps;
    omp_set_num_threads(threads);
    static const char *const strat[] = {"serial", "levels", "syncfree", "auto"};
    /* Table 2 adds block: each thread's diagonal block factored alone (one
     * block, the serial M, at 1 thread), what PETSc's processes do */
    static const char *const build[] = {"serial", "levels", "syncfree", "block"};
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
        if (apply) {
            apply_row(name, A, reps, threads);
            hpls_vec_destroy(one);
            hpls_vec_destroy(b);
            hpls_csr_destroy(A);
            continue;
        }
        char opts[256];
        printf("| %s | %d | %lld |", name, threads, (long long)A->nrows);
        for (int p = 2; p < 4; p++) /* Table 2: setup by construction strategy */
            for (int k = 0; k < 4; k++) {
                snprintf(opts, sizeof opts, "precond=%s trisolve=%s threads=%d maxiter=1 tol=0",
                         pcs[p], build[k], threads);
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
