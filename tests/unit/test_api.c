/* SPDX-License-Identifier: BSD-3-Clause */
/* test_api.c: the public API beyond one solver: preconditioner objects (alone,
 * shared, inside a hand-written loop, updated), user operators and
 * preconditioners (shell), their failures, the version. */
#include "testutil.h"

#include "hpls.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static hpls_precond *precond(const hpls_csr *A, const char *options, unsigned flags)
{
    hpls_precond *P;
    assert_int_equal(hpls_precond_create(&P), HPLS_OK);
    assert_int_equal(hpls_precond_set_options(P, options), HPLS_OK);
    if (hpls_precond_setup(P, A, flags) != HPLS_OK)
        fail_msg("setup %s: %s", options, hpls_precond_message(P));
    return P;
}

/* Solves with options on A (or the shell operator when A is NULL and op is
 * given), the preconditioner object P if any; returns the info. */
static hpls_info solve(const hpls_csr *A, const char *options, hpls_precond *P,
                       const hpls_vec *b, hpls_vec *x)
{
    hpls_solver *s;
    hpls_info info;
    assert_int_equal(hpls_solver_create(&s), HPLS_OK);
    assert_int_equal(hpls_solver_set_options(s, options), HPLS_OK);
    if (P)
        assert_int_equal(hpls_solver_set_precond(s, P), HPLS_OK);
    if (hpls_solver_setup(s, A) != HPLS_OK || hpls_solver_solve(s, b, x) != HPLS_OK)
        fail_msg("%s: %s", options, hpls_solver_message(s));
    hpls_solver_get_info(s, &info);
    hpls_solver_destroy(s);
    return info;
}

static int bit_equal(const hpls_vec *x, const hpls_vec *y)
{
    return x->n == y->n && memcmp(x->data, y->data, (size_t)x->n * sizeof *x->data) == 0;
}

/* A solver given a preconditioner object iterates exactly as with the same
 * precond option: same iterations, x bit for bit (same threads). */
static void precond_object_equals_the_option(void **state)
{
    (void)state;
    static const char *const pcs[] = {"jacobi", "dilu", "ilu0", "ssor", "tridiag"};
    hpls_csr *A = tu_gen("gas:n=20000,k=2");
    hpls_vec *xt = tu_vec_random(A->nrows, 3), *b = tu_rhs(A, xt), *x1, *x2;
    hpls_vec_create(A->nrows, &x1);
    hpls_vec_create(A->nrows, &x2);
    for (size_t k = 0; k < sizeof pcs / sizeof *pcs; k++) {
        char opt[64];
        snprintf(opt, sizeof opt, "precond=%s threads=2", pcs[k]);
        hpls_precond *P = precond(A, opt, 0);
        char sopt[96];
        snprintf(sopt, sizeof sopt, "solver=bicgstab threads=2 %s", opt);
        hpls_info i1 = solve(A, sopt, NULL, b, x1);
        hpls_info i2 = solve(A, "solver=bicgstab threads=2", P, b, x2);
        if (i1.iterations != i2.iterations || !bit_equal(x1, x2))
            fail_msg("%s: option %lld iterations, object %lld, x %s", pcs[k],
                     (long long)i1.iterations, (long long)i2.iterations,
                     bit_equal(x1, x2) ? "equal" : "differs");
        assert_true(hpls_reason_converged(i2.reason));
        assert_true(tu_relres(A, b, x2) <= 1e-8);
        assert_true(tu_relerr(x2, xt) < 1e-5);
        hpls_precond_destroy(P);
    }
    hpls_vec_destroy(x1);
    hpls_vec_destroy(x2);
    hpls_vec_destroy(b);
    hpls_vec_destroy(xt);
    hpls_csr_destroy(A);
}

/* (M^-T r, w) = (r, M^-1 w) to rounding for random r, w: apply_transpose is
 * the transpose of apply (nonsymmetric A, so M^-T differs from M^-1). */
