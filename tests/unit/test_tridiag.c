/* SPDX-License-Identifier: BSD-3-Clause */
/* test_tridiag.c: the tridiagonal direct solvers (thomas, cr, gspike, lapack):
 * known solutions on the g-Spike paper's collection, any n, factor once and
 * solve many, several right-hand sides, zero pivots reported with their row,
 * g-Spike's partitions, recursion, reducibility and singular-block repair,
 * batches, the CSR extraction and the solver framework's methods. */
#include "testutil.h"

#include "direct/direct.h"
#include "gen/gen.h"

#include <fenv.h>
#include <float.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const hpls_tridiag_method all[] = {HPLS_TRIDIAG_THOMAS, HPLS_TRIDIAG_CR,
                                          HPLS_TRIDIAG_GSPIKE, HPLS_TRIDIAG_LAPACK};

/* ||x - y||_2 / ||y||_2 */
static double ferr(hpls_int n, const hpls_real *x, const hpls_real *y)
{
    double a = 0.0, b = 0.0;
    for (hpls_int i = 0; i < n; i++) {
        a += (x[i] - y[i]) * (x[i] - y[i]);
        b += y[i] * y[i];
    }
    return sqrt(a / b);
}

/* ||b - T x||_inf / (||T||_inf ||x||_inf + ||b||_inf) */
static double berr(const hpls_tridiag *T, const hpls_real *b, const hpls_real *x)
{
    hpls_int n = T->n;
    hpls_real *r = malloc((size_t)n * sizeof *r);
    assert_int_equal(hpls_tridiag_mv(T, x, r), HPLS_OK);
    double rn = 0, an = 0, xn = 0, bn = 0;
    for (hpls_int i = 0; i < n; i++) {
        rn = fmax(rn, fabs(b[i] - r[i]));
        an = fmax(an, fabs(T->d[i]) + (i > 0 ? fabs(T->dl[i]) : 0) + (i < n - 1 ? fabs(T->du[i]) : 0));
        xn = fmax(xn, fabs(x[i]));
        bn = fmax(bn, fabs(b[i]));
    }
    free(r);
    return rn / (an * xn + bn);
}

static void every_method_solves_well_conditioned_gallery_matrices_of_any_order(void **state)
{
    (void)state;
    static const int ids[] = {2, 3, 6, 7, 17, 18, 19, 20};
    static const hpls_int sizes[] = {1, 2, 3, 4, 5, 7, 64, 127, 128, 129, 1000, 4099};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (size_t k = 0; k < sizeof ids / sizeof ids[0]; k++) {
            hpls_tridiag *T;
            hpls_vec *xt, *b;
            assert_int_equal(hpls_tridiag_gallery(ids[k], sizes[s], 3, &T, &xt, &b), HPLS_OK);
            hpls_real *x = malloc((size_t)sizes[s] * sizeof *x);
            for (int m = 0; m < 4; m++) {
                assert_int_equal(hpls_tridiag_solve(T, all[m], NULL, 1, b->data, x), HPLS_OK);
                double e = ferr(sizes[s], x, xt->data);
                if (!(e < 1e-12))
                    fail_msg("id %d n %lld %s: forward error %.3e", ids[k], (long long)sizes[s],
                             hpls_tridiag_method_name(all[m]), e);
            }
            free(x);
            hpls_tridiag_destroy(T);
            hpls_vec_destroy(xt);
            hpls_vec_destroy(b);
        }
}

/* gspike's backward error stays within 100x of LAPACK's on the collection, for
 * automatic and forced partitions (with recursion: p = 300 gives 598 reduced
 * unknowns, solved by g-Spike again). */
static void gspike_is_backward_stable_like_lapack_on_the_collection(void **state)
{
    (void)state;
    static const hpls_int parts[] = {0, 2, 7, 64, 300};
    const hpls_int n = 2400;
    hpls_real *x = malloc(n * sizeof *x), *xl = malloc(n * sizeof *xl);
    for (int id = 1; id <= 20; id++) {
        hpls_int nn = id >= 8 && id <= 11 ? 512 : n;
        hpls_tridiag *T;
        hpls_vec *xt, *b;
        assert_int_equal(hpls_tridiag_gallery(id, nn, 5, &T, &xt, &b), HPLS_OK);
        assert_int_equal(hpls_tridiag_solve(T, HPLS_TRIDIAG_LAPACK, NULL, 1, b->data, xl), HPLS_OK);
        double bl = berr(T, b->data, xl), fl = ferr(nn, xl, xt->data);
        for (size_t k = 0; k < sizeof parts / sizeof parts[0]; k++) {
            hpls_tridiag_opts o = {.partitions = parts[k], .delta = HPLS_TRIDIAG_DELTA_DEFAULT};
            assert_int_equal(hpls_tridiag_solve(T, HPLS_TRIDIAG_GSPIKE, &o, 1, b->data, x), HPLS_OK);
            double bg = berr(T, b->data, x), fg = ferr(nn, x, xt->data);
            /* forced small blocks and recursion: within 100x, or below 1e-11 (#12, with
             * sub-diagonal 1e-50, is irreducible only in name, cf. the paper's Table 2) */
            if (!(bg <= 100 * bl + 1e-15 || (parts[k] > 0 && bg < 1e-11)))
                fail_msg("id %d p %lld: backward error %.3e, lapack %.3e", id,
                         (long long)parts[k], bg, bl);
            if (fl < 1e-6 && parts[k] == 0 && !(fg <= 100 * fl + 1e-15))
                fail_msg("id %d: forward error %.3e, lapack %.3e", id, fg, fl);
        }
        hpls_tridiag_destroy(T);
        hpls_vec_destroy(xt);
        hpls_vec_destroy(b);
    }
    free(x);
    free(xl);
}

static void factor_once_solves_many_right_hand_sides(void **state)
{
    (void)state;
    const hpls_int n = 777, nrhs = 5;
    hpls_tridiag *T;
    assert_int_equal(hpls_tridiag_gallery(20, n, 9, &T, NULL, NULL), HPLS_OK);
    hpls_real *X = malloc((size_t)(n * nrhs) * sizeof *X), *B = malloc((size_t)(n * nrhs) * sizeof *B);
    hpls_real *Y = malloc((size_t)(n * nrhs) * sizeof *Y);
    for (hpls_int i = 0; i < n * nrhs; i++)
        X[i] = sin(0.37 * (double)i) + (double)(i / n);
    for (hpls_int k = 0; k < nrhs; k++)
        assert_int_equal(hpls_tridiag_mv(T, X + k * n, B + k * n), HPLS_OK);
    for (int m = 0; m < 4; m++) {
        hpls_tridiag_factors *F;
        assert_int_equal(hpls_tridiag_factor(T, all[m], NULL, &F), HPLS_OK);
        for (int rep = 0; rep < 2; rep++) { /* the factors are reused unchanged */
            assert_int_equal(hpls_tridiag_solve_factored(F, nrhs, B, Y), HPLS_OK);
            for (hpls_int k = 0; k < nrhs; k++)
                assert_true(ferr(n, Y + k * n, X + k * n) < 1e-13);
        }
        memcpy(Y, B, (size_t)(n * nrhs) * sizeof *Y); /* in place: x = b */
        assert_int_equal(hpls_tridiag_solve_factored(F, nrhs, Y, Y), HPLS_OK);
        assert_true(ferr(n * nrhs, Y, X) < 1e-13);
        hpls_tridiag_factors_destroy(F);
    }
    free(X);
    free(B);
    free(Y);
    hpls_tridiag_destroy(T);
}

static void zero_pivots_are_errors_naming_the_row(void **state)
{
    (void)state;
    hpls_tridiag *T;
    hpls_tridiag_factors *F = NULL;
    assert_int_equal(hpls_tridiag_gallery(18, 10, 1, &T, NULL, NULL), HPLS_OK);
    T->d[0] = 0.0; /* row 1: thomas and cr divide by it at once */
    assert_int_equal(hpls_tridiag_factor(T, HPLS_TRIDIAG_THOMAS, NULL, &F), HPLS_ERR_SINGULAR);
    assert_non_null(strstr(hpls_last_error(), "row 1 "));
    assert_null(F);
    assert_int_equal(hpls_tridiag_factor(T, HPLS_TRIDIAG_CR, NULL, &F), HPLS_ERR_SINGULAR);
    assert_non_null(strstr(hpls_last_error(), "row 1 "));
    /* rows 1-2 = [[1, 1], [1, 1]]: the second pivot cancels exactly */
    T->d[0] = 1.0;
    T->du[0] = 1.0;
    T->dl[1] = 1.0;
    T->d[1] = 1.0;
    assert_int_equal(hpls_tridiag_factor(T, HPLS_TRIDIAG_THOMAS, NULL, &F), HPLS_ERR_SINGULAR);
    assert_non_null(strstr(hpls_last_error(), "row 2 "));
    /* pivoting methods solve it (T stays nonsingular) */
    assert_int_equal(hpls_tridiag_factor(T, HPLS_TRIDIAG_GSPIKE, NULL, &F), HPLS_OK);
    hpls_tridiag_factors_destroy(F);
    assert_int_equal(hpls_tridiag_factor(T, HPLS_TRIDIAG_LAPACK, NULL, &F), HPLS_OK);
    hpls_tridiag_factors_destroy(F);
    /* an exactly singular T: [[1, 1], [1, 1]] alone */
    hpls_tridiag *S;
    assert_int_equal(hpls_tridiag_create(2, &S), HPLS_OK);
    S->d[0] = S->d[1] = S->du[0] = S->dl[1] = 1.0;
    for (int m = 0; m < 4; m++) {
        assert_int_equal(hpls_tridiag_factor(S, all[m], NULL, &F), HPLS_ERR_SINGULAR);
        assert_null(F);
    }
    hpls_tridiag_destroy(S);
    hpls_tridiag_destroy(T);
}

