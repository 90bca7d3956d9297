/* SPDX-License-Identifier: BSD-3-Clause */
/* bench_repeat.c: one setup, then many solves of the same matrix (what an
 * application does at every time step), timed as bench/peers/petsc_bcgs.c times
 * PETSc: b = A 1 from the Matrix Market file, REPS solves from x0 = 0, each timed
 * around hpls_solver_solve alone, the median reported.  bench/small.sh compares
 * the two at OpenFOAM tutorial sizes.
 *
 *   bench_repeat A.mtx REPS "OPTIONS"     OPTIONS: hpls's key=value options
 *
 * Prints one line: iterations, setup_s, solve_s (the median), per_it_ms, relres,
 * reason, converged.  Exit 2 on a failed read, setup or solve. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include "bench_util.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    if (argc != 4 || atoi(argv[2]) < 1) {
        fprintf(stderr, "usage: bench_repeat A.mtx REPS \"OPTIONS\"\n");
        return 2;
    }
    const int reps = atoi(argv[2]);
    hpls_csr *A = NULL;
    hpls_vec *one = NULL, *b = NULL, *x = NULL;
    hpls_solver *s = NULL;
    hpls_info info = {0};
    double *t = malloc((size_t)reps * sizeof *t);
    hpls_status st = t ? hpls_mm_read_csr(argv[1], &A) : HPLS_ERR_NOMEM;
    if (st == HPLS_OK)
        st = hpls_vec_create(A->nrows, &one);
    if (st == HPLS_OK)
        st = hpls_vec_create(A->nrows, &b);
    if (st == HPLS_OK)
        st = hpls_vec_create(A->nrows, &x);
    if (st == HPLS_OK) {
        for (hpls_int i = 0; i < one->n; i++)
            one->data[i] = 1.0;
        st = hpls_csr_spmv(A, one, b);
    }
    if (st == HPLS_OK)
        st = hpls_solver_create(&s);
    if (st == HPLS_OK)
        st = hpls_solver_set_options(s, argv[3]);
    if (st == HPLS_OK)
        st = hpls_solver_setup(s, A);
    for (int r = 0; r < reps && st == HPLS_OK; r++) {
        memset(x->data, 0, (size_t)x->n * sizeof *x->data);
        double t0 = now();
        st = hpls_solver_solve(s, b, x);
        t[r] = now() - t0;
        if (st == HPLS_OK)
            st = hpls_solver_get_info(s, &info);
    }
    int rc = 0;
    if (st != HPLS_OK) {
        fprintf(stderr, "bench_repeat: %s: %s\n", argv[1],
                s && hpls_solver_message(s)[0] ? hpls_solver_message(s) : hpls_strerror(st));
        rc = 2;
    } else {
        double med = median(t, reps);
        printf("iterations=%ld setup_s=%.6f solve_s=%.6f per_it_ms=%.5f relres=%.3e reason=%s "
               "converged=%d\n",
               (long)info.iterations, info.setup_s, med,
               info.iterations > 0 ? 1e3 * med / (double)info.iterations : 0.0, info.relres,
               hpls_reason_str(info.reason), hpls_reason_converged(info.reason));
    }
    hpls_solver_destroy(s);
    hpls_vec_destroy(one);
    hpls_vec_destroy(b);
    hpls_vec_destroy(x);
    hpls_csr_destroy(A);
    free(t);
    return rc;
}
