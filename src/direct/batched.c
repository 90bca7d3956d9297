/* SPDX-License-Identifier: BSD-3-Clause */
/* batched.c: many independent tridiagonal systems of one order n, in parallel
 * across systems, solved in place.  Layouts: STRIDED, system k at k*stride + i
 * (cuSPARSE gtsv2StridedBatch), one system per thread at a time; INTERLEAVED,
 * at i*batch + k (gtsvInterleavedBatch), GROUP neighbouring systems per thread
 * at a time, row by row, so that each row is read in whole cache lines and
 * each page once for GROUP systems (one system at a time touched a line and a
 * page per row: at n = 1024 the 5n pages of a system outgrew the TLB, 0.23 s
 * for 10000 systems on 1 thread where the groups take 0.063 s).  thomas:
 * the Thomas algorithm (thomas.c), each system's operations in the same order
 * in both layouts (the same bits), with the multipliers and y kept in a
 * per-thread work array; lapack: dgtsv (strided), which works on its own
 * copies.
 *
 * thomas follows the single system's accuracy policy (refine.c): the forward
 * sweep measures thomas.c's growth and amplification row by row, and a system
 * past HPLS_TRIDIAG_GROWTH_REFINE or HPLS_TRIDIAG_AMP_REFINE stops there and
 * is solved again from its own data as hpls_tridiag_solve solves it:
 * factorization, probe, refined solve (#1, #4, #11, #12, #16 of Table A.1),
 * or the single system's refusal as needing pivoting, under its index.  A
 * group of interleaved systems is swept first with past_refine's first test
 * alone while every system's row passes it (common_rows: a dominant T's every
 * row, where the measure changes nothing), which keeps that layout's speed of
 * before (the full measure, a row and system, had cost it 15-35%).  The
 * forward sweep writes y to the work array, not to b, so that b is the
 * system's own until its backward sweep and nothing need be copied.  Below
 * both thresholds (every row- or column-dominant T) the sweeps are those of
 * before, bit for bit. */
#include "direct/direct.h"

#include <float.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>

enum { GROUP = 64 }; /* interleaved systems swept together: 8 cache lines of each row */
/* Rows ahead whose first line of each array is prefetched (locality 3, the hint
 * that did no harm on the Xeon of issue 29): n = 1024, 10000 systems, 1 thread,
 * 0.105 s without, 0.063 s with (AMD EPYC family 25; bench_tridiag batch). */
enum { PF_ROWS = 16 };

/* A system's outcome: 0 solved; i + 1 a zero or tiny pivot in row i; REFINE
 * past a threshold of refine.c (b untouched, to be solved again); NOT_FINITE
 * a y not finite in the forward sweep (b untouched: b holds NaN or Inf, or y
 * overflows); OVERFLOW an x not finite from a finite y (b partly x). */
enum { OVERFLOW = -1, REFINE = -2, NOT_FINITE = -3 };

/* The runs of thomas.c's amplification: forward (|dl_i / pivot_i|) and
 * backward (|cp_i|), each with its largest product so far. */
typedef struct amp_runs {
    double l, lmax, u, umax;
} amp_runs;

/* Row i's share of hpls_thomas_factor's growth and amp; nonzero once the
 * system is past HPLS_TRIDIAG_GROWTH_REFINE or HPLS_TRIDIAG_AMP_REFINE, where
 * the single system is refined.  l, u: the row's dl and du (0 at the ends), cu:
 * its cp.  The growth (|dl| + |lc| + |pivot| + |du|) / (|dl| + |d| + |du|) is
 * compared multiplied out (no division); the runs need no cap at 2^500 as
 * thomas.c's do, since the system stops at 1/eps (an Inf product stops it). */
