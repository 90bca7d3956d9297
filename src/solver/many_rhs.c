/* SPDX-License-Identifier: BSD-3-Clause */
/* many_rhs.c (solver): hpls_solver_solve_many, k right-hand sides: the
 * method's own block solve where it has one (A read once for all k), else one
 * column after another through the single solve. */
#include "solver/driver.h"

#include <math.h>
#include <string.h>

/* The method's own block solve (solve_block) on host arrays: B and X checked,
 * permuted (reorder) and back, the true residual of every column (a
 * permutation keeps its norm; scaled solves go column by column instead). */
static hpls_status solve_block(hpls_solver *s, hpls_int k, const hpls_real *B, hpls_real *X,
                               hpls_info *col)
{
    hpls_int n = s->op.n;
    for (hpls_int p = 0; p < n * k; p++)
        if (!isfinite(B[p]) || (s->opt.initial_guess && !isfinite(X[p])))
            return hpls_solver_fail(
                s, HPLS_ERR_VALUE, "%s[%lld, %lld] = %g", isfinite(B[p]) ? "initial guess X" : "B",
                (long long)(p % n) + 1, (long long)(p / n) + 1, isfinite(B[p]) ? X[p] : B[p]);
    hpls_real *Bp = hpls_malloc(n * k, sizeof *Bp), *Xp = hpls_malloc(n * k, sizeof *Xp);
    double *bn = hpls_malloc(k, sizeof *bn), *rn = hpls_malloc(k, sizeof *rn);
    hpls_status st = Bp && Xp && bn && rn ? HPLS_OK : HPLS_ERR_NOMEM;
    for (hpls_int j = 0; st == HPLS_OK && j < k; j++) /* reorder: rows rp of b, cp of x */
        for (hpls_int i = 0; i < n; i++) {
            Bp[j * n + i] = B[j * n + (s->rp ? s->rp[i] : i)];
            Xp[j * n + i] = s->opt.initial_guess ? X[j * n + (s->cp ? s->cp[i] : i)] : 0.0;
        }
    hpls_solver_context(s);
    if (st == HPLS_OK)
        st = s->opt.method->solve_block(&s->mc, k, Bp, Xp, col);
    if (st == HPLS_OK) { /* the true residuals; Bp is free for R now */
        hpls_block_norms(&s->mc, k, B, bn);
        hpls_block_residual(&s->mc, k, Bp, Xp, Bp, rn);
        for (hpls_int j = 0; j < k; j++) {
            col[j].resnorm = rn[j];
            col[j].relres = bn[j] > 0 ? rn[j] / bn[j] : rn[j];
            for (hpls_int i = 0; i < n; i++)
                X[j * n + (s->cp ? s->cp[i] : i)] = Xp[j * n + i];
            if (hpls_reason_converged(col[j].reason) && !isfinite(rn[j]))
                col[j].reason = HPLS_DIVERGED_NAN;
        }
    }
    hpls_free(Bp);
    hpls_free(Xp);
    hpls_free(bn);
    hpls_free(rn);
    if (st == HPLS_OK && s->be->err != HPLS_OK)
        st = hpls_fail(s->be->err, "%s", s->be->msg);
    if (st != HPLS_OK)
        return hpls_solver_fail(s, st, "%s: %s", s->opt.method->name, hpls_last_error());
    return HPLS_OK;
}

hpls_status hpls_solver_solve_many_sized(hpls_solver *s, hpls_int k, const hpls_real *B,
                                         hpls_real *X, hpls_info *infos, size_t info_size)
{
    if (!s || k < 0 || (k > 0 && (!B || !X)))
        return hpls_fail(HPLS_ERR_ARG, "hpls_solver_solve_many: NULL argument or k < 0");
    if (!s->ready)
        return hpls_solver_fail(s, HPLS_ERR_STATE,
                                "hpls_solver_solve_many called before a "
                                "successful hpls_solver_setup (or after an option changed)");
    hpls_int n = s->op.n;
    if (n > 0 && k > INT64_MAX / 8 / n)
        return hpls_solver_fail(s, HPLS_ERR_NOMEM,
                                "%lld right-hand sides of %lld values do not "
                                "fit in memory",
                                (long long)k, (long long)n);
    hpls_info *col = hpls_calloc(k, sizeof *col);
    if (k > 0 && !col)
        return HPLS_ERR_NOMEM;
    double t0 = hpls_wtime();
    s->msg[0] = '\0';
    hpls_be_clear(s->be);
    hpls_status st = HPLS_OK;
    /* exact (reproducible=1): column by column, whose sums are exact */
    if (s->opt.method->solve_block && s->A && !s->dr && !s->dist && !s->be->exact &&
        (!s->be->d || (s->opt.method->flags & HPLS_M_BLKDEV))) {
        st = solve_block(s, k, B, X, col);
        for (hpls_int j = 0; j < k; j++) {
            col[j].setup_s = s->info.setup_s;
            col[j].solve_s = hpls_wtime() - t0; /* the whole call's */
            col[j].threads = s->be->nthreads;
            col[j].rcond = s->info.rcond;
            col[j].ill_conditioned = s->info.ill_conditioned;
        }
    } else { /* one column after another through the single solve */
        for (hpls_int j = 0; j < k && st == HPLS_OK; j++) {
            hpls_vec b = {n, (hpls_real *)(B + j * n)}, x = {n, X + j * n};
            st = hpls_solver_solve(s, &b, &x);
            col[j] = s->info;
            if (st != HPLS_OK) {
                char why[sizeof s->msg];
                memcpy(why, s->msg, sizeof why);
                hpls_solver_fail(s, st, "right-hand side %lld: %s", (long long)j + 1, why);
            }
        }
    }
    if (st == HPLS_OK && k > 0)
        s->info = col[k - 1];
    s->info.solve_s = hpls_wtime() - t0;
    for (hpls_int j = 0; infos && j < k; j++) /* as much as the caller's hpls_info holds */
        memcpy((char *)infos + j * info_size, &col[j],
               info_size < sizeof *col ? info_size : sizeof *col);
    hpls_free(col);
    return st;
}
