/* SPDX-License-Identifier: BSD-3-Clause */
/* test_advice.c: solver=auto, which takes hpls info's advice (advice.c) in the
 * library: what it chooses on an SPD, a quasi-tridiagonal and a zero-diagonal
 * matrix, each solve converging with the true residual <= tol; the fallback to
 * the next advice, once; the options it refuses; the user's options back after
 * it chose. */
#include "testutil.h"

#include "la/matching.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The generator's matrix for spec with its columns shifted by n/2: column l
 * is A's column (l + n/2) mod n, so a banded A (bandwidth < n/2) leaves no
 * nonzero on the diagonal. */
static hpls_csr *zero_diagonal(const char *spec)
{
    hpls_csr *A = tu_gen(spec), *B = NULL;
    hpls_int n = A->nrows;
    hpls_int *cp = malloc((size_t)n * sizeof *cp);
    assert_non_null(cp);
    for (hpls_int l = 0; l < n; l++)
        cp[l] = (l + n / 2) % n;
    assert_int_equal(hpls_csr_scale_permute(A, NULL, cp, NULL, NULL, &B), HPLS_OK);
    for (hpls_int i = 0; i < n; i++)
        for (hpls_int p = B->rowptr[i]; p < B->rowptr[i + 1]; p++)
            assert_true(B->colind[p] != i);
    free(cp);
    hpls_csr_destroy(A);
    return B;
}

/* solver=auto (with options) on A: it chose solver, precond and reorder, says
 * so, and A x = A xtrue converges with the true residual <= tol. */
static void auto_solves(const hpls_csr *A, const char *options, double tol, const char *solver,
                        const char *precond, const char *reorder, const char *evidence)
{
    hpls_solver *s = tu_setup(A, options);
    assert_string_equal(hpls_solver_get_option(s, "solver"), solver);
    assert_string_equal(hpls_solver_get_option(s, "precond"), precond);
    assert_string_equal(hpls_solver_get_option(s, "reorder"), reorder);
    const char *why = hpls_solver_auto(s);
    assert_non_null(why);
    assert_non_null(strstr(why, "solver=auto chose --"));
    if (!strstr(why, evidence))
        fail_msg("no \"%s\" in \"%s\"", evidence, why);
    hpls_int n = A->nrows;
    hpls_vec *xt = tu_vec_random(n, 3), *b = tu_rhs(A, xt), *x;
    assert_int_equal(hpls_vec_create(n, &x), HPLS_OK);
    hpls_info info = tu_run(s, b, x);
    double rr = tu_relres(A, b, x);
    if (!hpls_reason_converged(info.reason) || !(rr <= tol))
        fail_msg("%s: %s, true relres %.3g (tol %g)", why, hpls_reason_str(info.reason), rr, tol);
    assert_true(fabs(info.relres - rr) <= 1e-6 * rr + 1e-15); /* reported = true residual */
    assert_true(tu_relerr(x, xt) < 1e-4);
    assert_null(strstr(hpls_solver_auto(s), "fell back")); /* the first choice converged */
    hpls_vec_destroy(xt);
    hpls_vec_destroy(b);
    hpls_vec_destroy(x);
    hpls_solver_destroy(s);
}

static void auto_chooses_cg_dic_on_an_spd_matrix(void **state)
{
    (void)state;
    hpls_csr *A = tu_gen("poisson2d:nx=40");
    auto_solves(A, "solver=auto tol=1e-10", 1e-10, "cg", "dic", "none", "likely SPD");
    hpls_csr_destroy(A);
}

static void auto_chooses_hisa_on_a_quasi_tridiagonal_matrix(void **state)
{
    (void)state;
    hpls_csr *A = tu_gen("gas:n=20000,k=3");
    auto_solves(A, "solver=auto tol=1e-10", 1e-10, "hisa", "none", "none", "fast enough");
    hpls_csr_destroy(A);
}

static void auto_chooses_a_matching_on_a_zero_diagonal(void **state)
{
    (void)state;
    hpls_csr *A = zero_diagonal("convdiff3d:nx=12");
    auto_solves(A, "solver=auto tol=1e-10", 1e-10, "bicgstab", "ilu0", "matching",
                "1728 zero or missing diagonal entries");
    hpls_csr_destroy(A);
}

/* A first choice that does not converge (maxiter too small for it) falls back
 * once to the next advice, which says so; the next solve does not fall back
 * again; setting an option gives the user's options back, and the next setup
 * chooses afresh. */
