/* SPDX-License-Identifier: BSD-3-Clause */
/* direct.h: the tridiagonal direct solvers (private to src/direct).
 *
 * Every method is a factorization built once and a solve with those factors,
 * so that repeated solves with the same T (HISA, ADI, line relaxation) pay only
 * the solve.  Rows use the layout of hpls_tridiag: row i reads
 * dl[i] x[i-1] + d[i] x[i] + du[i] x[i+1], with dl[0] = du[n-1] = 0.
 * A failed factorization returns its status with the message recorded by
 * hpls_fail (it names the 1-based row). */
#ifndef HPLS_DIRECT_H
#define HPLS_DIRECT_H

#include "core/internal.h"

#include <float.h>

/* ---- Thomas (thomas.c): LU without pivoting ------------------------------ */
typedef struct hpls_thomas {
    hpls_int n;
    hpls_real *dl;   /* n: the sub-diagonal, copied */
    hpls_real *cp;   /* n: du[i] / pivot_i, the multipliers of the back substitution */
    hpls_real *pinv; /* n: 1 / pivot_i */
    double growth;   /* max_i (|L||U|)_i / |T|_i in row sums (refine.c); Inf if not finite */
    double amp;      /* the sweeps' amplification of a rounding error: the largest product
                      * of a run of |dl_i / pivot_i| times that of a run of |cp_i| (each
                      * capped at 2^500; refine.c) */
    double xlim;     /* the guarded solve's bound on |y| and |x|: 2^998 / the largest
                      * |dl|, |d|, |du|, |cp| (at least 1) */
} hpls_thomas;

/* Factors T; a pivot that is zero, not finite, or below eps times its row's
 * size is an HPLS_ERR_SINGULAR naming the row. */
hpls_status hpls_thomas_factor(hpls_int n, const hpls_real *dl, const hpls_real *d,
                               const hpls_real *du, hpls_thomas *f);
/* x = T^{-1} b for one right-hand side (x may be b). */
void hpls_thomas_solve(const hpls_thomas *f, const hpls_real *b, hpls_real *x);
/* The same, with the same bits, but stopping before a step could overflow:
 * 0 when x is the solve's, else the 1-based row where it stopped (x is then
 * partly written).  A solved x has |x_i| <= f->xlim, so that T x cannot
 * overflow either (refine.c's solves). */
hpls_int hpls_thomas_solve_guarded(const hpls_thomas *f, const hpls_real *b, hpls_real *x);
void hpls_thomas_free(hpls_thomas *f);

/* ---- cyclic reduction (cr.c): HISA Sec. 5.1 ------------------------------ */
typedef struct hpls_cr {
    hpls_int n;
    int nt;            /* threads of the levels larger than CR_PARALLEL_MIN */
    int nlev;          /* levels: sizes n_0 = n, n_{l+1} = floor(n_l / 2), down to 1 */
    hpls_int *off;     /* nlev+1 offsets of the levels in the arrays below */
    hpls_real *l, *u;  /* the reduced coefficients of every level (Step 1) */
    hpls_real *dinv;   /* 1 / reduced diagonal */
    hpls_real *k1, *k2; /* multipliers of the b reduction at the odd equations */
    double growth;      /* max over the reductions of a row's entries after / before (refine.c) */
} hpls_cr;

hpls_status hpls_cr_factor(hpls_int n, const hpls_real *dl, const hpls_real *d,
                           const hpls_real *du, int nt, hpls_cr *f);
/* x = T^{-1} b (Steps 2 and 3); work holds off[nlev] - n values. */
void hpls_cr_solve(const hpls_cr *f, const hpls_real *b, hpls_real *x, hpls_real *work);
void hpls_cr_free(hpls_cr *f);

/* ---- refinement of the methods without pivoting (refine.c) ------------- */
/* Growth above which thomas and cr keep T and refine every solve: a row- or
 * column-dominant or positive definite T stays at or below 2 (the bits of
 * its solves unchanged); #1, #4, #14, #16 of Table A.1 reach 1e2..1e8. */
