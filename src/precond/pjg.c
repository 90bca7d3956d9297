/* SPDX-License-Identifier: BSD-3-Clause */
/* pjg.c (precond): a fixed number of PJG sweeps (iter/pjg.c) on A z = r from
 * z = 0, as a smoother / preconditioner for the Krylov methods.  A fixed
 * number of sweeps is a fixed linear operator, so any method may use it; it is
 * not symmetric, so cg and minres should not.  The sweep is the backend's
 * kernel family's (pjg_kernels.h; on a device pjg.cl's, a launch per block:
 * kernels/device/pjg.c), which gives the same z. */
#include "precond/pc.h"
#include "precond/pjg_kernels.h"

typedef struct pjg_pc {
    hpls_backend *be;
    hpls_pjg_partition *P;
    /* A, and on a device backend A's copy there (its own: a preconditioner
     * does not see the operator's) */
    hpls_pjg_matrix A;
    hpls_dmat *dA;
    hpls_dvec *dinv, *zold; /* D^-1; the vector the sweeps alternate with z */
    hpls_int n, sweeps;
} pjg_pc;

/* z = 0, then the sweeps (no residual wanted); the last one's result ends in
 * z (a family may exchange z's and zold's roles, kernels/pjg.h) */
static hpls_status apply_pjg(const hpls_pc *pc, const hpls_dvec *r, hpls_dvec *z)
{
    const pjg_pc *M = pc->ctx;
    hpls_backend *be = M->be;
    const hpls_pjg_kernels *K = hpls_pjg_kernels_of(be);
    hpls_dvec *cur = z, *old = M->zold;
    hpls_v_set(be, M->n, 0.0, z);
    for (hpls_int k = 0; k < M->sweeps; k++)
        K->sweep(be, M->P, &M->A, M->dinv, r, &cur, &old, NULL);
    if (cur != z)
        hpls_v_copy(be, M->n, cur, z);
    return be->err;
}

static void destroy_pjg(void *ctx)
{
    pjg_pc *M = ctx;
    if (!M)
        return;
    hpls_pjg_partition_free(M->P);
    if (M->be) {
        if (M->be->d)
            M->be->d->csr_release(M->be, M->dA);
        M->be->v->release(M->be, M->dinv);
        M->be->v->release(M->be, M->zold);
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
    hpls_real *dinv = hpls_malloc(n, sizeof *dinv);
    hpls_status st = HPLS_ERR_NOMEM;
    if (!M || !pos || !dinv)
        goto done;
    M->be = be;
    if ((st = hpls_csr_diag_positions(A, pos)) != HPLS_OK ||
        (st = hpls_pjg_partition_for(be, n, A->nnz, 0, o->psize, o->part_nblocks, o->part_ptr,
                                     o->part_idx, &M->P)) != HPLS_OK)
        goto done;
    for (hpls_int i = 0; i < n; i++)
        dinv[i] = 1.0 / A->val[pos[i]];
    if ((be->d && (st = be->d->csr_upload(be, A, 1, &M->dA)) != HPLS_OK) ||
        (st = hpls_be_vector(be, n, dinv, &M->dinv)) != HPLS_OK ||
        (st = be->v->alloc(be, n, &M->zold)) != HPLS_OK)
        goto done;
    M->A = (hpls_pjg_matrix){.A = A, .dA = M->dA};
    M->n = n;
    M->sweeps = o->sweeps;
    *pc = (hpls_pc){.ctx = M, .be = be, .apply = apply_pjg, .destroy = destroy_pjg};
    M = NULL;
done:
    destroy_pjg(M);
    hpls_free(pos);
    hpls_free(dinv);
    return st;
}
