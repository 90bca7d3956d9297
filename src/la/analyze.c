/* SPDX-License-Identifier: BSD-3-Clause */
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

/* Value of A(i, j), found by binary search in row i; *found = 0 if not stored. */
static double entry(const hpls_csr *A, hpls_int i, hpls_int j, int *found)
{
    hpls_int lo = A->rowptr[i], hi = A->rowptr[i + 1];
    while (lo < hi) {
        hpls_int mid = lo + (hi - lo) / 2;
        if (A->colind[mid] < j)
            lo = mid + 1;
        else
            hi = mid;
    }
    *found = lo < A->rowptr[i + 1] && A->colind[lo] == j;
    return *found ? A->val[lo] : 0.0;
}

void hpls_matrix_props(const hpls_csr *A, hpls_props *p)
{
    *p = (hpls_props){.first_zero = -1, .min_ratio = INFINITY, .min_diag_max = INFINITY};
    int square = A->nrows == A->ncols;
    for (hpls_int i = 0; i < A->nrows; i++) {
        double diag = 0, off = 0, big = 0;
        for (hpls_int q = A->rowptr[i]; q < A->rowptr[i + 1]; q++) {
            hpls_int j = A->colind[q];
            double a = A->val[q];
            big = hpls_maxd(big, fabs(a));
            if (j == i)
                diag = a;
            else
                off += fabs(a);
            hpls_int d = j > i ? j - i : i - j;
            p->band += d <= 1;
            p->bw = d > p->bw ? d : p->bw;
            if (square && j != i) {
                int found;
                double t = entry(A, j, i, &found);
                p->pattern_asym += !found;
                p->value_asym += t != a;
            }
        }
        p->nonpos += !(diag > 0);
        if (diag == 0 && i < A->ncols) {
            p->zero_diag++;
            if (p->first_zero < 0)
                p->first_zero = i;
        }
        p->strict += fabs(diag) > off;
        p->weak += fabs(diag) >= off;
        if (off > 0)
            p->min_ratio = hpls_mind(p->min_ratio, fabs(diag) / off);
        if (big > 0)
            p->min_diag_max = hpls_mind(p->min_diag_max, fabs(diag) / big);
    }
}
