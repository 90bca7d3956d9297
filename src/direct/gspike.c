/* SPDX-License-Identifier: BSD-3-Clause */
/* gspike.c: g-Spike, the partitioned tridiagonal solver of Venetis, Kouris,
 * Sobczyk, Gallopoulos, Sameh (Parallel Computing 2015), Algorithm 1:
 *
 *   0. split T at zero off-diagonal entries into irreducible pieces (Sec. 2.1),
 *      solved in an order that respects the one-way couplings between them;
 *      first, every row is scaled by a power of two that brings its largest
 *      entry into [1/2, 1): each level factors D T and solves D T x = D b;
 *   1. partition a piece into p blocks A_j (Eq. 2);
 *   2. (i) Givens-QR of each block, R_j = Q_j^T A_j of bandwidth 3 (App. B);
 *      (ii) |(R_j)_mm| < delta ||A_j||: block j is singular (Prop. 2.2); if j < p
 *      add zeta_j times the next column to its last one, the "welcome fill-in"
 *      (Sec. 2.2, Fig. 3), zeta_j = +-1 with the sign that makes the corner grow;
 *      a singular last block keeps only its first m-1 rows (Sec. 2.2, end);
 *      (iii) the spikes v_j = R~_j^{-1} Q_j^T B_j e_1, w_j = R~_j^{-1} Q_j^T C_j e_m;
 *   3. (i) the reduced system of the blocks' end unknowns, permuted to
 *      tridiagonal form (App. C, Fig. C.1) and solved by g-Spike again, which
 *      uses sequential Givens-QR below 128 unknowns (Sec. 3.3); (ii) recover
 *      x~ = g - v t_{j+1} - w b_{j-1}; (iii) x = P_mu x~ (Prop. 2.3).
 *
 * Factor once (steps 0-2 and the reduced system's factors), solve many (Q^T f,
 * back substitution, reduced solve, recovery).  The per-partition kernels
 * (gspike.h: block QR, repair, spikes, recovery) are shared with g-Spike on
 * MPI ranks (src/mpi/dist_gspike.c).
 *
 * Accuracy: Spike's backward error is about eps times the spikes' size (the
 * blocks' condition), not eps: on Table A.1's #14 and #15 (random, diagonal
 * 1e-8 or 0) Algorithm 1 alone leaves 1e-10 (the paper's Table 2: 8.6e-11).
 * When the spikes grow beyond GS_GROWTH_REFINE or a block was repaired, the
 * factorization keeps a copy of T and each solve refines (fixed precision,
 * as LAPACK's dgtrfs): one or two steps bring those backward errors to 3e-17.
 *
 * Row equilibration: Givens-QR and the test |R_mm| < delta ||A_j|| are not
 * invariant under row scaling: with rows scaled by 10^U(-150, 150), a
 * dominant T had its blocks found "singular" and "repaired" (wrong answers
 * at p = 128, refusals at p = 1 and 64).  D T does not depend on the rows'
 * scales (exactly so for powers of two, which also make D T and D b exact),
 * so neither does anything computed from it: the test, the repair, the
 * spikes, the reduced system (equilibrated again at its own level), the
 * refinement's stopping test, and the answer, bit for bit.
 *
 * Storage: the rotations (c, s), R (three diagonals), the spikes (v, w) and
 * the row scales: 8n values, plus 3n (the copy of T) when refining.  The
 * paper's 5n + O(p) is for a one-shot solve that overwrites its input with R
 * and the spikes and applies each rotation to f as it is made; keeping Q and
 * the spikes apart from T, so that any later right-hand side costs only the
 * solve, is what the extra 2n buys.  (Storing each rotation as one number, Stewart's encoding,
 * would save n at the price of a square root per row in every solve.) */
#include "direct/gspike.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

/* sqrt(a^2 + b^2) without the cost of hypot when no overflow or underflow threatens. */
static inline double givens_norm(double a, double b)
{
    double t = a * a + b * b;
    return t > 1e-290 && t < 1e290 ? sqrt(t) : hypot(a, b);
}

/* Entry k of a diagonal of D T: T's times its row's scale (the same bits as a
 * scaled copy, without making one). */
static inline double sc(const hpls_real *v, const hpls_real *rs, hpls_int k)
{
    return v[k] * rs[k];
}

