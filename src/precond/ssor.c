/* SPDX-License-Identifier: BSD-3-Clause */
/* ssor.c (precond): M = (D + wL) D^-1 (D + wU) / (w (2 - w)) (Saad, Iterative
 * Methods, Eq. 10.3); omega = 1 is symmetric Gauss-Seidel.  M^T is the SSOR
 * matrix of A^T, so methods that need M^-T get it from the transpose.  The
 * solve is the backend's kernel family's (relax_kernels.h: sequential host
 * sweeps; on a device the triangular solves (D + wL) y = r and (D + wU) z = D y
 * scheduled by trisolve, kernels/device/relax.c, summed as the host sums them:
 * the same z). */
#include "precond/pc.h"
#include "precond/relax_kernels.h"

typedef struct ssor_side {
    hpls_relax_matrix M; /* A, and on a device backend its copy there (its own: */
    hpls_int *diagpos;   /* a preconditioner does not see the operator's) */
    hpls_dmat *dA;
    hpls_drelax *dev; /* A's sweeps on the backend */
} ssor_side;

typedef struct ssor_pc {
    double omega;
    hpls_backend *be;
    ssor_side fwd, tr; /* A, and A^T when the method applies M^-T */
} ssor_pc;

static hpls_status solve_side(const ssor_pc *P, const ssor_side *side, const hpls_dvec *r,
                              hpls_dvec *z)
{
    hpls_relax_kernels_of(P->be)->ssor(P->be, &side->M, side->dev, P->omega, r, z);
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
    ssor_side *sides[2] = {&P->fwd, &P->tr};
    for (int k = 0; k < 2; k++) {
        hpls_free(sides[k]->diagpos);
        hpls_relax_kernels_of(P->be)->release(P->be, sides[k]->dev);
        if (P->be->d)
            P->be->d->csr_release(P->be, sides[k]->dA);
    }
    hpls_free(P);
}

/* strategy: trisolve's, of the device's sweeps (unused on a host backend) */
static hpls_status side_setup(hpls_backend *be, const hpls_csr *A, int strategy, ssor_side *side)
{
    side->diagpos = hpls_malloc(A->nrows, sizeof *side->diagpos);
    hpls_status st = side->diagpos ? hpls_csr_diag_positions(A, side->diagpos) : HPLS_ERR_NOMEM;
    if (st == HPLS_OK && be->d)
        st = be->d->csr_upload(be, A, 1, &side->dA);
    if (st == HPLS_OK)
        st = hpls_relax_kernels_of(be)->upload(be, A, side->diagpos, strategy, &side->dev);
    side->M = (hpls_relax_matrix){.A = A, .diagpos = side->diagpos, .dA = side->dA};
    return st;
}

hpls_status hpls_pc_setup_ssor(hpls_backend *be, const hpls_csr *A, const hpls_csr *At,
                               const hpls_pcopts *o, hpls_pc *pc)
{
    ssor_pc *P = hpls_calloc(1, sizeof *P);
    if (!P)
        return HPLS_ERR_NOMEM;
    P->omega = o->omega;
    P->be = be;
    hpls_status st = side_setup(be, A, o->trisolve, &P->fwd);
    if (st == HPLS_OK && At)
        st = side_setup(be, At, o->trisolve, &P->tr);
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
