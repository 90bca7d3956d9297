/* SPDX-License-Identifier: BSD-3-Clause */
/* bench_kernels.c: hpls's memory-bound kernels against a STREAM-style triad
 * measured in the same run, at each thread count asked for.
 *
 *   bench_kernels [--reps R] [--threads "1 2"] [--triad-log2 K] [--maxiter M]
 *                 [--poisson SPEC] [--gas SPEC] [--gas-small SPEC]
 *       prints the Markdown table of bench/results/kernels.md
 *   bench_kernels --solve A.mtx [--options "solver=bicgstab tol=1e-8"]
 *                 [--threads "1 2"] [--reps R]
 *       solves A x = A 1 from x0 = 0 R times per thread count and prints one
 *       key=value line per thread count (for bench/run_all.sh's PETSc table)
 *
 * Kernel mode, one repetition per thread count: triad (2 sweeps), SpMV on
 * poisson3d (x read almost in order), SpMV on gas (k random gathers of x per
 * row), SpMV on a small gas matrix that fits the cache (the instruction floor),
 * one BiCGSTAB solve of each large matrix with maxiter fixed, triad again (2
 * sweeps).  Each repetition yields its own ratios against its own triad, so a
 * disturbance of the shared machine that spans repetitions cancels; the table
 * gives medians over repetitions.  Bytes are counted without write-allocate (a
 * written double is 8 bytes), the triad's 24 bytes per entry included. */
#define _POSIX_C_SOURCE 200809L

#include "bench_util.h"
#include "core/internal.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_P 8           /* thread counts in one run */
#define SPMV_CALLS 10     /* SpMV calls timed per repetition (median taken) */
#define SMALL_CALLS 50    /* calls of the small in-cache SpMV per repetition */
#define LINE 64.0         /* bytes a gather that misses the cache brings */
#define BICG_VECTORS 18.0 /* vectors of n one BiCGSTAB iteration reads or writes */

/* kernels up to K_BICG_G have a bound; the small SpMV only explains gas's gap */
enum { K_TRIAD, K_SPMV_P, K_SPMV_G, K_BICG_P, K_BICG_G, K_SPMV_SMALL, NK };

static _Noreturn void die(const char *what)
{
    fprintf(stderr, "bench_kernels: %s\n", what);
    exit(1);
}

/* One sysfs value of cpu0's cache index idx ("level", "type", "size"); 0 if absent. */
static int cache_attr(int idx, const char *attr, char *buf, size_t len)
{
    char path[128];
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/%s", idx, attr);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    int ok = fgets(buf, (int)len, f) != NULL;
    fclose(f);
    buf[strcspn(buf, "\n")] = '\0';
    return ok;
}

/* Size in bytes of cpu0's data (or unified) cache of this level, 0 if unknown. */
static long cache_bytes(int level)
{
    for (int idx = 0; idx < 16; idx++) {
        char lev[16], type[32], size[32];
        if (!cache_attr(idx, "level", lev, sizeof lev))
            break;
        if (atoi(lev) != level || !cache_attr(idx, "type", type, sizeof type) ||
            strcmp(type, "Instruction") == 0 || !cache_attr(idx, "size", size, sizeof size))
            continue;
        char *end;
        long v = strtol(size, &end, 10);
        return *end == 'K' ? v << 10 : *end == 'M' ? v << 20 : v;
    }
    return 0;
}

static void triad(hpls_int n, double *restrict a, const double *restrict b,
                  const double *restrict c, double s)
{
#pragma omp parallel for schedule(static)
    for (hpls_int i = 0; i < n; i++)
        a[i] = b[i] + s * c[i];
}

/* Bytes of one SpMV streaming A, x once and y: nnz (8+4) + (n+1) 8 + n 8 + n 8. */
static double spmv_stream_bytes(const hpls_csr *A)
{
    return (double)A->nnz * 12.0 + (double)(A->nrows + 1) * 8.0 + 16.0 * (double)A->nrows;
}

/* Entries outside the band |i - j| <= 1: the gathers that can miss the cache. */
static hpls_int far_gathers(const hpls_csr *A)
{
    hpls_int far = 0;
    for (hpls_int i = 0; i < A->nrows; i++)
        for (hpls_int k = A->rowptr[i]; k < A->rowptr[i + 1]; k++)
            far += llabs((long long)A->colind[k] - (long long)i) > 1;
    return far;
}

