/* SPDX-License-Identifier: BSD-3-Clause */
/* operator.c: y = A x, y = A^T x and r = b - A x on a backend, for A in CSR,
 * dense or quad-tree storage, or given by the user's functions (shell).  On a
 * device backend a CSR or dense A is copied there once (hpls_op_upload) and
 * multiplied there (be->d).  On the host backends the product is a host
 * kernel (be->k: OpenMP on cpu, the sequential reference on ref); the
 * quad-tree walk has one implementation, run on the thread count it was built
 * for (one band on ref). */
#include "solver.h"

#include "la/qtree.h"

/* The host arrays behind x and y; 0 when the backend refused one (recorded). */
static int host2(const hpls_op *op, const hpls_dvec *x, const hpls_dvec *y, const hpls_real **xp,
                 hpls_real **yp)
{
    *xp = hpls_v_host(op->be, x);
    *yp = hpls_v_host(op->be, y);
    return *xp && *yp;
}

static hpls_status csr_apply(const hpls_op *op, const hpls_dvec *x, hpls_dvec *y)
{
    if (op->dA) { /* on the device */
        op->be->d->spmv(op->be, op->dA, x, y);
        return op->be->err;
    }
    const hpls_real *xp;
    hpls_real *yp;
    if (host2(op, x, y, &xp, &yp))
        hpls_be_spmv(op->be, op->A, xp, yp);
    return op->be->err;
}

static hpls_status csr_apply_t(const hpls_op *op, const hpls_dvec *x, hpls_dvec *y)
{
    if (op->dAt) {
        op->be->d->spmv(op->be, op->dAt, x, y);
        return op->be->err;
    }
    const hpls_real *xp;
    hpls_real *yp;
    if (host2(op, x, y, &xp, &yp))
        op->be->k->spmv_t(op->be->nthreads, op->be->pf, op->A, op->At, xp, yp);
    return op->be->err;
}

static hpls_status dense_apply(const hpls_op *op, const hpls_dvec *x, hpls_dvec *y)
{
    if (op->dAd) { /* on the device */
        op->be->d->gemv(op->be, op->dAd, x, y);
        return op->be->err;
    }
    const hpls_real *xp;
    hpls_real *yp;
    if (host2(op, x, y, &xp, &yp))
        op->be->k->gemv(op->be->nthreads, op->Ad, xp, yp);
    return op->be->err;
}

static hpls_status qt_apply(const hpls_op *op, const hpls_dvec *x, hpls_dvec *y)
{
    const hpls_real *xp;
    hpls_real *yp;
    if (host2(op, x, y, &xp, &yp))
        hpls_k_qt_spmv(op->qt, op->be->pf, xp, yp);
    return op->be->err;
}

static hpls_status qt_apply_t(const hpls_op *op, const hpls_dvec *x, hpls_dvec *y)
{
    const hpls_real *xp;
    hpls_real *yp;
    if (host2(op, x, y, &xp, &yp))
        hpls_k_qt_spmv_t(op->qt, xp, yp);
    return op->be->err;
}

/* r = b - A x by a host kernel returning sum r_i^2 (CSR or dense), *rnorm = ||r||. */
static hpls_status residual(const hpls_op *op, const hpls_dvec *b, const hpls_dvec *x,
                            hpls_dvec *r, double *rnorm)
{
    hpls_backend *be = op->be;
    if (op->dA || op->dAd) { /* on the device: r and its sum of squares in one pass */
        double ss = op->dA ? be->d->residual(be, op->dA, b, x, r)
                           : be->d->dense_residual(be, op->dAd, b, x, r);
        hpls_be_reduce(be, &ss, 1, HPLS_RED_SUM);
        *rnorm = hpls_be_norm(be, op->n, ss, r);
        return be->err;
    }
    const hpls_real *bp = hpls_v_host(be, b), *xp;
    hpls_real *rp;
    if (!bp || !host2(op, x, r, &xp, &rp))
        return be->err;
    double ss = op->A ? be->k->residual(be->nthreads, be->pf, op->A, bp, xp, rp)
                      : be->k->dense_residual(be->nthreads, op->Ad, bp, xp, rp);
    hpls_be_reduce(be, &ss, 1, HPLS_RED_SUM);
    *rnorm = hpls_be_norm(be, op->n, ss, r);
    return be->err;
}

