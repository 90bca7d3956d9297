/* SPDX-License-Identifier: BSD-3-Clause */
/* gspike.c (device): g-Spike on a device backend (Venetis et al., Parallel
 * Computing 2015, Algorithm 1), the host side of kernels/device/gspike.cl.
 *
 * What runs where.  Every floating-point operation of the factorization
 * (Givens-QR, the singularity test and the rank-1 repair of Sec. 2.2, the
 * spikes, the reduced systems) and of every solve (Q^T f, the back
 * substitutions, the recovery, P_mu, the refinement's residual) runs on the
 * device, one work-item per partition as the paper's thread per partition
 * (Sec. 3; gspike.cl says why it streams from global memory).  At factor time
 * the host does src/direct/gspike.c's bookkeeping, level by level: the row
 * scales of D T (powers of two: D T and D b are exact), the irreducible
 * pieces, their partitions and an order; for the next level it reads the
 * reduced system back (2 rows per partition).
 *
 * Levels.  A level is T (or a reduced system) as a table of blocks.  A piece
 * whose coupling to a neighbour piece is nonzero needs that neighbour's x
 * first (gspike.c's order): its depth is one more than the neighbour's, and a
 * solve runs a level as one launch (two with partitions) per depth, almost
 * always one.  The partitioned pieces of one depth share one reduced system
 * (theirs one after another, uncoupled), solved by the next level on the
 * device (App. C's recursion, down to pieces of fewer than 128 rows, which an
 * item solves by sequential Givens-QR: Sec. 3.3) or read back and solved on
 * the host by src/direct/gspike.c (HPLS_TFAC_REDUCED_HOST).
 *
 * The host's answer.  A level's partitions follow gspike.c's rule with
 * prow = HPLS_DEVICE_GSPIKE_ROWS (hpls_gspike_how), and the kernels compute
 * every scale, block, repair, spike, reduced row and refinement step in
 * gspike.c's order, so x has the bits of hpls_gspike_factor_at with that prow
 * (OpenCL allows hypot 4 ulps: it is used only when |(alpha, l)| of a
 * rotation is beyond 1e145 or below 1e-145 after the scaling).
 *
 * Device memory: T (3n, kept when the solve refines), the scales, rotations,
 * R and the solve's g (7n), the spikes (2n) at the top level, and about
 * 2/HPLS_DEVICE_GSPIKE_ROWS of that below; the refinement's r and a copy of b
 * (2n).  The paper's 5n overwrites T and keeps nothing for a later solve. */
#include "kernels/device/gspike.h"

#include "direct/gspike.h"
#include "kernels/device/devhost.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* gspike.cl's table (the same enums there) */
enum { GS_TAB = 5, GS_A = 0, GS_E = 1, GS_FL = 2, GS_RX = 3, GS_LB = 4 };
enum { GS_TABD = 5, GS_CL = 0, GS_CU = 1, GS_ZETA = 2, GS_RMM = 3, GS_AUX = 4 };
enum { GS_PART = 1, GS_FIRST = 2, GS_LAST = 4, GS_SING = 8 };

typedef struct dgs_level dgs_level;

/* The blocks of one depth of a level and their reduced system. */
typedef struct dgs_group {
    hpls_int b0, nb;   /* blocks [b0, b0 + nb) of the level's table */
    hpls_int nr;       /* rows of the reduced system (0: whole pieces only) */
    hpls_dbuf *y;      /* its right-hand side, then its solution */
    dgs_level *dev;    /* its factors on the device, or */
    hpls_gspike *host; /* on the host, with */
    hpls_real *hy;     /* y's host copy */
} dgs_group;

struct dgs_level {
    hpls_int n, nblk, step; /* step: the factors' layout (gspike.cl's IX) */
    int ngroup;
    dgs_group *group;
    hpls_dbuf *tab, *tabd;                /* the blocks (gspike.cl) */
    hpls_dbuf *rs, *c, *s, *r0, *r1, *r2; /* scales (row order), rotations, R~ */
    hpls_dbuf *v, *w, *g;                 /* spikes, the solve's g (partitions only) */
};

