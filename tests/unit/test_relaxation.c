/* SPDX-License-Identifier: BSD-3-Clause */
/* test_relaxation.c: the SOR family (sor, ssor methods; the ssor preconditioner)
 * against plain dense re-implementations of their defining formulas; gs, sor
 * and ssor on dense matrices. */
#include "testutil.h"

#include "precond/relax_kernels.h"
#include "solver.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double *dense_of(const hpls_csr *A)
{
    double *D = calloc((size_t)(A->nrows * A->ncols), sizeof *D);
    for (hpls_int i = 0; i < A->nrows; i++)
        for (hpls_int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++)
            D[i * A->ncols + A->colind[p]] = A->val[p];
    return D;
}

/* One SOR sweep on the dense matrix, straight from the definition. */
static void dense_sor(const double *D, hpls_int n, double w, int backward, const double *b,
                      double *x)
{
    for (hpls_int k = 0; k < n; k++) {
        hpls_int i = backward ? n - 1 - k : k;
        double s = b[i];
        for (hpls_int j = 0; j < n; j++)
            if (j != i)
                s -= D[i * n + j] * x[j];
        x[i] = (1 - w) * x[i] + w * s / D[i * n + i];
    }
}

/* The iterates of sor and ssor equal the dense definition's, step by step. */
static void sor_and_ssor_follow_their_definition(void **state)
{
    (void)state;
    hpls_csr *A = tu_gen("convdiff3d:nx=4,pe=30");
    hpls_int n = A->nrows;
    double *D = dense_of(A);
    hpls_vec *b = tu_vec_random(n, 5), *x;
    hpls_vec_create(n, &x);
    const char *const methods[] = {"sor", "ssor"};
    const double omegas[] = {0.8, 1.0, 1.4};
    for (int m = 0; m < 2; m++)
        for (int o = 0; o < 3; o++)
            for (hpls_int iters = 1; iters <= 4; iters++) {
                hpls_solver *s;
                char opts[128];
                snprintf(opts, sizeof opts, "solver=%s omega=%g maxiter=%lld tol=0", methods[m],
                         omegas[o], (long long)iters);
                hpls_solver_create(&s);
                assert_int_equal(hpls_solver_set_options(s, opts), HPLS_OK);
                assert_int_equal(hpls_solver_setup(s, A), HPLS_OK);
                assert_int_equal(hpls_solver_solve(s, b, x), HPLS_OK);
                double *xr = calloc((size_t)n, sizeof *xr);
                for (hpls_int it = 0; it < iters; it++) {
                    dense_sor(D, n, omegas[o], 0, b->data, xr);
                    if (m == 1)
                        dense_sor(D, n, omegas[o], 1, b->data, xr);
                }
                for (hpls_int i = 0; i < n; i++)
                    assert_true(fabs(x->data[i] - xr[i]) <= 1e-13 * (1 + fabs(xr[i])));
                /* the residual the iteration tested is the true one */
                const double *rel;
                hpls_int count;
                hpls_solver_history(s, &count, NULL, &rel, NULL);
                assert_int_equal(count, iters + 1);
                assert_true(fabs(rel[iters] - tu_relres(A, b, x)) <= 1e-12);
                free(xr);
                hpls_solver_destroy(s);
            }
    free(D);
    hpls_vec_destroy(b);
    hpls_vec_destroy(x);
    hpls_csr_destroy(A);
}

/* x after `iters` iterations of opts on A (CSR) or D (dense), from x = 0, and
 * the history of its residuals in rel (iters + 1 values). */
static void iterate(const hpls_csr *A, const hpls_dense *D, const char *opts, hpls_int iters,
                    const hpls_vec *b, hpls_vec *x, double *rel)
{
    hpls_solver *s;
    char o[160];
    snprintf(o, sizeof o, "%s maxiter=%lld tol=0", opts, (long long)iters);
    hpls_solver_create(&s);
    assert_int_equal(hpls_solver_set_options(s, o), HPLS_OK);
    assert_int_equal(A ? hpls_solver_setup(s, A) : hpls_solver_setup_dense(s, D), HPLS_OK);
    memset(x->data, 0, (size_t)x->n * sizeof *x->data);
    assert_int_equal(hpls_solver_solve(s, b, x), HPLS_OK);
    const double *h;
    hpls_int count;
    hpls_solver_history(s, &count, NULL, &h, NULL);
    assert_int_equal(count, iters + 1);
    memcpy(rel, h, (size_t)count * sizeof *rel);
    hpls_solver_destroy(s);
}