hpls_op hpls_op_csr(hpls_backend *be, const hpls_csr *A)
{
    return (hpls_op){.n = A->nrows, .be = be, .A = A, .apply = csr_apply, .residual = residual};
}

hpls_op hpls_op_dense(hpls_backend *be, const hpls_dense *A)
{
    return (hpls_op){.n = A->nrows, .be = be, .Ad = A, .apply = dense_apply, .residual = residual};
}

void hpls_op_set_transpose(hpls_op *op, const hpls_csr *At)
{
    op->At = At;
    op->apply_t = csr_apply_t;
}

hpls_status hpls_op_upload(hpls_op *op)
{
    hpls_backend *be = op->be;
    hpls_op_release(op);
    if (be->d && op->Ad)
        return be->d->dense_upload(be, op->Ad, &op->dAd);
    if (!be->d || !op->A)
        return HPLS_OK;
    hpls_status st = be->d->csr_upload(be, op->A, 0, &op->dA);
    if (st == HPLS_OK && op->At)
        st = be->d->csr_upload(be, op->At, 0, &op->dAt);
    return st;
}

void hpls_op_release(hpls_op *op)
{
    if (op->be && op->be->d) {
        op->be->d->csr_release(op->be, op->dA);
        op->be->d->csr_release(op->be, op->dAt);
        op->be->d->dense_release(op->be, op->dAd);
    }
    op->dA = op->dAt = NULL;
    op->dAd = NULL;
}

void hpls_op_set_qtree(hpls_op *op, const hpls_qtree *qt)
{
    op->qt = qt;
    if (op->D) /* distributed: qt is the diagonal block's, walked inside the halo's product */
        return;
    op->apply = qt_apply;
    if (op->apply_t)
        op->apply_t = qt_apply_t;
}

/* The user's y = A x (or A^T x) on the host arrays of x and y; a nonzero
 * return is an HPLS_ERR_CALLBACK naming it. */
static hpls_status shell_call(const hpls_op *op, hpls_apply_fn fn, const char *what,
                              const hpls_dvec *x, hpls_dvec *y)
{
    const hpls_real *xp;
    hpls_real *yp;
    if (!host2(op, x, y, &xp, &yp))
        return op->be->err;
    int rc = fn(op->shell->ctx, op->n, xp, yp);
    if (rc != 0)
        return hpls_fail(HPLS_ERR_CALLBACK, "the user's %s returned %d", what, rc);
    return HPLS_OK;
}

static hpls_status shell_apply(const hpls_op *op, const hpls_dvec *x, hpls_dvec *y)
{
    return shell_call(op, op->shell->apply, "operator y = A x", x, y);
}

static hpls_status shell_apply_t(const hpls_op *op, const hpls_dvec *x, hpls_dvec *y)
{
    return shell_call(op, op->shell->apply_t, "operator y = A^T x", x, y);
}

/* r = b - A x as A x, then r = b - r: one call of the user's function. */
static hpls_status shell_residual(const hpls_op *op, const hpls_dvec *b, const hpls_dvec *x,
                                  hpls_dvec *r, double *rnorm)
{
    hpls_status st = shell_apply(op, x, r);
    if (st != HPLS_OK)
        return st;
    hpls_v_axpby(op->be, op->n, 1.0, b, -1.0, r);
    *rnorm = hpls_v_nrm2(op->be, op->n, r);
    return op->be->err;
}

hpls_op hpls_op_shell(hpls_backend *be, hpls_int n, const hpls_shell *sh)
{
    return (hpls_op){.n = n, .be = be, .shell = sh, .apply = shell_apply,
                     .apply_t = sh->apply_t ? shell_apply_t : NULL, .residual = shell_residual};
}
