/* SPDX-License-Identifier: BSD-3-Clause */
/* cg.c: preconditioned conjugate gradients (Hestenes & Stiefel 1952; Saad,
 * Iterative Methods, Alg. 9.1).  A and M must be symmetric positive definite:
 * (p, A p) <= 0 or (r, M^-1 r) < 0 proves otherwise and stops with
 * HPLS_DIVERGED_INDEFINITE instead of iterating on garbage.
 *
 *   r = b - A x; z = M^-1 r; p = z; rho = (r, z)
 *   loop: q = A p; alpha = rho / (p, q); x += alpha p; r -= alpha q
 *         z = M^-1 r; rho' = (r, z); p = z + (rho'/rho) p
 * Traffic per iteration: one SpMV + 10n (unpreconditioned). */
#include "solver.h"

#include <math.h>

hpls_status hpls_solve_cg(hpls_solver *s, const hpls_dvec *b, hpls_dvec *x)
{
    hpls_backend *be = s->be;
    hpls_int n = s->op.n;
    hpls_dvec *r = s->work[0], *zbuf = s->work[1], *p = s->work[2], *q = s->work[3];
    double rnorm = hpls_op_residual(s, b, x, r); /* r = b - A x */
    if (hpls_conv_start(s, rnorm) != HPLS_NOT_RUN)
        return HPLS_OK;
    int restart = 1;
    double rho = 0.0;
    for (hpls_int it = 1;; it++) {
        if (restart) {
            const hpls_dvec *z = hpls_pc_apply(s, r, zbuf); /* z = M^-1 r */
            hpls_v_copy(be, n, z, p);                            /* p = z */
            rho = hpls_v_dot(be, n, r, z);
            restart = 0;
        }
        hpls_op_apply(s, p, q); /* q = A p */
        double pq = hpls_v_dot(be, n, p, q);
        if (!(pq > 0.0))
            return hpls_indefinite(s, pq, "(p, A p)", it);
        double alpha = rho / pq;
        hpls_v_axpy(be, n, alpha, p, x);  /* x += alpha p */
        hpls_v_axpy(be, n, -alpha, q, r); /* r -= alpha q */
        rnorm = hpls_v_nrm2(be, n, r);
        if (hpls_conv_step(s, it, rnorm, b, x, r, &restart))
            return HPLS_OK;
        if (restart)
            continue;
        const hpls_dvec *z = hpls_pc_apply(s, r, zbuf); /* z = M^-1 r */
        double rho_new = hpls_v_dot(be, n, r, z);
        if (!(rho_new > 0.0)) /* rnorm > 0 here, so M is not positive definite */
            return hpls_indefinite(s, rho_new, "(r, M^-1 r)", it + 1);
        hpls_v_xpay(be, n, z, rho_new / rho, p); /* p = z + beta p */
        rho = rho_new;
    }
}