/* thomas's sweeps can amplify rounding errors without any growth of |L||U|
 * (thomas.c): on the Dorr matrix (#13) at n = 2^20 the forward sweep would
 * reach 1.6e300 and overflow.  The factorization measures the amplification;
 * the guarded solve stops before any operation overflows (make check-fpe
 * traps one) and otherwise gives the plain solve's bits; the factors are
 * refused as needing pivoting (never "singular"), where a pivoting method
 * solves T. */
static void thomas_refuses_what_its_sweeps_would_overflow(void **state)
{
    (void)state;
    /* the same bits as the plain solve wherever the guard does not stop:
     * dominant (#18), random (#1, growth 1e3) and Dorr at n = 512 */
    static const int ids[] = {18, 1, 13};
    for (size_t k = 0; k < sizeof ids / sizeof ids[0]; k++) {
        const hpls_int n = 512;
        hpls_tridiag *T;
        hpls_vec *xt, *b;
        assert_int_equal(hpls_tridiag_gallery(ids[k], n, 5, &T, &xt, &b), HPLS_OK);
        hpls_thomas f;
        assert_int_equal(hpls_thomas_factor(n, T->dl, T->d, T->du, &f), HPLS_OK);
        hpls_real *x = malloc((size_t)n * sizeof *x), *xg = malloc((size_t)n * sizeof *xg);
        hpls_thomas_solve(&f, b->data, x);
        assert_int_equal(hpls_thomas_solve_guarded(&f, b->data, xg), 0);
        assert_memory_equal(x, xg, (size_t)n * sizeof *x);
        if (ids[k] == 18)
            assert_true(f.amp <= 1.0 && f.growth <= 2.0);
        free(x);
        free(xg);
        hpls_thomas_free(&f);
        hpls_tridiag_destroy(T);
        hpls_vec_destroy(xt);
        hpls_vec_destroy(b);
    }
    /* Dorr at n = 8192: amplification 5e80, the probe's solve stays finite and
     * backward stable, so thomas refines (within 100x of dgtsv's backward
     * error); a b scaled by 1e280 would overflow the sweep: that solve is an
     * HPLS_ERR_SINGULAR saying T needs pivoting, and nothing overflows */
    {
        const hpls_int n = 8192;
        hpls_tridiag *T;
        hpls_vec *xt, *b;
        assert_int_equal(hpls_tridiag_gallery(13, n, 5, &T, &xt, &b), HPLS_OK);
        hpls_tridiag_factors *F = NULL;
        assert_int_equal(hpls_tridiag_factor(T, HPLS_TRIDIAG_THOMAS, NULL, &F), HPLS_OK);
        assert_int_equal(hpls_tridiag_factors_refine(F), 1);
        hpls_real *x = malloc((size_t)n * sizeof *x), *xl = malloc((size_t)n * sizeof *xl);
        assert_int_equal(hpls_tridiag_solve_factored(F, 1, b->data, x), HPLS_OK);
        assert_int_equal(hpls_lapack_gtsv(n, T->dl, T->d, T->du, b->data, xl), HPLS_OK);
        double bt = berr(T, b->data, x), bl = berr(T, b->data, xl);
        if (!(bt <= 100 * fmax(bl, DBL_EPSILON)))
            fail_msg("dorr n = 8192: thomas's backward error %.3e, dgtsv's %.3e", bt, bl);
        for (hpls_int i = 0; i < n; i++)
            b->data[i] *= 1e280;
        feclearexcept(FE_OVERFLOW | FE_INVALID);
        assert_int_equal(hpls_tridiag_solve_factored(F, 1, b->data, x), HPLS_ERR_SINGULAR);
        assert_int_equal(fetestexcept(FE_OVERFLOW | FE_INVALID), 0);
        if (!strstr(hpls_last_error(), "thomas: the solve would overflow at row ") ||
            !strstr(hpls_last_error(), "T needs pivoting (no pivoting; try gspike or lapack)"))
            fail_msg("dorr n = 8192, b * 1e280: %s", hpls_last_error());
        free(x);
        free(xl);
        hpls_tridiag_factors_destroy(F);
        hpls_tridiag_destroy(T);
        hpls_vec_destroy(xt);
        hpls_vec_destroy(b);
    }
    if (getenv("HPLS_TEST_SMALL"))
        return; /* under the sanitizers (tests/CMakeLists.txt) */
    const hpls_int n = (hpls_int)1 << 20;
    hpls_tridiag *T;
    hpls_vec *xt, *b;
    assert_int_equal(hpls_tridiag_gallery(13, n, 5, &T, &xt, &b), HPLS_OK);
    hpls_thomas f;
    assert_int_equal(hpls_thomas_factor(n, T->dl, T->d, T->du, &f), HPLS_OK);
    assert_true(f.growth <= HPLS_TRIDIAG_GROWTH_REFINE && f.amp > HPLS_TRIDIAG_AMP_REFINE);
    hpls_real *x = malloc((size_t)n * sizeof *x);
    feclearexcept(FE_OVERFLOW | FE_INVALID); /* seen without make check-fpe too */
    assert_true(hpls_thomas_solve_guarded(&f, b->data, x) > 0);
    assert_int_equal(fetestexcept(FE_OVERFLOW | FE_INVALID), 0);
    hpls_thomas_free(&f);
    feclearexcept(FE_OVERFLOW | FE_INVALID);
    hpls_tridiag_factors *F = NULL;
    assert_int_equal(hpls_tridiag_factor(T, HPLS_TRIDIAG_THOMAS, NULL, &F), HPLS_ERR_SINGULAR);
    assert_null(F);
    const char *msg = hpls_last_error();
    assert_int_equal(fetestexcept(FE_OVERFLOW | FE_INVALID), 0); /* the probe's solves too */
    if (!strstr(msg, "thomas: elimination without pivoting amplifies the rounding errors") ||
        !strstr(msg, "would overflow: T needs pivoting (no pivoting; try gspike or lapack)"))
        fail_msg("thomas on dorr at 2^20: %s", msg);
    assert_int_equal(hpls_tridiag_solve(T, HPLS_TRIDIAG_LAPACK, NULL, 1, b->data, x), HPLS_OK);
    free(x);
    hpls_tridiag_destroy(T);
    hpls_vec_destroy(xt);
    hpls_vec_destroy(b);
}

/* Tables 3 and 4 at small n: blocks of order m made exactly singular; g-Spike
 * with the repair stays accurate, without it (delta = 0) it does not. */
static void gspike_repairs_singular_blocks(void **state)
{
    (void)state;
    const hpls_int m = 32, nb = 64, n = m * nb;
    static const hpls_int counts[] = {0, 1, 2, 4, 16, 64};
    static const int kinds[] = {18, 1};
    hpls_real *x = malloc(n * sizeof *x);
    for (int kk = 0; kk < 2; kk++)
        for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
            hpls_tridiag *T;
            hpls_vec *xt, *b;
            assert_int_equal(hpls_tridiag_gallery(kinds[kk], n, 2, &T, &xt, NULL), HPLS_OK);
            assert_int_equal(hpls_tridiag_singular_blocks(T, m, counts[c], kinds[kk], 11), HPLS_OK);
            assert_int_equal(hpls_vec_create(n, &b), HPLS_OK);
            assert_int_equal(hpls_tridiag_mv(T, xt->data, b->data), HPLS_OK);
            hpls_tridiag_opts o = {.partitions = nb, .delta = HPLS_TRIDIAG_DELTA_DEFAULT};
            hpls_tridiag_factors *F;
            assert_int_equal(hpls_tridiag_factor(T, HPLS_TRIDIAG_GSPIKE, &o, &F), HPLS_OK);
            assert_true(hpls_tridiag_factors_singular(F) >= counts[c]);
            assert_int_equal(hpls_tridiag_solve_factored(F, 1, b->data, x), HPLS_OK);
            /* the paper's goals (Tables 3 and 4); with every block singular, #18 is
             * tridiag(-1, 2 cos(pi/33), -1), whose condition (1e5) puts LAPACK's own
             * error at 8e-14: there the goal is LAPACK's error, within 2x */
            double e = ferr(n, x, xt->data), goal = kinds[kk] == 18 ? 1e-13 : 1e-9;
            if (kinds[kk] == 18 && counts[c] == nb) {
                assert_int_equal(hpls_lapack_gtsv(n, T->dl, T->d, T->du, b->data, x), HPLS_OK);
                goal = fmax(goal, 2 * ferr(n, x, xt->data));
                assert_int_equal(hpls_tridiag_solve_factored(F, 1, b->data, x), HPLS_OK);
            }
            if (!(e <= goal))
                fail_msg("kind %d, %lld singular blocks: forward error %.3e", kinds[kk],
                         (long long)counts[c], e);
            hpls_tridiag_factors_destroy(F);
            if (counts[c] > 0 && kinds[kk] == 18) { /* no repair, no refinement: it fails */
                hpls_gspike *g = NULL;
                hpls_status st = hpls_gspike_factor(n, T->dl, T->d, T->du, 2, nb, 0.0, 0, &g);
                if (st == HPLS_OK)
                    st = hpls_gspike_solve(g, b->data, x);
                assert_true(st != HPLS_OK || !(ferr(n, x, xt->data) < 1e-8));
                hpls_gspike_free(g);
            }
            hpls_tridiag_destroy(T);
            hpls_vec_destroy(xt);
            hpls_vec_destroy(b);
        }
    free(x);
}

