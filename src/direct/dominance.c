/* SPDX-License-Identifier: BSD-3-Clause */
/* dominance.c: a lower bound on 1/cond_1(T) from diagonal dominance by
 * columns, the singularity test's fast path (docs/bad_inputs.md).  Varah
 * (1975): if every column j of T has cgap_j = |d_j| - |du_{j-1}| - |dl_{j+1}|
 * > 0 then ||T^-1||_1 <= 1 / min_j cgap_j, so 1/cond_1(T) >= min cgap /
 * ||T||_1: exact for a constant tridiag(l, d, u), pessimistic where one
 * column's margin is far thinner than the others'.  (Dominance by rows
 * bounds ||T^-1||_inf; in the 1-norm only with a factor n, too loose to
 * report: such a T goes to dgtcon.)  Only minima and maxima combine rows, and
 * both are exact: the bound has the same bits at every thread count, rank
 * count and partitioning. */
#include "direct/direct.h"

#include <float.h>
#include <math.h>

void hpls_tridiag_dominance_rows(hpls_int m, const hpls_real *dl, const hpls_real *d,
                                 const hpls_real *du, const hpls_tridiag_dom_edge *e, int nt,
                                 hpls_tridiag_dom *out)
{
    double cgap = INFINITY, cnorm = 0.0;
    int bad = 0;
#pragma omp parallel for schedule(static) num_threads(nt) if (m > 100000)                          \
    reduction(min : cgap) reduction(max : cnorm) reduction(| : bad)
    for (hpls_int i = 0; i < m; i++) {
        /* column i: du of the row above, dl of the row below */
        double above = i > 0 ? fabs(du[i - 1]) : e->above;
        double below = i < m - 1 ? fabs(dl[i + 1]) : e->below;
        double a = fabs(d[i]), c = a - above - below, s = a + above + below;
        /* quiet comparisons (isless: no FE_INVALID on a NaN, which trapFpe traps) */
        cgap = isless(c, cgap) ? c : cgap;
        cnorm = isgreater(s, cnorm) ? s : cnorm;
        bad |= !isfinite(s); /* NaN or Inf would drop out of the minima: no bound */
    }
    *out = (hpls_tridiag_dom){.cgap = cgap, .cnorm = bad ? INFINITY : cnorm};
}

double hpls_tridiag_dominance_bound(const hpls_tridiag_dom *s, hpls_int n)
{
    if (n == 0 || !(s->cgap > 0) || !(s->cnorm > 0) || !isfinite(s->cnorm))
        return 0.0;
    return s->cgap / s->cnorm;
}
