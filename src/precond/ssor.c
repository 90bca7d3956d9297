/* ssor.c (precond): M = (D + wL) D^-1 (D + wU) / (w (2 - w)) (Saad, Iterative
 * Methods, Eq. 10.3); omega = 1 is symmetric Gauss-Seidel.  M^T is the SSOR
 * matrix of A^T, so methods that need M^-T get it from the transpose. */
#include "solver.h"

typedef struct ssor_side {
    const hpls_csr *A;
    hpls_int *diagpos;
} ssor_side;

typedef struct ssor_pc {
    double omega;
    ssor_side fwd, tr; /* A, and A^T when the method applies M^-T */
} ssor_pc;

static void apply_ssor(const hpls_pc *pc, const hpls_real *r, hpls_real *z)
{
    const ssor_pc *P = pc->ctx;
    hpls_k_ssor_solve(P->fwd.A, P->fwd.diagpos, P->omega, r, z);
}

static void apply_ssor_t(const hpls_pc *pc, const hpls_real *r, hpls_real *z)
{
    const ssor_pc *P = pc->ctx;
    hpls_k_ssor_solve(P->tr.A, P->tr.diagpos, P->omega, r, z);
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

hpls_status hpls_pc_setup_ssor(const hpls_solver *s, hpls_pc *pc)
{
    ssor_pc *P = hpls_calloc(1, sizeof *P);
    if (!P)
        return HPLS_ERR_NOMEM;
    P->omega = s->opt.omega;
    hpls_status st = side_setup(s->A, &P->fwd);
    if (st == HPLS_OK && s->op.At)
        st = side_setup(s->op.At, &P->tr);
    if (st != HPLS_OK) {
        destroy_ssor(P);
        return st;
    }
    *pc = (hpls_pc){.ctx = P,
                    .apply = apply_ssor,
                    .apply_t = s->op.At ? apply_ssor_t : NULL,
                    .destroy = destroy_ssor};
    return HPLS_OK;
}
