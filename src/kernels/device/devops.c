/* SPDX-License-Identifier: BSD-3-Clause */
/* devops.c: the operator's and the methods' kernels of every device backend
 * (backend.h's hpls_devops), on the host layer (devhost.h): CSR A uploaded
 * once and multiplied by kernels/device/spmv.cl (or a vendor library's SpMV
 * where the backend has one), tridiagonal blocks solved by cyclic reduction
 * (tridiag.cl), the triangular sweeps of dilu, dic and ilu0 (sweep.cl). */
#include "kernels/cpu/sptrsv.h"
#include "kernels/device/devhost.h"

#include <math.h>

/* mean nonzeros per row from which the vector SpMV (VW = 8 lanes a row) is used:
 * below it most of a row's lanes would idle (Bell & Garland's rule of thumb) */
enum { VECTOR_MIN_ROW = 16, VW = 8 };

/* ---- CSR on the device (struct hpls_dmat: devhost.h) --------------------- */

static void hpls_devop_csr_release(hpls_backend *be, hpls_dmat *A)
{
    if (!A)
        return;
    const hpls_devlib *lib = hpls_dev_of(be)->lib;
    if (A->view)
        lib->csr_unview(be, A->view);
    hpls_dev_free(be, A->rp);
    hpls_dev_free(be, A->ci);
    hpls_dev_free(be, A->val);
    hpls_free(A);
}

static hpls_status hpls_devop_csr_upload(hpls_backend *be, const hpls_csr *A, int variant,
                                         hpls_dmat **out)
{
    *out = NULL;
    hpls_dmat *D = hpls_calloc(1, sizeof *D);
    if (!D)
        return HPLS_ERR_NOMEM;
    D->n = A->nrows;
    hpls_status st =
        hpls_dev_upload(be, A->rowptr, (size_t)(A->nrows + 1) * sizeof *A->rowptr, &D->rp);
    if (st == HPLS_OK)
        st = hpls_dev_upload(be, A->colind, (size_t)A->nnz * sizeof *A->colind, &D->ci);
    if (st == HPLS_OK)
        st = hpls_dev_upload(be, A->val, (size_t)A->nnz * sizeof *A->val, &D->val);
    if (st != HPLS_OK)
        st = hpls_dev_fail(be, st, "a CSR matrix of %lld rows, %lld nonzeros", (long long)A->nrows,
                           (long long)A->nnz);
    D->vector = variant == 2 || (variant == 0 && A->nnz >= (hpls_int)VECTOR_MIN_ROW * A->nrows);
    const hpls_devlib *lib = hpls_dev_of(be)->lib;
    if (st == HPLS_OK && variant == 0 && lib && lib->spmv &&
        (st = lib->csr_view(be, A, D->ci, D->val, &D->view)) != HPLS_OK)
        st = hpls_dev_fail(be, st, "the vendor library's view of a CSR matrix");
    if (st != HPLS_OK) {
        hpls_devop_csr_release(be, D);
        return st;
    }
    *out = D;
    return HPLS_OK;
}

/* y = alpha A x + beta y by the vendor library */
static void lib_spmv(hpls_backend *be, const hpls_dmat *A, double alpha, const hpls_dvec *x,
                     double beta, hpls_dvec *y)
{
    if (be->err != HPLS_OK)
        return;
    hpls_status st =
        hpls_dev_of(be)->lib->spmv(be, A->view, alpha, hpls_dev_vbuf(x), beta, hpls_dev_vbuf(y));
    if (st != HPLS_OK)
        hpls_be_fail(be, st, "%s backend: %s", be->name, hpls_last_error());
}