static void auto_falls_back_once_and_then_chooses_afresh(void **state)
{
    (void)state;
    hpls_csr *A = tu_gen("poisson2d:nx=40");
    hpls_int n = A->nrows;
    hpls_solver *s = tu_setup(A, "solver=auto maxiter=5");
    hpls_vec *b = tu_vec_const(n, 1.0), *x;
    assert_int_equal(hpls_vec_create(n, &x), HPLS_OK);
    hpls_info info = tu_run(s, b, x);
    assert_int_equal(info.reason, HPLS_DIVERGED_MAXIT);
    assert_int_equal(info.iterations, 5); /* the second solve's own */
    assert_non_null(strstr(hpls_solver_auto(s), "--solver cg --precond dic: not converged "
                                                "(maximum iterations) after 5 iterations, so it "
                                                "fell back to --solver cg --precond ssor"));
    assert_string_equal(hpls_solver_get_option(s, "precond"), "ssor");
    info = tu_run(s, b, x);
    assert_string_equal(hpls_solver_get_option(s, "precond"), "ssor");
    assert_non_null(strstr(hpls_solver_auto(s), "fell back")); /* once: not twice */
    assert_null(strstr(strstr(hpls_solver_auto(s), "fell back") + 1, "fell back"));
    assert_int_equal(hpls_solver_set_option(s, "maxiter=2000"), HPLS_OK);
    assert_string_equal(hpls_solver_get_option(s, "solver"), "auto");
    assert_string_equal(hpls_solver_get_option(s, "precond"), "none");
    assert_null(hpls_solver_auto(s)); /* not set up */
    assert_int_equal(hpls_solver_setup(s, A), HPLS_OK);
    assert_string_equal(hpls_solver_get_option(s, "precond"), "dic");
    info = tu_run(s, b, x);
    assert_true(hpls_reason_converged(info.reason) && tu_relres(A, b, x) <= 1e-8);
    assert_null(strstr(hpls_solver_auto(s), "fell back"));
    hpls_vec_destroy(b);
    hpls_vec_destroy(x);
    hpls_solver_destroy(s);
    hpls_csr_destroy(A);
}

/* solver=auto chooses the preconditioner and the reordering: given ones are
 * refused with a message, so are a dense matrix and a plain solver. */
static void auto_refuses_what_it_chooses(void **state)
{
    (void)state;
    hpls_csr *A = tu_gen("poisson2d:nx=10");
    static const char *const bad[][2] = {
        {"solver=auto precond=jacobi", "option precond does not apply to solver auto"},
        {"solver=auto reorder=rcm", "solver=auto chooses reorder, scale and the preconditioner"},
        {"solver=auto omega=1.2", "option omega does not apply to solver auto"},
    };
    for (int k = 0; k < 3; k++) {
        hpls_solver *s;
        assert_int_equal(hpls_solver_create(&s), HPLS_OK);
        assert_int_equal(hpls_solver_set_options(s, bad[k][0]), HPLS_OK);
        assert_int_equal(hpls_solver_setup(s, A), HPLS_ERR_OPTION);
        if (!strstr(hpls_solver_message(s), bad[k][1]))
            fail_msg("%s: \"%s\"", bad[k][0], hpls_solver_message(s));
        assert_null(hpls_solver_auto(s));
        hpls_solver_destroy(s);
    }
    hpls_solver *s = tu_setup(A, "solver=cg");
    assert_null(hpls_solver_auto(s)); /* only solver=auto says what it chose */
    hpls_solver_destroy(s);
    hpls_csr_destroy(A);
}

/* olm500 (issue 15): bicgstab + ilu0 diverges on it; auto falls back to gmres +
 * ilu0, which converges with the true residual <= tol. */
static void auto_falls_back_to_gmres_on_olm500(void **state)
{
    (void)state;
    char path[4096];
    if (!tu_data_path("matrices/olm500.mtx", path, sizeof path))
        skip();
    hpls_csr *A;
    assert_int_equal(hpls_mm_read_csr(path, &A), HPLS_OK);
    hpls_int n = A->nrows;
    hpls_solver *s = tu_setup(A, "solver=auto");
    assert_string_equal(hpls_solver_get_option(s, "solver"), "bicgstab");
    hpls_vec *xt = tu_vec_const(n, 1.0), *b = tu_rhs(A, xt), *x;
    assert_int_equal(hpls_vec_create(n, &x), HPLS_OK);
    hpls_info info = tu_run(s, b, x);
    assert_true(hpls_reason_converged(info.reason));
    assert_true(tu_relres(A, b, x) <= 1e-8);
    assert_string_equal(hpls_solver_get_option(s, "solver"), "gmres");
    /* the count of a diverging run follows the last bits of M: not pinned */
    const char *why = hpls_solver_auto(s);
    assert_non_null(strstr(why, "--solver bicgstab --precond ilu0: diverged (residual growth) "
                                "after "));
    assert_non_null(strstr(why, " iterations, so it fell back to --solver gmres --precond ilu0"));
    hpls_vec_destroy(xt);
    hpls_vec_destroy(b);
    hpls_vec_destroy(x);
    hpls_solver_destroy(s);
    hpls_csr_destroy(A);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(auto_chooses_cg_dic_on_an_spd_matrix),
        cmocka_unit_test(auto_chooses_hisa_on_a_quasi_tridiagonal_matrix),
        cmocka_unit_test(auto_chooses_a_matching_on_a_zero_diagonal),
        cmocka_unit_test(auto_falls_back_once_and_then_chooses_afresh),
        cmocka_unit_test(auto_refuses_what_it_chooses),
        tu_data_test(auto_falls_back_to_gmres_on_olm500),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
