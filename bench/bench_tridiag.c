/* SPDX-License-Identifier: BSD-3-Clause */
/* bench_tridiag.c: accuracy and speed of the tridiagonal direct solvers
 * (thomas, cr, gspike, LAPACK dgtsv), the tables of the g-Spike paper
 * (Venetis et al. 2015: Table 2, Tables 3-4, Sec. 4's timings).  Each mode
 * prints markdown table rows; bench/tridiag.sh adds the headers.
 *
 *   bench_tridiag accuracy N               Table 2 rows, K = 1..21 of Table A.1
 *   bench_tridiag scaled N                 the same, every row scaled by 10^U(-150, 150)
 *   bench_tridiag singular KIND N M        Tables 3-4 rows: 0, 1, 2, 4, ... all of
 *                                          the N/M blocks of order M singular
 *   bench_tridiag speed N KIND REPS        seconds and GB/s, one-shot and with factors
 *   bench_tridiag batch N COUNT REPS       COUNT systems of order N, batched
 *
 * Threads: OMP_NUM_THREADS.  Times are medians of REPS runs. */
#include "bench_util.h"
#include "direct/direct.h"
#include "gen/gen.h"

#include <float.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* LAPACK's condition estimate from the dgttrf factors (LP64, gfortran). */
void dgtcon_(const char *norm, const int *n, const double *dl, const double *d, const double *du,
             const double *du2, const int *ipiv, const double *anorm, double *rcond, double *work,
             int *iwork, int *info, size_t norm_len);

static const hpls_tridiag_method methods[] = {HPLS_TRIDIAG_THOMAS, HPLS_TRIDIAG_CR,
                                              HPLS_TRIDIAG_GSPIKE, HPLS_TRIDIAG_LAPACK};
enum { NM = 4, UNIT_ROUNDOFF_EXP = -53 };

static _Noreturn void die(const char *what)
{
    fprintf(stderr, "bench_tridiag: %s: %s\n", what, hpls_last_error());
    exit(1);
}

static void *xmalloc(hpls_int count, size_t size)
{
    void *p = hpls_malloc(count, size);
    if (!p) {
        fprintf(stderr, "bench_tridiag: out of memory (%lld x %zu bytes)\n", (long long)count,
                size);
        exit(1);
    }
    return p;
}

/* ||x - y||_2 / ||y||_2 */
static double ferr(hpls_int n, const hpls_real *x, const hpls_real *y)
{
    double a = 0.0, b = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : a, b)
    for (hpls_int i = 0; i < n; i++) {
        a += (x[i] - y[i]) * (x[i] - y[i]);
        b += y[i] * y[i];
    }
    return sqrt(a / b);
}

/* ||b - T x||_inf / (||T||_inf ||x||_inf + ||b||_inf), r a scratch vector */
static double berr(const hpls_tridiag *T, const hpls_real *b, const hpls_real *x, hpls_real *r)
{
    hpls_int n = T->n;
    if (hpls_tridiag_mv(T, x, r) != HPLS_OK)
        die("mv");
    double rn = 0, an = 0, xn = 0, bn = 0;
#pragma omp parallel for schedule(static) reduction(max : rn, an, xn, bn)
    for (hpls_int i = 0; i < n; i++) {
        double a = fabs(T->d[i]) + (i > 0 ? fabs(T->dl[i]) : 0) + (i < n - 1 ? fabs(T->du[i]) : 0);
        rn = fmax(rn, fabs(b[i] - r[i]));
        an = fmax(an, a);
        xn = fmax(xn, fabs(x[i]));
        bn = fmax(bn, fabs(b[i]));
    }
    return rn / (an * xn + bn);
}

