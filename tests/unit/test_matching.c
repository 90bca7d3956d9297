/* SPDX-License-Identifier: BSD-3-Clause */
/* test_matching.c: the maximum transversal (MC21), the product-maximising
 * matching and its scaling (MC64 job 5), Ruiz equilibration, and the
 * reorder=matching / scale= options of the solver on matrices with zero
 * diagonals: generated (a dominant matrix with its columns scrambled) and
 * the real ones of ../shared/data. */
#include "testutil.h"

#include "la/matching.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* xorshift: the same matrices on every platform (rand() is not) */
static uint32_t rng_state;
static uint32_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}
static double rng_unit(void)
{
    return (double)rng() / 4294967296.0;
}

/* A random permutation of 0 .. n-1 (Fisher-Yates). */
static hpls_int *random_perm(hpls_int n)
{
    hpls_int *p = malloc((size_t)n * sizeof *p);
    assert_non_null(p);
    for (hpls_int k = 0; k < n; k++)
        p[k] = k;
    for (hpls_int k = n - 1; k > 0; k--) {
        hpls_int r = (hpls_int)(rng() % (uint32_t)(k + 1)), t = p[k];
        p[k] = p[r];
        p[r] = t;
    }
    return p;
}

/* A with its columns in a random order: column l is A's column cp[l] (a
 * dominant diagonal ends up off the diagonal, most diagonal entries zero). */
static hpls_csr *scramble_columns(const hpls_csr *A, unsigned seed)
{
    rng_state = seed;
    hpls_int *cp = random_perm(A->nrows);
    hpls_csr *B = NULL;
    assert_int_equal(hpls_csr_scale_permute(A, NULL, cp, NULL, NULL, &B), HPLS_OK);
    free(cp);
    return B;
}

/* The generator's matrix for spec, its columns scrambled. */
static hpls_csr *scrambled_gen(const char *spec, unsigned seed)
{
    hpls_csr *A = tu_gen(spec), *B = scramble_columns(A, seed);
    hpls_csr_destroy(A);
    return B;
}

/* The value of A_ij (0 when not stored). */
static double entry(const hpls_csr *A, hpls_int i, hpls_int j)
{
    for (hpls_int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++)
        if (A->colind[p] == j)
            return A->val[p];
    return 0.0;
}

/* colof is a permutation and every matched entry is a nonzero of A. */
static void check_zero_free(const hpls_csr *A, const hpls_int *colof)
{
    hpls_int n = A->nrows;
    char *used = calloc((size_t)n + 1, 1);
    assert_non_null(used);
    for (hpls_int i = 0; i < n; i++) {
        assert_true(colof[i] >= 0 && colof[i] < n);
        assert_int_equal(used[colof[i]], 0);
        used[colof[i]] = 1;
        assert_true(entry(A, i, colof[i]) != 0.0);
    }
    free(used);
}

/* |dr_i A_ij dc_j| <= 1 everywhere and = 1 on the matching. */
static void check_scaling(const hpls_csr *A, const hpls_int *colof, const double *dr,
                          const double *dc)
{
    for (hpls_int i = 0; i < A->nrows; i++) {
        for (hpls_int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++) {
            double a = fabs(dr[i] * A->val[p] * dc[A->colind[p]]);
            assert_true(a <= 1.0 + 1e-12);
            if (A->colind[p] == colof[i])
                assert_true(fabs(a - 1.0) <= 1e-12);
        }
    }
}

/* n = 300763 scrambled columns: a complete transversal, every matched entry a
 * nonzero.  MC21 with a search's own marks (each search re-reading what
 * earlier ones had ruled out) took 14-54 s at n = 2e5 and over 15 s here; in
 * phases with shared marks (PF+) about 1 s: CTest's TIMEOUT of test_matching
 * (tests/CMakeLists.txt) stops the slow one. */
static void transversal_is_complete_on_3e5_scrambled_columns(void **state)
{
    (void)state;
    hpls_csr *B = scrambled_gen("convdiff3d:nx=67", 11u);
    hpls_int n = B->nrows, unmatched = -1;
    assert_true(n >= 100000);
    hpls_int *colof = malloc((size_t)n * sizeof *colof);
    assert_non_null(colof);
    assert_int_equal(hpls_match_transversal(B, colof, &unmatched), HPLS_OK);
    assert_int_equal(unmatched, 0);
    check_zero_free(B, colof);
    free(colof);
    hpls_csr_destroy(B);
}

