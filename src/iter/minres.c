/* SPDX-License-Identifier: BSD-3-Clause */
/* minres.c: MINRES for symmetric, possibly indefinite A (Paige & Saunders,
 * SIAM J. Numer. Anal. 12(4), 1975), with a symmetric positive definite
 * preconditioner M (the preconditioned Lanczos process in the M^-1 inner product).
 *
 *   r1 = r2 = b - A x; z = M^-1 r2; beta = sqrt(r2, z); phibar = beta
 *   loop: v = z / beta; y = A v - (beta/oldbeta) r1; alpha = (v, y); y -= (alpha/beta) r2
 *         r1 = r2; r2 = y; z = M^-1 r2; oldbeta = beta; beta = sqrt(r2, z)
 *         a Givens rotation (cs, sn) eliminates beta from the tridiagonal Lanczos matrix:
 *         delta = cs dbar + sn alpha; gbar = sn dbar - cs alpha; eps = sn beta;
 *         dbar = -cs beta; gamma = hypot(gbar, beta); cs = gbar/gamma; sn = beta/gamma
 *         phi = cs phibar; phibar = sn phibar
 *         w = (v - oldeps w1 - delta w2) / gamma; x += phi w
 * phibar is ||b - A x|| without a preconditioner and ||b - A x||_{M^-1} with one:
 * convergence is confirmed on the true residual, and when that fails the test
 * scales phibar by the measured ratio ||r||_2 / phibar and iterates on.  (r2, M^-1 r2) < 0 proves M is
 * not positive definite (HPLS_DIVERGED_INDEFINITE); beta = 0 is the lucky breakdown.
 * Traffic per iteration: one SpMV + about 18n (unpreconditioned). */
#include "iter/method.h"

#include <float.h>
#include <math.h>

hpls_status hpls_solve_minres(hpls_mctx *mc, const hpls_dvec *b, hpls_dvec *x)
{
    hpls_backend *be = mc->be;
    hpls_int n = mc->n;
    hpls_dvec *r1 = mc->work[0], *r2 = mc->work[1], *y = mc->work[2], *v = mc->work[3];
    hpls_dvec *w = mc->work[4], *w1 = mc->work[5], *w2 = mc->work[6], *zbuf = mc->work[7];
    hpls_dvec *t = mc->work[8];
    double rnorm = hpls_m_op_residual(mc, b, x, r2); /* r2 = b - A x */
    if (hpls_conv_start(mc, rnorm) != HPLS_NOT_RUN)
        return HPLS_OK;
    int restart = 1;
    double beta = 0, oldb = 0, dbar = 0, epsln = 0, phibar = 0, cs = -1, sn = 0;
    double scale = 1.0; /* ||r||_2 / phibar as last measured (phibar is an M^-1-norm) */
    const hpls_dvec *z = r2;
    for (hpls_int it = 1;; it++) {
        if (restart) { /* (re)start the Lanczos process from the residual in r2 */
            hpls_v_copy(be, n, r2, r1);
            z = hpls_m_pc_apply(mc, r2, zbuf);
            double b2 = hpls_v_dot(be, n, r2, z);
            if (!(b2 > 0.0))
                return hpls_indefinite(mc, b2, "(r, M^-1 r)", it);
            beta = sqrt(b2);
            oldb = 0;
            dbar = epsln = sn = 0;
            cs = -1;
            phibar = beta;
            hpls_v_set(be, n, 0.0, w);
            hpls_v_set(be, n, 0.0, w1);
            hpls_v_set(be, n, 0.0, w2);
            restart = 0;
        }
        hpls_v_axpby(be, n, 1.0 / beta, z, 0.0, v); /* v = z / beta */
        hpls_m_op_apply(mc, v, y);                  /* y = A v */
        if (oldb > 0)
            hpls_v_axpy(be, n, -beta / oldb, r1, y); /* y -= (beta/oldbeta) r1 */
        double alpha = hpls_v_dot(be, n, v, y);
        hpls_v_axpy(be, n, -alpha / beta, r2, y); /* y -= (alpha/beta) r2 */
        hpls_dvec *tmp = r1;                  /* r1 = r2; r2 = y */
        r1 = r2;
        r2 = y;
        y = tmp;
        z = hpls_m_pc_apply(mc, r2, zbuf);
        oldb = beta;
        double b2 = hpls_v_dot(be, n, r2, z);
        if (b2 < 0.0 || isnan(b2))
            return hpls_indefinite(mc, b2, "(r, M^-1 r)", it);
        beta = sqrt(b2);
        double oldeps = epsln;
        double delta = cs * dbar + sn * alpha;
        double gbar = sn * dbar - cs * alpha;
        epsln = sn * beta;
        dbar = -cs * beta;
        double gamma = fmax(hypot(gbar, beta), DBL_MIN);
        cs = gbar / gamma;
        sn = beta / gamma;
        double phi = cs * phibar;
        phibar = sn * phibar;
        tmp = w1; /* w1 = w2; w2 = w; w = (v - oldeps w1 - delta w2) / gamma */
        w1 = w2;
        w2 = w;
        w = tmp;
        hpls_v_axpbypcz(be, n, -oldeps / gamma, w1, -delta / gamma, w2, 0.0, w);
        hpls_v_axpy(be, n, 1.0 / gamma, v, w);
        hpls_v_axpy(be, n, phi, w, x); /* x += phi w */
        hpls_reason why = hpls_conv_check(mc, it, phibar * scale);
        if (hpls_reason_converged(why) || (why == HPLS_NOT_RUN && beta == 0.0)) {
            why = hpls_conv_confirm(mc, b, x, t, it); /* t: the true residual if not */
            if (why == HPLS_NOT_RUN && beta == 0.0) { /* the Lanczos process ended */
                hpls_v_copy(be, n, t, r2);
                restart = 1;
            } else if (why == HPLS_NOT_RUN) { /* phibar underestimates ||r||: rescale */
                scale = fmax(scale, 1.05 * hpls_v_nrm2(be, n, t) / phibar);
            }
        }
        if (why != HPLS_NOT_RUN)
            return HPLS_OK;
    }
}
