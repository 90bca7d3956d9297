/* SPDX-License-Identifier: BSD-3-Clause */
/* refine.c: fixed-precision iterative refinement for the tridiagonal methods
 * that do not pivot (thomas, cr).  Elimination without pivoting has a
 * backward error of about eps times its growth, ||(|L||U|)|| / ||T|| (Higham,
 * Accuracy and Stability, Thm. 9.3); on Table A.1's #1, #4, #11, #12, #14 and
 * #16 that growth is 1e2..1e8 and the backward error up to 1e-8 where dgtsv's
 * is 1e-16.  When the factorization measures a growth above
 * HPLS_TRIDIAG_GROWTH_REFINE it keeps a copy of T, and every solve then
 * refines x += T^{-1}(b - T x) with the same factors (Skeel 1980), as LAPACK's
 * dgtrfs does: the componentwise backward error max_i |r_i| / (|T||x| + |b|)_i
 * (which no row scaling changes) decides, a step that makes it worse is
 * undone, and the steps go on while it decreases, not only while it halves
 * (#11 by cr at n = 512: 2.9e-13, 2.8e-13, 3.9e-14 ... 4.7e-16 in 5 steps).
 * Below the threshold nothing is kept and the solve is the plain one, bit
 * for bit.
 *
 * Where the growth defeats refinement (#14 at n = 2^20: cond 1e46, growth
 * 1e12 and 1e20), the factorization's probe, the refined solve of a fixed
 * pseudo-random right-hand side, stays far above eps (0.4, 1): the method
 * then refuses T as needing pivoting rather than return an x that is not
 * backward stable (docs/bad_inputs.md).
 *
 * thomas's sweeps can also amplify rounding errors without any growth
 * (thomas.c: #13, dorr, at n = 2^20 overflows so).  Its factors whose
 * amplification exceeds HPLS_TRIDIAG_AMP_REFINE are probed and refined the
 * same way, with hpls_thomas_solve_guarded, which stops before an overflow
 * (the same bits otherwise): a probe that would overflow refuses T as
 * needing pivoting, a later solve that would is an HPLS_ERR_SINGULAR of the
 * same words, and no step of the refinement lets x outgrow R->xlim, below
 * which the residual cannot overflow. */
#include "direct/direct.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* dgtrfs's safe1: (nz + 1) times the safe minimum, nz = 4 (5 * 2^-1022;
 * thomas.cl's tri_resid_part has the same literal) */
#define TREFINE_SAFE 1.1125369292536007e-307

void hpls_trefine_free(hpls_trefine *R)
{
    hpls_free(R->dl);
    hpls_free(R->d);
    hpls_free(R->du);
    hpls_free(R->rs);
    *R = (hpls_trefine){0};
}

hpls_status hpls_trefine_init(hpls_int n, const hpls_real *dl, const hpls_real *d,
                              const hpls_real *du, int nt, hpls_trefine *R)
{
    *R = (hpls_trefine){.n = n, .nt = nt, .xlim = INFINITY};
    R->dl = hpls_malloc(n, sizeof *R->dl);
    R->d = hpls_malloc(n, sizeof *R->d);
    R->du = hpls_malloc(n, sizeof *R->du);
    R->rs = hpls_malloc(n, sizeof *R->rs);
    if (!R->dl || !R->d || !R->du || !R->rs) {
        hpls_trefine_free(R);
        return HPLS_ERR_NOMEM;
    }
    memcpy(R->dl, dl, (size_t)n * sizeof *dl);
    memcpy(R->d, d, (size_t)n * sizeof *d);
    memcpy(R->du, du, (size_t)n * sizeof *du);
    hpls_gspike_equilibrate(n, dl, d, du, nt, R->rs);
    return HPLS_OK;
}