#define HPLS_TRIDIAG_GROWTH_REFINE 8.0
/* thomas's amplification (hpls_thomas.amp) above which its factors are
 * probed and refined as a growth above HPLS_TRIDIAG_GROWTH_REFINE would be:
 * past 1/eps a rounding error of the sweeps can outgrow x itself.  Measured
 * on Table A.1: 1 on the dominant ids, 2.6e13 at most where the growth
 * already refines (#1, #5 at n = 2^20), 3.4e15 on #13 (Dorr) at n = 512
 * (kept: the same bits), beyond 2^500 on #12 and #13 at 2^20, whose sweeps
 * overflowed. */
#define HPLS_TRIDIAG_AMP_REFINE (1.0 / DBL_EPSILON)
enum { HPLS_TRIDIAG_REFINE_MAX = 10 }; /* refinement steps at most */
typedef struct hpls_trefine {
    hpls_int n;
    int nt;                      /* threads of the residual */
    double xlim;                 /* an iterate beyond it is not refined (Inf: no bound) */
    hpls_real *dl, *d, *du, *rs; /* a copy of T, its row scales (hpls_gspike_equilibrate) */
} hpls_trefine;
/* x = T^{-1} b with a method's factors (ctx); x may be b.  Nonzero when the
 * solve stopped before an overflow (x then unusable). */
typedef hpls_int (*hpls_trefine_fn)(const void *ctx, const hpls_real *b, hpls_real *x);
hpls_status hpls_trefine_init(hpls_int n, const hpls_real *dl, const hpls_real *d,
                              const hpls_real *du, int nt, hpls_trefine *R);
void hpls_trefine_free(hpls_trefine *R);
/* r = b - T x; returns the componentwise backward error
 * max_i |r_i| / (|T||x| + |b|)_i (dgtrfs's), NaN when a row's is NaN. */
double hpls_trefine_residual(const hpls_trefine *R, const hpls_real *b, const hpls_real *x,
                             hpls_real *r);
/* The solve x = T^{-1} b, then refinement steps x += T^{-1}(b - T x) while
 * the backward error decreases and is above eps, HPLS_TRIDIAG_REFINE_MAX at
 * most; a step that made it worse, or whose solve or iterate would overflow,
 * is undone.  x may be b.  HPLS_ERR_SINGULAR (T needs pivoting, who: the
 * method) when the first solve would overflow. */
hpls_status hpls_trefine_solve(const hpls_trefine *R, const char *who, hpls_trefine_fn solve,
                               const void *ctx, const hpls_real *b, hpls_real *x);
/* The componentwise backward error the refined solve leaves on b = T v, v a
 * fixed pseudo-random vector of [-1, 1) (NaN when out of memory, Inf when
 * the solve would overflow): the probe of a factorization that refines. */
double hpls_trefine_probe(const hpls_trefine *R, hpls_trefine_fn solve, const void *ctx);
/* Above this backward error of the probe, a method without pivoting refuses
 * T (measured: 2.8e-16 at most where refinement converges on Table A.1, 0.4
 * and 1 on #14 at n = 2^20, cond 1e46, where it cannot); 32 eps keeps the
 * x of an accepted T within the 100x of dgtsv's. */
#define HPLS_TRIDIAG_PROBE_MAX (32 * DBL_EPSILON)
/* HPLS_OK when berr <= HPLS_TRIDIAG_PROBE_MAX, else HPLS_ERR_SINGULAR saying T
 * needs pivoting (who: the method; growth, amp, berr: the figures it names;
 * berr Inf: the probe's solve would overflow). */
hpls_status hpls_trefine_verdict(const char *who, double growth, double amp, double berr);
/* The solves of thomas's factors (ctx: an hpls_thomas) and cr's (ctx: below). */
typedef struct hpls_trefine_crctx {
    const hpls_cr *cr;
    hpls_real *work; /* off[nlev] - n values */
} hpls_trefine_crctx;
hpls_int hpls_trefine_thomas(const void *ctx, const hpls_real *b, hpls_real *x);
hpls_int hpls_trefine_cr(const void *ctx, const hpls_real *b, hpls_real *x);
/* After thomas's or cr's factorization fac (an hpls_thomas or hpls_cr, as m)
 * of T: when its growth exceeds HPLS_TRIDIAG_GROWTH_REFINE (or thomas's amp
 * HPLS_TRIDIAG_AMP_REFINE), R keeps T (R->n > 0, else R is empty) and the
 * probe decides; HPLS_ERR_SINGULAR (hpls_trefine_verdict) when T needs
 * pivoting. */
