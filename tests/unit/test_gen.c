/* SPDX-License-Identifier: BSD-3-Clause */
/* test_gen.c: the test-matrix generators make what their definitions say,
 * reproducibly for any thread count, and refuse bad specs with a useful message. */
#include "testutil.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One small instance of every generator. */
static const char *const small_specs[] = {
    "gas:n=3001,k=3,neg=0.2", "gas:n=2,k=0",
    "poisson2d:nx=9,ny=4",    "poisson3d:nx=5,ny=3,nz=4",
    "convdiff3d:nx=6,pe=50",  "dense-dd:n=60",
    "tridiag:n=777",          "tridiag:type=toeplitz,n=5,lower=0.5,diag=-3,upper=2"};
#define NSMALL (sizeof small_specs / sizeof small_specs[0])

static hpls_csr *gen(const char *spec, hpls_vec **b)
{
    hpls_csr *A = NULL;
    hpls_status st = hpls_gen_csr(spec, &A, b);
    if (st != HPLS_OK)
        fail_msg("%s: %s: %s", spec, hpls_strerror(st), hpls_last_error());
    assert_int_equal(hpls_csr_check(A), HPLS_OK);
    assert_int_equal(A->nrows, A->ncols);
    return A;
}

/* a(i,j), or 0 with *present = 0 when not stored. */
static double entry(const hpls_csr *A, hpls_int i, hpls_int j, int *present)
{
    for (hpls_int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++)
        if (A->colind[p] == j) {
            *present = 1;
            return A->val[p];
        }
    *present = 0;
    return 0.0;
}

static double diag_of(const hpls_csr *A, hpls_int i)
{
    int present;
    double d = entry(A, i, i, &present);
    assert_true(present);
    return d;
}

static double offdiag_abs_sum(const hpls_csr *A, hpls_int i)
{
    double s = 0.0;
    for (hpls_int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++)
        if (A->colind[p] != i)
            s += fabs(A->val[p]);
    return s;
}

static int csr_identical(const hpls_csr *A, const hpls_csr *B)
{
    if (A->nrows != B->nrows || A->nnz != B->nnz)
        return 0;
    return memcmp(A->rowptr, B->rowptr, (size_t)(A->nrows + 1) * sizeof *A->rowptr) == 0 &&
           memcmp(A->colind, B->colind, (size_t)A->nnz * sizeof *A->colind) == 0 &&
           memcmp(A->val, B->val, (size_t)A->nnz * sizeof *A->val) == 0;
}

static int is_symmetric(const hpls_csr *A)
{
    for (hpls_int i = 0; i < A->nrows; i++)
        for (hpls_int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++) {
            int present;
            if (entry(A, A->colind[p], i, &present) != A->val[p] || !present)
                return 0;
        }
    return 1;
}

static void same_seed_gives_identical_matrices_and_another_seed_differs(void **state)
{
    (void)state;
    const char *specs[][3] = {{"gas:n=5000,k=2", "gas:n=5000,k=2", "gas:n=5000,k=2,seed=2"},
                              {"dense-dd:n=80", "dense-dd:n=80,seed=1", "dense-dd:n=80,seed=7"},
                              {"tridiag:n=900", "tridiag:n=900", "tridiag:n=900,seed=3"}};
    for (size_t s = 0; s < sizeof specs / sizeof specs[0]; s++) {
        hpls_csr *A = gen(specs[s][0], NULL), *B = gen(specs[s][1], NULL);
        hpls_csr *C = gen(specs[s][2], NULL);
        assert_true(csr_identical(A, B));
        assert_false(csr_identical(A, C));
        hpls_csr_destroy(A);
        hpls_csr_destroy(B);
        hpls_csr_destroy(C);
    }
}

static void matrices_are_identical_for_one_and_two_threads(void **state)
{
    (void)state;
    for (size_t s = 0; s < NSMALL; s++) {
        hpls_vec *b1, *b2;
        omp_set_num_threads(1);
        hpls_csr *A1 = gen(small_specs[s], &b1);
        omp_set_num_threads(2);
        hpls_csr *A2 = gen(small_specs[s], &b2);
        assert_true(csr_identical(A1, A2));
        assert_memory_equal(b1->data, b2->data, (size_t)b1->n * sizeof *b1->data);
        hpls_csr_destroy(A1);
        hpls_csr_destroy(A2);
        hpls_vec_destroy(b1);
        hpls_vec_destroy(b2);
    }
}

