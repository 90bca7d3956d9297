/* SPDX-License-Identifier: BSD-3-Clause */
/* transform.c (solver): reorder and scale: the transformed system Dr P A Q Dc
 * built at setup, b and x carried into it and back at each solve, and
 * scale's rounds of confirmation on the user's A.  A solve carries b and x
 * and computes the user's residual through s->env (driver.h): the functions
 * here are one process's, a distributed matrix has src/mpi's. */
#include "options.h"
#include "solver/driver.h"

#include "la/matching.h"
#include "la/rcm.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* reorder=rcm: s->Aperm = P A P^T; reorder=matching: A Q, the columns in the
 * order of the product matching (Q's column k: A's colof[k]); scale: the
 * rows and columns of A scaled first (Dr A Dc Q: the permutation and the
 * scaling commute).  The buffers of the transformed b, x and of the true
 * residual are allocated here.  s->fmt says what was done. */
hpls_status hpls_solver_transform(hpls_solver *s, const hpls_csr *A)
{
    const hpls_options *o = &s->opt;
    hpls_int n = A->nrows;
    hpls_status st = HPLS_OK;
    if (o->part_nblocks > 0 && o->reorder)
        return hpls_fail(HPLS_ERR_OPTION,
                         "a user partition (pjg) names unknowns of A: "
                         "it cannot be combined with reorder=%s",
                         o->reorder == 1 ? "rcm" : "matching");
    if (!(s->pb = hpls_malloc(n, sizeof *s->pb)) || !(s->px = hpls_malloc(n, sizeof *s->px)) ||
        !(s->pr = hpls_malloc(n, sizeof *s->pr)) ||
        (o->reorder && !(s->perm = hpls_malloc(n, sizeof *s->perm))) ||
        (o->scale &&
         (!(s->dr = hpls_malloc(n, sizeof *s->dr)) || !(s->dc = hpls_malloc(n, sizeof *s->dc)))))
        return HPLS_ERR_NOMEM;
    double tmatch = 0;
    if (o->reorder == 1) {
        if ((st = hpls_rcm(A, s->perm)) != HPLS_OK)
            return st;
        s->rp = s->cp = s->perm;
    }
    if (o->reorder == 2 || o->scale == 2) {
        hpls_int *colof = o->reorder == 2 ? s->perm : hpls_malloc(n, sizeof *colof);
        if (!colof)
            return HPLS_ERR_NOMEM;
        tmatch = hpls_wtime();
        st = hpls_match_product(A, colof, o->scale == 2 ? s->dr : NULL,
                                o->scale == 2 ? s->dc : NULL);
        tmatch = hpls_wtime() - tmatch;
        if (colof != s->perm)
            hpls_free(colof);
        if (st != HPLS_OK)
            return st;
        if (o->reorder == 2)
            s->cp = s->perm;
    }
    int sweeps =
        o->scale == 1 ? hpls_scale_ruiz(A, HPLS_RUIZ_TOL, HPLS_RUIZ_SWEEPS, s->dr, s->dc) : 0;
    if (sweeps < 0)
        return HPLS_ERR_NOMEM;
    if ((st = hpls_csr_scale_permute(A, s->rp, s->cp, s->dr, s->dc, &s->Aperm)) != HPLS_OK)
        return st;
    int used = 0;
    if (o->reorder == 1)
        used = snprintf(s->fmt, sizeof s->fmt, "rcm: bandwidth %lld -> %lld",
                        (long long)hpls_csr_bandwidth(A), (long long)hpls_csr_bandwidth(s->Aperm));
    else if (o->reorder == 2)
        used = snprintf(s->fmt, sizeof s->fmt, "matching: zero diagonals %lld -> %lld",
                        (long long)hpls_csr_zero_diagonals(A),
                        (long long)hpls_csr_zero_diagonals(s->Aperm));
    if (o->scale)
        snprintf(s->fmt + used, sizeof s->fmt - (size_t)used, "%sscale=%s", used ? ", " : "",
                 o->scale == 1 ? "ruiz" : "matching");
    if (o->scale == 1)
        snprintf(s->fmt + strlen(s->fmt), sizeof s->fmt - strlen(s->fmt), " (%d sweeps)", sweeps);
    if (o->reorder == 2 || o->scale == 2)
        snprintf(s->fmt + strlen(s->fmt), sizeof s->fmt - strlen(s->fmt),
                 " (product matching %.2g s)", tmatch);
    return HPLS_OK;
}

/* The message of a failed reorder or scale. */
hpls_status hpls_solver_transform_fail(hpls_solver *s, hpls_status st)
{
    return hpls_solver_fail(s, st, "%s%s%s: %s", s->opt.reorder ? "reorder=" : "scale=",
                            hpls_optset_get(&s->os, s->opt.reorder ? "reorder" : "scale"),
                            s->opt.reorder && s->opt.scale ? " with scale" : "", hpls_last_error());
}

