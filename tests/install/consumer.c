/* consumer.c: solves the gas problem through the installed public API only. */
#include <hpls.h>
#include <stdio.h>

int main(void)
{
    hpls_csr *A = NULL;
    hpls_vec *b = NULL, *x = NULL;
    hpls_solver *s = NULL;
    hpls_info info = {0};
    int ok = hpls_gen_csr("gas:n=1000,k=2", &A, &b) == HPLS_OK &&
             hpls_vec_create(A->nrows, &x) == HPLS_OK && hpls_solver_create(&s) == HPLS_OK &&
             hpls_solver_set_options(s, "solver=bicgstab precond=jacobi") == HPLS_OK &&
             hpls_solver_setup(s, A) == HPLS_OK && hpls_solver_solve(s, b, x) == HPLS_OK &&
             hpls_solver_get_info(s, &info) == HPLS_OK && hpls_reason_converged(info.reason);
    printf("consumer: %s, %lld iterations, relres %.2e\n", ok ? "ok" : "FAILED",
           (long long)info.iterations, info.relres);
    hpls_solver_destroy(s);
    hpls_vec_destroy(x);
    hpls_vec_destroy(b);
    hpls_csr_destroy(A);
    return ok ? 0 : 1;
}
