/* SPDX-License-Identifier: BSD-3-Clause */
/* test_bicgstabl.c: BiCGstab(l) (src/iter/bicgstabl.c) for l = 1, 2, 4: known
 * solutions with the true residual recomputed, iteration counts against
 * PETSc's KSPBCGSL (tests/ref/petsc_bcgsl_iterations.txt) and, for l = 1,
 * against our bicgstab (the same iterates in exact arithmetic); the test after
 * every BiCG step, the cycle cut at maxiter, the option ell, and non-finite
 * values that never reach x.  (test_krylov runs the checks common to every
 * Krylov method on bicgstabl too: breakdown, maxiter, monitor, repeatability,
 * allocation failures; test_api its matrix-free run.) */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int ells[] = {1, 2, 4};
enum { NELLS = sizeof ells / sizeof ells[0] };

/* Solves A x = A xtrue (xtrue random); fails unless converged with the true
 * relres <= tol, the reported relres the true one, and a small error. */
static void solve_known(const hpls_csr *A, const char *what, const char *options, double tol,
                        double maxerr)
{
    hpls_solver *s = tu_setup(A, options);
    hpls_vec *xt = tu_vec_random(A->nrows, 7), *b = tu_rhs(A, xt), *x;
    assert_int_equal(hpls_vec_create(A->nrows, &x), HPLS_OK);
    hpls_info info = tu_run(s, b, x);
    double res = tu_relres(A, b, x), err = tu_relerr(x, xt);
    if (!hpls_reason_converged(info.reason) || res > tol || err > maxerr ||
        fabs(info.relres - res) > 1e-6 * res + 1e-15)
        fail_msg("%s with %s: %s after %lld iterations, relres %.3e (reported %.3e), error %.3e "
                 "(%s)",
                 what, options, hpls_reason_str(info.reason), (long long)info.iterations, res,
                 info.relres, err, hpls_solver_message(s));
    hpls_vec_destroy(xt);
    hpls_vec_destroy(b);
    hpls_vec_destroy(x);
    hpls_solver_destroy(s);
}

static void known_solutions_of_the_generated_families(void **state)
{
    (void)state;
    static const char *const specs[] = {
        "gas:n=3000,k=1",  "gas:n=3000,k=2",         "gas:n=3000,k=3",          "poisson2d:nx=30",
        "poisson3d:nx=10", "convdiff3d:nx=10,pe=10", "convdiff3d:nx=12,pe=100", "dense-dd:n=60"};
    static const char *const preconds[] = {"none", "jacobi", "ssor", "ilu0"};
    for (size_t p = 0; p < sizeof specs / sizeof specs[0]; p++) {
        hpls_csr *A = tu_gen(specs[p]);
        for (size_t k = 0; k < sizeof preconds / sizeof preconds[0]; k++)
            for (int e = 0; e < NELLS; e++) {
                char opts[128];
                snprintf(opts, sizeof opts, "solver=bicgstabl ell=%d precond=%s tol=1e-9", ells[e],
                         preconds[k]);
                solve_known(A, specs[p], opts, 1e-9, 1e-4);
            }
        hpls_csr_destroy(A);
    }
}

/* Nonsymmetric real matrices (and two symmetric ones) that bicgstab + jacobi
 * or + ilu0 solves; skipped when ../shared/data is absent. */
