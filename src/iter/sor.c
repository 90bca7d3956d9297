/* SPDX-License-Identifier: BSD-3-Clause */
/* sor.c: successive over-relaxation, forward sweeps with weight omega (Young
 * 1950; Saad, Iterative Methods, Sec. 4.1).  omega = 1 is Gauss-Seidel.  The true
 * residual of the new iterate is (U + (1 - 1/w) D)(x_old - x_new) (kernels/cpu/sor_sweep.c).
 * Traffic per iteration: A once (sweep) + its upper half, x, b, dx, r.
 * Here too the helpers gs.c and ssor.c share.  On a dense A (the PJG paper's
 * Gauss-Seidel baseline, Sec. 6.3) the host's sweeps run over the dense rows
 * (kernels/cpu/dense.c).
 *
 * On a matrix distributed over MPI ranks each rank sweeps its own rows, the
 * other ranks' unknowns taken from the previous sweep (OpenFOAM's treatment
 * of processor boundaries): b - (A - Ad) x through one halo exchange before
 * each sweep, and the true residual is the local formula's plus (A - Ad)
 * (x_old - x_new), one more exchange.  On several ranks this is a different
 * iteration (block Jacobi between ranks, SOR inside): more iterations.
 *
 * The sweeps are the backend's kernel family's (precond/relax_kernels.h; on a
 * device kernels/device/relax.c: the lower (upper, backward) triangular solve
 * (D/w + L) x_new = b - U x_old - (1 - 1/w) D x_old scheduled by trisolve, each
 * row summed as the host sums it: the iterates are the host's bit for bit). */
#include "iter/method.h"
#include "precond/relax_kernels.h"

#include <math.h>

/* A's sweeps on the backend (mc->mdata). */
typedef struct relax_data {
    hpls_backend *be;
    hpls_drelax *dev;
} relax_data;

/* The matrix the sweeps read. */
static hpls_relax_matrix matrix(const hpls_mctx *mc)
{
    return (hpls_relax_matrix){mc->A, mc->diagpos, mc->Ad, mc->op->dA};
}

void hpls_destroy_relax(void *mdata)
{
    relax_data *R = mdata;
    if (!R)
        return;
    hpls_relax_kernels_of(R->be)->release(R->be, R->dev);
    hpls_free(R);
}

hpls_status hpls_setup_relax(hpls_mctx *mc)
{
    hpls_backend *be = mc->be;
    if (be->d && !mc->A)
        return hpls_fail(HPLS_ERR_UNSUPPORTED,
                         "%s on %s sweeps a CSR matrix (a dense one: use backend=cpu)", mc->name,
                         be->name);
    relax_data *R = hpls_calloc(1, sizeof *R);
    if (!R)
        return HPLS_ERR_NOMEM;
    R->be = be;
    hpls_status st =
        hpls_relax_kernels_of(be)->upload(be, mc->A, mc->diagpos, mc->opt.trisolve, &R->dev);
    if (st != HPLS_OK) {
        hpls_free(R);
        return st;
    }
    mc->mdata = R;
    return HPLS_OK;
}

void hpls_sor_sweep(hpls_mctx *mc, double omega, int backward, const hpls_dvec *b, hpls_dvec *x,
                    hpls_dvec *dx)
{
    hpls_backend *be = mc->be;
    relax_data *R = mc->mdata;
    if (mc->op->coupling) { /* distributed: b - (A - Ad) x into dx, the sweep's b (a host
                             family's: it reads b_i before it writes dx_i) */
        const hpls_real *bp = hpls_v_host(be, b), *xp = hpls_v_host(be, x);
        hpls_real *dxp = hpls_v_host(be, dx);
        if (!bp || !xp || !dxp)
            return;
        for (hpls_int i = 0; i < mc->n; i++)
            dxp[i] = bp[i];
        mc->op->coupling(mc->op, xp, -1.0, dxp);
        b = dx;
    }
    const hpls_relax_matrix M = matrix(mc);
    hpls_relax_kernels_of(be)->sweep(be, &M, R->dev, omega, backward, mc->invdiag, b, x, dx);
}

double hpls_sor_residual(hpls_mctx *mc, int upper, double dscale, const hpls_dvec *x,
                         const hpls_dvec *dx, hpls_dvec *r)
{
    hpls_backend *be = mc->be;
    const relax_data *R = mc->mdata;
    const hpls_relax_matrix M = matrix(mc);
    double ss = hpls_relax_kernels_of(be)->residual(be, &M, R->dev, upper, dscale, x, dx, r);
    if (mc->op->coupling) { /* distributed: the other ranks' change, (A - Ad)(x_old - x_new) */
        const hpls_real *dxp = hpls_v_host(be, dx);
        hpls_real *rp = hpls_v_host(be, r);
        if (!dxp || !rp)
            return NAN;
        ss = mc->op->coupling(mc->op, dxp, 1.0, rp);
    }
    hpls_be_reduce(be, &ss, 1, HPLS_RED_SUM);
    return hpls_be_norm(be, mc->n, ss, r);
}

hpls_status hpls_solve_sor(hpls_mctx *mc, const hpls_dvec *b, hpls_dvec *x)
{
    hpls_dvec *r = mc->work[0], *dx = mc->work[1];
    const double w = mc->opt.omega;
    double rnorm = hpls_m_op_residual(mc, b, x, r); /* r = b - A x0 */
    if (hpls_conv_start(mc, rnorm) != HPLS_NOT_RUN)
        return HPLS_OK;
    for (hpls_int it = 1;; it++) {
        hpls_sor_sweep(mc, w, 0, b, x, dx);
        rnorm = hpls_sor_residual(mc, 1, 1.0 - 1.0 / w, x, dx, r);
        if (hpls_conv_check(mc, it, rnorm) != HPLS_NOT_RUN)
            return HPLS_OK;
    }
}
