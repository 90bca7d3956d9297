/* pjg.c (precond): a fixed number of PJG sweeps (iter/pjg.c) on A z = r from
 * z = 0, as a smoother / preconditioner for the Krylov methods.  A fixed
 * number of sweeps is a fixed linear operator, so any method may use it; it is
 * not symmetric, so cg and minres should not. */
#include "solver.h"

typedef struct pjg_pc {
    const hpls_csr *A;
    hpls_pjg_partition *P;
    hpls_real *dinv, *zold; /* zold: the sweep's copy of the previous z */
    hpls_int n, sweeps;
} pjg_pc;

static void apply_pjg(const hpls_pc *pc, const hpls_real *r, hpls_real *z)
{
    const pjg_pc *M = pc->ctx;
    hpls_k_set(M->n, 0.0, z);
    for (hpls_int k = 0; k < M->sweeps; k++)
        hpls_k_pjg_sweep(M->A, NULL, M->dinv, M->P->nblocks, M->P->ptr, M->P->idx, M->P->blockof,
                         M->P->lo, r, z, M->zold, NULL); /* no residual wanted */
}

static void destroy_pjg(void *ctx)
{
    pjg_pc *M = ctx;
    if (!M)
        return;
    hpls_pjg_partition_free(M->P);
    hpls_free(M->dinv);
    hpls_free(M->zold);
    hpls_free(M);
}

hpls_status hpls_pc_setup_pjg(const hpls_solver *s, hpls_pc *pc)
{
    if (s->op.At)
        return hpls_fail(HPLS_ERR_OPTION, "precond pjg has no transpose: not for bicg or qmr");
    hpls_int n = s->A->nrows;
    pjg_pc *M = hpls_calloc(1, sizeof *M);
    hpls_int *pos = hpls_malloc(n, sizeof *pos);
    hpls_status st = HPLS_ERR_NOMEM;
    if (!M || !pos || !(M->dinv = hpls_malloc(n, sizeof *M->dinv)) ||
        !(M->zold = hpls_malloc(n, sizeof *M->zold)))
        goto done;
    if ((st = hpls_csr_diag_positions(s->A, pos)) != HPLS_OK ||
        (st = hpls_pjg_partition_build(s, &M->P)) != HPLS_OK)
        goto done;
    for (hpls_int i = 0; i < n; i++)
        M->dinv[i] = 1.0 / s->A->val[pos[i]];
    M->A = s->A;
    M->n = n;
    M->sweeps = s->opt.sweeps;
    *pc = (hpls_pc){.ctx = M, .apply = apply_pjg, .destroy = destroy_pjg};
    M = NULL;
done:
    destroy_pjg(M);
    hpls_free(pos);
    return st;
}