static void known_solutions_of_real_matrices(void **state)
{
    (void)state;
    static const struct {
        const char *file, *precond;
    } cases[] = {{"matrices/sherman1.mtx", "jacobi"}, {"matrices/cdde1.mtx", "jacobi"},
                 {"matrices/orsirr_1.mtx", "jacobi"}, {"matrices/lis_testmat2.mtx", "jacobi"},
                 {"matrices/orsreg_1.mtx", "jacobi"}, {"matrices/saylr3.mtx", "jacobi"},
                 {"matrices/sherman5.mtx", "ilu0"},   {"matrices/watt_1.mtx", "ilu0"},
                 {"matrices/ginkgo_ani4.mtx", "ilu0"}};
    int found = 0;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char path[1024];
        if (!tu_data_path(cases[c].file, path, sizeof path))
            continue;
        found++;
        hpls_csr *A;
        assert_int_equal(hpls_mm_read_csr(path, &A), HPLS_OK);
        for (int e = 0; e < NELLS; e++) {
            char opts[128];
            snprintf(opts, sizeof opts, "solver=bicgstabl ell=%d precond=%s maxiter=5000", ells[e],
                     cases[c].precond);
            /* the error bound follows the conditioning: relres 1e-8 only */
            solve_known(A, cases[c].file, opts, 1e-8, HUGE_VAL);
        }
        hpls_csr_destroy(A);
    }
    if (!found)
        skip();
}

/* tests/ref/petsc_bcgsl_iterations.txt: "source solver:ell=L precond tol
 * iterations", made by tests/ref/petsc_bcgsl.sh with the same stopping test.
 * Both count l iterations a cycle, but PETSc tests at a cycle's end only and
 * hpls after every BiCG step, so hpls may stop up to l - 1 earlier; beyond
 * that the counts differ by rounding alone (l = 4 on convdiff3d pe=10 ends at
 * 48 in both with the same residual to four digits).  Generated problems:
 * within l + max(2, 5 %).  The real matrices amplify rounding: two BiCGSTABs
 * (PETSc's KSPBCGS and our bicgstab) differ by up to 10 % on them (saylr3
 * 254 / 279, orsreg_1 302 / 274), PETSc's KSPBCGSL with l = 1 and its KSPBCGS
 * by 11 % (sherman1 244 / 220); measured, hpls is within 15 % of KSPBCGSL
 * (sherman1 l = 1: 208 / 244): within 20 % there. */
static void iteration_counts_match_petsc(void **state)
{
    (void)state;
    char path[1024];
    snprintf(path, sizeof path, "%s/ref/petsc_bcgsl_iterations.txt", getenv("HPLS_TEST_DIR"));
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[512], src[256], solver[64], precond[32];
    double tol;
    long long ref;
    int generated = 0, real = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' ||
            sscanf(line, "%255s %63s %31s %lf %lld", src, solver, precond, &tol, &ref) != 5)
            continue;
        int ell;
        assert_int_equal(sscanf(solver, "bicgstabl:ell=%d", &ell), 1);
        int is_data = strncmp(src, "data:", 5) == 0;
        hpls_csr *A = NULL;
        if (is_data) {
            char file[1024];
            if (!tu_data_path(src + 5, file, sizeof file))
                continue;
            assert_int_equal(hpls_mm_read_csr(file, &A), HPLS_OK);
        } else {
            A = tu_gen(src);
        }
        char opts[256];
        snprintf(opts, sizeof opts, "solver=bicgstabl ell=%d precond=%s tol=%g maxiter=100000", ell,
                 precond, tol);
        double relres;
        long long its = (long long)tu_count_iterations(A, opts, &relres);
        long long slack = is_data ? ref / 5 : ell + (ref / 20 > 2 ? ref / 20 : 2);
        if (relres > tol || its < ref - slack || its > ref + slack)
            fail_msg("%s %s: %lld iterations (relres %.3e), PETSc %lld (+-%lld)", src, opts, its,
                     relres, ref, slack);
        if (is_data)
            real++;
        else
            generated++;
        hpls_csr_destroy(A);
    }
    fclose(f);
    assert_int_equal(generated, 42);
    if (real == 0)
        skip();
}

/* BiCGstab(1) is BiCGSTAB: the same iterates in exact arithmetic, so the same
 * counts to one (bicgstab also tests at its half step).  The symmetric Poisson
 * problems are left out: past iteration 11 their iterates drift apart at the
 * rounding level (poisson3d:nx=20: 40 against 37, as PETSc's KSPBCGSL itself
 * gives 40 and 37 with precond none and the equivalent jacobi). */
