/* SPDX-License-Identifier: BSD-3-Clause */
/* block.c (device): k right-hand sides at once on a device backend
 * (kernels/device/block.cl), through the host layer (devhost.h): B and X
 * uploaded once, R = B - A X of the active columns with A read once per
 * HPLS_SPMM_COLS of them and their norms in one reduction, Jacobi's update;
 * the set of active columns is a small array on the device, rewritten when a
 * column stops, so nothing is moved; X comes back once. */
#include "kernels/device/devhost.h"

#include <math.h>

struct hpls_dblock {
    hpls_dbuf *B, *X, *R; /* n x k each, column j at j * n */
    hpls_dbuf *cols;      /* the active columns' numbers (64-bit), na of them */
    hpls_int n, k, na;
};

void hpls_devop_block_release(hpls_backend *be, hpls_dblock *D)
{
    if (!D)
        return;
    hpls_dev_free(be, D->B);
    hpls_dev_free(be, D->X);
    hpls_dev_free(be, D->R);
    hpls_dev_free(be, D->cols);
    hpls_free(D);
}

hpls_status hpls_devop_block_create(hpls_backend *be, hpls_int n, hpls_int k, const hpls_real *B,
                                    const hpls_real *X, hpls_dblock **out)
{
    *out = NULL;
    hpls_dblock *D = hpls_calloc(1, sizeof *D);
    if (!D)
        return HPLS_ERR_NOMEM;
    *D = (hpls_dblock){.n = n, .k = k};
    size_t bytes = (size_t)n * (size_t)k * sizeof(double);
    hpls_status st = hpls_dev_upload(be, B, bytes, &D->B);
    if (st == HPLS_OK)
        st = hpls_dev_upload(be, X, bytes, &D->X);
    if (st == HPLS_OK)
        st = hpls_dev_alloc(be, bytes, &D->R);
    if (st == HPLS_OK)
        st = hpls_dev_alloc(be, (size_t)k * sizeof(hpls_int), &D->cols);
    if (st != HPLS_OK) {
        hpls_devop_block_release(be, D);
        return hpls_dev_fail(be, st, "%lld right-hand sides of %lld values", (long long)k,
                             (long long)n);
    }
    *out = D;
    return HPLS_OK;
}

void hpls_devop_block_columns(hpls_backend *be, hpls_dblock *D, const hpls_int *cols, hpls_int na)
{
    D->na = na;
    hpls_dev_write(be, D->cols, 0, cols, (size_t)na * sizeof *cols);
}

void hpls_devop_block_residual(hpls_backend *be, hpls_dblock *D, const hpls_dmat *A, double *ss)
{
    int na = (int)D->na, ng = hpls_dev_rgroups(be, D->n);
    for (int c = 0; c < na; c++)
        ss[c] = NAN;
    hpls_dbuf *part = na > 0 ? hpls_dev_part(be, na) : NULL;
    if (!part)
        return;
    for (int c0 = 0; c0 < na; c0 += HPLS_SPMM_COLS) { /* A read once per launch */
        int kc = na - c0 < HPLS_SPMM_COLS ? na - c0 : HPLS_SPMM_COLS;
        HPLS_DEV_RUN(be, HPLS_K_csr_residual_block, (size_t)ng, HPLS_KL(D->n), HPLS_KI(kc),
                     HPLS_KL(D->n), HPLS_KG(D->cols), HPLS_KL(c0), HPLS_KI(na), HPLS_KG(A->rp),
                     HPLS_KG(A->ci), HPLS_KG(A->val), HPLS_KG(D->B), HPLS_KG(D->X), HPLS_KG(D->R),
                     HPLS_KG(part));
    }
    hpls_dev_reduce_part(be, ng, na, HPLS_DEV_SUM, ss);
}

void hpls_devop_block_jacobi(hpls_backend *be, hpls_dblock *D, double omega, const hpls_dvec *dinv)
{
    if (D->na > 0)
        HPLS_DEV_RUN(be, HPLS_K_jacobi_block, hpls_dev_groups(D->n), HPLS_KL(D->n), HPLS_KI(D->na),
                     HPLS_KL(D->n), HPLS_KG(D->cols), HPLS_KD(omega), HPLS_KV(dinv), HPLS_KG(D->R),
                     HPLS_KG(D->X));
}

void hpls_devop_block_download(hpls_backend *be, const hpls_dblock *D, hpls_real *X)
{
    hpls_dev_read(be, D->X, 0, X, (size_t)D->n * (size_t)D->k * sizeof *X);
}
