/* SPDX-License-Identifier: BSD-3-Clause */
/* dist_gspike.c: g-Spike on MPI ranks: Algorithm 1 of Venetis, Kouris,
 * Sobczyk, Gallopoulos, Sameh (Parallel Computing 2015) with the partitions
 * spread over the ranks of a row-distributed T (dcsr.h), each rank running
 * gspike.c's per-partition kernels on its own rows:
 *
 *   0. each rank takes its rows of T (the couplings to its neighbours from the
 *      off-diagonal block) and scales every row by a power of two from the
 *      whole row, as one process does: D T, and so the singularity test, the
 *      repairs and the answer, do not depend on the rows' scales;
 *   1. its rows are cut into `parts` partitions (gspike_p per rank);
 *   2. (i) Givens-QR of each partition, in parallel (OpenMP).  One process
 *      first splits T into irreducible pieces, which needs all of T; here a
 *      zero coupling inside a partition ends a block only where the part
 *      before it is singular (gspike.h), the one case the repair cannot reach;
 *      (ii) |(R_j)_mm| < delta ||A_j||: block j is singular (Prop. 2.2).  With
 *      a coupling to its right it is repaired toward the next column (Sec. 2.2,
 *      Fig. 3); the last block of T keeps its first m-1 rows (Sec. 2.2, end);
 *      a singular block with no coupling to its right (T reducible there) is
 *      repaired from the left, column a += zeta column a-1, the mirror image of
 *      the paper's repair.  A repair whose fill-in would reach past the
 *      neighbouring block (a neighbour of one row) is not made;
 *      (iii) the spikes.  The multipliers of blocks next to a rank boundary
 *      reach the neighbour by MPI_Allgather;
 *   3. (i) the reduced system (App. C, Fig. C.1: two rows per boundary between
 *      blocks, their top and bottom unknowns) is GATHERED to rank 0, every rank
 *      sending its blocks' rows (one MPI_Gatherv), and factored there by
 *      g-Spike, recursively on rank 0's threads (App. C); not solved
 *      recursively across the ranks;
 *      (ii), (iii) after rank 0 solves it, each rank recovers its rows and
 *      applies x = P_mu x~ at its block boundaries.
 * Cost per solve: one MPI_Gatherv and one MPI_Scatterv of 2 values (16 bytes)
 * per block, rank 0 solving the reduced system (2 N - 2 rows for N blocks in
 * all), everything else local.  When the spikes grew or a block was repaired,
 * every solve refines as one process does: b - T x through the halo (one
 * message per neighbour), one MPI_Allreduce of three norms, the solve again.
 * Setup: three MPI_Allgathers of a few numbers per rank, two MPI_Allreduces,
 * one MPI_Gatherv of three values per reduced row, one MPI_Bcast. */
#include "mpi/dist_gspike.h"

#include "direct/gspike.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <string.h>

struct hpls_dgspike {
    hpls_dcsr *D;         /* the matrix: its communicator, rows, halo */
    int nt;               /* threads of every loop here */
    hpls_int m;           /* my rows */
    hpls_real *l, *d, *u; /* my rows of T (hpls_dcsr_tridiag) */
    hpls_gspike *f;       /* row scales, rotations, R~ and spikes of my rows */
    hpls_int nb, g0, G;   /* my blocks, the global index of my first one, blocks in all */
    hpls_int *bs;         /* nb + 1 block starts: my block j is rows [bs[j], bs[j+1]) */
    /* repairs of the global blocks g0-1 .. g0+nb, at index (global block) - g0 + 1
     * (0: none): zr, column e-1 += zr column e; zl, column a += zl column a-1 */
    hpls_real *zr, *zl;
    int last_singular; /* the last block of T is singular: its first m-1 rows only */
    hpls_int nr;       /* order of the reduced system */
    hpls_int rlo, rn;  /* my rows of it: rlo .. rlo+rn-1 */
    hpls_real *y;      /* their right-hand side, then their unknowns */
    /* rank 0: every rank's rn and rlo, the whole reduced vector, its factors */
    int *cnt, *disp;
    hpls_real *yall, *work;
    hpls_gspike *reduced;
    hpls_int nsingular;  /* blocks found singular, all ranks and levels */
    hpls_int unrepaired; /* of those, blocks no repair could reach (all ranks) */
    double growth;       /* max spike, all ranks and levels */
    int refine;          /* every solve refines (growth > GS_GROWTH_REFINE or a repair) */
    double tnorm;        /* ||D T||_inf, for the refinement's backward error */
    hpls_real *r;        /* the refinement's residual */
    hpls_int gl, gu;     /* positions of x[first-1], x[first+m] in D->ghost (-1: none) */
};

