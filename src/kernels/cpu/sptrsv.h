/* SPDX-License-Identifier: BSD-3-Clause */
/* sptrsv.h: sparse triangular sweeps (Wang, Liu, "GPU-based Parallel DILU
 * Preconditioning Technique", Computer Science 49(6), 2022): serial loops,
 * level scheduling (Alg. 4) and the synchronization-free schedule with per-row
 * ready flags (Alg. 5-6).  The sweep object is la/tri.h's, its level sets and
 * flags levels.h's.  Private to hpls: used by the dilu, dic and ilu0
 * preconditioners and by `hpls info`. */
#ifndef HPLS_SPTRSV_H
#define HPLS_SPTRSV_H

#include "kernels/cpu/levels.h"

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
/* The prefetch variant the sweeps of w run for the backend's pf: HPLS_PF_DEFAULT
 * as the products take it (kernels/cpu/prefetch.h: none when the copy and the
 * vectors fit in half the last-level cache), any other as it is.  Asked
 * outside parallel regions. */
int hpls_k_sweep_pf(const hpls_sweep *w, int pf);

#endif /* HPLS_SPTRSV_H */