static void ell_1_counts_like_bicgstab(void **state)
{
    (void)state;
    static const char *const specs[] = {"gas:n=20000,k=1",         "gas:n=20000,k=2",
                                        "gas:n=20000,k=3",         "convdiff3d:nx=20,pe=10",
                                        "convdiff3d:nx=20,pe=100", "convdiff3d:nx=12,pe=1",
                                        "poisson2d:nx=30"};
    static const char *const preconds[] = {"none", "jacobi", "ssor", "ilu0"};
    for (size_t p = 0; p < sizeof specs / sizeof specs[0]; p++) {
        hpls_csr *A = tu_gen(specs[p]);
        for (size_t k = 0; k < sizeof preconds / sizeof preconds[0]; k++) {
            char opts[128];
            double r1, r2;
            snprintf(opts, sizeof opts, "solver=bicgstab precond=%s", preconds[k]);
            hpls_int ref = tu_count_iterations(A, opts, &r1);
            snprintf(opts, sizeof opts, "solver=bicgstabl ell=1 precond=%s", preconds[k]);
            hpls_int its = tu_count_iterations(A, opts, &r2);
            if (r1 > 1e-8 || r2 > 1e-8 || its < ref - 1 || its > ref + 1)
                fail_msg("%s %s: %lld iterations (relres %.3e), bicgstab %lld (relres %.3e)",
                         specs[p], opts, (long long)its, r2, (long long)ref, r1);
        }
        hpls_csr_destroy(A);
    }
}

/* A diagonal matrix with three distinct eigenvalues: BiCG ends in three
 * steps, in the middle of a cycle of four, and the test after every BiCG
 * step stops there (a test at the cycle's end alone would say 4). */
static void convergence_inside_a_cycle_is_seen(void **state)
{
    (void)state;
    enum { N = 60 };
    hpls_int ri[N], cj[N];
    double v[N];
    for (int i = 0; i < N; i++) {
        ri[i] = cj[i] = i;
        v[i] = 1.0 + i % 3;
    }
    hpls_csr *A;
    assert_int_equal(hpls_csr_from_coo(N, N, N, ri, cj, v, &A), HPLS_OK);
    double relres;
    hpls_int its = tu_count_iterations(A, "solver=bicgstabl ell=4 tol=1e-10", &relres);
    if (its != 3 || relres > 1e-10)
        fail_msg("%lld iterations, relres %.3e", (long long)its, relres);
    hpls_csr_destroy(A);
}

typedef struct seen {
    hpls_int calls, last;
    int ordered;
} seen;

static int watch(void *ctx, hpls_int it, double rn, double rel)
{
    seen *w = ctx;
    (void)rn;
    (void)rel;
    w->ordered &= it == w->last + 1;
    w->last = it;
    w->calls++;
    return 0;
}

/* maxiter = 7 with l = 4: a full cycle and one of three steps; the monitor
 * sees every iteration 0 .. 7 once. */
static void the_last_cycle_is_cut_at_maxiter(void **state)
{
    (void)state;
    hpls_csr *A = tu_gen("convdiff3d:nx=12,pe=10");
    hpls_vec *b = tu_vec_const(A->nrows, 1.0), *x = tu_vec_const(A->nrows, 0.0);
    static const char *const limits[] = {"maxiter=7", "maxiter=1", "maxiter=8"};
    for (int k = 0; k < 3; k++) {
        char opts[128];
        snprintf(opts, sizeof opts, "solver=bicgstabl ell=4 precond=jacobi tol=0 %s", limits[k]);
        hpls_solver *s = tu_setup(A, opts);
        seen w = {.last = -1, .ordered = 1};
        hpls_solver_set_monitor(s, watch, &w);
        hpls_info info = tu_run(s, b, x);
        hpls_int want = k == 0 ? 7 : k == 1 ? 1 : 8;
        if (info.reason != HPLS_DIVERGED_MAXIT || info.iterations != want || w.calls != want + 1 ||
            !w.ordered)
            fail_msg("%s: %s after %lld iterations, %lld monitor calls (ordered %d)", opts,
                     hpls_reason_str(info.reason), (long long)info.iterations, (long long)w.calls,
                     w.ordered);
        /* the residual reported is that of x, which holds the cut cycle's update */
        assert_true(fabs(info.relres - tu_relres(A, b, x)) <= 1e-12);
        assert_true(info.relres < 1.0);
        hpls_solver_destroy(s);
    }
    hpls_vec_destroy(b);
    hpls_vec_destroy(x);
    hpls_csr_destroy(A);
}