/* Step 2(i): Givens-QR of rows [a, e) of D T.  Rotation k zeroes dl[k+1] against the
 * current diagonal: row k of R reads (r, c beta + s d_{k+1}, s du_{k+1}), and the
 * rotated row k+1 starts (-s beta + c d_{k+1}, c du_{k+1}).  Returns ||A_j||_inf.
 * The split test (MPI ranks' blocks, which are not cut into irreducible pieces
 * first): at a zero coupling the current diagonal alpha is R_mm of the leading
 * part [a, k]; when it is tiny (or zero: rows of zeros, whose norm is 0) that
 * part is a singular block coupled to the rest one way only, which no later
 * rotation could repair (gspike.h). */
double hpls_gspike_block_qr(const hpls_real *dl, const hpls_real *d, const hpls_real *du,
                            hpls_int a, hpls_int e, double split, hpls_int *end, hpls_gspike *f)
{
    const hpls_real *rs = f->rs;
    double alpha = sc(d, rs, a), beta = a + 1 < e ? sc(du, rs, a) : 0.0;
    double norm = fabs(alpha) + fabs(beta);
    hpls_int k = a;
    for (; k + 1 < e; k++) {
        double low = sc(dl, rs, k + 1), dk = sc(d, rs, k + 1);
        if (split > 0.0 && (low == 0.0 || du[k] == 0.0) &&
            (fabs(alpha) < split * norm || alpha == 0.0))
            break;
        double up = k + 2 < e ? sc(du, rs, k + 1) : 0.0;
        double r = givens_norm(alpha, low);
        double c = r > 0 ? alpha / r : 1.0, s = r > 0 ? low / r : 0.0;
        f->c[k] = c;
        f->s[k] = s;
        f->r0[k] = r;
        f->r1[k] = c * beta + s * dk;
        f->r2[k] = s * up;
        alpha = c * dk - s * beta;
        beta = c * up;
        double row = fabs(low) + fabs(dk) + fabs(up);
        norm = row > norm ? row : norm;
    }
    f->r0[k] = alpha;
    f->r1[k] = 0.0;
    f->r2[k] = 0.0;
    if (end)
        *end = k + 1;
    return norm;
}

void hpls_gspike_apply_qt(const hpls_gspike *f, hpls_int a, hpls_int e, hpls_real *y)
{
    const hpls_real *c = f->c, *s = f->s;
    double t0 = y[a];
    for (hpls_int k = a; k + 1 < e; k++) {
        double t1 = y[k + 1];
        y[k] = c[k] * t0 + s[k] * t1;
        t0 = c[k] * t1 - s[k] * t0;
    }
    y[e - 1] = t0;
}

/* short_last: the singular last block, whose last column and last row are left out. */
void hpls_gspike_back_subst(const hpls_gspike *f, hpls_int a, hpls_int e, hpls_real *y,
                            int short_last)
{
    const hpls_real *r0 = f->r0, *r1 = f->r1, *r2 = f->r2;
    hpls_int top = short_last ? e - 2 : e - 1;
    double y1 = 0.0, y2 = 0.0; /* y[k+1], y[k+2] */
    for (hpls_int k = top; k >= a; k--) {
        double t = (y[k] - r1[k] * y1 - r2[k] * y2) / r0[k];
        y[k] = t;
        y2 = y1;
        y1 = t;
    }
}

double hpls_gspike_block_repair(hpls_gspike *f, double coupling, hpls_int a, hpls_int e)
{
    /* column e-1 += zeta * column e: in Q_j^T A that adds zeta * coupling * (s, c)
     * to the last column of R_j (Q_j = I for a block of one row) */
    int one = e - a == 1;
    double add = one ? coupling : coupling * f->c[e - 2];
    double zeta = (f->r0[e - 1] < 0) == (add < 0) ? 1.0 : -1.0;
    f->r0[e - 1] += zeta * add;
    if (!one)
        f->r1[e - 2] += zeta * coupling * f->s[e - 2];
    return zeta;
}

/* hpls_gspike_back_subst for a spike, stopped (returning 0) before a value
 * would pass DBL_MAX / 8: an exactly zero or tiny R_kk of a block left
 * unrepaired (delta = 0) must not divide by zero or overflow (trapFpe, make
 * check-fpe).  R's entries are below 2 (rows equilibrated into [1/2, 1)), so
 * neither the bound nor the next row's sum can overflow. */
static int spike_subst(const hpls_gspike *f, hpls_int a, hpls_int e, hpls_real *y, int short_last)
{
    const hpls_real *r0 = f->r0, *r1 = f->r1, *r2 = f->r2;
    hpls_int top = short_last ? e - 2 : e - 1;
    double y1 = 0.0, y2 = 0.0;
    for (hpls_int k = top; k >= a; k--) {
        double num = y[k] - r1[k] * y1 - r2[k] * y2;
        if (!isless(fabs(num), fabs(r0[k]) * (DBL_MAX / 8)))
            return 0;
        double t = num / r0[k];
        y[k] = t;
        y2 = y1;
        y1 = t;
    }
    return 1;
}

