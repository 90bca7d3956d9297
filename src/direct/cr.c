/* SPDX-License-Identifier: BSD-3-Clause */
/* cr.c: cyclic reduction, split as in the HISA paper (Li, Yang, Li 2016,
 * Sec. 5.1, Alg. 2): Step 1, the coefficient reduction, runs once (factor);
 * Steps 2 (reduction of b) and 3 (back substitution) run per right-hand side.
 *
 * Level l+1 keeps the odd equations i = 2k+1 of level l, from which the even
 * unknowns i-1 and i+1 are eliminated (Eq. 4):
 *   k1 = l_i / d_{i-1},  k2 = u_i / d_{i+1}
 *   l' = -k1 l_{i-1},  d' = d_i - k1 u_{i-1} - k2 l_{i+1},  u' = -k2 u_{i+1}
 *   b' = b_i - k1 b_{i-1} - k2 b_{i+1}
 * so level sizes are n, floor(n/2), ... down to 1 (any n, not only 2^k), about
 * 2n equations in all (Eq. 5).  Back substitution: x_i = (b_i - l_i x_{i-1} -
 * u_i x_{i+1}) / d_i at the even equations of each level.  No pivoting: stable
 * for diagonally dominant T; a vanishing divisor is reported with its row, a
 * growing row measured (refine.c refines then). */
#include "direct/direct.h"

#include <float.h>
#include <math.h>

enum { CR_PARALLEL_MIN = 8192 }; /* a level smaller than this runs on one thread */

void hpls_cr_free(hpls_cr *f)
{
    hpls_free(f->off);
    hpls_free(f->l);
    hpls_free(f->u);
    hpls_free(f->dinv);
    hpls_free(f->k1);
    hpls_free(f->k2);
    f->off = NULL;
    f->l = f->u = f->dinv = f->k1 = f->k2 = NULL;
}

/* Inverts the divisors (even equations, and the last level's only one) of
 * level lev of size m, whose diagonal sits in dinv and its scale in scale. */
static hpls_status invert_divisors(hpls_cr *f, int lev, hpls_int m, const hpls_real *scale)
{
    hpls_real *dv = f->dinv + f->off[lev];
    const hpls_real *sc = scale + f->off[lev];
    hpls_int bad = -1;
#pragma omp parallel for schedule(static) num_threads(f->nt) if (m > CR_PARALLEL_MIN) reduction(max : bad)
    for (hpls_int i = 0; i < m; i += (m > 1 ? 2 : 1)) {
        if (!(fabs(dv[i]) > DBL_EPSILON * sc[i]) || !isfinite(dv[i]))
            bad = bad > i ? bad : i; /* report the last: the loop order is not fixed */
        else
            dv[i] = 1.0 / dv[i];
    }
    if (bad >= 0)
        return hpls_fail(HPLS_ERR_SINGULAR,
                         "cr: the reduced pivot of row %lld (level %d) is zero or tiny "
                         "(no pivoting; try gspike or lapack)",
                         (long long)((bad + 1) << lev), lev);
    return HPLS_OK;
}

