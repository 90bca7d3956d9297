/* SPDX-License-Identifier: BSD-3-Clause */
/* matching.c: row-to-column matchings on the nonzero entries of a square
 * matrix, to put nonzeros (and large ones) on the diagonal of A Q.
 *
 * Maximum transversal (Duff, "On algorithms for obtaining a maximum
 * transversal", ACM TOMS 7(3), 1981: MC21's depth-first search with a
 * look-ahead, in phases as Pothen & Fan's PF+, "Computing the block
 * triangular form of a sparse matrix", ACM TOMS 16(4), 1990; Duff, Kaya &
 * Ucar, ACM TOMS 38(2), 2011): in a phase, one depth-first search from each
 * row still free, rows entered through the column they are matched to; a
 * row first looks for a column not matched yet (each row's look-ahead
 * pointer only moves forward, so all look-aheads together read A once); a
 * column seen in a phase is not entered again in it by any search, so a
 * phase reads A at most once; phases alternate the direction in which rows
 * are scanned (PF+'s fairness) until one augments nothing.  MC21's
 * per-search marks made a search re-read what earlier searches had ruled
 * out: 19 s (54 s under load) for n = 2e5 scrambled columns.
 *
 * Weighted matching (Duff & Koster, "On algorithms for permuting large
 * entries to the diagonal of a sparse matrix", SIMAX 22(4), 2001: MC64 job 5):
 *   c_ij = log a_i - log |A_ij|,  a_i = max_j |A_ij|   (>= 0; 0 at a row's max)
 *   minimise sum_i c_{i,colof[i]}  <=>  maximise prod_i |A_{i,colof[i]}|
 * by successive shortest augmenting paths (the Hungarian method): dual
 * variables u (rows), v (columns) with u_i + v_j <= c_ij, equality on the
 * matching; from each free row, Dijkstra on the reduced costs
 * c_ij - u_i - v_j >= 0 (binary heap over columns) until a free column is
 * reached, the duals then moved so the path's edges become tight, and the
 * path flipped.  exp(u_i + v_j - c_ij) <= 1 gives the scaling
 *   dr_i = exp(u_i) / a_i,  dc_j = exp(v_j):  |dr_i A_ij dc_j| <= 1, = 1 on
 * the matching (Duff & Koster 2001, Sec. 4). */
#include "la/matching.h"

#include <math.h>
#include <string.h>

/* The k-th entry of row i's scan in a phase of direction dir: forward in
 * even phases, backward in odd ones (PF+'s fairness). */
static hpls_int scan_entry(const hpls_int *rp, hpls_int i, hpls_int k, int dir)
{
    return dir ? rp[i + 1] - 1 - k : rp[i] + k;
}

