/* SPDX-License-Identifier: BSD-3-Clause */
/* bicrstab.c: BiCRSTAB (Abe, Sogabe, Fujino, Zhang, IPSJ Trans. Advanced
 * Computing Systems 48(SIG 8), 2007): the product-type method built on BiCR,
 * right preconditioned (BiCRSTAB on A M^-1, x = x0 + M^-1 u).
 *
 * Recurrences implemented (written from the published method as the
 * BiCGSTAB-shaped iteration whose shadow inner products are (rs, A .), i.e.
 * BiCGSTAB with shadow A^T rs, without ever applying A^T; B = A M^-1):
 *   r = b - A x; rs = r; Ar = B r; p = r; Ap = Ar; rho = (rs, Ar)
 *   loop: AAp = B Ap; alpha = rho / (rs, AAp)
 *         t = r - alpha Ap; At = Ar - alpha AAp        (stop if ||t|| small)
 *         zeta = (At, t) / (At, At)
 *         x += M^-1 (alpha p + zeta t); r = t - zeta At
 *         Ar = B r; rho' = (rs, Ar); beta = (alpha / zeta) (rho' / rho)
 *         p = r + beta (p - zeta Ap); Ap = Ar + beta (Ap - zeta AAp)
 * Preconditioned, p is kept as phat = M^-1 p (its recurrence uses
 * rhat = M^-1 r and qhat = M^-1 Ap, which the two products B r and B Ap
 * compute anyway), and M^-1 t = rhat - alpha qhat, so M^-1 is applied twice
 * per iteration.  A vanishing rho or (rs, AAp) first restarts with rs = r (the
 * standard remedy); if it vanishes again in the restarted iteration the solve
 * stops with BREAKDOWN; zeta = 0 means no progress: BREAKDOWN.  Convergence
 * is tested on the recursive ||r||, confirmed on b - A x; a failed
 * confirmation restarts from the true residual. */
#include "iter/method.h"

#include <math.h>

