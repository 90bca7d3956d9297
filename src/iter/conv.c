/* SPDX-License-Identifier: BSD-3-Clause */
/* conv.c: the convergence test every method calls once per iteration:
 * history, monitor, and the stopping reasons (converged by rtol or atol;
 * diverged by maxiter, NaN, growth, stagnation, or a tolerance below the
 * attainable accuracy). */
#include "solver.h"

#include <float.h>
#include <math.h>

const char *hpls_reason_str(hpls_reason r)
{
    switch (r) {
    case HPLS_NOT_RUN: return "not run";
    case HPLS_CONVERGED_RTOL: return "converged (relative tolerance)";
    case HPLS_CONVERGED_ATOL: return "converged (absolute tolerance)";
    case HPLS_DIVERGED_MAXIT: return "not converged (maximum iterations)";
    case HPLS_DIVERGED_BREAKDOWN: return "breakdown";
    case HPLS_DIVERGED_STAGNATION: return "stagnation";
    case HPLS_DIVERGED_NAN: return "NaN or Inf in the iteration";
    case HPLS_DIVERGED_GROWTH: return "diverged (residual growth)";
    case HPLS_DIVERGED_INDEFINITE: return "indefinite matrix or preconditioner";
    case HPLS_CONVERGED_STEP: return "converged (step below xtol)";
    case HPLS_STOPPED_USER: return "stopped by the monitor";
    case HPLS_DIVERGED_ACCURACY: return "tolerance below attainable accuracy";
    case HPLS_CONVERGED_USER: return "converged (the user's test)";
    }
    return "unknown reason";
}

int hpls_reason_converged(hpls_reason r)
{
    return r == HPLS_CONVERGED_RTOL || r == HPLS_CONVERGED_ATOL || r == HPLS_CONVERGED_STEP ||
           r == HPLS_CONVERGED_USER;
}

/* Appends to the history, growing it geometrically. */
static void record(hpls_solver *s, hpls_int it, double rel)
{
    if (s->hist_len == s->hist_cap) {
        hpls_int cap = s->hist_cap ? 2 * s->hist_cap : 256;
        hpls_int *ni = hpls_malloc(cap, sizeof *ni);
        double *nr = hpls_malloc(cap, sizeof *nr), *nt = hpls_malloc(cap, sizeof *nt);
        if (!ni || !nr || !nt) { /* the history is a convenience: stop recording */
            hpls_free(ni);
            hpls_free(nr);
            hpls_free(nt);
            return;
        }
        for (hpls_int k = 0; k < s->hist_len; k++) {
            ni[k] = s->hist_it[k];
            nr[k] = s->hist_res[k];
            nt[k] = s->hist_t[k];
        }
        hpls_free(s->hist_it);
        hpls_free(s->hist_res);
        hpls_free(s->hist_t);
        s->hist_it = ni;
        s->hist_res = nr;
        s->hist_t = nt;
        s->hist_cap = cap;
    }
    s->hist_it[s->hist_len] = it;
    s->hist_res[s->hist_len] = rel;
    s->hist_t[s->hist_len] = hpls_wtime() - s->conv.t0;
    s->hist_len++;
}

/* Stagnation: 1 when the residual has stayed within a factor 1 + HPLS_STAG_BAND
 * of one value for `window` iterations (0: never).  A stalled iteration leaves
 * such a flat stretch (restarted GMRES, a stationary method at its fixed point);
 * over every solver x {none, jacobi, ilu0} x matrix of the test data, the longest
 * of a converging solve was 391 iterations (watt_2, bicgstab), so the default
 * window is 1000.  The rule it replaces, no new minimum in 500 iterations,
 * stopped 33 converging solves (CG, BiCGSTAB, CGS, TFQMR, MINRES ...) whose
 * residual rose and fell for hundreds of iterations (bench/results/stagnation.md). */
static int flat(double *band, hpls_int *band_it, hpls_int it, double rnorm, hpls_int window)
{
    double f = 1.0 + HPLS_STAG_BAND;
    if (!(rnorm <= *band * f && rnorm * f >= *band)) {
        *band = rnorm; /* left the band: a new one around rnorm */
        *band_it = it;
    }
    return window > 0 && it - *band_it >= window;
}

/* eps (|| |A| |x| || + ||b||) for host x: the rounding error of computing
 * b - A x (Higham 2002, Sec. 3.5: |fl(A x) - A x| <= gamma_n |A| |x|); 0 for an
 * operator given as a function (no entries to take). */