static void transversal_puts_nonzeros_on_a_scrambled_diagonal(void **state)
{
    (void)state;
    const char *specs[] = {"gas:n=2000,k=3", "convdiff3d:nx=10", "poisson2d:nx=30"};
    for (int t = 0; t < 3; t++) {
        hpls_csr *A = tu_gen(specs[t]), *B = scramble_columns(A, 7u + (unsigned)t);
        hpls_int n = B->nrows, unmatched = -1, zeros = 0;
        for (hpls_int i = 0; i < n; i++)
            zeros += entry(B, i, i) == 0.0;
        assert_true(zeros > n / 2); /* the scrambling did take the diagonal away */
        hpls_int *colof = malloc((size_t)n * sizeof *colof);
        assert_int_equal(hpls_match_transversal(B, colof, &unmatched), HPLS_OK);
        assert_int_equal(unmatched, 0);
        check_zero_free(B, colof);
        free(colof);
        hpls_csr_destroy(A);
        hpls_csr_destroy(B);
    }
}

/* The largest sum of log|a| over all permutations (-HUGE_VAL: none zero-free),
 * by Heap's algorithm over every permutation of n <= 8. */
static double brute_force_best(const hpls_csr *A)
{
    int n = (int)A->nrows, p[8], c[8] = {0};
    double best = -HUGE_VAL, la[8][8];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double a = fabs(entry(A, i, j));
            la[i][j] = a > 0 ? log(a) : -HUGE_VAL;
        }
    for (int i = 0; i < n; i++)
        p[i] = i;
    for (int k = 0;;) {
        double sum = 0;
        for (int i = 0; i < n; i++)
            sum += la[i][p[i]];
        best = sum > best ? sum : best;
        while (k < n && c[k] >= k) /* the next permutation (Heap, iterative) */
            c[k++] = 0;
        if (k == n)
            break;
        int sw = k % 2 ? c[k] : 0, tmp = p[sw];
        p[sw] = p[k];
        p[k] = tmp;
        c[k]++;
        k = 0;
    }
    return best;
}

/* A random n x n matrix: a random permutation's entries (so that one matching
 * is perfect) and about half the others, magnitudes 10^U(-3,3), both signs. */