double hpls_gspike_block_spikes(hpls_gspike *f, hpls_int a, hpls_int e, const double *vr,
                                const double *wr, int short_last)
{
    hpls_real *v = f->v, *w = f->w;
    memset(v + a, 0, (size_t)(e - a) * sizeof *v);
    if (short_last) { /* the extra spike: last column of R over R_11 */
        if (e - 2 >= a)
            v[e - 2] = f->r1[e - 2];
        if (e - 3 >= a)
            v[e - 3] = f->r2[e - 3];
        if (!spike_subst(f, a, e, v, 1))
            return INFINITY;
    } else if (vr) {
        /* Q_j^T B_j: the rotations before row e-3 act on zeros (with vr[0] = 0,
         * rows e-2 and e-1 get coupling (s, c) of the last rotation) */
        if (e - 2 >= a)
            v[e - 2] = vr[0];
        v[e - 1] = vr[1];
        hpls_gspike_apply_qt(f, e - 3 > a ? e - 3 : a, e, v);
        if (!spike_subst(f, a, e, v, 0))
            return INFINITY;
    }
    memset(w + a, 0, (size_t)(e - a) * sizeof *w);
    if (wr) { /* Q_j^T C_j, the column before the block in its first two rows */
        w[a] = wr[0];
        if (a + 1 < e)
            w[a + 1] = wr[1];
        hpls_gspike_apply_qt(f, a, e, w);
        if (!spike_subst(f, a, e, w, short_last))
            return INFINITY;
    }
    /* NaN compares false: a non-finite spike makes the growth infinite */
    double growth = 0.0;
    for (hpls_int i = a; i < e; i++) {
        double g = fabs(v[i]) > fabs(w[i]) ? fabs(v[i]) : fabs(w[i]);
        if (!(g <= growth))
            growth = isnan(g) ? INFINITY : g;
    }
    return growth;
}

void hpls_gspike_block_recover(const hpls_gspike *f, hpls_int a, hpls_int e, double tn, double bp,
                               int short_last, hpls_real *x)
{
    hpls_int last = short_last ? e - 1 : e;
    for (hpls_int i = a; i < last; i++)
        x[i] -= f->v[i] * tn + f->w[i] * bp;
    if (last < e)
        x[e - 1] = tn;
}

static void free_levels(hpls_gspike *f)
{
    for (hpls_int i = 0; f->pieces && i < f->npieces; i++) {
        gs_piece *q = &f->pieces[i];
        hpls_free(q->bs);
        hpls_free(q->zeta);
        hpls_gspike_free(q->reduced);
    }
    hpls_free(f->pieces);
    hpls_free(f->order);
    hpls_free(f->c);
    hpls_free(f->s);
    hpls_free(f->r0);
    hpls_free(f->r1);
    hpls_free(f->r2);
    hpls_free(f->v);
    hpls_free(f->w);
    hpls_free(f->rs);
    hpls_free(f->adl);
    hpls_free(f->ad);
    hpls_free(f->adu);
}

void hpls_gspike_free(hpls_gspike *f)
{
    if (!f)
        return;
    free_levels(f);
    hpls_free(f);
}

double hpls_gspike_rcond_bound(const hpls_gspike *f) { return f->rmm_rel; }

double hpls_gspike_growth(const hpls_gspike *f) { return f->growth; }

hpls_int hpls_gspike_singular_blocks(const hpls_gspike *f) { return f ? f->nsingular : 0; }

/* Step 0: irreducible pieces, and an order in which to solve them: piece i+1
 * needs x of piece i when dl[lo_{i+1}] != 0, piece i needs piece i+1 when
 * du[hi_i - 1] != 0 (never both: the boundary is where one of them is zero). */
