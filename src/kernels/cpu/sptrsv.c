/* SPDX-License-Identifier: BSD-3-Clause */
/* sptrsv.c: sparse triangular sweeps x_i = (bscale_i b_i - sum_j T_ij x_j) dinv_i
 * (Wang, Liu 2022): the plain loop, level scheduling (Alg. 4: the rows of a level
 * in one parallel loop, a barrier between levels) and the synchronization-free
 * sweep (Alg. 6: each row waits only for the rows it reads, through per-row
 * ready flags; rows handed out in dependency order, see hpls_sync).  One row
 * body for the three, so they agree bit for bit.  On a level-ordered T (row
 * given) every strategy walks the slots in order, which is a dependency
 * order, so the matrix is read as one stream. */
#include "kernels/cpu/sptrsv.h"
#include "kernels/cpu/prefetch.h"

#include <omp.h>

#define PF_STREAM 1024 /* entries ahead whose val and col are prefetched */

/* How far ahead of a row's terms the matrix streams are prefetched: a walk
 * over natural upper rows reads the copy backwards. */
static inline hpls_int pf_ahead(const hpls_tri *T)
{
    return T->upper && !T->row ? -PF_STREAM : PF_STREAM;
}

/* The matrix streams prefetched at position at, as the SpMV does (one
 * core's hardware prefetcher does not run far enough).  Always inlined: a
 * call whose only effect is a prefetch looks effect-free to GCC 12 -O2, which
 * dropped it, and with it every hint of the sweeps (prefetch_hints_compiled). */
__attribute__((always_inline)) static inline void prefetch_rows(const hpls_sweep *w, hpls_int at,
                                                                int loc)
{
    hpls_pf_hint(w->T.val + at, loc); /* loc one of three: predicted, not a constant */
    hpls_pf_hint(w->T.col + at, loc);
}

/* Row i from its terms p .. end-1: the one row body of every strategy.
 * scaled, inverted: whether bscale and dinv are given, constants where the
 * caller hoists them. */
static inline void row_body(const hpls_sweep *w, hpls_int i, hpls_int p, hpls_int end,
                            const hpls_real *b, hpls_real *x, int scaled, int inverted)
{
    const hpls_real *val = w->T.val;
    const hpls_idx *col = w->T.col;
    double v = scaled ? w->bscale[i] * b[i] : b[i];
    for (; p < end; p++)
        v -= val[p] * x[col[p]];
    x[i] = inverted ? v * w->dinv[i] : v;
}

/* Slot s (row i) of the sweep. */
static inline void sweep_row(const hpls_sweep *w, hpls_int s, hpls_int i, const hpls_real *b,
                             hpls_real *x)
{
    const hpls_tri *T = &w->T;
    if (hpls_pf_rows(w->pf))
        prefetch_rows(w, T->lo[s] + pf_ahead(T), hpls_pf_loc(w->pf));
    row_body(w, i, T->lo[s], T->hi[s], b, x, w->bscale != NULL, w->dinv != NULL);
}

/* The slot done k-th by a walk in dependency order. */
static inline hpls_int slot_of(const hpls_tri *T, hpls_int k)
{
    return T->upper && !T->row ? T->n - 1 - k : k;
}

/* The serial sweep, with scaled and inverted (row_body's) constants: no
 * row tests the factors.  Rows in natural order stored back to back (hi =
 * lo + 1, as the copies are) carry a row's end over as the next row's start:
 * one offset load a row.  (On a 2-D mesh's two terms a row, the per-row
 * tests and loads were most of a sweep's instructions.) */
static inline void serial_sweep(const hpls_sweep *w, const hpls_real *b, hpls_real *x, int scaled,
                                int inverted)
{
    const hpls_tri *T = &w->T;
    const hpls_int *ptr = T->lo;
    hpls_int n = T->n;
    int pf = hpls_pf_rows(w->pf);
    hpls_int ahead = pf_ahead(T);
    int loc = hpls_pf_loc(w->pf);
    if (T->row || T->hi != ptr + 1) {
        for (hpls_int k = 0; k < n; k++) {
            hpls_int s = slot_of(T, k);
            if (pf)
                prefetch_rows(w, T->lo[s] + ahead, loc);
            row_body(w, T->row ? T->row[s] : s, T->lo[s], T->hi[s], b, x, scaled, inverted);
        }
    } else if (T->upper) {
        hpls_int end = ptr[n];
        for (hpls_int i = n - 1; i >= 0; i--) {
            hpls_int p = ptr[i];
            if (pf)
                prefetch_rows(w, p + ahead, loc);
            row_body(w, i, p, end, b, x, scaled, inverted);
            end = p;
        }
    } else {
        hpls_int p = ptr[0];
        for (hpls_int i = 0; i < n; i++) {
            hpls_int end = ptr[i + 1];
            if (pf)
                prefetch_rows(w, p + ahead, loc);
            row_body(w, i, p, end, b, x, scaled, inverted);
            p = end;
        }
    }
}

void hpls_k_sweep_serial(const hpls_sweep *w, const hpls_real *b, hpls_real *x)
{
    if (w->bscale && w->dinv) /* dilu's M^-T backward */
        serial_sweep(w, b, x, 1, 1);
    else if (w->bscale) /* dilu's forward */
        serial_sweep(w, b, x, 1, 0);
    else if (w->dinv) /* ilu0's backward, dilu's M^-T forward */
        serial_sweep(w, b, x, 0, 1);
    else /* dilu's backward, ilu0's forward */
        serial_sweep(w, b, x, 0, 0);
}