static void apply_transpose_is_the_adjoint(void **state)
{
    (void)state;
    static const char *const pcs[] = {"precond=dilu", "precond=ilu0", "precond=jacobi",
                                      "precond=ssor omega=1.2"};
    hpls_csr *A = tu_gen("convdiff3d:nx=12");
    hpls_int n = A->nrows;
    hpls_vec *r = tu_vec_random(n, 1), *w = tu_vec_random(n, 2), *z1, *z2;
    hpls_vec_create(n, &z1);
    hpls_vec_create(n, &z2);
    for (size_t k = 0; k < sizeof pcs / sizeof *pcs; k++) {
        hpls_precond *P = precond(A, pcs[k], HPLS_PRECOND_TRANSPOSE);
        assert_int_equal(hpls_precond_apply_transpose(P, r, z1), HPLS_OK);
        assert_int_equal(hpls_precond_apply(P, w, z2), HPLS_OK);
        double a = 0, b = 0, scale = 0;
        for (hpls_int i = 0; i < n; i++) {
            a += z1->data[i] * w->data[i];
            b += r->data[i] * z2->data[i];
            scale += fabs(z1->data[i] * w->data[i]);
        }
        if (!(fabs(a - b) <= 1e-12 * scale))
            fail_msg("%s: (M^-T r, w) = %.17g, (r, M^-1 w) = %.17g", pcs[k], a, b);
        /* M^-T is not asked for: refused */
        hpls_precond *Q = precond(A, pcs[k], 0);
        assert_int_equal(hpls_precond_apply_transpose(Q, r, z1), HPLS_ERR_STATE);
        assert_non_null(strstr(hpls_precond_message(Q), "HPLS_PRECOND_TRANSPOSE"));
        hpls_precond_destroy(Q);
        hpls_precond_destroy(P);
    }
    hpls_vec_destroy(z1);
    hpls_vec_destroy(z2);
    hpls_vec_destroy(r);
    hpls_vec_destroy(w);
    hpls_csr_destroy(A);
}

/* The preconditioner inside the user's own iteration: Richardson
 * x += M^-1 (b - A x) with ILU(0) on a Poisson matrix converges. */
static void precond_in_a_hand_written_loop(void **state)
{
    (void)state;
    hpls_csr *A = tu_gen("poisson2d:nx=40");
    hpls_int n = A->nrows;
    hpls_vec *xt = tu_vec_random(n, 9), *b = tu_rhs(A, xt), *x, *r, *z;
    hpls_vec_create(n, &x);
    hpls_vec_create(n, &r);
    hpls_vec_create(n, &z);
    hpls_precond *P = precond(A, "precond=ilu0", 0);
    double rel = 1;
    int it;
    for (it = 0; it < 2000 && rel > 1e-10; it++) {
        assert_int_equal(hpls_csr_residual(A, b, x, r), HPLS_OK);
        assert_int_equal(hpls_precond_apply(P, r, z), HPLS_OK);
        for (hpls_int i = 0; i < n; i++)
            x->data[i] += z->data[i];
        rel = tu_relres(A, b, x);
    }
    if (rel > 1e-10)
        fail_msg("Richardson + ilu0: relres %g after %d iterations", rel, it);
    assert_true(tu_relerr(x, xt) < 1e-7);
    double setup_s = -1;
    const char *strategy = NULL;
    assert_int_equal(hpls_precond_get_info(P, &setup_s, &strategy), HPLS_OK);
    assert_true(setup_s >= 0);
    assert_non_null(strategy);
    /* z must not be r */
    assert_int_equal(hpls_precond_apply(P, r, r), HPLS_ERR_ARG);
    hpls_precond_destroy(P);
    hpls_vec_destroy(x);
    hpls_vec_destroy(r);
    hpls_vec_destroy(z);
    hpls_vec_destroy(b);
    hpls_vec_destroy(xt);
    hpls_csr_destroy(A);
}

/* One factorization shared by two solvers with different methods; the user's
 * handle dropped while they still hold it (ASan sees a use after free). */
