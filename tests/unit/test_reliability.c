/* SPDX-License-Identifier: BSD-3-Clause */
/* test_reliability.c: promises every registered method and preconditioner keeps
 * (issue 9): an allocation failure anywhere in create/setup/solve returns
 * HPLS_ERR_NOMEM, frees what it took (ASan) and leaves the caller's A, b and x as
 * they were; the same run twice gives bit-identical x for a fixed thread count;
 * 1, 2 and 4 threads give the same x to the solve's tolerance. */
#include "testutil.h"

#include <omp.h>
#include <stdio.h>
#include <string.h>

#include "solver.h"

/* Calls fn with the option string of every method x preconditioner x strategy
 * combination (all = 1), or of every method once and every preconditioner and
 * strategy once, inside bicgstab (all = 0).  Combinations the library refuses at
 * setup (pjg inside bicg, ...) are skipped by fn; the count of those that ran is
 * checked.  Returns the number of combinations. */
typedef void (*combo_fn)(const char *opts, void *ctx);

static int for_each_combination(combo_fn fn, void *ctx, int direct_only, int all)
{
    static const char *const pc_variants[] = {"", " trisolve=serial", " trisolve=levels",
                                              " trisolve=syncfree", " trisolve=auto"};
    int ran = 0;
    for (int m = 0; m < hpls_nmethods; m++) {
        const hpls_method *me = &hpls_methods[m];
        int with_pc = (me->flags & HPLS_M_PRECOND) && (all || !strcmp(me->name, "bicgstab"));
        if (direct_only != !!(me->flags & HPLS_M_DIRECT))
            continue;
        for (int p = 0; p < (with_pc ? hpls_npc_types : 1); p++) {
            int tri = with_pc && (hpls_pc_types[p].flags & HPLS_M_TRISOLVE);
            for (int v = tri ? 1 : 0; v < (tri ? 5 : 1); v++) {
                /* psize fixed: its default depends on the thread count */
                unsigned flags = me->flags | (with_pc ? hpls_pc_types[p].flags : 0);
                char opts[160];
                snprintf(opts, sizeof opts, "solver=%s%s%s%s%s", me->name,
                         with_pc ? " precond=" : "", with_pc ? hpls_pc_types[p].name : "",
                         pc_variants[v], flags & HPLS_M_PSIZE ? " psize=64" : "");
                fn(opts, ctx);
                ran++;
            }
        }
    }
    return ran;
}

/* Setup status of opts on A without injected failures (the combination may be
 * refused: a preconditioner that does not fit the method). */
static hpls_status clean_setup(const hpls_csr *A, const char *opts)
{
    hpls_solver *s = NULL;
    hpls_status st = hpls_solver_create(&s);
    if (st == HPLS_OK)
        st = hpls_solver_set_options(s, opts);
    if (st == HPLS_OK)
        st = hpls_solver_setup(s, A);
    hpls_solver_destroy(s);
    return st;
}

typedef struct problem {
    const hpls_csr *A;
    const hpls_vec *b;
    hpls_vec *x;
    int accepted, converged;
} problem;

static void sweep_one(const char *opts, void *ctx)
{
    problem *pr = ctx;
    const hpls_csr *A = pr->A;
    if (clean_setup(A, opts) != HPLS_OK)
        return;
    pr->accepted++;
    char full[240];
    snprintf(full, sizeof full, "%s maxiter=40 initial_guess=given", opts);
    for (hpls_int i = 0; i < A->nrows; i++)
        pr->x->data[i] = 0.25;
    tu_solve_under_alloc_failures(A, pr->b, pr->x, full);
}

static void run_sweeps(const char *spec, int direct)
{
    hpls_csr *A = tu_gen(spec);
    hpls_vec *xt = tu_vec_random(A->nrows, 9), *b = tu_rhs(A, xt), *x;
    hpls_vec_create(A->nrows, &x);
    problem pr = {A, b, x, 0, 0};
    int ran = for_each_combination(sweep_one, &pr, direct, 1);
    /* most combinations must have run: a setup that refuses everything would pass */
    assert_true(pr.accepted >= (direct ? 4 : 3 * ran / 4));
    hpls_vec_destroy(xt);
    hpls_vec_destroy(b);
    hpls_vec_destroy(x);
    hpls_csr_destroy(A);
}