static double attainable(const hpls_solver *s, const hpls_real *x)
{
    double eps = sizeof(hpls_real) < sizeof(double) ? FLT_EPSILON : DBL_EPSILON, ss = 0.0;
    if (s->op.abs_norm) /* a distributed A: over every rank's rows */
        return eps * (s->op.abs_norm(&s->op, x) + s->conv.bnorm);
    if (s->A) {
        const hpls_csr *A = s->A;
        for (hpls_int i = 0; i < A->nrows; i++) {
            double sum = 0.0; /* (|A| |x|)_i */
            for (hpls_int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++)
                sum += fabs((double)A->val[p]) * fabs((double)x[A->colind[p]]);
            ss += sum * sum;
        }
    } else if (s->Ad) {
        const hpls_dense *D = s->Ad;
        for (hpls_int i = 0; i < D->nrows; i++) {
            double sum = 0.0;
            for (hpls_int j = 0; j < D->ncols; j++)
                sum += fabs((double)D->data[i * D->ncols + j]) * fabs((double)x[j]);
            ss += sum * sum;
        }
    } else {
        return 0.0;
    }
    return eps * (sqrt(ss) + s->conv.bnorm);
}

int hpls_conv_met(hpls_solver *s, hpls_int it, const hpls_dvec *r, double rnorm)
{
    if (it < s->opt.miniter)
        return 0;
    if (!s->conv_fn)
        return islessequal(rnorm, s->conv.target); /* quiet: NaN after a device failure */
    return s->conv_fn(s->conv_ctx, it, s->op.n, hpls_v_host(s->be, r), rnorm) != 0;
}

/* The stopping decision for residual norm rnorm after iteration it.  notify:
 * record it in the history and tell the monitor (once per iteration). */
static hpls_reason test(hpls_solver *s, hpls_int it, double rnorm, int notify)
{
    const hpls_options *o = &s->opt;
    hpls_conv *c = &s->conv;
    double rel = c->test_bnorm > 0 ? rnorm / c->test_bnorm : rnorm;
    if (notify) {
        record(s, it, rel);
        if (s->monitor && s->monitor(s->monitor_ctx, it, rnorm, rel))
            s->monitor_stop = 1;
    } else if (s->hist_len > 0 && s->hist_it[s->hist_len - 1] == it) {
        s->hist_res[s->hist_len - 1] = rel; /* the true residual replaces the estimate */
    }
    s->info.iterations = it;
    if (s->be->err != HPLS_OK) /* hpls_solver_solve returns the failure */
        return HPLS_DIVERGED_BREAKDOWN;
    if (!isfinite(rnorm))
        return HPLS_DIVERGED_NAN;
    if (hpls_conv_met(s, it, c->r, rnorm))
        return s->conv_fn ? HPLS_CONVERGED_USER
               : rnorm <= o->tol * (o->ref == HPLS_REF_R0 ? c->r0norm : c->test_bnorm)
                   ? HPLS_CONVERGED_RTOL
                   : HPLS_CONVERGED_ATOL;
    if (c->r0norm > 0 && rnorm > o->divtol * c->r0norm)
        return HPLS_DIVERGED_GROWTH;
    if (flat(&c->band, &c->band_it, it, rnorm, o->stag_window)) {
        hpls_solver_fail(s, HPLS_OK,
                         "the residual stayed within a factor %g of %.3g for %lld iterations",
                         1.0 + HPLS_STAG_BAND, c->band, (long long)(it - c->band_it));
        return HPLS_DIVERGED_STAGNATION;
    }
    if (s->monitor_stop)
        return HPLS_STOPPED_USER;
    if (it >= o->maxiter)
        return HPLS_DIVERGED_MAXIT;
    return HPLS_NOT_RUN;
}

void hpls_conv_finish(hpls_solver *s, const hpls_real *x)
{
    hpls_reason r = s->info.reason;
    if ((r != HPLS_DIVERGED_STAGNATION && r != HPLS_DIVERGED_MAXIT) || s->conv_fn)
        return; /* (a user's test has no target to compare with) */
    double level = attainable(s, x), rn = s->info.resnorm;
    if (level > 0 && rn <= HPLS_ACC_FACTOR * level && rn > s->conv.target) {
        s->info.reason = HPLS_DIVERGED_ACCURACY;
        hpls_solver_fail(s, HPLS_OK,
                         "the residual reached %.3g, %.3g x eps*(|| |A| |x| || + ||b||) = %.3g, "
                         "the rounding error of b - A x; the tolerance asks for %.3g",
                         rn, rn / level, level, s->conv.target);
    }
}

