/* SPDX-License-Identifier: BSD-3-Clause */
/* qtree.c: the quad-tree storage of a sparse matrix (Xu et al., "QTBiCGSTAB
 * algorithm for large linear system and parallelized", 2015, Sec. 2.1, Alg. 2,
 * Fig. 3; parallel layout of Sec. 3.1) and the choice of its d (Eq. 17).
 *
 *   for each row band (one per thread, split by nonzeros, Eq. 22-23):
 *     the leaves of Alg. 2 (nonempty aligned squares of side L <= d; empty
 *     quadrants never divided), for each panel (W columns: a row of tree
 *     nodes of side W) row block by row block, column blocks in order
 *     store each leaf in its cheaper form (runs or coo, qtree.h)
 *
 * Every leaf is an aligned square of side L, the largest power of two <= d,
 * of the tree whose root is the square of side P (a power of two >= the
 * matrix's sides) at (0, 0); a band's tree holds only the band's rows, which
 * cuts the tree at band boundaries.  A leaf's entries stay row by row with
 * columns increasing.
 *
 * Order of the leaves.  The paper's Fig. 3 walks a band column block by
 * column block, keeping a d-long piece of x in cache while the leaves below
 * it scatter into y; when the band's y exceeds the cache, every column block
 * re-reads it from memory, and for a pattern without structure each entry
 * then costs a cache line of y (measured: 2x slower than CSR at n = 1e7).
 * Here the d-long piece kept close is y's (a row block, in L2 while its
 * leaves are used), and x is read from a panel of W columns, W chosen so the
 * panel fits in half the last-level cache: y is streamed once per panel and
 * x once in all, where CSR fetches a line of x per scattered entry. */
#include "la/qtree.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RUN_MAX 65535 /* longest run a 16-bit count holds; longer rows are split */

/* An entry of the band while its leaves are found. */
typedef struct ent {
    hpls_idx i, j; /* row and column */
    hpls_int k;    /* position in A */
} ent;

typedef struct build {
    ent *tmp;       /* the band's entries by column block, then row, then column */
    ent *e;         /* a panel's entries by row block, then column block, row, column */
    hpls_int *cnt;  /* per column block + 1: counts, then starts */
    hpls_int *rcnt; /* per row block + 1 */
} build;

void hpls_qtree_destroy(hpls_qtree *Q)
{
    if (!Q)
        return;
    hpls_free(Q->band_row);
    hpls_free(Q->band_leaf);
    hpls_free(Q->leaf);
    hpls_free(Q->col);
    hpls_free(Q->val);
    hpls_free(Q->rinfo);
    hpls_free(Q->tbuf);
    hpls_free(Q);
}

/* Runs of the leaf's entries e[0 .. n-1] (rows increasing): one per row, and
 * one more per RUN_MAX entries of a row. */
static hpls_int count_runs(const ent *e, hpls_int n)
{
    hpls_int runs = 0, len = 0;
    for (hpls_int m = 0; m < n; m++) {
        if (m == 0 || e[m].i != e[m - 1].i || len == RUN_MAX) {
            runs++;
            len = 0;
        }
        len++;
    }
    return runs;
}

/* Appends the leaf of corner (row0, col0) holding e[0 .. count-1] to Q at
 * index l: entries from *off, row words from *aux.  The runs form costs 10
 * bytes an entry and 4 a run, the coo form 12 an entry: runs when 2 runs <
 * entries. */
static void store_leaf(hpls_qtree *Q, const hpls_csr *A, const ent *e, hpls_int count,
                       hpls_int row0, hpls_int col0, hpls_int l, hpls_int *off, hpls_int *aux)
{
    hpls_int runs = count_runs(e, count);
    int as_runs = 2 * runs < count;
    Q->leaf[l] = (hpls_qt_leaf){(hpls_idx)row0, (hpls_idx)col0, *off, *aux,
                                as_runs ? (int32_t)runs : 0};
    uint16_t *w = Q->rinfo + *aux;
    hpls_int len = 0, run = -1;
    for (hpls_int m = 0; m < count; m++) {
        uint16_t ri = (uint16_t)(e[m].i - row0);
        if (!as_runs) {
            w[m] = ri;
        } else if (m == 0 || e[m].i != e[m - 1].i || len == RUN_MAX) {
            run++;
            w[2 * run] = ri;
            len = 0;
        }
        if (as_runs)
            w[2 * run + 1] = (uint16_t)++len;
        Q->col[*off + m] = (uint16_t)(e[m].j - col0);
        Q->val[*off + m] = A->val[e[m].k];
    }
    *off += count;
    *aux += as_runs ? 2 * runs : count;
    Q->nruns += as_runs ? runs : 0;
}

/* Rows [lo, hi) of A (one band): its leaves appended to Q from leaf *nleaf,
 * panel by panel, row block by row block inside a panel, column blocks in
 * order inside a row block.  Alg. 2's division, which never divides an empty
 * quadrant and stops at side <= d, ends with exactly the nonempty aligned
 * squares of side L; they are found here directly by two stable counting
 * sorts, of the band's entries by column block and of a panel's entries by
 * row block (a row's entries stay in column order throughout): O(nnz +
 * ncols/L) instead of the recursion's O(nnz log(P/L)). */
