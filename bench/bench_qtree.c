/* SPDX-License-Identifier: BSD-3-Clause */
/* bench_qtree.c: the quad-tree SpMV and QTBiCGSTAB against CSR (Xu et al. 2015,
 * Figs. 5-10 reshaped): per matrix and thread count, the median time of
 * `spmvs` products y = A x for CSR, for the quad-tree at d = 1024 .. 65536 and
 * at the automatic choice (hpls_qtree_create_auto: Eq. 17 and its neighbours
 * timed at setup), and for CSR after reverse Cuthill-McKee; the bytes of A
 * each format streams and CSR's effective bandwidth next to a STREAM-style
 * triad run in the same process; then BiCGSTAB per iteration with csr,
 * qtbicgstab (automatic: may keep CSR) and qtbicgstab at the best measured d.
 *
 *   bench_qtree REPS SPMVS THREADS INPUT...   (INPUT: a generator spec or a .mtx file)
 * prints one Markdown table row per input. */
#include "bench_util.h"
#include "la/qtree.h"
#include "la/rcm.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NDS 4
static const hpls_int ds[NDS] = {1024, 4096, 16384, 65536};
#define TRIAD_N (1L << 24) /* 3 arrays of 128 MB: far beyond L3 */

/* GB/s of the best of 5 triads a = b + 3 c (24 bytes an element). */
static double triad_gbs(void)
{
    double *a = malloc(TRIAD_N * sizeof *a), *b = malloc(TRIAD_N * sizeof *b),
           *c = malloc(TRIAD_N * sizeof *c), best = 1e300;
    if (!a || !b || !c)
        exit(1);
#pragma omp parallel for schedule(static)
    for (long i = 0; i < TRIAD_N; i++) {
        a[i] = 0.0;
        b[i] = 1.0;
        c[i] = 2.0;
    }
    for (int r = 0; r < 5; r++) {
        double t = hpls_wtime();
#pragma omp parallel for schedule(static)
        for (long i = 0; i < TRIAD_N; i++)
            a[i] = b[i] + 3.0 * c[i];
        t = hpls_wtime() - t;
        best = t < best ? t : best;
    }
    double check = a[TRIAD_N / 2];
    free(a);
    free(b);
    free(c);
    return check == 7.0 ? 24.0 * TRIAD_N / best / 1e9 : 0.0;
}

/* median over reps of the seconds of `spmvs` products, per product in ms */
static double time_spmv(const hpls_csr *A, const hpls_qtree *Q, int reps, int spmvs,
                        const double *x, double *y)
{
    double t[32];
    for (int r = 0; r < reps; r++) {
        double t0 = hpls_wtime();
        for (int k = 0; k < spmvs; k++) {
            if (Q)
                hpls_k_qt_spmv(Q, HPLS_PF_DEFAULT, x, y);
            else
                hpls_k_spmv(hpls_default_threads(), A, x, y);
        }
        t[r] = (hpls_wtime() - t0) / spmvs * 1e3;
    }
    qsort(t, (size_t)reps, sizeof t[0], cmp_double);
    return t[reps / 2];
}

/* median ms per iteration of a BiCGSTAB solve with options; iterations and
 * setup seconds out */
