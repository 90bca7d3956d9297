/* SPDX-License-Identifier: BSD-3-Clause */
/* jacobi.c: (weighted) Jacobi iteration, x_{k+1} = x_k + omega D^{-1} (b - A x_k).
 * The residual of x_k is the update itself, so the convergence test on the
 * true residual costs nothing extra.
 * Traffic per iteration: A once, x twice, b, r twice, D^{-1}: one SpMV + 4n. */
#include "iter/method.h"

#include <math.h>

hpls_status hpls_solve_jacobi(hpls_mctx *mc, const hpls_dvec *b, hpls_dvec *x)
{
    hpls_backend *be = mc->be;
    hpls_int n = mc->n;
    hpls_dvec *r = mc->work[0];
    const double omega = mc->opt.omega;
    double rnorm = hpls_m_op_residual(mc, b, x, r); /* r = b - A x */
    if (hpls_conv_start(mc, rnorm) != HPLS_NOT_RUN)
        return HPLS_OK;
    for (hpls_int it = 1;; it++) {
        hpls_v_diag_axpy(be, n, omega, mc->invdiag, r, x); /* x += omega D^-1 r */
        rnorm = hpls_m_op_residual(mc, b, x, r);           /* r = b - A x */
        if (hpls_conv_check(mc, it, rnorm) != HPLS_NOT_RUN)
            return HPLS_OK;
    }
}

/* The columns' norms from their reduced sums of squares. */
static void column_norms(hpls_backend *be, hpls_int k, double *rn)
{
    hpls_be_reduce(be, rn, (int)k, HPLS_RED_SUM);
    for (hpls_int j = 0; j < k; j++)
        rn[j] = sqrt(rn[j]);
}

/* The block on a device backend (kernels/device/block.c): B, X and R stay
 * there, the active columns' residuals come from one block product (A read
 * once per HPLS_SPMM_COLS columns) and only their norms come back; a column
 * that stops leaves the device's list of active columns, its values in
 * place, and X comes back once at the end.  The same iterates as the host's
 * (every column's row sums in the same order). */
static hpls_status jacobi_block_device(hpls_mctx *mc, hpls_int k, const hpls_real *B, hpls_real *X,
                                       hpls_info *col)
{
    hpls_backend *be = mc->be;
    hpls_dblock *D = NULL;
    double *rn = hpls_malloc(k, sizeof *rn);
    hpls_colconv *cc = hpls_malloc(k, sizeof *cc);
    hpls_int *which = hpls_malloc(k, sizeof *which); /* active slot -> column */
    hpls_status st = rn && cc && which ? HPLS_OK : HPLS_ERR_NOMEM;
    if (st == HPLS_OK)
        st = be->d->block_create(be, mc->n, k, B, X, &D);
    if (st != HPLS_OK)
        goto done;
    hpls_block_norms(mc, k, B, rn); /* ||b_j||, on the host */
    for (hpls_int j = 0; j < k; j++) {
        which[j] = j;
        cc[j].bnorm = rn[j];
    }
    hpls_int active = k;
    be->d->block_columns(be, D, which, active);
    be->d->block_residual(be, D, mc->op->dA, rn);
    for (hpls_int it = 0; active > 0; it++) {
        column_norms(be, active, rn);
        hpls_int before = active;
        for (hpls_int a = 0; a < active;) { /* the test of each active column */
            hpls_int j = which[a];
            hpls_reason r = it == 0 ? hpls_conv_column_start(mc, &cc[j], cc[j].bnorm, rn[a])
                                    : hpls_conv_column(mc, &cc[j], it, rn[a]);
            if (r == HPLS_NOT_RUN) {
                a++;
                continue;
            }
            col[j].reason = r;
            col[j].iterations = it;
            active--; /* column j is done: out, the last active slot moves in */
            which[a] = which[active];
            rn[a] = rn[active];
        }
        if (active == 0)
            break;
        if (active < before)
            be->d->block_columns(be, D, which, active);
        be->d->block_jacobi(be, D, mc->opt.omega, mc->invdiag); /* x_j += omega D^-1 r_j */
        be->d->block_residual(be, D, mc->op->dA, rn);
    }
    be->d->block_download(be, D, X);
done:
    be->d->block_release(be, D);
    hpls_free(rn);
    hpls_free(cc);
    hpls_free(which);
    return st == HPLS_OK ? be->err : st;
}

