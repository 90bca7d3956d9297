/* SPDX-License-Identifier: BSD-3-Clause */
/* test_pjg.c: PJG (Ahmadi et al. 2021) against its ends (psize 1 = Gauss-Seidel,
 * psize n = Jacobi), the paper's 4x4 example (Eq. 18), dense vs CSR, general
 * partitions, and PJG as a preconditioner. */
#include "testutil.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Solves with options (CSR A, or dense Ad when A is NULL); x out, info returned. */
static hpls_info solve(const hpls_csr *A, const hpls_dense *Ad, const char *options,
                       const hpls_vec *b, hpls_vec *x)
{
    hpls_solver *s;
    hpls_info info;
    assert_int_equal(hpls_solver_create(&s), HPLS_OK);
    assert_int_equal(hpls_solver_set_options(s, options), HPLS_OK);
    hpls_status st = A ? hpls_solver_setup(s, A) : hpls_solver_setup_dense(s, Ad);
    if (st != HPLS_OK)
        fail_msg("%s: %s", options, hpls_solver_message(s));
    assert_int_equal(hpls_solver_solve(s, b, x), HPLS_OK);
    hpls_solver_get_info(s, &info);
    hpls_solver_destroy(s);
    return info;
}

/* As solve from x0 = 0, with a user partition (nb blocks, ptr/idx) when nb > 0;
 * the residual history's relres is copied into hist (up to cap entries) when
 * hist is given. */
static hpls_info solve_part(const hpls_csr *A, const hpls_dense *Ad, const char *options,
                            hpls_int nb, const hpls_int *ptr, const hpls_int *idx,
                            const hpls_vec *b, hpls_vec *x, double *hist, hpls_int cap)
{
    hpls_solver *s;
    hpls_info info;
    assert_int_equal(hpls_solver_create(&s), HPLS_OK);
    assert_int_equal(hpls_solver_set_options(s, options), HPLS_OK);
    if (nb > 0)
        assert_int_equal(hpls_solver_set_partition(s, nb, ptr, idx), HPLS_OK);
    assert_int_equal(A ? hpls_solver_setup(s, A) : hpls_solver_setup_dense(s, Ad), HPLS_OK);
    memset(x->data, 0, (size_t)x->n * sizeof(double));
    assert_int_equal(hpls_solver_solve(s, b, x), HPLS_OK);
    hpls_solver_get_info(s, &info);
    if (hist) {
        hpls_int count;
        const hpls_int *its;
        const double *rel, *sec;
        assert_int_equal(hpls_solver_history(s, &count, &its, &rel, &sec), HPLS_OK);
        assert_int_equal(count, info.iterations + 1);
        for (hpls_int k = 0; k < count && k < cap; k++) {
            assert_int_equal(its[k], k);
            hist[k] = rel[k];
        }
    }
    hpls_solver_destroy(s);
    return info;
}

static void psize_one_is_gauss_seidel_and_psize_n_is_jacobi(void **state)
{
    (void)state;
    const char *const specs[] = {"gas:n=3000,k=2", "convdiff3d:nx=10,pe=5", "poisson2d:nx=20"};
    for (int m = 0; m < 3; m++) {
        hpls_csr *A = tu_gen(specs[m]);
        hpls_int n = A->nrows;
        hpls_vec *b = tu_vec_random(n, 3), *x1, *x2;
        hpls_vec_create(n, &x1);
        hpls_vec_create(n, &x2);
        hpls_info g = solve(A, NULL, "solver=gs maxiter=3000", b, x1);
        hpls_info p = solve(A, NULL, "solver=pjg psize=1 maxiter=3000", b, x2);
        assert_true(hpls_reason_converged(g.reason));
        assert_int_equal(g.iterations, p.iterations); /* the same iterates, bit for bit */
        assert_memory_equal(x1->data, x2->data, (size_t)n * sizeof(double));
        char opts[96];
        for (hpls_int k = 1; k <= 5; k += 2) { /* Jacobi's iterates, to rounding */
            snprintf(opts, sizeof opts, "solver=pjg psize=%lld tol=0 maxiter=%lld", (long long)n,
                     (long long)k);
            solve(A, NULL, opts, b, x2);
            snprintf(opts, sizeof opts, "solver=jacobi tol=0 maxiter=%lld", (long long)k);
            solve(A, NULL, opts, b, x1);
            assert_true(tu_relerr(x2, x1) < 1e-12);
        }
        hpls_vec_destroy(b);
        hpls_vec_destroy(x1);
        hpls_vec_destroy(x2);
        hpls_csr_destroy(A);
    }
}

