/* SPDX-License-Identifier: BSD-3-Clause */
/* solve.c (solver): one solve: b and x on the backend, checked, the method
 * on its context (s->mc), the true residual of its result; and the
 * preconditioner application and true residual on the solver's context, for
 * the driver, tests and benchmarks (hpls_pc_apply, hpls_op_residual). */
#include "solver/driver.h"

#include "advice.h"

#include <math.h>
#include <string.h>

const hpls_dvec *hpls_pc_apply(const hpls_solver *s, const hpls_dvec *r, hpls_dvec *z)
{
    return hpls_m_pc_apply(&s->mc, r, z);
}

const hpls_dvec *hpls_pc_apply_t(const hpls_solver *s, const hpls_dvec *r, hpls_dvec *z)
{
    return hpls_m_pc_apply_t(&s->mc, r, z);
}

double hpls_op_residual(const hpls_solver *s, const hpls_dvec *b, const hpls_dvec *x, hpls_dvec *r)
{
    return hpls_m_op_residual(&s->mc, b, x, r);
}

/* The first non-finite entry of the n values of v on the backend, as an
 * HPLS_ERR_VALUE naming it (what: "b", "initial guess x"), else HPLS_OK. */
static hpls_status check_finite(hpls_solver *s, hpls_int n, const hpls_dvec *v, const char *what)
{
    double bad = 0;
    hpls_int i = hpls_v_finite(s->be, n, v, &bad);
    if (s->be->err != HPLS_OK)
        return s->be->err;
    if (i >= 0)
        return hpls_solver_fail(s, HPLS_ERR_VALUE, "%s[%lld] = %g", what, (long long)i + 1, bad);
    return HPLS_OK;
}

/* The solve on the backend: b and x attached (copied in where the backend's
 * memory is not the host's), the method, the true residual of the result, x
 * copied back.  bb, xx: the user's arrays, or their permuted copies. */
hpls_status hpls_solver_solve_on_backend(hpls_solver *s, hpls_real *bb, hpls_real *xx)
{
    hpls_backend *be = s->be;
    hpls_int n = s->op.n;
    hpls_dvec *B = NULL, *X = NULL;
    hpls_status st = hpls_be_attach(be, n, bb, 1, &B);
    if (st == HPLS_OK)
        st = hpls_be_attach(be, n, xx, s->opt.initial_guess, &X);
    /* a NaN or Inf in b makes ||b|| one (an overflowing sum of squares is
     * rescaled): b is scanned for the entry to name only then, so a solve makes
     * one pass and one reduction over b, not two */
    double bnorm = st == HPLS_OK ? hpls_v_nrm2(be, n, B) : 0.0;
    if (st == HPLS_OK && !isfinite(bnorm))
        st = check_finite(s, n, B, "b");
    if (st == HPLS_OK && s->opt.initial_guess)
        st = check_finite(s, n, X, "initial guess x");
    else if (st == HPLS_OK)
        hpls_v_set(be, n, 0.0, X);
    if (st != HPLS_OK) {
        hpls_be_detach(be, n, X, xx, 0);
        hpls_be_detach(be, n, B, bb, 0);
        return st;
    }
    s->mc.conv.bnorm = s->mc.conv.test_bnorm = bnorm;
    hpls_solver_context(s); /* the options in effect (scale's rounds change tol ...) */
    st = s->opt.method->solve(&s->mc, B, X);
    s->info.reason = s->mc.info.reason; /* what the method says */
    s->info.iterations = s->mc.info.iterations;
    s->info.precond_norm = s->mc.info.precond_norm;
    if (st == HPLS_OK && be->err == HPLS_OK) {
        hpls_dvec *r = s->work[0]; /* every method has at least one work vector */
        /* the true residual (a permutation does not change its norm), unless
         * the method's stop has just computed it for this x (the same bits), or
         * confirm=no took a user test's stop on the residual it tested */
        s->info.resnorm =
            s->mc.conv.final_x == X ? s->mc.conv.final_rnorm : hpls_op_residual(s, B, X, r);
        s->info.unconfirmed = s->mc.conv.final_x == X && s->mc.conv.unconfirmed;
        double bad;
        /* a NaN or Inf of x makes the true residual's norm one, unless a column
         * of A holds no entry and hides it, or b - A x was not computed: only
         * then is x scanned */
        int scan = !s->cols_stored || s->info.unconfirmed;
        if (hpls_reason_converged(s->info.reason) &&
            (!isfinite(s->info.resnorm) || (scan && hpls_v_finite(be, n, X, &bad) >= 0)))
            s->info.reason = HPLS_DIVERGED_NAN;
    }
    if (st == HPLS_OK && be->err != HPLS_OK)
        st = hpls_fail(be->err, "%s", be->msg);
    hpls_be_detach(be, n, X, xx, 1);
    hpls_be_detach(be, n, B, bb, 0);
    st = s->env->agree(s, st, 1); /* distributed: x may come back through collectives */
    if (st == HPLS_OK)
        s->info.reason = hpls_conv_finish(&s->mc, xx, s->info.reason, s->info.resnorm);
    return st;
}