static inline int past_refine(double l, double dd, double u, double lc, double piv, double cu,
                              amp_runs *r)
{
    /* the common row (every one of a dominant T) changes nothing, in 4
     * comparisons: |lc| <= |d| bounds |lc| + |pivot| by 3 |d| (growth 3 at
     * most); |dl|, |du| <= |pivot| (|mu|, |cp| <= 1) leave runs of 1 at 1; the
     * full update made the interleaved sweeps 2x slower at n = 256 */
    if (fabs(lc) <= fabs(dd) && hpls_maxd(fabs(l), fabs(u)) <= fabs(piv) && r->l == 1.0 &&
        r->u == 1.0)
        return 0;
    double off = fabs(l) + fabs(u);
    r->l = hpls_maxd(1.0, r->l * fabs(l / piv));
    r->u = hpls_maxd(1.0, r->u * fabs(cu));
    r->lmax = hpls_maxd(r->lmax, r->l);
    r->umax = hpls_maxd(r->umax, r->u);
    return (off + fabs(lc) + fabs(piv) > HPLS_TRIDIAG_GROWTH_REFINE * (off + fabs(dd))) |
           (r->lmax * r->umax > HPLS_TRIDIAG_AMP_REFINE);
}

/* Thomas on system k, entries at base + i, the multipliers in cp and y in
 * yw (n each); its outcome, as above. */
static hpls_int thomas_strided(hpls_int n, hpls_int base, const hpls_real *dl, const hpls_real *d,
                               const hpls_real *du, hpls_real *b, hpls_real *cp, hpls_real *yw)
{
    double cprev = 0.0, y = 0.0;
    amp_runs r = {1.0, 1.0, 1.0, 1.0};
    for (hpls_int i = 0; i < n; i++) {
        hpls_int at = base + i;
        double lc = i > 0 ? dl[at] * cprev : 0.0, piv = d[at] - lc;
        if (!(fabs(piv) > DBL_EPSILON * (fabs(d[at]) + fabs(lc))) || !isfinite(piv))
            return i + 1;
        y = (b[at] - (i > 0 ? dl[at] * y : 0.0)) / piv;
        yw[i] = y;
        cprev = i < n - 1 ? du[at] / piv : 0.0;
        cp[i] = cprev;
        if (past_refine(i > 0 ? dl[at] : 0.0, d[at], i < n - 1 ? du[at] : 0.0, lc, piv, cprev, &r))
            return REFINE;
        if (!isfinite(y)) /* quiet on a NaN of b (no FE_INVALID) */
            return NOT_FINITE;
    }
    int big = 0; /* an x not finite: overflow */
    b[base + n - 1] = y;
    for (hpls_int i = n - 2; i >= 0; i--) {
        y = yw[i] - cp[i] * y;
        big |= !isfinite(y);
        b[base + i] = y;
    }
    return big ? OVERFLOW : 0;
}

static const hpls_real zeros[GROUP]; /* the dl of row 0 and the du of row n - 1 */

/* Row i + PF_ROWS of the interleaved systems at at's column prefetched (b for
 * writing).  Always inlined: GCC 12 drops a call whose only effect is a
 * prefetch (sptrsv.c's prefetch_rows). */
__attribute__((always_inline)) static inline void
prefetch_rows(hpls_int n, hpls_int batch, hpls_int i, hpls_int at, const hpls_real *dl,
              const hpls_real *d, const hpls_real *du, const hpls_real *b)
{
    if (i + PF_ROWS < n) {
        hpls_int ahead = at + PF_ROWS * batch;
        __builtin_prefetch(dl + ahead);
        __builtin_prefetch(d + ahead);
        __builtin_prefetch(du + ahead);
        __builtin_prefetch(b + ahead, 1);
    }
}

/* The g <= GROUP interleaved systems k0 .. k0+g-1 swept together (the
 * multipliers of row i at cy[2*i*w + j], its y at cy[2*i*w + w + j]) through
 * the first rows where every one is common: a pivot not tiny, |lc| <= |d|,
 * |dl|, |du| <= |pivot| (past_refine's first test, where it changes nothing:
 * every row of a dominant T) and a finite y.  Each system's operations are
 * those of the loop below, in its order, up to that test, which is all there
 * is to a common row; the runs of past_refine stay at 1.  Returns the first
 * row where a system is not common (n if none), cprev and y holding every
 * system's multiplier and y of the row before. */
