/* SPDX-License-Identifier: BSD-3-Clause */
/* test_hisa.c: the splitting A = T + S, HISA and BHISA (Li, Yang, Li 2016), and
 * the tridiag / btridiag preconditioners. */
#include "testutil.h"

#include "advice.h"
#include "la/split.h"
#include "solver.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct result {
    hpls_info info;
    double relres, relerr;
} result;

static result run_with(const hpls_csr *A, const char *options, const hpls_vec *xt, hpls_vec *x,
                       char *msg)
{
    hpls_solver *s;
    hpls_vec *b = tu_rhs(A, xt);
    assert_int_equal(hpls_solver_create(&s), HPLS_OK);
    assert_int_equal(hpls_solver_set_options(s, options), HPLS_OK);
    if (hpls_solver_setup(s, A) != HPLS_OK)
        fail_msg("%s: setup: %s", options, hpls_solver_message(s));
    assert_int_equal(hpls_solver_solve(s, b, x), HPLS_OK);
    result r;
    hpls_solver_get_info(s, &r.info);
    r.relres = tu_relres(A, b, x);
    r.relerr = tu_relerr(x, xt);
    if (msg)
        snprintf(msg, 512, "%s", hpls_solver_message(s));
    hpls_solver_destroy(s);
    hpls_vec_destroy(b);
    return r;
}

static result run(const hpls_csr *A, const char *options, const hpls_vec *xt)
{
    hpls_vec *x;
    hpls_vec_create(A->nrows, &x);
    result r = run_with(A, options, xt, x, NULL);
    hpls_vec_destroy(x);
    return r;
}

/* T + S rebuilds A exactly; with blocks, T has no coupling across a boundary. */
static void split_rebuilds_the_matrix(void **state)
{
    (void)state;
    hpls_csr *A = tu_gen("gas:n=1000,k=3");
    const hpls_int blocks[] = {0, 1000, 64, 7};
    for (int b = 0; b < 4; b++) {
        hpls_tridiag *T;
        hpls_csr *S;
        assert_int_equal(hpls_split_tridiag(A, blocks[b], 2, &T, &S), HPLS_OK);
        assert_int_equal(hpls_csr_check(S), HPLS_OK);
        hpls_int k = blocks[b] > 0 ? blocks[b] : A->nrows;
        for (hpls_int i = 0; i < A->nrows; i++) {
            if (i % k == 0)
                assert_true(T->dl[i] == 0.0);
            if (i % k == k - 1 || i == A->nrows - 1)
                assert_true(T->du[i] == 0.0);
            for (hpls_int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++) {
                hpls_int j = A->colind[p];
                double t = j == i - 1 ? T->dl[i] : j == i ? T->d[i] : j == i + 1 ? T->du[i] : 0.0;
                double sv = 0.0;
                for (hpls_int q = S->rowptr[i]; q < S->rowptr[i + 1]; q++)
                    if (S->colind[q] == j)
                        sv = S->val[q];
                assert_true(t + sv == A->val[p]);
                assert_true(t == 0.0 || sv == 0.0);
            }
        }
        /* the paper's storage: S holds the off-band entries, nnz(A) - 3n + 2 without cuts */
        if (k == A->nrows)
            assert_int_equal(S->nnz, A->nnz - 3 * A->nrows + 2);
        hpls_tridiag_destroy(T);
        hpls_csr_destroy(S);
    }
    hpls_csr_destroy(A);
}

/* The paper's Table 6 shape on the gas family: HISA needs fewer than half of
 * Jacobi's iterations and no more than Gauss-Seidel's. */
static void hisa_beats_jacobi_and_gauss_seidel_on_gas(void **state)
{
    (void)state;
    for (int k = 1; k <= 3; k++) {
        char spec[64];
        snprintf(spec, sizeof spec, "gas:n=20000,k=%d", k);
        hpls_csr *A = tu_gen(spec);
        hpls_vec *xt = tu_vec_random(A->nrows, (unsigned)k);
        result h = run(A, "solver=hisa tol=1e-7", xt);
        result j = run(A, "solver=jacobi tol=1e-7", xt);
        result g = run(A, "solver=gs tol=1e-7", xt);
        assert_true(hpls_reason_converged(h.info.reason) && h.relres <= 1e-7);
        assert_true(h.relerr < 1e-5);
        if (2 * h.info.iterations > j.info.iterations || h.info.iterations > g.info.iterations)
            fail_msg("%s: hisa %lld, jacobi %lld, gs %lld iterations", spec,
                     (long long)h.info.iterations, (long long)j.info.iterations,
                     (long long)g.info.iterations);
        hpls_vec_destroy(xt);
        hpls_csr_destroy(A);
    }
}