/* Zero off-diagonal entries split T into pieces solved in dependency order;
 * a singular last block keeps its first m-1 rows. */
static void gspike_uses_reducibility_and_a_singular_last_block(void **state)
{
    (void)state;
    const hpls_int n = 3000;
    hpls_tridiag *T;
    hpls_vec *xt, *b;
    assert_int_equal(hpls_tridiag_gallery(18, n, 1, &T, &xt, NULL), HPLS_OK);
    T->du[999] = 0.0;  /* rows 1..1000 do not see the rest */
    T->dl[2000] = 0.0; /* rows 2001.. do not see rows ..2000 */
    T->dl[2500] = 0.0;
    T->du[2500] = 0.0; /* both: row 2501 is a 1 x 1 piece coupled below only */
    assert_int_equal(hpls_vec_create(n, &b), HPLS_OK);
    assert_int_equal(hpls_tridiag_mv(T, xt->data, b->data), HPLS_OK);
    hpls_real *x = malloc(n * sizeof *x);
    for (hpls_int p = 0; p <= 8; p += 4) {
        hpls_tridiag_opts o = {.partitions = p, .delta = HPLS_TRIDIAG_DELTA_DEFAULT};
        assert_int_equal(hpls_tridiag_solve(T, HPLS_TRIDIAG_GSPIKE, &o, 1, b->data, x), HPLS_OK);
        assert_true(ferr(n, x, xt->data) < 1e-14);
    }
    hpls_tridiag_destroy(T);
    hpls_vec_destroy(xt);
    hpls_vec_destroy(b);
    /* the last of 8 blocks of order 32 singular */
    assert_int_equal(hpls_tridiag_gallery(18, 256, 1, &T, &xt, NULL), HPLS_OK);
    double omega = 4.0 - 2.0 * cos(acos(-1.0) / 33.0);
    for (hpls_int i = 224; i < 256; i++)
        T->d[i] -= omega;
    assert_int_equal(hpls_vec_create(256, &b), HPLS_OK);
    assert_int_equal(hpls_tridiag_mv(T, xt->data, b->data), HPLS_OK);
    hpls_tridiag_opts o = {.partitions = 8, .delta = HPLS_TRIDIAG_DELTA_DEFAULT};
    hpls_tridiag_factors *F;
    assert_int_equal(hpls_tridiag_factor(T, HPLS_TRIDIAG_GSPIKE, &o, &F), HPLS_OK);
    assert_int_equal(hpls_tridiag_factors_singular(F), 1);
    assert_int_equal(hpls_tridiag_solve_factored(F, 1, b->data, x), HPLS_OK);
    assert_true(ferr(256, x, xt->data) < 1e-13);
    hpls_tridiag_factors_destroy(F);
    hpls_tridiag_destroy(T);
    hpls_vec_destroy(xt);
    hpls_vec_destroy(b);
    free(x);
}

static void gspike_gives_the_same_answer_for_any_thread_count(void **state)
{
    (void)state;
    const hpls_int n = 5000;
    hpls_tridiag *T;
    hpls_vec *xt, *b;
    assert_int_equal(hpls_tridiag_gallery(1, n, 4, &T, &xt, &b), HPLS_OK);
    hpls_real *x1 = malloc(n * sizeof *x1), *x2 = malloc(n * sizeof *x2);
    hpls_tridiag_opts o = {.partitions = 16, .delta = HPLS_TRIDIAG_DELTA_DEFAULT, .threads = 1};
    assert_int_equal(hpls_tridiag_solve(T, HPLS_TRIDIAG_GSPIKE, &o, 1, b->data, x1), HPLS_OK);
    o.threads = 3;
    assert_int_equal(hpls_tridiag_solve(T, HPLS_TRIDIAG_GSPIKE, &o, 1, b->data, x2), HPLS_OK);
    assert_memory_equal(x1, x2, (size_t)n * sizeof *x1);
    free(x1);
    free(x2);
    hpls_tridiag_destroy(T);
    hpls_vec_destroy(xt);
    hpls_vec_destroy(b);
}

/* A diagonally dominant T whose rows are scaled by 10^U(-150, 150) (issue 15):
 * the solution is that of the unscaled system, which thomas and cr find to
 * eps; gspike must find it for every partition count, and scaling rows by
 * powers of two must not change a bit of its answer.  Before the rows were
 * equilibrated, p = 1 and 64 refused this matrix as numerically singular,
 * and p = 0, 2, 7, 128 "repaired" blocks and returned 777 to 2981 of the 4096
 * entries wrong (forward errors 0.1 to 1e23). */
static void gspike_is_independent_of_row_scaling(void **state)
{
    (void)state;
    const hpls_int n = 4096;
    static const hpls_int parts[] = {0, 1, 2, 7, 64, 128, 300, 1024};
    hpls_tridiag *T, *T2;
    hpls_vec *xt, *b;
    assert_int_equal(hpls_tridiag_gallery(20, n, 7, &T, &xt, NULL), HPLS_OK);
    assert_int_equal(hpls_tridiag_create(n, &T2), HPLS_OK);
    assert_int_equal(hpls_vec_create(n, &b), HPLS_OK);
    hpls_real *b2 = malloc(n * sizeof *b2), *x = malloc(n * sizeof *x),
              *x2 = malloc(n * sizeof *x2);
    gen_rng r;
    gen_rng_init(&r, 15, 0);
    for (hpls_int i = 0; i < n; i++) { /* dominant by 2 at least, then scaled */
        T->d[i] = 2.0 + fabs(T->dl[i]) + fabs(T->du[i]);
        double s = pow(10.0, gen_rng_uniform(&r, -150.0, 150.0));
        T->dl[i] *= s;
        T->d[i] *= s;
        T->du[i] *= s;
        int e = (int)gen_rng_below(&r, 801) - 400; /* T2 = 2^e T, row by row */
        T2->dl[i] = ldexp(T->dl[i], e);
        T2->d[i] = ldexp(T->d[i], e);
        T2->du[i] = ldexp(T->du[i], e);
    }
    assert_int_equal(hpls_tridiag_mv(T, xt->data, b->data), HPLS_OK);
    assert_int_equal(hpls_tridiag_mv(T2, xt->data, b2), HPLS_OK);
    for (int m = 0; m < 2; m++) { /* the reference: no pivoting needed */
        assert_int_equal(hpls_tridiag_solve(T, all[m], NULL, 1, b->data, x), HPLS_OK);
        assert_true(ferr(n, x, xt->data) < 1e-14);
    }
    for (size_t k = 0; k < sizeof parts / sizeof parts[0]; k++) {
        hpls_tridiag_opts o = {.partitions = parts[k], .delta = HPLS_TRIDIAG_DELTA_DEFAULT};
        hpls_tridiag_factors *F;
        assert_int_equal(hpls_tridiag_factor(T, HPLS_TRIDIAG_GSPIKE, &o, &F), HPLS_OK);
        assert_int_equal(hpls_tridiag_factors_singular(F), 0);
        assert_int_equal(hpls_tridiag_solve_factored(F, 1, b->data, x), HPLS_OK);
        hpls_tridiag_factors_destroy(F);
        double e = ferr(n, x, xt->data);
        if (!(e < 1e-14))
            fail_msg("p %lld: forward error %.3e", (long long)parts[k], e);
        assert_int_equal(hpls_tridiag_solve(T2, HPLS_TRIDIAG_GSPIKE, &o, 1, b2, x2), HPLS_OK);
        assert_memory_equal(x, x2, (size_t)n * sizeof *x);
    }
    free(b2);
    free(x);
    free(x2);
    hpls_tridiag_destroy(T);
    hpls_tridiag_destroy(T2);
    hpls_vec_destroy(xt);
    hpls_vec_destroy(b);
}