struct hpls_devgspike {
    hpls_int n;
    int refine; /* every solve refines (gspike.c's rule) */
    dgs_level *top;
    hpls_dbuf *dl, *d, *du; /* T, kept when refining */
    hpls_dvec *r, *b0;      /* the refinement's residual; b when x overwrites it */
    hpls_int nsingular;
    double rcond;
};

/* What a factorization carries through its levels. */
typedef struct dgs_ctx {
    hpls_backend *be;
    double delta;
    int how; /* HPLS_TFAC_* */
    int nt;  /* threads of the host's parts */
    hpls_int nsingular;
    double growth, rcond;
} dgs_ctx;

/* An irreducible piece of a level. */
typedef struct dgs_piece {
    hpls_int lo, hi, p, depth;
    hpls_int b;    /* its first block in the table */
    double cl, cu; /* couplings to the previous and next piece, of D T */
} dgs_piece;

static void level_free(hpls_backend *be, dgs_level *L)
{
    if (!L)
        return;
    for (int k = 0; L->group && k < L->ngroup; k++) {
        dgs_group *G = &L->group[k];
        hpls_dev_free(be, G->y);
        level_free(be, G->dev);
        hpls_gspike_free(G->host);
        hpls_free(G->hy);
    }
    hpls_free(L->group);
    hpls_dbuf *const mem[] = {L->tab, L->tabd, L->rs, L->c, L->s, L->r0,
                              L->r1,  L->r2,   L->v,  L->w, L->g};
    for (size_t k = 0; k < sizeof mem / sizeof *mem; k++)
        hpls_dev_free(be, mem[k]);
    hpls_free(L);
}

/* The backend's sticky error as a setup's status and message. */
static hpls_status device_failed(hpls_backend *be)
{
    return be->err == HPLS_OK ? HPLS_OK : hpls_fail(be->err, "%s", be->msg);
}

/* Step 0 of a level (gspike.c's split_pieces, then its partitions): the
 * pieces, each one's p, and its depth in the order of solves. */
static hpls_status level_pieces(const dgs_ctx *X, hpls_int n, const hpls_real *dl,
                                const hpls_real *du, const hpls_real *rs, hpls_int p_req,
                                dgs_piece **out, hpls_int *nout)
{
    hpls_int q = 1;
    for (hpls_int k = 0; k + 1 < n; k++)
        q += dl[k + 1] == 0.0 || du[k] == 0.0;
    dgs_piece *pc = hpls_calloc(q, sizeof *pc);
    if (!pc)
        return HPLS_ERR_NOMEM;
    hpls_int i = 0;
    for (hpls_int k = 0; k + 1 < n; k++)
        if (dl[k + 1] == 0.0 || du[k] == 0.0) {
            pc[i].hi = k + 1;
            pc[++i].lo = k + 1;
        }
    pc[q - 1].hi = n;
    for (i = 0; i < q; i++) {
        pc[i].cl = i > 0 ? dl[pc[i].lo] * rs[pc[i].lo] : 0.0;
        pc[i].cu = i < q - 1 ? du[pc[i].hi - 1] * rs[pc[i].hi - 1] : 0.0;
        pc[i].p =
            hpls_gspike_partitions(pc[i].hi - pc[i].lo, p_req, X->nt, HPLS_DEVICE_GSPIKE_ROWS);
    }
    /* a nonzero cl: the previous piece first (and then its cu is zero, so it
     * waits on nothing to its right); depth = the longer chain of either side */
    for (i = 1; i < q; i++)
        pc[i].depth = pc[i].cl != 0.0 ? pc[i - 1].depth + 1 : 0;
    for (hpls_int chain = 0, j = q - 2; j >= 0; j--) { /* a nonzero cu: the next piece first */
        chain = pc[j].cu != 0.0 ? chain + 1 : 0;
        pc[j].depth = chain > pc[j].depth ? chain : pc[j].depth;
    }
    *out = pc;
    *nout = q;
    return HPLS_OK;
}