/* One solve with the method set up (hpls_solver_solve checks the arguments). */
hpls_status hpls_solver_solve_once(hpls_solver *s, const hpls_vec *b, hpls_vec *x)
{
    double t0 = hpls_wtime();
    s->msg[0] = '\0';
    s->mc.hist.len = 0;
    s->mc.monitor_stop = 0;
    hpls_be_clear(s->be);
    s->mc.conv = (hpls_conv){.t0 = t0};
    s->mc.info = (hpls_minfo){.reason = HPLS_NOT_RUN};
    s->info.reason = HPLS_NOT_RUN;
    s->info.precond_norm = 0;
    s->info.unconfirmed = 0;
    s->info.iterations = 0;
    int scaled = s->dr != NULL, moved = s->Aperm != NULL;
    hpls_status st = s->env->solve_start(s, &scaled, &moved);
    if (st != HPLS_OK)
        return st;
    if (scaled)
        st = hpls_solver_solve_scaled(s, b->data, x->data);
    else if (moved) { /* reordered: the permuted system, x permuted back on success */
        s->env->to_inner(s, b->data, x->data);
        if ((st = hpls_solver_solve_on_backend(s, s->pb, s->px)) == HPLS_OK)
            s->env->from_inner(s, x->data);
    } else
        st = hpls_solver_solve_on_backend(s, b->data, x->data);
    s->info.solve_s = hpls_wtime() - t0;
    st = s->env->agree(s, st, 0); /* distributed: the first failing rank's status on all */
    if (st != HPLS_OK) {
        s->info.reason = HPLS_NOT_RUN;
        if (st == HPLS_ERR_VALUE)
            return st; /* the message names the entry already */
        return hpls_solver_fail(s, st, "%s: %s", s->opt.method->name, hpls_last_error());
    }
    s->info.relres = s->mc.conv.bnorm > 0 ? s->info.resnorm / s->mc.conv.bnorm : s->info.resnorm;
    return HPLS_OK;
}

hpls_status hpls_solver_solve(hpls_solver *s, const hpls_vec *b, hpls_vec *x)
{
    if (!s || !b || !x)
        return hpls_fail(HPLS_ERR_ARG, "hpls_solver_solve: NULL argument");
    if (!s->ready)
        return hpls_solver_fail(s, HPLS_ERR_STATE,
                                "hpls_solver_solve called before a successful "
                                "hpls_solver_setup (or after an option changed)");
    hpls_int n = s->op.n;
    if (b->n != n || x->n != n)
        return hpls_solver_fail(s, HPLS_ERR_SIZE,
                                "the matrix has %lld rows but b has %lld and x has %lld entries",
                                (long long)n, (long long)b->n, (long long)x->n);
    int may_fall = s->auto_on && !s->auto_fell && s->auto_pick + 1 < s->adv->n;
    hpls_real *x0 = NULL; /* the initial guess, for the fallback */
    if (may_fall && s->opt.initial_guess) {
        if (!(x0 = hpls_malloc(n, sizeof *x0)))
            return HPLS_ERR_NOMEM;
        memcpy(x0, x->data, (size_t)n * sizeof *x0);
    }
    hpls_status st = hpls_solver_solve_once(s, b, x);
    if (st == HPLS_OK && may_fall && !hpls_reason_converged(s->info.reason))
        st = hpls_solver_auto_fall_back(s, b, x, x0);
    hpls_free(x0);
    return st;
}
