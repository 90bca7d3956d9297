/* SPDX-License-Identifier: BSD-3-Clause */
/* qtree_spmv.c: y = A x and y = A^T x on the quad-tree storage of A (Xu et
 * al. 2015, Sec. 2.1 step 3 "sparse matrix vector multiplication", and the
 * parallel Type (1) product of Sec. 3.1, Alg. 3).
 *
 *   y = A x:   each thread takes whole row bands; per band, leaf by leaf
 *              (panels in order, row blocks inside a panel, column blocks
 *              inside a row block): y[row0 + r] += a x[col0 + c], a row block
 *              of y zeroed just before the first panel's leaves reach it
 *              (while it is in cache: no separate pass over y)
 *   y = A^T x: band b adds into its own buffer (band 0 into y), then the
 *              buffers are summed in band order
 * A row's entries are met in column order (leaves by column block, a leaf
 * row by row), and a run of one row inside a leaf is summed in a register
 * started from y, so every y_i = ((0 + a_1 x_1) + a_2 x_2) + ..., CSR's own
 * sum: the products are identical to hpls_k_spmv for any d and thread count.
 * Only the transpose product with several bands sums in another order.
 *
 * Software prefetch, as in spmv.c: the leaf streams (values, offsets, row
 * words) PF_STREAM entries ahead; in a coo leaf, whose rows and columns are
 * scattered, also x and y PF_X entries ahead inside the leaf (x comes from
 * the panel in the last-level cache, y from the row block in L2).  A runs
 * leaf reads x and y nearly in order: the hardware prefetcher keeps up. */
#include "kernels/cpu/prefetch.h"
#include "kernels/cpu/team.h"
#include "la/qtree.h"

#include <omp.h>

#define PF_X 32        /* entries ahead whose x and y are prefetched (coo leaves) */
#define PF_STREAM 512  /* entries ahead whose values and offsets are prefetched */
_Static_assert(PF_STREAM <= HPLS_QT_PAD, "prefetches stay inside the padded arrays");

/* Streams of entry k onward: one line of values, offsets and row words, with
 * hint loc, or none (loc < 0; a constant after inlining). */
static inline void pf_streams(const hpls_qtree *Q, hpls_int k, hpls_int w, int loc)
{
    if (loc < 0)
        return;
    hpls_pf_hint(Q->val + k + PF_STREAM, loc);
    hpls_pf_hint(Q->col + k + PF_STREAM, loc);
    hpls_pf_hint(Q->rinfo + w + PF_STREAM, loc);
}

/* yl[r] += sum over the runs of leaf f (runs form) */
static inline void leaf_runs(const hpls_qtree *Q, const hpls_qt_leaf *f, const hpls_real *xl,
                             hpls_real *yl, int sloc)
{
    const uint16_t *col = Q->col, *w = Q->rinfo + f->aux;
    const hpls_real *val = Q->val;
    hpls_int k = f->off;
    for (int32_t j = 0; j < f->nrun; j++) {
        unsigned r = w[2 * j];
        hpls_int e = k + w[2 * j + 1];
        pf_streams(Q, k, f->aux + 2 * j, sloc);
        double s = yl[r];
        for (; k < e; k++)
            s += val[k] * xl[col[k]];
        yl[r] = s;
    }
}

/* yl[row word] += a x, entry by entry (coo form); x and y prefetched PF_X
 * entries ahead while that stays inside the leaf (hint xloc, none if < 0),
 * streams every 8 entries (hint sloc) */
static inline void leaf_coo(const hpls_qtree *Q, const hpls_qt_leaf *f, const hpls_real *xl,
                            hpls_real *yl, int sloc, int xloc)
{
    const uint16_t *col = Q->col, *w = Q->rinfo + f->aux - f->off;
    const hpls_real *val = Q->val;
    hpls_int k = f->off, e = f[1].off;
    for (; k + 8 + PF_X <= e; k += 8) {
        pf_streams(Q, k, f->aux + (k - f->off), sloc);
        for (int m = 0; m < 8; m++) {
            if (xloc >= 0) { /* y is written too: a read hint still brings its line */
                hpls_pf_hint(xl + col[k + m + PF_X], xloc);
                hpls_pf_hint(yl + w[k + m + PF_X], xloc);
            }
            yl[w[k + m]] += val[k + m] * xl[col[k + m]];
        }
    }
    for (; k < e; k++)
        yl[w[k]] += val[k] * xl[col[k]];
}