/* 1-norm condition estimate by dgtcon on the dgttrf factors; Inf when singular. */
static double cond1(const hpls_tridiag *T)
{
    hpls_int n = T->n;
    double anorm = 0.0;
    for (hpls_int j = 0; j < n; j++) /* column j: du[j-1], d[j], dl[j+1] */
        anorm = fmax(anorm, fabs(T->d[j]) + (j > 0 ? fabs(T->du[j - 1]) : 0) +
                                (j < n - 1 ? fabs(T->dl[j + 1]) : 0));
    hpls_lapack_gt f;
    if (hpls_lapack_gt_factor(n, T->dl, T->d, T->du, &f) != HPLS_OK)
        return INFINITY;
    int in = (int)n, info = 0, *iwork = xmalloc(n, sizeof *iwork);
    double rcond = 0.0, *work = xmalloc(2 * n, sizeof *work);
    dgtcon_("1", &in, f.dl, f.d, f.du, f.du2, f.ipiv, &anorm, &rcond, work, iwork, &info, 1);
    hpls_free(work);
    hpls_free(iwork);
    hpls_lapack_gt_free(&f);
    return info == 0 && rcond > 0 ? 1.0 / rcond : INFINITY;
}

/* a method's figure: "fail" when it reported an error, "overflow" when its x
 * is not finite (the errors are then NaN) */
static void cell(double v, int ok)
{
    if (!ok)
        printf(" fail |");
    else if (!isfinite(v))
        printf(" overflow |");
    else
        printf(" %.2e |", v);
}

/* Rows of T and b times 10^U(-150, 150): the solution is unchanged, but a
 * method whose decisions depend on the rows' scales (pivot choice, a
 * singularity test) may not find it. */
static void scale_rows(hpls_tridiag *T, hpls_real *b)
{
    gen_rng r;
    gen_rng_init(&r, 15, 0);
    for (hpls_int i = 0; i < T->n; i++) {
        double s = pow(10.0, gen_rng_uniform(&r, -150.0, 150.0));
        T->dl[i] *= s;
        T->d[i] *= s;
        T->du[i] *= s;
        b[i] *= s;
    }
}

/* One row of Table 2: K, condition, forward and backward errors of every method,
 * gspike also with p = n/32 (recursion) and without the refinement; the goals.
 * scaled: the rows scaled first (scale_rows); the condition and the forward
 * goal are then the unscaled T's (dgtsv's own pivots depend on the scaling),
 * the backward goal 100 u. */
static void accuracy_row(int id, hpls_int n, int scaled)
{
    if (id == 21) {
        printf("| 21 | not given: Table A.1 only cites Swarztrauber (1979), ref. [59] |\n");
        return;
    }
    hpls_tridiag *T;
    hpls_vec *xt, *b;
    if (hpls_tridiag_gallery(id, n, 5, &T, &xt, &b) != HPLS_OK) {
        printf("| %d | not built: %s |\n", id, hpls_last_error());
        return;
    }
    hpls_real *x = xmalloc(n, sizeof *x), *r = xmalloc(n, sizeof *r);
    double cond = cond1(T), fl0 = NAN;
    if (scaled) {
        if (hpls_lapack_gtsv(n, T->dl, T->d, T->du, b->data, x) == HPLS_OK)
            fl0 = ferr(n, x, xt->data);
        scale_rows(T, b->data);
    }
    enum { THOMAS, CR, GSPIKE, GSPIKE32, PLAIN, DGTSV, NCOL };
    double fe[NCOL], be[NCOL];
    int ok[NCOL];
    for (int c = 0; c < NCOL; c++) {
        hpls_status st;
        if (c == DGTSV)
            st = hpls_lapack_gtsv(n, T->dl, T->d, T->du, b->data, x);
        else if (c == PLAIN) { /* Algorithm 1 alone: repair, no refinement */
            hpls_gspike *g = NULL;
            st = hpls_gspike_factor(n, T->dl, T->d, T->du, hpls_default_threads(), 0,
                                    HPLS_TRIDIAG_DELTA_DEFAULT, 0, &g);
            if (st == HPLS_OK)
                st = hpls_gspike_solve(g, b->data, x);
            hpls_gspike_free(g);
        } else {
            hpls_tridiag_opts o = {.partitions = c == GSPIKE32 ? n / 32 : 0,
                                   .delta = HPLS_TRIDIAG_DELTA_DEFAULT};
            st = hpls_tridiag_solve(T, methods[c == GSPIKE32 ? GSPIKE : c], &o, 1, b->data, x);
        }
        ok[c] = st == HPLS_OK;
        fe[c] = ok[c] ? ferr(n, x, xt->data) : NAN;
        be[c] = ok[c] && isfinite(fe[c]) ? berr(T, b->data, x, r) : NAN;
    }
    printf("| %d | %.2e |", id, cond);
    for (int c = 0; c < NCOL; c++)
        if (c != PLAIN)
            cell(fe[c], ok[c]);
    for (int c = 0; c < NCOL; c++)
        cell(be[c], ok[c]);
    /* goals: within 100x of dgtsv's, floored at the unit roundoff (dgtsv's
     * backward error can be an exact 0 or 1e-32 by luck) */
    const double u = ldexp(1.0, UNIT_ROUNDOFF_EXP);
    double fref = scaled ? fl0 : fe[DGTSV], bref = scaled ? 0.0 : be[DGTSV];
    if (!scaled && (!ok[DGTSV] || !isfinite(fe[DGTSV])))
        printf(" dgtsv %s | - |\n", ok[DGTSV] ? "overflows" : "fails");
    else {
        int bmet = ok[GSPIKE] && be[GSPIKE] <= 100 * fmax(bref, u); /* NaN: not met */
        printf(" %s |", bmet ? "met" : "**not met**");
        if (fref < 1e-6)
            printf(" %s |\n",
                   ok[GSPIKE] && fe[GSPIKE] <= 100 * fmax(fref, u) ? "met" : "**not met**");
        else
            printf(" - (dgtsv %.0e%s) |\n", fref, scaled ? " unscaled" : "");
    }
    free(x);
    free(r);
    hpls_tridiag_destroy(T);
    hpls_vec_destroy(xt);
    hpls_vec_destroy(b);
}

