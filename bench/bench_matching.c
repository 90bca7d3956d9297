/* SPDX-License-Identifier: BSD-3-Clause */
/* bench_matching.c: bicgstab + ilu0 and + dilu on matrices with zero or weak
 * diagonals, without reordering and with reorder=matching (alone, with
 * scale=matching, with scale=ruiz): outcome, iterations, the true residual,
 * setup and solve time, and the matching's own time.
 *
 *   bench_matching [--reps R] [--threads T] MATRIX...
 *       MATRIX: a Matrix Market file, a generator spec, scrambled:SPEC (the
 *       generator's matrix with its columns in a fixed random order: zero
 *       diagonals) or weak:SPEC (scrambled, plus 1e-3 max|row| on the diagonal)
 *       prints the Markdown of bench/results/matching.md (two tables)
 *
 * b = A * ones; tol 1e-8 on ||b - A x|| / ||b||, maxiter 5000, trisolve=serial
 * (the figures then do not depend on auto's timing trials).  Times: medians of
 * R runs (a fresh setup and a solve each). */
#define _POSIX_C_SOURCE 200809L

#include "bench_util.h"
#include "hpls.h"
#include "la/matching.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Noreturn void die(const char *what, const char *detail)
{
    fprintf(stderr, "bench_matching: %s%s\n", what, detail ? detail : "");
    exit(2);
}

/* The columns of A in a fixed pseudo-random order (xorshift, Fisher-Yates). */
static hpls_csr *scramble(const hpls_csr *A)
{
    hpls_int n = A->nrows;
    hpls_int *cp = malloc((size_t)n * sizeof *cp);
    uint32_t r = 12345;
    if (!cp)
        die("out of memory", NULL);
    for (hpls_int k = 0; k < n; k++)
        cp[k] = k;
    for (hpls_int k = n - 1; k > 0; k--) {
        r ^= r << 13;
        r ^= r >> 17;
        r ^= r << 5;
        hpls_int j = (hpls_int)(r % (uint32_t)(k + 1)), t = cp[k];
        cp[k] = cp[j];
        cp[j] = t;
    }
    hpls_csr *B;
    if (hpls_csr_scale_permute(A, NULL, cp, NULL, NULL, &B) != HPLS_OK)
        die("scramble: ", hpls_last_error());
    free(cp);
    return B;
}

/* A + 1e-3 max_j |A_ij| on each diagonal: a weak, not a zero, diagonal
 * (ilu0 and dilu then set up, but on pivots 1000 times too small). */
static hpls_csr *weaken(hpls_csr *A)
{
    hpls_int n = A->nrows, m = A->nnz + n;
    hpls_int *ri = malloc((size_t)m * sizeof *ri), *ci = malloc((size_t)m * sizeof *ci);
    double *v = malloc((size_t)m * sizeof *v);
    if (!ri || !ci || !v)
        die("out of memory", NULL);
    for (hpls_int i = 0; i < n; i++) {
        double amax = 0;
        for (hpls_int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++) {
            ri[p] = i;
            ci[p] = A->colind[p];
            v[p] = A->val[p];
            amax = fmax(amax, fabs(A->val[p]));
        }
        ri[A->nnz + i] = ci[A->nnz + i] = i;
        v[A->nnz + i] = 1e-3 * amax;
    }
    hpls_csr *B;
    if (hpls_csr_from_coo(n, n, m, ri, ci, v, &B) != HPLS_OK)
        die("weaken: ", hpls_last_error());
    free(ri);
    free(ci);
    free(v);
    hpls_csr_destroy(A);
    return B;
}

static hpls_csr *load(const char *arg, char *name, size_t len)
{
    hpls_csr *A = NULL, *B;
    const char *base = strrchr(arg, '/');
    if (strstr(arg, ".mtx")) {
        if (hpls_mm_read_csr(arg, &A) != HPLS_OK)
            die("", hpls_last_error());
        snprintf(name, len, "%.*s", (int)strcspn(base ? base + 1 : arg, "."),
                 base ? base + 1 : arg);
        return A;
    }
    int scrambled = strncmp(arg, "scrambled:", 10) == 0, weak = strncmp(arg, "weak:", 5) == 0;
    const char *spec = scrambled ? arg + 10 : weak ? arg + 5 : arg;
    if (hpls_gen_csr(spec, &A, NULL) != HPLS_OK)
        die("generator: ", hpls_last_error());
    snprintf(name, len, "%s", arg);
    if (!scrambled && !weak)
        return A;
    B = scramble(A);
    hpls_csr_destroy(A);
    return weak ? weaken(B) : B;
}