/* The table of blocks, by depth then row; groups[d] the blocks of depth d. */
static hpls_status level_table(dgs_level *L, dgs_piece *pc, hpls_int q, int pairs, hpls_int **tabp,
                               double **tabdp, hpls_int *mmax)
{
    int ndepth = 0;
    hpls_int nblk = 0, pmax = 1;
    for (hpls_int i = 0; i < q; i++) {
        ndepth = pc[i].depth + 1 > ndepth ? (int)pc[i].depth + 1 : ndepth;
        nblk += pc[i].p;
        pmax = pc[i].p > pmax ? pc[i].p : pmax;
    }
    L->nblk = nblk;
    L->ngroup = ndepth;
    L->group = hpls_calloc(ndepth, sizeof *L->group);
    hpls_int *tab = hpls_malloc(GS_TAB * nblk, sizeof *tab);
    double *tabd = hpls_calloc(GS_TABD * nblk, sizeof *tabd);
    hpls_int *bs = hpls_malloc(pmax + 1, sizeof *bs);
    *tabp = tab;
    *tabdp = tabd;
    if (!L->group || !tab || !tabd || !bs) {
        hpls_free(bs);
        return HPLS_ERR_NOMEM;
    }
    hpls_int b = 0;
    *mmax = 0;
    for (int dep = 0; dep < ndepth; dep++) {
        L->group[dep].b0 = b;
        for (hpls_int i = 0; i < q; i++) {
            if (pc[i].depth != dep)
                continue;
            hpls_int p = pc[i].p;
            pc[i].b = b;
            if (p > 1)
                hpls_gspike_blocks(pc[i].lo, pc[i].hi, p, pairs, bs);
            else {
                bs[0] = pc[i].lo;
                bs[1] = pc[i].hi;
            }
            for (hpls_int j = 0; j < p; j++, b++) {
                hpls_int *t = tab + GS_TAB * b;
                double *td = tabd + GS_TABD * b;
                t[GS_A] = bs[j];
                t[GS_E] = bs[j + 1];
                t[GS_FL] =
                    (p > 1 ? GS_PART : 0) | (j == 0 ? GS_FIRST : 0) | (j == p - 1 ? GS_LAST : 0);
                t[GS_RX] = 0;
                t[GS_LB] = pc[i].b + p - 1;
                td[GS_CL] = j == 0 ? pc[i].cl : 0.0;
                td[GS_CU] = j == p - 1 ? pc[i].cu : 0.0;
                *mmax = bs[j + 1] - bs[j] > *mmax ? bs[j + 1] - bs[j] : *mmax;
            }
        }
        L->group[dep].nb = b - L->group[dep].b0;
    }
    hpls_free(bs);
    return HPLS_OK;
}

static hpls_status level_factor(dgs_ctx *X, dgs_level *L, int level, hpls_int p_req, hpls_int n,
                                const hpls_real *dl, const hpls_real *d, const hpls_real *du,
                                hpls_dbuf *ddl, hpls_dbuf *dd, hpls_dbuf *ddu);

/* The reduced system of group G, written by gs_spikes into rdl, rd, rdu on
 * the device: factored by the next level there, or read back and factored
 * on the host. */