void hpls_k_sweep_blocks(int nt, const hpls_sweep *w, const hpls_int *blk, const hpls_real *b,
                         hpls_real *x)
{
#pragma omp parallel num_threads(nt)
    {
        int t = omp_get_thread_num(), p = omp_get_num_threads();
        for (int q = t; q < nt; q += p) { /* every block, whatever team we get */
            hpls_int lo = blk[q], hi = blk[q + 1];
            if (w->T.upper)
                for (hpls_int i = hi - 1; i >= lo; i--)
                    sweep_row(w, i, i, b, x);
            else
                for (hpls_int i = lo; i < hi; i++)
                    sweep_row(w, i, i, b, x);
        }
    }
}

/* Levels l.. of the sweep, serially (the rest of a sweep stopped by its deadline). */
static void levels_rest(const hpls_sweep *w, hpls_int l, const hpls_real *b, hpls_real *x)
{
    const hpls_levels *L = &w->lev;
    for (hpls_int off = L->off[l]; off < w->T.n; off++)
        sweep_row(w, w->T.row ? off : L->order[off], L->order[off], b, x);
}

int hpls_k_sweep_levels(int nt, const hpls_sweep *w, const hpls_real *b, hpls_real *x,
                        double deadline)
{
    const hpls_levels *L = &w->lev;
    const hpls_int *row = w->T.row;
    /* Thread 0 looks at the clock as it starts level l and, late, stores l:
     * every thread stops before level l + 1, which it reaches only after the
     * barrier ending level l, hence after the store; a thread still at level
     * l or before reads l or -1 and goes on, so all stop at the same level. */
    _Atomic hpls_int late = -1;
#pragma omp parallel num_threads(nt)
    {
        int watch = deadline > 0 && omp_get_thread_num() == 0;
        for (hpls_int l = 0; l < L->nlev; l++) { /* Alg. 4 line 1; the loop ends in a barrier */
            hpls_int seen = atomic_load_explicit(&late, memory_order_acquire);
            if (seen >= 0 && seen < l)
                break;
            if (watch && seen < 0 && hpls_wtime() > deadline)
                atomic_store_explicit(&late, l, memory_order_release);
#pragma omp for schedule(static)
            for (hpls_int off = L->off[l]; off < L->off[l + 1]; off++)
                sweep_row(w, row ? off : L->order[off], L->order[off], b, x);
        }
    }
    hpls_int stop = atomic_load_explicit(&late, memory_order_relaxed);
    if (stop < 0 || stop + 1 >= L->nlev)
        return stop >= 0;
    levels_rest(w, stop + 1, b, x);
    return 1;
}

/* Chunks between two looks at the clock of a syncfree sweep with a deadline. */
#define CLOCK_CHUNKS 16

int hpls_k_sweep_syncfree(int nt, const hpls_sweep *w, hpls_sync *S, const hpls_real *b,
                          hpls_real *x, double deadline)
{
    const hpls_tri *T = &w->T;
    hpls_int n = T->n;
    unsigned epoch = hpls_sync_begin(S);
    /* Late: no thread claims a chunk any more; the chunks claimed are done
     * (each waits only on earlier chunks, all claimed), the rest serially. */
    atomic_int late = 0;
#pragma omp parallel num_threads(nt)
    {
        hpls_int k;
        while (!atomic_load_explicit(&late, memory_order_relaxed) && (k = hpls_sync_claim(S)) < n) {
            hpls_int kend = k + HPLS_SYNC_CHUNK < n ? k + HPLS_SYNC_CHUNK : n;
            hpls_int first = slot_of(T, k); /* natural rows of this chunk are done in order */
            if (deadline > 0 && k / HPLS_SYNC_CHUNK % CLOCK_CHUNKS == 0 && hpls_wtime() > deadline)
                atomic_store_explicit(&late, 1, memory_order_relaxed);
            for (; k < kend; k++) {
                hpls_int s = slot_of(T, k), i = T->row ? T->row[s] : s;
                for (hpls_int p = T->lo[s]; p < T->hi[s]; p++) {
                    hpls_int j = T->col[p];
                    /* Alg. 6 lines 5-7; level order: any row may be elsewhere, waits
                     * on rows already done return at once */
                    if (T->row || (T->upper ? j > first : j < first))
                        hpls_sync_wait(S, j, epoch);
                }
                sweep_row(w, s, i, b, x);
                hpls_sync_post(S, i, epoch);
            }
        }
    }
    hpls_int done = atomic_load_explicit(&S->next, memory_order_relaxed);
    if (done >= n)
        return 0;
    for (hpls_int k = done; k < n; k++) { /* the region's end made every row visible */
        hpls_int s = slot_of(T, k);
        sweep_row(w, s, T->row ? T->row[s] : s, b, x);
    }
    return 1;
}

int hpls_k_sweep_pf(const hpls_sweep *w, int pf)
{
    /* the copy's entries (value, column), its offsets, b, x, bscale and dinv */
    const hpls_tri *T = &w->T;
    hpls_int n = T->n, nnz = n > 0 ? T->hi[n - 1] - T->lo[0] : 0;
    return hpls_pf_sized(pf, 12.0 * (double)nnz + 40.0 * (double)n);
}