/* One configuration's outcome: what the table prints. */
typedef struct run {
    char outcome[64];
    int converged;
    hpls_int its;
    double relres, setup_ms, solve_ms;
} run;

static void measure(const hpls_csr *A, const hpls_vec *b, const char *opts, int threads, int reps,
                    run *out)
{
    char all[256];
    snprintf(all, sizeof all, "%s tol=1e-8 maxiter=5000 trisolve=serial threads=%d", opts, threads);
    double *ts = malloc((size_t)reps * sizeof *ts), *tv = malloc((size_t)reps * sizeof *tv);
    hpls_vec *x;
    if (!ts || !tv || hpls_vec_create(A->nrows, &x) != HPLS_OK)
        die("out of memory", NULL);
    *out = (run){.relres = NAN};
    for (int r = 0; r < reps; r++) {
        hpls_solver *s;
        hpls_info info;
        if (hpls_solver_create(&s) != HPLS_OK || hpls_solver_set_options(s, all) != HPLS_OK)
            die("options: ", hpls_last_error());
        hpls_status st = hpls_solver_setup(s, A);
        if (st != HPLS_OK) { /* the same every run: the status names why */
            snprintf(out->outcome, sizeof out->outcome, "setup failed: %s",
                     st == HPLS_ERR_SINGULAR ? "zero pivot" : hpls_strerror(st));
            hpls_solver_destroy(s);
            break;
        }
        memset(x->data, 0, (size_t)A->nrows * sizeof *x->data);
        if (hpls_solver_solve(s, b, x) != HPLS_OK)
            die("solve: ", hpls_solver_message(s));
        hpls_solver_get_info(s, &info);
        ts[r] = 1e3 * info.setup_s;
        tv[r] = 1e3 * info.solve_s;
        out->converged = hpls_reason_converged(info.reason);
        out->its = info.iterations;
        out->relres = info.relres;
        snprintf(out->outcome, sizeof out->outcome, "%s",
                 out->converged ? "converged" : hpls_reason_str(info.reason));
        hpls_solver_destroy(s);
        if (r == reps - 1) {
            out->setup_ms = median(ts, reps);
            out->solve_ms = median(tv, reps);
        }
    }
    free(ts);
    free(tv);
    hpls_vec_destroy(x);
}

/* The matching's and Ruiz's own milliseconds (medians of reps calls). */
static void prep_times(const hpls_csr *A, int reps, double *match_ms, double *ruiz_ms)
{
    hpls_int n = A->nrows;
    hpls_int *colof = malloc((size_t)n * sizeof *colof);
    double *dr = malloc((size_t)n * sizeof *dr), *dc = malloc((size_t)n * sizeof *dc);
    double *tm = malloc((size_t)reps * sizeof *tm), *tr = malloc((size_t)reps * sizeof *tr);
    if (!colof || !dr || !dc || !tm || !tr)
        die("out of memory", NULL);
    for (int r = 0; r < reps; r++) {
        double t0 = hpls_wtime();
        if (hpls_match_product(A, colof, dr, dc) != HPLS_OK)
            die("matching: ", hpls_last_error());
        double t1 = hpls_wtime();
        hpls_scale_ruiz(A, 1e-2, 20, dr, dc);
        tm[r] = 1e3 * (t1 - t0);
        tr[r] = 1e3 * (hpls_wtime() - t1);
    }
    *match_ms = median(tm, reps);
    *ruiz_ms = median(tr, reps);
    free(colof);
    free(dr);
    free(dc);
    free(tm);
    free(tr);
}