/* An entry of global row `row` at global column col into l, d or u. */
static hpls_status put_entry(const char *who, hpls_int row, hpls_int col, hpls_real val, hpls_int i,
                             hpls_real *l, hpls_real *d, hpls_real *u)
{
    if (col < row - 1 || col > row + 1)
        return hpls_fail(HPLS_ERR_SIZE,
                         "entry (%lld, %lld) lies outside the tridiagonal band: %s needs a "
                         "tridiagonal matrix",
                         (long long)row + 1, (long long)col + 1, who);
    (col < row ? l : col == row ? d : u)[i] = val;
    return HPLS_OK;
}

hpls_status hpls_dcsr_tridiag(const hpls_dcsr *D, const char *who, hpls_real **lp, hpls_real **dp,
                              hpls_real **up)
{
    hpls_int m = D->nlocal;
    hpls_real *l = hpls_calloc(m + 1, sizeof *l), *d = hpls_calloc(m + 1, sizeof *d);
    hpls_real *u = hpls_calloc(m + 1, sizeof *u);
    hpls_status st = l && d && u ? HPLS_OK : HPLS_ERR_NOMEM;
    const hpls_csr *Ad = D->Ad, *Ao = D->Ao;
    for (hpls_int i = 0; st == HPLS_OK && i < m; i++) {
        /* in global column order, so that the first offender is named: the
         * ghosts left of my columns, mine, the ghosts right of them */
        hpls_int row = D->first + i, p = Ao->rowptr[i], pe = Ao->rowptr[i + 1];
        for (; st == HPLS_OK && p < pe && D->garray[Ao->colind[p]] < D->first; p++)
            st = put_entry(who, row, D->garray[Ao->colind[p]], Ao->val[p], i, l, d, u);
        for (hpls_int q = Ad->rowptr[i]; st == HPLS_OK && q < Ad->rowptr[i + 1]; q++)
            st = put_entry(who, row, D->first + Ad->colind[q], Ad->val[q], i, l, d, u);
        for (; st == HPLS_OK && p < pe; p++)
            st = put_entry(who, row, D->garray[Ao->colind[p]], Ao->val[p], i, l, d, u);
    }
    if (st != HPLS_OK) {
        hpls_free(l);
        hpls_free(d);
        hpls_free(u);
        l = d = u = NULL;
    }
    *lp = l;
    *dp = d;
    *up = u;
    return st;
}

/* Partitions of my m rows: parts (at most m/2, so that blocks have two rows),
 * or as one process chooses them from the threads. */
static hpls_int partitions(hpls_int m, hpls_int parts, int nt)
{
    if (m == 0)
        return 0;
    hpls_int k = parts > 0 ? parts : m < GS_SEQ_MAX ? 1 : nt;
    hpls_int most = parts > 0 ? m / 2 : m / GS_MIN_BLOCK;
    k = k < most ? k : most;
    return k > 1 ? k : 1;
}

/* My rows rlo .. rlo+rn-1 of the reduced system, for blocks g0 .. g0+nb-1 of
 * G: the top row of each block but the first of T (2J-1), the bottom row of
 * each but the last (2J), and the singular last block's row (nr-1). */
static void my_reduced_rows(hpls_int g0, hpls_int nb, hpls_int G, hpls_int nr, hpls_int *rlo,
                            hpls_int *rn)
{
    *rlo = nb > 0 && g0 > 0 ? 2 * g0 - 1 : 0;
    *rn = nb > 0 ? (g0 + nb == G ? nr : 2 * (g0 + nb) - 1) - *rlo : 0;
}

void hpls_dgspike_free(hpls_dgspike *g)
{
    if (!g)
        return;
    hpls_free(g->l);
    hpls_free(g->d);
    hpls_free(g->u);
    hpls_gspike_free(g->f);
    hpls_free(g->bs);
    hpls_free(g->zr);
    hpls_free(g->zl);
    hpls_free(g->y);
    hpls_free(g->cnt);
    hpls_free(g->disp);
    hpls_free(g->yall);
    hpls_free(g->work);
    hpls_gspike_free(g->reduced);
    hpls_free(g->r);
    hpls_free(g);
}

