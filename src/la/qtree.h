/* SPDX-License-Identifier: BSD-3-Clause */
/* qtree.h: a sparse matrix stored as the leaves of a quad-tree (Xu et al.,
 * "QTBiCGSTAB", 2015, Sec. 2.1 and Alg. 2): A is divided into quadrants
 * recursively, empty quadrants never divided, until a quadrant's side is at
 * most d; the leaves are stored column block by column block (Fig. 3), so an
 * SpMV reuses a d-long piece of x while it sweeps down a column of leaves.
 * For p threads the rows are first cut into p bands of about equal nonzeros
 * (Sec. 3.1, Eq. 23) and each band has its own tree: a thread writes only its
 * band of y.  Inside a band the leaves are walked panel by panel (W columns
 * whose x fits in the last-level cache), row block by row block inside a
 * panel, so a row block's y stays in L2 while x is read from the panel
 * (qtree.c says why this and not Fig. 3's single column sweep).
 *
 * A leaf is stored in whichever of two compact forms moves fewer bytes:
 *   runs:  per row of the leaf that has entries, (row offset, count), 4 bytes,
 *          then per entry a 16-bit column offset and the value: 10 bytes;
 *   coo:   per entry 16-bit row and column offsets and the value: 12 bytes
 *          (a scattered leaf, whose rows hold one entry or two).
 * CSR streams 12 bytes an entry and 8 a row. */
#ifndef HPLS_QTREE_H
#define HPLS_QTREE_H

#include "core/internal.h"

#include <stdint.h>

#define HPLS_QT_MAX_D 65536 /* local offsets in a leaf are 16-bit */
#define HPLS_QT_PAD 1024    /* entries past the end of col/val/rinfo, read by prefetches only */

/* A leaf: a nonempty aligned square of side L (the largest power of two <= d),
 * clipped to its band.  Its entries are col/val[off .. next leaf's off - 1],
 * row by row, columns increasing; its row words start at rinfo[aux]: nrun
 * pairs (row offset, count) in the runs form, one row offset per entry in the
 * coo form (nrun == 0). */
typedef struct hpls_qt_leaf {
    hpls_idx row0, col0; /* corner of the square */
    hpls_int off;        /* first entry */
    hpls_int aux;        /* first row word */
    int32_t nrun;        /* runs in the runs form; 0: coo form */
} hpls_qt_leaf;

typedef struct hpls_qtree {
    hpls_int nrows, ncols, nnz;
    hpls_int d;          /* the target division length asked for */
    hpls_int side;       /* L: side of the leaves, the largest power of two <= d */
    hpls_int panel;      /* W: columns of a panel, a power of two >= L */
    int nbands;          /* row bands, one per thread of the build */
    hpls_int *band_row;  /* nbands+1: band b is rows band_row[b] .. band_row[b+1]-1 */
    hpls_int *band_leaf; /* nbands+1: band b's leaves are band_leaf[b] .. band_leaf[b+1]-1 */
    hpls_int nleaves;
    hpls_int nruns;      /* leaves' runs in all */
    hpls_qt_leaf *leaf;  /* nleaves+1 (the last holds off = nnz) */
    uint16_t *col;       /* nnz (+ pad) column offsets */
    hpls_real *val;      /* nnz (+ pad) values */
    uint16_t *rinfo;     /* row words of all leaves (+ pad) */
    hpls_int nrinfo;     /* row words used */
    hpls_real *tbuf;     /* (nbands-1)*ncols: partial sums of the transpose product */
} hpls_qtree;

/* Builds the quad-tree of A with target division length d (1 <= d <=
 * HPLS_QT_MAX_D), panels of `panel` columns (rounded up to a power of two >=
 * L; 0: from the last-level cache, hpls_qtree_panel_cols) and nbands row
 * bands (>= 1) split by nonzeros (hpls_k_row_split). */
hpls_status hpls_qtree_create(const hpls_csr *A, hpls_int d, hpls_int panel, int nbands,
                              hpls_qtree **Q);
void hpls_qtree_destroy(hpls_qtree *Q); /* accepts NULL */

/* Bytes one product y = A x streams for A: values, offsets, row words, leaves. */
double hpls_qtree_bytes(const hpls_qtree *Q);

/* Automatic d (Eq. 17, for the sparse leaves of A, with the cache of
 * cache_bytes): 0 when x already fits that cache (the quad-tree cannot pay). */
hpls_int hpls_qtree_auto_d(const hpls_csr *A, long cache_bytes);
/* Columns of a panel for a last-level cache of llc_bytes: the panel's piece
 * of x, which the threads share, fills at most half of it. */
hpls_int hpls_qtree_panel_cols(long llc_bytes);
/* Size in bytes of the data cache of this level (2 or 3) of this machine
 * (sysfs, then sysconf; 1 MiB for L2 and 8 MiB for L3 when neither says). */
long hpls_qtree_cache_bytes(int level);

/* What hpls_qtree_create_auto measured. */
#define HPLS_QT_NCAND 4
typedef struct hpls_qt_choice {
    hpls_int d0;                   /* Eq. 17's d; 0: x fits in L2, nothing built */
    long l2;                       /* L2 bytes used by Eq. 17 */
    int ncand;                     /* candidates tried */
    hpls_int cand[HPLS_QT_NCAND];  /* their d */
    double t_cand[HPLS_QT_NCAND];  /* seconds of one product on each (best of 3) */
    double t_csr;                  /* seconds of one CSR product (best of 3) */
    hpls_int d;                    /* the chosen d; 0: CSR is kept */
    double t_build;                /* seconds spent building the candidates */
} hpls_qt_choice;

/* Automatic format: d0 from Eq. 17, then the trees for d0/4, d0/2, d0 and 2 d0
 * (within [64, HPLS_QT_MAX_D]) built and timed on one product each against
 * CSR's; *Q is the fastest tree, or NULL when no tree took under 0.95 of
 * CSR's time (or x fits in L2).  `why` (may be NULL) receives the measurements. */
hpls_status hpls_qtree_create_auto(const hpls_csr *A, int nbands, hpls_qtree **Q,
                                   hpls_qt_choice *why);

/* Kernels (src/kernels/cpu/qtree_spmv.c): y = A x and y = A^T x.  Each row of
 * y = A x is summed from 0 over its entries in column order, exactly as CSR,
 * with any prefetch variant pf (HPLS_PF_*: only the hints differ). */
void hpls_k_qt_spmv(const hpls_qtree *Q, int pf, const hpls_real *x, hpls_real *y);
void hpls_k_qt_spmv_t(const hpls_qtree *Q, const hpls_real *x, hpls_real *y);

#endif /* HPLS_QTREE_H */
