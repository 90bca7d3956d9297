/* SPDX-License-Identifier: BSD-3-Clause */
/* bicgstab.c: BiCGSTAB with right preconditioning (van der Vorst, SIAM J. Sci.
 * Stat. Comput. 13(2), 1992, Alg. "preconditioned Bi-CGSTAB").
 *
 *   r = b - A x; rhat = r; rho = alpha = omega = 1; v = p = 0
 *   loop: rho' = (rhat, r); beta = (rho'/rho)(alpha/omega)
 *         p = r + beta (p - omega v); phat = M^-1 p; v = A phat
 *         alpha = rho' / (rhat, v); s = r - alpha v
 *         shat = M^-1 s; t = A shat; omega = (t, s) / (t, t)  (stop if ||s|| small)
 *         x += alpha phat + omega shat; r = s - omega t
 * A vanishing rho' or (rhat, v) first restarts with rhat = r (the standard
 * remedy); if it vanishes again at once the solve stops with BREAKDOWN.
 * omega = 0 means the iteration cannot progress: BREAKDOWN.
 * The vector updates are fused (p, dot3, xr: bicgstab_kernels.h) with the same
 * operation order as separate kernels, so fusing changed the passes over
 * memory, not the iterates.  ||s|| is taken with (t, t) and (t, s), so an
 * iteration has three reductions: (rhat, v); (t, t), (t, s), (s, s); and
 * ||r||, (rhat, r).  (A solve converging at a half step thus pays one M^-1 s
 * and A shat it does not use, once.)  A user's convergence test is asked at
 * the half step before them instead, on (s, s) reduced alone: four
 * reductions an iteration, as OpenFOAM's PBiCGStab makes besides its test. */
#include "iter/bicgstab_kernels.h"
#include "iter/method.h"

#include <math.h>