/* SPD, diagonally dominant and not tridiagonal (every iterative method and
 * preconditioner accepts it); the direct methods get a tridiagonal one. */
static void allocation_failures_in_every_method(void **state)
{
    (void)state;
    run_sweeps("poisson2d:nx=10", 0);
    run_sweeps("tridiag:type=toeplitz,n=300", 1);
}

/* x of a solve with the thread count fixed by the `threads` option; 1 when it
 * converged. */
static int solve_with(const hpls_csr *A, const hpls_vec *b, const char *opts, int threads,
                       hpls_vec *x)
{
    hpls_solver *s;
    char full[240];
    snprintf(full, sizeof full, "%s threads=%d maxiter=200 tol=1e-10", opts, threads);
    assert_int_equal(hpls_solver_create(&s), HPLS_OK);
    assert_int_equal(hpls_solver_set_options(s, full), HPLS_OK);
    if (hpls_solver_setup(s, A) != HPLS_OK || hpls_solver_solve(s, b, x) != HPLS_OK)
        fail_msg("%s: %s", full, hpls_solver_message(s));
    hpls_info info;
    hpls_solver_get_info(s, &info);
    hpls_solver_destroy(s);
    return hpls_reason_converged(info.reason);
}

static void determinism_one(const char *opts, void *ctx)
{
    problem *pr = ctx;
    const hpls_csr *A = pr->A;
    if (clean_setup(A, opts) != HPLS_OK)
        return;
    pr->accepted++;
    size_t n = (size_t)A->nrows;
    hpls_vec *x[3], *again;
    hpls_vec_create(A->nrows, &again);
    const int threads[3] = {1, 2, 4};
    int converged = 1;
    for (int t = 0; t < 3; t++) {
        hpls_vec_create(A->nrows, &x[t]);
        converged &= solve_with(A, pr->b, opts, threads[t], x[t]);
        solve_with(A, pr->b, opts, threads[t], again);
        if (memcmp(x[t]->data, again->data, n * sizeof(double)))
            fail_msg("%s: two runs with %d threads differ", opts, threads[t]);
    }
    /* converged to 1e-10 on a well-conditioned A, the thread counts' x (which
     * differ by rounding in the reductions) agree far better than 1e-7 */
    pr->converged += converged;
    for (int t = 1; t < 3 && converged; t++)
        if (tu_relerr(x[t], x[0]) > 1e-7)
            fail_msg("%s: %d threads vs 1 differ by %.2e", opts, threads[t], tu_relerr(x[t], x[0]));
    for (int t = 0; t < 3; t++)
        hpls_vec_destroy(x[t]);
    hpls_vec_destroy(again);
}

static void run_determinism(const char *spec, int direct)
{
    hpls_csr *A = tu_gen(spec);
    hpls_vec *xt = tu_vec_random(A->nrows, 5), *b = tu_rhs(A, xt);
    problem pr = {A, b, NULL, 0, 0};
    int ran = for_each_combination(determinism_one, &pr, direct, 0);
    assert_true(pr.accepted >= (direct ? 4 : 3 * ran / 4));
    assert_true(pr.converged >= (direct ? 4 : ran / 2));
    hpls_vec_destroy(xt);
    hpls_vec_destroy(b);
    hpls_csr_destroy(A);
}

/* Sizes above the kernels' thresholds for going parallel (8192 entries). */
static void runs_repeat_bit_for_bit_and_agree_across_threads(void **state)
{
    (void)state;
    run_determinism("poisson3d:nx=22", 0);
    run_determinism("tridiag:type=toeplitz,n=40000", 1);
    omp_set_num_threads(2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(allocation_failures_in_every_method),
        cmocka_unit_test(runs_repeat_bit_for_bit_and_agree_across_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
