/* SPDX-License-Identifier: BSD-3-Clause */
/* test_foam_paths.c: what a CFD code (OpenFOAM, integrations/openfoam) needs of
 * the library, issue 31: the stop test changed between solves without a new
 * setup; its own stop test on the residual vector (OpenFOAM's sum|r|), miniter; negative definite matrices (OpenFOAM's pressure equation) solved by
 * cg + dic as their negation is; and the paths OpenFOAM uses run with
 * floating-point traps on, as OpenFOAM runs (trapFpe: FE_DIVBYZERO |
 * FE_INVALID | FE_OVERFLOW), where any such exception kills the test. */
#define _GNU_SOURCE /* feenableexcept */
#include "testutil.h"

#include "hpls.h"

#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* f A, same pattern */
static hpls_csr *scaled(const hpls_csr *A, double f)
{
    hpls_csr *N;
    assert_int_equal(hpls_csr_create(A->nrows, A->ncols, A->nnz, &N), HPLS_OK);
    memcpy(N->rowptr, A->rowptr, (size_t)(A->nrows + 1) * sizeof *N->rowptr);
    memcpy(N->colind, A->colind, (size_t)A->nnz * sizeof *N->colind);
    for (hpls_int k = 0; k < A->nnz; k++)
        N->val[k] = f * A->val[k];
    return N;
}

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

/* cg on -A x = -b with dic, jacobi or none iterates as on A x = b (every
 * vector and scalar but alpha changes sign, exactly): same iterations, x bit
 * for bit, where it used to stop on (p, A p) <= 0 or refuse dic's E_ii < 0.
 * dilu_order=faces is OpenFOAM's DIC. */
static void negative_definite_solves_as_its_negation(void **state)
{
    (void)state;
    static const char *const opts[] = {"solver=cg precond=dic tol=1e-10",
                                       "solver=cg precond=dic dilu_order=faces tol=1e-10",
                                       "solver=cg precond=jacobi tol=1e-10",
                                       "solver=cg tol=1e-10"};
    hpls_csr *A = tu_gen("poisson3d:nx=14"), *N = scaled(A, -1.0);
    hpls_vec *xt = tu_vec_random(A->nrows, 7), *b = tu_rhs(A, xt), *nb = tu_rhs(N, xt), *x, *y;
    hpls_vec_create(A->nrows, &x);
    hpls_vec_create(A->nrows, &y);
    for (size_t k = 0; k < sizeof opts / sizeof *opts; k++) {
        hpls_solver *s = tu_setup(A, opts[k]), *t = tu_setup(N, opts[k]);
        hpls_info pos = tu_run(s, b, x), neg = tu_run(t, nb, y);
        assert_int_equal(neg.reason, HPLS_CONVERGED_RTOL);
        assert_int_equal(neg.iterations, pos.iterations);
        assert_memory_equal(x->data, y->data, (size_t)x->n * sizeof *x->data);
        assert_true(tu_relerr(y, xt) < 1e-7);
        hpls_solver_destroy(s);
        hpls_solver_destroy(t);
    }
    hpls_vec_destroy(x);
    hpls_vec_destroy(y);
    hpls_vec_destroy(nb);
    hpls_vec_destroy(b);
    hpls_vec_destroy(xt);
    hpls_csr_destroy(N);
    hpls_csr_destroy(A);
}

/* A diagonal of mixed signs is still refused by dic (M not definite), and a
 * change of sign of (p, A p) stops cg: indefinite stays indefinite. */