static void batches_match_single_solves_in_both_layouts(void **state)
{
    (void)state;
    const hpls_int n = 37, batch = 70, stride = 40; /* interleaved: groups of 64 and 6 */
    hpls_real *dl = calloc((size_t)(stride * batch), sizeof *dl), *d = calloc((size_t)(stride * batch), sizeof *d);
    hpls_real *du = calloc((size_t)(stride * batch), sizeof *du), *b = calloc((size_t)(stride * batch), sizeof *b);
    hpls_real *il = malloc((size_t)(n * batch) * sizeof *il), *id = malloc((size_t)(n * batch) * sizeof *id);
    hpls_real *iu = malloc((size_t)(n * batch) * sizeof *iu), *ib = malloc((size_t)(n * batch) * sizeof *ib);
    hpls_real *ref = malloc((size_t)(n * batch) * sizeof *ref);
    for (hpls_int k = 0; k < batch; k++) {
        hpls_tridiag *T;
        hpls_vec *xt, *bb;
        assert_int_equal(hpls_tridiag_gallery(20, n, (uint64_t)k + 1, &T, &xt, &bb), HPLS_OK);
        for (hpls_int i = 0; i < n; i++) {
            dl[k * stride + i] = il[i * batch + k] = T->dl[i];
            d[k * stride + i] = id[i * batch + k] = T->d[i];
            du[k * stride + i] = iu[i * batch + k] = T->du[i];
            b[k * stride + i] = ib[i * batch + k] = bb->data[i];
            ref[k * n + i] = xt->data[i];
        }
        hpls_tridiag_destroy(T);
        hpls_vec_destroy(xt);
        hpls_vec_destroy(bb);
    }
    hpls_real *b2 = malloc((size_t)(stride * batch) * sizeof *b2);
    memcpy(b2, b, (size_t)(stride * batch) * sizeof *b2);
    assert_int_equal(hpls_tridiag_solve_batch(HPLS_TRIDIAG_THOMAS, HPLS_BATCH_STRIDED, n, batch,
                                              stride, dl, d, du, b), HPLS_OK);
    assert_int_equal(hpls_tridiag_solve_batch(HPLS_TRIDIAG_LAPACK, HPLS_BATCH_STRIDED, n, batch,
                                              stride, dl, d, du, b2), HPLS_OK);
    assert_int_equal(hpls_tridiag_solve_batch(HPLS_TRIDIAG_THOMAS, HPLS_BATCH_INTERLEAVED, n, batch,
                                              0, il, id, iu, ib), HPLS_OK);
    for (hpls_int k = 0; k < batch; k++)
        for (hpls_int i = 0; i < n; i++) {
            assert_true(fabs(b[k * stride + i] - ref[k * n + i]) < 1e-13 * (1 + fabs(ref[k * n + i])));
            assert_true(fabs(b2[k * stride + i] - ref[k * n + i]) < 1e-13 * (1 + fabs(ref[k * n + i])));
            assert_true(fabs(ib[i * batch + k] - ref[k * n + i]) < 1e-13 * (1 + fabs(ref[k * n + i])));
            /* groups of interleaved systems run each system's operations in order */
            assert_true(ib[i * batch + k] == b[k * stride + i]);
        }
    assert_int_equal(hpls_tridiag_solve_batch(HPLS_TRIDIAG_GSPIKE, HPLS_BATCH_STRIDED, n, batch,
                                              stride, dl, d, du, b), HPLS_ERR_ARG);

    /* interleaved systems 12 and 66 (0-based, one in each group) singular at rows 5
     * and 3: the first is named, the others solved as alone */
    for (hpls_int k = 0; k < batch; k++)
        for (hpls_int i = 0; i < n; i++)
            ib[i * batch + k] = b2[k * stride + i] = b[k * stride + i]; /* x as new b */
    id[4 * batch + 12] = il[4 * batch + 12] = iu[4 * batch + 12] = 0.0;
    id[2 * batch + 66] = il[2 * batch + 66] = 0.0;
    assert_int_equal(hpls_tridiag_solve_batch(HPLS_TRIDIAG_THOMAS, HPLS_BATCH_INTERLEAVED, n, batch,
                                              0, il, id, iu, ib), HPLS_ERR_SINGULAR);
    assert_non_null(strstr(hpls_last_error(), "system 13 (from 1): thomas: zero or tiny pivot in row 5"));
    for (hpls_int k = 0; k < batch; k++) {
        if (k == 12 || k == 66)
            continue;
        for (hpls_int i = 0; i < n; i++) { /* the same system, solved alone, strided */
            dl[k * stride + i] = il[i * batch + k];
            d[k * stride + i] = id[i * batch + k];
            du[k * stride + i] = iu[i * batch + k];
        }
        assert_int_equal(hpls_tridiag_solve_batch(HPLS_TRIDIAG_THOMAS, HPLS_BATCH_STRIDED, n, 1,
                                                  stride, dl + k * stride, d + k * stride,
                                                  du + k * stride, b2 + k * stride), HPLS_OK);
        for (hpls_int i = 0; i < n; i++)
            assert_true(ib[i * batch + k] == b2[k * stride + i]);
    }
    free(dl); free(d); free(du); free(b); free(b2);
    free(il); free(id); free(iu); free(ib); free(ref);

    /* Dorr at n = 8192 with b = T x* times 1e280, the second of two systems (the
     * first #20): its amplification (5e80, no pivot small) stops the sweeps
     * before they overflow, and its refined solve would overflow: the batch
     * names that system in the single system's words, as needing pivoting, in
     * both layouts, where it returned an x of Inf; lapack (dgtsv) solves it */
    const hpls_int m = 8192;
    hpls_real *T3[2][4]; /* strided dl, d, du, b; then interleaved */
    for (int l = 0; l < 2; l++)
        for (int a = 0; a < 4; a++)
            T3[l][a] = malloc((size_t)(2 * m) * sizeof(hpls_real));
    for (hpls_int k = 0; k < 2; k++) {
        hpls_tridiag *T;
        hpls_vec *xt, *bb;
        assert_int_equal(hpls_tridiag_gallery(k ? 13 : 20, m, 5, &T, &xt, &bb), HPLS_OK);
        const hpls_real *src[4] = {T->dl, T->d, T->du, bb->data};
        for (int a = 0; a < 4; a++)
            for (hpls_int i = 0; i < m; i++)
                T3[0][a][k * m + i] = T3[1][a][i * 2 + k] = src[a][i] * (a == 3 && k ? 1e280 : 1);
        hpls_tridiag_destroy(T);
        hpls_vec_destroy(xt);
        hpls_vec_destroy(bb);
    }
    hpls_real *bl = malloc((size_t)(2 * m) * sizeof *bl);
    memcpy(bl, T3[0][3], (size_t)(2 * m) * sizeof *bl);
    for (int l = 0; l < 2; l++) {
        assert_int_equal(hpls_tridiag_solve_batch(HPLS_TRIDIAG_THOMAS,
                                                  l ? HPLS_BATCH_INTERLEAVED : HPLS_BATCH_STRIDED,
                                                  m, 2, m, T3[l][0], T3[l][1], T3[l][2], T3[l][3]),
                         HPLS_ERR_SINGULAR);
        if (!strstr(hpls_last_error(), "batch: system 2 (from 1): thomas: the solve would "
                                       "overflow at row ") ||
            !strstr(hpls_last_error(), "T needs pivoting (no pivoting; try gspike or lapack)"))
            fail_msg("batched dorr * 1e280, layout %d: %s", l, hpls_last_error());
    }
    assert_int_equal(hpls_tridiag_solve_batch(HPLS_TRIDIAG_LAPACK, HPLS_BATCH_STRIDED, m, 2, m,
                                              T3[0][0], T3[0][1], T3[0][2], bl),
                     HPLS_OK);
    for (hpls_int i = 0; i < 2 * m; i++)
        assert_true(isfinite(bl[i]));
    free(bl);
    for (int l = 0; l < 2; l++)
        for (int a = 0; a < 4; a++)
            free(T3[l][a]);
}

/* The batch's thomas sweeps as they were before issue 32's refinement
 * (batched.c's operations in its order), in place: the bits a system below
 * both of refine.c's thresholds keeps. */
static void plain_sweeps(hpls_int n, const hpls_real *dl, const hpls_real *d, const hpls_real *du,
                         hpls_real *b)
{
    hpls_real *cp = malloc((size_t)n * sizeof *cp);
    double cprev = 0.0, y = 0.0;
    for (hpls_int i = 0; i < n; i++) {
        double lc = i > 0 ? dl[i] * cprev : 0.0, piv = d[i] - lc;
        y = (b[i] - (i > 0 ? dl[i] * y : 0.0)) / piv;
        b[i] = y;
        cprev = i < n - 1 ? du[i] / piv : 0.0;
        cp[i] = cprev;
    }
    for (hpls_int i = n - 2; i >= 0; i--) {
        y = b[i] - cp[i] * y;
        b[i] = y;
    }
    free(cp);
}