/* Tridiagonal plus random sparse entries as the PJG paper's Sec. 8 builds them,
 * with nnz(S)/nnz(A) of about 50, 70 and 90%: k = 3, 7, 27 extras per row. */
static void hisa_and_bhisa_solve_heavier_off_band_parts(void **state)
{
    (void)state;
    const char *const specs[] = {"gas:n=5000,k=3", "gas:n=5000,k=7,s=0.2",
                                 "gas:n=5000,k=27,s=0.1"};
    const char *const methods[] = {"solver=hisa", "solver=bhisa block=500",
                                   "solver=bhisa block=100 tridiag=cr", "solver=hisa tridiag=cr",
                                   "solver=hisa tridiag=gspike", "solver=hisa tridiag=lapack"};
    for (int m = 0; m < 3; m++) {
        hpls_csr *A = tu_gen(specs[m]);
        hpls_vec *xt = tu_vec_random(A->nrows, 11);
        for (size_t k = 0; k < sizeof methods / sizeof methods[0]; k++) {
            result r = run(A, methods[k], xt);
            if (!hpls_reason_converged(r.info.reason) || r.relres > 1e-8 || r.relerr > 1e-5)
                fail_msg("%s, %s: %s after %lld, relres %.2e", specs[m], methods[k],
                         hpls_reason_str(r.info.reason), (long long)r.info.iterations, r.relres);
        }
        hpls_vec_destroy(xt);
        hpls_csr_destroy(A);
    }
}

/* bhisa with one block is hisa; with fixed blocks the result does not depend on
 * the thread count (each block is one sequential Thomas solve). */
static void bhisa_with_one_block_is_hisa_and_thread_independent(void **state)
{
    (void)state;
    hpls_csr *A = tu_gen("gas:n=30000,k=2");
    hpls_vec *xt = tu_vec_random(A->nrows, 5), *x1, *x2;
    hpls_vec_create(A->nrows, &x1);
    hpls_vec_create(A->nrows, &x2);
    result h = run_with(A, "solver=hisa", xt, x1, NULL);
    result b = run_with(A, "solver=bhisa block=30000", xt, x2, NULL);
    assert_int_equal(h.info.iterations, b.info.iterations);
    assert_memory_equal(x1->data, x2->data, (size_t)A->nrows * sizeof(double));
    omp_set_num_threads(1);
    result b1 = run_with(A, "solver=bhisa block=1000", xt, x1, NULL);
    omp_set_num_threads(2);
    result b2 = run_with(A, "solver=bhisa block=1000", xt, x2, NULL);
    assert_int_equal(b1.info.iterations, b2.info.iterations);
    assert_true(tu_relerr(x1, x2) < 1e-12);
    hpls_vec_destroy(xt);
    hpls_vec_destroy(x1);
    hpls_vec_destroy(x2);
    hpls_csr_destroy(A);
}

/* T = tridiag(-1, 4, -1) plus a strong skew part S (+-3 at distance 5):
 * rho(T^-1 S) > 1, yet A's symmetric part is T, positive definite. */
static hpls_csr *skew_quasi_tridiagonal(hpls_int n)
{
    hpls_int cap = 5 * n, nz = 0;
    hpls_int *ri = malloc((size_t)cap * sizeof *ri), *cj = malloc((size_t)cap * sizeof *cj);
    double *v = malloc((size_t)cap * sizeof *v);
    for (hpls_int i = 0; i < n; i++) {
        const hpls_int off[] = {-5, -1, 0, 1, 5};
        const double val[] = {-3, -1, 4, -1, 3};
        for (int k = 0; k < 5; k++)
            if (i + off[k] >= 0 && i + off[k] < n) {
                ri[nz] = i;
                cj[nz] = i + off[k];
                v[nz++] = val[k];
            }
    }
    hpls_csr *A;
    assert_int_equal(hpls_csr_from_coo(n, n, nz, ri, cj, v, &A), HPLS_OK);
    free(ri);
    free(cj);
    free(v);
    return A;
}

/* rho(T^-1 S) >= 1: reported early, with advice; T as a Krylov preconditioner
 * still works there. */
static void divergence_is_reported_early_and_tridiag_preconditioner_helps(void **state)
{
    (void)state;
    hpls_csr *A = skew_quasi_tridiagonal(2000);
    hpls_vec *xt = tu_vec_random(A->nrows, 2), *x;
    hpls_vec_create(A->nrows, &x);
    char msg[512];
    result h = run_with(A, "solver=hisa", xt, x, msg);
    assert_int_equal(h.info.reason, HPLS_DIVERGED_GROWTH);
    assert_true(h.info.iterations < 40);
    assert_non_null(strstr(msg, "precond tridiag"));
    for (hpls_int i = 0; i < x->n; i++)
        assert_true(isfinite(x->data[i]));
    result g = run(A, "solver=gmres precond=tridiag", xt);
    result p = run(A, "solver=gmres", xt);
    assert_true(hpls_reason_converged(g.info.reason) && g.relres <= 1e-8);
    assert_true(g.info.iterations < p.info.iterations);
    hpls_vec_destroy(xt);
    hpls_vec_destroy(x);
    hpls_csr_destroy(A);
}

