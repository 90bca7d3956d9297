/* SPDX-License-Identifier: BSD-3-Clause */
/* solve_file.c: solve A x = b read from Matrix Market files (b = A*1 without one). */
#include <hpls.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s A.mtx [b.mtx]\n", argv[0]);
        return 2;
    }
    hpls_csr *A = NULL;
    hpls_vec *b = NULL, *x = NULL, *ones = NULL;
    hpls_solver *s = NULL;
    hpls_info info;
    hpls_status st = hpls_mm_read_csr(argv[1], &A);
    if (st == HPLS_OK && argc > 2)
        st = hpls_mm_read_vec(argv[2], &b);
    else if (st == HPLS_OK && (st = hpls_vec_create(A->ncols, &ones)) == HPLS_OK &&
             (st = hpls_vec_create(A->nrows, &b)) == HPLS_OK) {
        for (hpls_int i = 0; i < ones->n; i++)
            ones->data[i] = 1.0;
        st = hpls_csr_spmv(A, ones, b); /* b = A*1 */
    }
    if (st != HPLS_OK) {
        fprintf(stderr, "%s\n", hpls_last_error());
        return 2;
    }
    if ((st = hpls_vec_create(A->ncols, &x)) == HPLS_OK && (st = hpls_solver_create(&s)) == HPLS_OK &&
        (st = hpls_solver_set_options(s, "solver=bicgstab precond=dilu tol=1e-10")) == HPLS_OK &&
        (st = hpls_solver_setup(s, A)) == HPLS_OK && (st = hpls_solver_solve(s, b, x)) == HPLS_OK)
        st = hpls_solver_get_info(s, &info);
    if (st != HPLS_OK)
        fprintf(stderr, "%s: %s\n", hpls_strerror(st), s ? hpls_solver_message(s) : "");
    else
        printf("%s after %lld iterations, true relative residual %.2e\n",
               hpls_reason_str(info.reason), (long long)info.iterations, info.relres);
    int ok = st == HPLS_OK && hpls_reason_converged(info.reason);
    hpls_solver_destroy(s);
    hpls_vec_destroy(x);
    hpls_vec_destroy(ones);
    hpls_vec_destroy(b);
    hpls_csr_destroy(A);
    return ok ? 0 : 1;
}