double hpls_trefine_residual(const hpls_trefine *R, const hpls_real *b, const hpls_real *x,
                             hpls_real *r)
{
    hpls_int n = R->n;
    const hpls_real *dl = R->dl, *d = R->d, *du = R->du;
    double berr = 0.0;
    int bad = 0; /* a NaN row: OpenMP's max may drop NaN, so it is counted apart */
#pragma omp parallel for num_threads(R->nt) schedule(static) reduction(max : berr) \
    reduction(|| : bad)
    for (hpls_int i = 0; i < n; i++) {
        double t = d[i] * x[i], a = fabs(d[i] * x[i]);
        if (i > 0) {
            t += dl[i] * x[i - 1];
            a += fabs(dl[i] * x[i - 1]);
        }
        if (i < n - 1) {
            t += du[i] * x[i + 1];
            a += fabs(du[i] * x[i + 1]);
        }
        r[i] = b[i] - t;
        a += fabs(b[i]);
        /* dgtrfs's guard: a row whose |T||x| + |b| vanishes counts when r does not */
        double e = isgreater(a, TREFINE_SAFE) ? fabs(r[i]) / a
                   : fabs(r[i]) != 0.0 || !isgreater(a, 0.0)
                       ? (fabs(r[i]) + TREFINE_SAFE) / (a + TREFINE_SAFE)
                       : 0.0;
        bad = bad || isnan(e);
        berr = isgreater(e, berr) ? e : berr;
    }
    return bad ? NAN : berr;
}

hpls_status hpls_trefine_solve(const hpls_trefine *R, const char *who, hpls_trefine_fn solve,
                               const void *ctx, const hpls_real *b, hpls_real *x)
{
    hpls_int n = R->n;
    /* b0 keeps b when x overwrites it; r is the residual, then the correction;
     * xp the iterate before the last step, restored when that step made it worse */
    hpls_real *work = hpls_malloc(3 * n + 1, sizeof *work);
    if (!work)
        return HPLS_ERR_NOMEM;
    hpls_real *b0 = work, *r = work + n, *xp = work + 2 * n;
    memcpy(b0, b, (size_t)n * sizeof *b0);
    hpls_int stop = solve(ctx, b0, x);
    if (stop) {
        hpls_free(work);
        return hpls_fail(HPLS_ERR_SINGULAR,
                         "%s: the solve would overflow at row %lld, amplifying its rounding "
                         "errors without pivoting: T needs pivoting (no pivoting; try gspike or "
                         "lapack)",
                         who, (long long)stop);
    }
    double last = INFINITY;
    for (int it = 0; it <= HPLS_TRIDIAG_REFINE_MAX; it++) {
        /* a step that took x past xlim, where T x could overflow, is undone
         * before any residual; so is one that made the backward error worse,
         * or NaN (quiet comparisons: no FE_INVALID) */
        double berr = stop ? NAN : hpls_trefine_residual(R, b0, x, r);
        if (it > 0 && !isless(berr, last)) {
            memcpy(x, xp, (size_t)n * sizeof *x);
            break;
        }
        if (!isgreater(berr, DBL_EPSILON) || it == HPLS_TRIDIAG_REFINE_MAX)
            break;
        last = berr;
        memcpy(xp, x, (size_t)n * sizeof *x);
        if (solve(ctx, r, r) != 0) { /* the correction; it would overflow: x stays */
            memcpy(x, xp, (size_t)n * sizeof *x);
            break;
        }
        const double lim = R->xlim;
#pragma omp parallel for num_threads(R->nt) schedule(static) reduction(|| : stop)
        for (hpls_int i = 0; i < n; i++) {
            x[i] += r[i]; /* |x|, |r| <= xlim: no overflow */
            stop = stop || !(fabs(x[i]) <= lim);
        }
    }
    hpls_free(work);
    return HPLS_OK;
}