static hpls_int common_rows(hpls_int n, hpls_int batch, hpls_int k0, int g, int w,
                            const hpls_real *dl, const hpls_real *d, const hpls_real *du,
                            const hpls_real *b, hpls_real *cy, double *cprev, double *y)
{
    double cs[2][GROUP] = {{0}}, ys[2][GROUP] = {{0}}; /* row i's input in [i & 1] */
    hpls_int i = 0;
    for (; i < n; i++) {
        hpls_int at = i * batch + k0;
        const hpls_real *L = i > 0 ? dl + at : zeros, *D = d + at;
        const hpls_real *U = i < n - 1 ? du + at : zeros, *B = b + at;
        const double *cin = cs[i & 1], *yin = ys[i & 1];
        double *cout = cs[(i + 1) & 1], *yout = ys[(i + 1) & 1];
        hpls_real *cpi = cy + 2 * i * w, *ywi = cpi + w;
        prefetch_rows(n, batch, i, at, dl, d, du, b);
        int j = 0;
        for (; j < g; j++) {
            double l = L[j], dd = D[j], u = U[j];
            double lc = l * cin[j], piv = dd - lc;
            if (!(fabs(piv) > DBL_EPSILON * (fabs(dd) + fabs(lc))) || !isfinite(piv))
                break;
            double yj = (B[j] - l * yin[j]) / piv, c = u / piv;
            if (!(fabs(lc) <= fabs(dd) && hpls_maxd(fabs(l), fabs(u)) <= fabs(piv)) ||
                !isfinite(yj))
                break;
            ywi[j] = yj;
            cpi[j] = c;
            yout[j] = yj;
            cout[j] = c;
        }
        if (j < g)
            break;
    }
    for (int j = 0; j < g; j++) {
        cprev[j] = cs[i & 1][j];
        y[j] = ys[i & 1][j];
    }
    return i;
}

/* The same on the g <= GROUP interleaved systems k0 .. k0+g-1, row by row (the
 * multipliers of row i at cy[2*i*w + j], its y at cy[2*i*w + w + j], w >= g:
 * one page holds both): common_rows, then from the first row that is not
 * common for every system, one system at a time in each row, with
 * past_refine's full measure; a system stops at its failing row, as alone;
 * row[j] its outcome. */
static void thomas_interleaved(hpls_int n, hpls_int batch, hpls_int k0, int g, int w,
                               const hpls_real *dl, const hpls_real *d, const hpls_real *du,
                               hpls_real *b, hpls_real *cy, hpls_int *row)
{
    double cprev[GROUP], y[GROUP];
    amp_runs r[GROUP];
    int big[GROUP] = {0};
    for (int j = 0; j < g; j++) {
        row[j] = 0;
        r[j] = (amp_runs){1.0, 1.0, 1.0, 1.0};
    }
    for (hpls_int i = common_rows(n, batch, k0, g, w, dl, d, du, b, cy, cprev, y); i < n; i++) {
        hpls_int at = i * batch + k0;
        hpls_real *cpi = cy + 2 * i * w, *ywi = cpi + w;
        prefetch_rows(n, batch, i, at, dl, d, du, b);
        for (int j = 0; j < g; j++) {
            if (row[j])
                continue;
            double lc = i > 0 ? dl[at + j] * cprev[j] : 0.0, piv = d[at + j] - lc;
            if (!(fabs(piv) > DBL_EPSILON * (fabs(d[at + j]) + fabs(lc))) || !isfinite(piv)) {
                row[j] = i + 1;
                continue;
            }
            y[j] = (b[at + j] - (i > 0 ? dl[at + j] * y[j] : 0.0)) / piv;
            ywi[j] = y[j];
            cprev[j] = i < n - 1 ? du[at + j] / piv : 0.0;
            cpi[j] = cprev[j];
            if (past_refine(i > 0 ? dl[at + j] : 0.0, d[at + j], i < n - 1 ? du[at + j] : 0.0, lc,
                            piv, cprev[j], &r[j]))
                row[j] = REFINE;
            else if (!isfinite(y[j]))
                row[j] = NOT_FINITE;
        }
    }
    hpls_int last = (n - 1) * batch + k0;
    for (int j = 0; j < g; j++)
        if (!row[j])
            b[last + j] = y[j];
    for (hpls_int i = n - 2; i >= 0; i--) {
        hpls_int at = i * batch + k0;
        const hpls_real *cpi = cy + 2 * i * w, *ywi = cpi + w;
        for (int j = 0; j < g; j++)
            if (!row[j]) {
                y[j] = ywi[j] - cpi[j] * y[j];
                big[j] |= !isfinite(y[j]);
                b[at + j] = y[j];
            }
    }
    for (int j = 0; j < g; j++)
        if (!row[j] && big[j])
            row[j] = OVERFLOW;
}

