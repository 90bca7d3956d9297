/* qtree.c: the quad-tree storage of a sparse matrix (Xu et al., "QTBiCGSTAB
 * algorithm for large linear system and parallelized", 2015, Sec. 2.1, Alg. 2,
 * Fig. 3; parallel layout of Sec. 3.1) and the choice of its d (Eq. 17).
 *
 *   for each row band (one per thread, split by nonzeros, Eq. 22-23):
 *     divide(root):  a square of side <= d is a leaf (Alg. 2, line 4); else cut
 *                    it into tl, dl, tr, dr and divide each nonempty one (lines
 *                    12-23): empty quadrants are never divided
 *     order the leaves by column block, top to bottom (Fig. 3)
 *
 * The root is the square of side P (a power of two >= the matrix's sides)
 * anchored at (0, 0), so every leaf is an aligned square of side L, the
 * largest power of two <= d; a band's tree holds only the band's rows, which
 * cuts the tree at band boundaries.  Quadrants are found by partitioning the
 * band's entries (stably, so a leaf's entries stay row by row with columns
 * increasing): O(nnz log(P/L)) work. */
#include "la/qtree.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* An entry of the band while the tree is divided. */
typedef struct ent {
    hpls_idx i, j; /* row and column */
    hpls_int k;    /* position in A */
} ent;

/* A leaf as the division finds it: its corner and its slice of the entries. */
typedef struct leaf_rec {
    hpls_int row0, col0, start, count;
} leaf_rec;

typedef struct build {
    hpls_int side; /* L */
    ent *e, *tmp;  /* the band's entries, and as much scratch for the partition */
    leaf_rec *rec; /* leaves found so far in this band */
    hpls_int nrec;
} build;

/* Alg. 2: e[0 .. ne-1] (ne > 0), a slice of b->e, are the entries of the
 * square of side `size` at (r0, c0); its leaves are appended to b->rec in the
 * order tl, dl, tr, dr. */
static void divide(build *b, hpls_int r0, hpls_int c0, hpls_int size, ent *e, hpls_int ne)
{
    if (size <= b->side) { /* line 4: a leaf */
        b->rec[b->nrec++] = (leaf_rec){r0, c0, e - b->e, ne};
        return;
    }
    hpls_int h = size / 2, cnt[4] = {0, 0, 0, 0}, at[4];
    ent *t = b->tmp + (e - b->e); /* the scratch beside this slice */
    /* quadrant q: bit 0 = lower half, bit 1 = right half: q = 0 tl, 1 dl, 2 tr, 3 dr */
    for (hpls_int m = 0; m < ne; m++)
        cnt[(e[m].i >= r0 + h) | (e[m].j >= c0 + h) << 1]++;
    at[0] = 0;
    for (int q = 1; q < 4; q++)
        at[q] = at[q - 1] + cnt[q - 1];
    for (hpls_int m = 0; m < ne; m++)
        t[at[(e[m].i >= r0 + h) | (e[m].j >= c0 + h) << 1]++] = e[m];
    memcpy(e, t, (size_t)ne * sizeof *e);
    hpls_int first = 0;
    for (int q = 0; q < 4; q++) { /* lines 12-23: only nonempty quadrants */
        if (cnt[q] > 0)
            divide(b, r0 + (q & 1) * h, c0 + (q >> 1) * h, h, e + first, cnt[q]);
        first += cnt[q];
    }
}

void hpls_qtree_destroy(hpls_qtree *Q)
{
    if (!Q)
        return;
    hpls_free(Q->band_row);
    hpls_free(Q->band_leaf);
    hpls_free(Q->leaf);
    hpls_free(Q->pos);
    hpls_free(Q->val);
    hpls_free(Q->tbuf);
    hpls_free(Q);
}

/* Divides band bnd of Q (the entries of its rows in A) and appends its leaves,
 * in column-block order (Fig. 3), to Q->leaf from index *nleaf; b holds the
 * scratch, ord and cnt are scratch of the largest band's nnz and of the
 * column blocks + 1. */
