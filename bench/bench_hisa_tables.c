/* SPDX-License-Identifier: BSD-3-Clause */
/* bench_hisa_tables.c: the hpls side of bench/hisa_tables.sh (the HISA paper's
 * Tables 5-10 and issue 3's Krylov table), plus a triad and a memory probe.
 *
 *   bench_hisa_tables triad THREADS
 *       STREAM-style triad a = b + s c over 3 x 2^24 doubles, median of 7 sweeps;
 *       prints threads=T triad_gbs=G (24 bytes per entry, no write-allocate)
 *   bench_hisa_tables solve SPEC REPS "THREADS..." TOL MAXITER METHOD...
 *       generates A and b = A 1 once, then for every METHOD (solver or
 *       solver+precond; gmres runs with restart=5) and thread count: REPS times
 *       setup + solve from x0 = 0; prints one key=value line with the medians,
 *       and the bytes one iteration must move (bound_bytes, 0 when not counted)
 *   bench_hisa_tables mem SPEC SOLVER [stop]
 *       generates A; with "stop" exits there, else resets the peak-RSS mark
 *       (/proc/self/clear_refs), sets up and solves once and prints the RSS
 *       after generation and the peak reached during setup + solve (kB).
 *
 * The bound counts each vector pass at 8 bytes per entry and an SpMV as
 * nnz (8 + 4) + (n + 1) 8 + n 8 (x once) + n 8 (y): strict, x's gathers free. */
#define _POSIX_C_SOURCE 200809L

#include "bench_util.h"
#include "hpls.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_REPS 32
#define MAX_THREADS 8

static void fail(const char *what, hpls_status st)
{
    fprintf(stderr, "bench_hisa_tables: %s: %s (%s)\n", what, hpls_strerror(st),
            hpls_last_error());
    exit(2);
}

/* ---- triad ------------------------------------------------------------- */
static int run_triad(int threads)
{
    const long n = 1L << 24;
    double *a = malloc((size_t)n * sizeof *a), *b = malloc((size_t)n * sizeof *b);
    double *c = malloc((size_t)n * sizeof *c);
    if (!a || !b || !c) {
        fprintf(stderr, "bench_hisa_tables: out of memory\n");
        return 2;
    }
    omp_set_num_threads(threads);
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++) { /* first touch by the threads that sweep */
        a[i] = 0.0;
        b[i] = 1.0;
        c[i] = 2.0;
    }
    double t[7];
    const double s = 0.5;
    for (int r = 0; r < 7; r++) {
        double t0 = omp_get_wtime();
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; i++)
            a[i] = b[i] + s * c[i]; /* a = b + s c */
        t[r] = omp_get_wtime() - t0;
    }
    double med = median(t, 7);
    printf("threads=%d triad_gbs=%.3f check=%g\n", threads, 24.0 * (double)n / med / 1e9,
           a[n / 2]);
    free(a);
    free(b);
    free(c);
    return 0;
}

/* ---- bytes one iteration must move --------------------------------------- */
/* Vector passes per iteration (reads + writes, no preconditioner) and SpMVs, as
 * counted above each solver loop in src/iter; gmres(5) averages the Arnoldi steps
 * j = 0..4: MGS (dot 2 reads, axpy 2 reads + 1 write) per basis vector, a norm
 * and a scaling, plus per restart the residual and x += V y shared by 5 steps. */
static double bound_bytes(const char *method, double n, double nnz, double nnz_upper)
{
    double spmv = nnz * 12.0 + (n + 1.0) * 8.0 + 2.0 * n * 8.0;
    struct {
        const char *name;
        double vectors, spmvs;
    } tab[] = {
        {"jacobi", 4, 1},   {"gmres", 21, 1.2},    {"bicg", 20, 2},      {"bicgstab", 18, 2},
        {"tfqmr", 18, 1},   {"bicrstab", 36, 2},   {"bicgsafe", 43, 2},
    };
    if (strcmp(method, "gs") == 0) /* sweep over A, its upper part again, 4 vectors */
        return spmv + nnz_upper * 12.0 + (n + 1.0) * 8.0 + 4.0 * n * 8.0;
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
        if (strcmp(method, tab[i].name) == 0)
            return tab[i].spmvs * spmv + tab[i].vectors * n * 8.0;
    return 0.0;
}