static void rhs_is_a_times_ones_except_dense_dd_which_is_ones(void **state)
{
    (void)state;
    for (size_t s = 0; s < NSMALL; s++) {
        hpls_vec *b;
        hpls_csr *A = gen(small_specs[s], &b);
        hpls_vec *ones = tu_vec_const(A->ncols, 1.0);
        hpls_vec *y = tu_rhs(A, ones); /* reference SpMV */
        int dense_dd = strncmp(small_specs[s], "dense-dd", 8) == 0;
        assert_int_equal(b->n, A->nrows);
        for (hpls_int i = 0; i < A->nrows; i++) {
            double want = dense_dd ? 1.0 : y->data[i];
            assert_true(fabs(b->data[i] - want) <= 1e-14 * (fabs(want) + offdiag_abs_sum(A, i)));
        }
        hpls_csr_destroy(A);
        hpls_vec_destroy(b);
        hpls_vec_destroy(ones);
        hpls_vec_destroy(y);
    }
}

static void gas_has_the_full_band_and_k_extras_outside_it(void **state)
{
    (void)state;
    const hpls_int sizes[][2] = {{1000, 0}, {1000, 1}, {1000, 2}, {1000, 3}, {6, 3}, {70, 64}};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        hpls_int n = sizes[s][0], k = sizes[s][1];
        char spec[64];
        snprintf(spec, sizeof spec, "gas:n=%lld,k=%lld", (long long)n, (long long)k);
        hpls_csr *A = gen(spec, NULL);
        assert_int_equal(A->nrows, n);
        assert_int_equal(A->nnz, n * (3 + k) - 2); /* rows 0 and n-1 lack one band entry */
        for (hpls_int i = 0; i < n; i++) {
            int present;
            hpls_int extras = 0;
            diag_of(A, i);
            if (i > 0) {
                entry(A, i, i - 1, &present);
                assert_true(present);
            }
            if (i < n - 1) {
                entry(A, i, i + 1, &present);
                assert_true(present);
            }
            for (hpls_int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++)
                extras += llabs((long long)A->colind[p] - (long long)i) > 1;
            assert_int_equal(extras, k);
        }
        hpls_csr_destroy(A);
    }
}

static void gas_diagonal_is_off_diagonal_sum_over_q_and_values_are_in_range(void **state)
{
    (void)state;
    const char *specs[] = {"gas:n=4000,k=1", "gas:n=4000,k=3,s=0.1,q=0.5"};
    const double q[] = {0.7, 0.5}, smax[] = {0.35, 0.1};
    for (size_t s = 0; s < 2; s++) {
        hpls_csr *A = gen(specs[s], NULL);
        for (hpls_int i = 0; i < A->nrows; i++) {
            double d = diag_of(A, i), off = offdiag_abs_sum(A, i);
            assert_true(d > 0);
            assert_true(fabs(d * q[s] - off) <= 1e-14 * off);
            for (hpls_int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++) {
                hpls_int j = A->colind[p];
                if (j != i)
                    assert_true(fabs(A->val[p]) <=
                                (llabs((long long)(j - i)) == 1 ? 1.0 : smax[s]));
            }
        }
        assert_false(is_symmetric(A));
        hpls_csr_destroy(A);
    }
}

static void gas_neg_makes_that_fraction_of_diagonals_negative(void **state)
{
    (void)state;
    const char *specs[] = {"gas:n=100000,neg=0.3", "gas:n=100000", "gas:n=1000,neg=1"};
    const double want[] = {0.3, 0.0, 1.0}, tol[] = {0.01, 0.0, 0.0};
    for (size_t s = 0; s < 3; s++) {
        hpls_csr *A = gen(specs[s], NULL);
        hpls_int negative = 0;
        for (hpls_int i = 0; i < A->nrows; i++)
            negative += diag_of(A, i) < 0;
        assert_true(fabs((double)negative / (double)A->nrows - want[s]) <= tol[s]);
        hpls_csr_destroy(A);
    }
}

