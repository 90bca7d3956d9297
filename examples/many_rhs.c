/* SPDX-License-Identifier: BSD-3-Clause */
/* many_rhs.c: 8 right-hand sides in one call (hpls_solver_solve_many): B and X
 * are n x 8, column-major (column j at j*n), with an outcome per column. */
#include <hpls.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

enum { K = 8 };

int main(void)
{
    hpls_csr *A;
    hpls_solver *s;
    if (hpls_gen_csr("gas:n=100000,k=2", &A, NULL) != HPLS_OK || hpls_solver_create(&s) != HPLS_OK) {
        fprintf(stderr, "%s\n", hpls_last_error());
        return 1;
    }
    hpls_int n = A->nrows;
    double *B = malloc(sizeof(double) * (size_t)(n * K)), *X = malloc(sizeof(double) * (size_t)(n * K));
    hpls_info info[K];
    if (!B || !X)
        return 1;
    for (hpls_int j = 0; j < K; j++)
        for (hpls_int i = 0; i < n; i++)
            B[j * n + i] = sin(0.001 * (double)(i + 1) * (double)(j + 1));
    if (hpls_solver_set_options(s, "solver=jacobi tol=1e-10") != HPLS_OK ||
        hpls_solver_setup(s, A) != HPLS_OK || hpls_solver_solve_many(s, K, B, X, info) != HPLS_OK) {
        fprintf(stderr, "%s\n", hpls_solver_message(s));
        return 1;
    }
    int ok = 1;
    for (int j = 0; j < K; j++) {
        printf("column %d: %s after %lld iterations, relres %.2e\n", j + 1,
               hpls_reason_str(info[j].reason), (long long)info[j].iterations, info[j].relres);
        ok &= hpls_reason_converged(info[j].reason);
    }
    printf("%d columns in %.3f s\n", K, info[0].solve_s);
    free(B);
    free(X);
    hpls_solver_destroy(s);
    hpls_csr_destroy(A);
    return ok ? 0 : 1;
}