int main(int argc, char **argv)
{
    int reps = 3, threads = 1, first = 1;
    for (; first < argc && strncmp(argv[first], "--", 2) == 0; first += 2) {
        if (first + 1 >= argc)
            die("a value is missing after ", argv[first]);
        if (strcmp(argv[first], "--reps") == 0)
            reps = atoi(argv[first + 1]);
        else if (strcmp(argv[first], "--threads") == 0)
            threads = atoi(argv[first + 1]);
        else
            die("unknown option ", argv[first]);
    }
    if (reps < 1 || reps > 100 || threads < 1 || first >= argc)
        die("usage: bench_matching [--reps R] [--threads T] MATRIX...", NULL);
    static const char *const pcs[] = {"ilu0", "dilu"};
    static const char *const transforms[] = {
        "", "reorder=matching", "reorder=matching scale=matching", "reorder=matching scale=ruiz"};
    enum { NPC = 2, NTR = 4 };
    int nm = argc - first;
    run(*res)[NPC][NTR] = calloc((size_t)nm, sizeof *res);
    char(*names)[128] = calloc((size_t)nm, sizeof *names);
    if (!res || !names)
        die("out of memory", NULL);
    printf("| matrix | n | zero diagonals | precond | reorder, scale | outcome | iterations | true "
           "relres | setup ms | solve ms | matching ms | ruiz ms |\n");
    printf("|---|---:|---:|---|---|---|---:|---:|---:|---:|---:|---:|\n");
    for (int m = 0; m < nm; m++) {
        hpls_csr *A = load(argv[first + m], names[m], sizeof names[m]);
        hpls_vec *one, *b;
        if (hpls_vec_create(A->nrows, &one) != HPLS_OK || hpls_vec_create(A->nrows, &b) != HPLS_OK)
            die("out of memory", NULL);
        for (hpls_int i = 0; i < A->nrows; i++)
            one->data[i] = 1.0;
        hpls_csr_spmv(A, one, b);
        double match_ms, ruiz_ms;
        prep_times(A, reps, &match_ms, &ruiz_ms);
        for (int p = 0; p < NPC; p++)
            for (int t = 0; t < NTR; t++) {
                char opts[128];
                run *r = &res[m][p][t];
                snprintf(opts, sizeof opts, "solver=bicgstab precond=%s %s", pcs[p], transforms[t]);
                measure(A, b, opts, threads, reps, r);
                printf("| %s | %lld | %lld | %s | %s | %s |", names[m], (long long)A->nrows,
                       (long long)hpls_csr_zero_diagonals(A), pcs[p], t ? transforms[t] : "none",
                       r->outcome);
                if (isnan(r->relres))
                    printf(" - | - | - | - |");
                else
                    printf(" %lld | %.1e | %.3g | %.3g |", (long long)r->its, r->relres,
                           r->setup_ms, r->solve_ms);
                if (t == 0)
                    printf(" - | - |\n");
                else if (t == 3)
                    printf(" %.3g | %.3g |\n", match_ms, ruiz_ms);
                else
                    printf(" %.3g | - |\n", match_ms);
            }
        hpls_vec_destroy(one);
        hpls_vec_destroy(b);
        hpls_csr_destroy(A);
        fflush(stdout);
    }
    /* per matrix: the fastest converged run without the matching, and with it */
    printf("\nThe fastest converged configuration of each matrix (setup + solve), without and "
           "with the matching:\n\n");
    printf("| matrix | without: precond | ms | iterations | with: precond, reorder, scale | ms | "
           "iterations |\n|---|---|---:|---:|---|---:|---:|\n");
    for (int m = 0; m < nm; m++) {
        printf("| %s |", names[m]);
        for (int with = 0; with < 2; with++) {
            const run *best = NULL;
            char what[160] = "none converged";
            for (int p = 0; p < NPC; p++)
                for (int t = with ? 1 : 0; t < (with ? NTR : 1); t++) {
                    const run *r = &res[m][p][t];
                    if (r->converged &&
                        (!best || r->setup_ms + r->solve_ms < best->setup_ms + best->solve_ms)) {
                        best = r;
                        snprintf(what, sizeof what, "%s%s%s", pcs[p], t ? ", " : "",
                                 t ? transforms[t] : "");
                    }
                }
            if (best)
                printf(" %s | %.3g | %lld |", what, best->setup_ms + best->solve_ms,
                       (long long)best->its);
            else
                printf(" %s | - | - |", what);
        }
        printf("\n");
    }
    free(res);
    free(names);
    return 0;
}