static void mixed_signs_are_still_indefinite(void **state)
{
    (void)state;
    hpls_csr *A = tu_gen("poisson2d:nx=20");
    for (hpls_int i = A->nrows / 2; i < A->nrows; i++) /* rows of the second half negated */
        for (hpls_int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++)
            if (A->colind[p] == i)
                A->val[p] = -A->val[p];
    hpls_solver *s;
    assert_int_equal(hpls_solver_create(&s), HPLS_OK);
    assert_int_equal(hpls_solver_set_options(s, "solver=cg precond=dic"), HPLS_OK);
    assert_int_equal(hpls_solver_setup(s, A), HPLS_ERR_SINGULAR);
    assert_non_null(strstr(hpls_solver_message(s), "not positive definite"));
    /* diag(2, -1, 1), b = 1: (p, A p) = 2, then -22.5 */
    const hpls_int ij[] = {0, 1, 2};
    const hpls_real d[] = {2, -1, 1};
    hpls_csr *D;
    assert_int_equal(hpls_csr_from_coo(3, 3, 3, ij, ij, d, &D), HPLS_OK);
    assert_int_equal(hpls_solver_set_options(s, "precond=none"), HPLS_OK);
    assert_int_equal(hpls_solver_setup(s, D), HPLS_OK);
    hpls_vec *b = tu_vec_const(3, 1.0), *x;
    hpls_vec_create(3, &x);
    hpls_info info = tu_run(s, b, x);
    assert_int_equal(info.reason, HPLS_DIVERGED_INDEFINITE);
    assert_int_equal(info.iterations, 1);
    hpls_solver_destroy(s);
    hpls_vec_destroy(x);
    hpls_vec_destroy(b);
    hpls_csr_destroy(D);
    hpls_csr_destroy(A);
}

/* A user's test: sum|r_i| <= target, OpenFOAM's norm; every call's iteration
 * and value recorded. */
typedef struct l1_test {
    double target;
    hpls_int last_it;
    double last;
    int calls0; /* calls at iteration 0 */
    double at0; /* the sum seen there */
} l1_test;

static int l1_converged(void *ctx, hpls_int it, hpls_int n, const hpls_real *r, double rnorm)
{
    l1_test *t = ctx;
    double sum = 0, ss = 0;
    for (hpls_int i = 0; i < n; i++) {
        sum += fabs(r[i]);
        ss += r[i] * r[i];
    }
    assert_true(fabs(sqrt(ss) - rnorm) <= 1e-6 * rnorm + 1e-300); /* rnorm is r's 2-norm */
    t->last_it = it;
    t->last = sum;
    if (it == 0) {
        t->calls0++;
        t->at0 = sum;
    }
    return sum <= t->target;
}

/* cg and bicgstab stop at the first iteration where the user's test says so,
 * reason HPLS_CONVERGED_USER, not before miniter; methods that hold no
 * residual vector are refused at setup. */