static void build_band(hpls_qtree *Q, const hpls_csr *A, hpls_int lo, hpls_int hi, build *b,
                       hpls_int *nleaf, hpls_int *off, hpls_int *aux)
{
    hpls_int k0 = A->rowptr[lo], ne = A->rowptr[hi] - k0;
    hpls_int L = Q->side, ncb = (Q->ncols + L - 1) / L, cpp = Q->panel / L;
    if (ne == 0)
        return;
    hpls_int *cnt = b->cnt, *rcnt = b->rcnt, rb0 = lo / L, nrb = (hi - 1) / L - rb0 + 1;
    memset(cnt, 0, (size_t)(ncb + 1) * sizeof *cnt);
    for (hpls_int k = k0; k < k0 + ne; k++)
        cnt[A->colind[k] / L + 1]++;
    for (hpls_int c = 0; c < ncb; c++)
        cnt[c + 1] += cnt[c];
    for (hpls_int i = lo; i < hi; i++)
        for (hpls_int k = A->rowptr[i]; k < A->rowptr[i + 1]; k++)
            b->tmp[cnt[A->colind[k] / L]++] = (ent){(hpls_idx)i, A->colind[k], k};
    /* cnt[c] is now the end of column block c */
    for (hpls_int c0 = 0; c0 < ncb; c0 += cpp) {
        hpls_int c1 = c0 + cpp < ncb ? c0 + cpp : ncb;
        hpls_int s = c0 ? cnt[c0 - 1] : 0, t = cnt[c1 - 1];
        memset(rcnt, 0, (size_t)(nrb + 1) * sizeof *rcnt);
        for (hpls_int m = s; m < t; m++)
            rcnt[b->tmp[m].i / L - rb0 + 1]++;
        rcnt[0] = s;
        for (hpls_int r = 0; r < nrb; r++)
            rcnt[r + 1] += rcnt[r];
        for (hpls_int m = s; m < t; m++)
            b->e[rcnt[b->tmp[m].i / L - rb0]++] = b->tmp[m];
        for (hpls_int m = s; m < t;) { /* a leaf per run of one (row block, column block) */
            hpls_int first = m, rb = b->e[m].i / L, cb = b->e[m].j / L;
            while (m < t && b->e[m].i / L == rb && b->e[m].j / L == cb)
                m++;
            store_leaf(Q, A, b->e + first, m - first, rb * L, cb * L, (*nleaf)++, off, aux);
        }
    }
}

hpls_int hpls_qtree_panel_cols(long llc_bytes)
{
    hpls_int w = 1;
    while ((double)w * 2 * sizeof(hpls_real) <= (double)llc_bytes / 2 && w < ((hpls_int)1 << 40))
        w *= 2;
    return w;
}
hpls_status hpls_qtree_create(const hpls_csr *A, hpls_int d, hpls_int panel, int nbands,
                              hpls_qtree **out)
{
    if (!A || !out || d < 1 || d > HPLS_QT_MAX_D || panel < 0 || nbands < 1)
        return hpls_fail(HPLS_ERR_ARG,
                         "hpls_qtree_create: bad argument (d = %lld, panel = %lld, %d bands)",
                         (long long)d, (long long)panel, nbands);
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
    if (panel == 0)
        panel = hpls_qtree_panel_cols(hpls_qtree_cache_bytes(3));
    for (Q->panel = Q->side; Q->panel < panel && Q->panel < A->ncols; Q->panel *= 2)
        ;
    hpls_int L = Q->side, ncb = (A->ncols + L - 1) / L;
    build b = {NULL, NULL, NULL, NULL};
    hpls_int maxband = 0;
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
    /* tmp and e hold a band's entries; leaves and row words number at most nnz */
    if (!(b.tmp = hpls_malloc(maxband, sizeof *b.tmp)) ||
        !(b.e = hpls_malloc(maxband, sizeof *b.e)) ||
        !(b.cnt = hpls_malloc(ncb + 1, sizeof *b.cnt)) ||
        !(b.rcnt = hpls_malloc(A->nrows / L + 3, sizeof *b.rcnt)) ||
        !(Q->leaf = hpls_malloc(A->nnz + 1, sizeof *Q->leaf)) ||
        !(Q->col = hpls_calloc(A->nnz + HPLS_QT_PAD, sizeof *Q->col)) ||
        !(Q->val = hpls_calloc(A->nnz + HPLS_QT_PAD, sizeof *Q->val)) ||
        !(Q->rinfo = hpls_calloc(A->nnz + 2 * HPLS_QT_PAD, sizeof *Q->rinfo)) ||
        !(Q->tbuf = hpls_malloc((hpls_int)(nbands - 1) * A->ncols, sizeof *Q->tbuf)))
        goto fail;
    hpls_int nleaf = 0, off = 0, aux = 0;
    for (int t = 0; t < nbands; t++) {
        Q->band_leaf[t] = nleaf;
        build_band(Q, A, Q->band_row[t], Q->band_row[t + 1], &b, &nleaf, &off, &aux);
    }
    Q->band_leaf[nbands] = nleaf;
    Q->nleaves = nleaf;
    Q->nrinfo = aux;
    Q->leaf[nleaf] = (hpls_qt_leaf){(hpls_idx)A->nrows, 0, A->nnz, aux, 0};
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
    hpls_free(b.tmp);
    hpls_free(b.e);
    hpls_free(b.cnt);
    hpls_free(b.rcnt);
    hpls_qtree_destroy(Q);
    return st;
}

