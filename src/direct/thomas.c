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
 *
 * Growth is not the only hazard: the sweeps are recurrences, y_i = beta_i -
 * mu_i y_{i-1} (mu_i = dl_i / pivot_i) and x_i = y_i - cp_i x_{i+1}, and a run of
 * |mu| or |cp| above 1 multiplies a rounding error of y or x by the run's
 * product.  On the Dorr matrix (Table A.1's #13) |L||U| = |T| (growth 1), but
 * its second half has |dl_i| > pivot_i: at n = 2^20 the forward sweep
 * multiplies the rounding errors of the middle rows by about 1e300 (y reaches
 * 1.6e300 at row 924138, then dl y overflows) though the exact y = U x is
 * bounded by 2 max |x|.  The factorization measures that amplification too
 * (amp), and refine.c probes such factors with a solve that stops before
 * anything overflows (hpls_thomas_solve_guarded).
 * Traffic of a solve: reads dl, pinv, cp, b, writes x: 5n values. */
#include "direct/direct.h"

#include <float.h>
#include <math.h>

/* amplification factors and their products are capped here (2^500) */
#define AMP_CAP 0x1p500
/* the guarded solve keeps |y| and |x| below GUARD_LIMIT / scale (xlim): every
 * product of the sweeps and of refine.c's residual with T then stays below
 * 2^998, and their sums below DBL_MAX */
#define GUARD_LIMIT 0x1p998

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
    /* amplification: runs of |mu| (forward) and |cp| (backward) multiplied,
     * each factor and product capped at 2^500 (no overflow); scale: the
     * largest |entry| of T or |cp|, for the guarded solve */
    double cprev = 0.0, growth = 0.0, runl = 1.0, ampl = 1.0, runu = 1.0, ampu = 1.0;
    double scale = 1.0;
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
        double mu = fabs(f->dl[i] * f->pinv[i]), cu = fabs(cprev);
        runl = hpls_maxd(1.0, hpls_mind(AMP_CAP, runl * hpls_mind(AMP_CAP, mu)));
        runu = hpls_maxd(1.0, hpls_mind(AMP_CAP, runu * hpls_mind(AMP_CAP, cu)));
        ampl = hpls_maxd(ampl, runl);
        ampu = hpls_maxd(ampu, runu);
        double e = hpls_maxd(hpls_maxd(fabs(f->dl[i]), fabs(d[i])), cu);
        scale = hpls_maxd(scale, hpls_maxd(e, i < n - 1 ? fabs(du[i]) : 0.0));
    }
    f->growth = isfinite(growth) ? growth : INFINITY;
    /* the backward runs, read forward, are the same products */
    f->amp = ampl * ampu;
    f->xlim = GUARD_LIMIT / scale;
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

hpls_int hpls_thomas_solve_guarded(const hpls_thomas *f, const hpls_real *b, hpls_real *x)
{
    hpls_int n = f->n;
    const hpls_real *dl = f->dl, *cp = f->cp, *pinv = f->pinv;
    const double lim = f->xlim;
    if (n == 0)
        return 0;
    /* hpls_thomas_solve's operations in its order (the same bits), each step
     * checked first: |y_{i-1}| <= lim keeps |dl_i y_{i-1}| <= 2^998, |b_i| <=
     * 2^1022 keeps u = b_i - dl_i y_{i-1} finite, |u| <= 2^998 / max(|pinv_i|, 1)
     * keeps y_i = u pinv_i below 2^998 (a division, but off the recurrence's
     * critical path); backward, |x_{i+1}| <= lim keeps |cp_i x_{i+1}| <= 2^998 */
    double y = 0.0;
    for (hpls_int i = 0; i < n; i++) {
        if (!(fabs(b[i]) <= 0x1p1022) || (i > 0 && !(fabs(y) <= lim)))
            return i + 1;
        double u = i > 0 ? b[i] - dl[i] * y : b[i]; /* forward: L y = b */
        if (!(fabs(u) <= GUARD_LIMIT / hpls_maxd(1.0, fabs(pinv[i]))))
            return i + 1;
        y = u * pinv[i];
        x[i] = y;
    }
    for (hpls_int i = n - 2; i >= 0; i--) {
        if (!(fabs(y) <= lim))
            return i + 2;
        y = x[i] - cp[i] * y; /* backward: U x = y */
        x[i] = y;
    }
    return fabs(y) <= lim ? 0 : 1;
}
