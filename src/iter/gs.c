/* SPDX-License-Identifier: BSD-3-Clause */
/* gs.c: forward Gauss-Seidel, a true sequential sweep: the reference that PJG
 * and HISA are measured against.  The true residual of each new iterate comes
 * from U (x_old - x_new) (see kernels/cpu/sor_sweep.c): half an SpMV, not a whole one.
 * Traffic per iteration: A once (sweep) + its upper half, x, b, dx, r. */
#include "iter/method.h"

hpls_status hpls_solve_gs(hpls_mctx *mc, const hpls_dvec *b, hpls_dvec *x)
{
    hpls_dvec *r = mc->work[0], *dx = mc->work[1];
    double rnorm = hpls_m_op_residual(mc, b, x, r); /* r = b - A x0 */
    if (hpls_conv_start(mc, rnorm) != HPLS_NOT_RUN)
        return HPLS_OK;
    for (hpls_int it = 1;; it++) {
        hpls_sor_sweep(mc, 1.0, 0, b, x, dx);
        rnorm = hpls_sor_residual(mc, 1, 0.0, x, dx, r); /* r = U dx */
        if (hpls_conv_check(mc, it, rnorm) != HPLS_NOT_RUN)
            return HPLS_OK;
    }
}