static void user_test_stops_on_the_residual_vector(void **state)
{
    (void)state;
    static const char *const opts[] = {"solver=cg precond=dic", "solver=bicgstab precond=dilu"};
    static const char *const gens[] = {"poisson2d:nx=50", "convdiff3d:nx=12"};
    for (int k = 0; k < 2; k++) {
        hpls_csr *A = tu_gen(gens[k]);
        hpls_vec *xt = tu_vec_random(A->nrows, 3), *b = tu_rhs(A, xt), *x;
        hpls_vec_create(A->nrows, &x);
        double b1 = 0;
        for (hpls_int i = 0; i < b->n; i++)
            b1 += fabs(b->data[i]);
        hpls_solver *s = tu_setup(A, opts[k]);
        l1_test t = {.target = 1e-7 * b1};
        assert_int_equal(hpls_solver_set_convergence_test(s, l1_converged, &t), HPLS_OK);
        hpls_info info = tu_run(s, b, x);
        assert_int_equal(info.reason, HPLS_CONVERGED_USER);
        assert_true(t.last <= t.target);
        assert_int_equal(t.last_it, info.iterations);
        hpls_vec *r;
        hpls_vec_create(A->nrows, &r);
        hpls_csr_residual(A, b, x, r);
        double r1 = 0;
        for (hpls_int i = 0; i < r->n; i++)
            r1 += fabs(r->data[i]);
        assert_true(r1 <= 1.01 * t.target); /* confirmed on b - A x */
        /* one iteration fewer: the test not yet met */
        hpls_int its = info.iterations;
        char fewer[64];
        snprintf(fewer, sizeof fewer, "maxiter=%lld", (long long)its - 1);
        assert_int_equal(hpls_solver_set_options(s, fewer), HPLS_OK);
        info = tu_run(s, b, x);
        assert_int_equal(info.reason, HPLS_DIVERGED_MAXIT);
        assert_true(t.last > t.target);
        /* a loose target met early: miniter holds the solve */
        assert_int_equal(hpls_solver_set_options(s, "maxiter=1000 miniter=6"), HPLS_OK);
        t.target = 0.5 * b1;
        info = tu_run(s, b, x);
        assert_int_equal(info.reason, HPLS_CONVERGED_USER);
        assert_int_equal(info.iterations, 6);
        hpls_solver_destroy(s);
        hpls_vec_destroy(r);
        hpls_vec_destroy(x);
        hpls_vec_destroy(b);
        hpls_vec_destroy(xt);
        hpls_csr_destroy(A);
    }
    hpls_csr *A = tu_gen("poisson2d:nx=10");
    hpls_solver *s;
    l1_test t = {0};
    assert_int_equal(hpls_solver_create(&s), HPLS_OK);
    assert_int_equal(hpls_solver_set_options(s, "solver=gmres"), HPLS_OK);
    assert_int_equal(hpls_solver_set_convergence_test(s, l1_converged, &t), HPLS_OK);
    assert_int_equal(hpls_solver_setup(s, A), HPLS_ERR_OPTION);
    assert_non_null(strstr(hpls_solver_message(s), "use cg or bicgstab"));
    /* set after the setup: refused then, and the solver solves as before */
    assert_int_equal(hpls_solver_set_convergence_test(s, NULL, NULL), HPLS_OK);
    assert_int_equal(hpls_solver_setup(s, A), HPLS_OK);
    assert_int_equal(hpls_solver_set_convergence_test(s, l1_converged, &t), HPLS_ERR_OPTION);
    assert_non_null(strstr(hpls_solver_message(s), "use cg or bicgstab"));
    hpls_vec *x1 = tu_vec_random(A->nrows, 1), *b1 = tu_rhs(A, x1), *x;
    hpls_vec_create(A->nrows, &x);
    hpls_info info = tu_run(s, b1, x);
    assert_int_equal(info.reason, HPLS_CONVERGED_RTOL);
    hpls_vec_destroy(x);
    hpls_vec_destroy(b1);
    hpls_vec_destroy(x1);
    hpls_solver_destroy(s);
    hpls_csr_destroy(A);
}

/* Under miniter the user's test is still shown b - A x0 at iteration 0 (the
 * integration takes OpenFOAM's normFactor there), once, and its answer there
 * is ignored: a test that always says converged stops at miniter. */
static void user_test_sees_iteration_zero_under_miniter(void **state)
{
    (void)state;
    static const char *const opts[] = {"solver=cg precond=dic miniter=4",
                                       "solver=bicgstab precond=dilu miniter=4"};
    static const char *const gens[] = {"poisson2d:nx=30", "convdiff3d:nx=8"};
    for (int k = 0; k < 2; k++) {
        hpls_csr *A = tu_gen(gens[k]);
        hpls_vec *xt = tu_vec_random(A->nrows, 7), *b = tu_rhs(A, xt);
        hpls_vec *x = tu_vec_const(A->nrows, 0.5), *r;
        hpls_vec_create(A->nrows, &r);
        hpls_csr_residual(A, b, x, r);
        double r1 = 0;
        for (hpls_int i = 0; i < r->n; i++)
            r1 += fabs(r->data[i]);
        char o[96];
        snprintf(o, sizeof o, "%s initial_guess=given", opts[k]);
        hpls_solver *s = tu_setup(A, o);
        l1_test t = {.target = 2.0 * r1}; /* met from the start */
        assert_int_equal(hpls_solver_set_convergence_test(s, l1_converged, &t), HPLS_OK);
        hpls_info info = tu_run(s, b, x);
        assert_int_equal(info.reason, HPLS_CONVERGED_USER);
        assert_int_equal(info.iterations, 4);
        assert_int_equal(t.calls0, 1);
        assert_true(fabs(t.at0 - r1) <= 1e-12 * r1); /* sum|b - A x0| */
        hpls_solver_destroy(s);
        hpls_vec_destroy(r);
        hpls_vec_destroy(x);
        hpls_vec_destroy(b);
        hpls_vec_destroy(xt);
        hpls_csr_destroy(A);
    }
}

