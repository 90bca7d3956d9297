/* SPDX-License-Identifier: BSD-3-Clause */
/* trisolve.h: what the factored preconditioners dilu, dic (dilu.c) and ilu0
 * (ilu0.c) share: M = (forward sweep) (backward sweep) over split copies of
 * M's triangles, the choice of strategy (trisolve=serial|levels|syncfree|auto|block),
 * the M^-T sweeps over A^T, the diagonal shift and the pivot check.  M's
 * description, hpls_trifac, is kernels/trifac.h's. */
#ifndef HPLS_TRISOLVE_H
#define HPLS_TRISOLVE_H

#include "kernels/trifac.h"
#include "precond/pc.h"

#include <math.h>

/* The trisolve option's choices, HPLS_TRI_*, are backend/backend.h's (a
 * device's sweeps take them). */
/* auto on the host with p >= 2 threads takes block when every block has at
 * least this many rows and A with its factor copies (24 bytes an entry)
 * outgrows the last-level cache: a serial sweep from memory runs at one
 * core's bandwidth, which the blocks multiply.  Measured at 2 threads on a
 * 32 MiB L3 (bench/results/trisolve.md, setup + solve with the iterations
 * each M costs, medians of 5): out of cache block took 0.71-0.79x the
 * one-thread M's fastest strategy (1e6 rows, +8 to +33% iterations); in
 * cache (2e4 to 1.3e5 rows) 0.69-0.92x, but up to 1.06x in single runs: a
 * margin within this machine's noise, which more iterations across block
 * boundaries (2-D problems, more threads) can turn, so there the one-thread
 * M stays. */
#define HPLS_TRI_AUTO_BLOCK_ROWS 50000

/* M itself, hpls_trifac, is kernels/trifac.h's (a device's construction
 * fills it). */
/* Allocates F for A on be (strategy from o), splits A (and At when the method
 * applies M^-T, else At is NULL). */
hpls_status hpls_trifac_create(hpls_backend *be, const hpls_csr *A, const hpls_csr *At,
                               const hpls_pcopts *o, const char *name, hpls_trifac **F);
void hpls_trifac_destroy(void *F);
/* Allocates F->low and F->up with the pattern of A's strictly lower and upper
 * parts and points fwd.T, bwd.T at them; the columns and values (zero) are
 * the caller's to fill (hpls_trifac_copy_pattern once, the values at each
 * numeric setup).  For trisolve=levels (and a device's auto
 * that picks levels) it first builds fwd.lev and bwd.lev and lays the copies
 * out in level order (the host's auto does so only when its trials keep
 * levels). */
hpls_status hpls_trifac_copies(hpls_trifac *F);
/* Builds the level sets the sweeps need and hands F to pc (apply, apply_t,
 * update: F->numeric on the new values). */
hpls_status hpls_trifac_finish(hpls_trifac *F, hpls_pc *pc);

/* The copies' columns alone (a device construction writes their values
 * there); reverse: the upper copy's rows backwards (dilu_order=faces). */
void hpls_trifac_copy_pattern(hpls_trifac *F, int reverse);

/* The pivot M must keep for diagonal entry d of a row whose largest |A_ij| is
 * big: d + shift sgn(d) big (the shift is the remedy for zero or tiny pivots). */
static inline double hpls_trifac_shifted(double d, double big, double shift)
{
    return shift == 0 ? d : d + (d < 0 ? -shift : shift) * big;
}

/* Whether pivot piv is unusable: not finite, tiny against the row's largest
 * entry big, or (sign = 1 or -1: M must be definite, every pivot of that sign)
 * of the other sign. */
static inline int hpls_trifac_bad_pivot(double piv, double big, int sign)
{
    return !isfinite(piv) || fabs(piv) <= 1e-14 * big || (sign && !(sign * piv > 0));
}

/* The HPLS_ERR_SINGULAR of the bad pivot piv of (0-based) row i: names the
 * 1-based row and the remedy (sign as hpls_trifac_bad_pivot's). */
hpls_status hpls_trifac_pivot_error(const hpls_trifac *F, hpls_int i, double piv, const char *what,
                                    int sign);

#endif /* HPLS_TRISOLVE_H */
