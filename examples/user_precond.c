/* SPDX-License-Identifier: BSD-3-Clause */
/* user_precond.c: a matrix-free operator and a preconditioner given as the
 * user's functions: the 2-D Laplacian on an m x m grid (5-point stencil, never
 * stored) solved by CG, preconditioned by the user's own Jacobi (1/4). */
#include <hpls.h>
#include <stdio.h>

typedef struct grid {
    hpls_int m;
} grid;

/* y = A x: 4 x_ij - x_i-1,j - x_i+1,j - x_i,j-1 - x_i,j+1 (zero outside) */
static int laplacian(void *ctx, hpls_int n, const hpls_real *x, hpls_real *y)
{
    hpls_int m = ((const grid *)ctx)->m;
    if (n != m * m)
        return 1; /* any nonzero stops the solve with HPLS_ERR_CALLBACK */
    for (hpls_int i = 0; i < m; i++)
        for (hpls_int j = 0; j < m; j++) {
            hpls_int k = i * m + j;
            double v = 4.0 * x[k];
            if (i > 0)
                v -= x[k - m];
            if (i < m - 1)
                v -= x[k + m];
            if (j > 0)
                v -= x[k - 1];
            if (j < m - 1)
                v -= x[k + 1];
            y[k] = v;
        }
    return 0;
}

static int jacobi(void *ctx, hpls_int n, const hpls_real *r, hpls_real *z)
{
    (void)ctx;
    for (hpls_int k = 0; k < n; k++)
        z[k] = 0.25 * r[k];
    return 0;
}

int main(void)
{
    grid g = {200};
    hpls_int n = g.m * g.m;
    hpls_vec *b, *x;
    hpls_solver *s;
    hpls_precond *P;
    hpls_info info;
    if (hpls_vec_create(n, &b) != HPLS_OK || hpls_vec_create(n, &x) != HPLS_OK ||
        hpls_solver_create(&s) != HPLS_OK ||
        hpls_precond_create_shell(n, jacobi, jacobi, NULL, &P) != HPLS_OK)
        return 1;
    for (hpls_int k = 0; k < n; k++)
        b->data[k] = 1.0;
    hpls_status st = hpls_solver_set_options(s, "solver=cg tol=1e-8");
    if (st == HPLS_OK)
        st = hpls_solver_set_precond(s, P);
    hpls_precond_destroy(P); /* the solver keeps its own reference */
    if (st == HPLS_OK)
        st = hpls_solver_setup_shell(s, n, laplacian, laplacian, &g); /* symmetric: A^T = A */
    if (st == HPLS_OK)
        st = hpls_solver_solve(s, b, x);
    if (st != HPLS_OK) {
        fprintf(stderr, "%s: %s\n", hpls_strerror(st), hpls_solver_message(s));
        return 1;
    }
    hpls_solver_get_info(s, &info);
    printf("matrix-free CG + user Jacobi: %s after %lld iterations, relres %.2e\n",
           hpls_reason_str(info.reason), (long long)info.iterations, info.relres);
    int ok = hpls_reason_converged(info.reason);
    hpls_solver_destroy(s);
    hpls_vec_destroy(b);
    hpls_vec_destroy(x);
    return ok ? 0 : 1;
}