/* z = r, counting the calls */
static int counting_identity(void *ctx, hpls_int n, const hpls_real *r, hpls_real *z)
{
    ++*(int *)ctx;
    memcpy(z, r, (size_t)n * sizeof *z);
    return 0;
}

/* bicgstab asks a user's test at the half step before M^-1 s and A shat, where
 * PBiCGStab asks it: a solve the test stops there applies M once, not twice. */
static void user_test_at_the_half_step_comes_before_m_inverse_s(void **state)
{
    (void)state;
    hpls_csr *A = tu_gen("convdiff3d:nx=8");
    hpls_vec *xt = tu_vec_random(A->nrows, 5), *b = tu_rhs(A, xt), *x;
    hpls_vec_create(A->nrows, &x);
    int applies = 0;
    hpls_precond *P;
    assert_int_equal(hpls_precond_create_shell(A->nrows, counting_identity, NULL, &applies, &P),
                     HPLS_OK);
    hpls_solver *s;
    assert_int_equal(hpls_solver_create(&s), HPLS_OK);
    assert_int_equal(hpls_solver_set_options(s, "solver=bicgstab miniter=1"), HPLS_OK);
    assert_int_equal(hpls_solver_set_precond(s, P), HPLS_OK);
    assert_int_equal(hpls_solver_setup(s, A), HPLS_OK);
    l1_test t = {.target = 1e300}; /* met wherever asked: miniter holds iteration 0 */
    assert_int_equal(hpls_solver_set_convergence_test(s, l1_converged, &t), HPLS_OK);
    hpls_info info = tu_run(s, b, x);
    assert_int_equal(info.reason, HPLS_CONVERGED_USER);
    assert_int_equal(info.iterations, 1);
    assert_int_equal(applies, 1); /* M^-1 p only */
    hpls_solver_destroy(s);
    hpls_precond_destroy(P);
    hpls_vec_destroy(x);
    hpls_vec_destroy(b);
    hpls_vec_destroy(xt);
    hpls_csr_destroy(A);
}

/* y = A x through a shell operator, counting the products */
typedef struct counted_op {
    const hpls_csr *A;
    int products;
} counted_op;

static int counted_apply(void *ctx, hpls_int n, const hpls_real *x, hpls_real *y)
{
    counted_op *c = ctx;
    hpls_vec xv = {n, (hpls_real *)x}, yv = {n, y};
    c->products++;
    return hpls_csr_spmv(c->A, &xv, &yv) != HPLS_OK;
}

/* The rnorm of every call of l1_converged, the last one kept */
static double last_rnorm;

static int l1_converged_rnorm(void *ctx, hpls_int it, hpls_int n, const hpls_real *r, double rnorm)
{
    last_rnorm = rnorm;
    return l1_converged(ctx, it, n, r, rnorm);
}

/* confirm=no takes the stop of the user's test as it is, as KSPSolve does: one
 * product fewer than confirm=yes (the default, which recomputes b - A x), the
 * same iterations and x, the tested residual reported and info.unconfirmed
 * set; tol's stop is confirmed either way. */