static hpls_status group_child(dgs_ctx *X, dgs_group *G, int level, hpls_dbuf *rdl, hpls_dbuf *rd,
                               hpls_dbuf *rdu)
{
    hpls_backend *be = X->be;
    hpls_int nr = G->nr;
    hpls_real *h = hpls_malloc(3 * nr, sizeof *h);
    if (!h)
        return HPLS_ERR_NOMEM;
    size_t bytes = (size_t)nr * sizeof *h;
    hpls_dev_read(be, rdl, 0, h, bytes);
    hpls_dev_read(be, rd, 0, h + nr, bytes);
    hpls_dev_read(be, rdu, 0, h + 2 * nr, bytes);
    hpls_status st = device_failed(be);
    if (st == HPLS_OK && (X->how & HPLS_TFAC_REDUCED_HOST)) {
        const hpls_gspike_how how = {
            .nt = X->nt, .prow = HPLS_DEVICE_GSPIKE_ROWS, .delta = X->delta, .level = level + 1};
        st = hpls_gspike_factor_at(nr, h, h + nr, h + 2 * nr, &how, &G->host);
        if (st == HPLS_OK) {
            X->nsingular += hpls_gspike_singular_blocks(G->host);
            double rc = hpls_gspike_rcond_bound(G->host), gr = hpls_gspike_growth(G->host);
            X->rcond = rc < X->rcond ? rc : X->rcond;
            X->growth = gr > X->growth ? gr : X->growth;
            G->hy = hpls_malloc(nr, sizeof *G->hy);
            st = G->hy ? HPLS_OK : HPLS_ERR_NOMEM;
        }
    } else if (st == HPLS_OK) {
        G->dev = hpls_calloc(1, sizeof *G->dev);
        st = G->dev ? level_factor(X, G->dev, level + 1, 0, nr, h, h + nr, h + 2 * nr, rdl, rd, rdu)
                    : HPLS_ERR_NOMEM;
    }
    hpls_free(h);
    return st;
}

/* The rest of level_factor once every block is factored: the reduced systems'
 * rows numbered in tab, the spikes and each depth's reduced system (2(iii),
 * 3(i)), their growth, then each group's next level (group_child). */
static hpls_status level_reduced(dgs_ctx *X, dgs_level *L, int level, const dgs_piece *pc,
                                 hpls_int q, hpls_int *tab, double *tabd, hpls_dbuf *ddl,
                                 hpls_dbuf *dd, hpls_dbuf *ddu)
{
    hpls_backend *be = X->be;
    hpls_int nblk = L->nblk;
    hpls_status st = HPLS_OK;
    hpls_dbuf **red = NULL; /* each group's reduced system while the level is factored */
    /* the reduced systems' rows: 2 per partition boundary, and the last row of
     * a singular last block (Sec. 2.2); each depth's pieces one after another */
    for (hpls_int i = 0; i < q; i++) {
        if (pc[i].p < 2)
            continue;
        hpls_int p = pc[i].p, lb = pc[i].b + p - 1;
        dgs_group *G = &L->group[pc[i].depth];
        for (hpls_int j = 0; j < p; j++) {
            hpls_int *t = tab + GS_TAB * (pc[i].b + j);
            X->nsingular += (t[GS_FL] & GS_SING) != 0;
            t[GS_RX] = G->nr + 2 * j;
        }
        G->nr += 2 * p - 2 + ((tab[GS_TAB * lb + GS_FL] & GS_SING) != 0);
    }
    hpls_dev_write(be, L->tab, 0, tab, (size_t)(GS_TAB * nblk) * sizeof *tab);
    /* 2(iii), 3(i): the spikes and each depth's reduced system */
    red = hpls_calloc(3 * L->ngroup, sizeof *red);
    if (!red) {
        st = HPLS_ERR_NOMEM;
        goto out;
    }
    for (int k = 0; k < L->ngroup; k++) {
        dgs_group *G = &L->group[k];
        if (G->nr == 0)
            continue;
        size_t bytes = (size_t)G->nr * sizeof(double);
        for (int j = 0; j < 3 && st == HPLS_OK; j++)
            st = hpls_dev_alloc(be, bytes, &red[3 * k + j]);
        if (st == HPLS_OK)
            st = hpls_dev_alloc(be, bytes, &G->y);
        if (st != HPLS_OK) {
            st = hpls_dev_fail(be, st, "g-Spike's reduced system of %lld rows", (long long)G->nr);
            goto out;
        }
        HPLS_DEV_RUN(be, HPLS_K_gs_spikes, hpls_dev_groups(G->nb), HPLS_KL(G->b0), HPLS_KL(G->nb),
                     HPLS_KL(L->step), HPLS_KG(L->tab), HPLS_KG(L->tabd), HPLS_KG(ddl), HPLS_KG(dd),
                     HPLS_KG(ddu), HPLS_KG(L->rs), HPLS_KG(L->c), HPLS_KG(L->s), HPLS_KG(L->r0),
                     HPLS_KG(L->r1), HPLS_KG(L->r2), HPLS_KG(L->v), HPLS_KG(L->w),
                     HPLS_KG(red[3 * k]), HPLS_KG(red[3 * k + 1]), HPLS_KG(red[3 * k + 2]));
    }
    hpls_dev_read(be, L->tabd, 0, tabd, (size_t)(GS_TABD * nblk) * sizeof *tabd);
    if ((st = device_failed(be)) != HPLS_OK)
        goto out;
    double growth = 0.0; /* NaN (-1 from gs_spikes) or Inf: the spikes overflowed */
    for (hpls_int b = 0; b < nblk; b++) {
        double g = (tab[GS_TAB * b + GS_FL] & GS_PART) ? tabd[GS_TABD * b + GS_AUX] : 0.0;
        growth = g < 0.0 ? INFINITY : g > growth ? g : growth;
    }
    if (!isfinite(growth)) {
        st = hpls_fail(HPLS_ERR_SINGULAR,
                       "gspike: a spike overflowed (level %d): the matrix is numerically singular",
                       level);
        goto out;
    }
    X->growth = growth > X->growth ? growth : X->growth;
    for (int k = 0; k < L->ngroup && st == HPLS_OK; k++)
        if (L->group[k].nr > 0)
            st = group_child(X, &L->group[k], level, red[3 * k], red[3 * k + 1], red[3 * k + 2]);
out:
    for (int k = 0; red && k < 3 * L->ngroup; k++)
        hpls_dev_free(be, red[k]);
    hpls_free(red);
    return st;
}