static void hpls_devop_spmv(hpls_backend *be, const hpls_dmat *A, const hpls_dvec *x, hpls_dvec *y)
{
    if (A->view)
        lib_spmv(be, A, 1.0, x, 0.0, y);
    else if (A->vector)
        HPLS_DEV_RUN(be, HPLS_K_csr_spmv_vector, hpls_dev_groups(A->n * VW), HPLS_KL(A->n),
                     HPLS_KG(A->rp), HPLS_KG(A->ci), HPLS_KG(A->val), HPLS_KV(x), HPLS_KV(y));
    else
        HPLS_DEV_RUN(be, HPLS_K_csr_spmv_scalar, hpls_dev_groups(A->n), HPLS_KL(A->n),
                     HPLS_KG(A->rp), HPLS_KG(A->ci), HPLS_KG(A->val), HPLS_KV(x), HPLS_KV(y));
}

static double hpls_devop_residual(hpls_backend *be, const hpls_dmat *A, const hpls_dvec *b,
                                  const hpls_dvec *x, hpls_dvec *r)
{
    double ss = NAN;
    hpls_dbuf *part = hpls_dev_part(be, 1);
    if (!part)
        return ss;
    int ng = hpls_dev_rgroups(be, A->n);
    if (A->view) { /* r = b, r = b - A x by the library, then (r, r) */
        hpls_dev_copy(be, hpls_dev_vbuf(b), 0, hpls_dev_vbuf(r), 0, (size_t)A->n * sizeof(double));
        lib_spmv(be, A, -1.0, x, 1.0, r);
        HPLS_DEV_RUN(be, HPLS_K_dot_part, (size_t)ng, HPLS_KL(A->n), HPLS_KI(1), HPLS_KV(r),
                     HPLS_KV(r), HPLS_KV(r), HPLS_KV(r), HPLS_KV(r), HPLS_KV(r), HPLS_KG(part),
                     HPLS_KI(1), HPLS_KI(0), HPLS_KI(0), HPLS_KI(0));
    } else if (A->vector) { /* A x by rows of lanes, then r = b - A x with the sum */
        hpls_devop_spmv(be, A, x, r);
        HPLS_DEV_RUN(be, HPLS_K_b_minus_part, (size_t)ng, HPLS_KL(A->n), HPLS_KV(b), HPLS_KV(r),
                     HPLS_KG(part));
    } else {
        HPLS_DEV_RUN(be, HPLS_K_csr_residual_scalar, (size_t)ng, HPLS_KL(A->n), HPLS_KG(A->rp),
                     HPLS_KG(A->ci), HPLS_KG(A->val), HPLS_KV(b), HPLS_KV(x), HPLS_KV(r),
                     HPLS_KG(part));
    }
    hpls_dev_reduce_part(be, ng, 1, HPLS_DEV_SUM, &ss);
    return ss;
}

/* ---- tridiagonal blocks on the device ------------------------------------ */
struct hpls_dtri {
    hpls_dbuf *dl, *d, *du;
    hpls_int n, block;
};

static void hpls_devop_tri_release(hpls_backend *be, hpls_dtri *T)
{
    if (!T)
        return;
    hpls_dev_free(be, T->dl);
    hpls_dev_free(be, T->d);
    hpls_dev_free(be, T->du);
    hpls_free(T);
}

static hpls_status hpls_devop_tri_upload(hpls_backend *be, const hpls_tridiag *T, hpls_int block,
                                         hpls_dtri **out)
{
    *out = NULL;
    if (block < 1 || block > HPLS_DEVICE_TRI_MAX)
        return hpls_fail(HPLS_ERR_ARG, "%s backend: tridiagonal blocks of %lld rows (1 to %d)",
                         be->name, (long long)block, HPLS_DEVICE_TRI_MAX);
    hpls_dtri *D = hpls_calloc(1, sizeof *D);
    if (!D)
        return HPLS_ERR_NOMEM;
    size_t bytes = (size_t)T->n * sizeof(double);
    *D = (hpls_dtri){.n = T->n, .block = block};
    hpls_status st = hpls_dev_upload(be, T->dl, bytes, &D->dl);
    if (st == HPLS_OK)
        st = hpls_dev_upload(be, T->d, bytes, &D->d);
    if (st == HPLS_OK)
        st = hpls_dev_upload(be, T->du, bytes, &D->du);
    if (st != HPLS_OK) {
        st = hpls_dev_fail(be, st, "a tridiagonal matrix of %lld rows", (long long)T->n);
        hpls_devop_tri_release(be, D);
        return st;
    }
    *out = D;
    return HPLS_OK;
}