/* y[lo, hi) of one band = A x, with hints sloc and xloc (constants) */
static inline void band_mv(const hpls_qtree *Q, int b, const hpls_real *x, hpls_real *y, int sloc,
                           int xloc)
{
    hpls_int z = Q->band_row[b], hi = Q->band_row[b + 1]; /* y[lo, z) is zeroed */
    for (hpls_int l = Q->band_leaf[b]; l < Q->band_leaf[b + 1]; l++) {
        const hpls_qt_leaf *f = &Q->leaf[l];
        /* the first panel's leaves come row block by row block */
        hpls_int e = f->col0 < Q->panel ? f->row0 + Q->side : hi;
        for (e = e < hi ? e : hi; z < e; z++)
            y[z] = 0.0;
        if (f->nrun)
            leaf_runs(Q, f, x + f->col0, y + f->row0, sloc);
        else
            leaf_coo(Q, f, x + f->col0, y + f->row0, sloc, xloc);
    }
    for (; z < hi; z++)
        y[z] = 0.0;
}

/* yb = (rows of band b)^T x, yb zeroed first (ncols values) */
static void band_mv_t(const hpls_qtree *Q, int b, const hpls_real *x, hpls_real *yb)
{
    const uint16_t *col = Q->col;
    const hpls_real *val = Q->val;
    for (hpls_int j = 0; j < Q->ncols; j++)
        yb[j] = 0.0;
    for (hpls_int l = Q->band_leaf[b]; l < Q->band_leaf[b + 1]; l++) {
        const hpls_qt_leaf *f = &Q->leaf[l];
        hpls_real *yl = yb + f->col0;
        const hpls_real *xl = x + f->row0;
        const uint16_t *w = Q->rinfo + f->aux;
        hpls_int k = f->off;
        if (f->nrun) {
            for (int32_t j = 0; j < f->nrun; j++) {
                double xr = xl[w[2 * j]];
                for (hpls_int e = k + w[2 * j + 1]; k < e; k++)
                    yl[col[k]] += val[k] * xr;
            }
        } else {
            for (hpls_int m = 0; k < f[1].off; k++, m++)
                yl[col[k]] += val[k] * xl[w[m]];
        }
    }
}

/* Band b with the hints of prefetch variant pf as constants. */
static void band_pf(const hpls_qtree *Q, int pf, int b, const hpls_real *x, hpls_real *y)
{
    switch (pf) {
    case HPLS_PF_NONE:
        band_mv(Q, b, x, y, -1, -1);
        break;
    case HPLS_PF_ROWS_L3:
        band_mv(Q, b, x, y, 3, -1);
        break;
    case HPLS_PF_ROWSX_L3:
        band_mv(Q, b, x, y, 3, 3);
        break;
    case HPLS_PF_ROWS_L2:
        band_mv(Q, b, x, y, 2, -1);
        break;
    case HPLS_PF_ROWSX_NTA:
        band_mv(Q, b, x, y, 0, 0);
        break;
    default: /* HPLS_PF_DEFAULT, HPLS_PF_ROWSX_L2 */
        band_mv(Q, b, x, y, 2, 2);
        break;
    }
}

void hpls_k_qt_spmv(const hpls_qtree *Q, int pf, const hpls_real *x, hpls_real *y)
{
    /* the leaves' values and 16-bit columns, x and y; asked before the team starts */
    pf = hpls_pf_sized(pf, 10.0 * (double)Q->nnz + 8.0 * (double)(Q->nrows + Q->ncols));
    HPLS_TEAM(Q->nbands, t, p, {
        for (int b = t; b < Q->nbands; b += p) /* every band, whatever team we get */
            band_pf(Q, pf, b, x, y);
    });
}

void hpls_k_qt_spmv_t(const hpls_qtree *Q, const hpls_real *x, hpls_real *y)
{
    int nb = Q->nbands;
    hpls_int m = Q->ncols;
#pragma omp parallel num_threads(nb)
    {
        int t = omp_get_thread_num(), p = omp_get_num_threads();
        for (int b = t; b < nb; b += p)
            band_mv_t(Q, b, x, b == 0 ? y : Q->tbuf + (hpls_int)(b - 1) * m);
#pragma omp barrier
        hpls_int lo = m * t / p, hi = m * (t + 1) / p;
        for (hpls_int j = lo; j < hi; j++) {
            double s = y[j];
            for (int b = 1; b < nb; b++)
                s += Q->tbuf[(hpls_int)(b - 1) * m + j];
            y[j] = s;
        }
    }
}
