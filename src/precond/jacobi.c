/* jacobi.c (precond): diagonal scaling, M = D, z = D^-1 r. */
#include "solver.h"

typedef struct jacobi_pc {
    hpls_int n;
    hpls_real *dinv; /* n values 1 / A_ii */
} jacobi_pc;

static void apply_jacobi(const hpls_pc *pc, const hpls_real *r, hpls_real *z)
{
    const jacobi_pc *J = pc->ctx;
    hpls_k_pointwise_mult(J->n, J->dinv, r, z); /* z = D^-1 r */
}

static void destroy_jacobi(void *ctx)
{
    jacobi_pc *J = ctx;
    if (J)
        hpls_free(J->dinv);
    hpls_free(J);
}

hpls_status hpls_pc_setup_jacobi(const hpls_solver *s, hpls_pc *pc)
{
    const hpls_csr *A = s->A;
    hpls_int n = A->nrows;
    hpls_int *pos = hpls_malloc(n, sizeof *pos);
    jacobi_pc *J = hpls_calloc(1, sizeof *J);
    hpls_status st = HPLS_ERR_NOMEM;
    if (!pos || !J || !(J->dinv = hpls_malloc(n, sizeof *J->dinv)))
        goto done;
    st = hpls_csr_diag_positions(A, pos);
    if (st != HPLS_OK)
        goto done;
    J->n = n;
    for (hpls_int i = 0; i < n; i++)
        J->dinv[i] = 1.0 / A->val[pos[i]];
    /* D is symmetric: M^-T = M^-1 */
    *pc = (hpls_pc){.ctx = J, .apply = apply_jacobi, .apply_t = apply_jacobi, .destroy = destroy_jacobi};
    J = NULL;
done:
    destroy_jacobi(J);
    hpls_free(pos);
    return st;
}