/* One level of the factorization (gspike.c's factor_level and factor_blocks)
 * of the n rows dl, d, du on the host, ddl, dd, ddu their copy on the device;
 * p_req: partitions of each piece (top level), 0 automatic. */
static hpls_status level_factor(dgs_ctx *X, dgs_level *L, int level, hpls_int p_req, hpls_int n,
                                const hpls_real *dl, const hpls_real *d, const hpls_real *du,
                                hpls_dbuf *ddl, hpls_dbuf *dd, hpls_dbuf *ddu)
{
    hpls_backend *be = X->be;
    hpls_real *rs = hpls_malloc(n, sizeof *rs);
    dgs_piece *pc = NULL;
    hpls_int q = 0, *tab = NULL, mmax = 0;
    double *tabd = NULL;
    hpls_status st = rs ? HPLS_OK : HPLS_ERR_NOMEM;
    L->n = n;
    if (st == HPLS_OK) {
        hpls_gspike_equilibrate(n, dl, d, du, X->nt, rs);
        st = level_pieces(X, n, dl, du, rs, p_req, &pc, &q);
    }
    if (st == HPLS_OK)
        st = level_table(L, pc, q, level > 0, &tab, &tabd, &mmax);
    if (st != HPLS_OK)
        goto done;
    /* the marshalled layout where a GPU wants it (or how asks) and the blocks
     * are of one length near enough that it takes at most 2n slots */
    hpls_int nblk = L->nblk;
    int tiled =
        ((X->how & HPLS_TFAC_TILED) || (!(X->how & HPLS_TFAC_NATURAL) && !hpls_dev_cpu(be))) &&
        mmax * nblk <= 2 * n;
    L->step = tiled ? nblk : 0;
    size_t slots = (size_t)(tiled ? mmax * nblk : n) * sizeof(double);
    int parts = 0;
    for (hpls_int i = 0; i < q; i++)
        parts |= pc[i].p > 1;
    hpls_dbuf **fac[] = {&L->c, &L->s, &L->r0, &L->r1, &L->r2, &L->v, &L->w, &L->g};
    st = hpls_dev_upload(be, rs, (size_t)n * sizeof *rs, &L->rs);
    if (st == HPLS_OK)
        st = hpls_dev_upload(be, tab, (size_t)(GS_TAB * nblk) * sizeof *tab, &L->tab);
    if (st == HPLS_OK)
        st = hpls_dev_upload(be, tabd, (size_t)(GS_TABD * nblk) * sizeof *tabd, &L->tabd);
    for (int k = 0; st == HPLS_OK && k < (parts ? 8 : 5); k++)
        st = hpls_dev_alloc(be, slots, fac[k]);
    if (st != HPLS_OK) {
        st = hpls_dev_fail(be, st, "g-Spike's factors of %lld rows", (long long)n);
        goto done;
    }
    /* 2(i)-(ii): every block at once (no block needs another's factors) */
    HPLS_DEV_RUN(be, HPLS_K_gs_factor, hpls_dev_groups(nblk), HPLS_KL(0), HPLS_KL(nblk),
                 HPLS_KL(L->step), HPLS_KD(X->delta), HPLS_KG(L->tab), HPLS_KG(L->tabd),
                 HPLS_KG(ddl), HPLS_KG(dd), HPLS_KG(ddu), HPLS_KG(L->rs), HPLS_KG(L->c),
                 HPLS_KG(L->s), HPLS_KG(L->r0), HPLS_KG(L->r1), HPLS_KG(L->r2));
    hpls_dev_read(be, L->tab, 0, tab, (size_t)(GS_TAB * nblk) * sizeof *tab);
    hpls_dev_read(be, L->tabd, 0, tabd, (size_t)(GS_TABD * nblk) * sizeof *tabd);
    if ((st = device_failed(be)) != HPLS_OK)
        goto done;
    /* a whole piece: R_kk >= |dl_k+1| > 0 for k < m, only R_mm can vanish */
    hpls_int bad = -1;
    double rmin = 1.0;
    for (hpls_int i = 0; i < q; i++) {
        if (pc[i].p > 1)
            continue;
        const double *td = tabd + GS_TABD * pc[i].b;
        double rmm = td[GS_RMM], rel = td[GS_AUX] > 0.0 ? rmm / td[GS_AUX] : 0.0;
        rmin = rel < rmin ? rel : rmin;
        if (rmm == 0.0 || !isfinite(rmm))
            bad = i;
    }
    X->rcond = rmin < X->rcond ? rmin : X->rcond;
    if (bad >= 0) {
        st = level > 0 ? hpls_fail(HPLS_ERR_SINGULAR,
                                   "gspike: the reduced system (level %d) is "
                                   "singular: the matrix is numerically singular",
                                   level)
                       : hpls_fail(HPLS_ERR_SINGULAR,
                                   "gspike: R(%lld, %lld) = 0: the irreducible rows %lld..%lld "
                                   "are singular",
                                   (long long)pc[bad].hi, (long long)pc[bad].hi,
                                   (long long)pc[bad].lo + 1, (long long)pc[bad].hi);
        goto done;
    }
    st = level_reduced(X, L, level, pc, q, tab, tabd, ddl, dd, ddu);
done:
    hpls_free(rs);
    hpls_free(pc);
    hpls_free(tab);
    hpls_free(tabd);
    return st;
}