/* Tables 3-4: count of the n/m blocks singular; gspike (repair and refinement),
 * Algorithm 1 alone (repair, no refinement), no repair (delta = 0), dgtsv. */
static void singular_rows(int kind, hpls_int n, hpls_int m)
{
    hpls_int nb = n / m;
    hpls_real *x = xmalloc(n, sizeof *x);
    for (hpls_int count = 0;; count = count ? 2 * count : 1) {
        if (count > nb)
            count = nb;
        hpls_tridiag *T;
        hpls_vec *xt, *b;
        if (hpls_tridiag_gallery(kind, n, 2, &T, &xt, NULL) != HPLS_OK ||
            hpls_tridiag_singular_blocks(T, m, count, kind, 11) != HPLS_OK ||
            hpls_vec_create(n, &b) != HPLS_OK || hpls_tridiag_mv(T, xt->data, b->data) != HPLS_OK)
            die("singular blocks");
        printf("| %lld |", (long long)count);
        hpls_tridiag_opts o = {.partitions = nb, .delta = HPLS_TRIDIAG_DELTA_DEFAULT};
        hpls_tridiag_factors *F;
        hpls_status st = hpls_tridiag_factor(T, HPLS_TRIDIAG_GSPIKE, &o, &F);
        if (st == HPLS_OK)
            st = hpls_tridiag_solve_factored(F, 1, b->data, x);
        hpls_int found = st == HPLS_OK ? hpls_tridiag_factors_singular(F) : -1;
        cell(st == HPLS_OK ? ferr(n, x, xt->data) : NAN, st == HPLS_OK);
        double gs = st == HPLS_OK ? ferr(n, x, xt->data) : INFINITY;
        hpls_tridiag_factors_destroy(F);
        for (int k = 0; k < 2; k++) { /* with repair, no refinement; no repair */
            hpls_gspike *g = NULL;
            st = hpls_gspike_factor(n, T->dl, T->d, T->du, hpls_default_threads(), nb,
                                    k ? 0.0 : HPLS_TRIDIAG_DELTA_DEFAULT, 0, &g);
            if (st == HPLS_OK)
                st = hpls_gspike_solve(g, b->data, x);
            cell(st == HPLS_OK ? ferr(n, x, xt->data) : NAN, st == HPLS_OK);
            hpls_gspike_free(g);
        }
        st = hpls_lapack_gtsv(n, T->dl, T->d, T->du, b->data, x);
        double fl = st == HPLS_OK ? ferr(n, x, xt->data) : INFINITY;
        cell(fl, st == HPLS_OK);
        double goal = kind == 18 ? 1e-13 : 1e-9;
        printf(" %lld | %s |\n", (long long)found,
               gs <= goal ? "met" : gs <= 2 * fl ? "not met (dgtsv's level: condition-bound)"
                                                  : "**not met**");
        fflush(stdout);
        hpls_tridiag_destroy(T);
        hpls_vec_destroy(xt);
        hpls_vec_destroy(b);
        if (count == nb)
            break;
    }
    free(x);
}

