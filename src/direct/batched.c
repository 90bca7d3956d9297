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
 * in both layouts (the same bits), with the multipliers kept in a per-thread
 * work array; lapack: dgtsv (strided), which works on its own copies. */
#include "direct/direct.h"

#include <float.h>
#include <math.h>
#include <omp.h>

enum { GROUP = 64 }; /* interleaved systems swept together: 8 cache lines of each row */
/* Rows ahead whose first line of each array is prefetched (locality 3, the hint
 * that did no harm on the Xeon of issue 29): n = 1024, 10000 systems, 1 thread,
 * 0.105 s without, 0.063 s with (AMD EPYC family 25; bench_tridiag batch). */
enum { PF_ROWS = 16 };

/* A system's outcome: 0 solved; i + 1 a zero or tiny pivot in row i; OVERFLOW
 * an x not finite from finite data: the sweeps amplified rounding errors past
 * the range (elimination without pivoting; thomas.c's amp, #13 dorr at 2^20).
 * One test of the running x a row costs nothing beside the sweeps' division
 * chain; with no b kept, a batch cannot refine as hpls_thomas_solve does. */
#define OVERFLOW (-1)

/* Thomas on system k, entries at base + i; its outcome, as above. */
static hpls_int thomas_strided(hpls_int n, hpls_int base, const hpls_real *dl, const hpls_real *d,
                               const hpls_real *du, hpls_real *b, hpls_real *cp)
{
    double cprev = 0.0, y = 0.0;
    int big = 0; /* a non-finite y or x: overflow (finite data) */
    for (hpls_int i = 0; i < n; i++) {
        hpls_int at = base + i;
        double lc = i > 0 ? dl[at] * cprev : 0.0, piv = d[at] - lc;
        if (!(fabs(piv) > DBL_EPSILON * (fabs(d[at]) + fabs(lc))) || !isfinite(piv))
            return i + 1;
        y = (b[at] - (i > 0 ? dl[at] * y : 0.0)) / piv;
        big |= !(fabs(y) <= DBL_MAX);
        b[at] = y;
        cprev = i < n - 1 ? du[at] / piv : 0.0;
        cp[i] = cprev;
    }
    for (hpls_int i = n - 2; i >= 0; i--) {
        y = b[base + i] - cp[i] * y;
        big |= !(fabs(y) <= DBL_MAX);
        b[base + i] = y;
    }
    return big ? OVERFLOW : 0;
}

/* The same on the g <= GROUP interleaved systems k0 .. k0+g-1, row by row (the
 * multipliers of row i at cp[i*w + j], w >= g); a system stops at its failing
 * row, as alone; row[j] its outcome. */
static void thomas_interleaved(hpls_int n, hpls_int batch, hpls_int k0, int g, int w,
                               const hpls_real *dl, const hpls_real *d, const hpls_real *du,
                               hpls_real *b, hpls_real *cp, hpls_int *row)
{
    double cprev[GROUP] = {0}, y[GROUP] = {0};
    int big[GROUP] = {0};
    for (int j = 0; j < g; j++)
        row[j] = 0;
    for (hpls_int i = 0; i < n; i++) {
        hpls_int at = i * batch + k0;
        if (i + PF_ROWS < n) {
            hpls_int ahead = at + PF_ROWS * batch;
            __builtin_prefetch(dl + ahead);
            __builtin_prefetch(d + ahead);
            __builtin_prefetch(du + ahead);
            __builtin_prefetch(b + ahead, 1);
        }
        for (int j = 0; j < g; j++) {
            if (row[j])
                continue;
            double lc = i > 0 ? dl[at + j] * cprev[j] : 0.0, piv = d[at + j] - lc;
            if (!(fabs(piv) > DBL_EPSILON * (fabs(d[at + j]) + fabs(lc))) || !isfinite(piv)) {
                row[j] = i + 1;
                continue;
            }
            y[j] = (b[at + j] - (i > 0 ? dl[at + j] * y[j] : 0.0)) / piv;
            big[j] |= !(fabs(y[j]) <= DBL_MAX);
            b[at + j] = y[j];
            cprev[j] = i < n - 1 ? du[at + j] / piv : 0.0;
            cp[i * w + j] = cprev[j];
        }
    }
    for (hpls_int i = n - 2; i >= 0; i--) {
        hpls_int at = i * batch + k0;
        for (int j = 0; j < g; j++)
            if (!row[j]) {
                y[j] = b[at + j] - cp[i * w + j] * y[j];
                big[j] |= !(fabs(y[j]) <= DBL_MAX);
                b[at + j] = y[j];
            }
    }
    for (int j = 0; j < g; j++)
        if (!row[j] && big[j])
            row[j] = OVERFLOW;
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
    hpls_real *work = hpls_malloc(n * nt * gw, sizeof *work); /* multipliers: n gw a thread */
    if (!work)
        return HPLS_ERR_NOMEM;
    hpls_int bad_sys = -1, bad_row = 0;
#pragma omp parallel num_threads(nt)
    {
        hpls_real *w = work + n * gw * omp_get_thread_num();
#pragma omp for schedule(static)
        for (hpls_int u = 0; u < units; u++) {
            hpls_int row[GROUP] = {0}, k0 = inter ? u * GROUP : u;
            int g = inter ? (int)(batch - k0 < GROUP ? batch - k0 : GROUP) : 1;
            if (inter)
                thomas_interleaved(n, batch, k0, g, gw, dl, d, du, b, w, row);
            else if (m == HPLS_TRIDIAG_THOMAS)
                row[0] = thomas_strided(n, k0 * stride, dl, d, du, b, w);
            else
                row[0] = hpls_lapack_gtsv(n, dl + k0 * stride, d + k0 * stride, du + k0 * stride,
                                          b + k0 * stride, b + k0 * stride) == HPLS_OK ? 0 : 1;
            for (int j = 0; j < g; j++)
                if (row[j] != 0) {
#pragma omp critical
                    if (bad_sys < 0 || k0 + j < bad_sys) {
                        bad_sys = k0 + j;
                        bad_row = row[j];
                    }
                }
        }
    }
    hpls_free(work);
    if (bad_sys >= 0 && bad_row == OVERFLOW)
        return hpls_fail(HPLS_ERR_SINGULAR,
                         "batch: system %lld (from 1): thomas: its sweeps overflow (elimination "
                         "without pivoting amplifies their rounding errors): the system needs "
                         "pivoting (no pivoting; try lapack)",
                         (long long)bad_sys + 1);
    if (bad_sys >= 0 && m == HPLS_TRIDIAG_THOMAS)
        return hpls_fail(HPLS_ERR_SINGULAR, "batch: system %lld (from 1): thomas: zero or tiny "
                                            "pivot in row %lld", (long long)bad_sys + 1,
                         (long long)bad_row);
    if (bad_sys >= 0)
        return hpls_fail(HPLS_ERR_SINGULAR, "batch: system %lld (from 1) is singular (lapack)",
                         (long long)bad_sys + 1);
    return HPLS_OK;
}
