/* SPDX-License-Identifier: BSD-3-Clause */
/* random.c: random-pattern sparse matrices, the unstructured case of the
 * QTBiCGSTAB benchmark (Xu et al. 2015, Sec. 2.3: the locality of the SpMV
 * depends on where the nonzeros lie; here they lie anywhere).
 *
 * Row i of the n x n matrix:
 *   k entries at distinct columns j != i drawn uniformly from all n columns,
 *   values uniform in [-1, 1);
 *   diagonal a(i,i) = (sum_{j != i} |a(i,j)|) / q.
 * For q < 1 every row is strictly diagonally dominant (Jacobi's row sums are
 * q), so BiCGSTAB converges; x = 1 solves A x = b with b = A*1.  Nothing but
 * the diagonal lies near the diagonal: no ordering of the rows keeps x's
 * accesses local, which is what makes it the hard case for any SpMV. */
#include "gen/gen.h"

#include <math.h>

#define RANDOM_MAX_K 64

enum { RND_N, RND_K, RND_Q, RND_SEED };

static const gen_opt random_opts[] = {
    {"n", "100000", NULL, 1, 2, INT32_MAX, 0, "rows, n >= k+1"},
    {"k", "8", NULL, 1, 0, RANDOM_MAX_K, 0, "off-diagonal entries per row, at random columns"},
    {"q", "0.7", NULL, 0, 0, INFINITY, 1,
     "diagonal = sum |off-diagonals| / q: q < 1 is strictly dominant"},
    {"seed", "1", NULL, 1, 0, UINT32_MAX, 0, "random seed"},
    {NULL, NULL, NULL, 0, 0, 0, 0, NULL}};

static hpls_int random_row_len(const gen_matrix *g, hpls_int i)
{
    (void)i;
    return (hpls_int)g->opt[RND_K] + 1;
}

static void random_row(const gen_matrix *g, hpls_int i, hpls_idx *col, hpls_real *val)
{
    hpls_int n = g->n, k = (hpls_int)g->opt[RND_K];
    gen_rng r;
    gen_rng_init(&r, (uint64_t)g->opt[RND_SEED], (uint64_t)i);
    /* draw among the n-1 columns other than i, insert sorted, redraw repeats */
    hpls_int c[RANDOM_MAX_K];
    double v[RANDOM_MAX_K];
    for (hpls_int e = 0; e < k;) {
        hpls_int j = gen_rng_below(&r, n - 1);
        j += j >= i; /* skip the diagonal */
        hpls_int pos = e;
        while (pos > 0 && c[pos - 1] > j)
            pos--;
        if (pos > 0 && c[pos - 1] == j)
            continue;
        for (hpls_int m = e; m > pos; m--) {
            c[m] = c[m - 1];
            v[m] = v[m - 1];
        }
        c[pos] = j;
        v[pos] = gen_rng_uniform(&r, -1.0, 1.0);
        e++;
    }
    hpls_int p = 0, e = 0;
    double offsum = 0.0;
    for (; e < k && c[e] < i; e++, p++) {
        col[p] = (hpls_idx)c[e];
        val[p] = v[e];
        offsum += fabs(v[e]);
    }
    hpls_int diag = p++;
    for (; e < k; e++, p++) {
        col[p] = (hpls_idx)c[e];
        val[p] = v[e];
        offsum += fabs(v[e]);
    }
    col[diag] = (hpls_idx)i;
    /* a row of zeros (k = 0) keeps a unit diagonal */
    val[diag] = k > 0 ? offsum / g->opt[RND_Q] : 1.0;
}

static hpls_status random_setup(gen_matrix *g)
{
    hpls_int n = (hpls_int)g->opt[RND_N], k = (hpls_int)g->opt[RND_K];
    if (n < k + 1)
        return hpls_fail(HPLS_ERR_OPTION, "gen random: k=%lld needs n >= %lld (n=%lld)",
                         (long long)k, (long long)k + 1, (long long)n);
    g->n = n;
    g->row_len = random_row_len;
    g->row = random_row;
    return HPLS_OK;
}

const gen_def gen_random = {"random", "random pattern: k entries a row at uniform columns, dominant "
                                      "diagonal",
                            random_opts, random_setup};