/* Each Krylov method needs fewer iterations with M = T than with M = D. */
static void tridiag_preconditioners_cut_krylov_iterations(void **state)
{
    (void)state;
    hpls_csr *A = tu_gen("gas:n=20000,k=2");
    hpls_vec *xt = tu_vec_random(A->nrows, 3);
    static const char *const methods[] = {"bicgstab", "gmres", "bicg", "qmr", "tfqmr"};
    static const char *const pcs[] = {"precond=tridiag", "precond=btridiag block=2000",
                                      "precond=tridiag tridiag=cr"};
    for (int m = 0; m < 5; m++) {
        char opts[128];
        snprintf(opts, sizeof opts, "solver=%s precond=jacobi", methods[m]);
        result jac = run(A, opts, xt);
        for (int p = 0; p < 3; p++) {
            snprintf(opts, sizeof opts, "solver=%s %s", methods[m], pcs[p]);
            result r = run(A, opts, xt);
            if (!hpls_reason_converged(r.info.reason) || r.relres > 1e-8 ||
                r.info.iterations >= jac.info.iterations)
                fail_msg("%s: %s after %lld (with jacobi: %lld)", opts,
                         hpls_reason_str(r.info.reason), (long long)r.info.iterations,
                         (long long)jac.info.iterations);
        }
    }
    hpls_vec_destroy(xt);
    hpls_csr_destroy(A);
}

static void step_test_and_options(void **state)
{
    (void)state;
    hpls_csr *A = tu_gen("gas:n=3000");
    hpls_vec *xt = tu_vec_random(A->nrows, 1);
    result r = run(A, "solver=hisa tol=1e-14 xtol=1e-6", xt);
    assert_int_equal(r.info.reason, HPLS_CONVERGED_STEP);
    assert_true(r.relres < 1e-4);
    hpls_solver *s;
    hpls_solver_create(&s);
    assert_int_equal(hpls_solver_set_options(s, "solver=bhisa tridiag=gspike"), HPLS_OK);
    assert_int_equal(hpls_solver_setup(s, A), HPLS_ERR_OPTION);
    assert_int_equal(hpls_solver_set_options(s, "solver=cg block=5"), HPLS_OK);
    assert_int_equal(hpls_solver_setup(s, A), HPLS_ERR_OPTION);
    /* a zero diagonal in T: Thomas names the row */
    hpls_int ri[] = {0, 0, 1, 1, 2}, cj[] = {0, 1, 0, 1, 2};
    double v[] = {1, 1, 1, 1, 2};
    hpls_csr *Z;
    hpls_csr_from_coo(3, 3, 5, ri, cj, v, &Z);
    hpls_solver_destroy(s);
    hpls_solver_create(&s);
    assert_int_equal(hpls_solver_set_options(s, "solver=hisa"), HPLS_OK);
    assert_int_equal(hpls_solver_setup(s, Z), HPLS_ERR_SINGULAR);
    assert_non_null(strstr(hpls_solver_message(s), "row 2"));
    hpls_csr_destroy(Z);
    hpls_solver_destroy(s);
    hpls_vec_destroy(xt);
    hpls_csr_destroy(A);
}

static void real_quasi_tridiagonal_matrices(void **state)
{
    (void)state;
    static const char *const files[] = {"matrices/lis_testmat2.mtx", "matrices/pts5ldd03.mtx",
                                        "matrices/sherman1.mtx"};
    int found = 0;
    for (int f = 0; f < 3; f++) {
        char path[1024];
        if (!tu_data_path(files[f], path, sizeof path))
            continue;
        found++;
        hpls_csr *A;
        assert_int_equal(hpls_mm_read_csr(path, &A), HPLS_OK);
        hpls_vec *xt = tu_vec_random(A->nrows, 4);
        result h = run(A, "solver=hisa maxiter=5000", xt);
        result g = run(A, "solver=gs maxiter=50000", xt);
        if (!hpls_reason_converged(h.info.reason) || h.relres > 1e-8)
            fail_msg("%s: hisa %s after %lld", files[f], hpls_reason_str(h.info.reason),
                     (long long)h.info.iterations);
        if (h.info.iterations > g.info.iterations * 5 / 4) /* about GS's count or fewer */
            fail_msg("%s: hisa %lld iterations, gs %lld", files[f], (long long)h.info.iterations,
                     (long long)g.info.iterations);
        hpls_vec_destroy(xt);
        hpls_csr_destroy(A);
    }
    if (!found)
        skip();
}

