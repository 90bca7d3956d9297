/* SPDX-License-Identifier: BSD-3-Clause */
/* levels.c: level sets of a triangular dependency DAG (Wang, Liu 2022).
 * A row's level is one more than the largest level of the rows it depends on
 * (0 without dependencies).  Serially: one pass in dependency order.  Alg. 7:
 * the same recurrence with every row waiting only for the rows it reads,
 * through the ready flags of hpls_sync (no global synchronization).  Both are
 * followed by the stable counting sort of Alg. 2 lines 14-20 (order, off). */
#include "kernels/cpu/levels.h"

#include <omp.h>
#include <stdlib.h>

hpls_status hpls_sync_init(hpls_sync *S, hpls_int n)
{
    S->n = n;
    S->epoch = 0;
    atomic_init(&S->next, 0);
    S->ready = hpls_malloc(n, sizeof *S->ready);
    if (!S->ready)
        return HPLS_ERR_NOMEM;
    for (hpls_int i = 0; i < n; i++)
        atomic_init(&S->ready[i], 0u);
    return HPLS_OK;
}

void hpls_sync_free(hpls_sync *S)
{
    hpls_free(S->ready);
    S->ready = NULL;
}

unsigned hpls_sync_begin(hpls_sync *S)
{
    if (++S->epoch == 0) { /* wrapped: old flags could match, clear them */
        for (hpls_int i = 0; i < S->n; i++)
            atomic_store_explicit(&S->ready[i], 0u, memory_order_relaxed);
        S->epoch = 1;
    }
    atomic_store_explicit(&S->next, 0, memory_order_relaxed);
    return S->epoch;
}

void hpls_k_tri_split(int nt, const hpls_csr *A, hpls_int *lowend, hpls_int *upbeg)
{
#pragma omp parallel for schedule(static) num_threads(nt)
    for (hpls_int i = 0; i < A->nrows; i++) {
        hpls_int p = A->rowptr[i], end = A->rowptr[i + 1];
        while (p < end && A->colind[p] < i)
            p++;
        if (lowend)
            lowend[i] = p;
        if (upbeg)
            upbeg[i] = p < end && A->colind[p] == i ? p + 1 : p;
    }
}

hpls_tri hpls_tri_of(const hpls_csr *A, int upper, const hpls_int *lowend, const hpls_int *upbeg,
                     const hpls_real *val)
{
    return (hpls_tri){.n = A->nrows,
                      .lo = upper ? upbeg : A->rowptr,
                      .hi = upper ? A->rowptr + 1 : lowend,
                      .col = A->colind,
                      .val = val,
                      .upper = upper};
}

/* Alg. 7: rows claimed in dependency order; row i waits for each j it reads. */
static void levels_syncfree(int nt, const hpls_tri *T, hpls_sync *S, hpls_int *level)
{
    hpls_int n = T->n;
    unsigned epoch = hpls_sync_begin(S);
#pragma omp parallel num_threads(nt)
    {
        hpls_int k;
        while ((k = hpls_sync_claim(S)) < n) {
            hpls_int kend = k + HPLS_SYNC_CHUNK < n ? k + HPLS_SYNC_CHUNK : n;
            for (; k < kend; k++) {
                hpls_int i = T->upper ? n - 1 - k : k, left_max = -1;
                for (hpls_int p = T->lo[i]; p < T->hi[i]; p++) {
                    hpls_int j = T->col[p];
                    hpls_sync_wait(S, j, epoch);
                    left_max = level[j] > left_max ? level[j] : left_max;
                }
                level[i] = left_max + 1;
                hpls_sync_post(S, i, epoch);
            }
        }
    }
}

static void levels_serial(const hpls_tri *T, hpls_int *level)
{
    hpls_int n = T->n;
    for (hpls_int k = 0; k < n; k++) {
        hpls_int i = T->upper ? n - 1 - k : k, left_max = -1;
        for (hpls_int p = T->lo[i]; p < T->hi[i]; p++)
            left_max = level[T->col[p]] > left_max ? level[T->col[p]] : left_max;
        level[i] = left_max + 1;
    }
}

hpls_status hpls_levels_build(const hpls_tri *T, int nt, hpls_levels *L)
{
    hpls_int n = T->n;
    hpls_int *level = hpls_malloc(n, sizeof *level);
    hpls_sync S = {0};
    hpls_status st = HPLS_ERR_NOMEM;
    *L = (hpls_levels){0};
    if (!level)
        goto done;
    if (nt > 1) {
        if ((st = hpls_sync_init(&S, n)) != HPLS_OK)
            goto done;
        levels_syncfree(nt, T, &S, level);
    } else {
        levels_serial(T, level);
    }
    hpls_int nlev = 0;
    for (hpls_int i = 0; i < n; i++)
        nlev = level[i] + 1 > nlev ? level[i] + 1 : nlev;
    L->order = hpls_malloc(n, sizeof *L->order);
    L->off = hpls_calloc(nlev + 1, sizeof *L->off);
    if (!L->order || !L->off) {
        st = HPLS_ERR_NOMEM;
        hpls_levels_free(L);
        goto done;
    }
    L->nlev = nlev;
    /* Alg. 2 lines 14-20 as a counting sort: stable, rows increasing in a level */
    for (hpls_int i = 0; i < n; i++)
        L->off[level[i] + 1]++;
    for (hpls_int l = 0; l < nlev; l++)
        L->off[l + 1] += L->off[l];
    for (hpls_int i = 0; i < n; i++)
        L->order[L->off[level[i]]++] = i;
    for (hpls_int l = nlev; l > 0; l--) /* the fill advanced off[l] to off[l+1] */
        L->off[l] = L->off[l - 1];
    L->off[0] = 0;
    st = HPLS_OK;
done:
    hpls_sync_free(&S);
    hpls_free(level);
    return st;
}

void hpls_levels_free(hpls_levels *L)
{
    hpls_free(L->order);
    hpls_free(L->off);
    *L = (hpls_levels){0};
}

static int cmp_int(const void *a, const void *b)
{
    hpls_int x = *(const hpls_int *)a, y = *(const hpls_int *)b;
    return (x > y) - (x < y);
}

void hpls_levels_stats(const hpls_levels *L, hpls_int *min, hpls_int *median, hpls_int *max)
{
    *min = *median = *max = 0;
    hpls_int *size = hpls_malloc(L->nlev, sizeof *size);
    if (!size || L->nlev == 0) {
        hpls_free(size);
        return;
    }
    for (hpls_int l = 0; l < L->nlev; l++)
        size[l] = L->off[l + 1] - L->off[l];
    qsort(size, (size_t)L->nlev, sizeof *size, cmp_int);
    *min = size[0];
    *median = size[L->nlev / 2];
    *max = size[L->nlev - 1];
    hpls_free(size);
}