/* Algorithm 1's solve of a level: b into x (x may be b), depth by depth. */
static void level_solve(hpls_backend *be, const dgs_level *L, hpls_dbuf *b, hpls_dbuf *x)
{
    for (int k = 0; k < L->ngroup; k++) {
        const dgs_group *G = &L->group[k];
        size_t groups = hpls_dev_groups(G->nb);
        /* a level of whole pieces has no g and writes no y: rs stands in */
        hpls_dbuf *g = L->g ? L->g : L->rs, *y = G->y ? G->y : L->rs;
        HPLS_DEV_RUN(be, HPLS_K_gs_solve1, groups, HPLS_KL(G->b0), HPLS_KL(G->nb), HPLS_KL(L->step),
                     HPLS_KG(L->tab), HPLS_KG(L->tabd), HPLS_KG(L->rs), HPLS_KG(L->c),
                     HPLS_KG(L->s), HPLS_KG(L->r0), HPLS_KG(L->r1), HPLS_KG(L->r2), HPLS_KG(b),
                     HPLS_KG(x), HPLS_KG(g), HPLS_KG(y));
        if (G->nr == 0)
            continue;
        if (G->dev) { /* 3(i) on the device, in place */
            level_solve(be, G->dev, G->y, G->y);
        } else { /* on the host */
            size_t bytes = (size_t)G->nr * sizeof *G->hy;
            hpls_dev_read(be, G->y, 0, G->hy, bytes);
            hpls_status st =
                be->err == HPLS_OK ? hpls_gspike_solve(G->host, G->hy, G->hy) : HPLS_OK;
            if (st != HPLS_OK)
                hpls_be_fail(be, st, "gspike: the reduced system on the host: %s",
                             hpls_last_error());
            hpls_dev_write(be, G->y, 0, G->hy, bytes);
        }
        HPLS_DEV_RUN(be, HPLS_K_gs_solve2, groups, HPLS_KL(G->b0), HPLS_KL(G->nb), HPLS_KL(L->step),
                     HPLS_KG(L->tab), HPLS_KG(L->tabd), HPLS_KG(L->v), HPLS_KG(L->w), HPLS_KG(g),
                     HPLS_KG(G->y), HPLS_KG(x));
    }
}