/* gs, sor and ssor on a dense matrix sweep its rows: the iterates and the
 * tested residuals of the CSR path on the same matrix stored densely, to
 * rounding (not bit for bit: a dense row is summed in 16 interleaved partial
 * sums, zeros included, CSR's row in column order; each x_i differs by a few
 * eps sum_j |a_ij x_j| / |a_ii|). */
static void gs_sor_ssor_on_dense_rows_follow_the_csr_path(void **state)
{
    (void)state;
    hpls_csr *A = tu_gen("convdiff3d:nx=5,pe=30");
    hpls_int n = A->nrows;
    hpls_dense *D;
    assert_int_equal(hpls_dense_create(n, n, &D), HPLS_OK);
    double *d = dense_of(A);
    memcpy(D->data, d, (size_t)(n * n) * sizeof *d);
    hpls_vec *b = tu_vec_random(n, 6), *x, *y;
    hpls_vec_create(n, &x);
    hpls_vec_create(n, &y);
    const char *const opts[] = {"solver=gs", "solver=sor omega=0.8", "solver=sor omega=1.4",
                                "solver=ssor omega=1.2"};
    double rc[8], rd[8];
    for (int m = 0; m < 4; m++)
        for (hpls_int iters = 1; iters <= 6; iters += 5) {
            iterate(A, NULL, opts[m], iters, b, x, rc);
            iterate(NULL, D, opts[m], iters, b, y, rd);
            for (hpls_int i = 0; i < n; i++)
                if (!(fabs(x->data[i] - y->data[i]) <= 1e-13 * (1 + fabs(x->data[i]))))
                    fail_msg("%s, %lld iterations: x_%lld %.17g dense, %.17g csr", opts[m],
                             (long long)iters, (long long)i, y->data[i], x->data[i]);
            for (hpls_int k = 0; k <= iters; k++) /* relative to ||b||: rounding of x */
                if (!(fabs(rc[k] - rd[k]) <= 1e-12 * rc[k] + 1e-15))
                    fail_msg("%s, %lld iterations: relres %lld %.17g csr, %.17g dense", opts[m],
                             (long long)iters, (long long)k, rc[k], rd[k]);
        }
    free(d);
    hpls_dense_destroy(D);
    hpls_vec_destroy(b);
    hpls_vec_destroy(x);
    hpls_vec_destroy(y);
    hpls_csr_destroy(A);
}

/* The PJG paper's dense problems (Sec. 6.3, weakly dominant): gs, sor, ssor
 * converge on a known solution, the true residual recomputed here. */
