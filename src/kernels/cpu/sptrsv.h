/* SPDX-License-Identifier: BSD-3-Clause */
/* sptrsv.h: sparse triangular sweeps and the level sets of their dependency DAG
 * (Wang, Liu, "GPU-based Parallel DILU Preconditioning Technique", Computer
 * Science 49(6), 2022): serial loops, level scheduling (Alg. 2 / 7 to colour,
 * Alg. 4 to solve) and the synchronization-free schedule with per-row ready
 * flags (Alg. 5-7).  Private to hpls: used by the dilu, dic and ilu0
 * preconditioners and by `hpls info`. */
#ifndef HPLS_SPTRSV_H
#define HPLS_SPTRSV_H

#include "core/internal.h"

#include <stdatomic.h>
#include <threads.h>

/* One triangular part of a matrix, its rows stored in n slots: slot s holds
 * row i = row[s] (row NULL: i = s), whose dependencies are col[lo[s] .. hi[s])
 * with values val[...] (val may be NULL when only the pattern matters).  upper:
 * the dependencies are later rows, so natural rows are done from n-1 down to 0.
 * With row given, the slots are in level order (a copy sorted by level, Alg. 4),
 * so a level's rows are contiguous and every sweep walks the slots in order. */
typedef struct hpls_tri {
    hpls_int n;
    const hpls_int *lo, *hi; /* n entries each */
    const hpls_idx *col;
    const hpls_real *val;
    const hpls_int *row; /* n entries, or NULL */
    int upper;
} hpls_tri;

/* Level sets: the rows of level l are order[off[l] .. off[l+1]), in increasing
 * row number; every dependency of a row lies in an earlier level. */
typedef struct hpls_levels {
    hpls_int nlev;
    hpls_int *order; /* n rows sorted by level */
    hpls_int *off;   /* nlev + 1 offsets */
} hpls_levels;

/* The per-row ready flags of the synchronization-free schedule.  A row is ready
 * when its flag equals the current epoch, so starting a new sweep is one
 * increment, not n stores.  Rows are handed out in dependency order by the
 * shared counter `next`, HPLS_SYNC_CHUNK at a time, so every row a thread waits
 * for was claimed earlier by a running thread that reaches it without waiting
 * on anything later: no deadlock with any number of threads. */
typedef struct hpls_sync {
    hpls_int n;
    atomic_uint *ready; /* n flags */
    unsigned epoch;
    _Atomic hpls_int next;
} hpls_sync;
#define HPLS_SYNC_CHUNK 32

hpls_status hpls_sync_init(hpls_sync *S, hpls_int n);
void hpls_sync_free(hpls_sync *S);
/* Starts a sweep over all rows: returns the epoch its flags must reach. */
unsigned hpls_sync_begin(hpls_sync *S);

/* First row of the next chunk (>= n when all are handed out). */
static inline hpls_int hpls_sync_claim(hpls_sync *S)
{
    return atomic_fetch_add_explicit(&S->next, HPLS_SYNC_CHUNK, memory_order_relaxed);
}

/* Spins of hpls_sync_wait before it starts to yield: a producer that is
 * running posts within a chunk's time (microseconds), about this many pauses. */
#define HPLS_SYNC_SPINS 256

/* One pause in a spin loop: tells the core it is a spin (no memory-order
 * flush on exit, the sibling hardware thread gets the pipeline). */
static inline void hpls_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* Waits until row j is done (Alg. 5-7, lines 5-7); acquire: what row j's
 * thread wrote before posting is visible after.  Bounded spinning, then
 * thrd_yield (sched_yield) at every look: when the producer is descheduled
 * (another process holds its core, or more threads than cores) spinning on
 * would burn the waiter's whole time slice, while a yield hands the core to
 * whatever can run, the producer included.  Not a futex: that would make
 * every post check for sleepers, and the wait ends when a store lands. */
static inline void hpls_sync_wait(const hpls_sync *S, hpls_int j, unsigned epoch)
{
    unsigned spins = 0;
    while (atomic_load_explicit(&S->ready[j], memory_order_acquire) != epoch) {
        if (spins < HPLS_SYNC_SPINS) {
            spins++;
            hpls_cpu_relax();
        } else {
            thrd_yield();
        }
    }
}

/* Marks row i done (Alg. 5 line 11); release: its results are published. */
static inline void hpls_sync_post(hpls_sync *S, hpls_int i, unsigned epoch)
{
    atomic_store_explicit(&S->ready[i], epoch, memory_order_release);
}

/* lowend[i]: first position of row i with column >= i; upbeg[i]: first with
 * column > i (they differ by one when A_ii is stored).  Either may be NULL. */
void hpls_k_tri_split(int nt, const hpls_csr *A, hpls_int *lowend, hpls_int *upbeg);
/* The strictly lower (upper = 0) or strictly upper part of A as a hpls_tri,
 * from the arrays of hpls_k_tri_split and values val (A->val or a factor). */
hpls_tri hpls_tri_of(const hpls_csr *A, int upper, const hpls_int *lowend, const hpls_int *upbeg,
                     const hpls_real *val);

/* Level sets of T's DAG (T in natural order, row NULL): serially (one pass in
 * dependency order, nt <= 1), or by the synchronization-free colouring of
 * Alg. 7 on nt threads; same result. */
hpls_status hpls_levels_build(const hpls_tri *T, int nt, hpls_levels *L);
void hpls_levels_free(hpls_levels *L);
/* Smallest, median and largest level size. */
void hpls_levels_stats(const hpls_levels *L, hpls_int *min, hpls_int *median, hpls_int *max);

/* A triangular solve x_i = (bscale_i b_i - sum_{j in T_i} T_ij x_j) dinv_i
 * (bscale, dinv NULL: 1).  x may be b: row i reads b_i before writing x_i.
 * lev: the level sets of T's rows; when T is stored in level order they are
 * its slot order (T.row == lev.order). */
typedef struct hpls_sweep {
    hpls_tri T;
    const hpls_real *bscale, *dinv;
    hpls_levels lev; /* for the level-scheduled sweep (nlev 0: not built) */
    int pf;          /* HPLS_PF_* variant: whether and how the matrix streams are prefetched */
} hpls_sweep;

/* Every strategy sums row i's terms in the order of its columns, so the three
 * give bit-identical x; the parallel ones run on nt threads.  deadline (a
 * hpls_wtime() value, 0: none): past it, the parallel sweeps stop handing out
 * rows and finish the sweep serially; they return 1 then (x is complete and
 * the same either way), else 0.  trisolve=auto's trials use it. */
void hpls_k_sweep_serial(const hpls_sweep *w, const hpls_real *b, hpls_real *x);
int hpls_k_sweep_levels(int nt, const hpls_sweep *w, const hpls_real *b, hpls_real *x,
                        double deadline); /* Alg. 4 */
/* The sweep of a block-diagonal T (no entry couples two blocks; slots are
 * rows): block q, rows blk[q] .. blk[q+1]-1, swept serially by one of nt
 * threads, all blocks at once (trisolve=block). */
void hpls_k_sweep_blocks(int nt, const hpls_sweep *w, const hpls_int *blk, const hpls_real *b,
                         hpls_real *x);
int hpls_k_sweep_syncfree(int nt, const hpls_sweep *w, hpls_sync *S, const hpls_real *b,
                          hpls_real *x, double deadline); /* Alg. 6 */

#endif /* HPLS_SPTRSV_H */
