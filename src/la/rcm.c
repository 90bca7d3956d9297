/* SPDX-License-Identifier: BSD-3-Clause */
/* rcm.c: reverse Cuthill-McKee (Cuthill & McKee 1969; George & Liu, "Computer
 * Solution of Large Sparse Positive Definite Systems", 1981, Ch. 4).
 *
 *   G = the graph of A + A^T without the diagonal
 *   for each connected component (in order of its lowest unknown):
 *     start = a pseudo-peripheral node: from the component's lowest unknown,
 *             BFS; restart from a least-degree node of the last level while
 *             the eccentricity grows (George & Liu's algorithm)
 *     Cuthill-McKee: BFS from start, each node's unvisited neighbours queued
 *             by increasing degree (ties: lower index)
 *   reverse the whole order
 * It narrows the band, which keeps the x a row needs close to the row: the
 * locality the quad-tree also seeks (reorder=rcm runs every method on P A P^T). */
#include "la/rcm.h"

#include "la/matching.h"

#include <stdlib.h>
#include <string.h>

/* The symmetric pattern: neighbours of i are adj[ptr[i] .. ptr[i+1]-1]. */
typedef struct graph {
    hpls_int n;
    hpls_int *ptr;
    hpls_idx *adj;
} graph;

/* G = pattern of A + A^T without the diagonal: the union of each row of A and
 * of A^T (both sorted) merged without duplicates. */
static hpls_status graph_build(const hpls_csr *A, graph *G)
{
    hpls_csr *T = NULL;
    hpls_status st = hpls_csr_transpose(A, &T);
    if (st != HPLS_OK)
        return st;
    hpls_int n = A->nrows;
    G->n = n;
    G->ptr = hpls_malloc(n + 1, sizeof *G->ptr);
    G->adj = hpls_malloc(2 * A->nnz, sizeof *G->adj);
    if (!G->ptr || !G->adj) {
        hpls_csr_destroy(T);
        return HPLS_ERR_NOMEM;
    }
    hpls_int m = 0;
    G->ptr[0] = 0;
    for (hpls_int i = 0; i < n; i++) {
        hpls_int p = A->rowptr[i], pe = A->rowptr[i + 1];
        hpls_int q = T->rowptr[i], qe = T->rowptr[i + 1];
        while (p < pe || q < qe) {
            hpls_idx j;
            if (q == qe || (p < pe && A->colind[p] < T->colind[q]))
                j = A->colind[p++];
            else if (p == pe || T->colind[q] < A->colind[p])
                j = T->colind[q++];
            else {
                j = A->colind[p++];
                q++;
            }
            if (j != i)
                G->adj[m++] = j;
        }
        G->ptr[i + 1] = m;
    }
    hpls_csr_destroy(T);
    return HPLS_OK;
}

static int cmp_key(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* BFS from root over the unvisited (mark[v] != stamp) nodes: order[from ..]
 * gets the nodes level by level; with by_degree, each node's new neighbours are
 * queued by increasing degree (Cuthill-McKee), using key as scratch.  Marks the
 * nodes with stamp; returns the number of nodes reached and the first
 * position of the last level in *last. */
static hpls_int bfs(const graph *G, hpls_int root, hpls_int *mark, hpls_int stamp,
                    hpls_int *order, hpls_int from, int by_degree, uint64_t *key,
                    hpls_int *last, hpls_int *nlevels)
{
    hpls_int head = from, tail = from;
    order[tail++] = root;
    mark[root] = stamp;
    *nlevels = 0;
    while (head < tail) {
        hpls_int level_end = tail;
        *last = head;
        ++*nlevels;
        for (; head < level_end; head++) {
            hpls_int v = order[head], start = tail;
            for (hpls_int p = G->ptr[v]; p < G->ptr[v + 1]; p++) {
                hpls_idx u = G->adj[p];
                if (mark[u] != stamp) {
                    mark[u] = stamp;
                    order[tail++] = u;
                }
            }
            if (by_degree && tail - start > 1) {
                hpls_int cnt = tail - start;
                for (hpls_int k = 0; k < cnt; k++) {
                    hpls_int u = order[start + k];
                    key[k] = (uint64_t)(G->ptr[u + 1] - G->ptr[u]) << 32 | (uint64_t)u;
                }
                qsort(key, (size_t)cnt, sizeof *key, cmp_key);
                for (hpls_int k = 0; k < cnt; k++)
                    order[start + k] = (hpls_int)(key[k] & 0xffffffffu);
            }
        }
    }
    return tail - from;
}

hpls_status hpls_rcm(const hpls_csr *A, hpls_int *perm)
{
    if (!A || !perm || A->nrows != A->ncols)
        return hpls_fail(HPLS_ERR_ARG, "hpls_rcm: needs a square matrix and perm");
    hpls_int n = A->nrows;
    graph G = {0};
    hpls_int *mark = NULL, *scratch = NULL;
    uint64_t *key = NULL;
    hpls_status st = graph_build(A, &G);
    if (st != HPLS_OK)
        goto done;
    mark = hpls_calloc(n, sizeof *mark); /* 0: never reached; BFS stamps count up */
    scratch = hpls_malloc(n, sizeof *scratch);
    key = hpls_malloc(n, sizeof *key);
    if (!mark || !scratch || !key) {
        st = HPLS_ERR_NOMEM;
        goto done;
    }
    hpls_int placed = 0, stamp = 1;
    for (hpls_int s = 0; s < n; s++) {
        if (mark[s] != 0)
            continue;
        /* pseudo-peripheral node of s's component (George & Liu) */
        hpls_int root = s, last, nlev, ecc = -1;
        for (;;) {
            stamp++;
            hpls_int size = bfs(&G, root, mark, stamp, scratch, 0, 0, key, &last, &nlev);
            if (nlev <= ecc)
                break;
            ecc = nlev;
            hpls_int best = scratch[last];
            for (hpls_int k = last; k < size; k++) {
                hpls_int u = scratch[k], du = G.ptr[u + 1] - G.ptr[u];
                if (du < G.ptr[best + 1] - G.ptr[best])
                    best = u;
            }
            if (best == root)
                break;
            root = best;
        }
        /* Cuthill-McKee from root; stamp 1 marks the nodes placed for good */
        placed += bfs(&G, root, mark, 1, perm, placed, 1, key, &last, &nlev);
    }
    for (hpls_int k = 0; k < n / 2; k++) { /* reverse */
        hpls_int t = perm[k];
        perm[k] = perm[n - 1 - k];
        perm[n - 1 - k] = t;
    }
done:
    hpls_free(G.ptr);
    hpls_free(G.adj);
    hpls_free(mark);
    hpls_free(scratch);
    hpls_free(key);
    return st;
}

hpls_status hpls_csr_permute(const hpls_csr *A, const hpls_int *perm, hpls_csr **B)
{
    if (!perm)
        return hpls_fail(HPLS_ERR_ARG, "hpls_csr_permute: needs perm");
    return hpls_csr_scale_permute(A, perm, perm, NULL, NULL, B);
}

hpls_int hpls_csr_bandwidth(const hpls_csr *A)
{
    hpls_int bw = 0;
    for (hpls_int i = 0; i < A->nrows; i++)
        for (hpls_int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++) {
            hpls_int w = i > A->colind[p] ? i - A->colind[p] : A->colind[p] - i;
            bw = w > bw ? w : bw;
        }
    return bw;
}
