/* SPDX-License-Identifier: BSD-3-Clause */
/* test_gmres_minres.c: GMRES(m), FGMRES(m) and MINRES on known solutions, with
 * the properties that define them (monotone residual, exactness in few steps,
 * symmetric indefinite systems). */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct run_result {
    hpls_info info;
    double relres, relerr;
} run_result;

static run_result run(const hpls_csr *A, const char *options, const hpls_vec *xt)
{
    hpls_solver *s;
    hpls_vec *b = tu_rhs(A, xt), *x;
    hpls_vec_create(A->nrows, &x);
    assert_int_equal(hpls_solver_create(&s), HPLS_OK);
    assert_int_equal(hpls_solver_set_options(s, options), HPLS_OK);
    assert_int_equal(hpls_solver_setup(s, A), HPLS_OK);
    assert_int_equal(hpls_solver_solve(s, b, x), HPLS_OK);
    run_result r;
    hpls_solver_get_info(s, &r.info);
    r.relres = tu_relres(A, b, x);
    r.relerr = tu_relerr(x, xt);
    hpls_solver_destroy(s);
    hpls_vec_destroy(b);
    hpls_vec_destroy(x);
    return r;
}

static void gmres_family_solves_the_generated_families(void **state)
{
    (void)state;
    static const char *const specs[] = {"gas:n=3000,k=1", "gas:n=3000,k=3", "poisson2d:nx=30",
                                        "poisson3d:nx=10", "convdiff3d:nx=10,pe=50",
                                        "dense-dd:n=60"};
    static const char *const methods[] = {
        "solver=gmres",          "solver=gmres restart=5 precond=jacobi",
        "solver=gmres precond=ssor", "solver=gmres precond=jacobi pc_side=left",
        "solver=fgmres precond=ssor", "solver=fgmres restart=10"};
    for (size_t p = 0; p < sizeof specs / sizeof specs[0]; p++) {
        hpls_csr *A = tu_gen(specs[p]);
        hpls_vec *xt = tu_vec_random(A->nrows, 3);
        for (size_t m = 0; m < sizeof methods / sizeof methods[0]; m++) {
            char opts[160];
            snprintf(opts, sizeof opts, "%s tol=1e-9 maxiter=20000", methods[m]);
            run_result r = run(A, opts, xt);
            if (!hpls_reason_converged(r.info.reason) || r.relres > 1e-9)
                fail_msg("%s with %s: %s after %lld, relres %.2e", specs[p], methods[m],
                         hpls_reason_str(r.info.reason), (long long)r.info.iterations, r.relres);
            assert_int_equal(r.info.precond_norm, 0); /* pc_side=left too: the true norm */
            assert_true(r.relerr < 1e-5);
        }
        hpls_vec_destroy(xt);
        hpls_csr_destroy(A);
    }
}

/* GMRES minimises ||r|| over a growing space: the history never rises. */
static void gmres_residual_never_increases(void **state)
{
    (void)state;
    hpls_csr *A = tu_gen("convdiff3d:nx=12,pe=80");
    hpls_vec *b = tu_vec_random(A->nrows, 8), *x;
    hpls_vec_create(A->nrows, &x);
    const char *const opts[] = {"solver=gmres restart=7", "solver=gmres restart=30 precond=ssor"};
    for (int k = 0; k < 2; k++) {
        hpls_solver *s;
        hpls_solver_create(&s);
        hpls_solver_set_options(s, opts[k]);
        hpls_solver_setup(s, A);
        hpls_solver_solve(s, b, x);
        hpls_int count;
        const double *rel;
        hpls_solver_history(s, &count, NULL, &rel, NULL);
        assert_true(count > 10);
        for (hpls_int i = 1; i < count; i++)
            assert_true(rel[i] <= rel[i - 1] * (1 + 1e-10));
        hpls_solver_destroy(s);
    }
    hpls_vec_destroy(b);
    hpls_vec_destroy(x);
    hpls_csr_destroy(A);
}

/* With k distinct eigenvalues the Krylov space holds the solution after k
 * steps: the lucky breakdown ends the solve exactly. */