/* Where reduced systems are solved: how's choice, else $HPLS_GSPIKE_REDUCED
 * (host or device, for the benchmark), else on the device. */
static hpls_status reduced_where(int *how)
{
    if (*how & (HPLS_TFAC_REDUCED_HOST | HPLS_TFAC_REDUCED_DEVICE))
        return HPLS_OK;
    const char *e = getenv("HPLS_GSPIKE_REDUCED");
    if (!e || strcmp(e, "device") == 0)
        *how |= HPLS_TFAC_REDUCED_DEVICE;
    else if (strcmp(e, "host") == 0)
        *how |= HPLS_TFAC_REDUCED_HOST;
    else
        return hpls_fail(HPLS_ERR_OPTION, "HPLS_GSPIKE_REDUCED=%s: host or device", e);
    return HPLS_OK;
}

void hpls_devgspike_free(hpls_backend *be, hpls_devgspike *F)
{
    if (!F)
        return;
    level_free(be, F->top);
    hpls_dev_free(be, F->dl);
    hpls_dev_free(be, F->d);
    hpls_dev_free(be, F->du);
    be->v->release(be, F->r);
    be->v->release(be, F->b0);
    hpls_free(F);
}

hpls_status hpls_devgspike_factor(hpls_backend *be, const hpls_tridiag *T, hpls_int p, double delta,
                                int how, hpls_devgspike **out)
{
    *out = NULL;
    hpls_int n = T->n;
    dgs_ctx X = {.be = be,
                 .delta = delta,
                 .how = how,
                 .nt = be->nthreads > 0 ? be->nthreads : 1,
                 .rcond = 1.0};
    hpls_status st = reduced_where(&X.how);
    if (st != HPLS_OK)
        return st;
    hpls_devgspike *F = hpls_calloc(1, sizeof *F);
    if (!F)
        return HPLS_ERR_NOMEM;
    F->n = n;
    if (n > 0) {
        size_t bytes = (size_t)n * sizeof(double);
        st = hpls_dev_upload(be, T->dl, bytes, &F->dl);
        if (st == HPLS_OK)
            st = hpls_dev_upload(be, T->d, bytes, &F->d);
        if (st == HPLS_OK)
            st = hpls_dev_upload(be, T->du, bytes, &F->du);
        if (st != HPLS_OK)
            st = hpls_dev_fail(be, st, "a tridiagonal matrix of %lld rows", (long long)n);
        if (st == HPLS_OK && !(F->top = hpls_calloc(1, sizeof *F->top)))
            st = HPLS_ERR_NOMEM;
        if (st == HPLS_OK)
            st = level_factor(&X, F->top, 0, p, n, T->dl, T->d, T->du, F->dl, F->d, F->du);
    }
    /* refine as gspike.c does: after spike growth or a repair */
    F->refine = n > 0 && (X.growth > GS_GROWTH_REFINE || X.nsingular > 0);
    if (st == HPLS_OK && F->refine) {
        st = be->v->alloc(be, n, &F->r);
        if (st == HPLS_OK)
            st = be->v->alloc(be, n, &F->b0);
    } else if (st == HPLS_OK) {
        hpls_dev_free(be, F->dl);
        hpls_dev_free(be, F->d);
        hpls_dev_free(be, F->du);
        F->dl = F->d = F->du = NULL;
    }
    if (st != HPLS_OK) {
        hpls_devgspike_free(be, F);
        return st;
    }
    F->nsingular = X.nsingular;
    F->rcond = X.rcond;
    *out = F;
    return HPLS_OK;
}

