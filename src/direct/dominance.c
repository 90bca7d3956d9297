/* SPDX-License-Identifier: BSD-3-Clause */
/* dominance.c: a lower bound on 1/cond_1(T) from diagonal dominance, the
 * singularity test's fast path (docs/bad_inputs.md).  Varah (1975): if every
 * column j of T has cgap_j = |d_j| - |du_{j-1}| - |dl_{j+1}| > 0 then
 * ||T^-1||_1 <= 1 / min_j cgap_j; by rows, ||T^-1||_inf <= 1 / min_i rgap_i
 * and ||T^-1||_1 <= n ||T^-1||_inf.  Only minima and maxima combine rows, and
 * both are exact: the bound has the same bits at every thread count, rank
 * count and partitioning. */
#include "direct/direct.h"

#include <float.h>
#include <math.h>

void hpls_tridiag_dominance_rows(hpls_int m, const hpls_real *dl, const hpls_real *d,
                                 const hpls_real *du, const hpls_tridiag_dom_edge *e, int nt,
                                 hpls_tridiag_dom *out)
{
    double rgap = INFINITY, cgap = INFINITY, cnorm = 0.0;
    int bad = 0;
#pragma omp parallel for schedule(static) num_threads(nt) if (m > 100000)                          \
    reduction(min : rgap, cgap) reduction(max : cnorm) reduction(| : bad)
    for (hpls_int i = 0; i < m; i++) {
        /* row i's outer entries; column i's come from rows i - 1 and i + 1 */
        double l = i > 0 || !e->top ? fabs(dl[i]) : 0.0;
        double u = i < m - 1 || !e->bottom ? fabs(du[i]) : 0.0;
        double above = i > 0 ? fabs(du[i - 1]) : e->above;
        double below = i < m - 1 ? fabs(dl[i + 1]) : e->below;
        double a = fabs(d[i]), r = a - l - u, c = a - above - below, s = a + above + below;
        rgap = r < rgap ? r : rgap;
        cgap = c < cgap ? c : cgap;
        cnorm = s > cnorm ? s : cnorm;
        bad |= !(s <= DBL_MAX); /* NaN or Inf would drop out of the minima: no bound */
    }
    *out = (hpls_tridiag_dom){.rgap = rgap, .cgap = cgap, .cnorm = bad ? INFINITY : cnorm};
}

double hpls_tridiag_dominance_bound(const hpls_tridiag_dom *s, hpls_int n)
{
    if (n == 0 || !(s->cnorm > 0) || !isfinite(s->cnorm))
        return 0.0;
    double c = s->cgap > 0 ? s->cgap / s->cnorm : 0.0;
    double r = s->rgap > 0 ? s->rgap / ((double)n * s->cnorm) : 0.0;
    return c > r ? c : r;
}