/* Bytes a solve must move: one-shot, T and b read and x written (5n values);
 * with factors, the factors read (values per row below) and b, x. */
static double factor_values(hpls_tridiag_method m)
{
    switch (m) {
    case HPLS_TRIDIAG_THOMAS: return 3.0; /* dl, cp, 1/pivot */
    case HPLS_TRIDIAG_CR: return 5.0;     /* l, u, 1/d, k1, k2 of about n equations read per rhs */
    case HPLS_TRIDIAG_GSPIKE: return 8.0; /* c, s, R (3), v, w, row scales */
    case HPLS_TRIDIAG_LAPACK: return 4.5; /* dl, d, du, du2, ipiv (int) */
    }
    return 0.0;
}

static void speed_rows(hpls_int n, int kind, int reps)
{
    hpls_tridiag *T;
    hpls_vec *b;
    if (hpls_tridiag_gallery(kind, n, 7, &T, NULL, &b) != HPLS_OK)
        die("gallery");
    hpls_real *x = xmalloc(n, sizeof *x);
#pragma omp parallel for schedule(static) /* first touch by the threads that use x */
    for (hpls_int i = 0; i < n; i++)
        x[i] = 0.0;
    double *t = xmalloc(reps, sizeof *t), full[NM], solve[NM];
    const int nt = omp_get_max_threads();
    for (int k = 0; k < NM; k++) {
        hpls_tridiag_method m = methods[k];
        hpls_status st = HPLS_OK;
        /* one-shot: dgtsv for lapack; r = -1 untimed, so that no method pays the
         * first touch of memory the process never had (at n = 1e8 the first method
         * timed took 7.1 s where its next solves took 2.4) */
        for (int r = -1; r < reps && st == HPLS_OK; r++) {
            double t0 = hpls_wtime();
            st = m == HPLS_TRIDIAG_LAPACK ? hpls_lapack_gtsv(n, T->dl, T->d, T->du, b->data, x)
                                          : hpls_tridiag_solve(T, m, NULL, 1, b->data, x);
            if (r >= 0)
                t[r] = hpls_wtime() - t0;
        }
        full[k] = st == HPLS_OK ? median(t, reps) : NAN;
        hpls_tridiag_factors *F = NULL;
        if (st == HPLS_OK)
            st = hpls_tridiag_factor(T, m, NULL, &F);
        for (int r = 0; r < reps && st == HPLS_OK; r++) {
            double t0 = hpls_wtime();
            st = hpls_tridiag_solve_factored(F, 1, b->data, x);
            t[r] = hpls_wtime() - t0;
        }
        solve[k] = st == HPLS_OK ? median(t, reps) : NAN;
        hpls_tridiag_factors_destroy(F);
        const double gb = 1e-9 * 8.0 * (double)n;
        if (st != HPLS_OK)
            printf("| %.0e | %d | %d | %s | fail: %s | | | | |\n", (double)n, kind, nt,
                   hpls_tridiag_method_name(m), hpls_last_error());
        else
            printf("| %.0e | %d | %d | %s | %.4f | %.2f | %.4f | %.2f | %.2f |\n", (double)n, kind,
                   nt, m == HPLS_TRIDIAG_LAPACK ? "lapack (dgtsv; dgttrf/dgttrs)"
                                                : hpls_tridiag_method_name(m),
                   full[k], 5.0 * gb / full[k], solve[k],
                   (factor_values(m) + 2.0) * gb / solve[k], solve[k] / full[k]);
        fflush(stdout);
    }
    enum { TH = 0, GS = 2, LA = 3 };
    printf("| %.0e | %d | %d | **ratios** | thomas/dgtsv throughput %.2f (goal >= 1) | gspike "
           "time / dgtsv %.2f (goal %s) | | | |\n",
           (double)n, kind, nt, full[LA] / full[TH], full[GS] / full[LA],
           nt == 1 ? "<= 2" : "< 1");
    free(t);
    free(x);
    hpls_tridiag_destroy(T);
    hpls_vec_destroy(b);
}