static void allocation_failures_leave_no_leak(void **state)
{
    (void)state;
    hpls_csr *A = tu_gen("gas:n=300,k=2");
    hpls_vec *b = tu_vec_const(A->nrows, 1.0), *x = tu_vec_const(A->nrows, 0.0);
    const char *const methods[] = {"solver=hisa", "solver=bhisa block=50 tridiag=cr",
                                   "solver=bicgstab precond=btridiag block=64",
                                   "solver=bicg precond=tridiag"};
    for (int m = 0; m < 4; m++) {
        tu_solve_under_alloc_failures(A, b, x, methods[m]);
    }
    hpls_vec_destroy(b);
    hpls_vec_destroy(x);
    hpls_csr_destroy(A);
}

/* The estimate of rho(T^-1 S) (hpls info's advice): exact where the power
 * method's growth is, and the rate HISA's residual really shrinks by. */
static void split_rho_is_the_rate_of_hisa(void **state)
{
    (void)state;
    /* T = 4 I, S = 3 (e_1 e_3^T + e_3 e_1^T): G's eigenvalues are +-3/4, a pair
     * of equal modulus on which a Rayleigh quotient would not settle */
    hpls_int ri[] = {0, 0, 1, 2, 2}, cj[] = {0, 2, 1, 0, 2};
    double v[] = {4, 3, 4, 3, 4};
    hpls_csr *A;
    assert_int_equal(hpls_csr_from_coo(3, 3, 5, ri, cj, v, &A), HPLS_OK);
    double rho;
    assert_int_equal(hpls_split_rho(A, 20, &rho), HPLS_OK);
    assert_true(fabs(rho - 0.75) < 1e-12);
    hpls_csr_destroy(A);
    /* a tridiagonal A: S = 0, rho = 0 */
    A = tu_gen("gas:n=500,k=0");
    assert_int_equal(hpls_split_rho(A, 20, &rho), HPLS_OK);
    assert_true(rho == 0.0);
    hpls_csr_destroy(A);
    /* on gas, HISA's residual shrinks by rho per sweep once the dominant mode leads */
    A = tu_gen("gas:n=4000,k=3,s=0.6");
    assert_int_equal(hpls_split_rho(A, 60, &rho), HPLS_OK);
    hpls_solver *s;
    assert_int_equal(hpls_solver_create(&s), HPLS_OK);
    assert_int_equal(hpls_solver_set_options(s, "solver=hisa tol=1e-14 threads=1"), HPLS_OK);
    assert_int_equal(hpls_solver_setup(s, A), HPLS_OK);
    hpls_vec *b = tu_vec_random(A->nrows, 5), *x;
    hpls_vec_create(A->nrows, &x);
    assert_int_equal(hpls_solver_solve(s, b, x), HPLS_OK);
    hpls_int count;
    const double *res;
    assert_int_equal(hpls_solver_history(s, &count, NULL, &res, NULL), HPLS_OK);
    assert_true(count > 16);
    double rate = pow(res[count - 1] / res[count - 11], 0.1); /* the last 10 sweeps */
    if (!(fabs(rate - rho) < 0.05 * rho))
        fail_msg("estimate %.4f, HISA's observed rate %.4f", rho, rate);
    assert_true(rho > 0.2 && rho < 0.9);
    hpls_solver_destroy(s);
    hpls_vec_destroy(b);
    hpls_vec_destroy(x);
    hpls_csr_destroy(A);
    /* a T that Thomas cannot factor (a_11 = 0) is reported, not estimated */
    hpls_int r2[] = {0, 1, 1, 2}, c2[] = {1, 0, 1, 2};
    double v2[] = {1, 1, 2, 2};
    assert_int_equal(hpls_csr_from_coo(3, 3, 4, r2, c2, v2, &A), HPLS_OK);
    assert_int_equal(hpls_split_rho(A, 20, &rho), HPLS_ERR_SINGULAR);
    assert_true(isnan(rho));
    hpls_csr_destroy(A);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(split_rebuilds_the_matrix),
        cmocka_unit_test(split_rho_is_the_rate_of_hisa),
        cmocka_unit_test(hisa_beats_jacobi_and_gauss_seidel_on_gas),
        cmocka_unit_test(hisa_and_bhisa_solve_heavier_off_band_parts),
        cmocka_unit_test(bhisa_with_one_block_is_hisa_and_thread_independent),
        cmocka_unit_test(divergence_is_reported_early_and_tridiag_preconditioner_helps),
        cmocka_unit_test(tridiag_preconditioners_cut_krylov_iterations),
        cmocka_unit_test(step_test_and_options),
        tu_data_test(real_quasi_tridiagonal_matrices),
        cmocka_unit_test(allocation_failures_leave_no_leak),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