/* ---- solve ------------------------------------------------------------- */
static int run_solve(const char *spec, int reps, const char *threadlist, const char *tol,
                     const char *maxiter, int nmethods, char **methods)
{
    hpls_csr *A = NULL;
    hpls_vec *b = NULL, *x = NULL;
    hpls_status st = hpls_gen_csr(spec, &A, &b);
    if (st != HPLS_OK)
        fail(spec, st);
    st = hpls_vec_create(A->nrows, &x);
    if (st != HPLS_OK)
        fail("vector", st);
    double nnz_upper = 0.0;
    for (hpls_int i = 0; i < A->nrows; i++)
        for (hpls_int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++)
            nnz_upper += (hpls_int)A->colind[p] > i;

    int threads[MAX_THREADS], nthreads = 0;
    char tl[256];
    snprintf(tl, sizeof tl, "%s", threadlist);
    for (char *tok = strtok(tl, " ,"); tok && nthreads < MAX_THREADS; tok = strtok(NULL, " ,"))
        threads[nthreads++] = atoi(tok);

    for (int m = 0; m < nmethods; m++) {
        char solver[64], precond[64] = "none";
        snprintf(solver, sizeof solver, "%s", methods[m]);
        char *plus = strchr(solver, '+');
        if (plus) {
            *plus = '\0';
            snprintf(precond, sizeof precond, "%s", plus + 1);
        }
        for (int ti = 0; ti < nthreads; ti++) {
            char opts[512];
            snprintf(opts, sizeof opts, "solver=%s precond=%s tol=%s maxiter=%s threads=%d%s",
                     solver, precond, tol, maxiter, threads[ti],
                     strcmp(solver, "gmres") == 0 ? " restart=5" : "");
            double tsetup[MAX_REPS], tsolve[MAX_REPS];
            hpls_info info = {0};
            for (int r = 0; r < reps; r++) {
                hpls_solver *s = NULL;
                st = hpls_solver_create(&s);
                if (st == HPLS_OK)
                    st = hpls_solver_set_options(s, opts);
                if (st == HPLS_OK)
                    st = hpls_solver_setup(s, A);
                if (st == HPLS_OK) {
                    memset(x->data, 0, (size_t)x->n * sizeof *x->data); /* x0 = 0 */
                    st = hpls_solver_solve(s, b, x);
                }
                if (st == HPLS_OK)
                    st = hpls_solver_get_info(s, &info);
                if (st != HPLS_OK) {
                    printf("method=%s threads=%d failed=\"%s\"\n", methods[m], threads[ti],
                           s ? hpls_solver_message(s) : hpls_strerror(st));
                    hpls_solver_destroy(s);
                    break;
                }
                hpls_solver_destroy(s);
                tsetup[r] = info.setup_s;
                tsolve[r] = info.solve_s;
                if (r == reps - 1) {
                    double su = median(tsetup, reps), so = median(tsolve, reps);
                    long its = (long)info.iterations;
                    printf("method=%s threads=%d n=%ld nnz=%ld iterations=%ld setup_s=%.6f "
                           "solve_s=%.6f per_it_ms=%.5f relres=%.3e reason=%s "
                           "converged=%d bound_bytes=%.0f\n",
                           methods[m], threads[ti], (long)A->nrows, (long)A->nnz, its, su, so,
                           its > 0 ? 1e3 * so / (double)its : 0.0, info.relres,
                           hpls_reason_str(info.reason), hpls_reason_converged(info.reason),
                           plus ? 0.0
                                : bound_bytes(solver, (double)A->nrows, (double)A->nnz,
                                              nnz_upper));
                    fflush(stdout);
                }
            }
        }
    }
    hpls_vec_destroy(x);
    hpls_vec_destroy(b);
    hpls_csr_destroy(A);
    return 0;
}

/* ---- memory ------------------------------------------------------------ */
static long status_kb(const char *key)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    size_t len = strlen(key);
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, key, len) == 0)
            kb = atol(line + len + 1);
    if (f)
        fclose(f);
    return kb;
}

static int run_mem(const char *spec, const char *solver, int stop)
{
    hpls_csr *A = NULL;
    hpls_vec *b = NULL, *x = NULL;
    hpls_status st = hpls_gen_csr(spec, &A, &b);
    if (st != HPLS_OK)
        fail(spec, st);
    long gen_peak = status_kb("VmHWM:"), after_gen = status_kb("VmRSS:");
    if (stop) {
        printf("stage=gen rss_kb=%ld peak_kb=%ld n=%ld nnz=%ld\n", after_gen, gen_peak,
               (long)A->nrows, (long)A->nnz);
        return 0;
    }
    FILE *f = fopen("/proc/self/clear_refs", "w"); /* "5": reset VmHWM to VmRSS */
    int reset = f && fputs("5", f) >= 0;
    if (f)
        reset = (fclose(f) == 0) && reset;
    st = hpls_vec_create(A->nrows, &x);
    if (st != HPLS_OK)
        fail("vector", st);
    hpls_solver *s = NULL;
    char opts[256];
    snprintf(opts, sizeof opts, "solver=%s tol=1e-7", solver);
    hpls_info info = {0};
    st = hpls_solver_create(&s);
    if (st == HPLS_OK)
        st = hpls_solver_set_options(s, opts);
    if (st == HPLS_OK)
        st = hpls_solver_setup(s, A);
    if (st == HPLS_OK)
        st = hpls_solver_solve(s, b, x);
    if (st == HPLS_OK)
        st = hpls_solver_get_info(s, &info);
    if (st != HPLS_OK)
        fail("solve", st);
    long peak = status_kb("VmHWM:");
    printf("stage=solve solver=%s n=%ld nnz=%ld rss_after_gen_kb=%ld gen_peak_kb=%ld "
           "peak_during_solve_kb=%ld hwm_reset=%d iterations=%ld setup_s=%.4f solve_s=%.4f "
           "relres=%.3e\n",
           solver, (long)A->nrows, (long)A->nnz, after_gen, gen_peak, peak, reset,
           (long)info.iterations, info.setup_s, info.solve_s, info.relres);
    hpls_solver_destroy(s);
    hpls_vec_destroy(x);
    hpls_vec_destroy(b);
    hpls_csr_destroy(A);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 3 && strcmp(argv[1], "triad") == 0)
        return run_triad(atoi(argv[2]));
    if (argc >= 8 && strcmp(argv[1], "solve") == 0) {
        int reps = atoi(argv[3]);
        if (reps < 1 || reps > MAX_REPS) {
            fprintf(stderr, "bench_hisa_tables: reps 1..%d\n", MAX_REPS);
            return 2;
        }
        return run_solve(argv[2], reps, argv[4], argv[5], argv[6], argc - 7, argv + 7);
    }
    if (argc >= 4 && strcmp(argv[1], "mem") == 0)
        return run_mem(argv[2], argv[3], argc >= 5 && strcmp(argv[4], "stop") == 0);
    fprintf(stderr, "usage: bench_hisa_tables triad T | solve SPEC REPS \"T...\" TOL MAXITER "
                    "METHOD... | mem SPEC SOLVER [stop]\n");
    return 2;
}