static hpls_csr *generate(const char *spec)
{
    hpls_csr *A;
    if (hpls_gen_csr(spec, &A, NULL) != HPLS_OK) {
        fprintf(stderr, "bench_kernels: %s: %s\n", spec, hpls_last_error());
        exit(1);
    }
    return A;
}

static hpls_vec *vec(hpls_int n, double value)
{
    hpls_vec *v;
    if (hpls_vec_create(n, &v) != HPLS_OK)
        die("out of memory for a vector");
    hpls_k_set(hpls_default_threads(), n, value, v->data);
    return v;
}

static hpls_solver *solver_for(const hpls_csr *A, const char *options, int p)
{
    char opts[512];
    snprintf(opts, sizeof opts, "%s threads=%d", options, p);
    hpls_solver *s;
    if (hpls_solver_create(&s) != HPLS_OK)
        die(hpls_last_error());
    if (hpls_solver_set_options(s, opts) != HPLS_OK || hpls_solver_setup(s, A) != HPLS_OK)
        die(hpls_solver_message(s));
    return s;
}

/* One solve from x0 = 0; returns its info. */
static hpls_info solve_once(hpls_solver *s, const hpls_vec *b, hpls_vec *x)
{
    hpls_info info;
    if (hpls_solver_solve(s, b, x) != HPLS_OK || hpls_solver_get_info(s, &info) != HPLS_OK)
        die(hpls_solver_message(s));
    return info;
}

/* Median seconds of calls SpMVs. */
static double time_spmv(const hpls_csr *A, const hpls_vec *x, hpls_vec *y, int calls)
{
    double t[SMALL_CALLS > SPMV_CALLS ? SMALL_CALLS : SPMV_CALLS];
    for (int k = 0; k < calls; k++) {
        double t0 = hpls_wtime();
        hpls_k_spmv(hpls_default_threads(), A, x->data, y->data);
        t[k] = hpls_wtime() - t0;
    }
    return median(t, calls);
}

static const char *met(int ok)
{
    return ok ? "yes" : "**no**";
}

typedef struct config {
    int reps, np, plist[MAX_P], log2n;
    hpls_int maxiter;
    const char *pspec, *gspec, *smallspec, *solve_file, *solve_opts;
} config;

/* --solve mode: the key=value lines of bench/run_all.sh's PETSc comparison. */
static int run_solve(const config *c)
{
    hpls_csr *A;
    if (hpls_mm_read_csr(c->solve_file, &A) != HPLS_OK)
        die(hpls_last_error());
    hpls_vec *ones = vec(A->nrows, 1.0), *b = vec(A->nrows, 0.0), *x = vec(A->nrows, 0.0);
    hpls_k_spmv(hpls_default_threads(), A, ones->data, b->data); /* b = A 1 */
    double *t = malloc((size_t)c->reps * sizeof *t);
    if (!t)
        die("out of memory");
    for (int q = 0; q < c->np; q++) {
        hpls_solver *s = solver_for(A, c->solve_opts, c->plist[q]);
        hpls_info info = {0};
        for (int k = 0; k < c->reps; k++) {
            info = solve_once(s, b, x);
            t[k] = info.solve_s;
        }
        double med = median(t, c->reps);
        printf("threads=%d iterations=%lld solve_s=%.6f per_it_ms=%.4f reason=%s relres=%.3e\n",
               c->plist[q], (long long)info.iterations, med,
               info.iterations > 0 ? 1e3 * med / (double)info.iterations : 0.0,
               hpls_reason_converged(info.reason) ? "converged" : "not-converged", info.relres);
        hpls_solver_destroy(s);
    }
    free(t);
    hpls_vec_destroy(ones);
    hpls_vec_destroy(b);
    hpls_vec_destroy(x);
    hpls_csr_destroy(A);
    return 0;
}