static void poisson_is_symmetric_with_zero_interior_row_sums(void **state)
{
    (void)state;
    const hpls_int grids[][3] = {{9, 4, 1}, {5, 3, 4}, {1, 1, 1}, {100, 100, 1}, {32, 32, 32}};
    const char *specs[] = {"poisson2d:nx=9,ny=4", "poisson3d:nx=5,ny=3,nz=4", "poisson3d:nx=1",
                           "poisson2d", "poisson3d"};
    for (size_t s = 0; s < sizeof specs / sizeof specs[0]; s++) {
        hpls_int nx = grids[s][0], ny = grids[s][1], nz = grids[s][2];
        double centre = strncmp(specs[s], "poisson2d", 9) == 0 ? 4.0 : 6.0;
        hpls_vec *b;
        hpls_csr *A = gen(specs[s], &b);
        assert_int_equal(A->nrows, nx * ny * nz);
        assert_int_equal(A->nnz, nx * ny * nz + 2 * ((nx - 1) * ny * nz + nx * (ny - 1) * nz +
                                                     nx * ny * (nz - 1)));
        assert_true(is_symmetric(A));
        for (hpls_int i = 0; i < A->nrows; i++) {
            hpls_int x = i % nx, y = (i / nx) % ny, z = i / (nx * ny);
            int interior =
                x > 0 && x < nx - 1 && y > 0 && y < ny - 1 && (nz == 1 || (z > 0 && z < nz - 1));
            assert_true(diag_of(A, i) == centre);
            for (hpls_int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++)
                assert_true(A->colind[p] == i || A->val[p] == -1.0);
            assert_true(interior ? b->data[i] == 0.0 : b->data[i] > 0.0);
        }
        hpls_csr_destroy(A);
        hpls_vec_destroy(b);
    }
}

static void convdiff3d_is_dominant_and_nonsymmetric_and_poisson_at_pe_zero(void **state)
{
    (void)state;
    hpls_csr *A = gen("convdiff3d:nx=6,ny=5,nz=4,pe=50", NULL);
    assert_int_equal(A->nrows, 120);
    int strict_rows = 0;
    for (hpls_int i = 0; i < A->nrows; i++) {
        double d = diag_of(A, i), off = offdiag_abs_sum(A, i);
        for (hpls_int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++)
            assert_true(A->colind[p] == i || A->val[p] < 0); /* M-matrix sign pattern */
        assert_true(d >= off * (1 - 1e-15));
        strict_rows += d > off * (1 + 1e-12);
    }
    assert_true(strict_rows > 0);
    assert_false(is_symmetric(A));
    hpls_csr *C = gen("convdiff3d:nx=6,ny=5,nz=4,pe=0", NULL);
    hpls_csr *P = gen("poisson3d:nx=6,ny=5,nz=4", NULL);
    assert_true(csr_identical(C, P));
    hpls_csr_destroy(A);
    hpls_csr_destroy(C);
    hpls_csr_destroy(P);
}

static void dense_dd_is_dominant_by_one_delta0_with_offdiagonals_in_one_interval(void **state)
{
    (void)state;
    const hpls_int n = 300;
    hpls_csr *A = gen("dense-dd:n=300,seed=5", NULL);
    assert_int_equal(A->nnz, n * n);
    double lo = INFINITY, hi = -INFINITY, delta0 = diag_of(A, 0) - offdiag_abs_sum(A, 0);
    assert_true(delta0 >= 1.0 && delta0 <= (double)n);
    for (hpls_int i = 0; i < n; i++) {
        double d = diag_of(A, i), off = offdiag_abs_sum(A, i);
        assert_true(fabs(d - off - delta0) <= 1e-12 * d); /* one delta0 for the matrix */
        for (hpls_int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++)
            if (A->colind[p] != i) {
                lo = fmin(lo, A->val[p]);
                hi = fmax(hi, A->val[p]);
            }
    }
    /* inside [delta1 n, delta2 n], -1 <= delta1 < delta2 <= 1 */
    assert_true(lo >= -(double)n && hi <= (double)n && lo < hi);
    assert_false(is_symmetric(A));
    hpls_csr_destroy(A);
}

static void tridiag_has_bandwidth_one_and_the_asked_dominance_or_constants(void **state)
{
    (void)state;
    const char *specs[] = {"tridiag", "tridiag:n=2000,dom=0.5,seed=9", "tridiag:type=toeplitz,n=50",
                           "tridiag:type=toeplitz,n=1,diag=3"};
    const double dom[] = {2.0, 0.5, 0.0, 0.0};
    for (size_t s = 0; s < sizeof specs / sizeof specs[0]; s++) {
        hpls_csr *A = gen(specs[s], NULL);
        hpls_int n = A->nrows;
        assert_int_equal(A->nnz, 3 * n - 2);
        for (hpls_int i = 0; i < n; i++) {
            for (hpls_int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++)
                assert_true(llabs((long long)(A->colind[p] - i)) <= 1);
            if (dom[s] > 0)
                assert_true(diag_of(A, i) > dom[s] * offdiag_abs_sum(A, i));
        }
        hpls_csr_destroy(A);
    }
    hpls_csr *T = gen("tridiag:type=toeplitz,n=50", NULL);
    int present;
    assert_true(entry(T, 7, 6, &present) == -1.0 && diag_of(T, 7) == 4.0 &&
                entry(T, 7, 8, &present) == -1.0); /* g-Spike Table A.1 #18 */
    hpls_csr_destroy(T);
    T = gen("tridiag:type=toeplitz,n=1,diag=3", NULL);
    assert_true(T->nnz == 1 && T->val[0] == 3.0);
    hpls_csr_destroy(T);
}

