/* bicgstab.c: BiCGSTAB with right preconditioning (van der Vorst, SIAM J. Sci.
 * Stat. Comput. 13(2), 1992, Alg. "preconditioned Bi-CGSTAB").
 *
 *   r = b - A x; rhat = r; rho = alpha = omega = 1; v = p = 0
 *   loop: rho' = (rhat, r); beta = (rho'/rho)(alpha/omega)
 *         p = r + beta (p - omega v); phat = M^-1 p; v = A phat
 *         alpha = rho' / (rhat, v); s = r - alpha v      (stop if ||s|| small)
 *         shat = M^-1 s; t = A shat; omega = (t, s) / (t, t)
 *         x += alpha phat + omega shat; r = s - omega t
 * A vanishing rho' or (rhat, v) first restarts with rhat = r (the standard
 * remedy); if it vanishes again at once the solve stops with BREAKDOWN.
 * omega = 0 means the iteration cannot progress: BREAKDOWN.
 * The vector updates are fused (hpls_k_bicgstab_p, _waxpy_nrm2, _dot2,
 * _bicgstab_xr) with the same operation order as separate kernels, so fusing
 * changed the passes over memory, not the iterates. */
#include "solver.h"

#include <math.h>

hpls_status hpls_solve_bicgstab(hpls_solver *s, const hpls_real *b, hpls_real *x)
{
    hpls_int n = s->op.n;
    hpls_real *r = s->work[0], *rhat = s->work[1], *p = s->work[2], *v = s->work[3];
    hpls_real *sv = s->work[4], *t = s->work[5], *phatbuf = s->work[6], *shatbuf = s->work[7];
    double rnorm = hpls_op_residual(s, b, x, r); /* r = b - A x */
    if (hpls_conv_start(s, rnorm) != HPLS_NOT_RUN)
        return HPLS_OK;
    double rho = 1.0, alpha = 1.0, omega = 1.0;
    double rhat_r = 0.0; /* (rhat, r), summed by the fused update of r */
    int restart = 1;
    hpls_int restarted_at = -1;
    /* One iteration without preconditioner reads 14 and writes 4 vectors of n
     * besides its two SpMVs (each reading A and x, writing y once):
     *   p = r + beta (p - omega v)                    3 reads, 1 write
     *   (rhat, v)                                     2 reads
     *   s = r - alpha v, ||s||                        2 reads, 1 write
     *   (t, t), (t, s)                                2 reads
     *   x += alpha p + omega s; r = s - omega t;
     *   ||r||, (rhat, r)                              5 reads, 2 writes
     * A preconditioner adds its two applications and one read (shat != s). */
    for (hpls_int it = 1;; it++) {
        if (restart) {
            hpls_k_copy(n, r, rhat); /* rhat = r */
            hpls_k_copy(n, r, p);    /* p = r */
            rho = hpls_k_dot(n, rhat, r);
            restart = 0;
            restarted_at = it;
        } else {
            double rho_new = rhat_r;
            if (rho_new == 0.0 || !isfinite(rho_new)) {
                if (!isfinite(rho_new) || restarted_at == it - 1) {
                    s->info.reason = isfinite(rho_new) ? HPLS_DIVERGED_BREAKDOWN : HPLS_DIVERGED_NAN;
                    return hpls_solver_fail(s, HPLS_OK, "rho = (rhat, r) = 0 at iteration %lld", (long long)it);
                }
                restart = 1;
                it--;
                continue;
            }
            double beta = (rho_new / rho) * (alpha / omega);
            hpls_k_bicgstab_p(n, r, beta, omega, v, p); /* p = r + beta (p - omega v) */
            rho = rho_new;
        }
        const hpls_real *phat = hpls_pc_apply(s, p, phatbuf); /* phat = M^-1 p */
        hpls_op_apply(s, phat, v);                            /* v = A phat */
        double sigma = hpls_k_dot(n, rhat, v);
        if (sigma == 0.0 || !isfinite(sigma)) {
            if (!isfinite(sigma) || restarted_at == it) {
                s->info.reason = isfinite(sigma) ? HPLS_DIVERGED_BREAKDOWN : HPLS_DIVERGED_NAN;
                return hpls_solver_fail(s, HPLS_OK, "(rhat, A p) = 0 at iteration %lld", (long long)it);
            }
            restart = 1;
            it--;
            continue;
        }
        alpha = rho / sigma;
        double snorm = hpls_k_waxpy_nrm2(n, -alpha, v, r, sv); /* s = r - alpha v */
        if (snorm <= s->conv.target) { /* converged at the half step */
            hpls_k_axpy(n, alpha, phat, x);
            hpls_k_copy(n, sv, r);
            hpls_reason why = hpls_conv_check(s, it, snorm);
            if (hpls_reason_converged(why))
                why = hpls_conv_confirm(s, b, x, r, it);
            if (why != HPLS_NOT_RUN)
                return HPLS_OK;
            restart = 1;
            continue;
        }
        const hpls_real *shat = hpls_pc_apply(s, sv, shatbuf); /* shat = M^-1 s */
        hpls_op_apply(s, shat, t);                             /* t = A shat */
        double tt, ts;
        hpls_k_dot2(n, t, sv, &tt, &ts); /* (t, t), (t, s) */
        omega = tt > 0.0 ? ts / tt : 0.0;
        /* x += alpha phat + omega shat; r = s - omega t */
        hpls_k_bicgstab_xr(n, alpha, phat, omega, shat, sv, t, rhat, x, r, &rnorm, &rhat_r);
        hpls_reason why = hpls_conv_check(s, it, rnorm);
        if (hpls_reason_converged(why)) {
            why = hpls_conv_confirm(s, b, x, r, it);
            restart = why == HPLS_NOT_RUN;
        }
        if (why != HPLS_NOT_RUN)
            return HPLS_OK;
        if (!restart && (omega == 0.0 || !isfinite(omega))) {
            s->info.reason = isfinite(omega) ? HPLS_DIVERGED_BREAKDOWN : HPLS_DIVERGED_NAN;
            return hpls_solver_fail(s, HPLS_OK, "omega = 0 at iteration %lld", (long long)it);
        }
    }
}