static void precond_shared_between_solvers(void **state)
{
    (void)state;
    hpls_csr *A = tu_gen("convdiff3d:nx=16");
    hpls_int n = A->nrows;
    hpls_vec *b = tu_vec_const(n, 1.0), *x1, *x2;
    hpls_vec_create(n, &x1);
    hpls_vec_create(n, &x2);
    hpls_precond *P = precond(A, "precond=dilu", HPLS_PRECOND_TRANSPOSE);
    hpls_solver *s1, *s2;
    hpls_solver_create(&s1);
    hpls_solver_create(&s2);
    hpls_solver_set_options(s1, "solver=gmres");
    hpls_solver_set_options(s2, "solver=bicg");
    assert_int_equal(hpls_solver_set_precond(s1, P), HPLS_OK);
    assert_int_equal(hpls_solver_set_precond(s2, P), HPLS_OK);
    hpls_precond_destroy(P); /* the solvers keep it */
    assert_int_equal(hpls_solver_setup(s1, A), HPLS_OK);
    assert_int_equal(hpls_solver_setup(s2, A), HPLS_OK);
    for (int rep = 0; rep < 2; rep++) {
        assert_int_equal(hpls_solver_solve(s1, b, x1), HPLS_OK);
        assert_int_equal(hpls_solver_solve(s2, b, x2), HPLS_OK);
        hpls_info i1, i2;
        hpls_solver_get_info(s1, &i1);
        hpls_solver_get_info(s2, &i2);
        assert_true(hpls_reason_converged(i1.reason) && hpls_reason_converged(i2.reason));
        assert_true(tu_relres(A, b, x1) <= 1e-8 && tu_relres(A, b, x2) <= 1e-8);
    }
    assert_non_null(hpls_solver_trisolve(s1));
    hpls_solver_destroy(s1);
    hpls_solver_destroy(s2);
    hpls_vec_destroy(x1);
    hpls_vec_destroy(x2);
    hpls_vec_destroy(b);
    hpls_csr_destroy(A);
}

/* ---- shell operator and preconditioner ---------------------------------- */
typedef struct user_op {
    const hpls_csr *A, *At;
    const hpls_real *dinv; /* Jacobi */
    int calls, fail_at, code;
} user_op;

static int user_apply(void *ctx, hpls_int n, const hpls_real *x, hpls_real *y, int t)
{
    user_op *u = ctx;
    if (++u->calls == u->fail_at)
        return u->code;
    const hpls_csr *M = t ? u->At : u->A;
    for (hpls_int i = 0; i < n; i++) {
        double sum = 0;
        for (hpls_int p = M->rowptr[i]; p < M->rowptr[i + 1]; p++)
            sum += M->val[p] * x[M->colind[p]];
        y[i] = sum;
    }
    return 0;
}

static int op_apply(void *ctx, hpls_int n, const hpls_real *x, hpls_real *y)
{
    return user_apply(ctx, n, x, y, 0);
}

static int op_apply_t(void *ctx, hpls_int n, const hpls_real *x, hpls_real *y)
{
    return user_apply(ctx, n, x, y, 1);
}

static int jacobi_apply(void *ctx, hpls_int n, const hpls_real *r, hpls_real *z)
{
    user_op *u = ctx;
    if (++u->calls == u->fail_at)
        return u->code;
    for (hpls_int i = 0; i < n; i++)
        z[i] = u->dinv[i] * r[i];
    return 0;
}

static hpls_real *inverse_diagonal(const hpls_csr *A)
{
    hpls_real *d = hpls_malloc(A->nrows, sizeof *d);
    for (hpls_int i = 0; i < A->nrows; i++)
        for (hpls_int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++)
            if (A->colind[p] == i)
                d[i] = 1.0 / A->val[p];
    return d;
}

/* A matrix-free operator (the user's CSR product) and a shell Jacobi take the
 * same iterations as the CSR matrix with precond=jacobi, for every Krylov
 * method (bicg and qmr through apply_t), and reach the same true residual. */
static void shell_operator_and_preconditioner(void **state)
{
    (void)state;
    static const char *const methods[] = {"cg",        "bicgstab", "bicg",     "cgs",
                                          "tfqmr",     "qmr",      "bicrstab", "bicgsafe",
                                          "bicgstabl", "gmres",    "fgmres",   "minres"};
    hpls_csr *A = tu_gen("poisson2d:nx=30"), *At;
    hpls_csr_transpose(A, &At);
    hpls_int n = A->nrows;
    hpls_vec *xt = tu_vec_random(n, 4), *b = tu_rhs(A, xt), *x1, *x2;
    hpls_vec_create(n, &x1);
    hpls_vec_create(n, &x2);
    hpls_real *dinv = inverse_diagonal(A);
    for (size_t k = 0; k < sizeof methods / sizeof *methods; k++) {
        user_op u = {.A = A, .At = At, .dinv = dinv}, up = u;
        hpls_precond *P;
        assert_int_equal(hpls_precond_create_shell(n, jacobi_apply, jacobi_apply, &up, &P),
                         HPLS_OK);
        char opt[96];
        snprintf(opt, sizeof opt, "solver=%s precond=jacobi tol=1e-10 threads=1", methods[k]);
        hpls_info i1 = solve(A, opt, NULL, b, x1);
        hpls_solver *s;
        hpls_info i2;
        hpls_solver_create(&s);
        snprintf(opt, sizeof opt, "solver=%s tol=1e-10 threads=1", methods[k]);
        hpls_solver_set_options(s, opt);
        hpls_solver_set_precond(s, P);
        hpls_precond_destroy(P);
        if (hpls_solver_setup_shell(s, n, op_apply, op_apply_t, &u) != HPLS_OK ||
            hpls_solver_solve(s, b, x2) != HPLS_OK)
            fail_msg("%s shell: %s", methods[k], hpls_solver_message(s));
        hpls_solver_get_info(s, &i2);
        hpls_solver_destroy(s);
        if (!hpls_reason_converged(i2.reason) || labs((long)(i1.iterations - i2.iterations)) > 1)
            fail_msg("%s: csr %lld iterations, shell %lld (%s)", methods[k],
                     (long long)i1.iterations, (long long)i2.iterations,
                     hpls_reason_str(i2.reason));
        double rel = tu_relres(A, b, x2);
        if (!(rel <= 1e-10) || fabs(rel - i2.relres) > 1e-12)
            fail_msg("%s shell: true relres %g, reported %g", methods[k], rel, i2.relres);
        assert_true(u.calls > 0 && up.calls > 0);
    }
    hpls_free(dinv);
    hpls_vec_destroy(x1);
    hpls_vec_destroy(x2);
    hpls_vec_destroy(b);
    hpls_vec_destroy(xt);
    hpls_csr_destroy(At);
    hpls_csr_destroy(A);
}