static hpls_status split_pieces(hpls_int n, const hpls_real *dl, const hpls_real *du,
                                const hpls_real *rs, hpls_gspike *f)
{
    hpls_int q = 1;
    for (hpls_int k = 0; k + 1 < n; k++)
        q += dl[k + 1] == 0.0 || du[k] == 0.0;
    f->pieces = hpls_calloc(q, sizeof *f->pieces);
    f->order = hpls_malloc(q, sizeof *f->order);
    hpls_int *indeg = hpls_malloc(q, sizeof *indeg);
    if (!f->pieces || !f->order || !indeg) {
        hpls_free(indeg);
        return HPLS_ERR_NOMEM;
    }
    f->npieces = q;
    hpls_int i = 0;
    f->pieces[0].lo = 0;
    for (hpls_int k = 0; k + 1 < n; k++)
        if (dl[k + 1] == 0.0 || du[k] == 0.0) {
            f->pieces[i].hi = k + 1;
            f->pieces[++i].lo = k + 1;
        }
    f->pieces[q - 1].hi = n;
    for (i = 0; i < q; i++) {
        gs_piece *pc = &f->pieces[i];
        pc->cl = i > 0 ? sc(dl, rs, pc->lo) : 0.0;
        pc->cu = i < q - 1 ? sc(du, rs, pc->hi - 1) : 0.0;
        indeg[i] = (pc->cl != 0.0) + (pc->cu != 0.0);
    }
    /* Kahn's algorithm on a path: order doubles as the queue */
    hpls_int head = 0, tail = 0;
    for (i = 0; i < q; i++)
        if (indeg[i] == 0)
            f->order[tail++] = i;
    while (head < tail) {
        i = f->order[head++];
        if (i + 1 < q && f->pieces[i + 1].cl != 0.0 && --indeg[i + 1] == 0)
            f->order[tail++] = i + 1;
        if (i > 0 && f->pieces[i - 1].cu != 0.0 && --indeg[i - 1] == 0)
            f->order[tail++] = i - 1;
    }
    hpls_free(indeg);
    return tail == q ? HPLS_OK : hpls_fail(HPLS_ERR_INTERNAL, "gspike: piece order incomplete");
}

static hpls_status factor_level(hpls_int n, const hpls_real *dl, const hpls_real *d,
                                const hpls_real *du, hpls_int p_req, double delta, int level,
                                int pairs, hpls_gspike *f);

/* Steps 2 and 3(i) for a piece of p >= 2 blocks.  pairs: T is a reduced system,
 * whose rows come in pairs (bottom of block j, top of block j+1) joined by ones;
 * blocks then start at pairs, so that no block holds a column of spike entries
 * only, which may all be tiny (App. C, Fig. C.2). */
static hpls_status factor_blocks(const hpls_real *dl, const hpls_real *d, const hpls_real *du,
                                 double delta, int level, int pairs, gs_piece *pc, hpls_gspike *f)
{
    hpls_int p = pc->p;
    const hpls_real *rs = f->rs;
    pc->bs = hpls_malloc(p + 1, sizeof *pc->bs);
    pc->zeta = hpls_malloc(p, sizeof *pc->zeta);
    if (!pc->bs || !pc->zeta)
        return HPLS_ERR_NOMEM;
    hpls_gspike_blocks(pc->lo, pc->hi, p, pairs, pc->bs);
    const hpls_int *bs = pc->bs;
    hpls_int nsing = 0;
    int last_singular = 0;
#pragma omp parallel for num_threads(f->nt) schedule(static) reduction(+ : nsing) reduction(| : last_singular)
    for (hpls_int j = 0; j < p; j++) { /* 2(i) and 2(ii) */
        hpls_int a = bs[j], e = bs[j + 1];
        double norm = hpls_gspike_block_qr(dl, d, du, a, e, 0.0, NULL, f);
        pc->zeta[j] = 0.0;
        if (!(fabs(f->r0[e - 1]) < delta * norm))
            continue;
        nsing++;
        if (j == p - 1) {
            last_singular = 1;
            continue;
        }
        pc->zeta[j] = hpls_gspike_block_repair(f, sc(du, rs, e - 1), a, e);
    }
    pc->last_singular = last_singular;
    pc->rmm_last = f->r0[bs[p] - 1];
    double growth = 0.0;
#pragma omp parallel for num_threads(f->nt) schedule(static) reduction(max : growth)
    for (hpls_int j = 0; j < p; j++) { /* 2(iii): the spikes */
        hpls_int a = bs[j], e = bs[j + 1];
        /* B_j: du[e-1] in the last row; C_j: column a-1 with the previous block's repair */
        double zp = j > 0 ? pc->zeta[j - 1] : 0.0;
        double vr[2] = {0.0, sc(du, rs, e - 1)};
        double wr[2] = {sc(dl, rs, a) + zp * sc(d, rs, a),
                        a + 1 < e ? zp * sc(dl, rs, a + 1) : 0.0};
        double g = hpls_gspike_block_spikes(f, a, e, j < p - 1 ? vr : NULL, j > 0 ? wr : NULL,
                                            j == p - 1 && last_singular);
        growth = g > growth ? g : growth;
    }
    if (!isfinite(growth))
        return hpls_fail(HPLS_ERR_SINGULAR, "gspike: a spike overflowed (level %d): the matrix is "
                                            "numerically singular",
                         level);
    f->growth = growth > f->growth ? growth : f->growth;
    /* 3(i): unknowns y = (t_2, b_1, t_3, b_2, ..., [b_p]) with t_j, b_j the first and
     * last unknowns of block j: the pentadiagonal reduced system with columns
     * swapped pairwise is tridiagonal (App. C, Fig. C.1) */
    hpls_int nr = 2 * p - 2 + last_singular;
    hpls_real *rdl = hpls_malloc(3 * nr, sizeof *rdl);
    if (!rdl)
        return HPLS_ERR_NOMEM;
    hpls_real *rd = rdl + nr, *rdu = rd + nr;
    for (hpls_int j = 0; j + 1 < p; j++) {
        hpls_int e = bs[j + 1], a1 = bs[j + 1];
        rdl[2 * j] = j > 0 ? f->w[e - 1] : 0.0; /* bottom row of block j */
        rd[2 * j] = f->v[e - 1];
        rdu[2 * j] = 1.0;
        rdl[2 * j + 1] = 1.0; /* top row of block j+1 */
        rd[2 * j + 1] = f->w[a1];
        rdu[2 * j + 1] = j + 2 < p || last_singular ? f->v[a1] : 0.0;
    }
    if (last_singular) { /* the last row of R_p: (R_p)_mm b_p + (Q^T C)_m b_{p-1} */
        rdl[nr - 1] = f->w[bs[p] - 1];
        rd[nr - 1] = pc->rmm_last;
        rdu[nr - 1] = 0.0;
    }
    const hpls_gspike_how how = {.nt = f->nt, .prow = f->prow, .delta = delta, .level = level + 1};
    hpls_status st = hpls_gspike_factor_at(nr, rdl, rd, rdu, &how, &pc->reduced);
    hpls_free(rdl);
    if (st == HPLS_OK) {
        /* pieces are solved one after another: they share the workspace */
        hpls_int need = nr + pc->reduced->wlen;
        f->wlen = need > f->wlen ? need : f->wlen;
        f->nsingular += nsing + pc->reduced->nsingular;
        f->rmm_rel = pc->reduced->rmm_rel < f->rmm_rel ? pc->reduced->rmm_rel : f->rmm_rel;
        f->growth = pc->reduced->growth > f->growth ? pc->reduced->growth : f->growth;
    }
    return st;
}