/* count systems of order n, diagonally dominant random rows. */
static void batch_rows(hpls_int n, hpls_int count, int reps)
{
    hpls_int len = n * count;
    hpls_real *dl = xmalloc(len, sizeof *dl), *d = xmalloc(len, sizeof *d),
              *du = xmalloc(len, sizeof *du), *b0 = xmalloc(len, sizeof *b0),
              *b = xmalloc(len, sizeof *b);
    uint64_t s = 0x9e3779b97f4a7c15ull;
    for (hpls_int i = 0; i < len; i++) {
        double v[4];
        for (int q = 0; q < 4; q++) { /* xorshift64, uniform in [-1, 1) */
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            v[q] = (double)(s >> 11) * 0x1p-52 - 1.0;
        }
        dl[i] = v[0];
        du[i] = v[1];
        d[i] = 4.0 + v[2];
        b0[i] = v[3];
    }
    double *t = xmalloc(reps, sizeof *t);
    static const struct {
        hpls_tridiag_method m;
        hpls_batch_layout layout;
        const char *name;
    } runs[] = {{HPLS_TRIDIAG_THOMAS, HPLS_BATCH_STRIDED, "thomas strided"},
                {HPLS_TRIDIAG_THOMAS, HPLS_BATCH_INTERLEAVED, "thomas interleaved"},
                {HPLS_TRIDIAG_LAPACK, HPLS_BATCH_STRIDED, "lapack strided (dgtsv)"}};
    for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++) {
        for (int r = 0; r < reps; r++) {
            memcpy(b, b0, (size_t)len * sizeof *b);
            double t0 = hpls_wtime();
            if (hpls_tridiag_solve_batch(runs[k].m, runs[k].layout, n, count, n, dl, d, du, b) !=
                HPLS_OK)
                die("batch");
            t[r] = hpls_wtime() - t0;
        }
        double med = median(t, reps);
        printf("| %lld | %lld | %d | %s | %.5f | %.2f |\n", (long long)n, (long long)count,
               omp_get_max_threads(), runs[k].name, med, 5.0 * 8.0 * (double)len * 1e-9 / med);
    }
    free(t);
    free(dl);
    free(d);
    free(du);
    free(b0);
    free(b);
}

int main(int argc, char **argv)
{
    if (argc == 3 && (strcmp(argv[1], "accuracy") == 0 || strcmp(argv[1], "scaled") == 0)) {
        hpls_int n = (hpls_int)strtod(argv[2], NULL);
        for (int id = 1; id <= 21; id++) {
            accuracy_row(id, n, argv[1][0] == 's');
            fflush(stdout);
        }
        return 0;
    }
    if (argc == 5 && strcmp(argv[1], "singular") == 0) {
        singular_rows(atoi(argv[2]), (hpls_int)strtod(argv[3], NULL),
                      (hpls_int)strtod(argv[4], NULL));
        return 0;
    }
    if (argc == 5 && strcmp(argv[1], "speed") == 0) {
        speed_rows((hpls_int)strtod(argv[2], NULL), atoi(argv[3]), atoi(argv[4]));
        return 0;
    }
    if (argc == 5 && strcmp(argv[1], "batch") == 0) {
        batch_rows((hpls_int)strtod(argv[2], NULL), (hpls_int)strtod(argv[3], NULL),
                   atoi(argv[4]));
        return 0;
    }
    fprintf(stderr,
            "usage: bench_tridiag accuracy N | scaled N | singular KIND N M | speed N KIND REPS | "
            "batch N COUNT REPS\n");
    return 2;
}
