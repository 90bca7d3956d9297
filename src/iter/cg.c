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

hpls_status hpls_solve_cg(hpls_solver *s, const hpls_real *b, hpls_real *x)
{
    hpls_int n = s->op.n;
    hpls_real *r = s->work[0], *zbuf = s->work[1], *p = s->work[2], *q = s->work[3];
    double rnorm = hpls_op_residual(s, b, x, r); /* r = b - A x */
    if (hpls_conv_start(s, rnorm) != HPLS_NOT_RUN)
        return HPLS_OK;
    int restart = 1;
    double rho = 0.0;
    for (hpls_int it = 1;; it++) {
        if (restart) {
            const hpls_real *z = hpls_pc_apply(s, r, zbuf); /* z = M^-1 r */
            hpls_k_copy(n, z, p);                            /* p = z */
            rho = hpls_k_dot(n, r, z);
            restart = 0;
        }
        hpls_op_apply(s, p, q); /* q = A p */
        double pq = hpls_k_dot(n, p, q);
        if (!(pq > 0.0)) {
            s->info.reason = isnan(pq) ? HPLS_DIVERGED_NAN : HPLS_DIVERGED_INDEFINITE;
            s->info.iterations = it - 1;
            return HPLS_OK;
        }
        double alpha = rho / pq;
        hpls_k_axpy(n, alpha, p, x);  /* x += alpha p */
        hpls_k_axpy(n, -alpha, q, r); /* r -= alpha q */
        rnorm = hpls_k_nrm2(n, r);
        hpls_reason why = hpls_conv_check(s, it, rnorm);
        if (hpls_reason_converged(why)) {
            why = hpls_conv_confirm(s, b, x, r, it);
            restart = why == HPLS_NOT_RUN;
        }
        if (why != HPLS_NOT_RUN)
            return HPLS_OK;
        if (restart)
            continue;
        const hpls_real *z = hpls_pc_apply(s, r, zbuf); /* z = M^-1 r */
        double rho_new = hpls_k_dot(n, r, z);
        if (!(rho_new > 0.0)) { /* rnorm > 0 here, so M is not positive definite */
            s->info.reason = isnan(rho_new) ? HPLS_DIVERGED_NAN : HPLS_DIVERGED_INDEFINITE;
            return HPLS_OK;
        }
        hpls_k_xpay(n, z, rho_new / rho, p); /* p = z + beta p */
        rho = rho_new;
    }
}