/* A block with no zero coupling inside (the left repair reaches its first piece only). */
static int irreducible(const hpls_dgspike *g, hpls_int a, hpls_int e)
{
    for (hpls_int k = a; k + 1 < e; k++)
        if (g->l[k + 1] == 0.0 || g->u[k] == 0.0)
            return 0;
    return 1;
}

/* The neighbours' blocks across my rank boundaries: info holds every rank's
 * (blocks, rows of its first block, rows of its last block); *prev_m and
 * *next_m the rows of the blocks just before my first and after my last (0:
 * none), the nearest ranks with blocks. */
static void neighbours(const hpls_int *info, int rank, int size, hpls_int *prev_m, hpls_int *next_m,
                       int *prev_rank, int *next_rank)
{
    *prev_m = *next_m = 0;
    *prev_rank = *next_rank = -1;
    for (int q = rank - 1; q >= 0 && *prev_rank < 0; q--)
        if (info[3 * q] > 0) {
            *prev_rank = q;
            *prev_m = info[3 * q + 2];
        }
    for (int q = rank + 1; q < size && *next_rank < 0; q++)
        if (info[3 * q] > 0) {
            *next_rank = q;
            *next_m = info[3 * q + 1];
        }
}

/* Steps 1 and 2(i): partitions, each factored block by block (a split starts a
 * new block); bs, nb set; flag[j] 1 when block j is singular.  norm: scratch
 * of m values (the block norms at their first rows). */
static void factor_partitions(hpls_dgspike *g, hpls_int parts, double delta, unsigned char *flag,
                              hpls_real *norm)
{
    hpls_int m = g->m, k = partitions(m, parts, g->nt);
    hpls_gspike *f = g->f;
    /* flag[i], i a row: 1 a block starts there, 2 one ended by a split */
    memset(flag, 0, (size_t)m + 1);
#pragma omp parallel for num_threads(g->nt) schedule(static)
    for (hpls_int q = 0; q < k; q++) {
        hpls_int a = m / k * q + (q < m % k ? q : m % k);
        hpls_int e = m / k * (q + 1) + (q + 1 < m % k ? q + 1 : m % k);
        while (a < e) {
            hpls_int end;
            norm[a] = hpls_gspike_block_qr(g->l, g->d, g->u, a, e, delta, &end, f);
            flag[a] = end < e ? 2 : 1;
            a = end;
        }
    }
    g->nb = 0;
    for (hpls_int i = 0; i < m; i++)
        if (flag[i]) {
            g->bs[g->nb] = i;
            flag[g->nb] = flag[i]; /* compacted in place: nb <= i */
            norm[g->nb++] = norm[i];
        }
    g->bs[g->nb] = m;
    for (hpls_int j = 0; j < g->nb; j++) { /* 2(ii): the test of Sec. 2.2 */
        double rmm = f->r0[g->bs[j + 1] - 1];
        /* a zero R_mm too when the block's norm is 0 (a row of zeros within the
         * block: a block of one row sees its own diagonal only) */
        flag[j] = flag[j] == 2 || fabs(rmm) < delta * norm[j] || (delta > 0.0 && rmm == 0.0);
    }
}

/* 2(ii) toward the next column, and the last block's case; the blocks left
 * for the left repair keep flag 1, the others get 0. */
static void repair_right(hpls_dgspike *g, hpls_int next_m, unsigned char *flag, hpls_int *nsing)
{
    const hpls_int *bs = g->bs;
    for (hpls_int j = 0; j < g->nb; j++) {
        if (!flag[j])
            continue;
        (*nsing)++;
        hpls_int a = bs[j], e = bs[j + 1], J = g->g0 + j;
        hpls_int mnext = j + 1 < g->nb ? bs[j + 2] - bs[j + 1] : next_m;
        if (J == g->G - 1) {
            g->last_singular = 1;
            flag[j] = 0;
        } else if (g->u[e - 1] != 0.0 && mnext >= 2) {
            g->zr[j + 1] = hpls_gspike_block_repair(g->f, g->f->rs[e - 1] * g->u[e - 1], a, e);
            flag[j] = 0;
        }
    }
}

/* 2(ii) from the left for the singular blocks with no coupling to their right:
 * column a += z column a-1 changes only (A_j)_11, so the block is factored
 * again with that entry; z = +-1 makes |(A_j)_11| grow, halved when the
 * block before was repaired toward this one with the same sign (P_mu's 2 x 2
 * block at the boundary, [1 z; z' 1], must stay nonsingular).  *left counts
 * the blocks that cannot be repaired. */