double hpls_trefine_probe(const hpls_trefine *R, hpls_trefine_fn solve, const void *ctx)
{
    hpls_int n = R->n;
    hpls_real *b = hpls_malloc(3 * n + 1, sizeof *b), *x = b + n, *r = b + 2 * n;
    if (!b)
        return NAN;
    uint64_t z = 0x9e3779b97f4a7c15u; /* v: uniform in [-1, 1), a fixed sequence */
    for (hpls_int i = 0; i < n; i++) {
        z ^= z << 13, z ^= z >> 7, z ^= z << 17;
        x[i] = (double)(z >> 11) * 0x1p-52 - 1.0;
    }
    for (hpls_int i = 0; i < n; i++) /* b = T v */
        b[i] = R->d[i] * x[i] + (i > 0 ? R->dl[i] * x[i - 1] : 0.0) +
               (i < n - 1 ? R->du[i] * x[i + 1] : 0.0);
    hpls_status st = hpls_trefine_solve(R, "probe", solve, ctx, b, x);
    double berr = st == HPLS_OK             ? hpls_trefine_residual(R, b, x, r)
                  : st == HPLS_ERR_SINGULAR ? INFINITY /* it would overflow */
                                            : NAN;
    hpls_free(b);
    return berr;
}

hpls_status hpls_trefine_verdict(const char *who, double growth, double amp, double berr)
{
    if (islessequal(berr, HPLS_TRIDIAG_PROBE_MAX))
        return HPLS_OK;
    if (isnan(berr))
        return HPLS_ERR_NOMEM;
    if (isinf(berr)) {
        char by[32]; /* thomas.c caps each sweep's factor at 2^500 */
        snprintf(by, sizeof by, amp >= 0x1p500 ? "more than %.2g" : "%.2g",
                 amp >= 0x1p500 ? 0x1p500 : amp);
        return hpls_fail(HPLS_ERR_SINGULAR,
                         "%s: elimination without pivoting amplifies the rounding errors of its "
                         "sweeps by %s (growth %.2g) and the solve of a test right-hand side "
                         "would overflow: T needs pivoting (no pivoting; try gspike or lapack)",
                         who, by, growth);
    }
    return hpls_fail(HPLS_ERR_SINGULAR,
                     "%s: elimination without pivoting grows by %.2g and refinement leaves a "
                     "backward error of %.2g on a test right-hand side: T needs pivoting (no "
                     "pivoting; try gspike or lapack)",
                     who, growth, berr);
}

hpls_int hpls_trefine_thomas(const void *ctx, const hpls_real *b, hpls_real *x)
{
    return hpls_thomas_solve_guarded(ctx, b, x);
}

hpls_int hpls_trefine_cr(const void *ctx, const hpls_real *b, hpls_real *x)
{
    const hpls_trefine_crctx *c = ctx;
    hpls_cr_solve(c->cr, b, x, c->work);
    return 0;
}

hpls_status hpls_trefine_setup(hpls_tridiag_method m, const void *fac, hpls_int n,
                               const hpls_real *dl, const hpls_real *d, const hpls_real *du, int nt,
                               hpls_trefine *R)
{
    *R = (hpls_trefine){0};
    const hpls_cr *cr = fac;
    const hpls_thomas *th = fac;
    double growth = m == HPLS_TRIDIAG_CR ? cr->growth : th->growth;
    double amp = m == HPLS_TRIDIAG_CR ? 1.0 : th->amp;
    if (!(growth > HPLS_TRIDIAG_GROWTH_REFINE) && !(amp > HPLS_TRIDIAG_AMP_REFINE))
        return HPLS_OK;
    hpls_status st = hpls_trefine_init(n, dl, d, du, nt, R);
    if (st != HPLS_OK)
        return st;
    if (m == HPLS_TRIDIAG_THOMAS)
        R->xlim = th->xlim;
    hpls_trefine_crctx c = {cr, NULL};
    if (m == HPLS_TRIDIAG_CR && !(c.work = hpls_malloc(cr->off[cr->nlev] - n + 1, sizeof *c.work)))
        st = HPLS_ERR_NOMEM;
    else
        st = hpls_trefine_verdict(m == HPLS_TRIDIAG_CR ? "cr" : "thomas", growth, amp,
                                  m == HPLS_TRIDIAG_CR
                                      ? hpls_trefine_probe(R, hpls_trefine_cr, &c)
                                      : hpls_trefine_probe(R, hpls_trefine_thomas, fac));
    hpls_free(c.work);
    if (st != HPLS_OK)
        hpls_trefine_free(R);
    return st;
}