/* The paper's Eq. 18: every contiguous psize converges; the ends count as GS and Jacobi;
 * so does every ordered partition into blocks (its "decompositions of the identity"). */
static void paper_example_converges_for_every_partition(void **state)
{
    (void)state;
    const double a[4][4] = {{9, 2, 1, 5}, {5, 14, 1, 7}, {4, 8, 15, 2}, {3, 4, 5, 13}};
    hpls_dense *Ad;
    assert_int_equal(hpls_dense_create(4, 4, &Ad), HPLS_OK);
    memcpy(Ad->data, a, sizeof a);
    hpls_vec *b = tu_vec_const(4, 1.0), *x;
    hpls_vec_create(4, &x);
    hpls_info gs = solve(NULL, Ad, "solver=pjg psize=1 tol=1e-10", b, x);
    hpls_info jac = solve(NULL, Ad, "solver=jacobi tol=1e-10", b, x);
    assert_true(jac.iterations > 2 * gs.iterations); /* Fig. 1: Jacobi is the slow end */
    for (int psize = 1; psize <= 4; psize++) {
        char opts[64];
        snprintf(opts, sizeof opts, "solver=pjg psize=%d tol=1e-10", psize);
        hpls_info info = solve(NULL, Ad, opts, b, x);
        assert_true(hpls_reason_converged(info.reason));
        if (psize == 1)
            assert_int_equal(info.iterations, gs.iterations);
        if (psize == 4)
            assert_true(llabs((long long)(info.iterations - jac.iterations)) <= 1);
    }
    /* all 4! orders of singletons, and every split of each order into two blocks */
    int perm[4] = {0, 1, 2, 3}, count = 0;
    for (int c = 0; c < 24; c++) {
        int pool[4] = {0, 1, 2, 3}, k = c;
        for (int i = 0; i < 4; i++) { /* the c-th permutation */
            int f = i == 0 ? 6 : i == 1 ? 2 : 1, pick = i < 3 ? k / f : 0, used = 0;
            k = i < 3 ? k % f : 0;
            for (int j = 0; j < 4; j++)
                if (pool[j] >= 0 && used++ == pick) {
                    perm[i] = pool[j];
                    pool[j] = -1;
                    break;
                }
        }
        for (int cut = 0; cut <= 4; cut++) {
            hpls_int ptr[5], idx[4], nb = 0;
            ptr[0] = 0;
            for (int i = 0; i < 4; i++) {
                idx[i] = perm[i];
                if (cut == 0 || i + 1 == cut || i == 3) /* singletons, or two blocks */
                    ptr[++nb] = i + 1;
            }
            hpls_solver *s;
            hpls_solver_create(&s);
            hpls_solver_set_options(s, "solver=pjg tol=1e-10 maxiter=500");
            assert_int_equal(hpls_solver_set_partition(s, nb, ptr, idx), HPLS_OK);
            assert_int_equal(hpls_solver_setup_dense(s, Ad), HPLS_OK);
            assert_int_equal(hpls_solver_solve(s, b, x), HPLS_OK);
            hpls_info info;
            hpls_solver_get_info(s, &info);
            assert_true(hpls_reason_converged(info.reason));
            assert_true(info.iterations <= jac.iterations + 1);
            count++;
            hpls_solver_destroy(s);
        }
    }
    assert_int_equal(count, 120);
    hpls_vec_destroy(b);
    hpls_vec_destroy(x);
    hpls_dense_destroy(Ad);
}

/* The dense rows sum in eight interleaved partial sums (vectorised), CSR rows in
 * column order: the same iterates to rounding. */
static void dense_and_csr_give_the_same_iterates(void **state)
{
    (void)state;
    hpls_dense *Ad;
    hpls_csr *A;
    assert_int_equal(hpls_gen_dense("dense-dd:n=300,seed=4", &Ad, NULL), HPLS_OK);
    assert_int_equal(hpls_gen_csr("dense-dd:n=300,seed=4", &A, NULL), HPLS_OK);
    hpls_vec *b = tu_vec_random(300, 1), *x1, *x2;
    hpls_vec_create(300, &x1);
    hpls_vec_create(300, &x2);
    const char *const opts[] = {"solver=pjg psize=1 tol=0 maxiter=20",
                                "solver=pjg psize=37 tol=0 maxiter=20",
                                "solver=pjg psize=300 tol=0 maxiter=20"};
    for (int k = 0; k < 3; k++) {
        hpls_info i1 = solve(A, NULL, opts[k], b, x1), i2 = solve(NULL, Ad, opts[k], b, x2);
        assert_int_equal(i1.iterations, i2.iterations);
        assert_true(tu_relerr(x1, x2) < 1e-13);
        assert_true(fabs(i1.relres - i2.relres) <= 1e-6 * i1.relres + 1e-13);
    }
    hpls_vec_destroy(b);
    hpls_vec_destroy(x1);
    hpls_vec_destroy(x2);
    hpls_csr_destroy(A);
    hpls_dense_destroy(Ad);
}