hpls_status hpls_trefine_setup(hpls_tridiag_method m, const void *fac, hpls_int n,
                               const hpls_real *dl, const hpls_real *d, const hpls_real *du, int nt,
                               hpls_trefine *R);

/* 1 when thomas's or cr's factors F refine every solve (tridiag_methods.c). */
int hpls_tridiag_factors_refine(const hpls_tridiag_factors *F);

/* ---- g-Spike (gspike.c): Venetis et al. 2015, Algorithm 1 ---------------- */
typedef struct hpls_gspike hpls_gspike;

/* nt: threads of the factorization and the solves;
 * p: partitions per irreducible piece (0: from n and nt);
 * delta: block j is singular when |(R_j)_mm| < delta * ||A_j||_inf (0: no repair);
 * refine: when the spikes grow beyond GS_GROWTH_REFINE or a block was repaired,
 * keep a copy of T and refine every solve (0: never; the plain Spike solve of the paper's tables). */
hpls_status hpls_gspike_factor(hpls_int n, const hpls_real *dl, const hpls_real *d,
                               const hpls_real *du, int nt, hpls_int p, double delta,
                               int refine, hpls_gspike **f);
/* x = T^{-1} b (x may be b). */
hpls_status hpls_gspike_solve(const hpls_gspike *f, const hpls_real *b, hpls_real *x);
void hpls_gspike_free(hpls_gspike *f);
/* Blocks the factorization found singular and repaired (all levels). */
hpls_int hpls_gspike_singular_blocks(const hpls_gspike *f);
/* min |R_mm| / ||T_piece||_inf over the sequentially factored pieces (all levels):
 * an upper bound on 1/cond(T) up to a modest factor (sigma_min(R) <= |R_mm|). */
double hpls_gspike_rcond_bound(const hpls_gspike *f);
/* max |v|, |w| of the spikes (all levels; infinite when one was not finite). */
double hpls_gspike_growth(const hpls_gspike *f);

/* The parts of the factorization a device's g-Spike (kernels/device/gspike.c)
 * shares, so that it partitions, scales and refines exactly as this one:
 *   how: the factorization's parameters; prow > 0 makes every automatic p
 *     len / prow (a device's many partitions) instead of one per thread, and
 *     level > 0 factors a reduced system of that level (blocks start at pairs
 *     of rows, App. C; no refinement there);
 *   hpls_gspike_partitions: p of an irreducible piece of len rows;
 *   hpls_gspike_blocks: the p + 1 block starts bs of the piece [lo, hi);
 *   hpls_gspike_equilibrate: rs_i = 2^-e with 2^(e-1) <= max_j |T_ij| < 2^e (1
 *     for a zero or non-finite row; e clamped so that 2^-e is a normal number). */
typedef struct hpls_gspike_how {
    int nt;        /* threads of the factorization and the solves */
    hpls_int p;    /* partitions of each piece of the top level (0: automatic) */
    hpls_int prow; /* automatic partitions: rows per partition (0: one per thread) */
    double delta;  /* as hpls_gspike_factor's */
    int refine;    /* as hpls_gspike_factor's */
    int level;     /* 0: T itself; L > 0: a reduced system at level L */
} hpls_gspike_how;
hpls_status hpls_gspike_factor_at(hpls_int n, const hpls_real *dl, const hpls_real *d,
                                  const hpls_real *du, const hpls_gspike_how *how,
                                  hpls_gspike **f);
hpls_int hpls_gspike_partitions(hpls_int len, hpls_int p_req, int nt, hpls_int prow);
void hpls_gspike_blocks(hpls_int lo, hpls_int hi, hpls_int p, int pairs, hpls_int *bs);
void hpls_gspike_equilibrate(hpls_int n, const hpls_real *dl, const hpls_real *d,
                             const hpls_real *du, int nt, hpls_real *rs);

/* ---- dominance.c: Varah's bound on 1/cond_1(T) from column dominance ---- */
typedef struct hpls_tridiag_dom {
    double cgap;  /* min over columns j of |d_j| - |du_{j-1}| - |dl_{j+1}| */
    double cnorm; /* ||T||_1 (Inf when an entry is not finite: no bound) */
} hpls_tridiag_dom;
/* The column terms rows [0, m) of T need from outside them: above, the |du|
 * of the row before them, below, the |dl| of the row after them (0 at T's
 * ends; a rank's neighbours' values on MPI ranks). */
