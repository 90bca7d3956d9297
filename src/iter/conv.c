/* SPDX-License-Identifier: BSD-3-Clause */
/* conv.c: the convergence test every method calls once per iteration:
 * history, monitor, and the stopping reasons (converged by rtol or atol;
 * diverged by maxiter, NaN, growth, stagnation, or a tolerance below the
 * attainable accuracy). */
#include "iter/method.h"

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
static void record(hpls_mctx *mc, hpls_int it, double rel)
{
    if (mc->hist.len == mc->hist.cap) {
        hpls_int cap = mc->hist.cap ? 2 * mc->hist.cap : 256;
        hpls_int *ni = hpls_malloc(cap, sizeof *ni);
        double *nr = hpls_malloc(cap, sizeof *nr), *nt = hpls_malloc(cap, sizeof *nt);
        if (!ni || !nr || !nt) { /* the history is a convenience: stop recording */
            hpls_free(ni);
            hpls_free(nr);
            hpls_free(nt);
            return;
        }
        for (hpls_int k = 0; k < mc->hist.len; k++) {
            ni[k] = mc->hist.it[k];
            nr[k] = mc->hist.res[k];
            nt[k] = mc->hist.t[k];
        }
        hpls_free(mc->hist.it);
        hpls_free(mc->hist.res);
        hpls_free(mc->hist.t);
        mc->hist.it = ni;
        mc->hist.res = nr;
        mc->hist.t = nt;
        mc->hist.cap = cap;
    }
    mc->hist.it[mc->hist.len] = it;
    mc->hist.res[mc->hist.len] = rel;
    mc->hist.t[mc->hist.len] = hpls_wtime() - mc->conv.t0;
    mc->hist.len++;
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
static double attainable(const hpls_mctx *mc, const hpls_real *x)
{
    double eps = sizeof(hpls_real) < sizeof(double) ? FLT_EPSILON : DBL_EPSILON, ss = 0.0;
    if (mc->op->abs_norm) /* a distributed A: over every rank's rows */
        return eps * (mc->op->abs_norm(mc->op, x) + mc->conv.bnorm);
    if (mc->A) {
        const hpls_csr *A = mc->A;
        for (hpls_int i = 0; i < A->nrows; i++) {
            double sum = 0.0; /* (|A| |x|)_i */
            for (hpls_int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++)
                sum += fabs((double)A->val[p]) * fabs((double)x[A->colind[p]]);
            ss += sum * sum;
        }
    } else if (mc->Ad) {
        const hpls_dense *D = mc->Ad;
        for (hpls_int i = 0; i < D->nrows; i++) {
            double sum = 0.0;
            for (hpls_int j = 0; j < D->ncols; j++)
                sum += fabs((double)D->data[i * D->ncols + j]) * fabs((double)x[j]);
            ss += sum * sum;
        }
    } else {
        return 0.0;
    }
    return eps * (sqrt(ss) + mc->conv.bnorm);
}

int hpls_conv_met(hpls_mctx *mc, hpls_int it, const hpls_dvec *r, double rnorm)
{
    if (!mc->conv_fn) /* islessequal: quiet, rnorm is NaN after a device failure */
        return it >= mc->opt.miniter && islessequal(rnorm, mc->conv.target);
    /* a user's test sees iteration 0's b - A x0 even under miniter: its reference
     * may come from there (OpenFOAM's normFactor needs A x0), computed once */
    if (it > 0 && it < mc->opt.miniter)
        return 0;
    int met = mc->conv_fn(mc->conv_ctx, it, mc->n, hpls_v_host(mc->be, r), rnorm) != 0;
    return met && it >= mc->opt.miniter;
}

/* The stopping decision for residual norm rnorm after iteration it.  notify:
 * record it in the history and tell the monitor (once per iteration). */
static hpls_reason test(hpls_mctx *mc, hpls_int it, double rnorm, int notify)
{
    const hpls_mopts *o = &mc->opt;
    hpls_conv *c = &mc->conv;
    double rel = c->test_bnorm > 0 ? rnorm / c->test_bnorm : rnorm;
    if (notify) {
        record(mc, it, rel);
        if (mc->monitor && mc->monitor(mc->monitor_ctx, it, rnorm, rel))
            mc->monitor_stop = 1;
    } else if (mc->hist.len > 0 && mc->hist.it[mc->hist.len - 1] == it) {
        mc->hist.res[mc->hist.len - 1] = rel; /* the true residual replaces the estimate */
    }
    mc->info.iterations = it;
    c->tested = rnorm;
    if (mc->be->err != HPLS_OK) /* hpls_solver_solve returns the failure */
        return HPLS_DIVERGED_BREAKDOWN;
    if (!isfinite(rnorm))
        return HPLS_DIVERGED_NAN;
    if (hpls_conv_met(mc, it, c->r, rnorm))
        return mc->conv_fn ? HPLS_CONVERGED_USER
               : rnorm <= o->tol * (o->ref == HPLS_REF_R0 ? c->r0norm : c->test_bnorm)
                   ? HPLS_CONVERGED_RTOL
                   : HPLS_CONVERGED_ATOL;
    if (c->r0norm > 0 && rnorm > o->divtol * c->r0norm)
        return HPLS_DIVERGED_GROWTH;
    if (flat(&c->band, &c->band_it, it, rnorm, o->stag_window)) {
        hpls_m_fail(mc, HPLS_OK,
                    "the residual stayed within a factor %g of %.3g for %lld iterations",
                    1.0 + HPLS_STAG_BAND, c->band, (long long)(it - c->band_it));
        return HPLS_DIVERGED_STAGNATION;
    }
    if (mc->monitor_stop)
        return HPLS_STOPPED_USER;
    if (it >= o->maxiter)
        return HPLS_DIVERGED_MAXIT;
    return HPLS_NOT_RUN;
}

hpls_reason hpls_conv_finish(hpls_mctx *mc, const hpls_real *x, hpls_reason r, double rn)
{
    if ((r != HPLS_DIVERGED_STAGNATION && r != HPLS_DIVERGED_MAXIT) || mc->conv_fn)
        return r; /* (a user's test has no target to compare with) */
    double level = attainable(mc, x);
    if (level > 0 && rn <= HPLS_ACC_FACTOR * level && rn > mc->conv.target) {
        hpls_m_fail(mc, HPLS_OK,
                    "the residual reached %.3g, %.3g x eps*(|| |A| |x| || + ||b||) = %.3g, "
                    "the rounding error of b - A x; the tolerance asks for %.3g",
                    rn, rn / level, level, mc->conv.target);
        return HPLS_DIVERGED_ACCURACY;
    }
    return r;
}

hpls_reason hpls_conv_column(const hpls_mctx *mc, hpls_colconv *c, hpls_int it, double rnorm)
{
    const hpls_mopts *o = &mc->opt;
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

hpls_reason hpls_conv_column_start(const hpls_mctx *mc, hpls_colconv *c, double bnorm,
                                   double r0norm)
{
    double ref = mc->opt.ref == HPLS_REF_R0 ? r0norm : bnorm;
    *c = (hpls_colconv){.bnorm = bnorm,
                        .r0norm = r0norm,
                        .band = r0norm,
                        .target = fmax(mc->opt.tol * ref, mc->opt.atol)};
    return hpls_conv_column(mc, c, 0, r0norm);
}

void hpls_block_norms(const hpls_mctx *mc, hpls_int k, const hpls_real *V, double *nrm)
{
    hpls_int n = mc->n;
    for (hpls_int j = 0; j < k; j++) {
        const hpls_real *v = V + j * n;
        double ss = 0.0;
#pragma omp parallel for num_threads(mc->be->nthreads) reduction(+ : ss) schedule(static) if (n > 32768)
        for (hpls_int i = 0; i < n; i++)
            ss += v[i] * v[i];
        nrm[j] = ss;
    }
    hpls_be_reduce(mc->be, nrm, (int)k, HPLS_RED_SUM);
    for (hpls_int j = 0; j < k; j++)
        nrm[j] = sqrt(nrm[j]);
}

void hpls_block_residual(const hpls_mctx *mc, hpls_int k, const hpls_real *B, const hpls_real *X,
                         hpls_real *R, double *rnorm)
{
    hpls_backend *be = mc->be;
    be->k->residual_block(be->nthreads, mc->A, k, B, X, R, mc->n, rnorm);
    hpls_be_reduce(be, rnorm, (int)k, HPLS_RED_SUM);
    for (hpls_int j = 0; j < k; j++)
        rnorm[j] = sqrt(rnorm[j]);
}

hpls_reason hpls_conv_start(hpls_mctx *mc, double r0norm)
{
    hpls_conv *c = &mc->conv;
    c->r0norm = r0norm;
    c->band = r0norm;
    c->band_it = 0;
    c->confirms = 0;
    double ref = mc->opt.ref == HPLS_REF_R0 ? r0norm : c->test_bnorm;
    c->target = fmax(mc->opt.tol * ref, mc->opt.atol);
    hpls_reason r = test(mc, 0, r0norm, 1);
    mc->info.reason = r;
    return r;
}

void hpls_conv_use_precond_norm(hpls_mctx *mc, double pbnorm)
{
    mc->conv.test_bnorm = pbnorm;
    mc->info.precond_norm = 1;
}

hpls_reason hpls_conv_check(hpls_mctx *mc, hpls_int it, double rnorm)
{
    hpls_reason r = test(mc, it, rnorm, 1);
    mc->info.reason = r;
    return r;
}

/* A recursive residual can drift from the true one; accept convergence only
 * when b - A x passes too.  Give up after a few restarts that did not help. */
hpls_reason hpls_conv_confirm(hpls_mctx *mc, const hpls_dvec *b, const hpls_dvec *x, hpls_dvec *r,
                              hpls_int it)
{
    hpls_conv *c = &mc->conv;
    /* confirm=no: the user's test decided on the residual it was shown, as
     * KSPSolve's test does: no b - A x, the report takes the tested norm */
    if (mc->conv_fn && !mc->opt.confirm) {
        c->final_x = x;
        c->final_rnorm = c->tested;
        c->unconfirmed = 1;
        return mc->info.reason;
    }
    double rnorm = hpls_m_op_residual(mc, b, x, r);
    if (hpls_conv_met(mc, it, r, rnorm) || !isfinite(rnorm) || it >= mc->opt.maxiter ||
        mc->be->err) {
        mc->info.reason = test(mc, it, rnorm, 0);
        if (mc->info.reason != HPLS_NOT_RUN) { /* the method stops with this x */
            c->final_x = x;
            c->final_rnorm = rnorm;
        }
        return mc->info.reason;
    }
    if (++c->confirms >= 5) {
        mc->info.reason = HPLS_DIVERGED_STAGNATION;
        return mc->info.reason;
    }
    mc->info.reason = HPLS_NOT_RUN;
    return HPLS_NOT_RUN;
}

int hpls_conv_step(hpls_mctx *mc, hpls_int it, double rnorm, const hpls_dvec *b, const hpls_dvec *x,
                   hpls_dvec *r, int *restart)
{
    hpls_reason why = hpls_conv_check(mc, it, rnorm);
    if (hpls_reason_converged(why)) {
        why = hpls_conv_confirm(mc, b, x, r, it);
        *restart = why == HPLS_NOT_RUN;
    }
    return why != HPLS_NOT_RUN;
}

hpls_status hpls_breakdown(hpls_mctx *mc, double value, const char *what, hpls_int it)
{
    mc->info.reason = isfinite(value) ? HPLS_DIVERGED_BREAKDOWN : HPLS_DIVERGED_NAN;
    return hpls_m_fail(mc, HPLS_OK, "%s = %g at iteration %lld", what, value, (long long)it);
}

int hpls_guard(hpls_mctx *mc, double value, const char *what, hpls_int it, int fresh)
{
    if (value != 0.0 && isfinite(value))
        return 0;
    if (isfinite(value) && !fresh)
        return 1;
    hpls_breakdown(mc, value, what, it);
    return -1;
}

hpls_status hpls_indefinite(hpls_mctx *mc, double value, const char *what, hpls_int it)
{
    mc->info.reason = isnan(value) ? HPLS_DIVERGED_NAN : HPLS_DIVERGED_INDEFINITE;
    mc->info.iterations = it - 1;
    return hpls_m_fail(mc, HPLS_OK, "%s = %g at iteration %lld: %s", what, value, (long long)it,
                       isnan(value) ? "NaN in the iteration" : "A or M is not definite");
}