static void gmres_is_exact_after_as_many_steps_as_distinct_eigenvalues(void **state)
{
    (void)state;
    enum { N = 200 };
    hpls_int ri[N], cj[N];
    double v[N];
    for (int i = 0; i < N; i++) {
        ri[i] = cj[i] = i;
        v[i] = 1.0 + (double)(i % 3); /* eigenvalues 1, 2, 3 */
    }
    hpls_csr *A;
    assert_int_equal(hpls_csr_from_coo(N, N, N, ri, cj, v, &A), HPLS_OK);
    hpls_vec *xt = tu_vec_random(N, 1);
    const char *const methods[] = {"solver=gmres tol=1e-14", "solver=fgmres tol=1e-14",
                                   "solver=minres tol=1e-14"};
    for (int m = 0; m < 3; m++) {
        run_result r = run(A, methods[m], xt);
        assert_true(hpls_reason_converged(r.info.reason));
        assert_true(r.info.iterations <= 3);
        assert_true(r.relres < 1e-13);
    }
    hpls_vec_destroy(xt);
    hpls_csr_destroy(A);
}

/* FGMRES with a fixed preconditioner is GMRES right preconditioned. */
static void fgmres_with_fixed_preconditioner_is_gmres(void **state)
{
    (void)state;
    hpls_csr *A = tu_gen("gas:n=4000,k=2");
    hpls_vec *xt = tu_vec_random(A->nrows, 6);
    run_result g = run(A, "solver=gmres restart=8 precond=ssor", xt);
    run_result f = run(A, "solver=fgmres restart=8 precond=ssor", xt);
    assert_true(hpls_reason_converged(g.info.reason) && hpls_reason_converged(f.info.reason));
    assert_true(llabs((long long)(g.info.iterations - f.info.iterations)) <= 1);
    hpls_vec_destroy(xt);
    hpls_csr_destroy(A);
}

/* MINRES: like CG on SPD matrices; solves symmetric indefinite ones where CG stops. */
static void minres_solves_symmetric_definite_and_indefinite(void **state)
{
    (void)state;
    hpls_csr *A = tu_gen("poisson2d:nx=30");
    hpls_vec *xt = tu_vec_random(A->nrows, 2);
    run_result cg = run(A, "solver=cg", xt);
    const char *const opts[] = {"solver=minres", "solver=minres precond=jacobi",
                                "solver=minres precond=ssor"};
    for (int k = 0; k < 3; k++) {
        run_result m = run(A, opts[k], xt);
        assert_true(hpls_reason_converged(m.info.reason) && m.relres <= 1e-8);
        if (k == 0)
            assert_true(llabs((long long)(m.info.iterations - cg.info.iterations)) <= 3);
    }
    /* shift into the middle of the spectrum: indefinite, CG must refuse */
    for (hpls_int i = 0; i < A->nrows; i++)
        for (hpls_int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++)
            if (A->colind[p] == i)
                A->val[p] -= 3.7;
    run_result c2 = run(A, "solver=cg", xt);
    assert_int_equal(c2.info.reason, HPLS_DIVERGED_INDEFINITE);
    run_result m2 = run(A, "solver=minres maxiter=5000", xt);
    assert_true(hpls_reason_converged(m2.info.reason) && m2.relres <= 1e-8);
    assert_true(m2.relerr < 1e-4);
    /* an indefinite preconditioner is reported */
    run_result m3 = run(A, "solver=minres precond=jacobi", xt);
    assert_true(hpls_reason_converged(m3.info.reason) ||
                m3.info.reason == HPLS_DIVERGED_INDEFINITE);
    hpls_vec_destroy(xt);
    hpls_csr_destroy(A);
}

static void real_symmetric_matrix_from_the_collection(void **state)
{
    (void)state;
    char path[1024];
    if (!tu_data_path("matrices/bcsstk08.mtx", path, sizeof path))
        skip();
    hpls_csr *A;
    assert_int_equal(hpls_mm_read_csr(path, &A), HPLS_OK);
    hpls_vec *xt = tu_vec_random(A->nrows, 5);
    run_result r = run(A, "solver=minres precond=jacobi maxiter=20000", xt);
    if (!hpls_reason_converged(r.info.reason) || r.relres > 1e-8)
        fail_msg("bcsstk08 minres: %s after %lld, relres %.2e", hpls_reason_str(r.info.reason),
                 (long long)r.info.iterations, r.relres);
    hpls_vec_destroy(xt);
    hpls_csr_destroy(A);
}