double hpls_qtree_bytes(const hpls_qtree *Q)
{
    return (double)Q->nnz * (sizeof(hpls_real) + sizeof(uint16_t)) +
           (double)Q->nrinfo * sizeof(uint16_t) + (double)(Q->nleaves + 1) * sizeof(hpls_qt_leaf);
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

long hpls_qtree_cache_bytes(int level)
{
    char path[96];
    for (int i = 0; i < 8; i++) {
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        FILE *f = fopen(path, "r");
        if (!f)
            break;
        int lv = 0;
        int got = fscanf(f, "%d", &lv);
        fclose(f);
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
        FILE *g = fopen(path, "r");
        char type[16] = "";
        if (g) {
            if (fscanf(g, "%15s", type) != 1)
                type[0] = '\0';
            fclose(g);
        }
        if (got == 1 && lv == level && strcmp(type, "Instruction") != 0) {
            snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
            long bytes = read_size(path);
            if (bytes > 0)
                return bytes;
        }
    }
#if defined(_SC_LEVEL2_CACHE_SIZE) && defined(_SC_LEVEL3_CACHE_SIZE)
    long v = sysconf(level == 2 ? _SC_LEVEL2_CACHE_SIZE : _SC_LEVEL3_CACHE_SIZE);
    if (v > 0)
        return v;
#endif
    return level == 2 ? 1L << 20 : 8L << 20;
}

/* Seconds of the fastest of 3 products y = A x, on Q or (Q == NULL) on A with
 * nt threads. */
static double time_product(const hpls_csr *A, const hpls_qtree *Q, int nt, const hpls_real *x,
                           hpls_real *y)
{
    double best = HUGE_VAL;
    for (int r = 0; r < 3; r++) {
        double t = hpls_wtime();
        if (Q)
            hpls_k_qt_spmv(Q, HPLS_PF_DEFAULT, x, y);
        else
            hpls_k_spmv(nt, A, x, y);
        t = hpls_wtime() - t;
        best = t < best ? t : best;
    }
    return best;
}

hpls_status hpls_qtree_create_auto(const hpls_csr *A, int nbands, hpls_qtree **out,
                                   hpls_qt_choice *why)
{
    if (!A || !out || nbands < 1)
        return hpls_fail(HPLS_ERR_ARG, "hpls_qtree_create_auto: bad argument");
    *out = NULL;
    hpls_qt_choice c = {.l2 = hpls_qtree_cache_bytes(2)};
    c.d0 = hpls_qtree_auto_d(A, c.l2);
    if (why)
        *why = c;
    if (c.d0 == 0)
        return HPLS_OK;
    /* Eq. 17 counts one cache and a uniform density: the best side moves with
     * the pattern (how full the leaves get) and with the next cache level, so
     * its neighbours are measured too */
    for (hpls_int d = c.d0 / 4; d <= 2 * c.d0; d *= 2)
        if (d >= 64 && d <= HPLS_QT_MAX_D && c.ncand < HPLS_QT_NCAND)
            c.cand[c.ncand++] = d;
    hpls_real *x = hpls_malloc(A->ncols, sizeof *x), *y = hpls_malloc(A->nrows, sizeof *y);
    hpls_status st = HPLS_ERR_NOMEM;
    if (!x || !y)
        goto done;
    hpls_k_set(nbands, A->ncols, 1.0, x);
    c.t_csr = time_product(A, NULL, nbands, x, y);
    /* a tree must beat CSR by 5% to be kept: a closer call is within the
     * noise of a timing taken at setup, and CSR is the safe side */
    double best = 0.95 * c.t_csr;
    for (int k = 0; k < c.ncand; k++) {
        hpls_qtree *Q = NULL;
        double t0 = hpls_wtime();
        st = hpls_qtree_create(A, c.cand[k], 0, nbands, &Q);
        c.t_build += hpls_wtime() - t0;
        if (st != HPLS_OK)
            goto done;
        c.t_cand[k] = time_product(A, Q, nbands, x, y);
        if (c.t_cand[k] < best) { /* keep the fastest so far, CSR's time to beat */
            best = c.t_cand[k];
            c.d = c.cand[k];
            hpls_qtree_destroy(*out);
            *out = Q;
        } else {
            hpls_qtree_destroy(Q);
        }
    }
    st = HPLS_OK;
done:
    if (st != HPLS_OK) {
        hpls_qtree_destroy(*out);
        *out = NULL;
        c.d = 0;
    }
    hpls_free(x);
    hpls_free(y);
    if (why)
        *why = c;
    return st;
}