/* Issue 32's policy in batches of thomas, both layouts (the same bits): the
 * systems whose elimination grows (#1, #4, #11, #16 at n = 512) or whose
 * sweeps amplify rounding errors past 1/eps (#12) are solved as
 * hpls_tridiag_solve solves each alone (refined: its bits), each backward
 * error within 100x of dgtsv's; so is Dorr (#13), whose amplification is
 * 3.4e15 by thomas.c's factors but 1e19 by the batch's sweeps (its pivots,
 * divided where thomas.c multiplies by a reciprocal, drift apart by row 300:
 * the pivot recurrence amplifies too); the dominant ones (#20, #18) keep the
 * plain sweeps' bits; #14 with a diagonal of 1e-16, which needs pivoting, is
 * refused in the single system's words under its index, the others solved;
 * a b that holds NaN is named, in a system of either kind. */
static void batched_thomas_refines_and_refuses_as_one_system_does(void **state)
{
    (void)state;
    enum { NB = 10, PIV = 6 }; /* system 7 (from 1) needs pivoting */
    static const int ids[NB] = {1, 4, 11, 20, 12, 16, 14, 18, 13, 1};
    static const int kept[NB] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0}; /* the plain sweeps' bits */
    const hpls_int n = 512;
    hpls_real *S[4], *I[4]; /* dl, d, du, b: strided (stride n), interleaved */
    for (int a = 0; a < 4; a++) {
        S[a] = malloc((size_t)(n * NB) * sizeof(hpls_real));
        I[a] = malloc((size_t)(n * NB) * sizeof(hpls_real));
    }
    hpls_real *b0 = malloc((size_t)(n * NB) * sizeof *b0);
    hpls_tridiag *T[NB];
    for (hpls_int k = 0; k < NB; k++) {
        hpls_vec *xt, *bb;
        assert_int_equal(hpls_tridiag_gallery(ids[k], n, (uint64_t)k + 3, &T[k], &xt, &bb),
                         HPLS_OK);
        for (hpls_int i = 0; k == PIV && i < n; i++)
            T[k]->d[i] = 1e-16;
        const hpls_real *src[4] = {T[k]->dl, T[k]->d, T[k]->du, bb->data};
        for (int a = 0; a < 4; a++)
            for (hpls_int i = 0; i < n; i++)
                S[a][k * n + i] = I[a][i * NB + k] = src[a][i];
        hpls_vec_destroy(xt);
        hpls_vec_destroy(bb);
    }
    memcpy(b0, S[3], (size_t)(n * NB) * sizeof *b0);
    char msg[512];
    assert_int_equal(hpls_tridiag_solve_batch(HPLS_TRIDIAG_THOMAS, HPLS_BATCH_STRIDED, n, NB, n,
                                              S[0], S[1], S[2], S[3]),
                     HPLS_ERR_SINGULAR);
    snprintf(msg, sizeof msg, "%s", hpls_last_error());
    assert_int_equal(hpls_tridiag_solve_batch(HPLS_TRIDIAG_THOMAS, HPLS_BATCH_INTERLEAVED, n, NB, 0,
                                              I[0], I[1], I[2], I[3]),
                     HPLS_ERR_SINGULAR);
    assert_string_equal(hpls_last_error(), msg);
    hpls_tridiag_opts one = {.delta = HPLS_TRIDIAG_DELTA_DEFAULT, .threads = 1};
    hpls_real *x = malloc((size_t)n * sizeof *x), *xl = malloc((size_t)n * sizeof *xl);
    for (hpls_int k = 0; k < NB; k++) {
        const hpls_real *bk = b0 + k * n, *xk = S[3] + k * n;
        hpls_status st = hpls_tridiag_solve(T[k], HPLS_TRIDIAG_THOMAS, &one, 1, bk, x);
        if (k == PIV) { /* the single system's refusal, named */
            char want[600];
            snprintf(want, sizeof want, "batch: system %d (from 1): %s", PIV + 1,
                     hpls_last_error());
            assert_int_equal(st, HPLS_ERR_SINGULAR);
            assert_non_null(strstr(want, "thomas: elimination without pivoting grows by"));
            assert_string_equal(msg, want);
            continue;
        }
        assert_int_equal(st, HPLS_OK);
        for (hpls_int i = 0; i < n; i++)
            assert_true(I[3][i * NB + k] == xk[i]);
        if (kept[k]) { /* the sweeps of before: dominant, below both thresholds */
            hpls_thomas f;
            assert_int_equal(hpls_thomas_factor(n, T[k]->dl, T[k]->d, T[k]->du, &f), HPLS_OK);
            assert_true(f.growth <= 2.0 && f.amp <= 1.0);
            hpls_thomas_free(&f);
            memcpy(x, bk, (size_t)n * sizeof *x);
            plain_sweeps(n, T[k]->dl, T[k]->d, T[k]->du, x);
        }
        assert_memory_equal(xk, x, (size_t)n * sizeof *x);
        assert_int_equal(hpls_lapack_gtsv(n, T[k]->dl, T[k]->d, T[k]->du, bk, xl), HPLS_OK);
        double bt = berr(T[k], bk, xk), bl = berr(T[k], bk, xl);
        if (!(bt <= 100 * fmax(bl, DBL_EPSILON)))
            fail_msg("batched system %lld (#%d): backward error %.3e, dgtsv's %.3e",
                     (long long)k + 1, ids[k], bt, bl);
    }
    /* a NaN in b, in system 4 (#20, plain sweeps) and then in system 1 (#1,
     * refined): the first named, with its row */
    static const struct {
        hpls_int k, row;
        const char *want;
    } nan_in[] = {{3, 5, "batch: system 4 (from 1): b holds nan in row 5"},
                  {0, 300, "batch: system 1 (from 1): b holds nan in row 300"}};
    for (int c = 0; c < 2; c++) {
        b0[nan_in[c].k * n + nan_in[c].row - 1] = NAN;
        for (hpls_int k = 0; k < NB; k++)
            for (hpls_int i = 0; i < n; i++)
                S[3][k * n + i] = I[3][i * NB + k] = b0[k * n + i];
        assert_int_equal(hpls_tridiag_solve_batch(HPLS_TRIDIAG_THOMAS, HPLS_BATCH_STRIDED, n, NB, n,
                                                  S[0], S[1], S[2], S[3]),
                         HPLS_ERR_VALUE);
        assert_string_equal(hpls_last_error(), nan_in[c].want);
        assert_int_equal(hpls_tridiag_solve_batch(HPLS_TRIDIAG_THOMAS, HPLS_BATCH_INTERLEAVED, n,
                                                  NB, 0, I[0], I[1], I[2], I[3]),
                         HPLS_ERR_VALUE);
        assert_string_equal(hpls_last_error(), nan_in[c].want);
    }
    for (hpls_int k = 0; k < NB; k++)
        hpls_tridiag_destroy(T[k]);
    for (int a = 0; a < 4; a++) {
        free(S[a]);
        free(I[a]);
    }
    free(b0);
    free(x);
    free(xl);
}

/* Interleaved groups of systems (of 64, 64 and 12) whose rows stop being
 * common for every system at some row (a |dl| or |du| above the pivot: in
 * the middle, at the last row, at row 0) and are swept on from there one
 * system at a time: below both thresholds, each system keeps the plain
 * sweeps' bits, as strided, those with such a row and the others alike. */