void hpls_gspike_blocks(hpls_int lo, hpls_int hi, hpls_int p, int pairs, hpls_int *bs)
{
    hpls_int unit = pairs ? 2 : 1, units = (hi - lo) / unit;
    for (hpls_int j = 0; j <= p; j++)
        bs[j] = lo + unit * (units / p * j + (j < units % p ? j : units % p));
    bs[p] = hi; /* a reduced system's odd last row joins the last block */
}

hpls_int hpls_gspike_partitions(hpls_int len, hpls_int p_req, int nt, hpls_int prow)
{
    hpls_int p;
    if (p_req > 0)
        p = p_req < len / 2 ? p_req : len / 2;
    else if (len < GS_SEQ_MAX)
        p = 1;
    else if (prow > 0)
        p = len / prow;
    else
        p = nt < len / GS_MIN_BLOCK ? nt : len / GS_MIN_BLOCK;
    return p < 1 ? 1 : p;
}

void hpls_gspike_equilibrate(hpls_int n, const hpls_real *dl, const hpls_real *d,
                             const hpls_real *du, int nt, hpls_real *rs)
{
    hpls_gspike_scale_rows(n, dl, d, du, 0, nt, rs);
}

/* e is clamped so that 2^-e is a normal number. */
void hpls_gspike_scale_rows(hpls_int n, const hpls_real *dl, const hpls_real *d,
                            const hpls_real *du, int edges, int nt, hpls_real *rs)
{
#pragma omp parallel for num_threads(nt) schedule(static)
    for (hpls_int i = 0; i < n; i++) {
        double m = fabs(d[i]);
        if ((i > 0 || edges) && fabs(dl[i]) > m)
            m = fabs(dl[i]);
        if ((i < n - 1 || edges) && fabs(du[i]) > m)
            m = fabs(du[i]);
        /* e and 2^-e from the bits (frexp and ldexp are library calls: as long as
         * the rest of the factorization); a subnormal m has a biased exponent 0 */
        uint64_t bits;
        memcpy(&bits, &m, sizeof bits);
        int e = m > 0.0 && isfinite(m) ? (int)(bits >> 52) - 1022 : 0;
        e = e < DBL_MIN_EXP ? DBL_MIN_EXP : e > -DBL_MIN_EXP ? -DBL_MIN_EXP : e;
        bits = (uint64_t)(1023 - e) << 52;
        memcpy(&rs[i], &bits, sizeof bits);
    }
}