/* A system past a threshold, solved by hpls_tridiag_solve itself on one
 * thread (factorization, refine.c's probe, the refined solve): its bits and
 * its words.  dl, d, du, b: the system's n values, contiguous, T only read;
 * b becomes x. */
static hpls_status thomas_refined(hpls_int n, const hpls_real *dl, const hpls_real *d,
                                  const hpls_real *du, hpls_real *b)
{
    hpls_tridiag T = {n, (hpls_real *)dl, (hpls_real *)d, (hpls_real *)du};
    hpls_tridiag_opts o = {0, HPLS_TRIDIAG_DELTA_DEFAULT, 1};
    return hpls_tridiag_solve_sized(&T, HPLS_TRIDIAG_THOMAS, &o, sizeof o, 1, b, b);
}

/* A call's batch: its method, layout (inter: interleaved), sizes and data. */
typedef struct batch_job {
    hpls_tridiag_method m;
    int inter;
    hpls_int n, batch, stride;
    const hpls_real *dl, *d, *du;
    hpls_real *b;
} batch_job;

/* The first failed system (the lowest index) and what is said of it after
 * "batch: system K (from 1)". */
typedef struct batch_failure {
    hpls_int sys;
    hpls_status st;
    char msg[512];
} batch_failure;

static void note_failure(batch_failure *f, hpls_int k, hpls_status st, const char *msg)
{
#pragma omp critical /* unnamed: a named one is an exported symbol (abi_exports) */
    if (f->sys < 0 || k < f->sys) {
        f->sys = k;
        f->st = st;
        snprintf(f->msg, sizeof f->msg, "%s", msg);
    }
}

/* System k's failure, out its outcome (not 0, not REFINE), as a message. */
static void note_outcome(batch_failure *f, const batch_job *J, hpls_int k, hpls_int out)
{
    char msg[160];
    if (J->m == HPLS_TRIDIAG_LAPACK)
        snprintf(msg, sizeof msg, " is singular (lapack)");
    else if (out < 0) /* below both thresholds, b finite: x itself is beyond the range */
        snprintf(msg, sizeof msg, ": thomas: x overflows (its sweeps exceed the range of double)");
    else
        snprintf(msg, sizeof msg, ": thomas: zero or tiny pivot in row %lld", (long long)out);
    note_failure(f, k, HPLS_ERR_SINGULAR, msg);
}

/* The g systems of a unit of work from k0 after their sweeps (outcomes in row):
 * those past a threshold solved again (interleaved ones gathered into gat, 4n
 * values), the failures noted; a b that holds NaN or Inf (untouched when
 * REFINE or NOT_FINITE) named by its first such row. */
static void finish_unit(const batch_job *J, hpls_int k0, int g, const hpls_int *row, hpls_real *gat,
                        batch_failure *fail)
{
    hpls_int n = J->n, step = J->inter ? J->batch : 1;
    for (int j = 0; j < g; j++) {
        hpls_int k = k0 + j, at = J->inter ? k : k * J->stride, bad = 0;
        for (hpls_int i = 0; (row[j] == REFINE || row[j] == NOT_FINITE) && !bad && i < n; i++)
            bad = isfinite(J->b[at + i * step]) ? 0 : i + 1;
        if (bad) {
            char msg[96];
            snprintf(msg, sizeof msg, ": b holds %g in row %lld", J->b[at + (bad - 1) * step],
                     (long long)bad);
            note_failure(fail, k, HPLS_ERR_VALUE, msg);
            continue;
        }
        if (row[j] != REFINE) {
            if (row[j] != 0)
                note_outcome(fail, J, k, row[j]);
            continue;
        }
        hpls_status st;
        if (J->inter) {
            hpls_real *gl = gat, *gd = gat + n, *gu = gat + 2 * n, *gb = gat + 3 * n;
            for (hpls_int i = 0; i < n; i++) {
                gl[i] = J->dl[at + i * step];
                gd[i] = J->d[at + i * step];
                gu[i] = J->du[at + i * step];
                gb[i] = J->b[at + i * step];
            }
            st = thomas_refined(n, gl, gd, gu, gb);
            for (hpls_int i = 0; st == HPLS_OK && i < n; i++)
                J->b[at + i * step] = gb[i];
        } else {
            st = thomas_refined(n, J->dl + at, J->d + at, J->du + at, J->b + at);
        }
        if (st != HPLS_OK) {
            char msg[512];
            snprintf(msg, sizeof msg, ": %s", hpls_last_error());
            note_failure(fail, k, st, msg);
        }
    }
}

