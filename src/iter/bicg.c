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
#include "solver.h"

#include <math.h>

hpls_status hpls_solve_bicg(hpls_solver *s, const hpls_real *b, hpls_real *x)
{
    hpls_int n = s->op.n;
    hpls_real *r = s->work[0], *rt = s->work[1], *p = s->work[2], *pt = s->work[3];
    hpls_real *q = s->work[4], *qt = s->work[5], *zbuf = s->work[6], *ztbuf = s->work[7];
    double rnorm = hpls_op_residual(s, b, x, r); /* r = b - A x */
    if (hpls_conv_start(s, rnorm) != HPLS_NOT_RUN)
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
            hpls_k_copy(n, r, rt); /* rt = r */
            restarted_at = it;
        }
        const hpls_real *z = hpls_pc_apply(s, r, zbuf);     /* z = M^-1 r */
        const hpls_real *zt = hpls_pc_apply_t(s, rt, ztbuf); /* zt = M^-T rt */
        double rho = hpls_k_dot(n, z, rt);
        if (rho == 0.0 || !isfinite(rho)) {
            if (!isfinite(rho) || restarted_at == it)
                return hpls_breakdown(s, rho, "rho = (M^-1 r, rt)", it);
            restart = 1;
            it--;
            continue;
        }
        if (restart) {
            hpls_k_copy(n, z, p);   /* p = z */
            hpls_k_copy(n, zt, pt); /* pt = zt */
            restart = 0;
        } else {
            double beta = rho / rho_old;
            hpls_k_xpay(n, z, beta, p);   /* p = z + beta p */
            hpls_k_xpay(n, zt, beta, pt); /* pt = zt + beta pt */
        }
        hpls_op_apply(s, p, q);      /* q = A p */
        hpls_op_apply_t(s, pt, qt);  /* qt = A^T pt */
        double sigma = hpls_k_dot(n, pt, q);
        if (sigma == 0.0 || !isfinite(sigma)) {
            if (!isfinite(sigma) || restarted_at == it)
                return hpls_breakdown(s, sigma, "(pt, A p)", it);
            restart = 1;
            it--;
            continue;
        }
        double alpha = rho / sigma;
        hpls_k_axpy(n, alpha, p, x);    /* x += alpha p */
        hpls_k_axpy(n, -alpha, q, r);   /* r -= alpha q */
        hpls_k_axpy(n, -alpha, qt, rt); /* rt -= alpha qt */
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
