/* SPDX-License-Identifier: BSD-3-Clause */
/* bicg.c: biconjugate gradients (Fletcher 1976), preconditioned as in Barrett
 * et al., Templates (1994), Fig. 2.8: right preconditioning, i.e. BiCG on
 * A M^-1 with the shadow residual started at M^-T r0.
 *
 *   r = b - A x; rt = r
 *   loop: z = M^-1 r; zt = M^-T rt; rho = (z, rt)
 *         p = z + (rho/rho_old) p; pt = zt + (rho/rho_old) pt
 *         q = A p; qt = A^T pt; alpha = rho / (pt, q)
 *         x += alpha p; r -= alpha q; rt -= alpha qt
 * A^T comes from the transpose the framework builds once at setup.  A
 * vanishing rho or (pt, q) first restarts with rt = r (the standard remedy);
 * if it vanishes again in the restarted iteration the solve stops with
 * BREAKDOWN.  Convergence is tested on the recursive ||r||, then confirmed on
 * b - A x; a failed confirmation restarts from the true residual. */
#include "iter/method.h"

#include <math.h>

hpls_status hpls_solve_bicg(hpls_mctx *mc, const hpls_dvec *b, hpls_dvec *x)
{
    hpls_backend *be = mc->be;
    hpls_int n = mc->n;
    hpls_dvec *r = mc->work[0], *rt = mc->work[1], *p = mc->work[2], *pt = mc->work[3];
    hpls_dvec *q = mc->work[4], *qt = mc->work[5], *zbuf = mc->work[6], *ztbuf = mc->work[7];
    double rnorm = hpls_m_op_residual(mc, b, x, r); /* r = b - A x */
    if (hpls_conv_start(mc, rnorm) != HPLS_NOT_RUN)
        return HPLS_OK;
    double rho_old = 1.0;
    int restart = 1;
    hpls_int restarted_at = -1;
    /* One iteration without preconditioner reads 15 and writes 5 vectors of n
     * besides its SpMVs with A and A^T (each reading the matrix and x, writing y):
     *   (r, rt)                                       2 reads
     *   p = r + beta p; pt = rt + beta pt             4 reads, 2 writes
     *   (pt, q)                                       2 reads
     *   x += alpha p; r -= alpha q; rt -= alpha qt    6 reads, 3 writes
     *   ||r||                                         1 read
     * A preconditioner adds its M^-1 and M^-T applications. */
    for (hpls_int it = 1;; it++) {
        if (restart) {
            hpls_v_copy(be, n, r, rt); /* rt = r */
            restarted_at = it;
        }
        const hpls_dvec *z = hpls_m_pc_apply(mc, r, zbuf);      /* z = M^-1 r */
        const hpls_dvec *zt = hpls_m_pc_apply_t(mc, rt, ztbuf); /* zt = M^-T rt */
        double rho = hpls_v_dot(be, n, z, rt);
        int g = hpls_guard(mc, rho, "rho = (M^-1 r, rt)", it, restarted_at == it);
        if (g < 0)
            return HPLS_OK;
        if (g > 0) { /* restart with rt = r */
            restart = 1;
            it--;
            continue;
        }
        if (restart) {
            hpls_v_copy(be, n, z, p);   /* p = z */
            hpls_v_copy(be, n, zt, pt); /* pt = zt */
            restart = 0;
        } else {
            double beta = rho / rho_old;
            hpls_v_xpay(be, n, z, beta, p);   /* p = z + beta p */
            hpls_v_xpay(be, n, zt, beta, pt); /* pt = zt + beta pt */
        }
        hpls_m_op_apply(mc, p, q);     /* q = A p */
        hpls_m_op_apply_t(mc, pt, qt); /* qt = A^T pt */
        double sigma = hpls_v_dot(be, n, pt, q);
        g = hpls_guard(mc, sigma, "(pt, A p)", it, restarted_at == it);
        if (g < 0)
            return HPLS_OK;
        if (g > 0) {
            restart = 1;
            it--;
            continue;
        }
        double alpha = rho / sigma;
        hpls_v_axpy(be, n, alpha, p, x);    /* x += alpha p */
        hpls_v_axpy(be, n, -alpha, q, r);   /* r -= alpha q */
        hpls_v_axpy(be, n, -alpha, qt, rt); /* rt -= alpha qt */
        rho_old = rho;
        rnorm = hpls_v_nrm2(be, n, r);
        if (hpls_conv_step(mc, it, rnorm, b, x, r, &restart))
            return HPLS_OK;
    }
}
