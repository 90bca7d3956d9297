/* SPDX-License-Identifier: BSD-3-Clause */
/* jacobi.c (precond): diagonal scaling, M = D, z = D^-1 r.  D^-1 is a vector
 * of the backend, so the preconditioner runs wherever the vectors live. */
#include "precond/pc.h"

typedef struct jacobi_pc {
    hpls_int n;
    hpls_backend *be;
    hpls_dvec *dinv; /* n values 1 / A_ii */
} jacobi_pc;

static hpls_status apply_jacobi(const hpls_pc *pc, const hpls_dvec *r, hpls_dvec *z)
{
    const jacobi_pc *J = pc->ctx;
    hpls_v_pmult(J->be, J->n, J->dinv, r, z); /* z = D^-1 r */
    return J->be->err;
}

static void destroy_jacobi(void *ctx)
{
    jacobi_pc *J = ctx;
    if (J)
        J->be->v->release(J->be, J->dinv);
    hpls_free(J);
}

/* J->dinv = 1 / A_ii, computed on the host and uploaded. */
static hpls_status fill_dinv(jacobi_pc *J, const hpls_csr *A)
{
    hpls_int n = A->nrows;
    hpls_int *pos = hpls_malloc(n, sizeof *pos);
    hpls_real *d = hpls_malloc(n, sizeof *d);
    hpls_status st = pos && d ? hpls_csr_diag_positions(A, pos) : HPLS_ERR_NOMEM;
    for (hpls_int i = 0; st == HPLS_OK && i < n; i++)
        d[i] = 1.0 / A->val[pos[i]];
    if (st == HPLS_OK)
        J->be->v->upload(J->be, n, d, J->dinv);
    hpls_free(pos);
    hpls_free(d);
    return st == HPLS_OK ? J->be->err : st;
}

static hpls_status update_jacobi(hpls_pc *pc, const hpls_csr *A, const hpls_csr *At)
{
    (void)At;
    return fill_dinv(pc->ctx, A);
}

hpls_status hpls_pc_setup_jacobi(hpls_backend *be, const hpls_csr *A, const hpls_csr *At,
                                 const hpls_pcopts *o, hpls_pc *pc)
{
    (void)At; /* D is symmetric: M^-T = M^-1 */
    (void)o;
    jacobi_pc *J = hpls_calloc(1, sizeof *J);
    if (!J)
        return HPLS_ERR_NOMEM;
    *J = (jacobi_pc){.n = A->nrows, .be = be};
    hpls_status st = be->v->alloc(be, J->n, &J->dinv);
    if (st == HPLS_OK)
        st = fill_dinv(J, A);
    if (st != HPLS_OK) {
        destroy_jacobi(J);
        return st;
    }
    *pc = (hpls_pc){.ctx = J, .be = be, .apply = apply_jacobi, .apply_t = apply_jacobi,
                    .destroy = destroy_jacobi, .update = update_jacobi};
    return HPLS_OK;
}