static void ell_is_checked_and_applies_to_bicgstabl_only(void **state)
{
    (void)state;
    hpls_solver *s;
    assert_int_equal(hpls_solver_create(&s), HPLS_OK);
    assert_string_equal(hpls_solver_get_option(s, "ell"), "2");
    static const char *const bad[] = {"ell=0", "ell=11", "ell=2.5", "ell=-1", "ell=two"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        assert_int_equal(hpls_solver_set_option(s, bad[k]), HPLS_ERR_OPTION);
        assert_non_null(strstr(hpls_solver_message(s), "option ell"));
    }
    hpls_csr *A = tu_gen("poisson2d:nx=8");
    assert_int_equal(hpls_solver_set_options(s, "solver=bicgstab ell=3"), HPLS_OK);
    assert_int_equal(hpls_solver_setup(s, A), HPLS_ERR_OPTION);
    assert_non_null(strstr(hpls_solver_message(s), "option ell does not apply to solver bicgstab"));
    assert_int_equal(hpls_solver_set_options(s, "solver=bicgstabl ell=10"), HPLS_OK);
    assert_int_equal(hpls_solver_setup(s, A), HPLS_OK);
    assert_non_null(strstr(hpls_solver_help(), "bicgstabl"));
    hpls_solver_destroy(s);
    hpls_csr_destroy(A);
}

/* B r_0 overflows: (A M^-1 u_0, rt) is Inf, the solve stops as NaN before
 * any update, and x keeps its initial value. */
static void non_finite_values_never_reach_x(void **state)
{
    (void)state;
    hpls_int ri[] = {0, 0, 1, 1}, cj[] = {0, 1, 0, 1};
    double v[] = {1e300, 1e300, -1e300, 1e300};
    hpls_csr *A;
    assert_int_equal(hpls_csr_from_coo(2, 2, 4, ri, cj, v, &A), HPLS_OK);
    hpls_vec *b = tu_vec_const(2, 1e300), *x = tu_vec_const(2, 0.0);
    for (int e = 0; e < NELLS; e++) {
        char opts[64];
        snprintf(opts, sizeof opts, "solver=bicgstabl ell=%d", ells[e]);
        hpls_solver *s = tu_setup(A, opts);
        /* ||b||^2 = 2e600 overflows on purpose (the test's subject: the overflow
         * is caught, never in x); under make check-fpe that overflow would trap */
        int held = tu_fpe_hold();
        hpls_info info = tu_run(s, b, x);
        tu_fpe_release(held);
        if (info.reason != HPLS_DIVERGED_NAN)
            fail_msg("%s: %s (%s)", opts, hpls_reason_str(info.reason), hpls_solver_message(s));
        assert_true(x->data[0] == 0.0 && x->data[1] == 0.0);
        hpls_solver_destroy(s);
    }
    hpls_vec_destroy(b);
    hpls_vec_destroy(x);
    hpls_csr_destroy(A);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(known_solutions_of_the_generated_families),
        cmocka_unit_test(known_solutions_of_real_matrices),
        cmocka_unit_test(iteration_counts_match_petsc),
        cmocka_unit_test(ell_1_counts_like_bicgstab),
        cmocka_unit_test(convergence_inside_a_cycle_is_seen),
        cmocka_unit_test(the_last_cycle_is_cut_at_maxiter),
        cmocka_unit_test(ell_is_checked_and_applies_to_bicgstabl_only),
        cmocka_unit_test(non_finite_values_never_reach_x),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