/* A callback that fails stops the solve: HPLS_ERR_CALLBACK, the message says
 * which callback and what it returned; x keeps what the solve reached. */
static void failing_callbacks_stop_the_solve(void **state)
{
    (void)state;
    hpls_csr *A = tu_gen("poisson2d:nx=20");
    hpls_int n = A->nrows;
    hpls_vec *b = tu_vec_const(n, 1.0), *x;
    hpls_vec_create(n, &x);
    hpls_real *dinv = inverse_diagonal(A);
    for (int which = 0; which < 2; which++) {
        user_op u = {.A = A, .dinv = dinv, .fail_at = which ? 1000000 : 5, .code = 7};
        user_op up = {.A = A, .dinv = dinv, .fail_at = which ? 4 : 1000000, .code = -3};
        hpls_precond *P;
        hpls_precond_create_shell(n, jacobi_apply, NULL, &up, &P);
        hpls_solver *s;
        hpls_solver_create(&s);
        hpls_solver_set_options(s, "solver=bicgstab");
        hpls_solver_set_precond(s, P);
        hpls_precond_destroy(P);
        assert_int_equal(hpls_solver_setup_shell(s, n, op_apply, NULL, &u), HPLS_OK);
        assert_int_equal(hpls_solver_solve(s, b, x), HPLS_ERR_CALLBACK);
        const char *want = which ? "preconditioner z = M^-1 r returned -3"
                                 : "operator y = A x returned 7";
        if (!strstr(hpls_solver_message(s), want))
            fail_msg("message \"%s\" lacks \"%s\"", hpls_solver_message(s), want);
        hpls_solver_destroy(s);
    }
    hpls_free(dinv);
    hpls_vec_destroy(x);
    hpls_vec_destroy(b);
    hpls_csr_destroy(A);
}