/* x = T^-1 b: a work-group a block (strided beyond HPLS_DEV_GMAX blocks) */
static void hpls_devop_tri_solve(hpls_backend *be, const hpls_dtri *T, const hpls_dvec *b,
                                 hpls_dvec *x)
{
    hpls_int nb = (T->n + T->block - 1) / T->block;
    size_t groups = nb < 1 ? 1 : nb > HPLS_DEV_GMAX ? HPLS_DEV_GMAX : (size_t)nb;
    HPLS_DEV_RUN(be, HPLS_K_tri_cr, groups, HPLS_KL(T->n), HPLS_KL(T->block), HPLS_KG(T->dl),
                 HPLS_KG(T->d), HPLS_KG(T->du), HPLS_KV(b), HPLS_KV(x));
}

/* ---- triangular sweeps (dilu, dic, ilu0) -------------------------------- */
static void hpls_devop_sweep_release(hpls_backend *be, hpls_dsweep *W)
{
    if (!W)
        return;
    hpls_dbuf *const mem[] = {W->lo, W->hi, W->row, W->order, W->col, W->val, W->bscale, W->dinv};
    for (size_t k = 0; k < sizeof mem / sizeof *mem; k++)
        hpls_dev_free(be, mem[k]);
    hpls_dev_ready_free(be, &W->ready);
    hpls_free(W->off);
    hpls_free(W);
}

/* a copy of n values of size each from h, or nothing when h is NULL (not used) */
static hpls_status optional_upload(hpls_backend *be, const void *h, size_t n, size_t size,
                                   hpls_dbuf **b)
{
    return h ? hpls_dev_upload(be, h, n * size, b) : HPLS_OK;
}

/* Lanes for the rows of T: the power of two that covers its mean row
 * (ceil), at most the device's; 1 on a CPU device (one item a group there:
 * sweep.cl).  More would idle: a group's ready flags come from one row. */
static size_t lanes_for(size_t most, const hpls_tri *T)
{
    double entries = 0;
    for (hpls_int k = 0; k < T->n; k++)
        entries += (double)(T->hi[k] - T->lo[k]);
    size_t lanes = 1;
    while (lanes < most && (double)lanes * (double)T->n < entries)
        lanes *= 2;
    return lanes;
}

static hpls_status hpls_devop_sweep_upload(hpls_backend *be, const hpls_sweep *w, hpls_dsweep **out)
{
    const hpls_tri *T = &w->T;
    hpls_int n = T->n;
    *out = NULL;
    hpls_dsweep *W = hpls_calloc(1, sizeof *W);
    if (!W)
        return HPLS_ERR_NOMEM;
    hpls_int nnz = 0; /* the entries' extent: col and val are read below it */
    for (hpls_int k = 0; k < n; k++)
        nnz = T->hi[k] > nnz ? T->hi[k] : nnz;
    *W = (hpls_dsweep){.n = n,
                       .upper = T->upper,
                       .scaled = (w->bscale ? 1 : 0) | (w->dinv ? 2 : 0),
                       .lanes = lanes_for(hpls_dev_of(be)->syncfree_lanes, T)};
    size_t nb = (size_t)n * sizeof(hpls_int);
    hpls_status st = hpls_dev_upload(be, T->lo, nb, &W->lo);
    if (st == HPLS_OK)
        st = hpls_dev_upload(be, T->hi, nb, &W->hi);
    if (st == HPLS_OK)
        st = hpls_dev_upload(be, T->col, (size_t)nnz * sizeof *T->col, &W->col);
    if (st == HPLS_OK)
        st = hpls_dev_upload(be, T->val, (size_t)nnz * sizeof *T->val, &W->val);
    if (st == HPLS_OK)
        st = optional_upload(be, T->row, n, sizeof *T->row, &W->row);
    if (st == HPLS_OK)
        st = optional_upload(be, w->bscale, n, sizeof *w->bscale, &W->bscale);
    if (st == HPLS_OK)
        st = optional_upload(be, w->dinv, n, sizeof *w->dinv, &W->dinv);
    if (st == HPLS_OK && w->lev.nlev > 0)
        st = hpls_dev_upload(be, w->lev.order, nb, &W->order);
    if (st == HPLS_OK)
        st = hpls_dev_ready_alloc(be, n, &W->ready);
    if (st != HPLS_OK)
        st = hpls_dev_fail(be, st, "a triangular sweep of %lld rows", (long long)n);
    if (st == HPLS_OK && w->lev.nlev > 0) {
        W->nlev = w->lev.nlev;
        W->off = hpls_malloc(W->nlev + 1, sizeof *W->off);
        for (hpls_int l = 0; W->off && l <= W->nlev; l++)
            W->off[l] = w->lev.off[l];
        st = W->off ? HPLS_OK : HPLS_ERR_NOMEM;
    }
    if (st != HPLS_OK) {
        hpls_devop_sweep_release(be, W);
        return st;
    }
    *out = W;
    return HPLS_OK;
}

