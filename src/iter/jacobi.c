/* jacobi.c: (weighted) Jacobi iteration, x_{k+1} = x_k + omega D^{-1} (b - A x_k).
 * The residual of x_k is the update itself, so the convergence test on the
 * true residual costs nothing extra.
 * Traffic per iteration: A once, x twice, b, r twice, D^{-1}: one SpMV + 4n. */
#include "solver.h"

hpls_status hpls_solve_jacobi(hpls_solver *s, const hpls_dvec *b, hpls_dvec *x)
{
    hpls_backend *be = s->be;
    hpls_int n = s->op.n;
    hpls_dvec *r = s->work[0];
    const double omega = s->opt.omega;
    double rnorm = hpls_op_residual(s, b, x, r); /* r = b - A x */
    if (hpls_conv_start(s, rnorm) != HPLS_NOT_RUN)
        return HPLS_OK;
    for (hpls_int it = 1;; it++) {
        hpls_v_diag_axpy(be, n, omega, s->invdiag, r, x); /* x += omega D^-1 r */
        rnorm = hpls_op_residual(s, b, x, r);             /* r = b - A x */
        if (hpls_conv_check(s, it, rnorm) != HPLS_NOT_RUN)
            return HPLS_OK;
    }
}
