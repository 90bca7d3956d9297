/* tridiag.c (precond): M = T, the tridiagonal band of A (tridiag), or the band cut
 * into blocks (btridiag), factored once: HISA's splitting used as a Krylov
 * preconditioner, so A's off-band part S need not satisfy rho(T^-1 S) < 1.
 * For methods that apply M^-T (bicg, qmr), T^T is the band of A^T: factored too.
 * The solves are host kernels on the backend's thread count. */
#include "solver.h"

#include "direct/block_tridiag.h"

typedef struct tridiag_pc {
    hpls_backend *be;
    hpls_btri *T, *Tt; /* factors of T, and of T^T when the method needs them */
} tridiag_pc;

static hpls_status solve_with(const tridiag_pc *P, const hpls_btri *T, const hpls_dvec *r,
                              hpls_dvec *z)
{
    const hpls_real *rp = hpls_v_host(P->be, r);
    hpls_real *zp = hpls_v_host(P->be, z);
    if (!rp || !zp)
        return P->be->err;
    return hpls_btri_solve(T, rp, zp); /* the factors were checked at setup */
}

static hpls_status apply_tridiag(const hpls_pc *pc, const hpls_dvec *r, hpls_dvec *z)
{
    const tridiag_pc *P = pc->ctx;
    return solve_with(P, P->T, r, z); /* z = T^-1 r */
}

static hpls_status apply_tridiag_t(const hpls_pc *pc, const hpls_dvec *r, hpls_dvec *z)
{
    const tridiag_pc *P = pc->ctx;
    return solve_with(P, P->Tt, r, z); /* z = T^-T r */
}

static void destroy_tridiag(void *ctx)
{
    tridiag_pc *P = ctx;
    if (!P)
        return;
    hpls_btri_free(P->T);
    hpls_btri_free(P->Tt);
    hpls_free(P);
}

static hpls_status factor_band(hpls_backend *be, const hpls_options *o, const hpls_csr *A,
                               hpls_int block, hpls_btri **B)
{
    hpls_csr *S = NULL;
    hpls_status st = hpls_hisa_build(A, block, o->tridiag, o->gspike_delta, o->gspike_p,
                                     be->nthreads, &S, B);
    hpls_csr_destroy(S); /* only T is needed */
    return st;
}

static hpls_status setup(hpls_backend *be, const hpls_csr *A, const hpls_csr *At,
                         const hpls_options *o, hpls_pc *pc, hpls_int block)
{
    tridiag_pc *P = hpls_calloc(1, sizeof *P);
    if (!P)
        return HPLS_ERR_NOMEM;
    P->be = be;
    hpls_status st = factor_band(be, o, A, block, &P->T);
    if (st == HPLS_OK && At)
        st = factor_band(be, o, At, block, &P->Tt);
    if (st != HPLS_OK) {
        destroy_tridiag(P);
        return st;
    }
    *pc = (hpls_pc){.ctx = P,
                    .be = be,
                    .apply = apply_tridiag,
                    .apply_t = P->Tt ? apply_tridiag_t : NULL,
                    .destroy = destroy_tridiag};
    return HPLS_OK;
}

hpls_status hpls_pc_setup_tridiag(hpls_backend *be, const hpls_csr *A, const hpls_csr *At,
                                  const hpls_options *o, hpls_pc *pc)
{
    return setup(be, A, At, o, pc, 0);
}

hpls_status hpls_pc_setup_btridiag(hpls_backend *be, const hpls_csr *A, const hpls_csr *At,
                                   const hpls_options *o, hpls_pc *pc)
{
    return setup(be, A, At, o, pc, hpls_bhisa_block(A->nrows, o->block, be->nthreads));
}
