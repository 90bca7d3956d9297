/* SPDX-License-Identifier: BSD-3-Clause */
/* bicgsafe.c: BiCGSafe (Fujino, Fujiwara, Yoshida, Trans. JSCES 2005, paper
 * 20050028): the GPBiCG-family product-type method whose parameters zeta, eta
 * minimize the associate residual ||r - zeta A r - eta y|| instead of the
 * residual, right preconditioned (BiCGSafe on B = A M^-1, x = x0 + M^-1 u).
 *
 * Recurrences implemented (r_n = H_n R_n r0 with the GPBiCG polynomials
 * H_{n+1} = (1 + eta - zeta B) H_n - eta H_{n-1}; first iteration eta = 0,
 * zeta = (Ar, r) / (Ar, Ar), and y = u = z = 0, beta = 0):
 *   r = b - A x; rs = r
 *   loop: Ar = B r
 *         p = r + beta (p - u); Ap = Ar + beta (Ap - Au)
 *         alpha = (rs, r) / (rs, Ap)
 *         a = (y, y), b = (Ar, r), c = (y, r), d = (Ar, y), e = (Ar, Ar)
 *         zeta = (a b - c d) / (e a - d^2); eta = (e c - b d) / (e a - d^2)
 *         u = zeta Ap + eta (y + beta u)
 *         z = zeta r + eta z - alpha u; Au = B u
 *         y = zeta Ar + eta y - alpha Au
 *         x += M^-1 (alpha p + z); r = r - alpha Ap - y
 *         beta = (alpha / zeta) (rs, r') / (rs, r)
 * Preconditioned, p and z are kept as phat = M^-1 p and zhat = M^-1 z, whose
 * recurrences use rhat = M^-1 r and uhat = M^-1 u, which the two products
 * B r and B u compute anyway: M^-1 is applied twice per iteration.
 * A singular 2x2 system (e a = d^2, y parallel to A r) falls back to eta = 0,
 * zeta = b / e.  A vanishing (rs, r) or (rs, Ap) first restarts with rs = r
 * (the standard remedy); if it vanishes again in the restarted iteration the
 * solve stops with BREAKDOWN; so does zeta = 0 after a restart (no progress).
 * Convergence is tested on the recursive ||r||, confirmed on b - A x; a failed
 * confirmation restarts from the true residual. */
#include "iter/method.h"

#include <math.h>

