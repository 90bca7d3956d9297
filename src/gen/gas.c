/* SPDX-License-Identifier: BSD-3-Clause */
/* gas.c: quasi-tridiagonal matrices in the style of the gas-discharge matrices of
 * the HISA paper (Li, Yang, Li, IEEE TPDS 2016, Sec. 4 and Table 5).
 *
 * Row i of the n x n matrix:
 *   band     a(i,i-1), a(i,i+1) uniform in [-1, 1)           (the tridiagonal part T)
 *   extras   k entries at distinct random columns j, |i-j| > 1,
 *            uniform in [-s, s): weaker couplings              (the part S)
 *   diagonal d_i = sign_i * (sum_{j != i} |a(i,j)|) / q,
 *            sign_i = -1 for a random fraction neg of the rows, else +1.
 * So every row has |d_i| * q = sum_{j != i} |a(i,j)|: nonsymmetric and, for q < 1,
 * strictly diagonally dominant (the Jacobi iteration matrix has row sums exactly q);
 * nnz/n is about 3 + k, as in Table 5 (4, 5, 6 for k = 1, 2, 3).
 *
 * Measured with x0 = 0, b = A*1, ||b - Ax|| / ||b|| <= 1e-7, n = 1e5 (also 1e6):
 * Jacobi / Gauss-Seidel / HISA need 31 / 17 / 9 iterations for k = 1, the shape of
 * Table 6's Gas*a rows.  k = 2, 3 need 26 / 15 / 10 and 22 / 13 / 10: more extras
 * of random sign cancel more, unlike Table 6's b and c matrices, which need more. */
#include "gen/gen.h"

#include <math.h>

#define GAS_MAX_K 64

enum { GAS_N, GAS_K, GAS_S, GAS_Q, GAS_NEG, GAS_SEED };

static const gen_opt gas_opts[] = {
    {"n", "100000", NULL, 1, 2, INT32_MAX, 0, "rows"},
    {"k", "1", NULL, 1, 0, GAS_MAX_K, 0, "extra entries per row outside the band, n >= k+3"},
    {"s", "0.35", NULL, 0, 0, INFINITY, 0, "extras uniform in [-s, s]"},
    {"q", "0.7", NULL, 0, 0, INFINITY, 1,
     "diagonal = sum |off-diagonals| / q: q < 1 is strictly dominant"},
    {"neg", "0", NULL, 0, 0, 1, 0, "fraction of rows with a negative diagonal (indefinite)"},
    {"seed", "1", NULL, 1, 0, UINT32_MAX, 0, "random seed"},
    {NULL, NULL, NULL, 0, 0, 0, 0, NULL}};

static hpls_int gas_row_len(const gen_matrix *g, hpls_int i)
{
    return (hpls_int)g->opt[GAS_K] + 1 + (i > 0) + (i < g->n - 1);
}

static void gas_row(const gen_matrix *g, hpls_int i, hpls_idx *col, hpls_real *val)
{
    hpls_int n = g->n, k = (hpls_int)g->opt[GAS_K];
    double s = g->opt[GAS_S];
    gen_rng r;
    gen_rng_init(&r, (uint64_t)g->opt[GAS_SEED], (uint64_t)i);
    double sign = gen_rng_unit(&r) < g->opt[GAS_NEG] ? -1.0 : 1.0;
    double lower = i > 0 ? gen_rng_uniform(&r, -1.0, 1.0) : 0.0;
    double upper = i < n - 1 ? gen_rng_uniform(&r, -1.0, 1.0) : 0.0;

    /* the band occupies columns lo..hi; extras are drawn among the other columns
     * and kept sorted, a repeated column is drawn again */
    hpls_int lo = i > 0 ? i - 1 : 0, hi = i < n - 1 ? i + 1 : n - 1;
    hpls_int xcol[GAS_MAX_K];
    double xval[GAS_MAX_K];
    for (hpls_int e = 0; e < k;) {
        hpls_int c = gen_rng_below(&r, n - (hi - lo + 1));
        if (c >= lo)
            c += hi - lo + 1; /* skip the band */
        hpls_int pos = e;
        while (pos > 0 && xcol[pos - 1] > c)
            pos--;
        if (pos > 0 && xcol[pos - 1] == c)
            continue;
        for (hpls_int m = e; m > pos; m--) {
            xcol[m] = xcol[m - 1];
            xval[m] = xval[m - 1];
        }
        xcol[pos] = c;
        xval[pos] = gen_rng_uniform(&r, -s, s);
        e++;
    }

    /* merge: extras left of the band, the band, extras right of it */
    hpls_int p = 0, e = 0;
    double offsum = 0.0;
    for (; e < k && xcol[e] < lo; e++, p++) {
        col[p] = (hpls_idx)xcol[e];
        val[p] = xval[e];
        offsum += fabs(xval[e]);
    }
    if (i > 0) {
        col[p] = (hpls_idx)(i - 1);
        val[p++] = lower;
        offsum += fabs(lower);
    }
    hpls_int diag = p++;
    col[diag] = (hpls_idx)i;
    if (i < n - 1) {
        col[p] = (hpls_idx)(i + 1);
        val[p++] = upper;
        offsum += fabs(upper);
    }
    for (; e < k; e++, p++) {
        col[p] = (hpls_idx)xcol[e];
        val[p] = xval[e];
        offsum += fabs(xval[e]);
    }
    val[diag] = sign * offsum / g->opt[GAS_Q];
}

static hpls_status gas_setup(gen_matrix *g)
{
    hpls_int n = (hpls_int)g->opt[GAS_N], k = (hpls_int)g->opt[GAS_K];
    /* row 1 has n-3 columns outside its band to hold the k extras */
    if (k > 0 && n < k + 3)
        return hpls_fail(HPLS_ERR_OPTION, "gen gas: k=%lld needs n >= %lld (n=%lld)", (long long)k,
                         (long long)k + 3, (long long)n);
    g->n = n;
    g->row_len = gas_row_len;
    g->row = gas_row;
    return HPLS_OK;
}

const gen_def gen_gas = {"gas", "quasi-tridiagonal, HISA paper style (Table 5 gas matrices)",
                         gas_opts, gas_setup};
