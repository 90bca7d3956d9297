/* SPDX-License-Identifier: BSD-3-Clause */
/* qmr.c: quasi-minimal residual without look-ahead (Freund & Nachtigal,
 * Numer. Math. 60, 1991), the coupled two-term recurrences of Barrett et al.,
 * Templates (1994), Fig. 2.10, with M1 = I and M2 = M: right preconditioning.
 *
 *   r = b - A x; vt = r; rho = ||vt||; wt = r; z = M^-T wt; xi = ||z||
 *   gamma = 1; eta = -1
 *   loop: v = vt / rho; w = wt / xi; z = z / xi; delta = (z, v)
 *         yt = M^-1 v; p = yt - (xi delta / eps) p; q = z - (rho delta / eps) q
 *         pt = A p; eps = (q, pt); beta = eps / delta
 *         vt = pt - beta v; rho' = ||vt||
 *         wt = A^T q - beta w; z = M^-T wt; xi' = ||z||
 *         theta' = rho' / (gamma |beta|); gamma' = 1 / sqrt(1 + theta'^2)
 *         eta = -eta rho gamma'^2 / (beta gamma^2)
 *         d = eta p + (theta gamma')^2 d; s = eta pt + (theta gamma')^2 s
 *         x += d; r -= s
 * (first iteration: p = yt, q = z, d = eta p, s = eta pt).  A^T comes from
 * the transpose the framework builds once at setup.  A vanishing rho, xi,
 * delta, eps or beta first restarts the Lanczos process from r (the standard
 * remedy); if it vanishes again in the restarted iteration the solve stops
 * with BREAKDOWN.  Convergence is tested on the recursive ||r||, confirmed on
 * b - A x; a failed confirmation restarts from the true residual. */
#include "iter/method.h"

#include <math.h>