static void build_band(hpls_qtree *Q, const hpls_csr *A, int bnd, build *b, hpls_int *ord,
                       hpls_int *cnt, hpls_int root, hpls_int *nleaf)
{
    hpls_int lo = Q->band_row[bnd], hi = Q->band_row[bnd + 1];
    hpls_int k0 = A->rowptr[lo], ne = A->rowptr[hi] - k0;
    hpls_int L = Q->side, ncb = (Q->ncols + L - 1) / L;
    Q->band_leaf[bnd] = *nleaf;
    if (ne == 0)
        return;
    for (hpls_int i = lo; i < hi; i++)
        for (hpls_int k = A->rowptr[i]; k < A->rowptr[i + 1]; k++)
            b->e[k - k0] = (ent){(hpls_idx)i, A->colind[k], k};
    b->nrec = 0;
    divide(b, 0, 0, root, b->e, ne);
    /* stable counting sort of the leaves by column block: down each column of
     * leaves top to bottom (within a column block divide() met them that way) */
    memset(cnt, 0, (size_t)(ncb + 1) * sizeof *cnt);
    for (hpls_int l = 0; l < b->nrec; l++)
        cnt[b->rec[l].col0 / L + 1]++;
    for (hpls_int c = 0; c < ncb; c++)
        cnt[c + 1] += cnt[c];
    for (hpls_int l = 0; l < b->nrec; l++)
        ord[cnt[b->rec[l].col0 / L]++] = l;
    hpls_int off = k0;
    for (hpls_int l = 0; l < b->nrec; l++) {
        const leaf_rec *r = &b->rec[ord[l]];
        Q->leaf[*nleaf + l] = (hpls_qt_leaf){r->row0, r->col0, off};
        for (hpls_int m = 0; m < r->count; m++) {
            const ent *x = &b->e[r->start + m];
            Q->pos[off] = (hpls_qt_pos){(uint16_t)(x->i - r->row0), (uint16_t)(x->j - r->col0)};
            Q->val[off] = A->val[x->k];
            off++;
        }
    }
    *nleaf += b->nrec;
}

hpls_status hpls_qtree_create(const hpls_csr *A, hpls_int d, int nbands, hpls_qtree **out)
{
    if (!A || !out || d < 1 || d > HPLS_QT_MAX_D || nbands < 1)
        return hpls_fail(HPLS_ERR_ARG, "hpls_qtree_create: bad argument (d = %lld, %d bands)",
                         (long long)d, nbands);
    *out = NULL;
    hpls_qtree *Q = hpls_calloc(1, sizeof *Q);
    if (!Q)
        return HPLS_ERR_NOMEM;
    Q->nrows = A->nrows;
    Q->ncols = A->ncols;
    Q->nnz = A->nnz;
    Q->d = d;
    Q->nbands = nbands;
    for (Q->side = 1; Q->side * 2 <= d; Q->side *= 2)
        ;
    hpls_int root = 1;
    while (root < A->nrows || root < A->ncols)
        root *= 2;
    hpls_int L = Q->side, ncb = (A->ncols + L - 1) / L;
    ent *e = NULL;
    leaf_rec *rec = NULL;
    hpls_int *ord = NULL, *cnt = NULL, maxband = 0;
    hpls_status st = HPLS_ERR_NOMEM;
    if (!(Q->band_row = hpls_malloc(nbands + 1, sizeof *Q->band_row)) ||
        !(Q->band_leaf = hpls_malloc(nbands + 1, sizeof *Q->band_leaf)))
        goto fail;
    for (int t = 0; t <= nbands; t++)
        Q->band_row[t] = hpls_k_row_split(A, t, nbands);
    for (int t = 0; t < nbands; t++) {
        hpls_int m = A->rowptr[Q->band_row[t + 1]] - A->rowptr[Q->band_row[t]];
        maxband = m > maxband ? m : maxband;
    }
    /* a band has at most maxband leaves; e holds its entries and the scratch */
    if (!(e = hpls_malloc(2 * maxband, sizeof *e)) || !(rec = hpls_malloc(maxband, sizeof *rec)) ||
        !(ord = hpls_malloc(maxband, sizeof *ord)) || !(cnt = hpls_malloc(ncb + 1, sizeof *cnt)) ||
        !(Q->leaf = hpls_malloc(A->nnz + 1, sizeof *Q->leaf)) ||
        !(Q->pos = hpls_malloc(A->nnz, sizeof *Q->pos)) ||
        !(Q->val = hpls_malloc(A->nnz, sizeof *Q->val)) ||
        !(Q->tbuf = hpls_malloc((hpls_int)(nbands - 1) * A->ncols, sizeof *Q->tbuf)))
        goto fail;
    build b = {.side = L, .e = e, .tmp = e + maxband, .rec = rec};
    hpls_int nleaf = 0;
    for (int t = 0; t < nbands; t++)
        build_band(Q, A, t, &b, ord, cnt, root, &nleaf);
    Q->band_leaf[nbands] = nleaf;
    Q->nleaves = nleaf;
    Q->leaf[nleaf] = (hpls_qt_leaf){A->nrows, 0, A->nnz};
    /* keep only the leaves used */
    hpls_qt_leaf *fit = hpls_malloc(nleaf + 1, sizeof *fit);
    if (!fit)
        goto fail;
    memcpy(fit, Q->leaf, (size_t)(nleaf + 1) * sizeof *fit);
    hpls_free(Q->leaf);
    Q->leaf = fit;
    st = HPLS_OK;
    *out = Q;
    Q = NULL;
fail:
    hpls_free(e);
    hpls_free(rec);
    hpls_free(ord);
    hpls_free(cnt);
    hpls_qtree_destroy(Q);
    return st;
}