static hpls_csr *random_small(int n)
{
    hpls_int ri[64], ci[64], m = 0;
    double v[64];
    hpls_int *q = random_perm(n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if (q[i] == j || rng() % 2) {
                ri[m] = i;
                ci[m] = j;
                v[m++] = (rng() % 2 ? -1.0 : 1.0) * pow(10.0, 6.0 * rng_unit() - 3.0);
            }
    free(q);
    hpls_csr *A = NULL;
    assert_int_equal(hpls_csr_from_coo(n, n, m, ri, ci, v, &A), HPLS_OK);
    return A;
}

static void product_matching_is_the_best_of_all_permutations(void **state)
{
    (void)state;
    rng_state = 2024;
    int worse_transversal = 0;
    for (int trial = 0; trial < 400; trial++) {
        int n = 1 + trial % 8;
        hpls_csr *A = random_small(n);
        hpls_int colof[8], mc21[8], unmatched;
        double dr[8], dc[8];
        assert_int_equal(hpls_match_product(A, colof, dr, dc), HPLS_OK);
        check_zero_free(A, colof);
        check_scaling(A, colof, dr, dc);
        double got = 0, plain = 0, best = brute_force_best(A);
        assert_int_equal(hpls_match_transversal(A, mc21, &unmatched), HPLS_OK);
        assert_int_equal(unmatched, 0);
        for (int i = 0; i < n; i++) {
            got += log(fabs(entry(A, i, colof[i])));
            plain += log(fabs(entry(A, i, mc21[i])));
        }
        assert_true(fabs(got - best) <= 1e-10 * (1.0 + fabs(best)));
        /* the check has teeth: a mere transversal is often not the best */
        worse_transversal += plain < best - 1e-6;
        hpls_csr_destroy(A);
    }
    assert_true(worse_transversal > 100);
}

/* The matrices of ../shared/data with zero or missing diagonal entries, and
 * the optimum of sum_i log|a_{i,colof[i]}| over their perfect matchings,
 * recorded with Debian's scipy 1.10.1 (the Hungarian-type LAPJVsp of
 * min_weight_full_bipartite_matching on positive costs 1 + log max|A| - log|a|):
 *   /usr/bin/python3 -c "import sys, numpy as np, scipy.io as io,
 *     scipy.sparse.csgraph as g; A = io.mmread(sys.argv[1]).tocsr();
 *     A.eliminate_zeros(); C = A.copy();
 *     C.data = 1.0 + np.log(abs(A).max()) - np.log(abs(C.data));
 *     r, c = g.min_weight_full_bipartite_matching(C);
 *     print(repr(np.log(abs(np.asarray(A[r, c]).ravel())).sum()))" NAME.mtx */
static const struct {
    const char *name;
    double best;
} zero_diagonal_matrices[] = {
    {"west0479", 325.6642434703466},   {"west0497", 426.95909374879386},
    {"west0989", 857.2016541131273},   {"west1505", 1282.4386885492818},
    {"bp_1200", 321.36526936986525},   {"impcol_a", 38.15403867092787},
    {"lns_131", 181.67437307137428},   {"rajat19", -2692.559103081968},
    {"nnc1374", -6724.576635026493},   {"orani678", -157.07582056986075},
    {"bayer10", -49765.69657174562},   {"adder_dcop_05", -14221.263015420314},
    {"e05r0500", -100.35479481203228}, {"hangGlider_2", 1313.2706140792898},
};
enum { NZD = sizeof zero_diagonal_matrices / sizeof zero_diagonal_matrices[0] };

static hpls_csr *read_data(const char *name)
{
    char rel[128], path[1024];
    snprintf(rel, sizeof rel, "matrices/%s.mtx", name);
    if (!tu_data_path(rel, path, sizeof path))
        return NULL;
    hpls_csr *A = NULL;
    assert_int_equal(hpls_mm_read_csr(path, &A), HPLS_OK);
    return A;
}

static void real_zero_diagonals_are_matched_and_scaled(void **state)
{
    (void)state;
    int found = 0;
    for (int t = 0; t < NZD; t++) {
        hpls_csr *A = read_data(zero_diagonal_matrices[t].name);
        if (!A)
            continue;
        found++;
        hpls_int n = A->nrows, unmatched = -1, zeros = 0;
        for (hpls_int i = 0; i < n; i++)
            zeros += entry(A, i, i) == 0.0;
        assert_true(zeros > 0);
        hpls_int *colof = malloc((size_t)n * sizeof *colof);
        double *dr = malloc((size_t)n * sizeof *dr), *dc = malloc((size_t)n * sizeof *dc);
        assert_int_equal(hpls_match_transversal(A, colof, &unmatched), HPLS_OK);
        assert_int_equal(unmatched, 0);
        check_zero_free(A, colof);
        assert_int_equal(hpls_match_product(A, colof, dr, dc), HPLS_OK);
        check_zero_free(A, colof);
        check_scaling(A, colof, dr, dc);
        double got = 0, best = zero_diagonal_matrices[t].best;
        for (hpls_int i = 0; i < n; i++)
            got += log(fabs(entry(A, i, colof[i])));
        if (fabs(got - best) > 1e-9 * fmax(1.0, fabs(best)))
            fail_msg("%s: sum log|a| of the matching %.17g, scipy's optimum %.17g",
                     zero_diagonal_matrices[t].name, got, best);
        /* Ruiz: every row and column max |entry| within its tolerance of 1 */
        int sweeps = hpls_scale_ruiz(A, 1e-2, 50, dr, dc);
        assert_true(sweeps >= 1 && sweeps < 50);
        double *cmax = calloc((size_t)n, sizeof *cmax);
        for (hpls_int i = 0; i < n; i++) {
            double rmax = 0;
            for (hpls_int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++) {
                double a = fabs(dr[i] * A->val[p] * dc[A->colind[p]]);
                rmax = fmax(rmax, a);
                cmax[A->colind[p]] = fmax(cmax[A->colind[p]], a);
            }
            assert_true(fabs(rmax - 1.0) <= 2e-2);
        }
        for (hpls_int j = 0; j < n; j++)
            assert_true(fabs(cmax[j] - 1.0) <= 2e-2);
        free(cmax);
        free(colof);
        free(dr);
        free(dc);
        hpls_csr_destroy(A);
    }
    if (!found)
        skip();
}

/* Row 3 and row 4 (1-based) have entries only in column 1 (row 4's other
 * entry is an explicit zero), row 1 too: 2 of 4 rows cannot be matched. */
static hpls_csr *structurally_singular(void)
{
    hpls_int ri[] = {0, 0, 1, 1, 2, 3, 3};
    hpls_int ci[] = {0, 1, 1, 3, 0, 0, 2};
    double v[] = {1, 2, 3, 4, 5, 6, 0};
    hpls_csr *A = NULL;
    assert_int_equal(hpls_csr_from_coo(4, 4, 7, ri, ci, v, &A), HPLS_OK);
    return A;
}

static void structurally_singular_matrix_is_a_clear_error(void **state)
{
    (void)state;
    hpls_csr *A = structurally_singular();
    hpls_int colof[4], unmatched = -1;
    assert_int_equal(hpls_match_transversal(A, colof, &unmatched), HPLS_OK);
    assert_int_equal(unmatched, 1);
    double dr[4], dc[4];
    assert_int_equal(hpls_match_product(A, colof, dr, dc), HPLS_ERR_SINGULAR);
    assert_non_null(strstr(hpls_last_error(), "structurally singular: 1 of 4 rows"));
    assert_non_null(strstr(hpls_last_error(), "(row 4 is one)"));
    const char *opts[] = {"reorder=matching", "scale=matching", "reorder=matching scale=ruiz"};
    for (int k = 0; k < 3; k++) {
        hpls_solver *s;
        assert_int_equal(hpls_solver_create(&s), HPLS_OK);
        assert_int_equal(hpls_solver_set_options(s, opts[k]), HPLS_OK);
        assert_int_equal(hpls_solver_setup(s, A), HPLS_ERR_SINGULAR);
        assert_non_null(strstr(hpls_solver_message(s), "1 of 4 rows cannot be matched"));
        hpls_solver_destroy(s);
    }
    hpls_csr_destroy(A);
}

/* Solves A x = b with the options; checks the status, reason, that x is
 * x_true to errtol and that info.relres is ||b - A x|| / ||b|| on A itself. */
static void solve_and_check(const hpls_csr *A, const char *options, double tol, double errtol)
{
    hpls_vec *xt = tu_vec_random(A->nrows, 5), *b = tu_rhs(A, xt), *x = tu_vec_const(A->nrows, 0);
    hpls_solver *s;
    char all[256];
    snprintf(all, sizeof all, "%s tol=%g maxiter=5000", options, tol);
    assert_int_equal(hpls_solver_create(&s), HPLS_OK);
    assert_int_equal(hpls_solver_set_options(s, all), HPLS_OK);
    hpls_status st = hpls_solver_setup(s, A);
    if (st != HPLS_OK)
        fail_msg("%s: %s", all, hpls_solver_message(s));
    assert_int_equal(hpls_solver_solve(s, b, x), HPLS_OK);
    hpls_info info;
    assert_int_equal(hpls_solver_get_info(s, &info), HPLS_OK);
    double rel = tu_relres(A, b, x);
    if (!hpls_reason_converged(info.reason) || rel > tol || tu_relerr(x, xt) > errtol)
        fail_msg("%s: %s after %lld, relres %g (reported %g), error %g", all,
                 hpls_reason_str(info.reason), (long long)info.iterations, rel, info.relres,
                 tu_relerr(x, xt));
    assert_true(fabs(info.relres - rel) <= 1e-8 * rel + 1e-15);
    hpls_solver_destroy(s);
    hpls_vec_destroy(xt);
    hpls_vec_destroy(b);
    hpls_vec_destroy(x);
}

static void matching_lets_ilu_and_jacobi_solve_a_scrambled_matrix(void **state)
{
    (void)state;
    hpls_csr *A0 = tu_gen("gas:n=3000,k=3"), *A = scramble_columns(A0, 11);
    /* without the matching: ilu0 and jacobi stop at a zero diagonal */
    const char *bare[] = {"solver=bicgstab precond=ilu0", "solver=jacobi"};
    for (int k = 0; k < 2; k++) {
        hpls_solver *s;
        assert_int_equal(hpls_solver_create(&s), HPLS_OK);
        assert_int_equal(hpls_solver_set_options(s, bare[k]), HPLS_OK);
        hpls_status st = hpls_solver_setup(s, A);
        assert_true(st == HPLS_ERR_ZERO_DIAG || st == HPLS_ERR_SINGULAR);
        hpls_solver_destroy(s);
    }
    const char *runs[] = {
        "solver=bicgstab precond=ilu0 reorder=matching",
        "solver=bicgstab precond=ilu0 reorder=matching scale=matching",
        "solver=bicgstab precond=dilu reorder=matching scale=ruiz",
        "solver=jacobi reorder=matching",
        "solver=gs reorder=matching scale=matching",
        "solver=gmres precond=ilu0 reorder=matching scale=matching",
        "solver=bicg precond=jacobi reorder=matching scale=ruiz",
        "solver=pjg reorder=matching",
    };
    for (int k = 0; k < (int)(sizeof runs / sizeof runs[0]); k++)
        solve_and_check(A, runs[k], 1e-10, 1e-7);
    hpls_csr_destroy(A0);
    hpls_csr_destroy(A);
}

/* Rows scaled by 10^U(-5,5): the method's test sees the scaled residual, the
 * user's target is on A's: the solver must confirm it there. */
static void scaled_solves_meet_the_tolerance_on_the_users_system(void **state)
{
    (void)state;
    hpls_csr *A = scrambled_gen("convdiff3d:nx=14", 3);
    rng_state = 99;
    for (hpls_int i = 0; i < A->nrows; i++) {
        double f = pow(10.0, 10.0 * rng_unit() - 5.0);
        for (hpls_int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++)
            A->val[p] *= f;
    }
    const char *runs[] = {"solver=bicgstab precond=ilu0 reorder=matching scale=matching",
                          "solver=bicgstab precond=ilu0 reorder=matching scale=ruiz",
                          "solver=gmres precond=jacobi reorder=matching scale=matching",
                          "solver=cgs precond=dilu reorder=matching scale=ruiz"};
    for (int k = 0; k < 4; k++)
        for (int t = 0; t < 3; t++)
            solve_and_check(A, runs[k], t == 0 ? 1e-6 : t == 1 ? 1e-9 : 1e-11, 1e-2);
    hpls_csr_destroy(A);
}

static void real_zero_diagonal_matrices_solve_after_matching(void **state)
{
    (void)state;
    /* those of the catalogue on which bicgstab + ilu0 converges after matching */
    const char *names[] = {"impcol_a", "lns_131", "west0497", "gre_115"};
    int found = 0;
    for (int t = 0; t < 4; t++) {
        hpls_csr *A = read_data(names[t]);
        if (!A)
            continue;
        found++;
        /* ill-conditioned: the residual is the check, not the error */
        solve_and_check(A, "solver=bicgstab precond=ilu0 reorder=matching scale=matching", 1e-10,
                        HUGE_VAL);
        solve_and_check(A, "solver=gmres precond=ilu0 restart=60 reorder=matching", 1e-10,
                        HUGE_VAL);
        hpls_csr_destroy(A);
    }
    if (!found)
        skip();
}

/* update_values (matching and scaling redone), solve_many (block path under
 * reorder=matching; column by column when scaled) and the initial guess. */
static void update_values_and_solve_many_stay_right(void **state)
{
    (void)state;
    hpls_csr *A = scrambled_gen("gas:n=1500,k=2", 5);
    const char *runs[] = {"solver=jacobi reorder=matching tol=1e-11",
                          "solver=bicgstab precond=ilu0 reorder=matching scale=matching tol=1e-11",
                          "solver=pjg scale=ruiz reorder=matching tol=1e-11"};
    hpls_int n = A->nrows, k = 3;
    for (int r = 0; r < 3; r++) {
        hpls_solver *s;
        assert_int_equal(hpls_solver_create(&s), HPLS_OK);
        assert_int_equal(hpls_solver_set_options(s, runs[r]), HPLS_OK);
        assert_int_equal(hpls_solver_setup(s, A), HPLS_OK);
        /* new values, same pattern: row i times (2 + i mod 3) */
        hpls_csr *A2 = NULL;
        double *f = malloc((size_t)n * sizeof *f);
        for (hpls_int i = 0; i < n; i++)
            f[i] = 2.0 + (double)(i % 3);
        assert_int_equal(hpls_csr_scale_permute(A, NULL, NULL, f, NULL, &A2), HPLS_OK);
        assert_int_equal(hpls_solver_update_values(s, A2), HPLS_OK);
        hpls_real *X = calloc((size_t)(n * k), sizeof *X), *B = malloc((size_t)(n * k) * sizeof *B);
        hpls_vec *xt[3];
        for (hpls_int j = 0; j < k; j++) {
            xt[j] = tu_vec_random(n, 20 + (unsigned)j);
            hpls_vec *b = tu_rhs(A2, xt[j]);
            memcpy(B + j * n, b->data, (size_t)n * sizeof *B);
            hpls_vec_destroy(b);
        }
        hpls_info info[3];
        assert_int_equal(hpls_solver_solve_many(s, k, B, X, info), HPLS_OK);
        for (hpls_int j = 0; j < k; j++) {
            hpls_vec x = {n, X + j * n}, b = {n, B + j * n};
            double rel = tu_relres(A2, &b, &x);
            assert_true(hpls_reason_converged(info[j].reason));
            assert_true(rel <= 1e-11);
            assert_true(fabs(info[j].relres - rel) <= 1e-8 * rel + 1e-15);
            assert_true(tu_relerr(&x, xt[j]) < 1e-8);
            hpls_vec_destroy(xt[j]);
        }
        free(f);
        free(X);
        free(B);
        hpls_csr_destroy(A2);
        hpls_solver_destroy(s);
    }
    hpls_csr_destroy(A);
}

static void options_are_checked(void **state)
{
    (void)state;
    hpls_solver *s;
    assert_int_equal(hpls_solver_create(&s), HPLS_OK);
    assert_int_equal(hpls_solver_set_option(s, "scale=mc64"), HPLS_ERR_OPTION);
    assert_non_null(strstr(hpls_solver_message(s), "none,ruiz,matching"));
    assert_int_equal(hpls_solver_set_option(s, "reorder=matching"), HPLS_OK);
    hpls_dense *D;
    assert_int_equal(hpls_dense_create(2, 2, &D), HPLS_OK);
    D->data[0] = D->data[3] = 1.0;
    assert_int_equal(hpls_solver_set_options(s, "solver=jacobi reorder=none scale=ruiz"), HPLS_OK);
    assert_int_equal(hpls_solver_setup_dense(s, D), HPLS_ERR_OPTION);
    assert_non_null(strstr(hpls_solver_message(s), "scale need a CSR matrix"));
    hpls_dense_destroy(D);
    hpls_solver_destroy(s);
}

static void allocation_failures_leave_no_leak(void **state)
{
    (void)state;
    hpls_csr *A = scrambled_gen("gas:n=200,k=2", 9);
    hpls_vec *xt = tu_vec_random(A->nrows, 1), *b = tu_rhs(A, xt), *x = tu_vec_const(A->nrows, 0);
    tu_solve_under_alloc_failures(A, b, x, "precond=ilu0 reorder=matching scale=matching");
    tu_solve_under_alloc_failures(A, b, x, "precond=dilu reorder=matching scale=ruiz");
    hpls_vec_destroy(xt);
    hpls_vec_destroy(b);
    hpls_vec_destroy(x);
    hpls_csr_destroy(A);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(transversal_puts_nonzeros_on_a_scrambled_diagonal),
        cmocka_unit_test(transversal_is_complete_on_3e5_scrambled_columns),
        cmocka_unit_test(product_matching_is_the_best_of_all_permutations),
        cmocka_unit_test(real_zero_diagonals_are_matched_and_scaled),
        cmocka_unit_test(structurally_singular_matrix_is_a_clear_error),
        cmocka_unit_test(matching_lets_ilu_and_jacobi_solve_a_scrambled_matrix),
        cmocka_unit_test(scaled_solves_meet_the_tolerance_on_the_users_system),
        cmocka_unit_test(real_zero_diagonal_matrices_solve_after_matching),
        cmocka_unit_test(update_values_and_solve_many_stay_right),
        cmocka_unit_test(options_are_checked),
        cmocka_unit_test(allocation_failures_leave_no_leak),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