static void repair_left(hpls_dgspike *g, hpls_int prev_m, const unsigned char *flag,
                        hpls_int *left)
{
    const hpls_int *bs = g->bs;
    for (hpls_int j = 0; j < g->nb; j++) {
        hpls_int a = bs[j], e = bs[j + 1], J = g->g0 + j;
        hpls_int mprev = j > 0 ? bs[j] - bs[j - 1] : prev_m;
        if (flag[j] && J > 0 && g->l[a] != 0.0 && mprev >= 2 && irreducible(g, a, e)) {
            double z = (g->d[a] < 0) == (g->l[a] < 0) ? 1.0 : -1.0;
            if (z * g->zr[j] > 0)
                z *= 0.5;
            hpls_real keep = g->d[a];
            g->d[a] += z * g->l[a];
            hpls_gspike_block_qr(g->l, g->d, g->u, a, e, 0.0, NULL, g->f);
            g->d[a] = keep;
            g->zl[j + 1] = z;
        } else {
            *left += flag[j];
        }
    }
}

/* 2(iii): the spikes of my blocks; returns their max. */
static double spikes(hpls_dgspike *g)
{
    hpls_gspike *f = g->f;
    const hpls_real *rs = f->rs, *l = g->l, *d = g->d, *u = g->u;
    const hpls_int *bs = g->bs;
    double growth = 0.0;
#pragma omp parallel for num_threads(g->nt) schedule(static) reduction(max : growth)
    for (hpls_int j = 0; j < g->nb; j++) {
        hpls_int a = bs[j], e = bs[j + 1], J = g->g0 + j;
        /* B_j: column e with the next block's left repair; C_j: column a-1 with
         * the previous block's right repair (the columns of T, rows of D T) */
        double zn = g->zl[j + 2], zp = g->zr[j];
        double vr[2] = {e - 2 >= a ? zn * rs[e - 2] * u[e - 2] : 0.0,
                        rs[e - 1] * u[e - 1] + zn * rs[e - 1] * d[e - 1]};
        double wr[2] = {rs[a] * l[a] + zp * rs[a] * d[a],
                        a + 1 < e ? zp * rs[a + 1] * l[a + 1] : 0.0};
        double s = hpls_gspike_block_spikes(f, a, e, J < g->G - 1 ? vr : NULL, J > 0 ? wr : NULL,
                                            J == g->G - 1 && g->last_singular);
        growth = s > growth ? s : growth;
    }
    return growth;
}

/* A zero or non-finite diagonal of R~ left (a singular block that could not be
 * repaired): its message, naming global rows. */
static hpls_status check_pivots(const hpls_dgspike *g)
{
    const hpls_real *r0 = g->f->r0;
    for (hpls_int j = 0; j < g->nb; j++) {
        hpls_int a = g->bs[j], e = g->bs[j + 1];
        hpls_int top = g->g0 + j == g->G - 1 && g->last_singular ? e - 1 : e;
        for (hpls_int k = a; k < top; k++)
            if (r0[k] == 0.0 || !isfinite(r0[k]))
                return hpls_fail(HPLS_ERR_SINGULAR,
                                 "gspike: R(%lld, %lld) = %g in the partition of rows %lld..%lld, "
                                 "singular and not repaired: the matrix is numerically singular, "
                                 "or the repair needed a neighbouring partition of two rows or "
                                 "more (fewer ranks or gspike_p partitions may solve it)",
                                 (long long)(g->D->first + k) + 1, (long long)(g->D->first + k) + 1,
                                 r0[k], (long long)(g->D->first + a) + 1,
                                 (long long)(g->D->first + e));
    }
    return HPLS_OK;
}

/* My block j is T's singular last block and has one row (a rank of one row,
 * or a split): its top unknown t_J is its bottom one b_J, so its top row of
 * the reduced system reads t_J - b_J = 0 (the one-process blocks have two rows
 * at least: this case is the ranks' own). */
static int lone_last(const hpls_dgspike *g, hpls_int j)
{
    return g->g0 + j == g->G - 1 && g->last_singular && g->bs[j + 1] - g->bs[j] == 1;
}

/* 3(i): my rows of the reduced system, (sub, diagonal, super) each, gathered
 * to rank 0 and factored there; then its counts are shared. */