/* What a shell or an object cannot do is refused with a reason. */
static void misuse_is_refused(void **state)
{
    (void)state;
    hpls_csr *A = tu_gen("poisson2d:nx=10"), *B = tu_gen("poisson2d:nx=11");
    user_op u = {.A = A};
    hpls_solver *s;
    hpls_solver_create(&s);
    static const struct {
        const char *options, *why;
    } shell_bad[] = {{"solver=jacobi", "needs the entries of A"},
                     {"solver=hisa", "needs the entries of A"},
                     {"solver=bicg", "give apply_t"},
                     {"solver=gmres precond=dilu", "give a preconditioner object"},
                     {"solver=cg format=qtree", "format=qtree or reorder"}};
    for (size_t k = 0; k < sizeof shell_bad / sizeof *shell_bad; k++) {
        hpls_solver_destroy(s);
        hpls_solver_create(&s);
        assert_int_equal(hpls_solver_set_options(s, shell_bad[k].options), HPLS_OK);
        assert_int_equal(hpls_solver_setup_shell(s, A->nrows, op_apply, NULL, &u),
                         HPLS_ERR_OPTION);
        if (!strstr(hpls_solver_message(s), shell_bad[k].why))
            fail_msg("%s: \"%s\"", shell_bad[k].options, hpls_solver_message(s));
    }
    hpls_precond *P, *Q;
    hpls_precond_create(&P);
    assert_int_equal(hpls_solver_set_precond(s, P), HPLS_ERR_STATE); /* not set up */
    assert_int_equal(hpls_precond_set_options(P, "precond=dilu omega=1.5"), HPLS_OK);
    assert_int_equal(hpls_precond_setup(P, A, 0), HPLS_ERR_OPTION);
    assert_non_null(strstr(hpls_precond_message(P), "omega"));
    assert_int_equal(hpls_precond_set_options(P, "precond=nosuch"), HPLS_ERR_OPTION);
    hpls_precond_destroy(P);
    P = precond(A, "precond=jacobi", 0);
    /* another n; both precond= and an object; a method without a preconditioner;
     * bicg without M^-T */
    hpls_solver_destroy(s);
    hpls_solver_create(&s);
    hpls_solver_set_precond(s, P);
    assert_int_equal(hpls_solver_setup(s, B), HPLS_ERR_SIZE);
    hpls_solver_set_options(s, "precond=ilu0");
    assert_int_equal(hpls_solver_setup(s, A), HPLS_ERR_OPTION);
    hpls_solver_destroy(s);
    hpls_solver_create(&s);
    hpls_solver_set_options(s, "solver=hisa");
    hpls_solver_set_precond(s, P);
    assert_int_equal(hpls_solver_setup(s, A), HPLS_ERR_OPTION);
    hpls_solver_set_options(s, "solver=bicg");
    assert_int_equal(hpls_solver_setup(s, A), HPLS_ERR_OPTION);
    assert_non_null(strstr(hpls_solver_message(s), "HPLS_PRECOND_TRANSPOSE"));
    /* NULL gives the solver its own precond option back */
    assert_int_equal(hpls_solver_set_precond(s, NULL), HPLS_OK);
    assert_int_equal(hpls_solver_setup(s, A), HPLS_OK);
    /* update with another pattern */
    Q = precond(A, "precond=dilu", 0);
    assert_int_equal(hpls_precond_update_values(Q, B), HPLS_ERR_SIZE);
    hpls_precond_destroy(Q);
    hpls_precond_destroy(P);
    hpls_solver_destroy(s);
    hpls_csr_destroy(A);
    hpls_csr_destroy(B);
}

/* A copy of A with the same pattern and other values: the diagonal times 1.3,
 * the rest times 0.8 + 0.4 u (u in [0, 1) from the position). */
static hpls_csr *revalued(const hpls_csr *A)
{
    hpls_csr *B;
    assert_int_equal(hpls_csr_create(A->nrows, A->ncols, A->nnz, &B), HPLS_OK);
    for (hpls_int i = 0; i <= A->nrows; i++)
        B->rowptr[i] = A->rowptr[i];
    for (hpls_int i = 0; i < A->nrows; i++)
        for (hpls_int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++) {
            B->colind[p] = A->colind[p];
            double u = (double)((p * 2654435761u) % 1000) / 1000.0;
            B->val[p] = A->val[p] * (A->colind[p] == i ? 1.3 : 0.8 + 0.4 * u);
        }
    return B;
}

/* update_values gives what a fresh setup on the new values gives: the same
 * iterations and x bit for bit, for every kind of numeric part (trifac
 * factors, 1/A_ii, A^T, rcm, hisa's T, a preconditioner set up whole again). */