static void gs_sor_ssor_solve_dense_dd_problems(void **state)
{
    (void)state;
    hpls_dense *D;
    assert_int_equal(hpls_gen_dense("dense-dd:n=200,seed=3", &D, NULL), HPLS_OK);
    hpls_int n = D->nrows;
    hpls_vec *xt = tu_vec_random(n, 8), *b, *x;
    hpls_vec_create(n, &b);
    hpls_vec_create(n, &x);
    for (hpls_int i = 0; i < n; i++) {
        double s = 0.0;
        for (hpls_int j = 0; j < n; j++)
            s += D->data[i * n + j] * xt->data[j];
        b->data[i] = s;
    }
    const char *const opts[] = {"solver=gs", "solver=sor omega=1.1", "solver=ssor omega=1.1"};
    for (int m = 0; m < 3; m++) {
        hpls_solver *s;
        char o[128];
        snprintf(o, sizeof o, "%s tol=1e-10 maxiter=100000", opts[m]);
        hpls_solver_create(&s);
        assert_int_equal(hpls_solver_set_options(s, o), HPLS_OK);
        assert_int_equal(hpls_solver_setup_dense(s, D), HPLS_OK);
        assert_int_equal(hpls_solver_solve(s, b, x), HPLS_OK);
        hpls_info info;
        hpls_solver_get_info(s, &info);
        double rr = 0.0, bb = 0.0, err = 0.0;
        for (hpls_int i = 0; i < n; i++) {
            double r = b->data[i];
            for (hpls_int j = 0; j < n; j++)
                r -= D->data[i * n + j] * x->data[j];
            rr += r * r;
            bb += b->data[i] * b->data[i];
            err = fmax(err, fabs(x->data[i] - xt->data[i]));
        }
        if (!hpls_reason_converged(info.reason) || !(sqrt(rr / bb) <= 1e-10 * (1 + 1e-6)) ||
            !(err < 1e-6))
            fail_msg("%s: %s after %lld, true relres %.2e, error %.2e", opts[m],
                     hpls_reason_str(info.reason), (long long)info.iterations, sqrt(rr / bb), err);
        hpls_solver_destroy(s);
    }
    hpls_dense_destroy(D);
    hpls_vec_destroy(xt);
    hpls_vec_destroy(b);
    hpls_vec_destroy(x);
}

static void sor_with_omega_one_is_gauss_seidel(void **state)
{
    (void)state;
    hpls_csr *A = tu_gen("gas:n=5000,k=3");
    hpls_vec *b = tu_vec_random(A->nrows, 9), *x1, *x2;
    hpls_vec_create(A->nrows, &x1);
    hpls_vec_create(A->nrows, &x2);
    hpls_solver *s1, *s2;
    hpls_solver_create(&s1);
    hpls_solver_create(&s2);
    hpls_solver_set_options(s1, "solver=gs");
    hpls_solver_set_options(s2, "solver=sor omega=1");
    hpls_solver_setup(s1, A);
    hpls_solver_setup(s2, A);
    hpls_solver_solve(s1, b, x1);
    hpls_solver_solve(s2, b, x2);
    hpls_info i1, i2;
    hpls_solver_get_info(s1, &i1);
    hpls_solver_get_info(s2, &i2);
    assert_true(hpls_reason_converged(i1.reason));
    assert_int_equal(i1.iterations, i2.iterations);
    assert_memory_equal(x1->data, x2->data, (size_t)A->nrows * sizeof(double));
    hpls_solver_destroy(s1);
    hpls_solver_destroy(s2);
    hpls_vec_destroy(b);
    hpls_vec_destroy(x1);
    hpls_vec_destroy(x2);
    hpls_csr_destroy(A);
}

/* z = M^-1 r of the ssor preconditioner satisfies M z = r for the dense
 * M = (D + wL) D^-1 (D + wU) / (w (2 - w)). */