static hpls_status factor_reduced(hpls_dgspike *g, const hpls_int *info, double delta,
                                  hpls_real *rows)
{
    hpls_dcsr *D = g->D;
    const hpls_gspike *f = g->f;
    for (hpls_int j = 0; j < g->nb; j++) {
        hpls_int a = g->bs[j], e = g->bs[j + 1], J = g->g0 + j;
        if (J > 0) { /* top row: t_J + w b_{J-1} + v t_{J+1} (or v b_J, the singular last) */
            hpls_real *t = rows + 3 * (2 * J - 1 - g->rlo);
            t[0] = 1.0;
            t[1] = lone_last(g, j) ? 0.0 : f->w[a];
            t[2] = lone_last(g, j) ? -1.0 : f->v[a];
        }
        if (J < g->G - 1) { /* bottom row: b_J + v t_{J+1} + w b_{J-1} */
            hpls_real *t = rows + 3 * (2 * J - g->rlo);
            t[0] = J > 0 ? f->w[e - 1] : 0.0;
            t[1] = f->v[e - 1];
            t[2] = 1.0;
        } else if (g->last_singular) { /* (R_p)_mm b_p + (Q^T C)_m b_{p-1} */
            hpls_real *t = rows + 3 * (g->nr - 1 - g->rlo);
            t[0] = f->w[e - 1];
            t[1] = f->r0[e - 1];
            t[2] = 0.0;
        }
    }
    hpls_status st = HPLS_OK;
    hpls_real *all = NULL;
    int *c3 = NULL, *d3 = NULL;
    if (D->rank == 0) { /* every rank's rows, from the blocks' counts */
        g->cnt = hpls_malloc(D->size, sizeof *g->cnt);
        g->disp = hpls_malloc(D->size, sizeof *g->disp);
        c3 = hpls_malloc(D->size, sizeof *c3);
        d3 = hpls_malloc(D->size, sizeof *d3);
        all = hpls_malloc(3 * g->nr + 1, sizeof *all);
        g->yall = hpls_malloc(g->nr + 1, sizeof *g->yall);
        if (!g->cnt || !g->disp || !c3 || !d3 || !all || !g->yall)
            st = HPLS_ERR_NOMEM;
        hpls_int g0 = 0;
        for (int q = 0; st == HPLS_OK && q < D->size; q++) {
            hpls_int lo, n;
            my_reduced_rows(g0, info[3 * q], g->G, g->nr, &lo, &n);
            g0 += info[3 * q];
            g->cnt[q] = (int)n;
            g->disp[q] = (int)lo;
            c3[q] = 3 * (int)n;
            d3[q] = 3 * (int)lo;
        }
    }
    st = hpls_mpi_agree(D->comm, st, 0, NULL, 0);
    if (st == HPLS_OK)
        MPI_Gatherv(rows, 3 * (int)g->rn, MPI_DOUBLE, all, c3, d3, MPI_DOUBLE, 0, D->comm);
    if (D->rank == 0 && st == HPLS_OK) {
        hpls_int nr = g->nr;
        hpls_real *rdl = hpls_malloc(3 * nr, sizeof *rdl);
        if (!rdl) {
            st = HPLS_ERR_NOMEM;
        } else {
            for (hpls_int i = 0; i < nr; i++) {
                rdl[i] = all[3 * i];
                rdl[nr + i] = all[3 * i + 1];
                rdl[2 * nr + i] = all[3 * i + 2];
            }
            st = hpls_gspike_factor_reduced(nr, rdl, rdl + nr, rdl + 2 * nr, g->nt, delta, 1,
                                            &g->reduced);
            hpls_free(rdl);
        }
        if (st == HPLS_OK && !(g->work = hpls_malloc(g->reduced->wlen + 1, sizeof *g->work)))
            st = HPLS_ERR_NOMEM;
    }
    hpls_free(all);
    hpls_free(c3);
    hpls_free(d3);
    st = hpls_mpi_agree(D->comm, st, 0, NULL, 0);
    if (st != HPLS_OK)
        return st;
    double got[2] = {0.0, 0.0}; /* singular blocks, growth of the levels below */
    if (D->rank == 0) {
        got[0] = (double)g->reduced->nsingular;
        got[1] = g->reduced->growth;
    }
    MPI_Bcast(got, 2, MPI_DOUBLE, 0, D->comm);
    g->nsingular += (hpls_int)got[0];
    g->growth = got[1] > g->growth ? got[1] : g->growth;
    return HPLS_OK;
}