hpls_status hpls_match_transversal(const hpls_csr *A, hpls_int *colof, hpls_int *unmatched)
{
    if (!A || !colof || !unmatched || A->nrows != A->ncols)
        return hpls_fail(HPLS_ERR_ARG, "hpls_match_transversal: needs a square matrix");
    hpls_int n = A->nrows;
    const hpls_int *rp = A->rowptr;
    hpls_int *rowof = hpls_malloc(n, sizeof *rowof);     /* row matched to column j, or -1 */
    hpls_int *cheap = hpls_malloc(n, sizeof *cheap);     /* look-ahead pointer of each row */
    hpls_int *next = hpls_malloc(n, sizeof *next);       /* entries a row on the path has tried */
    hpls_int *visited = hpls_malloc(n, sizeof *visited); /* phase in which column j was seen */
    hpls_int *rows = hpls_malloc(n, sizeof *rows);       /* the path: rows ... */
    hpls_int *cols = hpls_malloc(n, sizeof *cols);       /* ... and the column leading on */
    hpls_status st = HPLS_OK;
    if (!rowof || !cheap || !next || !visited || !rows || !cols) {
        st = HPLS_ERR_NOMEM;
        goto done;
    }
    for (hpls_int k = 0; k < n; k++) {
        rowof[k] = colof[k] = visited[k] = -1;
        cheap[k] = rp[k];
    }
    hpls_int augmented = 1;
    for (hpls_int phase = 0; augmented; phase++) {
        augmented = 0;
        int dir = (int)(phase & 1);
        for (hpls_int root = 0; root < n; root++) {
            if (colof[root] >= 0)
                continue;
            hpls_int top = 0, found = -1;
            rows[0] = root;
            next[root] = 0;
            while (top >= 0 && found < 0) {
                hpls_int i = rows[top];
                while (cheap[i] < rp[i + 1] && found < 0) { /* look-ahead */
                    hpls_int p = cheap[i]++;
                    if (A->val[p] != 0.0 && rowof[A->colind[p]] < 0)
                        found = A->colind[p];
                }
                if (found >= 0)
                    break;
                /* every column of row i is matched: descend through one not
                 * seen in this phase (by any root: each column once a phase) */
                hpls_int deeper = -1;
                while (next[i] < rp[i + 1] - rp[i] && deeper < 0) {
                    hpls_int p = scan_entry(rp, i, next[i]++, dir);
                    hpls_int j = A->colind[p];
                    if (A->val[p] != 0.0 && visited[j] != phase) {
                        visited[j] = phase;
                        deeper = j;
                    }
                }
                if (deeper < 0) {
                    top--; /* dead end: back to the previous row */
                    continue;
                }
                cols[top] = deeper;
                rows[++top] = rowof[deeper];
                next[rows[top]] = 0;
            }
            if (found < 0)
                continue;
            augmented++;
            /* flip the path: rows[top] takes `found`, rows[k] takes cols[k] */
            for (hpls_int k = top; k >= 0; k--) {
                hpls_int j = k == top ? found : cols[k];
                colof[rows[k]] = j;
                rowof[j] = rows[k];
            }
        }
    }
    *unmatched = 0;
    for (hpls_int i = 0; i < n; i++)
        *unmatched += colof[i] < 0;
done:
    hpls_free(rowof);
    hpls_free(cheap);
    hpls_free(next);
    hpls_free(visited);
    hpls_free(rows);
    hpls_free(cols);
    return st;
}

hpls_int hpls_csr_zero_diagonals(const hpls_csr *A)
{
    hpls_int zeros = 0;
    for (hpls_int i = 0; i < A->nrows; i++) {
        double d = 0.0;
        for (hpls_int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++)
            d = A->colind[p] == i ? A->val[p] : d;
        zeros += d == 0.0;
    }
    return zeros;
}

/* A binary min-heap of columns keyed by d[], with each column's position
 * (pos[j] = -1: not in the heap) for the decrease-key of Dijkstra. */
typedef struct heap {
    hpls_int len;
    hpls_int *item, *pos;
    const double *d;
} heap;

static void heap_swap(heap *h, hpls_int a, hpls_int b)
{
    hpls_int t = h->item[a];
    h->item[a] = h->item[b];
    h->item[b] = t;
    h->pos[h->item[a]] = a;
    h->pos[h->item[b]] = b;
}

static void heap_up(heap *h, hpls_int k)
{
    while (k > 0 && h->d[h->item[(k - 1) / 2]] > h->d[h->item[k]]) {
        heap_swap(h, k, (k - 1) / 2);
        k = (k - 1) / 2;
    }
}

/* Inserts column j, or moves it up after its key decreased. */
static void heap_push(heap *h, hpls_int j)
{
    if (h->pos[j] < 0) {
        h->item[h->len] = j;
        h->pos[j] = h->len++;
    }
    heap_up(h, h->pos[j]);
}

static hpls_int heap_pop(heap *h)
{
    hpls_int top = h->item[0];
    heap_swap(h, 0, --h->len);
    h->pos[top] = -1;
    for (hpls_int k = 0;;) {
        hpls_int c = 2 * k + 1;
        if (c >= h->len)
            break;
        if (c + 1 < h->len && h->d[h->item[c + 1]] < h->d[h->item[c]])
            c++;
        if (h->d[h->item[k]] <= h->d[h->item[c]])
            break;
        heap_swap(h, k, c);
        k = c;
    }
    return top;
}

