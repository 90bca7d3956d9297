/* SPDX-License-Identifier: BSD-3-Clause */
/* trisolve.h: what the factored preconditioners dilu, dic (dilu.c) and ilu0
 * (ilu0.c) share: M = (forward sweep) (backward sweep) over split copies of
 * M's triangles, the choice of strategy (trisolve=serial|levels|syncfree|auto|block),
 * the M^-T sweeps over A^T, the diagonal shift and the pivot check. */
#ifndef HPLS_TRISOLVE_H
#define HPLS_TRISOLVE_H

#include "kernels/cpu/sptrsv.h"
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
/* The constructions a device builds (hpls_devops' fac_build). */
enum { HPLS_FAC_DILU, HPLS_FAC_ILU0 };

/* The pattern of one matrix (A or A^T) split into its triangles: row i of
 * M's pattern is A's positions [beg[i], end[i]): A->rowptr's, or with
 * trisolve=block only those in the columns of row i's own block (so the
 * blocks are factored in A itself, no block copied out of it). */
typedef struct hpls_trisplit {
    const hpls_csr *A;
    const hpls_int *beg, *end;
    hpls_int *lowend, *upbeg; /* see hpls_k_tri_split */
    hpls_int *blkbeg, *blkend; /* block: beg and end, owned; else NULL */
} hpls_trisplit;

/* The strict lower (upper = 0) or upper triangle of t's pattern, values v
 * (NULL: A's) */
static inline hpls_tri hpls_trisplit_tri(const hpls_trisplit *t, int upper, const hpls_real *v)
{
    hpls_tri T = hpls_tri_of(t->A, upper, t->lowend, t->upbeg, v ? v : t->A->val);
    T.lo = upper ? t->upbeg : t->beg;
    T.hi = upper ? t->end : t->lowend;
    return T;
}

/* One strictly triangular part of M stored on its own (split storage): row i
 * is col/val[ptr[s] .. ptr[s+1]) of its slot s, values already multiplied by
 * the sweep's row factor, so a sweep streams this triangle only, not the whole
 * of A.  Slots are rows, or (slot given) the rows sorted by level (Alg. 4), so
 * that a level's parallel loop streams memory too. */
typedef struct hpls_tricopy {
    hpls_int *ptr; /* n+1 offsets, by slot */
    hpls_idx *col;
    hpls_real *val;
    hpls_int *slot; /* n: the slot of each row, or NULL (slot = row) */
} hpls_tricopy;

/* The slot of row i in c. */
static inline hpls_int hpls_tricopy_slot(const hpls_tricopy *c, hpls_int i)
{
    return c->slot ? c->slot[i] : i;
}

typedef struct hpls_trifac {
    const char *name; /* "dilu", "dic", "ilu0" */
    hpls_int n;
    hpls_backend *be; /* the vectors' backend; its threads run the builds and sweeps */
    int nt;           /* be->nthreads */
    int strategy;     /* what the user chose */
    int build;        /* strategy of the construction (auto: serial or block: hpls_trifac_create) */
    int chosen;       /* strategy of the sweeps; auto: the winner once decided */
    int trials;       /* auto: applications timed so far */
    double best[3];   /* auto: fastest application per strategy */
    char narrow[160]; /* levels too narrow, sweeps serial: why ("" otherwise) */
    hpls_trisplit a, at; /* A, and A^T (at.A NULL unless the method needs M^-T) */
    hpls_int *blk;       /* block: the first row of each thread's block (nt + 1) */
    hpls_tricopy low, up;    /* M's scaled triangles, read by fwd and bwd */
    hpls_sweep fwd, bwd;     /* z = M^-1 r: forward sweep r -> z, backward z -> z */
    hpls_sweep fwd_t, bwd_t; /* z = M^-T r, over A^T */
    hpls_sync sync;          /* ready flags of the syncfree strategies (allocated only for them) */
    hpls_dsweep *dev[4];     /* fwd, bwd, fwd_t, bwd_t on a device backend (be->d), else NULL */
    hpls_dfac *dfac;         /* device construction: A's pattern there (be->d's dilu_build) */
    hpls_real *vec[4];       /* numbers owned (E, 1/E, factor values ...), freed by destroy */
    /* dilu, dic on the host: for each strictly lower position p of a.A
     * (a.beg[i] <= p < a.lowend[i]; the others unset), the position of its
     * mirror A_ji in row j's upper part, or -1; and how many have one.  They
     * depend on the pattern only: found once at setup, read at every update */
    hpls_int *mirror;
    hpls_int pairs;
    double shift;            /* the diagonal shift option */
    int symmetric;           /* dic */
    int faces;               /* dilu/dic, dilu_order=faces: OpenFOAM's order of operations */
    /* the numeric part of the setup: M's values from a.A (and at.A) on the
     * pattern, copies and schedules built before; run again by update */
    hpls_status (*numeric)(struct hpls_trifac *F);
    /* set when M's values are built on the device (be->d): run after the
     * sweeps' upload (their layout), at setup and at every update; numeric
     * then does only the host's part */
    hpls_status (*dev_numeric)(struct hpls_trifac *F);
} hpls_trifac;

/* Allocates F for A on be (strategy from o), splits A (and At when the method
 * applies M^-T, else At is NULL). */
hpls_status hpls_trifac_create(hpls_backend *be, const hpls_csr *A, const hpls_csr *At,
                               const hpls_pcopts *o, const char *name, hpls_trifac **F);
void hpls_trifac_destroy(void *F);
/* Allocates F->low and F->up with the pattern of A's strictly lower and upper
 * parts and points fwd.T, bwd.T at them; the columns and values (zero) are
 * the caller's to fill (hpls_trifac_copy_pattern once, hpls_trifac_copy_values
 * at each numeric setup).  For trisolve=levels (and a device's auto
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

/* Row i of the copies' values from values v on A's pattern, their columns
 * laid out before (hpls_trifac_copy_pattern, with the same reverse): lower
 * entries times lscale, upper entries times uscale, the upper ones backwards
 * when reverse. */
static inline void hpls_trifac_copy_values(hpls_trifac *F, hpls_int i, const hpls_real *v,
                                           double lscale, double uscale, int reverse)
{
    hpls_int p0 = F->a.beg[i], le = F->a.lowend[i], ub = F->a.upbeg[i], end = F->a.end[i];
    hpls_real *lv = F->low.val + F->low.ptr[hpls_tricopy_slot(&F->low, i)] - p0;
    for (hpls_int p = p0; p < le; p++)
        lv[p] = v[p] * lscale;
    hpls_real *uv = F->up.val + F->up.ptr[hpls_tricopy_slot(&F->up, i)];
    if (reverse)
        for (hpls_int p = ub; p < end; p++)
            uv[end - 1 - p] = v[p] * uscale;
    else
        for (hpls_int p = ub; p < end; p++)
            uv[p - ub] = v[p] * uscale;
}

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
