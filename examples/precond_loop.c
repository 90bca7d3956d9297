/* SPDX-License-Identifier: BSD-3-Clause */
/* precond_loop.c: an hpls preconditioner inside the user's own iteration: a
 * hand-written preconditioned conjugate gradient with DIC (OpenFOAM's diagonal
 * incomplete Cholesky) as M, applied by hpls_precond_apply. */
#include <hpls.h>
#include <math.h>
#include <stdio.h>

static double dot(const hpls_vec *a, const hpls_vec *b)
{
    double s = 0;
    for (hpls_int i = 0; i < a->n; i++)
        s += a->data[i] * b->data[i];
    return s;
}

int main(void)
{
    hpls_csr *A;
    hpls_vec *b, *x, *r, *z, *p, *q;
    hpls_precond *M;
    if (hpls_gen_csr("poisson3d:nx=40", &A, &b) != HPLS_OK || hpls_precond_create(&M) != HPLS_OK)
        return 1;
    hpls_int n = A->nrows;
    if (hpls_vec_create(n, &x) || hpls_vec_create(n, &r) || hpls_vec_create(n, &z) ||
        hpls_vec_create(n, &p) || hpls_vec_create(n, &q))
        return 1;
    if (hpls_precond_set_options(M, "precond=dic") != HPLS_OK || hpls_precond_setup(M, A, 0) != HPLS_OK) {
        fprintf(stderr, "%s\n", hpls_precond_message(M));
        return 1;
    }
    for (hpls_int i = 0; i < n; i++)
        r->data[i] = b->data[i]; /* x = 0: r = b */
    hpls_precond_apply(M, r, z);
    for (hpls_int i = 0; i < n; i++)
        p->data[i] = z->data[i];
    double rz = dot(r, z), bnorm = sqrt(dot(b, b)), rel = 1;
    int it;
    for (it = 1; it <= 500 && rel > 1e-10; it++) {
        hpls_csr_spmv(A, p, q);
        double alpha = rz / dot(p, q);
        for (hpls_int i = 0; i < n; i++) {
            x->data[i] += alpha * p->data[i];
            r->data[i] -= alpha * q->data[i];
        }
        if (hpls_precond_apply(M, r, z) != HPLS_OK) {
            fprintf(stderr, "%s\n", hpls_precond_message(M));
            return 1;
        }
        double rz1 = dot(r, z);
        for (hpls_int i = 0; i < n; i++)
            p->data[i] = z->data[i] + rz1 / rz * p->data[i];
        rz = rz1;
        rel = sqrt(dot(r, r)) / bnorm;
    }
    hpls_csr_residual(A, b, x, r); /* the true residual */
    double setup_s;
    const char *strategy;
    hpls_precond_get_info(M, &setup_s, &strategy);
    printf("hand-written PCG + hpls DIC (%s, setup %.4f s): %d iterations, true relres %.2e\n",
           strategy ? strategy : "-", setup_s, it - 1, sqrt(dot(r, r)) / bnorm);
    int ok = sqrt(dot(r, r)) / bnorm < 1e-9;
    hpls_precond_destroy(M);
    hpls_vec_destroy(x);
    hpls_vec_destroy(r);
    hpls_vec_destroy(z);
    hpls_vec_destroy(p);
    hpls_vec_destroy(q);
    hpls_vec_destroy(b);
    hpls_csr_destroy(A);
    return ok ? 0 : 1;
}
