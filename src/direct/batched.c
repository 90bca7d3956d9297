/* SPDX-License-Identifier: BSD-3-Clause */
/* batched.c: many independent tridiagonal systems of one order n, in parallel
 * across systems (one system per thread at a time), solved in place.
 * Layouts: STRIDED, system k at k*stride + i (cuSPARSE gtsv2StridedBatch), and
 * INTERLEAVED, at i*batch + k (gtsvInterleavedBatch), where neighbouring
 * systems share cache lines.  thomas: the Thomas algorithm (thomas.c) with the
 * multipliers kept in a per-thread row of n values; lapack: dgtsv (strided),
 * which works on its own copies. */
#include "direct/direct.h"

#include <float.h>
#include <math.h>
#include <omp.h>

/* Thomas on system k, entries at base + i*inc; returns the 1-based failing row or 0. */
static hpls_int thomas_inplace(hpls_int n, hpls_int base, hpls_int inc, const hpls_real *dl,
                               const hpls_real *d, const hpls_real *du, hpls_real *b,
                               hpls_real *cp)
{
    double cprev = 0.0, y = 0.0;
    for (hpls_int i = 0; i < n; i++) {
        hpls_int at = base + i * inc;
        double lc = i > 0 ? dl[at] * cprev : 0.0, piv = d[at] - lc;
        if (!(fabs(piv) > DBL_EPSILON * (fabs(d[at]) + fabs(lc))) || !isfinite(piv))
            return i + 1;
        y = (b[at] - (i > 0 ? dl[at] * y : 0.0)) / piv;
        b[at] = y;
        cprev = i < n - 1 ? du[at] / piv : 0.0;
        cp[i] = cprev;
    }
    for (hpls_int i = n - 2; i >= 0; i--) {
        y = b[base + i * inc] - cp[i] * y;
        b[base + i * inc] = y;
    }
    return 0;
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
    int nt = omp_get_max_threads();
    hpls_real *work = hpls_malloc(n * nt, sizeof *work);
    if (!work)
        return HPLS_ERR_NOMEM;
    hpls_int bad_sys = -1, bad_row = 0;
#pragma omp parallel num_threads(nt)
    {
        hpls_real *w = work + n * omp_get_thread_num();
#pragma omp for schedule(static)
        for (hpls_int k = 0; k < batch; k++) {
            hpls_int row;
            if (m == HPLS_TRIDIAG_THOMAS) {
                hpls_int base = layout == HPLS_BATCH_STRIDED ? k * stride : k;
                hpls_int inc = layout == HPLS_BATCH_STRIDED ? 1 : batch;
                row = thomas_inplace(n, base, inc, dl, d, du, b, w);
            } else {
                hpls_int base = k * stride;
                row = hpls_lapack_gtsv(n, dl + base, d + base, du + base, b + base, b + base) ==
                              HPLS_OK ? 0 : 1;
            }
            if (row > 0) {
#pragma omp critical
                if (bad_sys < 0 || k < bad_sys) {
                    bad_sys = k;
                    bad_row = row;
                }
            }
        }
    }
    hpls_free(work);
    if (bad_sys >= 0 && m == HPLS_TRIDIAG_THOMAS)
        return hpls_fail(HPLS_ERR_SINGULAR, "batch: system %lld (from 1): thomas: zero or tiny "
                                            "pivot in row %lld", (long long)bad_sys + 1,
                         (long long)bad_row);
    if (bad_sys >= 0)
        return hpls_fail(HPLS_ERR_SINGULAR, "batch: system %lld (from 1) is singular (lapack)",
                         (long long)bad_sys + 1);
    return HPLS_OK;
}
