/* qtree.h: a sparse matrix stored as the leaves of a quad-tree (Xu et al.,
 * "QTBiCGSTAB", 2015, Sec. 2.1 and Alg. 2): A is divided into quadrants
 * recursively, empty quadrants never divided, until a quadrant's side is at
 * most d; the leaves are stored column block by column block (Fig. 3), so an
 * SpMV reuses a d-long piece of x while it sweeps down a column of leaves.
 * For p threads the rows are first cut into p bands of about equal nonzeros
 * (Sec. 3.1, Eq. 23) and each band has its own tree: a thread writes only its
 * band of y. */
#ifndef HPLS_QTREE_H
#define HPLS_QTREE_H

#include "core/internal.h"

#include <stdint.h>

#define HPLS_QT_MAX_D 65536 /* local offsets in a leaf are 16-bit */

/* Position of an entry inside its leaf. */
typedef struct hpls_qt_pos {
    uint16_t r, c; /* row and column offsets from the leaf's corner */
} hpls_qt_pos;

/* A leaf: a nonempty aligned square of side L (the largest power of two <= d),
 * clipped to its band; its entries are pos/val[off .. next leaf's off - 1],
 * row by row, columns increasing. */
typedef struct hpls_qt_leaf {
    hpls_int row0; /* first row of the square */
    hpls_int col0; /* first column of the square */
    hpls_int off;  /* first entry */
} hpls_qt_leaf;

typedef struct hpls_qtree {
    hpls_int nrows, ncols, nnz;
    hpls_int d;           /* the target division length asked for */
    hpls_int side;        /* L: side of the leaves, the largest power of two <= d */
    int nbands;           /* row bands, one per thread of the build */
    hpls_int *band_row;   /* nbands+1: band b is rows band_row[b] .. band_row[b+1]-1 */
    hpls_int *band_leaf;  /* nbands+1: band b's leaves are band_leaf[b] .. band_leaf[b+1]-1 */
    hpls_int nleaves;
    hpls_qt_leaf *leaf;   /* nleaves+1 (the last holds off = nnz) */
    hpls_qt_pos *pos;     /* nnz positions, 4 bytes each */
    hpls_real *val;       /* nnz values */
    hpls_real *tbuf;      /* (nbands-1)*ncols: partial sums of the transpose product */
} hpls_qtree;

/* Builds the quad-tree of A with target division length d (1 <= d <= HPLS_QT_MAX_D)
 * and nbands row bands (>= 1) split by nonzeros (hpls_k_row_split). */
hpls_status hpls_qtree_create(const hpls_csr *A, hpls_int d, int nbands, hpls_qtree **Q);
void hpls_qtree_destroy(hpls_qtree *Q); /* accepts NULL */

/* Automatic d (Eq. 17, for the sparse leaves of A, with the cache of
 * cache_bytes): 0 when x already fits that cache (the quad-tree cannot pay). */
hpls_int hpls_qtree_auto_d(const hpls_csr *A, long cache_bytes);
/* Size in bytes of the second-level cache of this machine (sysfs, then sysconf;
 * 1 MiB when neither says). */
long hpls_qtree_l2_bytes(void);

/* Kernels (src/kernels/cpu/qtree_spmv.c): y = A x and y = A^T x.  Each row of
 * y = A x is summed from 0 over its entries in column order, exactly as CSR. */
void hpls_k_qt_spmv(const hpls_qtree *Q, const hpls_real *x, hpls_real *y);
void hpls_k_qt_spmv_t(const hpls_qtree *Q, const hpls_real *x, hpls_real *y);

#endif /* HPLS_QTREE_H */