hpls_status hpls_tridiag_solve_batch(hpls_tridiag_method m, hpls_batch_layout layout, hpls_int n,
                                     hpls_int batch, hpls_int stride, const hpls_real *dl,
                                     const hpls_real *d, const hpls_real *du, hpls_real *b)
{
    if (n < 0 || batch < 0 || !dl || !d || !du || !b ||
        (layout == HPLS_BATCH_STRIDED && stride < n) ||
        (layout != HPLS_BATCH_STRIDED && layout != HPLS_BATCH_INTERLEAVED))
        return hpls_fail(HPLS_ERR_ARG, "hpls_tridiag_solve_batch: bad sizes, layout or NULL data");
    if (m != HPLS_TRIDIAG_THOMAS && !(m == HPLS_TRIDIAG_LAPACK && layout == HPLS_BATCH_STRIDED))
        return hpls_fail(HPLS_ERR_ARG, "hpls_tridiag_solve_batch: method %s does not batch %s "
                                       "systems (thomas: both layouts, lapack: strided)",
                         hpls_tridiag_method_name(m),
                         layout == HPLS_BATCH_STRIDED ? "strided" : "interleaved");
    if (n == 0 || batch == 0)
        return HPLS_OK;
    int inter = layout == HPLS_BATCH_INTERLEAVED;
    int gw = inter ? (int)(batch < GROUP ? batch : GROUP) : 1; /* systems per unit of work */
    /* units of work: systems, or groups of GROUP interleaved systems */
    hpls_int units = inter ? (batch + GROUP - 1) / GROUP : batch;
    int nt = omp_get_max_threads() < units ? omp_get_max_threads() : (int)units;
    /* a thread's work: multipliers and y, 2n gw; interleaved, 4n more to gather
     * a system that is solved again */
    hpls_int wlen = n * (2 * gw + (inter ? 4 : 0));
    hpls_real *work = hpls_malloc(wlen * nt, sizeof *work);
    if (!work)
        return HPLS_ERR_NOMEM;
    const batch_job J = {m, inter, n, batch, stride, dl, d, du, b};
    batch_failure fail = {.sys = -1};
#pragma omp parallel num_threads(nt)
    {
        hpls_real *w = work + wlen * omp_get_thread_num();
#pragma omp for schedule(static)
        for (hpls_int u = 0; u < units; u++) {
            hpls_int row[GROUP] = {0}, k0 = inter ? u * GROUP : u;
            int g = inter ? (int)(batch - k0 < GROUP ? batch - k0 : GROUP) : 1;
            if (inter)
                thomas_interleaved(n, batch, k0, g, gw, dl, d, du, b, w, row);
            else if (m == HPLS_TRIDIAG_THOMAS)
                row[0] = thomas_strided(n, k0 * stride, dl, d, du, b, w, w + n);
            else
                row[0] = hpls_lapack_gtsv(n, dl + k0 * stride, d + k0 * stride, du + k0 * stride,
                                          b + k0 * stride, b + k0 * stride) == HPLS_OK ? 0 : 1;
            finish_unit(&J, k0, g, row, w + 2 * n * gw, &fail);
        }
    }
    hpls_free(work);
    if (fail.sys >= 0)
        return hpls_fail(fail.st, "batch: system %lld (from 1)%s", (long long)fail.sys + 1,
                         fail.msg);
    return HPLS_OK;
}
