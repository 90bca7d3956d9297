/* qtree_spmv.c: y = A x and y = A^T x on the quad-tree storage of A (Xu et
 * al. 2015, Sec. 2.1 step 3 "sparse matrix vector multiplication", and the
 * parallel Type (1) product of Sec. 3.1, Alg. 3).
 *
 *   y = A x:   each thread takes whole row bands; per band: y = 0, then leaf
 *              by leaf (column blocks in order, Fig. 3) y[row0 + r] += a x[col0 + c]
 *   y = A^T x: band b adds into its own buffer (band 0 into y), then the
 *              buffers are summed in band order
 * A row's entries are met in column order (leaves by column block, a leaf
 * row by row), and a run of one row inside a leaf is summed in a register
 * started from y, so every y_i = ((0 + a_1 x_1) + a_2 x_2) + ..., CSR's own
 * sum: the products are identical to hpls_k_spmv for any d and thread count.
 * Only the transpose product with several bands sums in another order. */
#include "la/qtree.h"

#include <omp.h>

/* y[lo, hi) of one band = A x */
static void band_mv(const hpls_qtree *Q, int b, const hpls_real *x, hpls_real *y)
{
    const hpls_qt_pos *pos = Q->pos;
    const hpls_real *val = Q->val;
    for (hpls_int i = Q->band_row[b]; i < Q->band_row[b + 1]; i++)
        y[i] = 0.0;
    for (hpls_int l = Q->band_leaf[b]; l < Q->band_leaf[b + 1]; l++) {
        const hpls_qt_leaf *f = &Q->leaf[l];
        hpls_real *yl = y + f->row0;
        const hpls_real *xl = x + f->col0;
        hpls_int k = f->off, e = f[1].off;
        while (k < e) { /* one row's run inside the leaf */
            unsigned r = pos[k].r;
            double s = yl[r];
            do {
                s += val[k] * xl[pos[k].c];
                k++;
            } while (k < e && pos[k].r == r);
            yl[r] = s;
        }
    }
}

/* yb = (rows of band b)^T x, yb zeroed first (ncols values) */
static void band_mv_t(const hpls_qtree *Q, int b, const hpls_real *x, hpls_real *yb)
{
    const hpls_qt_pos *pos = Q->pos;
    const hpls_real *val = Q->val;
    for (hpls_int j = 0; j < Q->ncols; j++)
        yb[j] = 0.0;
    for (hpls_int l = Q->band_leaf[b]; l < Q->band_leaf[b + 1]; l++) {
        const hpls_qt_leaf *f = &Q->leaf[l];
        hpls_real *yl = yb + f->col0;
        const hpls_real *xl = x + f->row0;
        for (hpls_int k = f->off; k < f[1].off; k++)
            yl[pos[k].c] += val[k] * xl[pos[k].r];
    }
}

void hpls_k_qt_spmv(const hpls_qtree *Q, const hpls_real *x, hpls_real *y)
{
#pragma omp parallel num_threads(Q->nbands)
    {
        int t = omp_get_thread_num(), p = omp_get_num_threads();
        for (int b = t; b < Q->nbands; b += p) /* every band, whatever team we get */
            band_mv(Q, b, x, y);
    }
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
