/* tridiag.c (precond): M = T, the tridiagonal band of A (tridiag), or the band cut
 * into blocks (btridiag), factored once: HISA's splitting used as a Krylov
 * preconditioner, so A's off-band part S need not satisfy rho(T^-1 S) < 1.
 * For methods that apply M^-T (bicg, qmr), T^T is the band of A^T: factored too. */
#include "solver.h"

#include "direct/block_tridiag.h"

typedef struct tridiag_pc {
    hpls_btri *T, *Tt; /* factors of T, and of T^T when the method needs them */
} tridiag_pc;

static void apply_tridiag(const hpls_pc *pc, const hpls_real *r, hpls_real *z)
{
    const tridiag_pc *P = pc->ctx;
    hpls_btri_solve(P->T, r, z); /* z = T^-1 r: the factors were checked at setup */
}

static void apply_tridiag_t(const hpls_pc *pc, const hpls_real *r, hpls_real *z)
{
    const tridiag_pc *P = pc->ctx;
    hpls_btri_solve(P->Tt, r, z); /* z = T^-T r */
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

static hpls_status factor_band(const hpls_solver *s, const hpls_csr *A, hpls_int block,
                               hpls_btri **B)
{
    hpls_csr *S = NULL;
    hpls_status st = hpls_hisa_build(A, block, s->opt.tridiag, s->opt.gspike_delta,
                                     s->opt.gspike_p, &S, B);
    hpls_csr_destroy(S); /* only T is needed */
    return st;
}

static hpls_status setup(const hpls_solver *s, hpls_pc *pc, hpls_int block)
{
    tridiag_pc *P = hpls_calloc(1, sizeof *P);
    if (!P)
        return HPLS_ERR_NOMEM;
    hpls_status st = factor_band(s, s->A, block, &P->T);
    if (st == HPLS_OK && s->op.At)
        st = factor_band(s, s->op.At, block, &P->Tt);
    if (st != HPLS_OK) {
        destroy_tridiag(P);
        return st;
    }
    *pc = (hpls_pc){.ctx = P,
                    .apply = apply_tridiag,
                    .apply_t = P->Tt ? apply_tridiag_t : NULL,
                    .destroy = destroy_tridiag};
    return HPLS_OK;
}

hpls_status hpls_pc_setup_tridiag(const hpls_solver *s, hpls_pc *pc) { return setup(s, pc, 0); }

hpls_status hpls_pc_setup_btridiag(const hpls_solver *s, hpls_pc *pc)
{
    return setup(s, pc, hpls_bhisa_block(s->A->nrows, s->opt.block));
}