static void confirm_no_takes_the_user_tests_stop_without_a_product(void **state)
{
    (void)state;
    static const char *const methods[] = {"solver=cg", "solver=bicgstab"};
    static const char *const gens[] = {"poisson2d:nx=40", "convdiff3d:nx=10"};
    for (int k = 0; k < 2; k++) {
        hpls_csr *A = tu_gen(gens[k]);
        hpls_vec *xt = tu_vec_random(A->nrows, 9), *b = tu_rhs(A, xt), *x, *y;
        hpls_vec_create(A->nrows, &x);
        hpls_vec_create(A->nrows, &y);
        double b1 = 0;
        for (hpls_int i = 0; i < b->n; i++)
            b1 += fabs(b->data[i]);
        counted_op op = {.A = A};
        hpls_solver *s;
        assert_int_equal(hpls_solver_create(&s), HPLS_OK);
        assert_int_equal(hpls_solver_set_options(s, methods[k]), HPLS_OK);
        assert_int_equal(hpls_solver_setup_shell(s, A->nrows, counted_apply, NULL, &op), HPLS_OK);
        l1_test t = {.target = 1e-6 * b1};
        assert_int_equal(hpls_solver_set_convergence_test(s, l1_converged_rnorm, &t), HPLS_OK);
        hpls_info yes = tu_run(s, b, x), no;
        int confirmed = op.products;
        assert_int_equal(yes.reason, HPLS_CONVERGED_USER);
        assert_int_equal(yes.unconfirmed, 0);
        assert_int_equal(hpls_solver_set_option(s, "confirm=no"), HPLS_OK);
        op.products = 0;
        no = tu_run(s, b, y);
        assert_int_equal(no.reason, HPLS_CONVERGED_USER);
        assert_int_equal(no.iterations, yes.iterations);
        assert_int_equal(op.products, confirmed - 1);
        assert_int_equal(no.unconfirmed, 1);
        assert_memory_equal(x->data, y->data, (size_t)x->n * sizeof *x->data);
        assert_true(no.resnorm == last_rnorm); /* the residual tested, not b - A x */
        /* tol's stop: confirmed under confirm=no too */
        assert_int_equal(hpls_solver_set_convergence_test(s, NULL, NULL), HPLS_OK);
        op.products = 0;
        no = tu_run(s, b, x);
        int tol_products = op.products;
        assert_true(hpls_reason_converged(no.reason));
        assert_int_equal(no.unconfirmed, 0);
        assert_int_equal(hpls_solver_set_option(s, "confirm=yes"), HPLS_OK);
        op.products = 0;
        yes = tu_run(s, b, y);
        assert_int_equal(op.products, tol_products);
        assert_int_equal(yes.iterations, no.iterations);
        hpls_solver_destroy(s);
        hpls_vec_destroy(y);
        hpls_vec_destroy(x);
        hpls_vec_destroy(b);
        hpls_vec_destroy(xt);
        hpls_csr_destroy(A);
    }
}

/* With the traps of OpenFOAM's trapFpe on (set in main, before any thread):
 * cg + dic on -A, bicgstab + dilu / ilu0 on a convection-diffusion matrix,
 * each from x0 = 0, from the exact solution (r0 = 0), with b = 0, and with
 * the tolerance changed between solves.  A trap would end the process. */
static void openfoam_paths_raise_no_fp_exception(void **state)
{
    (void)state;
    static const struct {
        const char *gen, *opts;
        int negate;
    } cases[] = {
        {"poisson3d:nx=12", "solver=cg precond=dic dilu_order=faces", 1},
        {"poisson3d:nx=12", "solver=cg precond=dic", 0},
        {"convdiff3d:nx=12", "solver=bicgstab precond=dilu dilu_order=faces", 0},
        {"convdiff3d:nx=12", "solver=bicgstab precond=ilu0", 0},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        hpls_csr *G = tu_gen(cases[k].gen), *A = cases[k].negate ? scaled(G, -1.0) : G;
        hpls_vec *xt = tu_vec_random(A->nrows, 11), *b = tu_rhs(A, xt);
        hpls_vec *zero = tu_vec_const(A->nrows, 0.0), *x;
        hpls_vec_create(A->nrows, &x);
        char opts[160];
        snprintf(opts, sizeof opts, "%s tol=1e-6 initial_guess=given", cases[k].opts);
        hpls_solver *s = tu_setup(A, opts);
        hpls_info info = tu_run(s, b, x); /* from 0 */
        assert_true(hpls_reason_converged(info.reason));
        assert_int_equal(hpls_solver_set_option(s, "tol=1e-12"), HPLS_OK);
        info = tu_run(s, b, x); /* from the last x, a new tolerance */
        assert_true(hpls_reason_converged(info.reason));
        memcpy(x->data, xt->data, (size_t)x->n * sizeof *x->data);
        assert_int_equal(hpls_solver_set_options(s, "tol=1e-300 maxiter=20"), HPLS_OK);
        tu_run(s, b, x); /* from the solution: r0 is rounding, then below it */
        memcpy(x->data, zero->data, (size_t)x->n * sizeof *x->data);
        info = tu_run(s, zero, x); /* b = 0, x0 = 0: r0 = 0 */
        assert_true(hpls_reason_converged(info.reason));
        assert_int_equal(hpls_solver_set_options(s, "tol=1e-8 maxiter=10000"), HPLS_OK);
        assert_int_equal(hpls_solver_update_values(s, A), HPLS_OK);
        info = tu_run(s, b, x);
        assert_true(hpls_reason_converged(info.reason));
        hpls_solver_destroy(s);
        hpls_vec_destroy(x);
        hpls_vec_destroy(zero);
        hpls_vec_destroy(b);
        hpls_vec_destroy(xt);
        if (A != G)
            hpls_csr_destroy(A);
        hpls_csr_destroy(G);
    }
}