hpls_status hpls_solve_bicrstab(hpls_mctx *mc, const hpls_dvec *b, hpls_dvec *x)
{
    hpls_backend *be = mc->be;
    hpls_int n = mc->n;
    hpls_dvec *r = mc->work[0], *rs = mc->work[1], *ar = mc->work[2], *phat = mc->work[3];
    hpls_dvec *ap = mc->work[4], *aap = mc->work[5], *t = mc->work[6], *at = mc->work[7];
    hpls_dvec *rhbuf = mc->work[8], *qhbuf = mc->work[9];
    double rnorm = hpls_m_op_residual(mc, b, x, r); /* r = b - A x */
    if (hpls_conv_start(mc, rnorm) != HPLS_NOT_RUN)
        return HPLS_OK;
    /* t and At are written as 0 * (old value) + ...: start them finite */
    hpls_v_set(be, n, 0.0, t);
    hpls_v_set(be, n, 0.0, at);
    const hpls_dvec *rhat = r;
    double rho = 0.0;
    int restart = 1;
    hpls_int restarted_at = -1;
    /* One iteration without preconditioner reads 29 and writes 7 vectors of n
     * besides its two SpMVs (each reading A and x, writing y once):
     *   (rs, AAp)                                      2 reads
     *   t = r - alpha Ap; ||t||                        4 reads, 1 write
     *   At = Ar - alpha AAp                            3 reads, 1 write
     *   (At, At), (At, t)                              3 reads
     *   x += alpha p + zeta r - zeta alpha Ap          5 reads, 2 writes
     *   r = t - zeta At; ||r||                         4 reads, 1 write
     *   (rs, Ar)                                       2 reads
     *   p = r + beta (p - zeta Ap); Ap = Ar + ...      6 reads, 2 writes
     * (a fused w = x + a y kernel would save the read of the old t, At, r).
     * A preconditioner adds its two applications (writing rhat and qhat). */
    for (hpls_int it = 1;; it++) {
        if (restart) {
            hpls_v_copy(be, n, r, rs);             /* rs = r */
            rhat = hpls_m_pc_apply(mc, r, rhbuf);  /* rhat = M^-1 r */
            hpls_m_op_apply(mc, rhat, ar);         /* Ar = A rhat */
            rho = hpls_v_dot(be, n, rs, ar);
            restarted_at = it;
            if (hpls_guard(mc, rho, "rho = (rs, A r)", it, 1)) /* just restarted */
                return HPLS_OK;
            hpls_v_copy(be, n, rhat, phat); /* phat = rhat */
            hpls_v_copy(be, n, ar, ap);     /* Ap = Ar */
            restart = 0;
        }
        const hpls_dvec *qhat = hpls_m_pc_apply(mc, ap, qhbuf); /* qhat = M^-1 Ap */
        hpls_m_op_apply(mc, qhat, aap);                         /* AAp = A qhat */
        double sigma = hpls_v_dot(be, n, rs, aap);
        int g = hpls_guard(mc, sigma, "(rs, A A p)", it, restarted_at == it);
        if (g < 0)
            return HPLS_OK;
        if (g > 0) { /* restart with rs = r */
            restart = 1;
            it--;
            continue;
        }
        double alpha = rho / sigma;
        hpls_v_axpbypcz(be, n, 1.0, r, -alpha, ap, 0.0, t); /* t = r - alpha Ap */
        double tnorm = hpls_v_nrm2(be, n, t);
        if (tnorm <= mc->conv.target) {         /* converged at the half step */
            hpls_v_axpy(be, n, alpha, phat, x); /* x += alpha phat */
            hpls_v_copy(be, n, t, r);
            hpls_reason why = hpls_conv_check(mc, it, tnorm);
            if (hpls_reason_converged(why))
                why = hpls_conv_confirm(mc, b, x, r, it);
            if (why != HPLS_NOT_RUN)
                return HPLS_OK;
            restart = 1;
            continue;
        }
        hpls_v_axpbypcz(be, n, 1.0, ar, -alpha, aap, 0.0, at); /* At = Ar - alpha AAp */
        double att = hpls_v_dot(be, n, at, at), att_t = hpls_v_dot(be, n, at, t);
        double zeta = att > 0.0 ? att_t / att : 0.0;
        /* x += alpha phat + zeta M^-1 t, with M^-1 t = rhat - alpha qhat */
        hpls_v_axpbypcz(be, n, alpha, phat, zeta, rhat, 1.0, x);
        hpls_v_axpy(be, n, -zeta * alpha, qhat, x);
        hpls_v_axpbypcz(be, n, 1.0, t, -zeta, at, 0.0, r); /* r = t - zeta At */
        rnorm = hpls_v_nrm2(be, n, r);
        if (hpls_conv_step(mc, it, rnorm, b, x, r, &restart))
            return HPLS_OK;
        if (restart)
            continue;
        if (hpls_guard(mc, zeta, "zeta", it, 1)) /* no progress: a restart would not help */
            return HPLS_OK;
        rhat = hpls_m_pc_apply(mc, r, rhbuf); /* rhat = M^-1 r */
        hpls_m_op_apply(mc, rhat, ar);        /* Ar = A rhat */
        double rho_new = hpls_v_dot(be, n, rs, ar);
        g = hpls_guard(mc, rho_new, "rho = (rs, A r)", it, restarted_at == it);
        if (g < 0)
            return HPLS_OK;
        if (g > 0) {
            restart = 1;
            continue;
        }
        double beta = (alpha / zeta) * (rho_new / rho);
        rho = rho_new;
        /* phat = rhat + beta (phat - zeta qhat); Ap = Ar + beta (Ap - zeta AAp) */
        hpls_v_axpbypcz(be, n, 1.0, rhat, -beta * zeta, qhat, beta, phat);
        hpls_v_axpbypcz(be, n, 1.0, ar, -beta * zeta, aap, beta, ap);
    }
}