static void update_values_equals_a_fresh_setup(void **state)
{
    (void)state;
    static const char *const cases[] = {
        "solver=bicgstab precond=dilu trisolve=levels",
        "solver=bicgstab precond=dilu trisolve=syncfree",
        "solver=gmres precond=ilu0 trisolve=serial",
        "solver=bicg precond=ilu0 trisolve=levels",
        "solver=qmr precond=dilu trisolve=syncfree reorder=rcm",
        "solver=tfqmr precond=jacobi",
        "solver=jacobi",
        "solver=gs",
        "solver=hisa",
        "solver=bicgstab precond=ssor",
        "solver=bicgstab precond=tridiag",
        "solver=bicgstab format=qtree qt_d=64",
    };
    hpls_csr *A = tu_gen("gas:n=5000,k=2"), *B = revalued(A);
    hpls_vec *b = tu_vec_const(A->nrows, 1.0), *x1, *x2;
    hpls_vec_create(A->nrows, &x1);
    hpls_vec_create(A->nrows, &x2);
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        char opt[160];
        snprintf(opt, sizeof opt, "%s threads=2", cases[k]);
        hpls_solver *s;
        hpls_solver_create(&s);
        assert_int_equal(hpls_solver_set_options(s, opt), HPLS_OK);
        assert_int_equal(hpls_solver_setup(s, A), HPLS_OK);
        assert_int_equal(hpls_solver_solve(s, b, x1), HPLS_OK);
        if (hpls_solver_update_values(s, B) != HPLS_OK || hpls_solver_solve(s, b, x1) != HPLS_OK)
            fail_msg("%s: %s", cases[k], hpls_solver_message(s));
        hpls_info i1, i2 = solve(B, opt, NULL, b, x2);
        hpls_solver_get_info(s, &i1);
        if (i1.iterations != i2.iterations || !bit_equal(x1, x2) ||
            !hpls_reason_converged(i1.reason))
            fail_msg("%s: updated %lld iterations (%s), fresh %lld, x %s", cases[k],
                     (long long)i1.iterations, hpls_reason_str(i1.reason),
                     (long long)i2.iterations, bit_equal(x1, x2) ? "equal" : "differs");
        assert_true(tu_relres(B, b, x1) <= 1e-8);
        hpls_solver_destroy(s);
    }
    /* the object's update equals a fresh object's setup, both directions */
    hpls_vec *r = tu_vec_random(A->nrows, 5);
    static const char *const pcs[] = {"precond=dilu", "precond=dic trisolve=levels",
                                      "precond=ilu0", "precond=jacobi", "precond=ssor"};
    for (size_t k = 0; k < sizeof pcs / sizeof *pcs; k++) {
        const hpls_csr *M = strstr(pcs[k], "dic") ? A : B; /* dic: gas is not symmetric */
        if (M == A)
            continue;
        hpls_precond *P = precond(A, pcs[k], HPLS_PRECOND_TRANSPOSE);
        hpls_precond *Q = precond(B, pcs[k], HPLS_PRECOND_TRANSPOSE);
        assert_int_equal(hpls_precond_update_values(P, B), HPLS_OK);
        for (int t = 0; t < 2; t++) {
            assert_int_equal((t ? hpls_precond_apply_transpose : hpls_precond_apply)(P, r, x1),
                             HPLS_OK);
            assert_int_equal((t ? hpls_precond_apply_transpose : hpls_precond_apply)(Q, r, x2),
                             HPLS_OK);
            if (!bit_equal(x1, x2))
                fail_msg("%s%s: updated and fresh differ", pcs[k], t ? " (transpose)" : "");
        }
        hpls_precond_destroy(P);
        hpls_precond_destroy(Q);
    }
    /* a zero pivot in the new values is reported, and the solver must be set up again */
    hpls_solver *s;
    hpls_solver_create(&s);
    hpls_solver_set_options(s, "solver=jacobi");
    assert_int_equal(hpls_solver_setup(s, A), HPLS_OK);
    for (hpls_int p = B->rowptr[7]; p < B->rowptr[8]; p++)
        if (B->colind[p] == 7)
            B->val[p] = 0;
    assert_int_equal(hpls_solver_update_values(s, B), HPLS_ERR_ZERO_DIAG);
    assert_non_null(strstr(hpls_solver_message(s), "row 8"));
    assert_int_equal(hpls_solver_solve(s, b, x1), HPLS_ERR_STATE);
    /* a value that is not finite is refused by name, by the solver and a
     * preconditioner alike (checked in the pass that compares the pattern) */
    assert_int_equal(hpls_solver_setup(s, A), HPLS_OK);
    B->val[B->rowptr[5] + 1] = NAN;
    assert_int_equal(hpls_solver_update_values(s, B), HPLS_ERR_VALUE);
    assert_non_null(strstr(hpls_solver_message(s), "value nan at row 5"));
    hpls_precond *P = precond(A, "precond=dilu", 0);
    assert_int_equal(hpls_precond_update_values(P, B), HPLS_ERR_VALUE);
    hpls_precond_destroy(P);
    /* the matrix set up, its values changed in place (libhplsFoam's way): its
     * pattern is its own, its values are still checked */
    hpls_csr *C = revalued(A);
    assert_int_equal(hpls_solver_setup(s, C), HPLS_OK);
    C->val[C->rowptr[9] + 1] *= 2.0;
    assert_int_equal(hpls_solver_update_values(s, C), HPLS_OK);
    C->val[C->rowptr[9] + 1] = INFINITY;
    assert_int_equal(hpls_solver_update_values(s, C), HPLS_ERR_VALUE);
    assert_non_null(strstr(hpls_solver_message(s), "value inf at row 9"));
    /* the bits of every value are tested: the largest and the smallest finite
     * ones pass, a NaN or Inf in the last place is found and named */
    hpls_csr_destroy(C);
    C = revalued(A);
    assert_int_equal(hpls_solver_setup(s, C), HPLS_OK);
    C->val[0] = DBL_MAX;
    C->val[1] = -DBL_MAX;
    C->val[2] = 4.9e-324;
    assert_int_equal(hpls_solver_update_values(s, C), HPLS_OK);
    C->val[C->nnz - 1] = -INFINITY;
    assert_int_equal(hpls_solver_update_values(s, C), HPLS_ERR_VALUE);
    char last[64];
    snprintf(last, sizeof last, "value -inf at row %lld, column %d", (long long)C->nrows - 1,
             (int)C->colind[C->nnz - 1]);
    assert_non_null(strstr(hpls_solver_message(s), last));
    hpls_csr_destroy(C);
    hpls_solver_destroy(s);
    hpls_vec_destroy(r);
    hpls_vec_destroy(x1);
    hpls_vec_destroy(x2);
    hpls_vec_destroy(b);
    hpls_csr_destroy(A);
    hpls_csr_destroy(B);
}

