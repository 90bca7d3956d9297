/* jacobi.c (precond): diagonal scaling, M = D, z = D^-1 r.  D^-1 is a vector
 * of the backend, so the preconditioner runs wherever the vectors live. */
#include "solver.h"

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

hpls_status hpls_pc_setup_jacobi(hpls_backend *be, const hpls_csr *A, const hpls_csr *At,
                                 const hpls_options *o, hpls_pc *pc)
{
    (void)At; /* D is symmetric: M^-T = M^-1 */
    (void)o;
    hpls_int n = A->nrows;
    hpls_int *pos = hpls_malloc(n, sizeof *pos);
    hpls_real *d = hpls_malloc(n, sizeof *d);
    jacobi_pc *J = hpls_calloc(1, sizeof *J);
    hpls_status st = HPLS_ERR_NOMEM;
    if (J)
        *J = (jacobi_pc){.n = n, .be = be};
    if (!pos || !d || !J)
        goto done;
    if ((st = hpls_csr_diag_positions(A, pos)) != HPLS_OK)
        goto done;
    for (hpls_int i = 0; i < n; i++)
        d[i] = 1.0 / A->val[pos[i]];
    if ((st = hpls_be_vector(be, n, d, &J->dinv)) != HPLS_OK)
        goto done;
    *pc = (hpls_pc){.ctx = J, .be = be, .apply = apply_jacobi, .apply_t = apply_jacobi,
                    .destroy = destroy_jacobi};
    J = NULL;
done:
    destroy_jacobi(J);
    hpls_free(pos);
    hpls_free(d);
    return st;
}