/* Each family's kernels (kernels/bicgstab.h), at its index. */
#define BICGSTAB_OF_(f, p)                                                                         \
    [HPLS_KF_##f] = {hpls_##p##_bicgstab_p, hpls_##p##_bicgstab_dot3, hpls_##p##_bicgstab_xr},
static const hpls_bicgstab_kernels kernels[HPLS_KF_COUNT] = {HPLS_KFAMILIES(BICGSTAB_OF_)};

const hpls_bicgstab_kernels *hpls_bicgstab_kernels_of(const hpls_backend *be)
{
    return &kernels[be->v->family];
}

/* The second half of an iteration up to omega: shat = M^-1 s, t = A shat,
 * and (t, t), (t, s), (s, s) in one reduction; returns shat. */
static const hpls_dvec *second_half(hpls_mctx *mc, const hpls_bicgstab_kernels *K,
                                    const hpls_dvec *sv, hpls_dvec *shatbuf, hpls_dvec *t,
                                    double *tt, double *ts, double *ss)
{
    const hpls_dvec *shat = hpls_m_pc_apply(mc, sv, shatbuf); /* shat = M^-1 s */
    hpls_m_op_apply(mc, shat, t);                             /* t = A shat */
    K->dot3(mc->be, mc->n, t, sv, tt, ts, ss);
    return shat;
}

hpls_status hpls_solve_bicgstab(hpls_mctx *mc, const hpls_dvec *b, hpls_dvec *x)
{
    hpls_backend *be = mc->be;
    const hpls_bicgstab_kernels *K = hpls_bicgstab_kernels_of(be);
    hpls_int n = mc->n;
    hpls_dvec *r = mc->work[0], *rhat = mc->work[1], *p = mc->work[2], *v = mc->work[3];
    hpls_dvec *sv = mc->work[4], *t = mc->work[5], *phatbuf = mc->work[6], *shatbuf = mc->work[7];
    double rnorm = hpls_m_op_residual(mc, b, x, r); /* r = b - A x */
    mc->conv.r = r; /* what a user's convergence test sees (s is copied there at a half step) */
    if (hpls_conv_start(mc, rnorm) != HPLS_NOT_RUN)
        return HPLS_OK;
    double rho = 1.0, alpha = 1.0, omega = 1.0;
    double rhat_r = 0.0; /* (rhat, r), summed by the fused update of r */
    int restart = 1;
    hpls_int restarted_at = -1;
    /* One iteration without preconditioner reads 14 and writes 4 vectors of n
     * besides its two SpMVs (each reading A and x, writing y once):
     *   p = r + beta (p - omega v)                    3 reads, 1 write
     *   (rhat, v)                                     2 reads
     *   s = r - alpha v                               2 reads, 1 write
     *   (t, t), (t, s), (s, s)                        2 reads
     *   x += alpha p + omega s; r = s - omega t;
     *   ||r||, (rhat, r)                              5 reads, 2 writes
     * A preconditioner adds its two applications and one read (shat != s). */
    for (hpls_int it = 1;; it++) {
        if (restart) {
            hpls_v_copy(be, n, r, rhat); /* rhat = r */
            hpls_v_copy(be, n, r, p);    /* p = r */
            rho = hpls_v_dot(be, n, rhat, r);
            restart = 0;
            restarted_at = it;
        } else {
            double rho_new = rhat_r;
            int g = hpls_guard(mc, rho_new, "rho = (rhat, r)", it, restarted_at == it - 1);
            if (g < 0)
                return HPLS_OK;
            if (g > 0) { /* restart with rhat = r */
                restart = 1;
                it--;
                continue;
            }
            double beta = (rho_new / rho) * (alpha / omega);
            K->p(be, n, r, beta, omega, v, p); /* p = r + beta (p - omega v) */
            rho = rho_new;
        }
        const hpls_dvec *phat = hpls_m_pc_apply(mc, p, phatbuf); /* phat = M^-1 p */
        hpls_m_op_apply(mc, phat, v);                            /* v = A phat */
        double sigma = hpls_v_dot(be, n, rhat, v);
        int g = hpls_guard(mc, sigma, "(rhat, A p)", it, restarted_at == it);
        if (g < 0)
            return HPLS_OK;
        if (g > 0) {
            restart = 1;
            it--;
            continue;
        }
        alpha = rho / sigma;
        hpls_v_waxpy(be, n, -alpha, v, r, sv); /* s = r - alpha v */
        /* A user's test (OpenFOAM's) is asked about s before M^-1 s and A shat,
         * where PBiCGStab asks it, so a solve it stops at the half step makes
         * neither, for a reduction of its own, (s, s); tol's test takes ||s||
         * from dot3, a reduction fewer. */
        const hpls_dvec *shat = NULL;
        double tt = 0.0, ts = 0.0, ss;
        if (mc->conv_fn)
            ss = hpls_v_dot(be, n, sv, sv);
        else
            shat = second_half(mc, K, sv, shatbuf, t, &tt, &ts, &ss);
        double snorm = hpls_be_norm(be, n, ss, sv);
        if (hpls_conv_met(mc, it, sv, snorm)) { /* converged at the half step */
            hpls_v_axpy(be, n, alpha, phat, x);
            hpls_v_copy(be, n, sv, r);
            hpls_reason why = hpls_conv_check(mc, it, snorm);
            if (hpls_reason_converged(why))
                why = hpls_conv_confirm(mc, b, x, r, it);
            if (why != HPLS_NOT_RUN)
                return HPLS_OK;
            restart = 1;
            continue;
        }
        if (!shat)
            shat = second_half(mc, K, sv, shatbuf, t, &tt, &ts, &ss);
        omega = isgreater(tt, 0.0) ? ts / tt : 0.0; /* quiet: tt is NaN after a device failure */
        /* x += alpha phat + omega shat; r = s - omega t */
        K->xr(be, n, alpha, phat, omega, shat, sv, t, rhat, x, r, &rnorm, &rhat_r);
        if (hpls_conv_step(mc, it, rnorm, b, x, r, &restart))
            return HPLS_OK;
        if (!restart && hpls_guard(mc, omega, "omega", it, 1))
            return HPLS_OK;
    }
}
