/* SPDX-License-Identifier: BSD-3-Clause */
/* dense.c (device): a dense square matrix on a device backend (kernels/
 * device/dense.cl), through the host layer (devhost.h): uploaded once (n^2
 * values, row-major), y = A x and r = b - A x with the rows summed as the cpu
 * backend's dense kernels sum them (the same bits), DENSE_LANES work-items a
 * row.  The operator of a dense A uses it (src/operator.c), and PJG's dense
 * sweep reads the same copy (kernels/device/pjg.c). */
#include "kernels/device/devhost.h"

#include <math.h>

void hpls_devop_dense_release(hpls_backend *be, hpls_ddense *D)
{
    if (!D)
        return;
    hpls_dev_free(be, D->a);
    hpls_free(D);
}

hpls_status hpls_devop_dense_upload(hpls_backend *be, const hpls_dense *A, hpls_ddense **out)
{
    *out = NULL;
    hpls_ddense *D = hpls_calloc(1, sizeof *D);
    if (!D)
        return HPLS_ERR_NOMEM;
    D->n = A->nrows;
    size_t bytes = (size_t)A->nrows * (size_t)A->ncols * sizeof *A->data;
    hpls_status st = hpls_dev_upload(be, A->data, bytes, &D->a);
    if (st != HPLS_OK) {
        hpls_devop_dense_release(be, D);
        return hpls_dev_fail(be, st, "a dense matrix of %lld x %lld", (long long)A->nrows,
                             (long long)A->ncols);
    }
    *out = D;
    return HPLS_OK;
}

/* groups of DENSE_LANES-item rows: each group takes WG / DENSE_LANES rows a step */
static size_t row_groups(hpls_int n)
{
    return hpls_dev_groups(n * HPLS_DEVICE_DENSE_LANES);
}

void hpls_devop_gemv(hpls_backend *be, const hpls_ddense *A, const hpls_dvec *x, hpls_dvec *y)
{
    /* b and part are not read without the residual: y's buffer stands in */
    HPLS_DEV_RUN(be, HPLS_K_dense_product, row_groups(A->n), HPLS_KL(A->n), HPLS_KI(0),
                 HPLS_KG(A->a), HPLS_KV(x), HPLS_KV(y), HPLS_KV(y), HPLS_KV(y));
}

double hpls_devop_dense_residual(hpls_backend *be, const hpls_ddense *A, const hpls_dvec *b,
                                 const hpls_dvec *x, hpls_dvec *r)
{
    double ss = NAN;
    hpls_dbuf *part = hpls_dev_part(be, 1);
    if (!part)
        return ss;
    /* a reduction's groups: at most the device's red_groups partials */
    int ng = hpls_dev_rgroups(be, A->n * HPLS_DEVICE_DENSE_LANES);
    HPLS_DEV_RUN(be, HPLS_K_dense_product, (size_t)ng, HPLS_KL(A->n), HPLS_KI(1), HPLS_KG(A->a),
                 HPLS_KV(x), HPLS_KV(b), HPLS_KV(r), HPLS_KG(part));
    hpls_dev_reduce_part(be, ng, 1, HPLS_DEV_SUM, &ss);
    return ss;
}
