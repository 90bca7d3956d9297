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
#include "solver.h"

#include <math.h>

hpls_status hpls_solve_cgs(hpls_solver *s, const hpls_real *b, hpls_real *x)
{
    hpls_int n = s->op.n;
    hpls_real *r = s->work[0], *rhat = s->work[1], *u = s->work[2], *p = s->work[3];
    hpls_real *q = s->work[4], *v = s->work[5], *uq = s->work[6], *hbuf = s->work[7];
    double rnorm = hpls_op_residual(s, b, x, r); /* r = b - A x */
    if (hpls_conv_start(s, rnorm) != HPLS_NOT_RUN)
        return HPLS_OK;
    /* q and uq are written as 0 * (old value) + ...: start them finite */
    hpls_k_set(n, 0.0, q);
    hpls_k_set(n, 0.0, uq);
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
            hpls_k_copy(n, r, rhat); /* rhat = r */
            restarted_at = it;
        }
        double rho = hpls_k_dot(n, rhat, r);
        if (rho == 0.0 || !isfinite(rho)) {
            if (!isfinite(rho) || restarted_at == it)
                return hpls_breakdown(s, rho, "rho = (rhat, r)", it);
            restart = 1;
            it--;
            continue;
        }
        if (restart) {
            hpls_k_copy(n, r, u); /* u = r */
            hpls_k_copy(n, r, p); /* p = r */
            restart = 0;
        } else {
            double beta = rho / rho_old;
            hpls_k_axpbypcz(n, 1.0, r, beta, q, 0.0, u);      /* u = r + beta q */
            hpls_k_axpbypcz(n, 1.0, u, beta, q, beta * beta, p); /* p = u + beta q + beta^2 p */
        }
        const hpls_real *phat = hpls_pc_apply(s, p, hbuf); /* phat = M^-1 p */
        hpls_op_apply(s, phat, v);                         /* v = A phat */
        double sigma = hpls_k_dot(n, rhat, v);
        if (sigma == 0.0 || !isfinite(sigma)) {
            if (!isfinite(sigma) || restarted_at == it)
                return hpls_breakdown(s, sigma, "(rhat, A p)", it);
            restart = 1;
            it--;
            continue;
        }
        double alpha = rho / sigma;
        hpls_k_axpbypcz(n, 1.0, u, -alpha, v, 0.0, q); /* q = u - alpha v */
        hpls_k_axpbypcz(n, 1.0, u, 1.0, q, 0.0, uq);   /* uq = u + q */
        const hpls_real *uhat = hpls_pc_apply(s, uq, hbuf); /* uhat = M^-1 (u + q) */
        hpls_k_axpy(n, alpha, uhat, x);                     /* x += alpha uhat */
        hpls_op_apply(s, uhat, v);                          /* v = A uhat */
        hpls_k_axpy(n, -alpha, v, r);                       /* r -= alpha A uhat */
        rho_old = rho;
        rnorm = hpls_k_nrm2(n, r);
        hpls_reason why = hpls_conv_check(s, it, rnorm);
        if (hpls_reason_converged(why)) {
            why = hpls_conv_confirm(s, b, x, r, it);
            restart = why == HPLS_NOT_RUN;
        }
        if (why != HPLS_NOT_RUN)
            return HPLS_OK;
    }
}