hpls_status hpls_solve_qmr(hpls_mctx *mc, const hpls_dvec *b, hpls_dvec *x)
{
    hpls_backend *be = mc->be;
    hpls_int n = mc->n;
    hpls_dvec *r = mc->work[0], *v = mc->work[1], *w = mc->work[2], *p = mc->work[3];
    hpls_dvec *q = mc->work[4], *pt = mc->work[5], *d = mc->work[6], *sv = mc->work[7];
    hpls_dvec *atq = mc->work[8], *zbuf = mc->work[9], *ytbuf = mc->work[10];
    double rnorm = hpls_m_op_residual(mc, b, x, r); /* r = b - A x */
    if (hpls_conv_start(mc, rnorm) != HPLS_NOT_RUN)
        return HPLS_OK;
    const hpls_dvec *z = w;
    double rho = 0.0, xi = 0.0, gamma = 1.0, eta = -1.0, theta = 0.0, eps = 1.0;
    int restart = 1, first = 1;
    hpls_int restarted_at = -1;
    /* One iteration without preconditioner reads 25 and writes 10 vectors of n
     * besides its SpMVs with A and A^T (each reading the matrix and x, writing y):
     *   v = vt / rho; w = wt / rho; (z, v)            4 reads, 2 writes
     *   p = v - c p; q = z - c q                      4 reads, 2 writes
     *   (q, pt)                                       2 reads
     *   vt = pt - beta v; ||vt||                      3 reads, 1 write
     *   wt = A^T q - beta w; ||wt||                   3 reads, 1 write
     *   d = eta p + c d; s = eta pt + c s             4 reads, 2 writes
     *   x += d; r -= s; ||r||                         5 reads, 2 writes
     * A preconditioner adds its M^-1 and M^-T applications and two passes
     * (z scaled beside w). */
    for (hpls_int it = 1;; it++) {
        if (restart) {
            hpls_v_copy(be, n, r, v);            /* vt = r */
            hpls_v_copy(be, n, r, w);            /* wt = r */
            z = hpls_m_pc_apply_t(mc, w, zbuf);  /* z = M^-T wt */
            hpls_v_set(be, n, 0.0, d);  /* d and s start at 0: the first update */
            hpls_v_set(be, n, 0.0, sv); /* below is then d = eta p, s = eta pt */
            rho = hpls_v_nrm2(be, n, v);
            xi = hpls_v_nrm2(be, n, z);
            gamma = 1.0;
            eta = -1.0;
            first = 1;
            restart = 0;
            restarted_at = it;
        }
        const char *what = NULL;
        double bad = 0.0;
        if (rho == 0.0 || !isfinite(rho)) {
            what = "rho = ||vt||";
            bad = rho;
        } else if (xi == 0.0 || !isfinite(xi)) {
            what = "xi = ||M^-T wt||";
            bad = xi;
        }
        double delta = 0.0;
        if (!what) {
            hpls_v_scale(be, n, 1.0 / rho, v); /* v = vt / rho */
            hpls_v_scale(be, n, 1.0 / xi, w);  /* w = wt / xi */
            if (z != w)
                hpls_v_scale(be, n, 1.0 / xi, zbuf); /* z = z / xi */
            delta = hpls_v_dot(be, n, z, v);
            if (delta == 0.0 || !isfinite(delta)) {
                what = "delta = (z, v)";
                bad = delta;
            }
        }
        double beta = 0.0;
        if (!what) {
            const hpls_dvec *yt = hpls_m_pc_apply(mc, v, ytbuf); /* yt = M^-1 v */
            if (first) {
                hpls_v_copy(be, n, yt, p); /* p = yt */
                hpls_v_copy(be, n, z, q);  /* q = z */
            } else {
                hpls_v_xpay(be, n, yt, -xi * delta / eps, p); /* p = yt - (xi delta / eps) p */
                hpls_v_xpay(be, n, z, -rho * delta / eps, q); /* q = z - (rho delta / eps) q */
            }
            hpls_m_op_apply(mc, p, pt); /* pt = A p */
            eps = hpls_v_dot(be, n, q, pt);
            beta = eps / delta;
            if (eps == 0.0 || !isfinite(eps)) {
                what = "eps = (q, A p)";
                bad = eps;
            } else if (beta == 0.0 || !isfinite(beta)) { /* eps / delta under- or overflowed */
                what = "beta = eps / delta";
                bad = beta;
            }
        }
        if (what) {
            if (hpls_guard(mc, bad, what, it, restarted_at == it) < 0)
                return HPLS_OK;
            restart = 1;
            it--;
            continue;
        }
        hpls_v_axpby(be, n, 1.0, pt, -beta, v); /* vt = pt - beta v */
        double rho_new = hpls_v_nrm2(be, n, v);
        hpls_m_op_apply_t(mc, q, atq);                   /* atq = A^T q */
        hpls_v_xpay(be, n, atq, -beta, w);               /* wt = A^T q - beta w */
        z = hpls_m_pc_apply_t(mc, w, zbuf);              /* z = M^-T wt */
        double xi_new = hpls_v_nrm2(be, n, z);
        double theta_new = rho_new / (gamma * fabs(beta));
        double gamma_new = 1.0 / sqrt(1.0 + theta_new * theta_new);
        eta = -eta * rho * gamma_new * gamma_new / (beta * gamma * gamma);
        double c = first ? 0.0 : theta * gamma_new * theta * gamma_new;
        hpls_v_axpby(be, n, eta, p, c, d);   /* d = eta p + (theta gamma')^2 d */
        hpls_v_axpby(be, n, eta, pt, c, sv); /* s = eta pt + (theta gamma')^2 s */
        hpls_v_axpy(be, n, 1.0, d, x);   /* x += d */
        hpls_v_axpy(be, n, -1.0, sv, r); /* r -= s */
        rho = rho_new;
        xi = xi_new;
        theta = theta_new;
        gamma = gamma_new;
        first = 0;
        rnorm = hpls_v_nrm2(be, n, r);
        if (hpls_conv_step(mc, it, rnorm, b, x, r, &restart))
            return HPLS_OK;
    }
}
