/* analyze.c: properties of A that choose a method.
 *
 * hpls_split_rho: the power method on G = T^-1 S (Golub & Van Loan 2013,
 * Sec. 7.3.1), G applied as y = S x then T y' = y with T's Thomas factors,
 * built once.  G is not symmetric and its dominant eigenvalues may be a complex
 * pair, so the estimate is not one Rayleigh quotient but the geometric mean of
 * the growth ||G x_k|| / ||x_k|| over the second half of the iterations, which
 * tends to rho(G) in either case (Gelfand: ||G^k x||^(1/k) -> rho). */
#include "la/analyze.h"

#include "direct/direct.h"
#include "la/split.h"

#include <math.h>

hpls_status hpls_split_rho(const hpls_csr *A, hpls_int iters, double *rho)
{
    *rho = NAN;
    if (iters < 2)
        return hpls_fail(HPLS_ERR_ARG, "hpls_split_rho: %lld power iterations (at least 2)",
                         (long long)iters);
    hpls_tridiag *T;
    hpls_csr *S;
    hpls_status st = hpls_split_tridiag(A, 0, 1, &T, &S);
    if (st != HPLS_OK)
        return st;
    hpls_int n = A->nrows;
    hpls_thomas f = {0};
    hpls_real *x = hpls_malloc(n, sizeof *x), *y = hpls_malloc(n, sizeof *y);
    if (!x || !y) {
        st = HPLS_ERR_NOMEM;
        goto free_all;
    }
    if ((st = hpls_thomas_factor(n, T->dl, T->d, T->du, &f)) != HPLS_OK)
        goto free_all;
    /* a start with a component along every eigenvector (no symmetry of A's) */
    double nx = 0.0;
    for (hpls_int i = 0; i < n; i++) {
        x[i] = 1.0 + 0.5 * sin(0.7 * (double)i + 0.3);
        nx += x[i] * x[i];
    }
    nx = sqrt(nx);
    double logsum = 0.0;
    hpls_int counted = 0;
    for (hpls_int k = 0; k < iters; k++) {
        for (hpls_int i = 0; i < n; i++) { /* y = S x / ||x|| */
            double sum = 0.0;
            for (hpls_int p = S->rowptr[i]; p < S->rowptr[i + 1]; p++)
                sum += S->val[p] * x[S->colind[p]];
            y[i] = sum / nx;
        }
        hpls_thomas_solve(&f, y, x); /* x = T^-1 y */
        double ny = 0.0;
        for (hpls_int i = 0; i < n; i++)
            ny += x[i] * x[i];
        ny = sqrt(ny);
        if (!(ny > 0.0) || !isfinite(ny)) { /* G x = 0 (S = 0, or x in G's kernel) */
            *rho = isfinite(ny) ? 0.0 : INFINITY;
            goto free_all;
        }
        if (2 * k >= iters) {
            logsum += log(ny);
            counted++;
        }
        nx = ny;
    }
    *rho = exp(logsum / (double)counted);
free_all:
    hpls_thomas_free(&f);
    hpls_free(x);
    hpls_free(y);
    hpls_csr_destroy(S);
    hpls_tridiag_destroy(T);
    return st;
}