typedef struct hpls_tridiag_dom_edge {
    double above, below;
} hpls_tridiag_dom_edge;
/* The gaps and sums of columns [0, m); several ranks' combine by min / max. */
void hpls_tridiag_dominance_rows(hpls_int m, const hpls_real *dl, const hpls_real *d,
                                 const hpls_real *du, const hpls_tridiag_dom_edge *e, int nt,
                                 hpls_tridiag_dom *out);
/* A lower bound on 1/cond_1(T) (0: T not diagonally dominant by columns). */
double hpls_tridiag_dominance_bound(const hpls_tridiag_dom *s, hpls_int n);
/* Above this bound T is taken as proven nonsingular and well-conditioned
 * without LU: partial pivoting's backward error (growth at most 2 on a
 * tridiagonal T) is a few eps ||T||_1, so dgttrf cannot meet an exactly zero
 * pivot on a T whose 1/cond_1 exceeds ~1e-14; sqrt(eps) leaves a wide margin. */
#define HPLS_TRIDIAG_DOMINANT_RCOND 1.4901161193847656e-08

/* The singularity test of every direct method (docs/bad_inputs.md), on T
 * itself so that no method, partition count, thread count or backend changes
 * it.  When the column dominance bound proves 1/cond_1(T) >= HPLS_TRIDIAG_DOMINANT_RCOND,
 * *rcond is that bound (one parallel pass, no LU); else HPLS_ERR_SINGULAR (the
 * message starts with who) when LU with partial pivoting (dgttrf) meets an
 * exactly zero pivot, or *rcond is dgtcon's estimate of 1/cond_1(T), below
 * DBL_EPSILON for an ill-conditioned T that is still solved (a small backward
 * error, with a warning).  nt: threads for the bound. */
hpls_status hpls_tridiag_condition(const hpls_tridiag *T, const char *who, int nt, double *rcond);
/* HPLS_ERR_VALUE naming the first row of T that holds NaN or Inf (who: the caller). */
hpls_status hpls_tridiag_check_finite(const hpls_tridiag *T, const char *who);

/* ---- LAPACK (lapack_gtsv.c): dgttrf / dgttrs, partial pivoting ---------- */
typedef struct hpls_lapack_gt {
    hpls_int n;
    hpls_real *dl, *d, *du, *du2; /* LU factors of dgttrf */
    int *ipiv;
    double anorm; /* ||T||_1 */
} hpls_lapack_gt;

hpls_status hpls_lapack_gt_factor(hpls_int n, const hpls_real *dl, const hpls_real *d,
                                  const hpls_real *du, hpls_lapack_gt *f);
/* dgtcon's estimate of 1 / cond_1(T) from the factors. */
hpls_status hpls_lapack_gt_rcond(const hpls_lapack_gt *f, double *rcond);
/* x = T^{-1} b for nrhs columns of n values (x may be b), nt threads across them. */
hpls_status hpls_lapack_gt_solve(const hpls_lapack_gt *f, int nt, hpls_int nrhs,
                                 const hpls_real *b, hpls_real *x);
void hpls_lapack_gt_free(hpls_lapack_gt *f);
/* One-shot dgtsv on copies (the reference of the accuracy tables): x = T^{-1} b. */
hpls_status hpls_lapack_gtsv(hpls_int n, const hpls_real *dl, const hpls_real *d,
                             const hpls_real *du, const hpls_real *b, hpls_real *x);

/* ---- test matrices with singular partitions (singular_blocks.c) -------- */
/* Makes count of the n/m diagonal blocks of order m exactly singular, spread
 * evenly: kind 18 shifts a Toeplitz (-1, 4, -1) block by its eigenvalue nearest
 * zero; kind 1 replaces a block by the tridiagonal form of B B^T, B random
 * m x (m-1) (the g-Spike paper, Sec. 4, Tables 3 and 4). */
hpls_status hpls_tridiag_singular_blocks(hpls_tridiag *T, hpls_int m, hpls_int count, int kind,
                                         uint64_t seed);

#endif /* HPLS_DIRECT_H */