static int run_kernels(const config *c)
{
    int np = c->np, reps = c->reps;
    /* triad arrays, first touched by the static split the timed loop uses */
    hpls_int nt = (hpls_int)1 << c->log2n;
    double *ta = malloc((size_t)nt * 8), *tb = malloc((size_t)nt * 8), *tc = malloc((size_t)nt * 8);
    if (!ta || !tb || !tc)
        die("out of memory for the triad");
    omp_set_num_threads(c->plist[np - 1]);
#pragma omp parallel for schedule(static)
    for (hpls_int i = 0; i < nt; i++) {
        ta[i] = 0.0;
        tb[i] = 1.0;
        tc[i] = 2.0;
    }

    hpls_csr *Ap = generate(c->pspec), *Ag = generate(c->gspec), *As = generate(c->smallspec);
    hpls_vec *xp = vec(Ap->nrows, 1.0), *yp = vec(Ap->nrows, 0.0), *bp = vec(Ap->nrows, 0.0);
    hpls_vec *xg = vec(Ag->nrows, 1.0), *yg = vec(Ag->nrows, 0.0), *bg = vec(Ag->nrows, 0.0);
    hpls_vec *xs = vec(As->nrows, 1.0), *ys = vec(As->nrows, 0.0);
    hpls_vec *solp = vec(Ap->nrows, 0.0), *solg = vec(Ag->nrows, 0.0);
    hpls_k_spmv(hpls_default_threads(), Ap, xp->data, bp->data); /* b = A 1 */
    hpls_k_spmv(hpls_default_threads(), Ag, xg->data, bg->data);

    /* The band entries of gas hit the cache (neighbours of the row); the far ones
     * miss when x does not fit the last-level cache. */
    long l1 = cache_bytes(1), l2 = cache_bytes(2), l3 = cache_bytes(3);
    long llc = l3 ? l3 : l2;
    hpls_int far = far_gathers(Ag);
    double xbytes = 8.0 * (double)Ag->ncols;
    int x_misses = llc == 0 || xbytes > (double)llc;
    double line_bytes = LINE * (double)far;
    double bytes[NK] = {0};
    bytes[K_TRIAD] = 24.0 * (double)nt;
    bytes[K_SPMV_P] = spmv_stream_bytes(Ap);
    bytes[K_SPMV_G] = spmv_stream_bytes(Ag) + (x_misses ? line_bytes : 0.0);
    /* BiCGSTAB, unpreconditioned: 18 vectors besides its two SpMVs (counted
     * above the loop in src/iter/bicgstab.c) */
    bytes[K_BICG_P] = 2.0 * bytes[K_SPMV_P] + BICG_VECTORS * 8.0 * (double)Ap->nrows;
    bytes[K_BICG_G] = 2.0 * bytes[K_SPMV_G] + BICG_VECTORS * 8.0 * (double)Ag->nrows;

    char bicg_opts[128];
    snprintf(bicg_opts, sizeof bicg_opts, "solver=bicgstab tol=1e-14 maxiter=%lld",
             (long long)c->maxiter);
    hpls_solver *sp[MAX_P], *sg[MAX_P];
    for (int q = 0; q < np; q++) {
        sp[q] = solver_for(Ap, bicg_opts, c->plist[q]);
        sg[q] = solver_for(Ag, bicg_opts, c->plist[q]);
    }

    /* t[q][k][rep]: seconds (per call, per iteration for BiCGSTAB);
     * ratio[q][k][rep]: against the same repetition's triad */
    double *t[MAX_P][NK], *ratio[MAX_P][NK];
    for (int q = 0; q < np; q++)
        for (int k = 0; k < NK; k++) {
            t[q][k] = calloc((size_t)reps, sizeof(double));
            ratio[q][k] = calloc((size_t)reps, sizeof(double));
            if (!t[q][k] || !ratio[q][k])
                die("out of memory");
        }
    hpls_int its_p = 0, its_g = 0;
    for (int rep = 0; rep < reps; rep++) {
        for (int q = 0; q < np; q++) {
            omp_set_num_threads(c->plist[q]);
            double tt[4];
            for (int k = 0; k < 2; k++) {
                double t0 = hpls_wtime();
                triad(nt, ta, tb, tc, 3.0);
                tt[k] = hpls_wtime() - t0;
            }
            t[q][K_SPMV_P][rep] = time_spmv(Ap, xp, yp, SPMV_CALLS);
            t[q][K_SPMV_G][rep] = time_spmv(Ag, xg, yg, SPMV_CALLS);
            t[q][K_SPMV_SMALL][rep] = time_spmv(As, xs, ys, SMALL_CALLS);
            hpls_info ip = solve_once(sp[q], bp, solp), ig = solve_once(sg[q], bg, solg);
            its_p = ip.iterations;
            its_g = ig.iterations;
            t[q][K_BICG_P][rep] = ip.solve_s / (double)(its_p > 0 ? its_p : 1);
            t[q][K_BICG_G][rep] = ig.solve_s / (double)(its_g > 0 ? its_g : 1);
            for (int k = 2; k < 4; k++) {
                double t0 = hpls_wtime();
                triad(nt, ta, tb, tc, 3.0);
                tt[k] = hpls_wtime() - t0;
            }
            t[q][K_TRIAD][rep] = median(tt, 4);
            double bw = bytes[K_TRIAD] / t[q][K_TRIAD][rep]; /* bytes per second */
            ratio[q][K_SPMV_P][rep] = bytes[K_SPMV_P] / t[q][K_SPMV_P][rep] / bw;
            for (int k = K_SPMV_G; k <= K_BICG_G; k++)
                ratio[q][k][rep] = t[q][k][rep] / (bytes[k] / bw);
        }
    }
    if (ta[nt / 2] != 7.0)
        die("the triad gave a wrong value");

    double tm[MAX_P][NK], rm[MAX_P][NK], bw[MAX_P];
    for (int q = 0; q < np; q++) {
        for (int k = 0; k < NK; k++) {
            tm[q][k] = median(t[q][k], reps);
            rm[q][k] = median(ratio[q][k], reps);
        }
        bw[q] = bytes[K_TRIAD] / tm[q][K_TRIAD];
    }

    printf("| what |");
    for (int q = 0; q < np; q++)
        printf(" %d thread%s |", c->plist[q], c->plist[q] > 1 ? "s" : "");
    printf(" bound (per thread count) | ratio | goal | met? |\n|---|");
    for (int q = 0; q < np; q++)
        printf("---:|");
    printf("---|---|---|---|\n");

    printf("| triad a = b + s c, GB/s (24 B/entry) |");
    for (int q = 0; q < np; q++)
        printf(" %.2f |", bw[q] / 1e9);
    printf(" — | — | the reference | — |\n");

    const struct {
        const char *what;
        int k;
        int gbs; /* 1: a GB/s row, ratio = GB/s / triad; 0: a time row, ratio = time / bound */
        double goal;
    } rows[] = {
        {"SpMV poisson3d, GB/s", K_SPMV_P, 1, 0.8},
        {"SpMV gas, ms", K_SPMV_G, 0, 1.3},
        {"BiCGSTAB poisson3d, ms/iteration", K_BICG_P, 0, 1.3},
        {"BiCGSTAB gas, ms/iteration", K_BICG_G, 0, 1.3},
    };
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        int k = rows[r].k, gbs = rows[r].gbs;
        printf("| %s |", rows[r].what);
        for (int q = 0; q < np; q++)
            printf(" %.2f |", gbs ? bytes[k] / tm[q][k] / 1e9 : 1e3 * tm[q][k]);
        printf(" ");
        for (int q = 0; q < np; q++)
            printf(gbs ? "%s%.2f GB/s" : "%s%.2f ms", q ? " / " : "",
                   gbs ? bw[q] / 1e9 : 1e3 * bytes[k] / bw[q]);
        printf(" | ");
        for (int q = 0; q < np; q++)
            printf("%s%.2f", q ? " / " : "", rm[q][k]);
        printf(" | %s %.1f | ", gbs ? "≥" : "≤", rows[r].goal);
        for (int q = 0; q < np; q++)
            printf("%s%s", q ? " / " : "",
                   met(gbs ? rm[q][k] >= rows[r].goal : rm[q][k] <= rows[r].goal));
        printf(" |\n");
    }

    printf("\nRatios are medians over %d repetitions of the ratio within a repetition "
           "(so a bound shown is from the median triad, and bound × ratio need not equal the "
           "median time exactly).  SpMV figures are medians of %d calls per repetition; "
           "BiCGSTAB: one solve per repetition with `%s`, %lld iterations (poisson3d) and %lld "
           "(gas), time per iteration = solve time / iterations; bound = (2 SpMV + %.0f n "
           "doubles) / triad.\n\n",
           reps, SPMV_CALLS, bicg_opts, (long long)its_p, (long long)its_g, BICG_VECTORS);
    printf("Matrices: `%s` n=%lld nnz=%lld; `%s` n=%lld nnz=%lld.  Triad arrays: 2^%d doubles "
           "(%.0f MB each).\n\n",
           c->pspec, (long long)Ap->nrows, (long long)Ap->nnz, c->gspec, (long long)Ag->nrows,
           (long long)Ag->nnz, c->log2n, 8.0 * (double)nt / 1e6);
    printf("Caches of cpu0 (sysfs): L1d %ld KiB, L2 %ld KiB, L3 %ld KiB.  gas: x is %.1f MB, "
           "%s the last-level cache (%.1f MB), so its %lld far gathers (|i-j| > 1) are "
           "charged %s; its %lld band entries hit the cache.  ",
           l1 >> 10, l2 >> 10, l3 >> 10, xbytes / 1e6, x_misses ? "larger than" : "within",
           (double)llc / 1e6, (long long)far,
           x_misses ? "a 64-byte line each" : "nothing beyond x read once",
           (long long)(Ag->nnz - far));
    if (!x_misses) {
        printf("Were they charged a line each (x missing the LLC), the bound would be ");
        for (int q = 0; q < np; q++)
            printf("%s%.2f ms (ratio %.2f)", q ? " / " : "",
                   1e3 * (bytes[K_SPMV_G] + line_bytes) / bw[q],
                   tm[q][K_SPMV_G] / ((bytes[K_SPMV_G] + line_bytes) / bw[q]));
        printf(".  ");
    }
    printf("The same SpMV on `%s` (n=%lld, x and A in cache) takes ", c->smallspec,
           (long long)As->nrows);
    for (int q = 0; q < np; q++)
        printf("%s%.3f ns/nnz", q ? " / " : "", 1e9 * tm[q][K_SPMV_SMALL] / (double)As->nnz);
    printf(": the instruction floor, ");
    for (int q = 0; q < np; q++)
        printf("%s%.2f ms", q ? " / " : "",
               1e3 * tm[q][K_SPMV_SMALL] / (double)As->nnz * (double)Ag->nnz);
    printf(" for gas n=%lld.\n", (long long)Ag->nrows);

    for (int q = 0; q < np; q++) {
        hpls_solver_destroy(sp[q]);
        hpls_solver_destroy(sg[q]);
        for (int k = 0; k < NK; k++) {
            free(t[q][k]);
            free(ratio[q][k]);
        }
    }
    hpls_vec *vs[] = {xp, yp, bp, xg, yg, bg, xs, ys, solp, solg};
    for (size_t k = 0; k < sizeof vs / sizeof vs[0]; k++)
        hpls_vec_destroy(vs[k]);
    hpls_csr_destroy(Ap);
    hpls_csr_destroy(Ag);
    hpls_csr_destroy(As);
    free(ta);
    free(tb);
    free(tc);
    return 0;
}