/* Steps 0-3(i) of one level, on D T (f->rs). */
static hpls_status factor_level(hpls_int n, const hpls_real *dl, const hpls_real *d,
                                const hpls_real *du, hpls_int p_req, double delta, int level,
                                int pairs, hpls_gspike *f)
{
    f->n = n;
    f->rs = hpls_malloc(n, sizeof *f->rs);
    if (!f->rs)
        return HPLS_ERR_NOMEM;
    const hpls_real *rs = f->rs;
    hpls_gspike_scale_rows(n, dl, d, du, 0, f->nt, f->rs);
    hpls_status st = split_pieces(n, dl, du, rs, f);
    if (st != HPLS_OK)
        return st;
    int spikes = 0;
    for (hpls_int i = 0; i < f->npieces; i++) {
        gs_piece *pc = &f->pieces[i];
        hpls_int len = pc->hi - pc->lo;
        pc->p = hpls_gspike_partitions(len, p_req, f->nt, f->prow);
        spikes |= pc->p > 1;
    }
    f->c = hpls_malloc(n, sizeof *f->c);
    f->s = hpls_malloc(n, sizeof *f->s);
    f->r0 = hpls_malloc(n, sizeof *f->r0);
    f->r1 = hpls_malloc(n, sizeof *f->r1);
    f->r2 = hpls_malloc(n, sizeof *f->r2);
    if (spikes) {
        f->v = hpls_malloc(n, sizeof *f->v);
        f->w = hpls_malloc(n, sizeof *f->w);
    }
    if (!f->c || !f->s || !f->r0 || !f->r1 || !f->r2 || (spikes && (!f->v || !f->w)))
        return HPLS_ERR_NOMEM;
    /* sequential pieces are independent: factor them in parallel */
    hpls_int bad = -1;
    double rmin = 1.0;
#pragma omp parallel for num_threads(f->nt) schedule(dynamic, 64) reduction(max : bad) reduction(min : rmin)
    for (hpls_int i = 0; i < f->npieces; i++) {
        gs_piece *pc = &f->pieces[i];
        if (pc->p > 1)
            continue;
        hpls_gspike_block_qr(dl, d, du, pc->lo, pc->hi, 0.0, NULL, f);
        /* R_kk >= |dl_k+1| > 0 for k < m in an irreducible piece: only R_mm can
         * vanish; its size against the piece's norm says how near it comes */
        double tn = 0.0;
        for (hpls_int k = pc->lo; k < pc->hi; k++) {
            double row = fabs(sc(d, rs, k)) + (k > pc->lo ? fabs(sc(dl, rs, k)) : 0.0) +
                         (k + 1 < pc->hi ? fabs(sc(du, rs, k)) : 0.0);
            tn = row > tn ? row : tn;
        }
        double rmm = fabs(f->r0[pc->hi - 1]), rel = tn > 0.0 ? rmm / tn : 0.0;
        rmin = rel < rmin ? rel : rmin;
        if (rmm == 0.0 || !isfinite(rmm))
            bad = i > bad ? i : bad;
    }
    f->rmm_rel = rmin;
    if (bad >= 0) {
        if (level > 0)
            return hpls_fail(HPLS_ERR_SINGULAR,
                             "gspike: the reduced system (level %d) is "
                             "singular: the matrix is numerically singular",
                             level);
        return hpls_fail(HPLS_ERR_SINGULAR,
                         "gspike: R(%lld, %lld) = 0: the irreducible rows %lld..%lld are singular",
                         (long long)f->pieces[bad].hi, (long long)f->pieces[bad].hi,
                         (long long)f->pieces[bad].lo + 1, (long long)f->pieces[bad].hi);
    }
    for (hpls_int i = 0; i < f->npieces; i++)
        if (f->pieces[i].p > 1 &&
            (st = factor_blocks(dl, d, du, delta, level, pairs, &f->pieces[i], f)) != HPLS_OK)
            return st;
    return HPLS_OK;
}

hpls_status hpls_gspike_factor_reduced(hpls_int nr, const hpls_real *rdl, const hpls_real *rd,
                                       const hpls_real *rdu, int nt, double delta, int level,
                                       hpls_gspike **out)
{
    const hpls_gspike_how how = {.nt = nt, .delta = delta, .level = level};
    return hpls_gspike_factor_at(nr, rdl, rd, rdu, &how, out);
}

