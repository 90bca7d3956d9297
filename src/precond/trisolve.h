/* trisolve.h: what the factored preconditioners dilu, dic (dilu.c) and ilu0
 * (ilu0.c) share: M = (forward sweep) (backward sweep), the choice of strategy
 * (trisolve=serial|levels|syncfree|auto), the M^-T sweeps over A^T, the
 * diagonal shift and the pivot check at setup. */
#ifndef HPLS_TRISOLVE_H
#define HPLS_TRISOLVE_H

#include "kernels/cpu/sptrsv.h"
#include "solver.h"

/* The order of the trisolve option's choices. */
enum { HPLS_TRI_SERIAL, HPLS_TRI_LEVELS, HPLS_TRI_SYNCFREE, HPLS_TRI_AUTO };

/* The pattern of one matrix (A or A^T) split into its triangles. */
typedef struct hpls_trisplit {
    const hpls_csr *A;
    hpls_int *lowend, *upbeg; /* see hpls_k_tri_split */
} hpls_trisplit;

typedef struct hpls_trifac {
    const char *name;      /* "dilu", "dic", "ilu0" */
    hpls_int n;
    int strategy;          /* what the user chose */
    int build;             /* strategy of the construction: auto builds syncfree (Table 2) */
    int chosen;            /* strategy of the sweeps; auto: the winner once decided */
    int trials;            /* auto: applications timed so far */
    double best[3];        /* auto: fastest application per strategy */
    hpls_trisplit a, at;   /* A, and A^T (at.A NULL unless the method needs M^-T) */
    hpls_sweep fwd, bwd;   /* z = M^-1 r: forward sweep r -> z, backward z -> z */
    hpls_sweep fwd_t, bwd_t; /* z = M^-T r, over A^T */
    hpls_sync sync;        /* ready flags of the syncfree strategies */
    hpls_real *vec[4];     /* numbers owned (E, 1/E, factor values ...), freed by destroy */
} hpls_trifac;

/* Allocates F for s (strategy, shift from s->opt), splits A (and s->op.At). */
hpls_status hpls_trifac_create(const hpls_solver *s, const char *name, hpls_trifac **F);
void hpls_trifac_destroy(void *F);
/* Builds the level sets the sweeps need and hands F to pc (apply, apply_t). */
hpls_status hpls_trifac_finish(hpls_trifac *F, hpls_pc *pc);
/* The diagonal M must keep: A_ii + shift sgn(A_ii) max_j |A_ij| (the shift
 * is the remedy for zero or tiny pivots). */
hpls_real hpls_trifac_diag(const hpls_trisplit *t, hpls_int i, double shift);
/* First row (in order) whose pivot piv[i] is not finite, tiny against the
 * row's largest entry, or (positive = 1) not positive: an HPLS_ERR_SINGULAR
 * naming the 1-based row and the remedy; HPLS_OK when there is none. */
hpls_status hpls_trifac_check(const hpls_trifac *F, const hpls_real *piv, const char *what,
                              int positive);

#endif /* HPLS_TRISOLVE_H */