/* solve_many equals the columns solved one by one: the same iterations and
 * reason per column and X bit for bit (native block methods and the column
 * loop alike), for k across the block product's 8 columns. */
static void solve_many_equals_single_solves(void **state)
{
    (void)state;
    static const char *const cases[] = {
        "solver=jacobi",       "solver=jacobi reorder=rcm omega=0.9", "solver=thomas",
        "solver=gspike",       "solver=lapack",  "solver=cr",
        "solver=bicgstab precond=ilu0",          "solver=hisa",
    };
    hpls_csr *G = tu_gen("gas:n=3000,k=2"), *T = tu_gen("tridiag:n=3000");
    hpls_int n = G->nrows;
    hpls_int ks[] = {1, 3, 11};
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        const hpls_csr *A = strstr(cases[c], "thomas") || strstr(cases[c], "gspike") ||
                                    strstr(cases[c], "lapack") || strstr(cases[c], "cr")
                                ? T
                                : G;
        char opt[128];
        snprintf(opt, sizeof opt, "%s threads=2 tol=1e-9", cases[c]);
        hpls_solver *s;
        hpls_solver_create(&s);
        assert_int_equal(hpls_solver_set_options(s, opt), HPLS_OK);
        assert_int_equal(hpls_solver_setup(s, A), HPLS_OK);
        for (size_t q = 0; q < sizeof ks / sizeof *ks; q++) {
            hpls_int k = ks[q];
            hpls_real *B = hpls_malloc(n * k, sizeof *B), *X = hpls_malloc(n * k, sizeof *X);
            hpls_info *inf = hpls_malloc(k, sizeof *inf);
            for (hpls_int j = 0; j < k; j++) { /* b_j = A x_j with x_j random */
                hpls_vec *xt = tu_vec_random(n, (unsigned)(7 + j)), *b = tu_rhs(A, xt);
                memcpy(B + j * n, b->data, (size_t)n * sizeof *B);
                hpls_vec_destroy(xt);
                hpls_vec_destroy(b);
            }
            if (hpls_solver_solve_many(s, k, B, X, inf) != HPLS_OK)
                fail_msg("%s k=%lld: %s", cases[c], (long long)k, hpls_solver_message(s));
            hpls_vec *b, *x;
            hpls_vec_create(n, &b);
            hpls_vec_create(n, &x);
            for (hpls_int j = 0; j < k; j++) {
                memcpy(b->data, B + j * n, (size_t)n * sizeof *B);
                assert_int_equal(hpls_solver_solve(s, b, x), HPLS_OK);
                hpls_info one;
                hpls_solver_get_info(s, &one);
                hpls_vec xj = {n, X + j * n};
                if (one.iterations != inf[j].iterations || one.reason != inf[j].reason ||
                    !bit_equal(x, &xj) || !hpls_reason_converged(inf[j].reason))
                    fail_msg("%s k=%lld column %lld: many %lld it (%s), single %lld (%s), x %s",
                             cases[c], (long long)k, (long long)j + 1,
                             (long long)inf[j].iterations, hpls_reason_str(inf[j].reason),
                             (long long)one.iterations, hpls_reason_str(one.reason),
                             bit_equal(x, &xj) ? "equal" : "differs");
                double rel = tu_relres(A, b, &xj);
                if (fabs(rel - inf[j].relres) > 1e-3 * rel + 1e-17)
                    fail_msg("%s column %lld: relres %g reported %g", cases[c], (long long)j + 1,
                             rel, inf[j].relres);
            }
            hpls_vec_destroy(b);
            hpls_vec_destroy(x);
            hpls_free(B);
            hpls_free(X);
            hpls_free(inf);
        }
        hpls_solver_destroy(s);
    }
    /* a NaN is named by row and column */
    hpls_solver *s;
    hpls_solver_create(&s);
    hpls_solver_set_options(s, "solver=jacobi");
    hpls_solver_setup(s, G);
    hpls_real *B = hpls_calloc(2 * n, sizeof *B), *X = hpls_calloc(2 * n, sizeof *X);
    B[n + 4] = NAN;
    assert_int_equal(hpls_solver_solve_many(s, 2, B, X, NULL), HPLS_ERR_VALUE);
    assert_non_null(strstr(hpls_solver_message(s), "B[5, 2]"));
    hpls_solver_set_options(s, "solver=gmres");
    hpls_solver_setup(s, G);
    assert_int_equal(hpls_solver_solve_many(s, 2, B, X, NULL), HPLS_ERR_VALUE);
    assert_non_null(strstr(hpls_solver_message(s), "right-hand side 2"));
    assert_int_equal(hpls_solver_solve_many(s, 0, B, X, NULL), HPLS_OK);
    hpls_free(B);
    hpls_free(X);
    hpls_solver_destroy(s);
    hpls_csr_destroy(G);
    hpls_csr_destroy(T);
}

