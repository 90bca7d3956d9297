/* SPDX-License-Identifier: BSD-3-Clause */
/* cg.c: preconditioned conjugate gradients (Hestenes & Stiefel 1952; Saad,
 * Iterative Methods, Alg. 9.1).  A and M must be symmetric definite, each
 * positive or negative: on -A (OpenFOAM's pressure matrices) with -M the
 * iterates are the same (r, p, q and rho change sign, alpha does not), as in
 * OpenFOAM's PCG, which checks no sign.  So (p, A p) must keep the sign of the
 * first one and (r, M^-1 r) that of the first one; a zero or a change proves
 * A or M indefinite and stops with HPLS_DIVERGED_INDEFINITE instead of
 * iterating on garbage.
 *
 *   r = b - A x; z = M^-1 r; p = z; rho = (r, z)
 *   loop: q = A p; alpha = rho / (p, q); x += alpha p; r -= alpha q
 *         z = M^-1 r; rho' = (r, z); p = z + (rho'/rho) p
 * Traffic per iteration: one SpMV + 10n (unpreconditioned).
 * Reductions per iteration: (p, q), ||r|| and (r, z).  Where a reduction is a
 * message round over ranks (hpls_be_collective) z = M^-1 r is made before the
 * test on ||r||, and ||r||^2 and (r, z) are reduced together (one mdot of r
 * against r and z: the same sums), so two; a solve then pays one M^-1 r it
 * does not use, at its last iteration.  A user's test (OpenFOAM's sum|r|)
 * adds its own. */
#include "iter/method.h"

#include <math.h>

hpls_status hpls_solve_cg(hpls_mctx *mc, const hpls_dvec *b, hpls_dvec *x)
{
    hpls_backend *be = mc->be;
    hpls_int n = mc->n;
    hpls_dvec *r = mc->work[0], *zbuf = mc->work[1], *p = mc->work[2], *q = mc->work[3];
    double rnorm = hpls_m_op_residual(mc, b, x, r); /* r = b - A x */
    mc->conv.r = r;                                 /* what a user's convergence test sees */
    if (hpls_conv_start(mc, rnorm) != HPLS_NOT_RUN)
        return HPLS_OK;
    int restart = 1, fuse = hpls_be_collective(be);
    double rho = 0.0, sign_a = 0.0, sign_m = 0.0; /* the signs of A and M, from the first */
    for (hpls_int it = 1;; it++) {
        if (restart) {
            const hpls_dvec *z = hpls_m_pc_apply(mc, r, zbuf); /* z = M^-1 r */
            hpls_v_copy(be, n, z, p);                          /* p = z */
            rho = hpls_v_dot(be, n, r, z);
            restart = 0;
            if (sign_m == 0.0)
                sign_m = rho < 0.0 ? -1.0 : 1.0;
        }
        hpls_m_op_apply(mc, p, q); /* q = A p */
        double pq = hpls_v_dot(be, n, p, q);
        if (sign_a == 0.0)
            sign_a = pq < 0.0 ? -1.0 : 1.0;
        if (!(sign_a * pq > 0.0))
            return hpls_indefinite(mc, pq, "(p, A p)", it);
        double alpha = rho / pq;
        hpls_v_axpy(be, n, alpha, p, x);  /* x += alpha p */
        hpls_v_axpy(be, n, -alpha, q, r); /* r -= alpha q */
        const hpls_dvec *z = NULL;
        double rho_new = 0.0;
        if (fuse) {
            z = hpls_m_pc_apply(mc, r, zbuf); /* z = M^-1 r */
            const hpls_dvec *rz[2] = {r, z};
            double dots[2];
            hpls_v_mdot(be, n, 2, rz, r, dots); /* (r, r), (z, r) */
            rnorm = hpls_be_norm(be, n, dots[0], r);
            rho_new = dots[1];
        } else
            rnorm = hpls_v_nrm2(be, n, r);
        if (hpls_conv_step(mc, it, rnorm, b, x, r, &restart))
            return HPLS_OK;
        if (restart)
            continue;
        if (!fuse) {
            z = hpls_m_pc_apply(mc, r, zbuf); /* z = M^-1 r */
            rho_new = hpls_v_dot(be, n, r, z);
        }
        if (!(sign_m * rho_new > 0.0)) /* rnorm > 0 here, so M is not definite */
            return hpls_indefinite(mc, rho_new, "(r, M^-1 r)", it + 1);
        hpls_v_xpay(be, n, z, rho_new / rho, p); /* p = z + beta p */
        rho = rho_new;
    }
}