hpls_reason hpls_conv_column(const hpls_solver *s, hpls_colconv *c, hpls_int it, double rnorm)
{
    const hpls_options *o = &s->opt;
    if (!isfinite(rnorm))
        return HPLS_DIVERGED_NAN;
    if (rnorm <= c->target && it >= o->miniter)
        return rnorm <= o->tol * (o->ref == HPLS_REF_R0 ? c->r0norm : c->bnorm)
                   ? HPLS_CONVERGED_RTOL
                   : HPLS_CONVERGED_ATOL;
    if (c->r0norm > 0 && rnorm > o->divtol * c->r0norm)
        return HPLS_DIVERGED_GROWTH;
    if (flat(&c->band, &c->band_it, it, rnorm, o->stag_window))
        return HPLS_DIVERGED_STAGNATION;
    if (it >= o->maxiter)
        return HPLS_DIVERGED_MAXIT;
    return HPLS_NOT_RUN;
}

hpls_reason hpls_conv_column_start(const hpls_solver *s, hpls_colconv *c, double bnorm,
                                   double r0norm)
{
    double ref = s->opt.ref == HPLS_REF_R0 ? r0norm : bnorm;
    *c = (hpls_colconv){.bnorm = bnorm,
                        .r0norm = r0norm,
                        .band = r0norm,
                        .target = fmax(s->opt.tol * ref, s->opt.atol)};
    return hpls_conv_column(s, c, 0, r0norm);
}

hpls_reason hpls_conv_start(hpls_solver *s, double r0norm)
{
    hpls_conv *c = &s->conv;
    c->r0norm = r0norm;
    c->band = r0norm;
    c->band_it = 0;
    c->confirms = 0;
    double ref = s->opt.ref == HPLS_REF_R0 ? r0norm : c->test_bnorm;
    c->target = fmax(s->opt.tol * ref, s->opt.atol);
    hpls_reason r = test(s, 0, r0norm, 1);
    s->info.reason = r;
    return r;
}

void hpls_conv_use_precond_norm(hpls_solver *s, double pbnorm)
{
    s->conv.test_bnorm = pbnorm;
    s->info.precond_norm = 1;
}

hpls_reason hpls_conv_check(hpls_solver *s, hpls_int it, double rnorm)
{
    hpls_reason r = test(s, it, rnorm, 1);
    s->info.reason = r;
    return r;
}

/* A recursive residual can drift from the true one; accept convergence only
 * when b - A x passes too.  Give up after a few restarts that did not help. */
hpls_reason hpls_conv_confirm(hpls_solver *s, const hpls_dvec *b, const hpls_dvec *x, hpls_dvec *r,
                              hpls_int it)
{
    double rnorm = hpls_op_residual(s, b, x, r);
    hpls_conv *c = &s->conv;
    if (hpls_conv_met(s, it, r, rnorm) || !isfinite(rnorm) || it >= s->opt.maxiter ||
        s->be->err) {
        s->info.reason = test(s, it, rnorm, 0);
        if (s->info.reason != HPLS_NOT_RUN) { /* the method stops with this x */
            c->final_x = x;
            c->final_rnorm = rnorm;
        }
        return s->info.reason;
    }
    if (++c->confirms >= 5) {
        s->info.reason = HPLS_DIVERGED_STAGNATION;
        return s->info.reason;
    }
    s->info.reason = HPLS_NOT_RUN;
    return HPLS_NOT_RUN;
}

int hpls_conv_step(hpls_solver *s, hpls_int it, double rnorm, const hpls_dvec *b,
                   const hpls_dvec *x, hpls_dvec *r, int *restart)
{
    hpls_reason why = hpls_conv_check(s, it, rnorm);
    if (hpls_reason_converged(why)) {
        why = hpls_conv_confirm(s, b, x, r, it);
        *restart = why == HPLS_NOT_RUN;
    }
    return why != HPLS_NOT_RUN;
}

hpls_status hpls_breakdown(hpls_solver *s, double value, const char *what, hpls_int it)
{
    s->info.reason = isfinite(value) ? HPLS_DIVERGED_BREAKDOWN : HPLS_DIVERGED_NAN;
    return hpls_solver_fail(s, HPLS_OK, "%s = %g at iteration %lld", what, value, (long long)it);
}

int hpls_guard(hpls_solver *s, double value, const char *what, hpls_int it, int fresh)
{
    if (value != 0.0 && isfinite(value))
        return 0;
    if (isfinite(value) && !fresh)
        return 1;
    hpls_breakdown(s, value, what, it);
    return -1;
}

hpls_status hpls_indefinite(hpls_solver *s, double value, const char *what, hpls_int it)
{
    s->info.reason = isnan(value) ? HPLS_DIVERGED_NAN : HPLS_DIVERGED_INDEFINITE;
    s->info.iterations = it - 1;
    return hpls_solver_fail(s, HPLS_OK, "%s = %g at iteration %lld: %s", what, value, (long long)it,
                            isnan(value) ? "NaN in the iteration"
                                         : "A or M is not definite");
}
