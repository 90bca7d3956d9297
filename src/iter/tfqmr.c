/* SPDX-License-Identifier: BSD-3-Clause */
/* tfqmr.c: transpose-free QMR (Freund, SIAM J. Sci. Comput. 14(2), 1993;
 * Saad, Iterative Methods, 2nd ed., Alg. 7.8), right preconditioned: TFQMR on
 * A M^-1 with x = x0 + M^-1 (sum of eta d), carried as dhat = M^-1 d.
 *
 *   w = u = r = b - A x; uhat = M^-1 u; Au = A uhat; v = Au; rs = r
 *   rho = (rs, r); tau = ||r||; theta = eta = 0; dhat = 0
 *   half-step m = 0, 1, 2, ...:
 *     m even: alpha = rho / (rs, v); u' = u - alpha v
 *     w -= alpha Au; dhat = uhat + (theta^2 eta / alpha) dhat
 *     theta = ||w|| / tau; c = 1 / sqrt(1 + theta^2); tau *= theta c; eta = c^2 alpha
 *     x += eta dhat
 *     m even: u = u'; uhat = M^-1 u; Au = A uhat
 *     m odd:  rho' = (rs, w); beta = rho'/rho; u = w + beta u
 *             v = beta Au + beta^2 v; uhat = M^-1 u; Au = A uhat; v += Au
 * An iteration is a half-step (one SpMV), as in Freund's paper and scipy.
 * TFQMR has no recursive residual: the test uses the bound
 * ||b - A x_m|| <= tau_m sqrt(m + 1) (m half-steps done), and when the bound
 * passes, hpls_conv_confirm recomputes b - A x; a failed confirmation restarts
 * from the true residual.  A vanishing (rs, v) or rho' first restarts with
 * rs = r = b - A x (the standard remedy); if it vanishes again within the
 * first step (two half-steps) after that restart the solve stops with
 * BREAKDOWN. */
#include "iter/method.h"

#include <math.h>

hpls_status hpls_solve_tfqmr(hpls_mctx *mc, const hpls_dvec *b, hpls_dvec *x)
{
    hpls_backend *be = mc->be;
    hpls_int n = mc->n;
    hpls_dvec *r = mc->work[0], *rs = mc->work[1], *w = mc->work[2], *u = mc->work[3];
    hpls_dvec *u1 = mc->work[4], *v = mc->work[5], *au = mc->work[6], *dhat = mc->work[7];
    hpls_dvec *uhbuf = mc->work[8];
    double rnorm = hpls_m_op_residual(mc, b, x, r); /* r = b - A x */
    if (hpls_conv_start(mc, rnorm) != HPLS_NOT_RUN)
        return HPLS_OK;
    const hpls_dvec *uhat = u;
    double rho = 0.0, alpha = 1.0, tau = 0.0, theta = 0.0, eta = 0.0;
    hpls_int m = 0; /* half-steps since the last restart */
    int restart = 1;
    hpls_int restarted_at = -1;
    /* One half-step without preconditioner reads 13 and writes 5 vectors of n
     * on average besides its SpMV (reading A and uhat, writing Au):
     *   w -= alpha Au; ||w||                          3 reads, 1 write
     *   dhat = u + c dhat; x += eta dhat              4 reads, 2 writes
     *   even only: (rs, v); u' = u - alpha v          4 reads, 1 write
     *   odd only: (rs, w); u = w + beta u;
     *             v = beta Au + beta^2 v; v += Au     8 reads, 3 writes
     * A preconditioner adds one application (writing uhat) and one read. */
    for (hpls_int it = 1;; it++) {
        if (restart) {
            hpls_v_copy(be, n, r, rs); /* rs = r */
            hpls_v_copy(be, n, r, w);  /* w = r */
            hpls_v_copy(be, n, r, u);  /* u = r */
            hpls_v_set(be, n, 0.0, dhat);
            hpls_v_set(be, n, 0.0, u1); /* written below as 0 * (old value) + ... */
            uhat = hpls_m_pc_apply(mc, u, uhbuf);  /* uhat = M^-1 u */
            hpls_m_op_apply(mc, uhat, au);         /* Au = A uhat */
            hpls_v_copy(be, n, au, v);             /* v = Au */
            rho = hpls_v_dot(be, n, rs, r);
            tau = sqrt(rho);
            theta = eta = 0.0;
            m = 0;
            restart = 0;
            restarted_at = it;
        }
        int even = m % 2 == 0;
        if (even) {
            double sigma = hpls_v_dot(be, n, rs, v);
            int g = hpls_guard(mc, sigma, "(rs, A u)", it, restarted_at == it);
            if (g < 0)
                return HPLS_OK;
            if (g > 0) {
                hpls_m_op_residual(mc, b, x, r); /* restart from the true residual */
                restart = 1;
                it--;
                continue;
            }
            alpha = rho / sigma;
            hpls_v_axpbypcz(be, n, 1.0, u, -alpha, v, 0.0, u1); /* u' = u - alpha v */
        }
        hpls_v_axpy(be, n, -alpha, au, w);                           /* w -= alpha Au */
        hpls_v_axpby(be, n, 1.0, uhat, theta * theta * eta / alpha, dhat); /* dhat = uhat + c dhat */
        theta = hpls_v_nrm2(be, n, w) / tau;
        double c = 1.0 / sqrt(1.0 + theta * theta);
        tau *= theta * c;
        eta = c * c * alpha;
        hpls_v_axpy(be, n, eta, dhat, x); /* x += eta dhat */
        m++;
        if (hpls_conv_step(mc, it, tau * sqrt((double)m + 1.0), b, x, r, &restart))
            return HPLS_OK;
        if (restart)
            continue;
        if (even) {
            hpls_dvec *swap = u; /* u = u' */
            u = u1;
            u1 = swap;
            uhat = hpls_m_pc_apply(mc, u, uhbuf); /* uhat = M^-1 u */
            hpls_m_op_apply(mc, uhat, au);        /* Au = A uhat */
        } else {
            double rho_new = hpls_v_dot(be, n, rs, w);
            int g = hpls_guard(mc, rho_new, "rho = (rs, w)", it, restarted_at >= it - 1);
            if (g < 0)
                return HPLS_OK;
            if (g > 0) {
                hpls_m_op_residual(mc, b, x, r); /* restart from the true residual */
                restart = 1;
                continue;
            }
            double beta = rho_new / rho;
            rho = rho_new;
            hpls_v_xpay(be, n, w, beta, u);                   /* u = w + beta u */
            hpls_v_axpby(be, n, beta, au, beta * beta, v);    /* v = beta (Au + beta v) */
            uhat = hpls_m_pc_apply(mc, u, uhbuf);             /* uhat = M^-1 u */
            hpls_m_op_apply(mc, uhat, au);                    /* Au = A uhat */
            hpls_v_axpy(be, n, 1.0, au, v);                   /* v += Au */
        }
    }
}