static void hpls_devop_sweep(hpls_backend *be, hpls_dsweep *W, int strategy, const hpls_dvec *b,
                             hpls_dvec *x)
{
    /* an absent optional array is passed as another of its type, never read
     * (has_row and scaled say so) */
    hpls_dbuf *row = W->row ? W->row : W->lo;
    hpls_dbuf *bscale = W->bscale ? W->bscale : W->val, *dinv = W->dinv ? W->dinv : W->val;
    int has_row = W->row != NULL;
    if (W->n == 0 || be->err != HPLS_OK)
        return;
    if (strategy == HPLS_TRI_LEVELS && W->nlev > 0) { /* a launch a level */
        for (hpls_int l = 0; l < W->nlev; l++) {
            hpls_int first = W->off[l], count = W->off[l + 1] - W->off[l];
            HPLS_DEV_RUN(be, HPLS_K_sweep_level, hpls_dev_groups(count), HPLS_KL(first),
                         HPLS_KL(count), HPLS_KI(has_row), HPLS_KG(W->order), HPLS_KG(W->lo),
                         HPLS_KG(W->hi), HPLS_KG(W->col), HPLS_KG(W->val), HPLS_KG(bscale),
                         HPLS_KG(dinv), HPLS_KI(W->scaled), HPLS_KV(b), HPLS_KV(x));
        }
        return;
    }
    int k = W->lanes > 1 ? HPLS_K_sweep_syncfree_lanes : HPLS_K_sweep_syncfree;
    hpls_dev_syncfree(be, &W->ready, k, strategy != HPLS_TRI_SYNCFREE, W->lanes,
                      HPLS_KARGS(HPLS_KL(W->n), HPLS_KI(W->upper), HPLS_KI(has_row), HPLS_KG(row),
                                 HPLS_KG(W->lo), HPLS_KG(W->hi), HPLS_KG(W->col), HPLS_KG(W->val),
                                 HPLS_KG(bscale), HPLS_KG(dinv), HPLS_KI(W->scaled), HPLS_KV(b),
                                 HPLS_KV(x)));
}

/* trisolve=auto: syncfree on a GPU, whose resident work-groups are never
 * preempted; levels on a CPU device, where a work-group holding a ticket is a
 * thread the OS may preempt while the others spin on its rows (convdiff3d
 * nx=32, bicgstab + dilu on PoCL, 2 threads, load 11: syncfree 14.2 s, levels
 * 0.12 s a solve) */
static int hpls_devop_auto_sweep(hpls_backend *be)
{
    return hpls_dev_cpu(be) ? HPLS_TRI_LEVELS : HPLS_TRI_SYNCFREE;
}

#define DEVOP(m) .m = hpls_devop_##m,
const hpls_devops hpls_dev_devops = {HPLS_DEVOPS(DEVOP)};