/* The HPLS_ERR_SINGULAR of a matrix without a perfect matching, with the
 * maximum transversal's count of the rows left over (colof: scratch). */
static hpls_status singular(const hpls_csr *A, hpls_int *colof)
{
    hpls_int unmatched = 0, row = 0;
    hpls_status st = hpls_match_transversal(A, colof, &unmatched);
    if (st != HPLS_OK)
        return st;
    while (row < A->nrows - 1 && colof[row] >= 0)
        row++;
    return hpls_fail(HPLS_ERR_SINGULAR,
                     "structurally singular: %lld of %lld rows cannot be matched to distinct "
                     "columns through nonzero entries (row %lld is one)",
                     (long long)unmatched, (long long)A->nrows, (long long)row + 1);
}

/* The workspace of the weighted matching. */
typedef struct wmatch {
    const hpls_csr *A;
    double *cost;    /* c_p of every entry (HUGE_VAL: a zero entry, never used) */
    double *u, *v;   /* dual variables of rows and columns */
    double *d;       /* Dijkstra distance of a column in the current search */
    hpls_int *colof; /* the matching, row -> column (-1 free) */
    hpls_int *rowof; /* column -> row (-1 free) */
    hpls_int *pred;  /* row from which a column was last reached */
    hpls_int *seen;  /* search in which d[j] was set (the root row) */
    hpls_int *fin;   /* columns finalised in the current search, in order */
    heap h;
} wmatch;

/* One shortest augmenting path from the free row root (returns 0 when no free
 * column can be reached: no perfect matching). */
static int augment(wmatch *w, hpls_int root)
{
    const hpls_csr *A = w->A;
    hpls_int nfin = 0, i = root, j = -1;
    double di = 0.0;
    for (;;) {
        for (hpls_int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++) {
            hpls_idx c = A->colind[p];
            if (w->cost[p] == HUGE_VAL || (w->seen[c] == root && w->h.pos[c] < 0))
                continue; /* a zero entry, or a column finalised already */
            double nd = di + hpls_maxd(0.0, w->cost[p] - w->v[c] - w->u[i]);
            if (w->seen[c] != root || nd < w->d[c]) {
                w->seen[c] = root;
                w->d[c] = nd;
                w->pred[c] = i;
                heap_push(&w->h, c);
            }
        }
        if (w->h.len == 0)
            return 0;
        j = heap_pop(&w->h);
        w->fin[nfin++] = j;
        if (w->rowof[j] < 0)
            break;
        i = w->rowof[j];
        di = w->d[j];
    }
    while (w->h.len > 0) /* the columns left in the heap keep their duals */
        heap_pop(&w->h);
    /* duals: scanned rows up by D - d_i, finalised columns down by D - d_j, so
     * reduced costs stay >= 0 and the path becomes tight */
    double D = w->d[j];
    w->u[root] += D;
    for (hpls_int k = 0; k < nfin - 1; k++) {
        hpls_int c = w->fin[k];
        w->v[c] -= D - w->d[c];
        w->u[w->rowof[c]] += D - w->d[c];
    }
    for (;;) { /* flip the path back to the root */
        hpls_int r = w->pred[j], before = w->colof[r];
        w->colof[r] = j;
        w->rowof[j] = r;
        if (r == root)
            return 1;
        j = before;
    }
}

/* Costs, initial duals (v_j = min_i c_ij, then u_i = min_j c_ij - v_j) and a
 * greedy matching on the entries they make tight. */
