/* SPDX-License-Identifier: BSD-3-Clause */
/* ssor.c: symmetric SOR: a forward then a backward sweep with weight omega per
 * iteration (Saad, Iterative Methods, Sec. 4.1.1); omega = 1 is symmetric
 * Gauss-Seidel.  After the backward sweep the true residual is
 * (L + (1 - 1/w) D)(x_mid - x_new) (kernels/cpu/sor_sweep.c).
 * Traffic per iteration: A twice (sweeps) + its lower half, x, b, dx, r. */
#include "iter/method.h"

hpls_status hpls_solve_ssor(hpls_mctx *mc, const hpls_dvec *b, hpls_dvec *x)
{
    hpls_dvec *r = mc->work[0], *dx = mc->work[1];
    const double w = mc->opt.omega;
    double rnorm = hpls_m_op_residual(mc, b, x, r); /* r = b - A x0 */
    if (hpls_conv_start(mc, rnorm) != HPLS_NOT_RUN)
        return HPLS_OK;
    for (hpls_int it = 1;; it++) {
        hpls_sor_sweep(mc, w, 0, b, x, dx);
        hpls_sor_sweep(mc, w, 1, b, x, dx);
        rnorm = hpls_sor_residual(mc, 0, 1.0 - 1.0 / w, x, dx, r);
        if (hpls_conv_check(mc, it, rnorm) != HPLS_NOT_RUN)
            return HPLS_OK;
    }
}