/* The residual that decides convergence comes from the next sweep (one pass over
 * A): it must equal b - A x^k of the iterate x^k reported, for contiguous blocks
 * and for a general partition, on CSR and dense; and the solve must stop at the
 * first iterate that passes, returning that iterate. */
static void the_residual_tested_is_that_of_the_returned_iterate(void **state)
{
    (void)state;
    enum { K = 8, N = 240 };
    hpls_csr *G = tu_gen("gas:n=240,k=3"), *D = tu_gen("dense-dd:n=240,seed=3");
    hpls_dense *Dd;
    assert_int_equal(hpls_gen_dense("dense-dd:n=240,seed=3", &Dd, NULL), HPLS_OK);
    hpls_int ptr[4] = {0, 80, 160, 240}, idx[N]; /* three interleaved blocks, last first */
    for (hpls_int q = 0; q < N; q++)
        idx[q] = 3 * (q % 80) + 2 - q / 80;
    hpls_vec *b = tu_vec_random(N, 5), *x;
    hpls_vec_create(N, &x);
    const char *const opts[] = {"solver=pjg psize=1", "solver=pjg psize=7", "solver=pjg psize=240",
                                "solver=pjg"};
    for (int m = 0; m < 3; m++) { /* gas CSR, dense-dd CSR, dense-dd dense */
        const hpls_csr *A = m == 0 ? G : D, *Ac = m == 2 ? NULL : A;
        const hpls_dense *Ad = m == 2 ? Dd : NULL;
        for (int o = 0; o < 4; o++) {
            hpls_int nb = o == 3 ? 3 : 0;
            char buf[96];
            double hist[K + 1];
            snprintf(buf, sizeof buf, "%s tol=0 maxiter=%d", opts[o], K);
            solve_part(Ac, Ad, buf, nb, ptr, idx, b, x, hist, K + 1);
            assert_true(fabs(hist[0] - 1.0) < 1e-14); /* x0 = 0 */
            for (int k = 1; k <= K; k++) {
                snprintf(buf, sizeof buf, "%s tol=0 maxiter=%d", opts[o], k);
                hpls_info info = solve_part(Ac, Ad, buf, nb, ptr, idx, b, x, NULL, 0);
                assert_int_equal(info.iterations, k);
                double t = tu_relres(A, b, x);
                if (!(fabs(hist[k] - t) <= 1e-9 * t + 1e-14))
                    fail_msg("matrix %d, %s, k = %d: tested %.17g, b - A x^k %.17g", m, opts[o], k,
                             hist[k], t);
            }
            snprintf(buf, sizeof buf, "%s tol=1e-6 maxiter=500", opts[o]);
            hpls_info info = solve_part(Ac, Ad, buf, nb, ptr, idx, b, x, NULL, 0);
            assert_true(hpls_reason_converged(info.reason) && info.iterations > 1);
            assert_true(tu_relres(A, b, x) <= 1e-6);
            snprintf(buf, sizeof buf, "%s tol=0 maxiter=%lld", opts[o],
                     (long long)info.iterations - 1);
            solve_part(Ac, Ad, buf, nb, ptr, idx, b, x, NULL, 0);
            assert_true(tu_relres(A, b, x) > 1e-6);
        }
    }
    hpls_vec_destroy(b);
    hpls_vec_destroy(x);
    hpls_csr_destroy(G);
    hpls_csr_destroy(D);
    hpls_dense_destroy(Dd);
}

static void results_do_not_depend_on_the_thread_count(void **state)
{
    (void)state;
    hpls_csr *A = tu_gen("gas:n=200000,k=2");
    hpls_vec *b = tu_vec_random(A->nrows, 9), *x1, *x2;
    hpls_vec_create(A->nrows, &x1);
    hpls_vec_create(A->nrows, &x2);
    omp_set_num_threads(1);
    hpls_info i1 = solve(A, NULL, "solver=pjg psize=50000", b, x1);
    omp_set_num_threads(2);
    hpls_info i2 = solve(A, NULL, "solver=pjg psize=50000", b, x2);
    assert_true(hpls_reason_converged(i1.reason));
    assert_int_equal(i1.iterations, i2.iterations);
    assert_memory_equal(x1->data, x2->data, (size_t)A->nrows * sizeof(double));
    hpls_vec_destroy(b);
    hpls_vec_destroy(x1);
    hpls_vec_destroy(x2);
    hpls_csr_destroy(A);
}