static void integer_keys_accept_exponent_notation(void **state)
{
    (void)state;
    hpls_csr *A = gen("gas:n=1e4,k=2", NULL);
    assert_int_equal(A->nrows, 10000);
    hpls_csr_destroy(A);
    A = gen("poisson2d:nx=2.5e1", NULL);
    assert_int_equal(A->nrows, 625);
    hpls_csr_destroy(A);
}

static void bad_specs_are_refused_naming_the_key_and_value(void **state)
{
    (void)state;
    const char *cases[][2] = {
        {"gas:kk=1", "unknown key \"kk\" (keys: n, k, s, q, neg, seed)"},
        {"gass", "unknown generator \"gass\""},
        {"", "unknown generator \"\""},
        {"gas:n=0", "n=0"},
        {"gas:n=1.5", "n=1.5 is not an integer"},
        {"gas:n=abc", "n=\"abc\""},
        {"gas:n=", "n=\"\""},
        {"gas:n= 5", "n=\" 5\""},
        {"gas:n=inf", "n=\"inf\""},
        {"gas:seed=nan", "seed=\"nan\""},
        {"gas:q=0", "q=0 is out of range (q > 0)"},
        {"gas:q=-1", "q=-1"},
        {"gas:s=-0.1", "s=-0.1"},
        {"gas:neg=1.5", "neg=1.5 is out of range (0 <= neg <= 1)"},
        {"gas:k=65", "k=65"},
        {"gas:n=4,k=2", "k=2 needs n >= 5"},
        {"gas:n", "\"n\" is not key=value"},
        {"gas:", "\"\" is not key=value"},
        {"gas:n=10,", "\"\" is not key=value"},
        {"gas:n=10,n=20", "\"n\" given twice"},
        {"poisson2d:nx=0", "nx=0"},
        {"poisson2d:seed=1", "unknown key \"seed\""},
        {"poisson3d:nx=2000", "2000 x 2000 x 2000"},
        {"convdiff3d:pe=-1", "pe=-1"},
        {"dense-dd:n=20001", "n=20001"},
        {"tridiag:type=foo", "type=\"foo\" is not one of random|toeplitz"},
        {"tridiag:type=toeplitz,dom=3", "\"dom\" does not apply to type=toeplitz"},
        {"tridiag:type=toeplitz,seed=3", "\"seed\" does not apply to type=toeplitz"},
        {"tridiag:lower=2", "\"lower\" does not apply to type=random"},
        {"tridiag:dom=-1", "dom=-1"}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        hpls_csr *A = (hpls_csr *)1;
        hpls_vec *b = (hpls_vec *)1;
        hpls_dense *D = (hpls_dense *)1;
        assert_int_equal(hpls_gen_csr(cases[c][0], &A, &b), HPLS_ERR_OPTION);
        assert_null(A);
        assert_null(b);
        if (!strstr(hpls_last_error(), cases[c][1]))
            fail_msg("spec \"%s\": message \"%s\" lacks \"%s\"", cases[c][0], hpls_last_error(),
                     cases[c][1]);
        assert_int_equal(hpls_gen_dense(cases[c][0], &D, NULL), HPLS_ERR_OPTION);
        assert_null(D);
    }
    hpls_csr *A;
    assert_int_equal(hpls_gen_csr(NULL, &A, NULL), HPLS_ERR_ARG);
    assert_int_equal(hpls_gen_csr("gas", NULL, NULL), HPLS_ERR_ARG);
}

