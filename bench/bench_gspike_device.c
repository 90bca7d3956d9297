/* SPDX-License-Identifier: BSD-3-Clause */
/* bench_gspike_device.c: g-Spike on the opencl backend (kernels/device/gspike.c)
 * with its reduced systems solved on the device (recursively) or on the host,
 * beside the host's g-Spike (src/direct/gspike.c) on 1 and 2 threads: the
 * milliseconds of a factorization and of a solve, medians of R, in one run.
 *
 *   bench_gspike_device [--reps R] N...
 *       prints the Markdown rows of bench/results/gspike_device.md
 *
 * T: the g-Spike paper's #18, tridiag(-1, 4, -1), and #1 (random entries), b =
 * T x_true.  The opencl backend is made and its kernels built once, and a
 * small solve runs, before the first timing.  Here PoCL runs the device on
 * the CPU: these are not GPU figures. */
#define _POSIX_C_SOURCE 200809L

#include "backend/backend.h"
#include "bench_util.h"
#include "direct/direct.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BACKEND_OPENCL = 2, MAXREPS = 101 };

static _Noreturn void die(const char *what, const char *detail)
{
    fprintf(stderr, "bench_gspike_device: %s%s\n", what, detail ? detail : "");
    exit(2);
}

/* waits for the device's queued work (a read of one value does) */
static void sync_device(hpls_backend *be, const hpls_dvec *x)
{
    hpls_real one;
    be->v->download(be, 1, x, &one);
}

/* the device: medians of reps factorizations and reps solves (how: HPLS_TFAC_*) */
static void time_device(hpls_backend *be, const hpls_tridiag *T, const hpls_real *b, int how,
                        int reps, double *tf, double *ts, double *err, const hpls_real *xt)
{
    hpls_int n = T->n;
    double f[MAXREPS], s[MAXREPS];
    hpls_dvec *bo, *xo;
    if (hpls_be_vector(be, n, b, &bo) != HPLS_OK || be->v->alloc(be, n, &xo) != HPLS_OK)
        die("device vectors: ", hpls_last_error());
    const hpls_tridiag_opts o = {.delta = HPLS_TRIDIAG_DELTA_DEFAULT};
    hpls_dtfac *F = NULL;
    for (int r = 0; r < reps; r++) {
        be->d->tfac_release(be, F);
        double t0 = hpls_wtime();
        if (be->d->tfac_factor(be, T, n, HPLS_TRIDIAG_GSPIKE, &o, how, &F) != HPLS_OK)
            die("device factorization: ", hpls_last_error());
        sync_device(be, xo);
        f[r] = hpls_wtime() - t0;
    }
    for (int r = 0; r < reps; r++) {
        double t0 = hpls_wtime();
        be->d->tfac_solve(be, F, bo, xo);
        sync_device(be, xo);
        s[r] = hpls_wtime() - t0;
    }
    hpls_real *x = malloc((size_t)n * sizeof *x);
    be->v->download(be, n, xo, x);
    if (!x || be->err != HPLS_OK)
        die("device solve: ", be->msg);
    double e = 0, m = 0;
    for (hpls_int i = 0; i < n; i++) {
        e = fmax(e, fabs(x[i] - xt[i]));
        m = fmax(m, fabs(xt[i]));
    }
    *err = e / m;
    *tf = median(f, reps);
    *ts = median(s, reps);
    free(x);
    be->d->tfac_release(be, F);
    be->v->release(be, bo);
    be->v->release(be, xo);
}

/* the host's g-Spike with its own partitions (one per thread) */
static void time_host(const hpls_tridiag *T, const hpls_real *b, int nt, int reps, double *tf,
                      double *ts)
{
    hpls_int n = T->n;
    double f[MAXREPS], s[MAXREPS];
    hpls_real *x = malloc((size_t)n * sizeof *x);
    hpls_gspike *g = NULL;
    for (int r = 0; r < reps; r++) {
        hpls_gspike_free(g);
        double t0 = hpls_wtime();
        if (hpls_gspike_factor(n, T->dl, T->d, T->du, nt, 0, HPLS_TRIDIAG_DELTA_DEFAULT, 1, &g) !=
            HPLS_OK)
            die("host factorization: ", hpls_last_error());
        f[r] = hpls_wtime() - t0;
    }
    for (int r = 0; r < reps; r++) {
        double t0 = hpls_wtime();
        if (!x || hpls_gspike_solve(g, b, x) != HPLS_OK)
            die("host solve: ", hpls_last_error());
        s[r] = hpls_wtime() - t0;
    }
    *tf = median(f, reps);
    *ts = median(s, reps);
    hpls_gspike_free(g);
    free(x);
}

int main(int argc, char **argv)
{
    int reps = 5, first = 1;
    if (first + 1 < argc && strcmp(argv[first], "--reps") == 0) {
        reps = atoi(argv[first + 1]);
        first += 2;
    }
    if (reps < 1 || reps > MAXREPS || first >= argc)
        die("usage: bench_gspike_device [--reps R (1..101)] N...", NULL);
    hpls_backend *be;
    if (hpls_backend_create(BACKEND_OPENCL, 1, &be) != HPLS_OK)
        die("the opencl backend: ", hpls_last_error());
    static const int ids[] = {18, 1};
    for (int a = first; a < argc; a++) {
        hpls_int n = atoll(argv[a]);
        if (n < 1)
            die("bad order ", argv[a]);
        for (int k = 0; k < 2; k++) {
            hpls_tridiag *T;
            hpls_vec *xt, *b;
            if (hpls_tridiag_gallery(ids[k], n, 1, &T, &xt, &b) != HPLS_OK)
                die("the gallery: ", hpls_last_error());
            double tf, ts, e, hf1, hs1, hf2, hs2;
            time_host(T, b->data, 1, reps, &hf1, &hs1);
            time_host(T, b->data, 2, reps, &hf2, &hs2);
            static const char *const where[] = {"opencl, reduced systems on the device",
                                                "opencl, reduced systems on the host"};
            static const int how[] = {HPLS_TFAC_REDUCED_DEVICE, HPLS_TFAC_REDUCED_HOST};
            if (a == first && k == 0) /* the kernels' first use, untimed */
                time_device(be, T, b->data, how[0], 1, &tf, &ts, &e, xt->data);
            for (int w = 0; w < 2; w++) {
                time_device(be, T, b->data, how[w], reps, &tf, &ts, &e, xt->data);
                printf("| %lld | #%d | %s | %.2f | %.3f | %.2f | %.1e |\n", (long long)n, ids[k],
                       where[w], 1e3 * tf, 1e3 * ts, ts / hs1, e);
            }
            printf("| %lld | #%d | host, 1 thread | %.2f | %.3f | 1.00 | |\n", (long long)n, ids[k],
                   1e3 * hf1, 1e3 * hs1);
            printf("| %lld | #%d | host, 2 threads | %.2f | %.3f | %.2f | |\n", (long long)n,
                   ids[k], 1e3 * hf2, 1e3 * hs2, hs2 / hs1);
            hpls_tridiag_destroy(T);
            hpls_vec_destroy(xt);
            hpls_vec_destroy(b);
        }
    }
    hpls_backend_destroy(be);
    return 0;
}