static void wmatch_start(wmatch *w, double *amax)
{
    const hpls_csr *A = w->A;
    hpls_int n = A->nrows;
    for (hpls_int j = 0; j < n; j++)
        w->v[j] = HUGE_VAL;
    for (hpls_int i = 0; i < n; i++) {
        amax[i] = 0.0;
        for (hpls_int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++)
            amax[i] = hpls_maxd(amax[i], fabs(A->val[p]));
        for (hpls_int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++) {
            w->cost[p] = A->val[p] != 0.0 ? log(amax[i]) - log(fabs(A->val[p])) : HUGE_VAL;
            w->v[A->colind[p]] = hpls_mind(w->v[A->colind[p]], w->cost[p]);
        }
    }
    for (hpls_int i = 0; i < n; i++) {
        w->u[i] = HUGE_VAL;
        hpls_int tight = -1;
        for (hpls_int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++) {
            hpls_idx j = A->colind[p];
            if (w->cost[p] == HUGE_VAL)
                continue;
            double r = w->cost[p] - w->v[j];
            if (r < w->u[i] ||
                (r == w->u[i] && tight >= 0 && w->rowof[tight] >= 0 && w->rowof[j] < 0)) {
                w->u[i] = r;
                tight = j;
            }
        }
        if (tight >= 0 && w->rowof[tight] < 0) {
            w->colof[i] = tight;
            w->rowof[tight] = i;
        }
    }
}

hpls_status hpls_match_product(const hpls_csr *A, hpls_int *colof, double *dr, double *dc)
{
    if (!A || !colof || A->nrows != A->ncols)
        return hpls_fail(HPLS_ERR_ARG, "hpls_match_product: needs a square matrix");
    hpls_int n = A->nrows;
    hpls_status st = HPLS_OK;
    wmatch w = {.A = A, .colof = colof};
    double *amax = hpls_malloc(n, sizeof *amax);
    w.cost = hpls_malloc(A->nnz, sizeof *w.cost);
    w.u = hpls_malloc(n, sizeof *w.u);
    w.v = hpls_malloc(n, sizeof *w.v);
    w.d = hpls_malloc(n, sizeof *w.d);
    w.rowof = hpls_malloc(n, sizeof *w.rowof);
    w.pred = hpls_malloc(n, sizeof *w.pred);
    w.seen = hpls_malloc(n, sizeof *w.seen);
    w.fin = hpls_malloc(n, sizeof *w.fin);
    w.h = (heap){
        .item = hpls_malloc(n, sizeof *w.h.item), .pos = hpls_malloc(n, sizeof *w.h.pos), .d = w.d};
    if (!amax || (!w.cost && A->nnz > 0) || !w.u || !w.v || !w.d || !w.rowof || !w.pred ||
        !w.seen || !w.fin || !w.h.item || !w.h.pos) {
        st = HPLS_ERR_NOMEM;
        goto done;
    }
    for (hpls_int k = 0; k < n; k++)
        colof[k] = w.rowof[k] = w.seen[k] = w.h.pos[k] = -1;
    wmatch_start(&w, amax);
    for (hpls_int i = 0; i < n && st == HPLS_OK; i++)
        if (colof[i] < 0 && !augment(&w, i))
            st = HPLS_ERR_SINGULAR;
    if (st == HPLS_ERR_SINGULAR) /* no augmenting path: no perfect matching; how far from one */
        st = singular(A, colof);
    for (hpls_int k = 0; st == HPLS_OK && k < n; k++) {
        double r = exp(w.u[k]) / amax[k], c = exp(w.v[k]);
        if (!(r > 0 && r < HUGE_VAL && c > 0 && c < HUGE_VAL))
            st = hpls_fail(HPLS_ERR_VALUE,
                           "matching scaling of row or column %lld is out of the "
                           "range of double (dual %g, %g)",
                           (long long)k + 1, w.u[k], w.v[k]);
        if (dr)
            dr[k] = r;
        if (dc)
            dc[k] = c;
    }
done:
    hpls_free(amax);
    hpls_free(w.cost);
    hpls_free(w.u);
    hpls_free(w.v);
    hpls_free(w.d);
    hpls_free(w.rowof);
    hpls_free(w.pred);
    hpls_free(w.seen);
    hpls_free(w.fin);
    hpls_free(w.h.item);
    hpls_free(w.h.pos);
    return st;
}