static void ssor_preconditioner_inverts_its_matrix(void **state)
{
    (void)state;
    hpls_csr *A = tu_gen("convdiff3d:nx=3,pe=50");
    hpls_int n = A->nrows;
    double *D = dense_of(A);
    hpls_int *pos = malloc((size_t)n * sizeof *pos);
    assert_int_equal(hpls_csr_diag_positions(A, pos), HPLS_OK);
    hpls_vec *r = tu_vec_random(n, 4);
    double *z = malloc((size_t)n * sizeof *z), *t = malloc((size_t)n * sizeof *t);
    const double omegas[] = {1.0, 1.3};
    const hpls_relax_matrix M = {.A = A, .diagpos = pos};
    hpls_backend *be;
    hpls_dvec *rv, *zv;
    assert_int_equal(hpls_backend_create(HPLS_BACKEND_CPU, 1, &be), HPLS_OK);
    assert_int_equal(hpls_be_vector(be, n, r->data, &rv), HPLS_OK);
    assert_int_equal(be->v->alloc(be, n, &zv), HPLS_OK);
    for (int o = 0; o < 2; o++) {
        double w = omegas[o];
        hpls_relax_kernels_of(be)->ssor(be, &M, NULL, w, rv, zv);
        be->v->download(be, n, zv, z);
        /* t = (D + wU) z; t = D^-1 t; t = (D + wL) t; t /= w (2 - w) */
        double *u = calloc((size_t)n, sizeof *u);
        for (hpls_int i = 0; i < n; i++) {
            u[i] = D[i * n + i] * z[i];
            for (hpls_int j = i + 1; j < n; j++)
                u[i] += w * D[i * n + j] * z[j];
            u[i] /= D[i * n + i];
        }
        for (hpls_int i = 0; i < n; i++) {
            t[i] = D[i * n + i] * u[i];
            for (hpls_int j = 0; j < i; j++)
                t[i] += w * D[i * n + j] * u[j];
            t[i] /= w * (2 - w);
        }
        for (hpls_int i = 0; i < n; i++)
            assert_true(fabs(t[i] - r->data[i]) <= 1e-12 * (1 + fabs(r->data[i])));
        free(u);
    }
    be->v->release(be, rv);
    be->v->release(be, zv);
    hpls_backend_destroy(be);
    free(D);
    free(pos);
    free(z);
    free(t);
    hpls_vec_destroy(r);
    hpls_csr_destroy(A);
}

static void ssor_preconditions_krylov_methods(void **state)
{
    (void)state;
    hpls_csr *A = tu_gen("poisson2d:nx=40");
    hpls_vec *xt = tu_vec_random(A->nrows, 2), *b = tu_rhs(A, xt), *x;
    hpls_vec_create(A->nrows, &x);
    hpls_int plain = 0;
    const char *const opts[] = {"solver=cg", "solver=cg precond=ssor",
                                "solver=cg precond=ssor omega=1.5",
                                "solver=bicgstab precond=ssor"};
    for (int k = 0; k < 4; k++) {
        hpls_solver *s;
        hpls_solver_create(&s);
        assert_int_equal(hpls_solver_set_options(s, opts[k]), HPLS_OK);
        assert_int_equal(hpls_solver_setup(s, A), HPLS_OK);
        assert_int_equal(hpls_solver_solve(s, b, x), HPLS_OK);
        hpls_info info;
        hpls_solver_get_info(s, &info);
        assert_true(hpls_reason_converged(info.reason));
        assert_true(tu_relres(A, b, x) <= 1e-8);
        if (k == 0)
            plain = info.iterations;
        else
            assert_true(info.iterations < plain * 3 / 4); /* SSOR must cut iterations */
        hpls_solver_destroy(s);
    }
    hpls_vec_destroy(xt);
    hpls_vec_destroy(b);
    hpls_vec_destroy(x);
    hpls_csr_destroy(A);
}

static void omega_is_checked_where_it_applies(void **state)
{
    (void)state;
    hpls_csr *A = tu_gen("poisson2d:nx=5");
    hpls_solver *s;
    hpls_solver_create(&s);
    assert_int_equal(hpls_solver_set_option(s, "omega=2"), HPLS_ERR_OPTION);
    assert_int_equal(hpls_solver_set_options(s, "solver=cg omega=1.2"), HPLS_OK);
    assert_int_equal(hpls_solver_setup(s, A), HPLS_ERR_OPTION); /* cg without ssor */
    assert_int_equal(hpls_solver_set_option(s, "precond=ssor"), HPLS_OK);
    assert_int_equal(hpls_solver_setup(s, A), HPLS_OK);
    hpls_solver_destroy(s);
    hpls_csr_destroy(A);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sor_and_ssor_follow_their_definition),
        cmocka_unit_test(sor_with_omega_one_is_gauss_seidel),
        cmocka_unit_test(gs_sor_ssor_on_dense_rows_follow_the_csr_path),
        cmocka_unit_test(gs_sor_ssor_solve_dense_dd_problems),
        cmocka_unit_test(ssor_preconditioner_inverts_its_matrix),
        cmocka_unit_test(ssor_preconditions_krylov_methods),
        cmocka_unit_test(omega_is_checked_where_it_applies),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
