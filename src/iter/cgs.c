/* SPDX-License-Identifier: BSD-3-Clause */
/* cgs.c: conjugate gradients squared (Sonneveld, SIAM J. Sci. Stat. Comput.
 * 10(1), 1989), right preconditioned as in Barrett et al., Templates (1994),
 * Fig. 2.9.
 *
 *   r = b - A x; rhat = r
 *   loop: rho = (rhat, r); beta = rho / rho_old
 *         u = r + beta q; p = u + beta (q + beta p)      (first: u = p = r)
 *         phat = M^-1 p; v = A phat; alpha = rho / (rhat, v)
 *         q = u - alpha v; uhat = M^-1 (u + q)
 *         x += alpha uhat; r -= alpha A uhat
 * A vanishing rho or (rhat, v) first restarts with rhat = r (the standard
 * remedy); if it vanishes again in the restarted iteration the solve stops
 * with BREAKDOWN.  Convergence is tested on the recursive ||r||, confirmed on
 * b - A x; a failed confirmation restarts from the true residual. */
#include "iter/method.h"

#include <math.h>

hpls_status hpls_solve_cgs(hpls_mctx *mc, const hpls_dvec *b, hpls_dvec *x)
{
    hpls_backend *be = mc->be;
    hpls_int n = mc->n;
    hpls_dvec *r = mc->work[0], *rhat = mc->work[1], *u = mc->work[2], *p = mc->work[3];
    hpls_dvec *q = mc->work[4], *v = mc->work[5], *uq = mc->work[6], *hbuf = mc->work[7];
    double rnorm = hpls_m_op_residual(mc, b, x, r); /* r = b - A x */
    if (hpls_conv_start(mc, rnorm) != HPLS_NOT_RUN)
        return HPLS_OK;
    /* q and uq are written as 0 * (old value) + ...: start them finite */
    hpls_v_set(be, n, 0.0, q);
    hpls_v_set(be, n, 0.0, uq);
    double rho_old = 1.0;
    int restart = 1;
    hpls_int restarted_at = -1;
    /* One iteration without preconditioner reads 18 and writes 6 vectors of n
     * besides its two SpMVs (each reading A and x, writing y once):
     *   (rhat, r)                                      2 reads
     *   u = r + beta q; p = u + beta (q + beta p)      5 reads, 2 writes
     *   (rhat, v)                                      2 reads
     *   q = u - alpha v; uq = u + q                    4 reads, 2 writes
     *   x += alpha uq; r -= alpha A uq; ||r||          5 reads, 2 writes
     * A preconditioner adds its two applications (which write phat and uhat,
     * so v and A uhat are then formed from them). */
    for (hpls_int it = 1;; it++) {
        if (restart) {
            hpls_v_copy(be, n, r, rhat); /* rhat = r */
            restarted_at = it;
        }
        double rho = hpls_v_dot(be, n, rhat, r);
        int g = hpls_guard(mc, rho, "rho = (rhat, r)", it, restarted_at == it);
        if (g < 0)
            return HPLS_OK;
        if (g > 0) { /* restart with rhat = r */
            restart = 1;
            it--;
            continue;
        }
        if (restart) {
            hpls_v_copy(be, n, r, u); /* u = r */
            hpls_v_copy(be, n, r, p); /* p = r */
            restart = 0;
        } else {
            double beta = rho / rho_old;
            hpls_v_axpbypcz(be, n, 1.0, r, beta, q, 0.0, u);      /* u = r + beta q */
            hpls_v_axpbypcz(be, n, 1.0, u, beta, q, beta * beta, p); /* p = u + beta q + beta^2 p */
        }
        const hpls_dvec *phat = hpls_m_pc_apply(mc, p, hbuf); /* phat = M^-1 p */
        hpls_m_op_apply(mc, phat, v);                         /* v = A phat */
        double sigma = hpls_v_dot(be, n, rhat, v);
        g = hpls_guard(mc, sigma, "(rhat, A p)", it, restarted_at == it);
        if (g < 0)
            return HPLS_OK;
        if (g > 0) {
            restart = 1;
            it--;
            continue;
        }
        double alpha = rho / sigma;
        hpls_v_axpbypcz(be, n, 1.0, u, -alpha, v, 0.0, q); /* q = u - alpha v */
        hpls_v_axpbypcz(be, n, 1.0, u, 1.0, q, 0.0, uq);   /* uq = u + q */
        const hpls_dvec *uhat = hpls_m_pc_apply(mc, uq, hbuf);  /* uhat = M^-1 (u + q) */
        hpls_v_axpy(be, n, alpha, uhat, x);                     /* x += alpha uhat */
        hpls_m_op_apply(mc, uhat, v);                           /* v = A uhat */
        hpls_v_axpy(be, n, -alpha, v, r);                       /* r -= alpha A uhat */
        rho_old = rho;
        rnorm = hpls_v_nrm2(be, n, r);
        if (hpls_conv_step(mc, it, rnorm, b, x, r, &restart))
            return HPLS_OK;
    }
}
