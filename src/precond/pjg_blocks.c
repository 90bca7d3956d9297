/* SPDX-License-Identifier: BSD-3-Clause */
/* pjg_blocks.c: the ordered blocks of a PJG sweep (Ahmadi et al., IEEE TPDS
 * 32(7), 2021: the paper's "decomposition of the identity"), blocks of psize
 * rows or the user's list, their copy on a backend, and the table of each
 * family's kernels (pjg_kernels.h).  The method (iter/pjg.c) and the
 * preconditioner (precond/pjg.c) sweep over the same blocks with the same
 * kernels, so they are here, below both. */
#include "precond/pjg_kernels.h"

/* Each family's kernels (kernels/pjg.h), at its index. */
#define PJG_OF_(f, p)                                                                              \
    [HPLS_KF_##f] = {hpls_##p##_pjg_upload, hpls_##p##_pjg_release, hpls_##p##_pjg_sweep},
static const hpls_pjg_kernels kernels[HPLS_KF_COUNT] = {HPLS_KFAMILIES(PJG_OF_)};

const hpls_pjg_kernels *hpls_pjg_kernels_of(const hpls_backend *be)
{
    return &kernels[be->v->family];
}

void hpls_pjg_partition_free(hpls_pjg_partition *P)
{
    if (!P)
        return;
    hpls_free(P->ptr);
    hpls_free(P->idx);
    hpls_free(P->blockof);
    hpls_free(P->lo);
    if (P->dev)
        hpls_pjg_kernels_of(P->be)->release(P->be, P->dev);
    hpls_free(P);
}

hpls_int hpls_pjg_default_psize(hpls_int n, hpls_int nnz, int nthreads)
{
    /* one thread: Gauss-Seidel converges fastest; more: each thread should get
     * about 32768 multiply-adds per block (the sweep's barrier cost) */
    hpls_int p = nthreads;
    if (p <= 1 || n <= 1)
        return 1;
    hpls_int per_row = nnz / n + 1, psize = p * (32768 / per_row + 1);
    return psize < n ? psize : n;
}

/* Work-items a device's launch should have to fill it: a block is one launch
 * (bench/gpu_model.py's PSIZE: 65536 rows of a sparse A) */
enum { PJG_DEVICE_ITEMS = 65536 };

static hpls_int device_psize(hpls_int n, int dense)
{
    /* a sparse row is one work-item, a dense one HPLS_DEVICE_DENSE_LANES */
    hpls_int rows = dense ? PJG_DEVICE_ITEMS / HPLS_DEVICE_DENSE_LANES : PJG_DEVICE_ITEMS;
    return n < rows ? (n > 1 ? n : 1) : rows;
}

hpls_status hpls_pjg_partition_upload(hpls_backend *be, hpls_pjg_partition *P, hpls_int n,
                                      int dense)
{
    P->be = be;
    return hpls_pjg_kernels_of(be)->upload(be, P, n, dense, &P->dev);
}

hpls_status hpls_pjg_partition_for(hpls_backend *be, hpls_int n, hpls_int nnz, int dense,
                                   hpls_int psize, hpls_int nblocks, const hpls_int *ptr,
                                   const hpls_int *idx, hpls_pjg_partition **out)
{
    hpls_pjg_partition *P;
    if (be->d && psize == 0)
        psize = device_psize(n, dense);
    hpls_status st = hpls_pjg_blocks(n, nnz, psize, nblocks, ptr, idx, be->nthreads, &P);
    if (st == HPLS_OK)
        st = hpls_pjg_partition_upload(be, P, n, dense);
    if (st != HPLS_OK) {
        hpls_pjg_partition_free(P);
        P = NULL;
    }
    *out = P;
    return st;
}

hpls_status hpls_pjg_blocks(hpls_int n, hpls_int nnz, hpls_int psize, hpls_int nblocks,
                            const hpls_int *ptr, const hpls_int *idx, int nthreads,
                            hpls_pjg_partition **out)
{
    *out = NULL;
    hpls_pjg_partition *P = hpls_calloc(1, sizeof *P);
    if (!P)
        return HPLS_ERR_NOMEM;
    hpls_int nb;
    if (ptr) { /* the user's ordered list of blocks */
        nb = nblocks;
        if (ptr[nb] != n) {
            hpls_pjg_partition_free(P);
            return hpls_fail(HPLS_ERR_SIZE, "the partition holds %lld unknowns, the matrix %lld",
                             (long long)ptr[nb], (long long)n);
        }
    } else {
        if (psize <= 0)
            psize = hpls_pjg_default_psize(n, nnz, nthreads);
        nb = n > 0 ? (n + psize - 1) / psize : 0;
        P->psize = psize;
    }
    P->nblocks = nb;
    P->ptr = hpls_malloc(nb + 1, sizeof *P->ptr);
    P->idx = hpls_malloc(n, sizeof *P->idx);
    P->blockof = hpls_malloc(n, sizeof *P->blockof);
    if (!P->ptr || !P->idx || !P->blockof) {
        hpls_pjg_partition_free(P);
        return HPLS_ERR_NOMEM;
    }
    for (hpls_int i = 0; i < n; i++)
        P->blockof[i] = -1;
    for (hpls_int k = 0; k <= nb; k++)
        P->ptr[k] = ptr ? ptr[k] : (k * P->psize < n ? k * P->psize : n);
    int contiguous = 1;
    for (hpls_int k = 0; k < nb; k++)
        for (hpls_int q = P->ptr[k]; q < P->ptr[k + 1]; q++) {
            hpls_int i = idx ? idx[q] : q;
            if (i < 0 || i >= n || P->blockof[i] >= 0) {
                hpls_pjg_partition_free(P);
                return hpls_fail(HPLS_ERR_ARG, "partition: unknown %lld is %s", (long long)i + 1,
                                 i < 0 || i >= n ? "out of range" : "in two blocks");
            }
            P->idx[q] = i;
            P->blockof[i] = k;
            contiguous &= i == q;
        }
    if (contiguous) { /* rows of a block form a range: lo[i] = its first row */
        if (!(P->lo = hpls_malloc(n, sizeof *P->lo))) {
            hpls_pjg_partition_free(P);
            return HPLS_ERR_NOMEM;
        }
        for (hpls_int i = 0; i < n; i++)
            P->lo[i] = P->ptr[P->blockof[i]];
    }
    *out = P;
    return HPLS_OK;
}