/* Many right-hand sides: the same iteration on k columns, whose residuals come
 * from one block product (A read once for several columns).  A column that
 * stops is written back and the last active one takes its place, so the
 * block shrinks as columns converge. */
hpls_status hpls_solve_jacobi_block(hpls_mctx *mc, hpls_int k, const hpls_real *B, hpls_real *X,
                                    hpls_info *col)
{
    if (mc->be->d)
        return jacobi_block_device(mc, k, B, X, col);
    hpls_backend *be = mc->be;
    hpls_int n = mc->n;
    const hpls_real *dinv = hpls_v_host(be, mc->invdiag);
    const double omega = mc->opt.omega;
    hpls_real *Bw = hpls_malloc(n * k, sizeof *Bw), *Xw = hpls_malloc(n * k, sizeof *Xw);
    hpls_real *Rw = hpls_malloc(n * k, sizeof *Rw);
    double *rn = hpls_malloc(k, sizeof *rn);
    hpls_colconv *cc = hpls_malloc(k, sizeof *cc);
    hpls_int *which = hpls_malloc(k, sizeof *which); /* active slot -> column */
    hpls_status st = Bw && Xw && Rw && rn && cc && which ? HPLS_OK : HPLS_ERR_NOMEM;
    if (st != HPLS_OK || !dinv)
        goto done;
    for (hpls_int j = 0; j < n * k; j++) {
        Bw[j] = B[j];
        Xw[j] = X[j];
    }
    hpls_block_norms(mc, k, Bw, rn); /* ||b_j|| */
    for (hpls_int j = 0; j < k; j++) {
        which[j] = j;
        cc[j].bnorm = rn[j];
    }
    hpls_block_residual(mc, k, Bw, Xw, Rw, rn);
    hpls_int active = k;
    for (hpls_int it = 0; active > 0; it++) {
        for (hpls_int a = 0; a < active;) { /* the test of each active column */
            hpls_int j = which[a];
            hpls_reason r = it == 0 ? hpls_conv_column_start(mc, &cc[j], cc[j].bnorm, rn[a])
                                    : hpls_conv_column(mc, &cc[j], it, rn[a]);
            if (r == HPLS_NOT_RUN) {
                a++;
                continue;
            }
            col[j].reason = r;
            col[j].iterations = it;
            active--; /* column j is done: out, the last active slot moves in */
            for (hpls_int i = 0; i < n; i++) {
                X[j * n + i] = Xw[a * n + i];
                Xw[a * n + i] = Xw[active * n + i];
                Bw[a * n + i] = Bw[active * n + i];
                Rw[a * n + i] = Rw[active * n + i];
            }
            which[a] = which[active];
            rn[a] = rn[active];
        }
        if (active == 0)
            break;
#pragma omp parallel for num_threads(be->nthreads) schedule(static) if (n * active > 32768)
        for (hpls_int i = 0; i < n; i++) /* x_j += omega D^-1 r_j */
            for (hpls_int a = 0; a < active; a++)
                Xw[a * n + i] += omega * dinv[i] * Rw[a * n + i];
        hpls_block_residual(mc, active, Bw, Xw, Rw, rn);
    }
done:
    hpls_free(Bw);
    hpls_free(Xw);
    hpls_free(Rw);
    hpls_free(rn);
    hpls_free(cc);
    hpls_free(which);
    return st == HPLS_OK ? be->err : st;
}