/* The transformed system's b and x (reorder, scale), in one process (s->env:
 * a distributed one's are src/mpi/dist_transform.c's):
 *   pb_k = dr_{rp_k} b_{rp_k},   px_l = x_{cp_l} / dc_{cp_l}
 * so that Aperm px = pb is A x = b (row rp_k of it times dr). */
void hpls_solver_to_inner(hpls_solver *s, const hpls_real *b, const hpls_real *x)
{
    for (hpls_int k = 0; k < s->op.n; k++) {
        hpls_int i = s->rp ? s->rp[k] : k, j = s->cp ? s->cp[k] : k;
        s->pb[k] = (s->dr ? s->dr[i] : 1.0) * b[i];
        s->px[k] = x[j] / (s->dc ? s->dc[j] : 1.0);
    }
}

/* x = Dc Q px: the user's unknowns from the transformed system's. */
void hpls_solver_from_inner(hpls_solver *s, hpls_real *x)
{
    for (hpls_int l = 0; l < s->op.n; l++) {
        hpls_int j = s->cp ? s->cp[l] : l;
        x[j] = (s->dc ? s->dc[j] : 1.0) * s->px[l];
    }
}

/* ||b - A x|| on the user's matrix (s->pr holds the residual), in one process. */
double hpls_solver_user_residual(hpls_solver *s, const hpls_real *b, const hpls_real *x)
{
    double rn = 0;
    s->be->k->residual_block(s->be->nthreads, s->Auser, 1, b, x, s->pr, s->op.n, &rn);
    hpls_be_reduce(s->be, &rn, 1, HPLS_RED_SUM);
    return sqrt(rn);
}

/* Rounds of confirmation for scale=: the method's test sees Dr r, not r, so a
 * solve converged on the scaled system is confirmed on ||b - A x|| against
 * the user's target; where that is not met, the method goes on from x with
 * its tolerance tightened by the ratio it missed by (at most SCALED_ROUNDS
 * rounds, maxiter iterations in all).  Still missed: stagnation, said so. */
enum { SCALED_ROUNDS = 4 };
hpls_status hpls_solver_solve_scaled(hpls_solver *s, const hpls_real *b, hpls_real *x)
{
    hpls_options keep = s->opt;
    hpls_int n = s->op.n, its = 0;
    double bn = 0, r0 = 0;
    for (hpls_int i = 0; i < n; i++)
        bn += b[i] * b[i];
    hpls_be_reduce(s->be, &bn, 1, HPLS_RED_SUM); /* over the ranks (one process: as is) */
    bn = sqrt(bn);
    r0 = keep.ref == HPLS_REF_R0 && keep.initial_guess ? s->env->user_residual(s, b, x) : bn;
    double target = fmax(keep.tol * (keep.ref == HPLS_REF_R0 ? r0 : bn), keep.atol);
    hpls_status st = HPLS_OK;
    for (int round = 0;; round++) {
        s->env->to_inner(s, b, x);
        if ((st = hpls_solver_solve_on_backend(s, s->pb, s->px)) != HPLS_OK)
            break;
        its += s->info.iterations;
        s->env->from_inner(s, x);
        double rn = s->env->user_residual(s, b, x), inner = s->info.resnorm;
        s->info.resnorm = rn;
        s->info.iterations = its;
        hpls_int i = 0; /* x unscaled may overflow where an empty column hides it from rn */
        while (i < n && isfinite(x[i]))
            i++;
        double bad = i < n;
        hpls_be_reduce(s->be, &bad, 1, HPLS_RED_MAX);
        if (hpls_reason_converged(s->info.reason) && (!isfinite(rn) || bad > 0)) {
            /* finite on the scaled system, overflowing on the user's A */
            s->info.reason = HPLS_DIVERGED_NAN;
            snprintf(s->msg, sizeof s->msg,
                     "converged on the scaled system, but ||b - A x|| = %g on A", rn);
        }
        if (!hpls_reason_converged(s->info.reason) || rn <= target)
            break;
        if (round == SCALED_ROUNDS || its >= keep.maxiter) {
            s->info.reason = its >= keep.maxiter ? HPLS_DIVERGED_MAXIT : HPLS_DIVERGED_STAGNATION;
            snprintf(s->msg, sizeof s->msg,
                     "converged on the scaled system, but ||b - A x|| = %.3g > %.3g on A "
                     "after %d rounds",
                     rn, target, round + 1);
            break;
        }
        s->opt.tol = fmin(inner / s->mc.conv.bnorm * target / rn * 0.5, keep.tol);
        s->opt.atol = 0;
        s->opt.ref = HPLS_REF_B;
        s->opt.initial_guess = 1;
        s->opt.maxiter = keep.maxiter - its;
    }
    s->opt = keep;
    s->mc.conv.bnorm = bn; /* relres on the user's system */
    return st;
}