int main(int argc, char **argv)
{
    config c = {.reps = 7,
                .log2n = 25,
                .maxiter = 50,
                .pspec = "poisson3d:nx=100",
                .gspec = "gas:n=1000000,k=2",
                .smallspec = "gas:n=100000,k=2",
                .solve_opts = "solver=bicgstab tol=1e-8"};
    const char *threads = "1 2";
    for (int i = 1; i < argc; i += 2) {
        const char *k = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v)
            die("every option takes a value (see the head of bench/bench_kernels.c)");
        if (strcmp(k, "--reps") == 0)
            c.reps = atoi(v);
        else if (strcmp(k, "--threads") == 0)
            threads = v;
        else if (strcmp(k, "--triad-log2") == 0)
            c.log2n = atoi(v);
        else if (strcmp(k, "--maxiter") == 0)
            c.maxiter = atoll(v);
        else if (strcmp(k, "--poisson") == 0)
            c.pspec = v;
        else if (strcmp(k, "--gas") == 0)
            c.gspec = v;
        else if (strcmp(k, "--gas-small") == 0)
            c.smallspec = v;
        else if (strcmp(k, "--solve") == 0)
            c.solve_file = v;
        else if (strcmp(k, "--options") == 0)
            c.solve_opts = v;
        else
            die("unknown option (see the head of bench/bench_kernels.c)");
    }
    for (const char *s = threads; c.np < MAX_P;) {
        char *end;
        long p = strtol(s, &end, 10);
        if (end == s)
            break;
        if (p < 1)
            die("--threads: counts must be >= 1");
        c.plist[c.np++] = (int)p;
        s = end;
    }
    if (c.reps < 1 || c.np == 0 || c.log2n < 10 || c.log2n > 31 || c.maxiter < 1)
        die("bad --reps, --threads, --triad-log2 or --maxiter");
    return c.solve_file ? run_solve(&c) : run_kernels(&c);
}
