/* SPDX-License-Identifier: BSD-3-Clause */
/* dcsr_spmv.c: y = A x, y = A^T x and r = b - A x for a row-distributed
 * matrix (dcsr.h), the halo exchange overlapped with the diagonal block's
 * product:
 *
 *   start the halo (send the x values others need, receive my ghosts)
 *   y = Ad x_local          (cpu's SpMV kernel, OpenMP; or the quad-tree of Ad)
 *   finish the halo
 *   y += Ao ghost           (the off-diagonal block, ghost columns only)
 *
 * y = A^T x by the reverse halo (dcsr_reverse.c), not by a distributed A^T:
 *
 *   w = Ao^T x_local        (nghost values: my rows' part of the ghost columns of y)
 *   start sending w back to the ghosts' owners
 *   y = Ad^T x_local        (Ad^T built once at setup, or the quad-tree's walk)
 *   finish: y += what the other ranks sent for my rows
 *
 * Per product it sends one message to every rank it receives ghosts from
 * and the nghost values of the forward exchange: the same messages and bytes
 * as y = A x.  A^T distributed at setup would send one message per neighbour
 * too, the values of the distinct rows of other ranks that have entries in my
 * columns (as many, for a structurally symmetric A), but it needs an
 * all-to-all of the off-diagonal entries and a second halo plan at setup;
 * this needs only the local transposes Ad^T and Ao^T (A^T's memory either
 * way) and no message at setup.
 *
 * One message per neighbouring rank each way per product; the residual's sum
 * of squares is one reduction.
 *
 * reproducible=1 (be->exact): one process sums a row of A x left to right in
 * its column order, and so must every partition: each row is summed in
 * global column order, the ghosts left of my columns, mine, the ghosts right
 * of them (garray is sorted), from the same start (0, or b_i for b - A x),
 * so y and r are the one-process bits on any number of ranks.  The rows with
 * no ghost are done while the halo travels, the others after it; the sums of
 * squares are exact (kernels/cpu/exact_sum.h). */
#include "kernels/cpu/exact_sum.h"
#include "mpi/dcsr_ops.h"

#include "la/qtree.h"

#include <math.h>
#include <omp.h>

/* y -= Ao g (sign -1) or y += Ao g (sign 1); returns sum y_i^2 after it (for
 * the residual), summed per thread in thread order (repeatable for a fixed
 * thread count). */
static double offdiag(int nt, const hpls_csr *Ao, const hpls_real *g, double sign, hpls_real *y)
{
    hpls_int m = Ao->nrows;
    double part[HPLS_MAX_THREADS] = {0};
    int used = 1;
#pragma omp parallel num_threads(nt) if (m > 32768)
    {
        int t = omp_get_thread_num(), T = omp_get_num_threads();
        hpls_int lo = m * t / T, hi = m * (t + 1) / T;
        double ss = 0.0;
        for (hpls_int i = lo; i < hi; i++) {
            double sum = 0.0;
            for (hpls_int p = Ao->rowptr[i]; p < Ao->rowptr[i + 1]; p++)
                sum += Ao->val[p] * g[Ao->colind[p]];
            y[i] += sign * sum;
            ss += y[i] * y[i];
        }
        part[t] = ss;
#pragma omp single
        used = T;
    }
    double ss = 0.0;
    for (int t = 0; t < used; t++)
        ss += part[t];
    return ss;
}