/* The refinement's needs: r, ||D T||_inf and where the neighbours' x arrive. */
static void prepare_refinement(hpls_dgspike *g)
{
    hpls_dcsr *D = g->D;
    double an = 0.0;
#pragma omp parallel for num_threads(g->nt) schedule(static) reduction(max : an)
    for (hpls_int i = 0; i < g->m; i++) {
        double a = g->f->rs[i] * (fabs(g->l[i]) + fabs(g->d[i]) + fabs(g->u[i]));
        an = a > an ? a : an;
    }
    MPI_Allreduce(&an, &g->tnorm, 1, MPI_DOUBLE, MPI_MAX, D->comm);
    g->gl = g->gu = -1;
    for (hpls_int k = 0; k < D->nghost; k++) {
        if (D->garray[k] == D->first - 1)
            g->gl = k;
        if (D->garray[k] == D->first + g->m)
            g->gu = k;
    }
}

hpls_status hpls_dgspike_factor(hpls_dcsr *D, int nt, hpls_int parts, double delta,
                                hpls_dgspike **out)
{
    *out = NULL;
    hpls_dgspike *g = hpls_calloc(1, sizeof *g);
    hpls_int m = D->nlocal, *info = hpls_malloc(3 * (hpls_int)D->size, sizeof *info);
    unsigned char *flag = hpls_malloc(m + 1, sizeof *flag);
    double *z = hpls_malloc(D->size, sizeof *z); /* every rank's multiplier at its end */
    hpls_status st = g && info && flag && z ? HPLS_OK : HPLS_ERR_NOMEM;
    if (st == HPLS_OK) {
        g->D = D;
        g->nt = nt;
        g->m = m;
        st = hpls_dcsr_tridiag(D, "gspike", &g->l, &g->d, &g->u);
    }
    /* everything a rank needs, at most two reduced rows per row (blocks of one row) */
    if (st == HPLS_OK && (hpls_gspike_rows_create(m, nt, &g->f) != HPLS_OK ||
                          !(g->bs = hpls_malloc(m + 1, sizeof *g->bs)) ||
                          !(g->zr = hpls_calloc(m + 2, sizeof *g->zr)) ||
                          !(g->zl = hpls_calloc(m + 2, sizeof *g->zl)) ||
                          !(g->y = hpls_malloc(2 * m + 2, sizeof *g->y)) ||
                          !(g->r = hpls_malloc(m + 1, sizeof *g->r))))
        st = HPLS_ERR_NOMEM;
    st = hpls_mpi_agree(D->comm, st, 0, NULL, 0);
    hpls_real *rows = NULL;
    if (st != HPLS_OK)
        goto done;
    hpls_gspike_scale_rows(m, g->l, g->d, g->u, 1, nt, g->f->rs);
    factor_partitions(g, parts, delta, flag, g->f->v);
    /* the blocks of every rank, and the neighbours' across my boundaries */
    hpls_int mine[3] = {g->nb, g->nb > 0 ? g->bs[1] : 0,
                        g->nb > 0 ? g->bs[g->nb] - g->bs[g->nb - 1] : 0};
    MPI_Allgather(mine, 3, MPI_INT64_T, info, 3, MPI_INT64_T, D->comm);
    hpls_int prev_m, next_m;
    int prev_rank, next_rank;
    neighbours(info, D->rank, D->size, &prev_m, &next_m, &prev_rank, &next_rank);
    for (int q = 0; q < D->size; q++) {
        g->g0 += q < D->rank ? info[3 * q] : 0;
        g->G += info[3 * q];
    }
    hpls_int nsing = 0;
    repair_right(g, next_m, flag, &nsing);
    /* the right repair of the block before my first one, then the left repair
     * of the block after my last one (each rank's value at the rank's own end) */
    double zmine = g->nb > 0 ? g->zr[g->nb] : 0.0;
    MPI_Allgather(&zmine, 1, MPI_DOUBLE, z, 1, MPI_DOUBLE, D->comm);
    g->zr[0] = prev_rank >= 0 ? z[prev_rank] : 0.0;
    hpls_int unrepaired = 0;
    repair_left(g, prev_m, flag, &unrepaired);
    zmine = g->nb > 0 ? g->zl[1] : 0.0;
    MPI_Allgather(&zmine, 1, MPI_DOUBLE, z, 1, MPI_DOUBLE, D->comm);
    g->zl[g->nb + 1] = next_rank >= 0 ? z[next_rank] : 0.0;
    double growth = spikes(g);
    st = hpls_mpi_agree(D->comm, check_pivots(g), 0, NULL, 0);
    if (st != HPLS_OK)
        goto done;
    /* totals: growth, the last block's case; singular blocks */
    double mx[2] = {growth, g->last_singular};
    long long ns[2] = {nsing, unrepaired};
    MPI_Allreduce(MPI_IN_PLACE, mx, 2, MPI_DOUBLE, MPI_MAX, D->comm);
    MPI_Allreduce(MPI_IN_PLACE, ns, 2, MPI_LONG_LONG, MPI_SUM, D->comm);
    g->growth = mx[0];
    g->last_singular = mx[1] > 0;
    g->nsingular = ns[0];
    g->unrepaired = ns[1];
    if (!isfinite(g->growth)) {
        st = hpls_fail(HPLS_ERR_SINGULAR,
                       "gspike: a spike overflowed: the matrix is numerically singular");
        goto done;
    }
    g->nr = g->G > 0 ? 2 * g->G - 2 + g->last_singular : 0;
    if (g->nr > INT_MAX / 3) {
        st = hpls_fail(HPLS_ERR_SIZE, "gspike: a reduced system of %lld rows (at most %d)",
                       (long long)g->nr, INT_MAX / 3);
        goto done;
    }
    my_reduced_rows(g->g0, g->nb, g->G, g->nr, &g->rlo, &g->rn);
    rows = hpls_malloc(3 * g->rn + 1, sizeof *rows);
    st = hpls_mpi_agree(D->comm, rows ? HPLS_OK : HPLS_ERR_NOMEM, 0, NULL, 0);
    if (st == HPLS_OK && g->nr > 0)
        st = factor_reduced(g, info, delta, rows);
    if (st != HPLS_OK)
        goto done;
    /* refine as one process: when the spikes grew or a block was repaired */
    g->refine = g->growth > GS_GROWTH_REFINE || g->nsingular > 0;
    if (g->refine)
        prepare_refinement(g);
done:
    hpls_free(rows);
    hpls_free(info);
    hpls_free(flag);
    hpls_free(z);
    if (st != HPLS_OK) {
        hpls_dgspike_free(g);
        return st;
    }
    *out = g;
    return HPLS_OK;
}