/* Solves A x = b with b concentrated on the rows of A scaled down (see below)
 * and returns the true relative residual; the history's last value in *last. */
static double relres_left(const hpls_csr *A, const char *options, hpls_info *info, double *last)
{
    hpls_int n = A->nrows;
    hpls_vec *b, *x;
    hpls_vec_create(n, &b);
    hpls_vec_create(n, &x);
    for (hpls_int i = 0; i < n; i++)
        b->data[i] = sin(0.7 * (double)i) < -0.5 ? 1e-4 * cos((double)i) : 0.0;
    hpls_solver *s;
    assert_int_equal(hpls_solver_create(&s), HPLS_OK);
    assert_int_equal(hpls_solver_set_options(s, options), HPLS_OK);
    assert_int_equal(hpls_solver_setup(s, A), HPLS_OK);
    assert_int_equal(hpls_solver_solve(s, b, x), HPLS_OK);
    hpls_solver_get_info(s, info);
    hpls_int count;
    const double *rel;
    hpls_solver_history(s, &count, NULL, &rel, NULL);
    *last = rel[count - 1];
    double r = tu_relres(A, b, x);
    hpls_solver_destroy(s);
    hpls_vec_destroy(b);
    hpls_vec_destroy(x);
    return r;
}

/* pc_side=left iterates on M^-1 A, whose residual ||M^-1 r|| can be far below
 * ||r||: converged must still mean ||b - A x|| <= tol ||b|| (issue 15: it meant
 * ||M^-1 r|| <= tol ||M^-1 b||), unless norm=preconditioned asks for that, which
 * info then names.  Rows of A scaled by 10^(4 sin(0.7 i)) and b on the rows
 * scaled down: Jacobi's M^-1 r and r weigh the rows 10^8 apart.  The
 * preconditioned test accepts a true residual of 6e-2 here for tol 1e-8. */
static void left_gmres_converges_on_the_true_residual(void **state)
{
    (void)state;
    hpls_csr *A = tu_gen("convdiff3d:nx=10,pe=50");
    for (hpls_int i = 0; i < A->nrows; i++) {
        double s = pow(10.0, 4.0 * sin(0.7 * (double)i));
        for (int64_t k = A->rowptr[i]; k < A->rowptr[i + 1]; k++)
            A->val[k] *= s;
    }
    const char *opts = "solver=gmres precond=jacobi pc_side=left tol=1e-8 maxiter=5000";
    char popts[128];
    snprintf(popts, sizeof popts, "%s norm=preconditioned", opts);
    hpls_info a, p;
    double la, lp, ra = relres_left(A, opts, &a, &la), rp = relres_left(A, popts, &p, &lp);
    if (!hpls_reason_converged(a.reason) || !(ra <= 1e-8))
        fail_msg("left jacobi: %s after %lld, relres %.2e", hpls_reason_str(a.reason),
                 (long long)a.iterations, ra);
    assert_int_equal(a.precond_norm, 0);
    assert_true(fabs(la - ra) <= 1e-6 * ra); /* the history ends on the true value */
    assert_true(hpls_reason_converged(p.reason));
    assert_int_equal(p.precond_norm, 1);
    assert_true(lp <= 1e-8 && rp > 1e-4); /* what the old test accepted */
    hpls_csr_destroy(A);
}

/* The same on the collection: orsirr_1 + ilu0 at tol 1e-11 "converged" at a true
 * 3.9e-11 and nos7 + ilu0 at 4.1e-5; now converged means the true test passed:
 * orsirr_1 converges, nos7 may not (right-preconditioned GMRES stagnates at
 * 1.5e-8 there too). */
