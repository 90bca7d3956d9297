/* SPDX-License-Identifier: BSD-3-Clause */
/* thomas.c: the Thomas algorithm, Gaussian elimination without pivoting for a
 * tridiagonal T = L U, split into a factorization (once) and solves.
 *
 *   pivot_i = d_i - dl_i cp_{i-1},  cp_i = du_i / pivot_i          (factor)
 *   y_i = (b_i - dl_i y_{i-1}) / pivot_i,  x_i = y_i - cp_i x_{i+1}  (solve)
 *
 * Stable for diagonally dominant or symmetric positive definite T; otherwise a
 * pivot may vanish, which is reported with its row instead of dividing by it,
 * or grow, which the factorization measures (refine.c refines then).
 * Traffic of a solve: reads dl, pinv, cp, b, writes x: 5n values. */
#include "direct/direct.h"

#include <float.h>
#include <math.h>

void hpls_thomas_free(hpls_thomas *f)
{
    hpls_free(f->dl);
    hpls_free(f->cp);
    hpls_free(f->pinv);
    f->dl = f->cp = f->pinv = NULL;
}

hpls_status hpls_thomas_factor(hpls_int n, const hpls_real *dl, const hpls_real *d,
                               const hpls_real *du, hpls_thomas *f)
{
    f->n = n;
    f->dl = hpls_malloc(n, sizeof *f->dl);
    f->cp = hpls_malloc(n, sizeof *f->cp);
    f->pinv = hpls_malloc(n, sizeof *f->pinv);
    if (!f->dl || !f->cp || !f->pinv) {
        hpls_thomas_free(f);
        return HPLS_ERR_NOMEM;
    }
    double cprev = 0.0, growth = 0.0;
    for (hpls_int i = 0; i < n; i++) {
        double lc = i > 0 ? dl[i] * cprev : 0.0;
        double piv = d[i] - lc;
        /* a pivot below the rounding error of its own computation is zero */
        if (!(fabs(piv) > DBL_EPSILON * (fabs(d[i]) + fabs(lc))) || !isfinite(piv)) {
            hpls_thomas_free(f);
            return hpls_fail(HPLS_ERR_SINGULAR,
                             "thomas: pivot %g in row %lld is zero or tiny (no pivoting; "
                             "try gspike or lapack)",
                             piv, (long long)i + 1);
        }
        f->dl[i] = i > 0 ? dl[i] : 0.0;
        /* row i of |L||U| is (|dl_i|, |lc| + |piv|, |du_i|): its sum against T's
         * (positive: a zero row has a zero pivot, refused above) */
        double off = fabs(f->dl[i]) + (i < n - 1 ? fabs(du[i]) : 0.0);
        double g = (off + fabs(lc) + fabs(piv)) / (off + fabs(d[i]));
        growth = g > growth ? g : growth;
        f->pinv[i] = 1.0 / piv;
        cprev = i < n - 1 ? du[i] * f->pinv[i] : 0.0;
        f->cp[i] = cprev;
    }
    f->growth = isfinite(growth) ? growth : INFINITY;
    return HPLS_OK;
}

void hpls_thomas_solve(const hpls_thomas *f, const hpls_real *b, hpls_real *x)
{
    hpls_int n = f->n;
    const hpls_real *dl = f->dl, *cp = f->cp, *pinv = f->pinv;
    if (n == 0)
        return;
    double y = b[0] * pinv[0];
    x[0] = y;
    for (hpls_int i = 1; i < n; i++) {
        y = (b[i] - dl[i] * y) * pinv[i]; /* forward: L y = b */
        x[i] = y;
    }
    for (hpls_int i = n - 2; i >= 0; i--) {
        y = x[i] - cp[i] * y; /* backward: U x = y */
        x[i] = y;
    }
}
