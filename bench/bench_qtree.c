/* bench_qtree.c: the quad-tree SpMV and QTBiCGSTAB against CSR (Xu et al. 2015,
 * Figs. 5-10 reshaped): per matrix and thread count, the median time of
 * `spmvs` products y = A x for CSR, the quad-tree at d = 64 .. 4096 and at the
 * automatic d (Eq. 17), and CSR after reverse Cuthill-McKee; then BiCGSTAB per
 * iteration with csr, qtbicgstab (automatic: may keep CSR), qtbicgstab at the
 * best measured d, and reorder=rcm; and the bytes of A each format streams.
 *
 *   bench_qtree REPS SPMVS THREADS INPUT...   (INPUT: a generator spec or a .mtx file)
 * prints one Markdown table row per input and thread count. */
#include "la/qtree.h"
#include "la/rcm.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NDS 7
static const hpls_int ds[NDS] = {64, 256, 1024, 4096, 16384, 65536, 0}; /* 0: automatic */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
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
                hpls_k_qt_spmv(Q, x, y);
            else
                hpls_k_spmv(A, x, y);
        }
        t[r] = (hpls_wtime() - t0) / spmvs * 1e3;
    }
    qsort(t, (size_t)reps, sizeof t[0], cmp_double);
    return t[reps / 2];
}

/* median ms per iteration of a BiCGSTAB solve with options; iterations out */
static double time_solve(const hpls_csr *A, const char *options, int reps, const hpls_vec *b,
                         hpls_vec *x, long long *its, char *fmt, size_t flen)
{
    double t[32];
    hpls_solver *s;
    hpls_info info = {0};
    if (hpls_solver_create(&s) != HPLS_OK || hpls_solver_set_options(s, options) != HPLS_OK ||
        hpls_solver_setup(s, A) != HPLS_OK) {
        fprintf(stderr, "%s: %s\n", options, hpls_solver_message(s));
        exit(1);
    }
    snprintf(fmt, flen, "%s", hpls_solver_format(s) ? hpls_solver_format(s) : "csr");
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
    long l2 = hpls_qtree_l2_bytes();
    for (int a = 4; a < argc; a++) {
        hpls_csr *A = NULL, *R = NULL;
        hpls_vec *b = NULL;
        hpls_status st = strstr(argv[a], ".mtx") ? hpls_mm_read_csr(argv[a], &A)
                                                  : hpls_gen_csr(argv[a], &A, NULL);
        if (st != HPLS_OK) {
            fprintf(stderr, "%s: %s\n", argv[a], hpls_last_error());
            return 1;
        }
        hpls_int n = A->nrows;
        hpls_vec *x, *y;
        hpls_vec_create(n, &x);
        hpls_vec_create(n, &y);
        hpls_vec_create(n, &b);
        for (hpls_int i = 0; i < n; i++)
            x->data[i] = 1.0;
        hpls_k_spmv(A, x->data, b->data); /* b = A 1 */
        double tcsr = time_spmv(A, NULL, reps, spmvs, x->data, y->data), tq[NDS];
        hpls_int autod = hpls_qtree_auto_d(A, l2), best_d = 0, leaves_best = 0;
        double best = 1e300;
        for (int k = 0; k < NDS; k++) {
            hpls_int d = ds[k] ? ds[k] : autod;
            tq[k] = 0;
            if (d == 0 || d > HPLS_QT_MAX_D)
                continue;
            hpls_qtree *Q = NULL;
            if (hpls_qtree_create(A, d, threads, &Q) != HPLS_OK)
                return 1;
            tq[k] = time_spmv(A, Q, reps, spmvs, x->data, y->data);
            if (ds[k] && tq[k] < best) {
                best = tq[k];
                best_d = d;
                leaves_best = Q->nleaves;
            }
            hpls_qtree_destroy(Q);
        }
        hpls_int *perm = malloc((size_t)n * sizeof *perm);
        if (!perm || hpls_rcm(A, perm) != HPLS_OK || hpls_csr_permute(A, perm, &R) != HPLS_OK)
            return 1;
        double trcm = time_spmv(R, NULL, reps, spmvs, x->data, y->data);
        char opts[160], f1[200], f2[200], f3[200], f4[200];
        long long i1, i2, i3, i4;
        double s1 = time_solve(A, "solver=bicgstab tol=1e-8 maxiter=300", reps, b, x, &i1, f1, sizeof f1);
        double s2 = time_solve(A, "solver=qtbicgstab tol=1e-8 maxiter=300", reps, b, x, &i2, f2, sizeof f2);
        snprintf(opts, sizeof opts, "solver=qtbicgstab qt_d=%lld tol=1e-8 maxiter=300", (long long)best_d);
        double s3 = time_solve(A, opts, reps, b, x, &i3, f3, sizeof f3);
        double s4 = time_solve(A, "solver=bicgstab reorder=rcm tol=1e-8 maxiter=300", reps, b, x, &i4, f4, sizeof f4);
        /* bytes of A streamed by one product: CSR val + colind + rowptr; the
         * tree's val + 16-bit offsets + leaf headers */
        double mcsr = (double)A->nnz * 12 + (double)(n + 1) * 8;
        double mqt = (double)A->nnz * 12 + (double)leaves_best * (double)sizeof(hpls_qt_leaf);
        printf("| %s | %d | %lld | %lld | %.3f |", argv[a], threads, (long long)n, (long long)A->nnz, tcsr);
        for (int k = 0; k < NDS; k++) {
            if (tq[k] > 0)
                printf(" %.3f (%.2fx) |", tq[k], tcsr / tq[k]);
            else
                printf(" - |");
        }
        printf(" %lld | %.3f (%.2fx) | %lld | %.3f / %.3f (%.2fx) / %.3f (%.2fx) / %.3f (%.2fx) |"
               " %lld / %lld / %lld / %lld | %.1f / %.1f MB | %s |\n",
               (long long)autod, trcm, tcsr / trcm, (long long)best_d, s1, s2, s1 / s2, s3, s1 / s3,
               s4, s1 / s4, i1, i2, i3, i4, mcsr / 1e6, mqt / 1e6, f2);
        free(perm);
        hpls_csr_destroy(R);
        hpls_csr_destroy(A);
        hpls_vec_destroy(x);
        hpls_vec_destroy(y);
        hpls_vec_destroy(b);
    }
    return 0;
}