static void left_gmres_on_the_collection_reports_the_true_outcome(void **state)
{
    (void)state;
    static const char *const names[] = {"orsirr_1", "nos7"};
    int found = 0;
    for (int k = 0; k < 2; k++) {
        char rel[64], path[1024];
        snprintf(rel, sizeof rel, "matrices/%s.mtx", names[k]);
        if (!tu_data_path(rel, path, sizeof path))
            continue;
        found++;
        hpls_csr *A;
        assert_int_equal(hpls_mm_read_csr(path, &A), HPLS_OK);
        hpls_vec *xt = tu_vec_const(A->nrows, 1.0); /* b = A 1, as hpls solve makes it */
        run_result r = run(A, "solver=gmres precond=ilu0 pc_side=left tol=1e-11 maxiter=3000", xt);
        if (hpls_reason_converged(r.info.reason) ? !(r.relres <= 1e-11) : k == 0)
            fail_msg("%s: %s after %lld, relres %.2e", names[k], hpls_reason_str(r.info.reason),
                     (long long)r.info.iterations, r.relres);
        hpls_vec_destroy(xt);
        hpls_csr_destroy(A);
    }
    if (!found)
        skip();
}

static void restart_and_side_options_are_checked(void **state)
{
    (void)state;
    hpls_csr *A = tu_gen("poisson2d:nx=5");
    hpls_solver *s;
    hpls_solver_create(&s);
    assert_int_equal(hpls_solver_set_option(s, "restart=0"), HPLS_ERR_OPTION);
    assert_int_equal(hpls_solver_set_option(s, "pc_side=up"), HPLS_ERR_OPTION);
    assert_non_null(strstr(hpls_solver_message(s), "right,left"));
    assert_int_equal(hpls_solver_set_options(s, "solver=bicgstab restart=5"), HPLS_OK);
    assert_int_equal(hpls_solver_setup(s, A), HPLS_ERR_OPTION);
    assert_int_equal(hpls_solver_set_options(s, "solver=fgmres pc_side=left"), HPLS_OK);
    assert_int_equal(hpls_solver_setup(s, A), HPLS_ERR_OPTION);
    assert_non_null(strstr(hpls_solver_message(s), "pc_side"));
    assert_int_equal(hpls_solver_set_option(s, "norm=true"), HPLS_ERR_OPTION);
    assert_int_equal(hpls_solver_set_options(s, "solver=gmres pc_side=right norm=preconditioned"),
                     HPLS_OK);
    assert_int_equal(hpls_solver_setup(s, A), HPLS_ERR_OPTION);
    assert_non_null(strstr(hpls_solver_message(s), "norm=preconditioned needs pc_side=left"));
    hpls_solver_destroy(s);
    hpls_solver_create(&s); /* a method without pc_side=left does not take norm */
    assert_int_equal(hpls_solver_set_options(s, "solver=bicgstab norm=preconditioned"), HPLS_OK);
    assert_int_equal(hpls_solver_setup(s, A), HPLS_ERR_OPTION);
    assert_non_null(strstr(hpls_solver_message(s), "norm"));
    hpls_solver_destroy(s);
    hpls_csr_destroy(A);
}

static void allocation_failures_leave_no_leak(void **state)
{
    (void)state;
    hpls_csr *A = tu_gen("gas:n=300,k=2");
    hpls_vec *b = tu_vec_const(A->nrows, 1.0), *x = tu_vec_const(A->nrows, 0.0);
    const char *const methods[] = {"solver=gmres restart=4 precond=ssor", "solver=fgmres",
                                   "solver=minres", "solver=sor", "solver=ssor"};
    for (int m = 0; m < 5; m++) {
        tu_solve_under_alloc_failures(A, b, x, methods[m]);
    }
    hpls_vec_destroy(b);
    hpls_vec_destroy(x);
    hpls_csr_destroy(A);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gmres_family_solves_the_generated_families),
        cmocka_unit_test(gmres_residual_never_increases),
        cmocka_unit_test(gmres_is_exact_after_as_many_steps_as_distinct_eigenvalues),
        cmocka_unit_test(fgmres_with_fixed_preconditioner_is_gmres),
        cmocka_unit_test(minres_solves_symmetric_definite_and_indefinite),
        tu_data_test(real_symmetric_matrix_from_the_collection),
        cmocka_unit_test(left_gmres_converges_on_the_true_residual),
        tu_data_test(left_gmres_on_the_collection_reports_the_true_outcome),
        cmocka_unit_test(restart_and_side_options_are_checked),
        cmocka_unit_test(allocation_failures_leave_no_leak),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