static void batched_thomas_groups_leaving_their_common_rows_keep_the_bits(void **state)
{
    (void)state;
    const hpls_int n = 40, batch = 140;
    static const struct {
        hpls_int k, row;
        double dl, du; /* the row's new entries, 0: unchanged */
    } odd[] = {{5, 17, -8.0, 0.0},
               {6, 25, 0.0, 5.0},
               {63, 39, -8.0, 0.0},
               {100, 0, 0.0, 5.0},
               {130, 20, -8.0, 5.0}};
    hpls_real *S[4], *I[4]; /* dl, d, du, b: strided (stride n), interleaved */
    for (int a = 0; a < 4; a++) {
        S[a] = malloc((size_t)(n * batch) * sizeof(hpls_real));
        I[a] = malloc((size_t)(n * batch) * sizeof(hpls_real));
    }
    hpls_real *x = malloc((size_t)(n * batch) * sizeof *x);
    for (hpls_int k = 0; k < batch; k++) {
        hpls_tridiag *T;
        hpls_vec *xt, *bb;
        assert_int_equal(hpls_tridiag_gallery(20, n, (uint64_t)k + 7, &T, &xt, &bb), HPLS_OK);
        for (size_t o = 0; o < sizeof odd / sizeof odd[0]; o++)
            if (odd[o].k == k) {
                T->dl[odd[o].row] = odd[o].dl != 0.0 ? odd[o].dl : T->dl[odd[o].row];
                T->du[odd[o].row] = odd[o].du != 0.0 ? odd[o].du : T->du[odd[o].row];
                hpls_thomas f; /* not common, below both thresholds */
                assert_int_equal(hpls_thomas_factor(n, T->dl, T->d, T->du, &f), HPLS_OK);
                assert_true(f.amp > 1.0 && f.amp < 100.0 && f.growth < 4.0);
                hpls_thomas_free(&f);
            }
        const hpls_real *src[4] = {T->dl, T->d, T->du, bb->data};
        for (int a = 0; a < 4; a++)
            for (hpls_int i = 0; i < n; i++)
                S[a][k * n + i] = I[a][i * batch + k] = src[a][i];
        memcpy(x + k * n, bb->data, (size_t)n * sizeof *x);
        plain_sweeps(n, T->dl, T->d, T->du, x + k * n);
        hpls_tridiag_destroy(T);
        hpls_vec_destroy(xt);
        hpls_vec_destroy(bb);
    }
    assert_int_equal(hpls_tridiag_solve_batch(HPLS_TRIDIAG_THOMAS, HPLS_BATCH_STRIDED, n, batch, n,
                                              S[0], S[1], S[2], S[3]),
                     HPLS_OK);
    assert_int_equal(hpls_tridiag_solve_batch(HPLS_TRIDIAG_THOMAS, HPLS_BATCH_INTERLEAVED, n, batch,
                                              0, I[0], I[1], I[2], I[3]),
                     HPLS_OK);
    for (hpls_int k = 0; k < batch; k++)
        for (hpls_int i = 0; i < n; i++)
            if (S[3][k * n + i] != x[k * n + i] || I[3][i * batch + k] != x[k * n + i])
                fail_msg("system %lld, row %lld: strided %.17g, interleaved %.17g, plain %.17g",
                         (long long)k + 1, (long long)i + 1, S[3][k * n + i], I[3][i * batch + k],
                         x[k * n + i]);
    for (int a = 0; a < 4; a++) {
        free(S[a]);
        free(I[a]);
    }
    free(x);
}

/* T as CSR, for the solver framework */
static hpls_csr *csr_of(const hpls_tridiag *T)
{
    hpls_int n = T->n;
    hpls_csr *A;
    assert_int_equal(hpls_csr_create(n, n, 3 * n - 2, &A), HPLS_OK);
    hpls_int k = 0;
    for (hpls_int i = 0; i < n; i++) {
        A->rowptr[i] = k;
        for (hpls_int j = i - 1; j <= i + 1; j++)
            if (j >= 0 && j < n) {
                A->colind[k] = j;
                A->val[k++] = j < i ? T->dl[i] : j == i ? T->d[i] : T->du[i];
            }
    }
    A->rowptr[n] = k;
    return A;
}

/* hpls_solver with opts on A: its setup status; on HPLS_OK, x and info */
static hpls_status solver_run(const hpls_csr *A, const char *opts, const hpls_real *b, hpls_real *x,
                              hpls_info *info, char *msg, size_t msglen)
{
    hpls_solver *s;
    assert_int_equal(hpls_solver_create(&s), HPLS_OK);
    assert_int_equal(hpls_solver_set_options(s, opts), HPLS_OK);
    hpls_status st = hpls_solver_setup(s, A);
    snprintf(msg, msglen, "%s", hpls_solver_message(s));
    if (st == HPLS_OK) {
        hpls_vec bv = {A->nrows, (hpls_real *)b}, xv = {A->nrows, x};
        assert_int_equal(hpls_solver_solve(s, &bv, &xv), HPLS_OK);
        assert_int_equal(hpls_solver_get_info(s, info), HPLS_OK);
    }
    hpls_solver_destroy(s);
    return st;
}

/* Issue 32 on the g-Spike paper's collection: every method (gspike at every
 * partition count) solves every nonsingular matrix with a normwise backward
 * error within 100x of dgtsv's (of eps where dgtsv's is below it: #10's is
 * 8e-32) and a forward error within 100x where dgtsv's is below 1e-6; the
 * ill-conditioned ones (dorr, #13, among them) with info.ill_conditioned and
 * the same rcond whatever the method; one that dgtsv finds exactly singular
 * (#15 at n = 2^20) is refused as singular by every method.  thomas and cr do
 * not pivot: they refine where their growth (or thomas's amplification)
 * calls for it (refine.c; before that, backward errors up to 1e-8 on #14,
 * #16) and refuse, as needing pivoting, exactly the ids in `refused` ("id
 * method," each), never calling T singular.  ids: the ids to run (0-terminated; NULL: 1..20). */
static int collection_misses; /* the bounds missed, each printed */
static void collection_at(hpls_int n, const int *ids, const char *const *opts, size_t nopts,
                          const char *refused)
{
    hpls_real *x = malloc((size_t)n * sizeof *x), *xl = malloc((size_t)n * sizeof *xl);
    char msg[512], seen[256] = "";
    int ill = 0;
    for (int kid = 0; ids ? ids[kid] != 0 : kid < 20; kid++) {
        int id = ids ? ids[kid] : kid + 1;
        if (n > 512 && id >= 8 && id <= 11)
            continue;
        /* #12 at n = 2^20 overflows by its data: dgtsv's x is not finite, nor are
         * the sums of the methods' residuals: make check-fpe lifts its traps for
         * it only (docs/testing.md) */
        int held = n > 512 && id == 12 ? tu_fpe_hold() : 0;
        hpls_tridiag *T;
        hpls_vec *xt, *b;
        assert_int_equal(hpls_tridiag_gallery(id, n, 5, &T, &xt, &b), HPLS_OK);
        hpls_csr *A = csr_of(T);
        hpls_status sl = hpls_lapack_gtsv(n, T->dl, T->d, T->du, b->data, xl);
        assert_true(sl == HPLS_OK || sl == HPLS_ERR_SINGULAR);
        double bl = berr(T, b->data, xl), fl = ferr(n, xl, xt->data), rc = -1;
        for (size_t k = 0; k < nopts; k++) {
            hpls_info info;
            hpls_status st = solver_run(A, opts[k], b->data, x, &info, msg, sizeof msg);
            int pivots = strncmp(opts[k], "solver=gspike", 13) == 0 ||
                         strncmp(opts[k], "solver=lapack", 13) == 0;
            if (sl != HPLS_OK) {
                if (st != HPLS_ERR_SINGULAR || !strstr(msg, "is exactly zero: the matrix is singular"))
                    fail_msg("id %d n %lld %s: dgtsv says singular; status %d: %s", id,
                             (long long)n, opts[k], (int)st, msg);
                continue;
            }
            if (st != HPLS_OK) {
                if (st != HPLS_ERR_SINGULAR || pivots || !strstr(msg, "(no pivoting") ||
                    strstr(msg, "the matrix is singular"))
                    fail_msg("id %d n %lld %s: status %d: %s", id, (long long)n, opts[k], (int)st,
                             msg);
                size_t len = strlen(seen); /* "id method," */
                snprintf(seen + len, sizeof seen - len, "%d %.*s,", id,
                         (int)strcspn(opts[k] + 7, " "), opts[k] + 7);
                continue;
            }
            double bg = berr(T, b->data, x), fg = ferr(n, x, xt->data);
            /* #12 at n = 2^20: dgtsv's own x overflows (NaN): no reference */
            if (isfinite(bl) &&
                (!(bg <= 100 * fmax(bl, DBL_EPSILON)) || (fl < 1e-6 && !(fg <= 100 * fl)))) {
                print_error(
                    "id %d n %lld %s: backward error %.3e, forward %.3e; dgtsv %.3e, %.3e\n", id,
                    (long long)n, opts[k], bg, fg, bl, fl);
                collection_misses++;
            }
            if (rc < 0)
                rc = info.rcond;
            /* one estimate, from T itself: the same bits for every method */
            if (!(info.rcond > 0) || info.rcond != rc ||
                info.ill_conditioned != (info.rcond < DBL_EPSILON))
                fail_msg("id %d n %lld %s: rcond %.3e (first %.3e), ill_conditioned %d", id,
                         (long long)n, opts[k], info.rcond, rc, info.ill_conditioned);
            ill += info.ill_conditioned;
        }
        if (id == 13 && !(rc > 0 && rc < DBL_EPSILON))
            fail_msg("dorr at n %lld: rcond %.3e", (long long)n, rc);
        /* the library's own call of the test: the solvers' verdict and bits */
        double r = -1;
        hpls_status sr = hpls_tridiag_rcond(T, &r);
        if (sl != HPLS_OK ? sr != HPLS_ERR_SINGULAR : sr != HPLS_OK || (rc >= 0 && r != rc))
            fail_msg("id %d n %lld: hpls_tridiag_rcond status %d, rcond %.3e (the solvers' %.3e)",
                     id, (long long)n, (int)sr, r, rc);
        hpls_csr_destroy(A);
        hpls_tridiag_destroy(T);
        hpls_vec_destroy(xt);
        hpls_vec_destroy(b);
        tu_fpe_release(held);
    }
    if (strcmp(seen, refused) != 0)
        fail_msg("n %lld: refused as needing pivoting: \"%s\", expected \"%s\"", (long long)n, seen,
                 refused);
    assert_true(ill > 0);
    free(x);
    free(xl);
}