/* x = T^{-1} b without refinement (x may be b): steps 2 and 3 of Algorithm 1
 * with the factors. */
static void solve_once(hpls_dgspike *g, const hpls_real *b, hpls_real *x)
{
    const hpls_gspike *f = g->f;
    const hpls_int *bs = g->bs;
    hpls_int G = g->G, g0 = g->g0, rlo = g->rlo;
    hpls_real *y = g->y;
#pragma omp parallel for num_threads(g->nt) schedule(static)
    for (hpls_int i = 0; i < g->m; i++) /* D b */
        x[i] = f->rs[i] * b[i];
#pragma omp parallel for num_threads(g->nt) schedule(static)
    for (hpls_int j = 0; j < g->nb; j++) { /* g_j = R~_j^{-1} Q_j^T f_j */
        int short_last = g0 + j == G - 1 && g->last_singular;
        hpls_gspike_apply_qt(f, bs[j], bs[j + 1], x);
        hpls_gspike_back_subst(f, bs[j], bs[j + 1], x, short_last);
    }
    for (hpls_int j = 0; j < g->nb; j++) { /* my rows of the reduced right-hand side */
        hpls_int J = g0 + j;
        if (J > 0)
            y[2 * J - 1 - rlo] = lone_last(g, j) ? 0.0 : x[bs[j]];
        if (J < G - 1 || g->last_singular)
            y[(J < G - 1 ? 2 * J : g->nr - 1) - rlo] = x[bs[j + 1] - 1];
    }
    if (g->nr > 0) { /* 3(i) at rank 0 */
        hpls_dcsr *D = g->D;
        MPI_Gatherv(y, (int)g->rn, MPI_DOUBLE, g->yall, g->cnt, g->disp, MPI_DOUBLE, 0, D->comm);
        if (D->rank == 0)
            hpls_gspike_solve_work(g->reduced, g->yall, g->yall, g->work);
        MPI_Scatterv(g->yall, g->cnt, g->disp, MPI_DOUBLE, y, (int)g->rn, MPI_DOUBLE, 0, D->comm);
    }
#pragma omp parallel for num_threads(g->nt) schedule(static)
    for (hpls_int j = 0; j < g->nb; j++) { /* x~_j = g_j - v_j t_{j+1} - w_j b_{j-1} */
        hpls_int J = g0 + j;
        int short_last = J == G - 1 && g->last_singular;
        double tn = J < G - 1 ? y[2 * J - rlo] : short_last ? y[g->nr - 1 - rlo] : 0.0;
        double bp = J > 0 ? y[2 * J - 1 - rlo] : 0.0;
        hpls_gspike_block_recover(f, bs[j], bs[j + 1], tn, bp, short_last, x);
    }
    for (hpls_int j = 0; j < g->nb; j++) { /* x = P_mu x~ at my blocks' ends (Prop. 2.3) */
        hpls_int J = g0 + j;
        if (J > 0 && g->zr[j] != 0.0) /* x_a += z x~_{a-1} = z b_{J-1} */
            x[bs[j]] += g->zr[j] * y[2 * J - 1 - rlo];
        if (J < G - 1 && g->zl[j + 2] != 0.0) /* x_{e-1} += z x~_e = z t_{J+1} */
            x[bs[j + 1] - 1] += g->zl[j + 2] * y[2 * J - rlo];
    }
}

