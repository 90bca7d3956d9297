/* SPDX-License-Identifier: BSD-3-Clause */
/* gspike.h: g-Spike's factors and its per-partition kernels (gspike.c), shared
 * by the one-process solver and the distributed one (src/mpi/dist_gspike.c),
 * which runs the same steps of Algorithm 1 on each MPI rank's rows.
 *
 * A level's rows are [0, n) of dl, d, du (hpls_tridiag's layout); the arrays
 * below are indexed by those rows.  Every kernel works on D T, T's rows scaled
 * by f->rs (powers of two), without forming it. */
#ifndef HPLS_DIRECT_GSPIKE_H
#define HPLS_DIRECT_GSPIKE_H

#include "direct/direct.h"

enum {
    GS_SEQ_MAX = 128,  /* pieces below this many rows: sequential Givens-QR (Sec. 3.3) */
    GS_MIN_BLOCK = 64, /* automatic p keeps blocks at least this long */
    GS_REFINE_MAX = 3  /* steps of iterative refinement at most */
};
/* Spike growth above which the solve refines: Spike's backward error is about
 * eps times the spikes' size (the blocks' condition), not eps; #14 and #15 of
 * Table A.1 grow them to 1e8..1e20 (backward error 1e-10 and worse before the
 * refinement, 3e-17 after one step), the well-conditioned ids stay below 10. */
#define GS_GROWTH_REFINE 100.0

typedef struct gs_piece {
    hpls_int lo, hi;      /* rows [lo, hi) */
    hpls_real cl, cu;     /* couplings dl[lo] to the previous piece, du[hi-1] to the next */
    hpls_int p;           /* blocks; 1: sequential Givens-QR of the whole piece */
    hpls_int *bs;         /* p+1 block starts */
    hpls_real *zeta;      /* p: multiplier of the repair of block j (0: none) */
    int last_singular;    /* the last block is singular: its first m-1 rows only */
    hpls_real rmm_last;   /* then its (R_p)_mm */
    hpls_gspike *reduced; /* factors of the reduced system (p > 1) */
} gs_piece;

struct hpls_gspike {
    hpls_int n;
    int nt;                    /* threads of the factorization and the solves */
    hpls_int prow;             /* automatic partitions: rows per partition (0: nt of them) */
    double growth;             /* max |v|, |w| over this level and below: the spike growth */
    hpls_real *adl, *ad, *adu; /* a copy of T, kept (top level only) for the refinement */
    hpls_real *rs;             /* row scales: D = diag(rs), rs_i a power of two */
    hpls_real *c, *s;          /* rotation k acts on rows k, k+1 of its block */
    hpls_real *r0, *r1, *r2;   /* R~: diagonal, first and second super-diagonal */
    hpls_real *v, *w;          /* right and left spikes (NULL when every p is 1) */
    hpls_int npieces;
    gs_piece *pieces;
    hpls_int *order;    /* pieces in an order where each one's inputs are solved */
    hpls_int nsingular; /* blocks found singular, this level and below */
    hpls_int wlen;      /* solve workspace: the reduced unknowns, this level and below */
    double rmm_rel;     /* min |R_mm| / ||T_piece||_inf of the sequential pieces, all levels */
};

/* rs_i = 2^-e with 2^(e-1) <= max_j |T_ij| < 2^e (1 for a zero or non-finite row).
 * edges: dl[0] and du[n-1] are entries of these rows too (couplings to rows
 * outside [0, n): an MPI rank's part of T); 0: they are not read. */
void hpls_gspike_scale_rows(hpls_int n, const hpls_real *dl, const hpls_real *d,
                            const hpls_real *du, int edges, int nt, hpls_real *rs);

/* Factors for n rows with no pieces (rs, c, s, r0, r1, r2, v, w allocated,
 * not set): the blocks of one MPI rank. */
hpls_status hpls_gspike_rows_create(hpls_int n, int nt, hpls_gspike **f);

/* Step 2(i): Givens-QR of block [a, e) of D T (D = f->rs); returns ||A_j||_inf.
 * split > 0: a zero coupling between rows k and k+1 (dl[k+1] or du[k]) after a
 * leading part [a, k] whose last diagonal is below split times the norm so far
 * ends the block there, singular, (the rest is not factored): *end is where the
 * block ends (e without a split; end may be NULL when split is 0). */
double hpls_gspike_block_qr(const hpls_real *dl, const hpls_real *d, const hpls_real *du,
                            hpls_int a, hpls_int e, double split, hpls_int *end, hpls_gspike *f);

/* Step 2(ii)'s repair of block [a, e) toward the next column: column e-1 +=
 * zeta * column e (coupling: (D T)_{e-1,e}), zeta = +-1 with the sign that makes
 * |(R_j)_mm| grow (Sec. 2.2, Fig. 3).  Returns zeta. */
double hpls_gspike_block_repair(hpls_gspike *f, double coupling, hpls_int a, hpls_int e);

/* Step 2(iii): the spikes of block [a, e): v = R~^{-1} Q^T (vr[0] e_{m-1} + vr[1]
 * e_m), the block's column of B (NULL: none), or with short_last (the singular
 * last block: R~ = diag(R_11, 1)) the last column of R over R_11; w = R~^{-1}
 * Q^T (wr[0] e_1 + wr[1] e_2), its column of C (NULL: none).  Returns max |v|,
 * |w| over the block (infinite when one is not finite). */
double hpls_gspike_block_spikes(hpls_gspike *f, hpls_int a, hpls_int e, const double *vr,
                                const double *wr, int short_last);

/* y = Q_j^T y on rows [a, e). */
void hpls_gspike_apply_qt(const hpls_gspike *f, hpls_int a, hpls_int e, hpls_real *y);
/* y = R~^{-1} y on rows [a, e) (short_last: R~ = diag(R_11, 1)). */
void hpls_gspike_back_subst(const hpls_gspike *f, hpls_int a, hpls_int e, hpls_real *y,
                            int short_last);
/* Step 3(ii) on block [a, e): x~ = g - v tn - w bp, tn = t_{j+1} (or b_p of the
 * singular last block), bp = b_{j-1}. */
void hpls_gspike_block_recover(const hpls_gspike *f, hpls_int a, hpls_int e, double tn, double bp,
                               int short_last, hpls_real *x);

/* Step 3(i): the factors of a reduced system of order nr, its rows in pairs
 * (App. C, Fig. C.1), level its depth (for messages). */
hpls_status hpls_gspike_factor_reduced(hpls_int nr, const hpls_real *rdl, const hpls_real *rd,
                                       const hpls_real *rdu, int nt, double delta, int level,
                                       hpls_gspike **f);
/* x = T^{-1} b with f's factors, no refinement; work holds f->wlen values. */
void hpls_gspike_solve_work(const hpls_gspike *f, const hpls_real *b, hpls_real *x,
                            hpls_real *work);

#endif /* HPLS_DIRECT_GSPIKE_H */