/* Under the traps, a zero pivot or diagonal entry is reported, never divided
 * by: dic, dilu (both orders; faces serially and in blocks, whose rows stop at
 * the first refused one), ilu0 at setup and update, solver jacobi's 1/A_ii. */
static void zero_pivots_are_reported_not_trapped(void **state) /* Z: A, A_11 = 0 */
{
    (void)state;
    static const struct {
        const char *opts;
        hpls_status st;
    } cases[] = {
        {"solver=cg precond=dic", HPLS_ERR_SINGULAR},
        {"solver=bicgstab precond=dilu", HPLS_ERR_SINGULAR},
        {"solver=bicgstab precond=dilu dilu_order=faces", HPLS_ERR_SINGULAR},
        {"solver=bicgstab precond=dilu dilu_order=faces trisolve=block threads=2",
         HPLS_ERR_SINGULAR},
        {"solver=bicgstab precond=ilu0", HPLS_ERR_SINGULAR},
        {"solver=jacobi", HPLS_ERR_ZERO_DIAG},
    };
    hpls_csr *A = tu_gen("poisson2d:nx=8"), *Z = scaled(A, 1.0);
    for (hpls_int p = Z->rowptr[0]; p < Z->rowptr[1]; p++)
        if (Z->colind[p] == 0)
            Z->val[p] = 0.0;
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        hpls_solver *s;
        assert_int_equal(hpls_solver_create(&s), HPLS_OK);
        assert_int_equal(hpls_solver_set_options(s, cases[k].opts), HPLS_OK);
        assert_int_equal(hpls_solver_setup(s, Z), cases[k].st);
        assert_int_equal(hpls_solver_setup(s, A), HPLS_OK);
        assert_int_equal(hpls_solver_update_values(s, Z), cases[k].st);
        hpls_solver_destroy(s);
    }
    hpls_csr_destroy(Z);
    hpls_csr_destroy(A);
}

int main(void)
{
    feenableexcept(FE_DIVBYZERO | FE_INVALID | FE_OVERFLOW); /* OpenFOAM's sigFpe.C */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(solve_time_options_keep_the_setup),
        cmocka_unit_test(user_test_stops_on_the_residual_vector),
        cmocka_unit_test(user_test_sees_iteration_zero_under_miniter),
        cmocka_unit_test(user_test_at_the_half_step_comes_before_m_inverse_s),
        cmocka_unit_test(confirm_no_takes_the_user_tests_stop_without_a_product),
        cmocka_unit_test(negative_definite_solves_as_its_negation),
        cmocka_unit_test(mixed_signs_are_still_indefinite),
        cmocka_unit_test(openfoam_paths_raise_no_fp_exception),
        cmocka_unit_test(zero_pivots_are_reported_not_trapped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