hpls_status hpls_cr_factor(hpls_int n, const hpls_real *dl, const hpls_real *d,
                           const hpls_real *du, int nt, hpls_cr *f)
{
    *f = (hpls_cr){.n = n, .nt = nt};
    int nlev = 1;
    hpls_int total = n;
    for (hpls_int m = n; m > 1; m /= 2) {
        nlev++;
        total += m / 2;
    }
    f->nlev = nlev;
    f->off = hpls_malloc(nlev + 1, sizeof *f->off);
    f->l = hpls_malloc(total, sizeof *f->l);
    f->u = hpls_malloc(total, sizeof *f->u);
    f->dinv = hpls_malloc(total, sizeof *f->dinv);
    f->k1 = hpls_malloc(total, sizeof *f->k1);
    f->k2 = hpls_malloc(total, sizeof *f->k2);
    hpls_real *scale = hpls_malloc(total, sizeof *scale);
    hpls_status st = HPLS_ERR_NOMEM;
    if (!f->off || !f->l || !f->u || !f->dinv || !f->k1 || !f->k2 || !scale)
        goto fail;
    f->off[0] = 0;
    for (int lev = 0; lev < nlev; lev++)
        f->off[lev + 1] = f->off[lev] + (lev == 0 ? n : (f->off[lev] - f->off[lev - 1]) / 2);
    for (hpls_int i = 0; i < n; i++) {
        f->l[i] = i > 0 ? dl[i] : 0.0;
        f->u[i] = i < n - 1 ? du[i] : 0.0;
        f->dinv[i] = d[i];
        scale[i] = fabs(d[i]);
        f->k1[i] = f->k2[i] = 0.0;
    }
    for (int lev = 0; lev < nlev; lev++) {
        hpls_int m = f->off[lev + 1] - f->off[lev];
        if ((st = invert_divisors(f, lev, m, scale)) != HPLS_OK)
            goto fail;
        if (lev == nlev - 1)
            break;
        const hpls_real *l = f->l + f->off[lev], *u = f->u + f->off[lev];
        const hpls_real *dv = f->dinv + f->off[lev];
        hpls_real *k1 = f->k1 + f->off[lev], *k2 = f->k2 + f->off[lev];
        hpls_real *ln = f->l + f->off[lev + 1], *un = f->u + f->off[lev + 1];
        hpls_real *dn = f->dinv + f->off[lev + 1], *sn = scale + f->off[lev + 1];
        double growth = f->growth;
#pragma omp parallel for schedule(static) num_threads(f->nt) if (m > CR_PARALLEL_MIN) \
    reduction(max : growth)
        for (hpls_int k = 0; k < m / 2; k++) {
            hpls_int i = 2 * k + 1;
            double a = l[i] * dv[i - 1];
            double c = i + 1 < m ? u[i] * dv[i + 1] : 0.0;
            double t1 = a * u[i - 1], t2 = i + 1 < m ? c * l[i + 1] : 0.0;
            k1[i] = a;
            k2[i] = c;
            ln[k] = -a * l[i - 1];
            un[k] = i + 1 < m ? -c * u[i + 1] : 0.0;
            /* the odd equation's own diagonal is still uninverted */
            dn[k] = f->dinv[f->off[lev] + i] - t1 - t2;
            sn[k] = fabs(f->dinv[f->off[lev] + i]) + fabs(t1) + fabs(t2);
            k1[i - 1] = k2[i - 1] = 0.0;
            /* the row's entries after the step against before it (<= 1 when rows
             * i-1, i+1 are dominant); a zero row before it counts as growth */
            double before =
                fabs(l[i]) + fabs(f->dinv[f->off[lev] + i]) + (i + 1 < m ? fabs(u[i]) : 0.0);
            double after = fabs(ln[k]) + sn[k] + fabs(un[k]);
            double g = before > 0.0 ? after / before : after > 0.0 ? INFINITY : 0.0;
            growth = !(g <= growth) ? (isnan(g) ? INFINITY : g) : growth;
        }
        f->growth = isfinite(growth) ? growth : INFINITY;
        if (m % 2 == 1)
            k1[m - 1] = k2[m - 1] = 0.0;
    }
    hpls_free(scale);
    return HPLS_OK;
fail:
    hpls_free(scale);
    hpls_cr_free(f);
    return st;
}

void hpls_cr_solve(const hpls_cr *f, const hpls_real *b, hpls_real *x, hpls_real *work)
{
    hpls_int n = f->n;
    if (n == 0)
        return;
    if (x != b)
        hpls_k_copy(f->nt, n, b, x);
    /* level l's right-hand side (then solution) at bl(l): level 0 is x itself */
#define BL(lev) ((lev) == 0 ? x : work + f->off[lev] - n)
    for (int lev = 0; lev + 1 < f->nlev; lev++) { /* Step 2: reduce b */
        hpls_int m = f->off[lev + 1] - f->off[lev];
        const hpls_real *bl = BL(lev), *k1 = f->k1 + f->off[lev], *k2 = f->k2 + f->off[lev];
        hpls_real *bn = BL(lev + 1);
#pragma omp parallel for schedule(static) num_threads(f->nt) if (m > CR_PARALLEL_MIN)
        for (hpls_int k = 0; k < m / 2; k++) {
            hpls_int i = 2 * k + 1;
            bn[k] = bl[i] - k1[i] * bl[i - 1] - (i + 1 < m ? k2[i] * bl[i + 1] : 0.0);
        }
    }
    int top = f->nlev - 1;
    BL(top)[0] *= f->dinv[f->off[top]];
    for (int lev = top - 1; lev >= 0; lev--) { /* Step 3: back substitution */
        hpls_int m = f->off[lev + 1] - f->off[lev];
        hpls_real *xl = BL(lev);
        const hpls_real *xn = BL(lev + 1);
        const hpls_real *l = f->l + f->off[lev], *u = f->u + f->off[lev];
        const hpls_real *dv = f->dinv + f->off[lev];
#pragma omp parallel for schedule(static) num_threads(f->nt) if (m > CR_PARALLEL_MIN)
        for (hpls_int i = 0; i < m; i += 2) {
            double s = xl[i];
            if (i > 0)
                s -= l[i] * xn[i / 2 - 1];
            if (i + 1 < m)
                s -= u[i] * xn[i / 2];
            xl[i] = s * dv[i];
        }
#pragma omp parallel for schedule(static) num_threads(f->nt) if (m > CR_PARALLEL_MIN)
        for (hpls_int k = 0; k < m / 2; k++)
            xl[2 * k + 1] = xn[k];
    }
#undef BL
}
