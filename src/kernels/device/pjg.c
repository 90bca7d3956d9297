/* SPDX-License-Identifier: BSD-3-Clause */
/* pjg.c (device): the dev family's PJG kernels (kernels/pjg.h): the sweep on
 * a device backend (kernels/device/pjg.cl), through the host layer
 * (devhost.h): one launch per block of the
 * partition, the blocks in order (the queue keeps launches in order, which is
 * the Gauss-Seidel between blocks).  A partition of contiguous blocks needs
 * nothing on the device (a launch gets its block's first row and count); a
 * general one (hpls_solver_set_partition) its rows by block and the block of
 * every row.  The block offsets are P's, on the host, which launches. */
#include "kernels/pjg.h"
#include "kernels/device/devhost.h"

struct hpls_dpjg {
    hpls_dbuf *idx, *blockof; /* a general partition's (NULL: contiguous blocks) */
};

void hpls_dev_pjg_release(hpls_backend *be, hpls_dpjg *D)
{
    if (!D)
        return;
    hpls_dev_free(be, D->idx);
    hpls_dev_free(be, D->blockof);
    hpls_free(D);
}

hpls_status hpls_dev_pjg_upload(hpls_backend *be, const hpls_pjg_partition *P, hpls_int n,
                                int dense, hpls_dpjg **out)
{
    *out = NULL;
    if (dense && !P->lo)
        return hpls_fail(HPLS_ERR_UNSUPPORTED,
                         "pjg on %s: a dense matrix is swept in contiguous blocks (psize), "
                         "not by a partition of scattered unknowns (use backend=cpu)",
                         be->name);
    hpls_dpjg *D = hpls_calloc(1, sizeof *D);
    if (!D)
        return HPLS_ERR_NOMEM;
    hpls_status st = HPLS_OK;
    if (!P->lo) {
        st = hpls_dev_upload(be, P->idx, (size_t)n * sizeof *P->idx, &D->idx);
        if (st == HPLS_OK)
            st = hpls_dev_upload(be, P->blockof, (size_t)n * sizeof *P->blockof, &D->blockof);
        if (st != HPLS_OK)
            st = hpls_dev_fail(be, st, "a PJG partition of %lld unknowns", (long long)n);
    }
    if (st != HPLS_OK) {
        hpls_dev_pjg_release(be, D);
        return st;
    }
    *out = D;
    return HPLS_OK;
}

/* Reads x^k from *x and writes x^(k+1) into *xold, then the two handles
 * exchange: neither a copy nor a swap. */
void hpls_dev_pjg_sweep(hpls_backend *be, const hpls_pjg_partition *P, const hpls_pjg_matrix *M,
                        const hpls_dvec *dinv, const hpls_dvec *b, hpls_dvec **x, hpls_dvec **xold,
                        hpls_dvec *r)
{
    const hpls_dpjg *D = P->dev;
    const hpls_dmat *A = M->dA;
    const hpls_ddense *Ad = M->dAd;
    hpls_dvec *cur = *x, *nxt = *xold;
    int contiguous = D->idx == NULL, want_r = r != NULL;
    /* arrays a launch does not read are passed as others of their kind */
    hpls_dbuf *rv = r ? hpls_dev_vbuf(r) : hpls_dev_vbuf(nxt);
    for (hpls_int k = 0; k < P->nblocks && be->err == HPLS_OK; k++) {
        hpls_int first = P->ptr[k], count = P->ptr[k + 1] - first;
        if (count == 0)
            continue;
        if (Ad) {
            HPLS_DEV_RUN(be, HPLS_K_pjg_dense, hpls_dev_groups(count * HPLS_DEVICE_DENSE_LANES),
                         HPLS_KL(Ad->n), HPLS_KL(first), HPLS_KL(count), HPLS_KG(Ad->a),
                         HPLS_KV(dinv), HPLS_KV(b), HPLS_KV(cur), HPLS_KV(nxt), HPLS_KI(want_r),
                         HPLS_KG(rv));
            continue;
        }
        hpls_dbuf *idx = contiguous ? A->rp : D->idx, *blockof = contiguous ? A->rp : D->blockof;
        HPLS_DEV_RUN(be, HPLS_K_pjg_csr, hpls_dev_groups(count), HPLS_KL(first), HPLS_KL(count),
                     HPLS_KL(k), HPLS_KI(contiguous), HPLS_KG(idx), HPLS_KG(blockof),
                     HPLS_KG(A->rp), HPLS_KG(A->ci), HPLS_KG(A->val), HPLS_KV(dinv), HPLS_KV(b),
                     HPLS_KV(cur), HPLS_KV(nxt), HPLS_KI(want_r), HPLS_KG(rv));
    }
    *x = nxt;
    *xold = cur;
}