hpls_status hpls_solve_bicgsafe(hpls_mctx *mc, const hpls_dvec *b, hpls_dvec *x)
{
    hpls_backend *be = mc->be;
    hpls_int n = mc->n;
    hpls_dvec *r = mc->work[0], *rs = mc->work[1], *ar = mc->work[2], *phat = mc->work[3];
    hpls_dvec *ap = mc->work[4], *u = mc->work[5], *au = mc->work[6], *y = mc->work[7];
    hpls_dvec *zhat = mc->work[8], *rhbuf = mc->work[9], *uhbuf = mc->work[10];
    double rnorm = hpls_m_op_residual(mc, b, x, r); /* r = b - A x */
    if (hpls_conv_start(mc, rnorm) != HPLS_NOT_RUN)
        return HPLS_OK;
    const hpls_dvec *uhat = u;
    double rho = 0.0, beta = 0.0;
    int restart = 1;
    hpls_int restarted_at = -1;
    /* One iteration without preconditioner reads 36 and writes 7 vectors of n
     * besides its two SpMVs (each reading A and x, writing y once):
     *   p = r + beta (p - u); Ap = Ar + beta (Ap - Au)  6 reads, 2 writes
     *   (rs, Ap)                                        2 reads
     *   (y, y), (Ar, r), (y, r), (Ar, y), (Ar, Ar)      10 reads
     *   u = zeta Ap + eta y + eta beta u                3 reads, 1 write
     *   z = zeta r + eta z - alpha u                    3 reads, 1 write
     *   y = zeta Ar + eta y - alpha Au                  3 reads, 1 write
     *   x += alpha p + z                                3 reads, 1 write
     *   r = r - alpha Ap - y; ||r||; (rs, r)            6 reads, 1 write
     * Fused multi-dot kernels would cut the 12 dot-product reads to 4.
     * A preconditioner adds its two applications (writing rhat and uhat). */
    for (hpls_int it = 1;; it++) {
        if (restart) {
            hpls_v_copy(be, n, r, rs); /* rs = r */
            hpls_v_set(be, n, 0.0, u);
            hpls_v_set(be, n, 0.0, au);
            hpls_v_set(be, n, 0.0, y);
            hpls_v_set(be, n, 0.0, zhat);
            hpls_v_set(be, n, 0.0, phat);
            hpls_v_set(be, n, 0.0, ap);
            uhat = u;
            rho = hpls_v_dot(be, n, rs, r);
            beta = 0.0;
            restarted_at = it;
        }
        int g = hpls_guard(mc, rho, "rho = (rs, r)", it, restarted_at >= it - 1);
        if (g < 0)
            return HPLS_OK;
        if (g > 0) { /* restart with rs = r */
            restart = 1;
            it--;
            continue;
        }
        const hpls_dvec *rhat = hpls_m_pc_apply(mc, r, rhbuf); /* rhat = M^-1 r */
        hpls_m_op_apply(mc, rhat, ar);                         /* Ar = A rhat */
        /* phat = rhat + beta (phat - uhat); Ap = Ar + beta (Ap - Au) */
        hpls_v_axpbypcz(be, n, 1.0, rhat, -beta, uhat, beta, phat);
        hpls_v_axpbypcz(be, n, 1.0, ar, -beta, au, beta, ap);
        double sigma = hpls_v_dot(be, n, rs, ap);
        g = hpls_guard(mc, sigma, "(rs, A p)", it, restarted_at == it);
        if (g < 0)
            return HPLS_OK;
        if (g > 0) {
            restart = 1;
            it--;
            continue;
        }
        double alpha = rho / sigma;
        double ca = hpls_v_dot(be, n, y, y), cb = hpls_v_dot(be, n, ar, r), cc = hpls_v_dot(be, n, y, r);
        double cd = hpls_v_dot(be, n, ar, y), ce = hpls_v_dot(be, n, ar, ar);
        double det = ce * ca - cd * cd;
        double zeta = 0.0, eta = 0.0;
        if (!restart && det != 0.0 && isfinite(det)) {
            zeta = (ca * cb - cc * cd) / det;
            eta = (ce * cc - cb * cd) / det;
        } else if (ce > 0.0) {
            zeta = cb / ce;
        }
        restart = 0;
        g = hpls_guard(mc, isfinite(eta) ? zeta : eta, isfinite(eta) ? "zeta" : "eta", it,
                       restarted_at == it);
        if (g < 0)
            return HPLS_OK;
        if (g > 0) {
            restart = 1;
            it--;
            continue;
        }
        hpls_v_axpbypcz(be, n, zeta, ap, eta, y, eta * beta, u); /* u = zeta Ap + eta (y + beta u) */
        uhat = hpls_m_pc_apply(mc, u, uhbuf);                    /* uhat = M^-1 u */
        /* zhat = zeta rhat + eta zhat - alpha uhat */
        hpls_v_axpbypcz(be, n, zeta, rhat, -alpha, uhat, eta, zhat);
        hpls_m_op_apply(mc, uhat, au);                            /* Au = A uhat */
        hpls_v_axpbypcz(be, n, zeta, ar, -alpha, au, eta, y);     /* y = zeta Ar + eta y - alpha Au */
        hpls_v_axpbypcz(be, n, alpha, phat, 1.0, zhat, 1.0, x);   /* x += alpha phat + zhat */
        hpls_v_axpbypcz(be, n, -alpha, ap, -1.0, y, 1.0, r);      /* r = r - alpha Ap - y */
        rnorm = hpls_v_nrm2(be, n, r);
        if (hpls_conv_step(mc, it, rnorm, b, x, r, &restart))
            return HPLS_OK;
        if (restart)
            continue;
        double rho_new = hpls_v_dot(be, n, rs, r);
        beta = (alpha / zeta) * (rho_new / rho);
        rho = rho_new;
    }
}