/* Eq. 17 says SD (d^2 + d + d) = cache: a dense d x d leaf and the d-long
 * pieces of x and y fit the cache together.  A's leaves are sparse: with
 * rho = nnz / (nrows ncols) a leaf holds rho d^2 entries of 12 bytes (value
 * and two 16-bit offsets) next to 16 d bytes of x and y, so
 *     12 rho d^2 + 16 d = cache,
 * which for rho = 1 is Eq. 17 with SD = 12.  d is rounded down to a power of
 * two (the side of the leaves) within [64, HPLS_QT_MAX_D]. */
hpls_int hpls_qtree_auto_d(const hpls_csr *A, long cache_bytes)
{
    double cache = (double)cache_bytes;
    if (A->nrows == 0 || A->ncols == 0 || 8.0 * (double)A->ncols <= cache / 2)
        return 0; /* x fits in half the cache: CSR's gathers hit already */
    double rho = (double)A->nnz / ((double)A->nrows * (double)A->ncols);
    double d = rho > 0 ? (-16.0 + sqrt(256.0 + 48.0 * rho * cache)) / (24.0 * rho)
                       : (double)HPLS_QT_MAX_D;
    hpls_int p = 64;
    while (p * 2 <= d && p * 2 <= HPLS_QT_MAX_D)
        p *= 2;
    return p;
}

/* "1024K" or "32M" (sysfs cache size) -> bytes, 0 when unreadable. */
static long read_size(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    long v = 0;
    char unit = 0;
    int got = fscanf(f, "%ld%c", &v, &unit);
    fclose(f);
    if (got < 1 || v <= 0)
        return 0;
    return unit == 'K' ? v * 1024 : unit == 'M' ? v * 1024 * 1024 : v;
}

long hpls_qtree_l2_bytes(void)
{
    char path[96];
    for (int i = 0; i < 8; i++) {
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        FILE *f = fopen(path, "r");
        if (!f)
            break;
        int level = 0;
        int got = fscanf(f, "%d", &level);
        fclose(f);
        if (got == 1 && level == 2) {
            snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
            long bytes = read_size(path);
            if (bytes > 0)
                return bytes;
        }
    }
#ifdef _SC_LEVEL2_CACHE_SIZE
    long v = sysconf(_SC_LEVEL2_CACHE_SIZE);
    if (v > 0)
        return v;
#endif
    return 1L << 20;
}