hpls_status hpls_gspike_rows_create(hpls_int n, int nt, hpls_gspike **out)
{
    *out = NULL;
    hpls_gspike *f = hpls_calloc(1, sizeof *f);
    if (!f)
        return HPLS_ERR_NOMEM;
    f->n = n;
    f->nt = nt;
    f->rmm_rel = 1.0;
    hpls_real **arrays[] = {&f->rs, &f->c, &f->s, &f->r0, &f->r1, &f->r2, &f->v, &f->w};
    for (size_t k = 0; k < sizeof arrays / sizeof *arrays; k++)
        if (!(*arrays[k] = hpls_malloc(n, sizeof **arrays[k]))) {
            hpls_gspike_free(f);
            return HPLS_ERR_NOMEM;
        }
    *out = f;
    return HPLS_OK;
}

hpls_status hpls_gspike_factor(hpls_int n, const hpls_real *dl, const hpls_real *d,
                               const hpls_real *du, int nt, hpls_int p, double delta, int refine,
                               hpls_gspike **out)
{
    const hpls_gspike_how how = {.nt = nt, .p = p, .delta = delta, .refine = refine};
    return hpls_gspike_factor_at(n, dl, d, du, &how, out);
}

hpls_status hpls_gspike_factor_at(hpls_int n, const hpls_real *dl, const hpls_real *d,
                                  const hpls_real *du, const hpls_gspike_how *how,
                                  hpls_gspike **out)
{
    *out = NULL;
    hpls_gspike *f = hpls_calloc(1, sizeof *f);
    if (!f)
        return HPLS_ERR_NOMEM;
    f->nt = how->nt;
    f->prow = how->prow;
    hpls_status st = n > 0 ? factor_level(n, dl, d, du, how->p, how->delta, how->level,
                                          how->level > 0, f)
                           : HPLS_OK;
    /* refine when the spikes grew or a block was repaired: the repaired blocks
     * of Tables 3-4 leave a backward error of 1e-15 that refinement takes to eps */
    if (st == HPLS_OK && how->refine && (f->growth > GS_GROWTH_REFINE || f->nsingular > 0)) {
        f->adl = hpls_malloc(n, sizeof *f->adl);
        f->ad = hpls_malloc(n, sizeof *f->ad);
        f->adu = hpls_malloc(n, sizeof *f->adu);
        if (!f->adl || !f->ad || !f->adu)
            st = HPLS_ERR_NOMEM;
        else {
            memcpy(f->adl, dl, (size_t)n * sizeof *dl);
            memcpy(f->ad, d, (size_t)n * sizeof *d);
            memcpy(f->adu, du, (size_t)n * sizeof *du);
        }
    }
    if (st != HPLS_OK) {
        hpls_gspike_free(f);
        return st;
    }
    *out = f;
    return HPLS_OK;
}

static void solve_level(const hpls_gspike *f, const hpls_real *b, hpls_real *x, hpls_real *work);

/* Steps 2 (on f), 3(i)-(iii) for a piece of p >= 2 blocks; x holds its f on entry;
 * work holds f->wlen values (the reduced unknowns y, then the levels below). */
static void solve_blocks(const hpls_gspike *f, const gs_piece *pc, hpls_real *x, hpls_real *work)
{
    hpls_int p = pc->p, nr = 2 * p - 2 + pc->last_singular;
    const hpls_int *bs = pc->bs;
    hpls_real *y = work;
#pragma omp parallel for num_threads(f->nt) schedule(static)
    for (hpls_int j = 0; j < p; j++) { /* g_j = R~_j^{-1} Q_j^T f_j */
        hpls_gspike_apply_qt(f, bs[j], bs[j + 1], x);
        hpls_gspike_back_subst(f, bs[j], bs[j + 1], x, j == p - 1 && pc->last_singular);
    }
    for (hpls_int j = 0; j + 1 < p; j++) {
        y[2 * j] = x[bs[j + 1] - 1];
        y[2 * j + 1] = x[bs[j + 1]];
    }
    if (pc->last_singular)
        y[nr - 1] = x[bs[p] - 1];
    solve_level(pc->reduced, y, y, work + nr);
#pragma omp parallel for num_threads(f->nt) schedule(static)
    for (hpls_int j = 0; j < p; j++) { /* x~_j = g_j - v_j t_{j+1} - w_j b_{j-1} */
        double tn = j + 1 < p ? y[2 * j] : pc->last_singular ? y[nr - 1] : 0.0;
        double bp = j > 0 ? y[2 * j - 1] : 0.0;
        hpls_gspike_block_recover(f, bs[j], bs[j + 1], tn, bp, j == p - 1 && pc->last_singular, x);
    }
    for (hpls_int j = 0; j + 1 < p; j++) /* x = P_mu x~ (Prop. 2.3) */
        if (pc->zeta[j] != 0.0)
            x[bs[j + 1]] += pc->zeta[j] * x[bs[j + 1] - 1];
}