static void ill_conditioned_is_solved_with_a_warning_on_the_collection(void **state)
{
    (void)state;
    static const char *const opts[] = {
        "solver=lapack",           "solver=thomas",          "solver=cr",
        "solver=gspike",           "solver=gspike gspike_p=1", "solver=gspike gspike_p=2",
        "solver=gspike gspike_p=8", "solver=gspike gspike_p=64 threads=2",
        "solver=gspike gspike_p=512 threads=2"};
    /* #15's first pivot is exactly zero: no elimination without pivoting can start */
    collection_at(512, NULL, opts, sizeof opts / sizeof opts[0], "15 thomas,15 cr,");
    assert_int_equal(collection_misses, 0);
    /* 2^20 in the threads=2 run only: its numbers are the host's in every variant,
     * and each run of it costs seconds (CI's time, issue 18); thomas and cr on
     * the ids where they refine or refuse (#12: dgtsv's own x overflows) */
    const char *o = getenv("HPLS_OPTIONS");
    if ((o && strcmp(o, "threads=2") != 0) || getenv("HPLS_TEST_SMALL"))
        return; /* HPLS_TEST_SMALL: under the sanitizers (tests/CMakeLists.txt) */
    static const char *const big[] = {"solver=lapack", "solver=gspike threads=2"};
    collection_at((hpls_int)1 << 20, NULL, big, sizeof big / sizeof big[0], "");
    static const int grow[] = {1, 5, 12, 13, 14, 16, 0};
    static const char *const nopiv[] = {"solver=thomas", "solver=cr threads=2"};
    /* thomas's sweeps on #12 and #13 at 2^20 would overflow (thomas.c's amp):
     * refused, where before x came out not finite */
    collection_at((hpls_int)1 << 20, grow, nopiv, 2, "12 thomas,12 cr,13 thomas,14 thomas,14 cr,");
    assert_int_equal(collection_misses, 0);
}

/* The Neumann matrix tridiag(-1, 2, -1) with 1 at both ends (n = 1000) is
 * exactly singular (A 1 = 0): refused as "singular" at setup, before any
 * right-hand side, consistent or not, by every method at every partition and
 * thread count.  Before issue 32, gspike_p 2 or 8 "converged" on a consistent
 * b, and p = 1 said "numerically singular". */
static void the_neumann_matrix_is_singular_at_every_partition_count(void **state)
{
    (void)state;
    const hpls_int n = 1000;
    hpls_tridiag *T;
    assert_int_equal(hpls_tridiag_create(n, &T), HPLS_OK);
    for (hpls_int i = 0; i < n; i++) {
        T->dl[i] = i > 0 ? -1.0 : 0.0;
        T->du[i] = i < n - 1 ? -1.0 : 0.0;
        T->d[i] = i == 0 || i == n - 1 ? 1.0 : 2.0;
    }
    hpls_csr *A = csr_of(T);
    static const char *const opts[] = {
        "solver=lapack", "solver=thomas", "solver=cr", "solver=gspike",
        "solver=gspike gspike_p=1", "solver=gspike gspike_p=2", "solver=gspike gspike_p=8",
        "solver=gspike gspike_p=64", "solver=gspike gspike_p=512",
        "solver=gspike gspike_p=2 threads=2", "solver=gspike gspike_p=512 threads=2"};
    hpls_real *b = calloc((size_t)n, sizeof *b), *x = malloc((size_t)n * sizeof *x);
    char msg[512];
    for (size_t k = 0; k < sizeof opts / sizeof opts[0]; k++) {
        hpls_info info;
        hpls_status st = solver_run(A, opts[k], b, x, &info, msg, sizeof msg);
        if (st != HPLS_ERR_SINGULAR || !strstr(msg, "U(1000, 1000) is exactly zero: the matrix is singular"))
            fail_msg("%s: status %d: %s", opts[k], (int)st, msg);
    }
    double r = -1;
    assert_int_equal(hpls_tridiag_rcond(T, &r), HPLS_ERR_SINGULAR);
    assert_non_null(strstr(hpls_last_error(), "hpls_tridiag_rcond: U(1000, 1000) is exactly zero"));
    assert_true(r == 0.0);
    T->d[0] = 2.0; /* Dirichlet at one end: nonsingular, cond_1 about n^2 */
    assert_int_equal(hpls_tridiag_rcond(T, &r), HPLS_OK);
    assert_true(r > 1e-8 && r < 1e-5);
    T->d[7] = NAN;
    assert_int_equal(hpls_tridiag_rcond(T, &r), HPLS_ERR_VALUE);
    assert_non_null(strstr(hpls_last_error(), "row 8 holds NaN or Inf"));
    assert_int_equal(hpls_tridiag_rcond(T, NULL), HPLS_ERR_ARG);
    free(b);
    free(x);
    hpls_csr_destroy(A);
    hpls_tridiag_destroy(T);
}

/* 1/cond_1(T) exactly, from T^-1's columns (dgtsv on e_j): the oracle of
 * the dominance bound at small n. */
static double exact_rcond(const hpls_tridiag *T)
{
    hpls_int n = T->n;
    hpls_real *e = calloc((size_t)n, sizeof *e), *c = malloc((size_t)n * sizeof *c);
    double inv = 0.0, anorm = 0.0;
    for (hpls_int j = 0; j < n; j++) {
        e[j] = 1.0;
        assert_int_equal(hpls_lapack_gtsv(n, T->dl, T->d, T->du, e, c), HPLS_OK);
        e[j] = 0.0;
        double s = 0.0, a = fabs(T->d[j]);
        for (hpls_int i = 0; i < n; i++)
            s += fabs(c[i]);
        a += (j > 0 ? fabs(T->du[j - 1]) : 0.0) + (j < n - 1 ? fabs(T->dl[j + 1]) : 0.0);
        inv = fmax(inv, s);
        anorm = fmax(anorm, a);
    }
    free(e);
    free(c);
    return 1.0 / (anorm * inv);
}

/* The singularity test's fast path: a T diagonally dominant by columns with
 * a margin gets Varah's bound as rcond, never above the exact 1/cond_1 (and
 * equal to it on tridiag(-1, 4, -1)), the same bits at any thread count; a
 * T that is not (dominant by rows only, a margin below sqrt(eps), none) gets
 * dgtcon's estimate, as before. */
static void dominant_matrices_take_the_bound_without_lu(void **state)
{
    (void)state;
    const hpls_int n = 60;
    hpls_tridiag *T;
    assert_int_equal(hpls_tridiag_create(n, &T), HPLS_OK);
    unsigned seed = 7;
    /* kind 0: columns dominant, rows not; 1: rows, not columns; 2: both (-1, 4, -1);
     * 3: columns dominant by a margin of 1e-10 only; 4: neither */
    for (int kind = 0; kind < 5; kind++) {
        for (hpls_int i = 0; i < n; i++) {
            seed = seed * 1103515245u + 12345u;
            double r = (double)(seed >> 8) / (1u << 24), sgn = i % 3 ? 1.0 : -1.0;
            T->d[i] = sgn * (1.0 + r);
            T->dl[i] = i > 0 ? 0.3 : 0.0;
            T->du[i] = i < n - 1 ? -0.3 : 0.0;
        }
        for (hpls_int i = 1; i < n - 1; i++) {
            double a = fabs(T->d[i]);
            if (kind == 0) { /* column i: du[i-1] + dl[i+1] below |d_i|, row i far over */
                T->du[i - 1] = 0.05 * a;
                T->dl[i + 1] = 0.9 * a;
            } else if (kind == 1) {
                T->dl[i] = 0.9 * a;
                T->du[i] = 0.05 * a;
            } else if (kind == 2) { /* and its first and last rows, below */
                T->d[i] = 4.0;
                T->dl[i] = T->du[i] = -1.0;
            } else if (kind == 3) {
                T->du[i - 1] = 0.5 * a;
                T->dl[i + 1] = 0.5 * a - 1e-10;
            } else {
                T->dl[i] = T->du[i] = 0.7 * a;
            }
        }
        if (kind == 2) {
            T->d[0] = T->d[n - 1] = 4.0;
            T->du[0] = T->dl[n - 1] = -1.0;
        }
        double cgap = INFINITY, cn = 0.0;
        for (hpls_int j = 0; j < n; j++) {
            double a = fabs(T->d[j]), up = j > 0 ? fabs(T->du[j - 1]) : 0.0;
            double lo = j < n - 1 ? fabs(T->dl[j + 1]) : 0.0;
            cgap = fmin(cgap, a - up - lo);
            cn = fmax(cn, a + up + lo);
        }
        double bound = cgap > 0 ? cgap / cn : 0.0;
        hpls_lapack_gt f;
        double lapack = -1, r = -1, exact = exact_rcond(T);
        assert_int_equal(hpls_lapack_gt_factor(n, T->dl, T->d, T->du, &f), HPLS_OK);
        assert_int_equal(hpls_lapack_gt_rcond(&f, &lapack), HPLS_OK);
        hpls_lapack_gt_free(&f);
        assert_int_equal(hpls_tridiag_rcond(T, &r), HPLS_OK);
        if (kind == 0 || kind == 2) {
            if (!(bound >= HPLS_TRIDIAG_DOMINANT_RCOND && r == bound && r <= exact) ||
                (kind == 2 && !(r >= exact * (1 - 1e-12))))
                fail_msg("kind %d: rcond %.17g, bound %.17g, exact %.17g", kind, r, bound, exact);
        } else if (r != lapack || !(bound < HPLS_TRIDIAG_DOMINANT_RCOND)) {
            fail_msg("kind %d: rcond %.17g, dgtcon %.17g, bound %.17g", kind, r, lapack, bound);
        }
    }
    hpls_tridiag_destroy(T);
    /* across threads: past the serial cut (1e5 rows), min / max are exact */
    const hpls_int big = 300001;
    assert_int_equal(hpls_tridiag_create(big, &T), HPLS_OK);
    for (hpls_int i = 0; i < big; i++) {
        T->d[i] = 3.0 + (double)(i % 97) / 97.0;
        T->dl[i] = i > 0 ? -1.0 - (double)(i % 13) / 13.0 : 0.0;
        T->du[i] = i < big - 1 ? 0.5 : 0.0;
    }
    double r1 = -1, r;
    assert_int_equal(hpls_tridiag_condition(T, "t", 1, &r1), HPLS_OK);
    assert_true(r1 >= HPLS_TRIDIAG_DOMINANT_RCOND);
    for (int nt = 2; nt <= 3; nt++) {
        assert_int_equal(hpls_tridiag_condition(T, "t", nt, &r), HPLS_OK);
        if (r != r1)
            fail_msg("%d threads: %.17g, 1 thread %.17g", nt, r, r1);
    }
    T->d[big / 2] = NAN; /* not finite: no bound, LU decides (after the callers' check) */
    hpls_tridiag_dom dom;
    hpls_tridiag_dominance_rows(big, T->dl, T->d, T->du, &(hpls_tridiag_dom_edge){0}, 2, &dom);
    assert_true(hpls_tridiag_dominance_bound(&dom, big) == 0.0);
    hpls_tridiag_destroy(T);
}