/* r = b - T x; returns the backward error ||D r||_inf / (||D T||_inf ||x||_inf
 * + ||D b||_inf), every rank the same. */
static double residual(hpls_dgspike *g, const hpls_real *b, const hpls_real *x, hpls_real *r)
{
    hpls_dcsr *D = g->D;
    const hpls_real *rs = g->f->rs, *l = g->l, *d = g->d, *u = g->u;
    hpls_int m = g->m;
    /* the neighbours' x through the matrix's halo (an MPI failure aborts the job:
     * MPI_ERRORS_ARE_FATAL, so no rank leaves the collectives below alone) */
    if (hpls_dcsr_halo_start(D, x) == HPLS_OK)
        hpls_dcsr_halo_finish(D);
    double xl = g->gl >= 0 ? D->ghost[g->gl] : 0.0, xu = g->gu >= 0 ? D->ghost[g->gu] : 0.0;
    double v[3] = {0.0, 0.0, 0.0}; /* ||D r||, ||x||, ||D b|| */
    double rn = 0.0, xn = 0.0, bn = 0.0;
#pragma omp parallel for num_threads(g->nt) schedule(static) reduction(max : rn, xn, bn)
    for (hpls_int i = 0; i < m; i++) {
        double t = d[i] * x[i];
        if (D->first + i > 0)
            t += l[i] * (i > 0 ? x[i - 1] : xl);
        if (D->first + i < D->n - 1)
            t += u[i] * (i + 1 < m ? x[i + 1] : xu);
        r[i] = b[i] - t;
        double rr = rs[i] * fabs(r[i]), bb = rs[i] * fabs(b[i]);
        rn = rr > rn ? rr : rn;
        xn = fabs(x[i]) > xn ? fabs(x[i]) : xn;
        bn = bb > bn ? bb : bn;
    }
    v[0] = rn;
    v[1] = xn;
    v[2] = bn;
    MPI_Allreduce(MPI_IN_PLACE, v, 3, MPI_DOUBLE, MPI_MAX, D->comm);
    double den = g->tnorm * v[1] + v[2];
    return den > 0 ? v[0] / den : 0.0;
}

/* The solve, then the refinement of gspike.c (Skeel 1980; LAPACK's dgtrfs):
 * stopped at a backward error of eps, when a step no longer halves it, or
 * after GS_REFINE_MAX steps; every rank takes the same decisions (the backward
 * error is global). */
void hpls_dgspike_solve(hpls_dgspike *g, const hpls_real *b, hpls_real *x)
{
    solve_once(g, b, x);
    double last = INFINITY;
    for (int it = 0; g->refine && it < GS_REFINE_MAX; it++) {
        double berr = residual(g, b, x, g->r);
        if (!(berr > DBL_EPSILON) || !(berr <= 0.5 * last))
            break;
        last = berr;
        solve_once(g, g->r, g->r); /* the correction */
#pragma omp parallel for num_threads(g->nt) schedule(static)
        for (hpls_int i = 0; i < g->m; i++)
            x[i] += g->r[i];
    }
}

hpls_int hpls_dgspike_singular_blocks(const hpls_dgspike *g)
{
    return g ? g->nsingular : 0;
}

hpls_int hpls_dgspike_unrepaired(const hpls_dgspike *g)
{
    return g ? g->unrepaired : 0;
}

hpls_int hpls_dgspike_partitions(const hpls_dgspike *g)
{
    return g->G;
}

hpls_int hpls_dgspike_reduced_order(const hpls_dgspike *g)
{
    return g->nr;
}