static void pjg_solves_and_preconditions(void **state)
{
    (void)state;
    const char *const specs[] = {"gas:n=20000,k=1", "gas:n=20000,k=3", "convdiff3d:nx=15,pe=20"};
    for (int m = 0; m < 3; m++) {
        hpls_csr *A = tu_gen(specs[m]);
        hpls_vec *xt = tu_vec_random(A->nrows, 2), *b = tu_rhs(A, xt), *x;
        hpls_vec_create(A->nrows, &x);
        hpls_info p = solve(A, NULL, "solver=pjg", b, x);
        assert_true(hpls_reason_converged(p.reason) && tu_relres(A, b, x) <= 1e-8);
        assert_true(tu_relerr(x, xt) < 1e-5);
        hpls_info none = solve(A, NULL, "solver=gmres", b, x);
        hpls_info pc = solve(A, NULL, "solver=gmres precond=pjg sweeps=2", b, x);
        assert_true(hpls_reason_converged(pc.reason) && tu_relres(A, b, x) <= 1e-8);
        assert_true(pc.iterations < none.iterations);
        hpls_info bs = solve(A, NULL, "solver=bicgstab precond=pjg psize=1000", b, x);
        assert_true(hpls_reason_converged(bs.reason) && tu_relres(A, b, x) <= 1e-8);
        hpls_vec_destroy(xt);
        hpls_vec_destroy(b);
        hpls_vec_destroy(x);
        hpls_csr_destroy(A);
    }
}

static void bad_partitions_are_reported(void **state)
{
    (void)state;
    hpls_csr *A = tu_gen("gas:n=10");
    hpls_solver *s;
    hpls_solver_create(&s);
    hpls_solver_set_options(s, "solver=pjg");
    hpls_int ptr[] = {0, 5, 10}, dup[] = {0, 1, 2, 3, 4, 4, 5, 6, 7, 8};
    assert_int_equal(hpls_solver_set_partition(s, 2, ptr, dup), HPLS_OK);
    assert_int_equal(hpls_solver_setup(s, A), HPLS_ERR_ARG);
    assert_non_null(strstr(hpls_solver_message(s), "in two blocks"));
    hpls_int short_ptr[] = {0, 5, 9};
    assert_int_equal(hpls_solver_set_partition(s, 2, short_ptr, dup), HPLS_OK);
    assert_int_equal(hpls_solver_setup(s, A), HPLS_ERR_SIZE);
    hpls_int bad_ptr[] = {0, 6, 5};
    assert_int_equal(hpls_solver_set_partition(s, 2, bad_ptr, dup), HPLS_ERR_ARG);
    assert_int_equal(hpls_solver_set_partition(s, 0, NULL, NULL), HPLS_OK);
    assert_int_equal(hpls_solver_setup(s, A), HPLS_OK);
    /* dense input takes only the methods that can run on it */
    hpls_dense *Ad;
    hpls_dense_create(3, 3, &Ad);
    assert_int_equal(hpls_solver_set_options(s, "solver=bicg"), HPLS_OK); /* needs A^T */
    assert_int_equal(hpls_solver_setup_dense(s, Ad), HPLS_ERR_OPTION);
    hpls_dense_destroy(Ad);
    hpls_solver_destroy(s);
    hpls_csr_destroy(A);
}

static void allocation_failures_leave_no_leak(void **state)
{
    (void)state;
    hpls_csr *A = tu_gen("gas:n=300,k=2");
    hpls_vec *b = tu_vec_const(A->nrows, 1.0), *x = tu_vec_const(A->nrows, 0.0);
    const char *const methods[] = {"solver=pjg psize=7", "solver=gmres precond=pjg"};
    for (int m = 0; m < 2; m++) {
        tu_solve_under_alloc_failures(A, b, x, methods[m]);
    }
    hpls_vec_destroy(b);
    hpls_vec_destroy(x);
    hpls_csr_destroy(A);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(psize_one_is_gauss_seidel_and_psize_n_is_jacobi),
        cmocka_unit_test(paper_example_converges_for_every_partition),
        cmocka_unit_test(dense_and_csr_give_the_same_iterates),
        cmocka_unit_test(the_residual_tested_is_that_of_the_returned_iterate),
        cmocka_unit_test(results_do_not_depend_on_the_thread_count),
        cmocka_unit_test(pjg_solves_and_preconditions),
        cmocka_unit_test(bad_partitions_are_reported),
        cmocka_unit_test(allocation_failures_leave_no_leak),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