static void the_solver_framework_runs_the_direct_methods(void **state)
{
    (void)state;
    hpls_csr *A;
    hpls_vec *b;
    assert_int_equal(hpls_gen_csr("tridiag:id=1,n=3000", &A, &b), HPLS_OK);
    static const char *const names[] = {"solver=gspike", "solver=lapack"};
    for (int k = 0; k < 2; k++) {
        hpls_solver *s;
        hpls_vec *x;
        assert_int_equal(hpls_solver_create(&s), HPLS_OK);
        assert_int_equal(hpls_solver_set_options(s, names[k]), HPLS_OK);
        assert_int_equal(hpls_solver_setup(s, A), HPLS_OK);
        assert_int_equal(hpls_vec_create(A->nrows, &x), HPLS_OK);
        assert_int_equal(hpls_solver_solve(s, b, x), HPLS_OK);
        hpls_info info;
        assert_int_equal(hpls_solver_get_info(s, &info), HPLS_OK);
        assert_true(hpls_reason_converged(info.reason));
        assert_int_equal(info.iterations, 0);
        assert_true(info.relres < 1e-12);
        hpls_vec_destroy(x);
        hpls_solver_destroy(s);
    }
    hpls_csr_destroy(A);
    hpls_vec_destroy(b);
    /* not tridiagonal: the first entry outside the band is named */
    assert_int_equal(hpls_gen_csr("poisson2d:nx=4", &A, NULL), HPLS_OK);
    hpls_solver *s;
    assert_int_equal(hpls_solver_create(&s), HPLS_OK);
    assert_int_equal(hpls_solver_set_option(s, "solver=thomas"), HPLS_OK);
    assert_int_equal(hpls_solver_setup(s, A), HPLS_ERR_SIZE);
    assert_non_null(strstr(hpls_solver_message(s),
                           "entry (1, 5) lies outside the tridiagonal band: thomas needs a tridiagonal matrix"));
    /* a zero pivot fails setup with its row */
    hpls_csr_destroy(A);
    assert_int_equal(hpls_gen_csr("tridiag:id=15,n=50", &A, NULL), HPLS_OK);
    assert_int_equal(hpls_solver_setup(s, A), HPLS_ERR_SINGULAR);
    assert_non_null(strstr(hpls_solver_message(s), "row 1 "));
    hpls_solver_destroy(s);
    hpls_csr_destroy(A);
}

static void gallery_matches_the_published_definitions(void **state)
{
    (void)state;
    hpls_tridiag *T;
    assert_int_equal(hpls_tridiag_gallery(3, 6, 1, &T, NULL, NULL), HPLS_OK); /* lesp */
    assert_true(T->dl[1] == 2.0 && T->d[0] == -5.0 && T->d[5] == -15.0 && T->du[0] == 0.5);
    hpls_tridiag_destroy(T);
    assert_int_equal(hpls_tridiag_gallery(7, 5, 1, &T, NULL, NULL), HPLS_OK); /* inv(kms(0.5)) */
    assert_true(fabs(T->d[0] - 4.0 / 3) < 1e-15 && fabs(T->d[2] - 5.0 / 3) < 1e-15 &&
                fabs(T->du[1] + 2.0 / 3) < 1e-15);
    hpls_tridiag_destroy(T);
    assert_int_equal(hpls_tridiag_gallery(13, 4, 1, &T, NULL, NULL), HPLS_OK); /* dorr */
    for (hpls_int i = 1; i < 3; i++) /* diagonally dominant: d = -(c + e) */
        assert_true(fabs(T->d[i] + T->dl[i] + T->du[i]) < 1e-9 * fabs(T->d[i]));
    hpls_tridiag_destroy(T);
    /* randsvd keeps the singular values: ||T||_F^2 = sum sigma^2 (mode 2: n-1+1e-30) */
    assert_int_equal(hpls_tridiag_gallery(8, 40, 1, &T, NULL, NULL), HPLS_OK);
    double f = 0.0;
    for (hpls_int i = 0; i < 40; i++)
        f += T->d[i] * T->d[i] + (i > 0 ? T->dl[i] * T->dl[i] : 0) + (i < 39 ? T->du[i] * T->du[i] : 0);
    assert_true(fabs(f - 39.0) < 1e-12);
    hpls_tridiag_destroy(T);
    assert_int_equal(hpls_tridiag_gallery(21, 10, 1, &T, NULL, NULL), HPLS_ERR_UNSUPPORTED);
    /* the generator gives the same rows */
    hpls_csr *A;
    assert_int_equal(hpls_gen_csr("tridiag:id=20,n=9,seed=4", &A, NULL), HPLS_OK);
    assert_int_equal(hpls_tridiag_from_csr(A, &T), HPLS_OK);
    hpls_tridiag *G;
    assert_int_equal(hpls_tridiag_gallery(20, 9, 4, &G, NULL, NULL), HPLS_OK);
    assert_memory_equal(T->du, G->du, 9 * sizeof *T->du);
    assert_memory_equal(T->d, G->d, 9 * sizeof *T->d);
    hpls_tridiag_destroy(T);
    hpls_tridiag_destroy(G);
    hpls_csr_destroy(A);
    assert_int_equal(hpls_gen_csr("tridiag:id=9,n=9", &A, NULL), HPLS_ERR_OPTION);
    assert_int_equal(hpls_gen_csr("tridiag:id=1,dom=3", &A, NULL), HPLS_ERR_OPTION);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_method_solves_well_conditioned_gallery_matrices_of_any_order),
        cmocka_unit_test(gspike_is_backward_stable_like_lapack_on_the_collection),
        cmocka_unit_test(factor_once_solves_many_right_hand_sides),
        cmocka_unit_test(zero_pivots_are_errors_naming_the_row),
        cmocka_unit_test(thomas_refuses_what_its_sweeps_would_overflow),
        cmocka_unit_test(gspike_repairs_singular_blocks),
        cmocka_unit_test(gspike_uses_reducibility_and_a_singular_last_block),
        cmocka_unit_test(gspike_gives_the_same_answer_for_any_thread_count),
        cmocka_unit_test(gspike_is_independent_of_row_scaling),
        cmocka_unit_test(batches_match_single_solves_in_both_layouts),
        cmocka_unit_test(batched_thomas_refines_and_refuses_as_one_system_does),
        cmocka_unit_test(batched_thomas_groups_leaving_their_common_rows_keep_the_bits),
        cmocka_unit_test(ill_conditioned_is_solved_with_a_warning_on_the_collection),
        cmocka_unit_test(the_neumann_matrix_is_singular_at_every_partition_count),
        cmocka_unit_test(dominant_matrices_take_the_bound_without_lu),
        cmocka_unit_test(the_solver_framework_runs_the_direct_methods),
        cmocka_unit_test(gallery_matches_the_published_definitions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
