/* SPDX-License-Identifier: BSD-3-Clause */
/* sor.c: successive over-relaxation, forward sweeps with weight omega (Young
 * 1950; Saad, Iterative Methods, Sec. 4.1).  omega = 1 is Gauss-Seidel.  The true
 * residual of the new iterate is (U + (1 - 1/w) D)(x_old - x_new) (kernels/cpu/sor_sweep.c).
 * Traffic per iteration: A once (sweep) + its upper half, x, b, dx, r.
 * The sweeps are host kernels: here too the helpers gs.c and ssor.c share; on a
 * dense A (the PJG paper's Gauss-Seidel baseline, Sec. 6.3) they run over the
 * dense rows (kernels/cpu/dense.c).
 *
 * On a matrix distributed over MPI ranks each rank sweeps its own rows, the
 * other ranks' unknowns taken from the previous sweep (OpenFOAM's treatment
 * of processor boundaries): b - (A - Ad) x through one halo exchange before
 * each sweep, and the true residual is the local formula's plus (A - Ad)
 * (x_old - x_new), one more exchange.  On several ranks this is a different
 * iteration (block Jacobi between ranks, SOR inside): more iterations.
 *
 * On a device backend a sweep is the lower (upper, backward) triangular solve
 * (D/w + L) x_new = b - U x_old - (1 - 1/w) D x_old, scheduled by trisolve
 * (kernels/device/relax.c: level sets, sync-free or serial; auto: serial
 * for long chains, else as the dilu sweeps choose), each row summed as the
 * host sums it: the iterates
 * are the host's bit for bit.  x_old is kept in dx (the old values a row
 * reads), and the residual kernel forms x_old - x_new as it reads them. */
#include "iter/method.h"

#include <math.h>

/* The device's part of gs, sor and ssor (mc->mdata): A's sweeps there. */
typedef struct relax_data {
    hpls_backend *be;
    hpls_drelax *dev;
} relax_data;

void hpls_destroy_relax(void *mdata)
{
    relax_data *R = mdata;
    if (!R)
        return;
    R->be->d->relax_release(R->be, R->dev);
    hpls_free(R);
}

hpls_status hpls_setup_relax(hpls_mctx *mc)
{
    hpls_backend *be = mc->be;
    if (!be->d)
        return HPLS_OK;
    if (!mc->A)
        return hpls_fail(HPLS_ERR_UNSUPPORTED,
                         "%s on %s sweeps a CSR matrix (a dense one: use backend=cpu)", mc->name,
                         be->name);
    relax_data *R = hpls_calloc(1, sizeof *R);
    if (!R)
        return HPLS_ERR_NOMEM;
    R->be = be;
    hpls_status st = be->d->relax_upload(be, mc->A, mc->diagpos, mc->opt.trisolve, &R->dev);
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
    const relax_data *R = mc->mdata;
    if (R) { /* on the device: dx = x_old, read by the sweep for the old values */
        hpls_v_copy(be, mc->n, x, dx);
        be->d->relax_sweep(be, R->dev, mc->op->dA,
                           backward ? HPLS_RELAX_SOR_BWD : HPLS_RELAX_SOR_FWD, omega, mc->invdiag,
                           b, x, dx);
        return;
    }
    const hpls_real *bp = hpls_v_host(be, b), *dinv = hpls_v_host(be, mc->invdiag);
    hpls_real *xp = hpls_v_host(be, x), *dxp = hpls_v_host(be, dx);
    if (!bp || !dinv || !xp || !dxp) /* a handle was refused: recorded, the test stops */
        return;
    if (mc->op->coupling) { /* distributed: b - (A - Ad) x into dx, the sweep's b (the
                             kernel reads b_i before it writes dx_i, and no other entry) */
        for (hpls_int i = 0; i < mc->n; i++)
            dxp[i] = bp[i];
        mc->op->coupling(mc->op, xp, -1.0, dxp);
        bp = dxp;
    }
    if (mc->Ad) /* dense rows: the same sweep by row dots */
        hpls_k_dense_sor_sweep(mc->Ad, dinv, omega, backward, bp, xp, dxp);
    else
        hpls_k_sor_sweep(be->pf, mc->A, mc->diagpos, dinv, omega, backward, bp, xp, dxp);
}

double hpls_sor_residual(hpls_mctx *mc, int upper, double dscale, const hpls_dvec *x,
                         const hpls_dvec *dx, hpls_dvec *r)
{
    hpls_backend *be = mc->be;
    const relax_data *R = mc->mdata;
    if (R) { /* on the device: dx is x_old */
        double ss = be->d->relax_residual(be, R->dev, mc->op->dA, upper, dscale, dx, x, r);
        hpls_be_reduce(be, &ss, 1, HPLS_RED_SUM);
        return hpls_be_norm(be, mc->n, ss, r);
    }
    const hpls_real *dxp = hpls_v_host(be, dx);
    hpls_real *rp = hpls_v_host(be, r);
    if (!dxp || !rp)
        return NAN;
    double ss =
        mc->Ad ? be->k->dense_triangle(be->nthreads, mc->Ad, upper, dscale, dxp, rp)
               : be->k->triangle_spmv(be->nthreads, mc->A, mc->diagpos, upper, dscale, dxp, rp);
    if (mc->op->coupling) /* distributed: the other ranks' change, (A - Ad)(x_old - x_new) */
        ss = mc->op->coupling(mc->op, dxp, 1.0, rp);
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
