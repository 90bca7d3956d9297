/* tridiag.c: tridiagonal test matrices for the direct tridiagonal solvers.
 *
 * type=random: a(i,i-1), a(i,i+1) uniform in [-1, 1), and
 *   a(i,i) = dom * (|a(i,i-1)| + |a(i,i+1)|) + U(0, 1],
 *   so |a(i,i)| > dom times the off-diagonal sum: strictly diagonally dominant for
 *   dom >= 1, not dominant (pivoting matters) for dom < 1.
 * type=toeplitz: the constant rows (lower, diag, upper); the defaults (-1, 4, -1)
 *   are matrix #18 of the g-Spike paper's collection (Venetis et al. 2015, Table A.1).
 * b = A*1. */
#include "gen/gen.h"

#include <math.h>

enum { TRI_TYPE, TRI_N, TRI_DOM, TRI_LOWER, TRI_DIAG, TRI_UPPER, TRI_SEED };
enum { TYPE_RANDOM, TYPE_TOEPLITZ }; /* values of type, in the order of its words */

static const gen_opt tridiag_opts[] = {
    {"type", "random", "random|toeplitz", 0, 0, 0, 0, "random entries or constant diagonals"},
    {"n", "1000", NULL, 1, 1, INT32_MAX, 0, "rows"},
    {"dom", "2", NULL, 0, 0, INFINITY, 0, "random: |diagonal| > dom * off-diagonal sum"},
    {"lower", "-1", NULL, 0, -INFINITY, INFINITY, 0, "toeplitz: sub-diagonal value"},
    {"diag", "4", NULL, 0, -INFINITY, INFINITY, 0, "toeplitz: diagonal value"},
    {"upper", "-1", NULL, 0, -INFINITY, INFINITY, 0, "toeplitz: super-diagonal value"},
    {"seed", "1", NULL, 1, 0, UINT32_MAX, 0, "random: random seed"},
    {NULL, NULL, NULL, 0, 0, 0, 0, NULL}};

static hpls_int tridiag_row_len(const gen_matrix *g, hpls_int i)
{
    return 1 + (i > 0) + (i < g->n - 1);
}

static void tridiag_row(const gen_matrix *g, hpls_int i, hpls_idx *col, hpls_real *val)
{
    double lower = g->opt[TRI_LOWER], diag = g->opt[TRI_DIAG], upper = g->opt[TRI_UPPER];
    if (g->opt[TRI_TYPE] == TYPE_RANDOM) {
        gen_rng r;
        gen_rng_init(&r, (uint64_t)g->opt[TRI_SEED], (uint64_t)i);
        lower = i > 0 ? gen_rng_uniform(&r, -1.0, 1.0) : 0.0;
        upper = i < g->n - 1 ? gen_rng_uniform(&r, -1.0, 1.0) : 0.0;
        diag = g->opt[TRI_DOM] * (fabs(lower) + fabs(upper)) + (1.0 - gen_rng_unit(&r));
    }
    hpls_int p = 0;
    if (i > 0) {
        col[p] = (hpls_idx)(i - 1);
        val[p++] = lower;
    }
    col[p] = (hpls_idx)i;
    val[p++] = diag;
    if (i < g->n - 1) {
        col[p] = (hpls_idx)(i + 1);
        val[p] = upper;
    }
}

static hpls_status tridiag_setup(gen_matrix *g)
{
    /* the type each option belongs to (-1: both): the others' keys are refused */
    static const int type_of[] = {
        -1, -1, TYPE_RANDOM, TYPE_TOEPLITZ, TYPE_TOEPLITZ, TYPE_TOEPLITZ, TYPE_RANDOM};
    int type = (int)g->opt[TRI_TYPE];
    for (int j = 0; tridiag_opts[j].key; j++) {
        if (type_of[j] < 0 || type_of[j] == type)
            continue;
        hpls_status st = gen_reject_given(
            g, &gen_tridiag, j, type == TYPE_RANDOM ? "to type=random" : "to type=toeplitz");
        if (st != HPLS_OK)
            return st;
    }
    g->n = (hpls_int)g->opt[TRI_N];
    g->row_len = tridiag_row_len;
    g->row = tridiag_row;
    return HPLS_OK;
}

const gen_def gen_tridiag = {"tridiag", "tridiagonal: random (dominance dom) or Toeplitz",
                             tridiag_opts, tridiag_setup};