/* The solve, then gspike.c's refinement x += T^{-1}(b - T x), stopped as
 * dgtrfs does: at a backward error of eps, when a step no longer halves it,
 * or after GS_REFINE_MAX steps; its four maxima are read back. */
void hpls_devgspike_solve(hpls_backend *be, hpls_devgspike *F, const hpls_dvec *b, hpls_dvec *x)
{
    hpls_int n = F->n;
    if (n == 0 || be->err != HPLS_OK)
        return;
    hpls_dbuf *bb = hpls_dev_vbuf(b), *xx = hpls_dev_vbuf(x);
    if (F->refine && b == x) { /* b is needed after x is written */
        hpls_dev_copy(be, bb, 0, hpls_dev_vbuf(F->b0), 0, (size_t)n * sizeof(double));
        bb = hpls_dev_vbuf(F->b0);
    }
    level_solve(be, F->top, bb, xx);
    double last = INFINITY;
    for (int it = 0; F->refine && it < GS_REFINE_MAX; it++) {
        int ng = hpls_dev_rgroups(be, n);
        hpls_dbuf *part = hpls_dev_part(be, 4);
        if (!part)
            return;
        HPLS_DEV_RUN(be, HPLS_K_gs_resid_part, (size_t)ng, HPLS_KL(n), HPLS_KG(F->dl),
                     HPLS_KG(F->d), HPLS_KG(F->du), HPLS_KG(F->top->rs), HPLS_KG(bb), HPLS_KG(xx),
                     HPLS_KV(F->r), HPLS_KG(part));
        double h[4]; /* max |D r|, ||D T||_inf, ||x||_inf, ||D b||_inf */
        hpls_dev_reduce_part(be, ng, 4, HPLS_DEV_MAX, h);
        double den = h[1] * h[2] + h[3], berr = den > 0 ? h[0] / den : 0.0;
        if (!isgreater(berr, DBL_EPSILON) || !islessequal(berr, 0.5 * last)) /* quiet: NaN */
            break;
        last = berr;
        level_solve(be, F->top, hpls_dev_vbuf(F->r), hpls_dev_vbuf(F->r)); /* the correction */
        be->v->axpy(be, n, 1.0, F->r, x);                                  /* x += r */
    }
}

hpls_int hpls_devgspike_singular(const hpls_devgspike *F)
{
    return F->nsingular;
}

double hpls_devgspike_rcond(const hpls_devgspike *F)
{
    return F->rcond;
}