static void dense_form_equals_the_csr_form_and_refuses_large_orders(void **state)
{
    (void)state;
    for (size_t s = 0; s < NSMALL; s++) {
        hpls_vec *b, *bd;
        hpls_dense *D;
        hpls_csr *A = gen(small_specs[s], &b);
        assert_int_equal(hpls_gen_dense(small_specs[s], &D, &bd), HPLS_OK);
        assert_int_equal(D->nrows, A->nrows);
        assert_int_equal(D->ncols, A->ncols);
        for (hpls_int i = 0; i < A->nrows; i++)
            for (hpls_int j = 0; j < A->ncols; j++) {
                int present;
                assert_true(D->data[i * D->ncols + j] == entry(A, i, j, &present));
            }
        assert_memory_equal(b->data, bd->data, (size_t)b->n * sizeof *b->data);
        hpls_csr_destroy(A);
        hpls_vec_destroy(b);
        hpls_dense_destroy(D);
        hpls_vec_destroy(bd);
    }
    hpls_dense *D;
    assert_int_equal(hpls_gen_dense("gas", &D, NULL), HPLS_ERR_OPTION);
    assert_non_null(strstr(hpls_last_error(), "100000 rows are too many for a dense matrix"));
}

static void allocation_failure_returns_nomem_and_leaks_nothing(void **state)
{
    (void)state;
    for (size_t s = 0; s < NSMALL; s++)
        for (int form = 0; form < 4; form++) { /* csr / dense, with and without b */
            long k = 1;
            for (;; k++) {
                hpls_csr *A = (hpls_csr *)1;
                hpls_dense *D = (hpls_dense *)1;
                hpls_vec *b = (hpls_vec *)1;
                hpls_vec **bp = form & 1 ? &b : NULL;
                hpls_alloc_fail_at(k);
                hpls_status st = form < 2 ? hpls_gen_csr(small_specs[s], &A, bp)
                                          : hpls_gen_dense(small_specs[s], &D, bp);
                hpls_alloc_fail_at(0);
                if (st == HPLS_OK) {
                    if (form < 2)
                        hpls_csr_destroy(A);
                    else
                        hpls_dense_destroy(D);
                    if (bp)
                        hpls_vec_destroy(b);
                    break;
                }
                assert_int_equal(st, HPLS_ERR_NOMEM);
                assert_null(form < 2 ? (void *)A : (void *)D);
                if (bp)
                    assert_null(b);
            }
            assert_true(k > 1); /* at least one allocation was made to fail */
        }
}

static void help_lists_every_generator_and_option_with_its_default(void **state)
{
    (void)state;
    const char *help = hpls_gen_help();
    const char *want[] = {"gas        n=100000 k=1 s=0.35 q=0.7 neg=0 seed=1",
                          "poisson2d  nx=100 ny=nx",
                          "poisson3d  nx=32 ny=nx nz=nx",
                          "convdiff3d nx=32 ny=nx nz=nx pe=10",
                          "dense-dd   n=1000 seed=1",
                          "tridiag    type=random n=1000 dom=2 lower=-1 diag=4 upper=-1 seed=1",
                          "    q      ",
                          "(0 <= neg <= 1)",
                          "(random|toeplitz)"};
    for (size_t w = 0; w < sizeof want / sizeof want[0]; w++)
        if (!strstr(help, want[w]))
            fail_msg("help lacks \"%s\":\n%s", want[w], help);
    assert_true(help[strlen(help) - 1] == '\n');
    assert_ptr_equal(hpls_gen_help(), help);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_seed_gives_identical_matrices_and_another_seed_differs),
        cmocka_unit_test(matrices_are_identical_for_one_and_two_threads),
        cmocka_unit_test(rhs_is_a_times_ones_except_dense_dd_which_is_ones),
        cmocka_unit_test(gas_has_the_full_band_and_k_extras_outside_it),
        cmocka_unit_test(gas_diagonal_is_off_diagonal_sum_over_q_and_values_are_in_range),
        cmocka_unit_test(gas_neg_makes_that_fraction_of_diagonals_negative),
        cmocka_unit_test(poisson_is_symmetric_with_zero_interior_row_sums),
        cmocka_unit_test(convdiff3d_is_dominant_and_nonsymmetric_and_poisson_at_pe_zero),
        cmocka_unit_test(dense_dd_is_dominant_by_one_delta0_with_offdiagonals_in_one_interval),
        cmocka_unit_test(tridiag_has_bandwidth_one_and_the_asked_dominance_or_constants),
        cmocka_unit_test(integer_keys_accept_exponent_notation),
        cmocka_unit_test(bad_specs_are_refused_naming_the_key_and_value),
        cmocka_unit_test(dense_form_equals_the_csr_form_and_refuses_large_orders),
        cmocka_unit_test(allocation_failure_returns_nomem_and_leaks_nothing),
        cmocka_unit_test(help_lists_every_generator_and_option_with_its_default),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