/* Algorithm 1 on one level: the pieces in dependency order. */
static void solve_level(const hpls_gspike *f, const hpls_real *b, hpls_real *x, hpls_real *work)
{
    const hpls_real *rs = f->rs;
#pragma omp parallel for num_threads(f->nt) schedule(static)
    for (hpls_int i = 0; i < f->n; i++) /* D b */
        x[i] = rs[i] * b[i];
    for (hpls_int k = 0; k < f->npieces; k++) {
        const gs_piece *pc = &f->pieces[f->order[k]];
        if (pc->cl != 0.0) /* the previous piece is solved: move its term to the right */
            x[pc->lo] -= pc->cl * x[pc->lo - 1];
        if (pc->cu != 0.0)
            x[pc->hi - 1] -= pc->cu * x[pc->hi];
        if (pc->p > 1) {
            solve_blocks(f, pc, x, work);
        } else {
            hpls_gspike_apply_qt(f, pc->lo, pc->hi, x);
            hpls_gspike_back_subst(f, pc->lo, pc->hi, x, 0);
        }
    }
}

void hpls_gspike_solve_work(const hpls_gspike *f, const hpls_real *b, hpls_real *x, hpls_real *work)
{
    solve_level(f, b, x, work);
}

/* r = b - T x; returns the normwise backward error of the equilibrated system,
 * ||D r||_inf / (||D T||_inf ||x||_inf + ||D b||_inf). */
static double residual(const hpls_gspike *f, const hpls_real *b, const hpls_real *x, hpls_real *r)
{
    hpls_int n = f->n;
    double rn = 0.0, an = 0.0, xn = 0.0, bn = 0.0;
#pragma omp parallel for num_threads(f->nt) schedule(static) reduction(max : rn, an, xn, bn)
    for (hpls_int i = 0; i < n; i++) {
        double t = f->ad[i] * x[i], a = fabs(f->ad[i]);
        if (i > 0) {
            t += f->adl[i] * x[i - 1];
            a += fabs(f->adl[i]);
        }
        if (i < n - 1) {
            t += f->adu[i] * x[i + 1];
            a += fabs(f->adu[i]);
        }
        r[i] = b[i] - t;
        double s = f->rs[i], rr = s * fabs(r[i]), bb = s * fabs(b[i]);
        a *= s;
        rn = rr > rn ? rr : rn;
        an = a > an ? a : an;
        xn = fabs(x[i]) > xn ? fabs(x[i]) : xn;
        bn = bb > bn ? bb : bn;
    }
    double den = an * xn + bn;
    return den > 0 ? rn / den : 0.0;
}

/* The solve, then, when the spikes grew (f->ad kept), fixed-precision iterative
 * refinement x += T^{-1}(b - T x) with the same factors (Skeel 1980; LAPACK's
 * dgtrfs for dgttrs), stopped as dgtrfs does: at a backward error of eps, when a
 * step no longer halves it, or after GS_REFINE_MAX steps. */
hpls_status hpls_gspike_solve(const hpls_gspike *f, const hpls_real *b, hpls_real *x)
{
    /* everything is allocated before x is written: a failure leaves x (and b) as
     * they were; b0 keeps b when x overwrites it, r is the refinement's residual */
    hpls_int n = f->n, nb0 = f->ad && x == b ? n : 0, nr = f->ad ? n : 0;
    hpls_real *work = hpls_malloc(f->wlen + nb0 + nr + 1, sizeof *work);
    if (!work)
        return HPLS_ERR_NOMEM;
    hpls_real *b0 = work + f->wlen, *r = b0 + nb0;
    if (nb0) {
        memcpy(b0, b, (size_t)n * sizeof *b0);
        b = b0;
    }
    solve_level(f, b, x, work);
    double last = INFINITY;
    for (int it = 0; f->ad && it < GS_REFINE_MAX; it++) {
        double berr = residual(f, b, x, r);
        if (!isgreater(berr, DBL_EPSILON) || !islessequal(berr, 0.5 * last)) /* quiet: NaN */
            break;
        last = berr;
        solve_level(f, r, r, work); /* the correction */
#pragma omp parallel for num_threads(f->nt) schedule(static)
        for (hpls_int i = 0; i < n; i++)
            x[i] += r[i];
    }
    hpls_free(work);
    return HPLS_OK;
}
