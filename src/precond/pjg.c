/* SPDX-License-Identifier: BSD-3-Clause */
/* pjg.c (precond): a fixed number of PJG sweeps (iter/pjg.c) on A z = r from
 * z = 0, as a smoother / preconditioner for the Krylov methods.  A fixed
 * number of sweeps is a fixed linear operator, so any method may use it; it is
 * not symmetric, so cg and minres should not.  The sweep is a host kernel, or
 * on a device backend pjg.cl's (a launch per block: kernels/device/pjg.c),
 * which gives the same z. */
#include "precond/pc.h"

typedef struct pjg_pc {
    const hpls_csr *A;
    hpls_backend *be;
    hpls_pjg_partition *P;
    hpls_real *dinv, *zold; /* zold: the sweep's copy of the previous z */
    hpls_int n, sweeps;
    /* on a device backend: A's copy there (its own: a preconditioner does not
     * see the operator's), D^-1 and the vector the sweeps alternate with z */
    hpls_dmat *dA;
    hpls_dvec *ddinv, *dz;
} pjg_pc;

/* z = 0, then sweeps reading cur and writing nxt, which exchange roles after
 * each; the last sweep's result ends in z */
static hpls_status apply_device(const pjg_pc *M, const hpls_dvec *r, hpls_dvec *z)
{
    hpls_backend *be = M->be;
    hpls_dvec *cur = z, *nxt = M->dz;
    hpls_v_set(be, M->n, 0.0, z);
    for (hpls_int k = 0; k < M->sweeps; k++) {
        be->d->pjg_sweep(be, M->P->dev, M->dA, NULL, M->ddinv, r, cur, nxt, NULL);
        hpls_dvec *t = cur;
        cur = nxt;
        nxt = t;
    }
    if (cur != z)
        hpls_v_copy(be, M->n, cur, z);
    return be->err;
}

static hpls_status apply_pjg(const hpls_pc *pc, const hpls_dvec *r, hpls_dvec *z)
{
    const pjg_pc *M = pc->ctx;
    hpls_backend *be = M->be;
    if (be->d)
        return apply_device(M, r, z);
    const hpls_real *rp = hpls_v_host(be, r);
    hpls_real *zp = hpls_v_host(be, z);
    if (!rp || !zp)
        return be->err;
    hpls_v_set(be, M->n, 0.0, z);
    for (hpls_int k = 0; k < M->sweeps; k++)
        be->k->pjg_sweep(be->nthreads, be->pf, M->A, NULL, M->dinv, M->P->nblocks, M->P->ptr, M->P->idx,
                         M->P->blockof, M->P->lo, rp, zp, M->zold, NULL); /* no residual wanted */
    return be->err;
}

static void destroy_pjg(void *ctx)
{
    pjg_pc *M = ctx;
    if (!M)
        return;
    hpls_pjg_partition_free(M->P);
    hpls_free(M->dinv);
    hpls_free(M->zold);
    if (M->be && M->be->d) {
        M->be->d->csr_release(M->be, M->dA);
        M->be->v->release(M->be, M->ddinv);
        M->be->v->release(M->be, M->dz);
    }
    hpls_free(M);
}

hpls_status hpls_pc_setup_pjg(hpls_backend *be, const hpls_csr *A, const hpls_csr *At,
                              const hpls_pcopts *o, hpls_pc *pc)
{
    if (At)
        return hpls_fail(HPLS_ERR_OPTION, "precond pjg has no transpose: not for bicg or qmr");
    hpls_int n = A->nrows;
    pjg_pc *M = hpls_calloc(1, sizeof *M);
    hpls_int *pos = hpls_malloc(n, sizeof *pos);
    hpls_status st = HPLS_ERR_NOMEM;
    if (!M || !pos || !(M->dinv = hpls_malloc(n, sizeof *M->dinv)) ||
        !(M->zold = hpls_malloc(n, sizeof *M->zold)))
        goto done;
    hpls_int psize = o->psize; /* a device's default psize is its own */
    if (be->d && psize == 0)
        psize = hpls_pjg_device_psize(n, 0);
    M->be = be;
    if ((st = hpls_csr_diag_positions(A, pos)) != HPLS_OK ||
        (st = hpls_pjg_blocks(n, A->nnz, psize, o->part_nblocks, o->part_ptr, o->part_idx,
                              be->nthreads, &M->P)) != HPLS_OK)
        goto done;
    for (hpls_int i = 0; i < n; i++)
        M->dinv[i] = 1.0 / A->val[pos[i]];
    if (be->d && ((st = hpls_pjg_partition_upload(be, M->P, n, 0)) != HPLS_OK ||
                  (st = be->d->csr_upload(be, A, 1, &M->dA)) != HPLS_OK ||
                  (st = hpls_be_vector(be, n, M->dinv, &M->ddinv)) != HPLS_OK ||
                  (st = be->v->alloc(be, n, &M->dz)) != HPLS_OK))
        goto done;
    M->A = A;
    M->n = n;
    M->sweeps = o->sweeps;
    *pc = (hpls_pc){.ctx = M, .be = be, .apply = apply_pjg, .destroy = destroy_pjg};
    M = NULL;
done:
    destroy_pjg(M);
    hpls_free(pos);
    return st;
}
