/* SPDX-License-Identifier: BSD-3-Clause */
/* test_foam_paths.c: what a CFD code (OpenFOAM, integrations/openfoam) needs of
 * the library, issue 31: the stop test changed between solves without a new
 * setup. */
#include "testutil.h"

#include "hpls.h"

#include <stdio.h>
#include <string.h>

/* tol and maxiter set between solves are honoured by the next solve, with the
 * setup kept (its time unchanged, no HPLS_ERR_STATE); an option that changes
 * M still asks for a setup. */
static void solve_time_options_keep_the_setup(void **state)
{
    (void)state;
    hpls_csr *A = tu_gen("poisson2d:nx=60");
    hpls_vec *xt = tu_vec_random(A->nrows, 5), *b = tu_rhs(A, xt), *x;
    hpls_vec_create(A->nrows, &x);
    hpls_solver *s = tu_setup(A, "solver=cg precond=dic tol=1e-4");
    hpls_info first = tu_run(s, b, x), second, third;
    assert_true(first.relres <= 1e-4);
    assert_int_equal(hpls_solver_set_options(s, "tol=1e-11 maxiter=500"), HPLS_OK);
    second = tu_run(s, b, x);
    assert_int_equal(second.reason, HPLS_CONVERGED_RTOL);
    assert_true(second.relres <= 1e-11);
    assert_true(second.iterations > first.iterations);
    assert_true(second.setup_s == first.setup_s); /* no setup ran */
    assert_int_equal(hpls_solver_set_option(s, "maxiter=3"), HPLS_OK);
    assert_int_equal(hpls_solver_set_option(s, "initial_guess=zero"), HPLS_OK);
    third = tu_run(s, b, x);
    assert_int_equal(third.reason, HPLS_DIVERGED_MAXIT);
    assert_int_equal(third.iterations, 3);
    assert_true(third.setup_s == first.setup_s);
    assert_int_equal(hpls_solver_set_option(s, "precond=jacobi"), HPLS_OK);
    assert_int_equal(hpls_solver_solve(s, b, x), HPLS_ERR_STATE);
    hpls_solver_destroy(s);
    hpls_vec_destroy(x);
    hpls_vec_destroy(b);
    hpls_vec_destroy(xt);
    hpls_csr_destroy(A);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(solve_time_options_keep_the_setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