static double time_solve(const hpls_csr *A, const char *options, int reps, const hpls_vec *b,
                         hpls_vec *x, long long *its, double *setup_s)
{
    double t[32];
    hpls_solver *s;
    hpls_info info = {0};
    double t0 = hpls_wtime();
    if (hpls_solver_create(&s) != HPLS_OK || hpls_solver_set_options(s, options) != HPLS_OK ||
        hpls_solver_setup(s, A) != HPLS_OK) {
        fprintf(stderr, "%s: %s\n", options, hpls_solver_message(s));
        exit(1);
    }
    *setup_s = hpls_wtime() - t0;
    for (int r = 0; r < reps; r++) {
        hpls_solver_solve(s, b, x);
        hpls_solver_get_info(s, &info);
        t[r] = info.solve_s * 1e3 / (double)(info.iterations > 0 ? info.iterations : 1);
    }
    *its = (long long)info.iterations;
    hpls_solver_destroy(s);
    qsort(t, (size_t)reps, sizeof t[0], cmp_double);
    return t[reps / 2];
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: bench_qtree REPS SPMVS THREADS INPUT...\n");
        return 2;
    }
    int reps = atoi(argv[1]), spmvs = atoi(argv[2]), threads = atoi(argv[3]);
    if (reps < 1 || reps > 32 || spmvs < 1 || threads < 1)
        return 2;
    omp_set_num_threads(threads);
    double triad = triad_gbs();
    for (int a = 4; a < argc; a++) {
        hpls_csr *A = NULL, *R = NULL;
        hpls_status st = strstr(argv[a], ".mtx") ? hpls_mm_read_csr(argv[a], &A)
                                                  : hpls_gen_csr(argv[a], &A, NULL);
        if (st != HPLS_OK) {
            fprintf(stderr, "%s: %s\n", argv[a], hpls_last_error());
            return 1;
        }
        hpls_int n = A->nrows;
        hpls_vec *x, *y, *b;
        hpls_vec_create(n, &x);
        hpls_vec_create(n, &y);
        hpls_vec_create(n, &b);
        hpls_k_set(hpls_default_threads(), n, 1.0, x->data);
        hpls_k_spmv(hpls_default_threads(), A, x->data, b->data); /* b = A 1 */
        double tcsr = time_spmv(A, NULL, reps, spmvs, x->data, y->data), tq[NDS];
        double best = 1e300, bytes_best = 0, build_best = 0; /* the fastest tree */
        hpls_int best_d = 0;
        for (int k = 0; k < NDS; k++) {
            hpls_qtree *Q = NULL;
            double t0 = hpls_wtime();
            if (hpls_qtree_create(A, ds[k], 0, threads, &Q) != HPLS_OK)
                return 1;
            double tb = hpls_wtime() - t0;
            tq[k] = time_spmv(A, Q, reps, spmvs, x->data, y->data);
            if (tq[k] < best) {
                best = tq[k];
                best_d = ds[k];
                bytes_best = hpls_qtree_bytes(Q);
                build_best = tb;
            }
            hpls_qtree_destroy(Q);
        }
        /* the automatic format as the solver sets it up, then timed as above */
        hpls_qtree *Q = NULL;
        hpls_qt_choice c;
        double t0 = hpls_wtime();
        if (hpls_qtree_create_auto(A, threads, &Q, &c) != HPLS_OK)
            return 1;
        double tauto_setup = hpls_wtime() - t0;
        double tauto = Q ? time_spmv(A, Q, reps, spmvs, x->data, y->data) : tcsr;
        hpls_qtree_destroy(Q);
        hpls_int *perm = malloc((size_t)n * sizeof *perm);
        if (!perm || hpls_rcm(A, perm) != HPLS_OK || hpls_csr_permute(A, perm, &R) != HPLS_OK)
            return 1;
        double trcm = time_spmv(R, NULL, reps, spmvs, x->data, y->data);
        char opts[160];
        long long i1, i2, i3;
        double su1, su2, su3;
        double s1 = time_solve(A, "solver=bicgstab tol=1e-8 maxiter=300", reps, b, x, &i1, &su1);
        double s2 = time_solve(A, "solver=qtbicgstab tol=1e-8 maxiter=300", reps, b, x, &i2, &su2);
        snprintf(opts, sizeof opts, "solver=qtbicgstab qt_d=%lld tol=1e-8 maxiter=300",
                 (long long)best_d);
        double s3 = time_solve(A, opts, reps, b, x, &i3, &su3);
        /* bytes of A one product streams: CSR val + colind + rowptr */
        double bcsr = (double)A->nnz * 12 + (double)(n + 1) * 8;
        /* CSR's bandwidth counting A, x and y once each (a floor on its traffic) */
        double gbs = (bcsr + 16.0 * (double)n) / (tcsr * 1e-3) / 1e9;
        printf("| %s | %d | %lld | %lld | %.2f (%.1f GB/s; triad %.1f) |", argv[a], threads,
               (long long)n, (long long)A->nnz, tcsr, gbs, triad);
        for (int k = 0; k < NDS; k++)
            printf(" %.2f (%.2fx) |", tq[k], tcsr / tq[k]);
        char chosen[32];
        if (c.d)
            snprintf(chosen, sizeof chosen, "d=%lld", (long long)c.d);
        else
            snprintf(chosen, sizeof chosen, "csr");
        printf(" %lld | %lld -> %s | %.2f (%.2fx; %.2f of the fastest) | %.2f (%.2fx) |"
               " %.1f / %.1f (%.2f s) |",
               (long long)best_d, (long long)c.d0, chosen, tauto, tcsr / tauto,
               tauto / (best < tcsr ? best : tcsr), trcm, tcsr / trcm, bcsr / (double)A->nnz,
               bytes_best / (double)A->nnz, build_best);
        printf(" %.2f / %.2f (%.2fx) / %.2f (%.2fx) | %lld / %lld / %lld | %.2f s |\n", s1, s2,
               s1 / s2, s3, s1 / s3, i1, i2, i3, tauto_setup);
        fflush(stdout);
        free(perm);
        hpls_csr_destroy(R);
        hpls_csr_destroy(A);
        hpls_vec_destroy(x);
        hpls_vec_destroy(y);
        hpls_vec_destroy(b);
    }
    return 0;
}
