/* SPDX-License-Identifier: BSD-3-Clause */
/* levels.h: the level sets of a triangular dependency DAG and the per-row
 * ready flags of the synchronization-free schedule (levels.c; Wang, Liu 2022,
 * Alg. 2 and 7 to colour, Alg. 5-7's flags).  The sweeps of sptrsv.h use them;
 * nothing here uses the sweeps. */
#ifndef HPLS_LEVELS_H
#define HPLS_LEVELS_H

#include "la/tri.h"

#include <stdatomic.h>
#include <threads.h>

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

#endif /* HPLS_LEVELS_H */