/* How many ghosts lie left of my columns (garray is increasing). */
static hpls_int ghosts_left(const hpls_dcsr *D)
{
    hpls_int lo = 0, hi = D->nghost;
    while (lo < hi) {
        hpls_int mid = lo + (hi - lo) / 2;
        if (D->garray[mid] < D->first)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* s +/- (row i of A) x, entry by entry in global column order (spmv.c's
 * row_acc on the whole row: the product rounded, then added or subtracted). */
static inline double merged_row(const hpls_dcsr *D, const hpls_real *x, hpls_int i, double s,
                                int sub, hpls_int left)
{
    const hpls_csr *Ad = D->Ad, *Ao = D->Ao;
    const hpls_real *g = D->ghost;
    hpls_int p = Ao->rowptr[i], end = Ao->rowptr[i + 1];
    for (; p < end && Ao->colind[p] < left; p++) {
        double prod = Ao->val[p] * g[Ao->colind[p]];
        s = sub ? s - prod : s + prod;
    }
    for (hpls_int q = Ad->rowptr[i]; q < Ad->rowptr[i + 1]; q++) {
        double prod = Ad->val[q] * x[Ad->colind[q]];
        s = sub ? s - prod : s + prod;
    }
    for (; p < end; p++) {
        double prod = Ao->val[p] * g[Ao->colind[p]];
        s = sub ? s - prod : s + prod;
    }
    return s;
}

/* y = A x (b NULL) or y = b - A x on my rows without ghost columns (ghosts 0:
 * the halo need not have arrived) or with them (1); ss (if not NULL): their
 * y_i^2 added exactly. */
static void merged_rows(int nt, const hpls_dcsr *D, const hpls_real *x, const hpls_real *b,
                        hpls_real *y, int ghosts, hpls_xsum *ss)
{
    hpls_int m = D->nlocal, left = ghosts_left(D);
    const hpls_int *orp = D->Ao->rowptr;
#pragma omp parallel num_threads(nt) if (m > 32768)
    {
        int t = omp_get_thread_num(), T = omp_get_num_threads(), adds = 0;
        hpls_xsum a;
        hpls_xsum_zero(&a);
        for (hpls_int i = m * t / T; i < m * (t + 1) / T; i++) {
            if ((orp[i + 1] > orp[i]) != ghosts)
                continue;
            double v = b ? merged_row(D, x, i, b[i], 1, left) : merged_row(D, x, i, 0.0, 0, left);
            y[i] = v;
            if (ss) {
                hpls_xsum_add(&a, v * v);
                if (++adds == HPLS_XS_BATCH) {
                    hpls_xsum_carry(&a);
                    adds = 0;
                }
            }
        }
        if (ss) {
            hpls_xsum_carry(&a);
#pragma omp critical
            hpls_xsum_merge(ss, &a);
        }
    }
}

/* y = A x or r = b - A x (b not NULL; *rnorm = ||r||) with reproducible=1. */
static hpls_status exact_product(const hpls_op *op, const hpls_dvec *bv, const hpls_dvec *xv,
                                 hpls_dvec *yv, double *rnorm)
{
    hpls_backend *be = op->be;
    hpls_dcsr *D = op->D;
    const hpls_real *xp = hpls_v_host(be, xv), *bp = bv ? hpls_v_host(be, bv) : NULL;
    hpls_real *yp = hpls_v_host(be, yv);
    if (!xp || !yp || (bv && !bp))
        return be->err;
    hpls_xsum ss;
    hpls_xsum_zero(&ss);
    hpls_status st = hpls_dcsr_halo_start(D, xp);
    merged_rows(be->nthreads, D, xp, bp, yp, 0, rnorm ? &ss : NULL);
    if (st == HPLS_OK)
        st = hpls_dcsr_halo_finish(D);
    if (st != HPLS_OK)
        return st;
    merged_rows(be->nthreads, D, xp, bp, yp, 1, rnorm ? &ss : NULL);
    if (rnorm) {
        double sum, limbs[HPLS_XS_LIMBS];
        hpls_xsum_reduce(be, &ss, 1, limbs, &sum);
        *rnorm = hpls_be_norm(be, op->n, sum, yv);
    }
    return be->err;
}

static hpls_status dcsr_apply(const hpls_op *op, const hpls_dvec *x, hpls_dvec *y)
{
    if (op->be->exact)
        return exact_product(op, NULL, x, y, NULL);
    hpls_backend *be = op->be;
    hpls_dcsr *D = op->D;
    const hpls_real *xp = hpls_v_host(be, x);
    hpls_real *yp = hpls_v_host(be, y);
    if (!xp || !yp)
        return be->err;
    hpls_status st = hpls_dcsr_halo_start(D, xp);
    if (op->qt) /* y = Ad x while the halo travels: the same bits either way */
        hpls_k_qt_spmv(op->qt, be->pf, xp, yp);
    else
        hpls_be_spmv(be, D->Ad, xp, yp);
    if (st == HPLS_OK)
        st = hpls_dcsr_halo_finish(D);
    if (st == HPLS_OK && D->nghost > 0)
        offdiag(be->nthreads, D->Ao, D->ghost, 1.0, yp); /* y += Ao ghost */
    return st;
}

static hpls_status dcsr_apply_t(const hpls_op *op, const hpls_dvec *x, hpls_dvec *y)
{
    hpls_backend *be = op->be;
    hpls_dcsr *D = op->D;
    const hpls_real *xp = hpls_v_host(be, x);
    hpls_real *yp = hpls_v_host(be, y);
    if (!xp || !yp)
        return be->err;
    if (D->nghost > 0) /* w = Ao^T x, sent before the local product */
        be->k->spmv(be->nthreads, be->pf, D->rev->AoT, xp, D->rev->out);
    hpls_status st = hpls_dcsr_reverse_start(D);
    if (op->qt) /* y = Ad^T x while w travels */
        hpls_k_qt_spmv_t(op->qt, xp, yp);
    else /* by Ad's rows where that pays (hpls_k_spmv_t_pf): the same bits */
        be->k->spmv_t(be->nthreads, be->pf, D->Ad, op->At, xp, yp);
    if (st == HPLS_OK)
        st = hpls_dcsr_reverse_finish(D, HPLS_RED_SUM, yp); /* y += the others' w */
    return st;
}

static hpls_status dcsr_residual(const hpls_op *op, const hpls_dvec *b, const hpls_dvec *x,
                                 hpls_dvec *r, double *rnorm)
{
    if (op->be->exact)
        return exact_product(op, b, x, r, rnorm);
    hpls_backend *be = op->be;
    hpls_dcsr *D = op->D;
    const hpls_real *bp = hpls_v_host(be, b), *xp = hpls_v_host(be, x);
    hpls_real *rp = hpls_v_host(be, r);
    if (!bp || !xp || !rp)
        return be->err;
    hpls_status st = hpls_dcsr_halo_start(D, xp);
    be->k->residual(be->nthreads, be->pf, D->Ad, bp, xp, rp); /* r = b - Ad x */
    if (st == HPLS_OK)
        st = hpls_dcsr_halo_finish(D);
    if (st != HPLS_OK)
        return st;
    double ss = offdiag(be->nthreads, D->Ao, D->ghost, -1.0, rp); /* r -= Ao ghost */
    hpls_be_reduce(be, &ss, 1, HPLS_RED_SUM);
    *rnorm = hpls_be_norm(be, op->n, ss, r);
    return be->err;
}

/* || |A| |x| ||: the halo of x, then |Ad| |x| + |Ao| |ghost| row by row. */
static double dcsr_abs_norm(const hpls_op *op, const hpls_real *x)
{
    hpls_dcsr *D = op->D;
    hpls_status st = hpls_dcsr_halo_start(D, x);
    if (st == HPLS_OK)
        st = hpls_dcsr_halo_finish(D);
    if (st != HPLS_OK) {
        hpls_be_fail(op->be, st, "%s", hpls_last_error());
        return 0.0;
    }
    if (op->be->exact)
        return hpls_xsum_abs_rows(op->be, D->Ad, D->Ao, x, D->ghost, ghosts_left(D));
    const hpls_csr *Ad = D->Ad, *Ao = D->Ao;
    double ss = 0.0;
    for (hpls_int i = 0; i < D->nlocal; i++) {
        double sum = 0.0;
        for (hpls_int p = Ad->rowptr[i]; p < Ad->rowptr[i + 1]; p++)
            sum += fabs(Ad->val[p]) * fabs(x[Ad->colind[p]]);
        for (hpls_int p = Ao->rowptr[i]; p < Ao->rowptr[i + 1]; p++)
            sum += fabs(Ao->val[p]) * fabs(D->ghost[Ao->colind[p]]);
        ss += sum * sum;
    }
    hpls_be_reduce(op->be, &ss, 1, HPLS_RED_SUM);
    return sqrt(ss);
}

/* y += sign Ao ghost(v): the processor-local sweeps' coupling (sor.c). */
static double dcsr_coupling(const hpls_op *op, const hpls_real *v, double sign, hpls_real *y)
{
    hpls_dcsr *D = op->D;
    hpls_status st = hpls_dcsr_halo_start(D, v);
    if (st == HPLS_OK)
        st = hpls_dcsr_halo_finish(D);
    if (st != HPLS_OK) {
        hpls_be_fail(op->be, st, "%s", hpls_last_error());
        return NAN;
    }
    return offdiag(op->be->nthreads, D->Ao, D->ghost, sign, y);
}

hpls_op hpls_op_dcsr(hpls_backend *be, hpls_dcsr *D)
{
    return (hpls_op){.n = D->nlocal,
                     .be = be,
                     .A = D->Ad,
                     .D = D,
                     .apply = dcsr_apply,
                     .residual = dcsr_residual,
                     .abs_norm = dcsr_abs_norm,
                     .coupling = dcsr_coupling};
}

hpls_status hpls_op_dcsr_transpose(hpls_op *op)
{
    hpls_dcsr *D = op->D;
    hpls_status st = hpls_dcsr_reverse_plan(D);
    if (st == HPLS_OK && !D->rev->AoT)
        st = hpls_csr_transpose(D->Ao, &D->rev->AoT);
    if (st == HPLS_OK)
        op->apply_t = dcsr_apply_t;
    return st;
}
