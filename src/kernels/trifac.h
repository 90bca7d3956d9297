/* SPDX-License-Identifier: BSD-3-Clause */
/* trifac.h: a factored triangular M (dilu, dic, ilu0) as its sweeps and a
 * device's construction read it: A's pattern split into its triangles, M's
 * triangles copied out, the sweeps and their copies on a device.
 * precond/trisolve.c builds it; a device's fac_build (backend.h,
 * kernels/device/factor.c) writes M's numbers into it, so it lives here,
 * below both. */
#ifndef HPLS_TRIFAC_H
#define HPLS_TRIFAC_H

#include "backend/backend.h"
#include "kernels/cpu/sptrsv.h"

/* The constructions a device builds (hpls_devops' fac_build). */
enum { HPLS_FAC_DILU, HPLS_FAC_ILU0 };

/* The pattern of one matrix (A or A^T) split into its triangles: row i of
 * M's pattern is A's positions [beg[i], end[i]): A->rowptr's, or with
 * trisolve=block only those in the columns of row i's own block (so the
 * blocks are factored in A itself, no block copied out of it). */
typedef struct hpls_trisplit {
    const hpls_csr *A;
    const hpls_int *beg, *end;
    hpls_int *lowend, *upbeg;  /* see hpls_k_tri_split */
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
    hpls_trisplit a, at;     /* A, and A^T (at.A NULL unless the method needs M^-T) */
    hpls_int *blk;           /* block: the first row of each thread's block (nt + 1) */
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
    double shift;  /* the diagonal shift option */
    int symmetric; /* dic */
    int faces;     /* dilu/dic, dilu_order=faces: OpenFOAM's order of operations */
    /* the numeric part of the setup: M's values from a.A (and at.A) on the
     * pattern, copies and schedules built before; run again by update */
    hpls_status (*numeric)(struct hpls_trifac *F);
    /* set when M's values are built on the device (be->d): run after the
     * sweeps' upload (their layout), at setup and at every update; numeric
     * then does only the host's part */
    hpls_status (*dev_numeric)(struct hpls_trifac *F);
} hpls_trifac;

#endif /* HPLS_TRIFAC_H */
