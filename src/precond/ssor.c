/* ssor.c (precond): M = (D + wL) D^-1 (D + wU) / (w (2 - w)) (Saad, Iterative
 * Methods, Eq. 10.3); omega = 1 is symmetric Gauss-Seidel.  M^T is the SSOR
 * matrix of A^T, so methods that need M^-T get it from the transpose.  The
 * sweeps are sequential host kernels. */
#include "solver.h"

typedef struct ssor_side {
    const hpls_csr *A;
    hpls_int *diagpos;
} ssor_side;

typedef struct ssor_pc {
    double omega;
    hpls_backend *be;
    ssor_side fwd, tr; /* A, and A^T when the method applies M^-T */
} ssor_pc;

static hpls_status solve_side(const ssor_pc *P, const ssor_side *side, const hpls_dvec *r,
                              hpls_dvec *z)
{
    const hpls_real *rp = hpls_v_host(P->be, r);
    hpls_real *zp = hpls_v_host(P->be, z);
    if (rp && zp)
        hpls_k_ssor_solve(side->A, side->diagpos, P->omega, rp, zp);
    return P->be->err;
}

static hpls_status apply_ssor(const hpls_pc *pc, const hpls_dvec *r, hpls_dvec *z)
{
    const ssor_pc *P = pc->ctx;
    return solve_side(P, &P->fwd, r, z);
}

static hpls_status apply_ssor_t(const hpls_pc *pc, const hpls_dvec *r, hpls_dvec *z)
{
    const ssor_pc *P = pc->ctx;
    return solve_side(P, &P->tr, r, z);
}

static void destroy_ssor(void *ctx)
{
    ssor_pc *P = ctx;
    if (!P)
        return;
    hpls_free(P->fwd.diagpos);
    hpls_free(P->tr.diagpos);
    hpls_free(P);
}

static hpls_status side_setup(const hpls_csr *A, ssor_side *side)
{
    side->A = A;
    side->diagpos = hpls_malloc(A->nrows, sizeof *side->diagpos);
    return side->diagpos ? hpls_csr_diag_positions(A, side->diagpos) : HPLS_ERR_NOMEM;
}

hpls_status hpls_pc_setup_ssor(hpls_backend *be, const hpls_csr *A, const hpls_csr *At,
                               const hpls_options *o, hpls_pc *pc)
{
    ssor_pc *P = hpls_calloc(1, sizeof *P);
    if (!P)
        return HPLS_ERR_NOMEM;
    P->omega = o->omega;
    P->be = be;
    hpls_status st = side_setup(A, &P->fwd);
    if (st == HPLS_OK && At)
        st = side_setup(At, &P->tr);
    if (st != HPLS_OK) {
        destroy_ssor(P);
        return st;
    }
    *pc = (hpls_pc){.ctx = P,
                    .be = be,
                    .apply = apply_ssor,
                    .apply_t = At ? apply_ssor_t : NULL,
                    .destroy = destroy_ssor};
    return HPLS_OK;
}