static void version_matches_the_header(void **state)
{
    (void)state;
    int ma = -1, mi = -1, pa = -1;
    const char *v = hpls_version(&ma, &mi, &pa);
    char want[32];
    snprintf(want, sizeof want, "%d.%d.%d", HPLS_VERSION_MAJOR, HPLS_VERSION_MINOR,
             HPLS_VERSION_PATCH);
    assert_string_equal(v, want);
    assert_int_equal(ma, HPLS_VERSION_MAJOR);
    assert_int_equal(mi, HPLS_VERSION_MINOR);
    assert_int_equal(pa, HPLS_VERSION_PATCH);
    assert_non_null(hpls_version(NULL, NULL, NULL));
}

/* A program built against an older, smaller hpls_info gets only the fields it
 * knows: the bytes after them are not written. */
static void smaller_info_is_not_overrun(void **state)
{
    (void)state;
    hpls_csr *A = tu_gen("poisson2d:nx=10");
    hpls_vec *b = tu_vec_const(A->nrows, 1.0), *x;
    hpls_vec_create(A->nrows, &x);
    hpls_solver *s;
    hpls_solver_create(&s);
    hpls_solver_setup(s, A);
    hpls_solver_solve(s, b, x);
    unsigned char buf[sizeof(hpls_info) + 16];
    memset(buf, 0xAB, sizeof buf);
    size_t old = offsetof(hpls_info, relres); /* reason and iterations only */
    assert_int_equal(hpls_solver_get_info_sized(s, (hpls_info *)(void *)buf, old), HPLS_OK);
    for (size_t k = old; k < sizeof buf; k++)
        assert_int_equal(buf[k], 0xAB);
    hpls_info full;
    hpls_solver_get_info(s, &full);
    assert_memory_equal(buf, &full, old);
    hpls_solver_destroy(s);
    hpls_vec_destroy(x);
    hpls_vec_destroy(b);
    hpls_csr_destroy(A);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(precond_object_equals_the_option),
        cmocka_unit_test(apply_transpose_is_the_adjoint),
        cmocka_unit_test(precond_in_a_hand_written_loop),
        cmocka_unit_test(precond_shared_between_solvers),
        cmocka_unit_test(shell_operator_and_preconditioner),
        cmocka_unit_test(failing_callbacks_stop_the_solve),
        cmocka_unit_test(misuse_is_refused),
        cmocka_unit_test(update_values_equals_a_fresh_setup),
        cmocka_unit_test(solve_many_equals_single_solves),
        cmocka_unit_test(version_matches_the_header),
        cmocka_unit_test(smaller_info_is_not_overrun),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
