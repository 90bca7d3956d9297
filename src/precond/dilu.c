/* SPDX-License-Identifier: BSD-3-Clause */
/* dilu.c (precond): DILU, OpenFOAM's diagonal incomplete LU, and DIC, its
 * symmetric case (Wang, Liu, Computer Science 49(6), 2022, Sec. 2).  With
 * A = L + D + U, M = (E + L) E^-1 (E + U) with E diagonal such that
 * diag(M) = diag(A):
 *     E_ii = A_ii - sum_{j<i} K_ij / E_jj,   K = L o U^T (Hadamard product),
 * so E_ii waits only for the E_jj with K_ij != 0.  K is never stored: the
 * position of each lower entry's mirror A_ji depends on the pattern only, so
 * it is found once at setup (a cursor per row j that only moves forward: the
 * rows i reading row j come in increasing order, O(nnz) in all) and kept.  At
 * setup and at every update of the values one pass over A's rows computes E,
 * checks E_ii and writes the values of row i of the split copies of L and U,
 * scaled by rD_i = 1/E_ii, that the sweeps stream (their columns are laid out
 * once too).  Construction by strategy: serial,
 * levels (Alg. 3, one parallel loop per level; K's pattern lies within L's,
 * so L's level sets, which the forward sweep needs anyway, are a valid
 * schedule) or syncfree (Alg. 5: ready flags).  Application (Sec. 2.2.4):
 *     (E + L) y = r:      y_i = rD_i r_i - sum_{j<i} (rD_i A_ij) y_j,
 *     (E + U) z = E y:    z_i = y_i - sum_{j>i} (rD_i A_ij) z_j.
 * M^T = (E + U^T) E^-1 (E + L^T) is the DILU of A^T with the same E, so M^-T
 * is the same two sweeps over A^T.  DIC: A symmetric, U = L^T, K_ij = A_ij^2,
 * and M is positive definite iff every E_ii > 0, negative definite iff every
 * E_ii < 0 (OpenFOAM's pressure matrices, whose diagonal is negative: its DIC
 * takes them as they are), which is checked at setup: every E_ii must have
 * the sign of E_11 = A_11.
 *
 * dilu_order=faces does the arithmetic in OpenFOAM's order (lduMatrix's
 * DILUPreconditioner and DICPreconditioner), so that E and z = M^-1 r equal an
 * OpenFOAM run's bit for bit.  Its faces (l, u), l < u, are sorted by l, then
 * u, and E is updated face by face, E_u -= (A_lu A_ul) / E_l: for row i, the
 * terms are subtracted one by one, j increasing, each divided by E_j (rows
 * sums them first, then subtracts, each times rD_j).  Row i's E_jj are final
 * when its first face comes (faces with u = j have l < j), so the result is
 * the same row by row in any order the dependencies allow: the levels and
 * syncfree constructions give the same bits as the serial one, no strategy is
 * forced.  Its forward sweep (faces by u, then l) is ours; its backward sweep
 * runs the faces backwards, so row i subtracts its upper terms j decreasing:
 * the upper copy's rows are stored reversed.  (M^-T's sweeps keep our order.)
 * The copies stay (rather than sweeping A with rD_i applied term by term, as
 * OpenFOAM does): a sweep over A would read both triangles, so one application
 * (two sweeps) would read A twice where the copies cost one pass writing their
 * values at an update, and a solve applies M at least twice (bicgstab).
 *
 * On a device backend E and the copies' values are built there
 * (kernels/device/factor.cl, the same rows in the same order: the host's bits)
 * by the sweeps' strategy. */
#include "precond/trisolve.h"

typedef struct dilu_ctx {
    hpls_trifac *F;
    double shift;
    int symmetric;  /* dic: check that A is symmetric and E definite */
    int sign;       /* dic: the sign every E_ii must have, E_11's (0: dilu, not checked) */
    hpls_real *E, *rD;
    int faces;      /* dilu_order=faces */
} dilu_ctx;

/* What the pass found: the first row (0-based, n: none) whose E_ii is
 * unusable and the first whose lower part does not mirror its column (dic). */
typedef struct dilu_report {
    hpls_int bad, asym;
} dilu_report;

/* F->mirror and F->pairs (trisolve.h) from A's pattern: row j's cursor
 * starts at its upper part and only moves forward, since the rows i that
 * look for their mirror in row j come in increasing order. */
static hpls_status find_mirrors(hpls_trifac *F)
{
    const hpls_trisplit *t = &F->a;
    const hpls_csr *A = t->A;
    hpls_int n = F->n, pairs = 0;
    hpls_int *cur = hpls_malloc(n, sizeof *cur);
    F->mirror = hpls_malloc(A->nnz, sizeof *F->mirror);
    if (!cur || !F->mirror) {
        hpls_free(cur);
        return HPLS_ERR_NOMEM;
    }
    for (hpls_int j = 0; j < n; j++)
        cur[j] = t->upbeg[j];
    for (hpls_int i = 0; i < n; i++)
        for (hpls_int p = t->beg[i]; p < t->lowend[i]; p++) {
            hpls_int j = A->colind[p], q = cur[j], end = t->end[j];
            while (q < end && A->colind[q] < i)
                q++;
            cur[j] = q;
            F->mirror[p] = q < end && A->colind[q] == i ? q : -1;
            pairs += F->mirror[p] >= 0;
        }
    F->pairs = pairs;
    hpls_free(cur);
    return HPLS_OK;
}

/* Row i: E_ii = shifted A_ii - sum (A_ij A_ji) rD_j (Alg. 3 line 6, Alg. 5
 * lines 3-10), its check, and the values of row i of the scaled copies,
 * which start at lv and uv; faces is c->faces, a constant where the caller
 * hoists it; plain says, as a constant, that there is no shift and no dic
 * check and that the rows come in order up to the first refused one
 * (rows_in_order; 0: ask c).  The row's largest |A_ij| is gathered in the
 * loops that read the entries anyway, unless the shift needs it before E_ii
 * (those maxima then change nothing).  Returns whether the row is refused. */
static inline int dilu_row(const dilu_ctx *c, hpls_int i, hpls_real *restrict lv,
                           hpls_real *restrict uv, dilu_report *r, int faces, int plain)
{
    const hpls_trifac *F = c->F;
    const hpls_trisplit *t = &F->a;
    const hpls_real *v = t->A->val;
    const hpls_idx *col = t->A->colind;
    const hpls_int *mirror = F->mirror;
    hpls_int p0 = t->beg[i], le = t->lowend[i], ub = t->upbeg[i], end = t->end[i];
    double d = ub > le ? v[le] : 0.0; /* [le, ub): the diagonal, if stored */
    double big = fabs(d), sum = 0;    /* A_ii NaN: so is E_ii, refused whatever big is */
    int asym = 0;
    if (!plain && c->shift != 0)
        for (hpls_int p = p0; p < end; p++)
            big = hpls_maxd(big, fabs(v[p]));
    double e = plain ? d : hpls_trifac_shifted(d, big, c->shift);
    for (hpls_int p = p0; p < le; p++) {
        hpls_int q = mirror[p];
        if (q >= 0) {
            hpls_int j = col[p];
            if (faces) /* face (j, i): E_i -= (A_ji A_ij) / E_j; E_j = 0: reported */
                e -= plain || c->E[j] != 0.0 ? v[q] * v[p] / c->E[j] : 0.0;
            else
                sum += v[p] * v[q] * c->rD[j];
        }
    }
    if (!plain && c->symmetric) /* dic: a loop of its own keeps the test out of dilu's */
        for (hpls_int p = p0; p < le; p++)
            asym |= mirror[p] < 0 || v[mirror[p]] != v[p];
    e -= sum;
    double rd = e != 0.0 ? 1.0 / e : 0.0; /* a zero pivot is reported (check_e), not trapped */
    c->E[i] = e;
    c->rD[i] = rd;
    for (hpls_int p = p0; p < le; p++) {
        big = hpls_maxd(big, fabs(v[p]));
        lv[p - p0] = v[p] * rd;
    }
    /* faces: OpenFOAM's backward sweep takes row i's upper terms j decreasing */
    for (hpls_int p = ub; p < end; p++) {
        big = hpls_maxd(big, fabs(v[p]));
        uv[faces ? end - 1 - p : p - ub] = v[p] * rd;
    }
    int bad = hpls_trifac_bad_pivot(e, big, plain ? 0 : c->sign); /* plain: no sign */
    if (bad && i < r->bad)
        r->bad = i;
    if (!plain && asym && i < r->asym)
        r->asym = i;
    return bad;
}

static void report_merge(dilu_report *to, const dilu_report *from)
{
    to->bad = from->bad < to->bad ? from->bad : to->bad;
    to->asym = from->asym < to->asym ? from->asym : to->asym;
}

/* Row i, its copies found through their slots; whether it is refused */
static inline int dilu_row_at(const dilu_ctx *c, hpls_int i, dilu_report *r, int faces, int plain)
{
    const hpls_trifac *F = c->F;
    return dilu_row(c, i, F->low.val + F->low.ptr[hpls_tricopy_slot(&F->low, i)],
                    F->up.val + F->up.ptr[hpls_tricopy_slot(&F->up, i)], r, faces, plain);
}

/* Rows first..last-1 in order; with the copies in row order (no slots) a
 * row's copies start where the previous row's end, so no row loads their
 * offsets.  A plain row refused ends them: the update fails on the first
 * refused row, and no row after it reads a zero E_j, so plain rows divide
 * by E_j untested (levels and syncfree test it). */
__attribute__((always_inline)) static inline void rows_in_order(const dilu_ctx *c, hpls_int first,
                                                                hpls_int last, dilu_report *r,
                                                                int faces, int plain)
{
    const hpls_trifac *F = c->F;
    const hpls_trisplit *t = &F->a;
    if (F->low.slot || F->up.slot) {
        for (hpls_int i = first; i < last; i++)
            if (dilu_row_at(c, i, r, faces, plain) && plain)
                return;
        return;
    }
    hpls_real *lv = F->low.val + F->low.ptr[first], *uv = F->up.val + F->up.ptr[first];
    for (hpls_int i = first; i < last; i++) {
        if (dilu_row(c, i, lv, uv, r, faces, plain) && plain)
            return;
        lv += t->lowend[i] - t->beg[i];
        uv += t->end[i] - t->upbeg[i];
    }
}

/* Rows first..last-1 in order (serial, block), faces and plain (no shift,
 * not dic: OpenFOAM's DILU) tested once.  Out of
 * line: inlined into numeric_dilu it spilled the row loop's pointers to the
 * stack (2% more instructions an update). */
__attribute__((noinline)) static void dilu_rows(const dilu_ctx *c, hpls_int first, hpls_int last,
                                                dilu_report *r)
{
    int plain = c->shift == 0 && !c->symmetric;
    if (c->faces && plain)
        rows_in_order(c, first, last, r, 1, 1);
    else if (c->faces)
        rows_in_order(c, first, last, r, 1, 0);
    else if (plain)
        rows_in_order(c, first, last, r, 0, 1);
    else
        rows_in_order(c, first, last, r, 0, 0);
}

/* Level l's rows (levels: Alg. 3's parallel loop, inside the team), faces
 * hoisted as in dilu_rows */
static inline void dilu_level(const dilu_ctx *c, const hpls_levels *L, hpls_int l, dilu_report *r,
                              int faces)
{
#pragma omp for schedule(static)
    for (hpls_int off = L->off[l]; off < L->off[l + 1]; off++)
        dilu_row_at(c, L->order[off], r, faces, 0);
}

/* The claimed chunk of rows first..kend-1 (syncfree, Alg. 5): rows of
 * earlier chunks are waited for, this chunk's are done in order; faces
 * hoisted as in dilu_rows */
static inline void dilu_chunk(const dilu_ctx *c, hpls_int first, hpls_int kend, unsigned epoch,
                              dilu_report *r, int faces)
{
    hpls_trifac *F = c->F;
    const hpls_trisplit *t = &F->a;
    for (hpls_int i = first; i < kend; i++) {
        for (hpls_int p = t->beg[i]; p < t->lowend[i]; p++)
            if (t->A->colind[p] < first)
                hpls_sync_wait(&F->sync, t->A->colind[p], epoch);
        dilu_row_at(c, i, r, faces, 0);
        hpls_sync_post(&F->sync, i, epoch);
    }
}

static void build_e(dilu_ctx *c, dilu_report *out)
{
    hpls_trifac *F = c->F;
    hpls_int n = F->n;
    *out = (dilu_report){.bad = n, .asym = n};
    if (F->build == HPLS_TRI_SERIAL || F->build == HPLS_TRI_BLOCK) {
        /* block: each block's rows in order by one thread */
        int nb = F->build == HPLS_TRI_BLOCK ? F->nt : 1;
        if (nb == 1) { /* no team to start */
            dilu_rows(c, 0, n, out);
            return;
        }
#pragma omp parallel num_threads(nb)
        {
            dilu_report mine = {.bad = n, .asym = n};
#pragma omp for schedule(static, 1)
            for (int q = 0; q < nb; q++)
                dilu_rows(c, F->blk[q], F->blk[q + 1], &mine);
#pragma omp critical
            report_merge(out, &mine);
        }
        return;
    }
    const hpls_levels *L = &F->fwd.lev; /* levels: Alg. 3 over L's level sets (built with the copies) */
    unsigned epoch = F->build == HPLS_TRI_SYNCFREE ? hpls_sync_begin(&F->sync) : 0;
#pragma omp parallel num_threads(F->nt)
    {
        dilu_report mine = {.bad = n, .asym = n};
        if (F->build == HPLS_TRI_LEVELS) {
            for (hpls_int l = 0; l < L->nlev; l++)
                if (c->faces) /* the same branch in every thread */
                    dilu_level(c, L, l, &mine, 1);
                else
                    dilu_level(c, L, l, &mine, 0);
        } else { /* Alg. 5 */
            hpls_int k;
            while ((k = hpls_sync_claim(&F->sync)) < n) {
                hpls_int kend = k + HPLS_SYNC_CHUNK < n ? k + HPLS_SYNC_CHUNK : n;
                if (c->faces)
                    dilu_chunk(c, k, kend, epoch, &mine, 1);
                else
                    dilu_chunk(c, k, kend, epoch, &mine, 0);
            }
        }
#pragma omp critical
        report_merge(out, &mine);
    }
}

/* dic's symmetry and the pivots, from the first rows that failed them (n:
 * none) and the count of lower entries with a mirror */
static hpls_status check_e(hpls_trifac *F, hpls_int bad, hpls_int asym, hpls_int pairs,
                           int sign)
{
    hpls_int n = F->n;
    /* every lower entry mirrored by an equal one and as many upper entries: symmetric */
    if (F->symmetric && (asym < n || pairs != F->up.ptr[n]))
        return hpls_fail(HPLS_ERR_UNSUPPORTED,
                         "dic: A is not symmetric (row %lld differs from its column): use dilu",
                         (long long)(asym < n ? asym + 1 : n));
    if (bad < n)
        return hpls_trifac_pivot_error(F, bad, F->vec[0][bad], "E_ii", sign);
    return HPLS_OK;
}

/* The same on the device (after the sweeps' upload: trisolve.c).  Its rows
 * report no mirror count: with every lower entry mirrored (asym n) the count
 * is the lower copy's size.  Its kernel (factor.cl) wants dic's E positive: a
 * negative definite A is refused there. */
static hpls_status device_dilu(hpls_trifac *F)
{
    hpls_int bad, asym;
    double pivot;
    hpls_status st =
        F->be->d->fac_build(F->be, F, HPLS_FAC_DILU, F->chosen, &bad, &asym, &pivot);
    return st != HPLS_OK ? st
                         : check_e(F, bad, asym, asym < F->n ? 0 : F->low.ptr[F->n], F->symmetric);
}

/* E from A's values (and its checks), the copies, the M^-T sweeps' values:
 * the numeric part of the setup, again at every update; on a device only
 * the last (device_dilu builds the rest there). */
static hpls_status numeric_dilu(hpls_trifac *F)
{
    dilu_ctx c = {.F = F, .shift = F->shift, .symmetric = F->symmetric, .E = F->vec[0],
                  .rD = F->vec[1], .faces = F->faces};
    if (F->symmetric && F->n > 0) { /* E_11 = A_11, shifted: row 1 has no lower part */
        const hpls_trisplit *t = &F->a;
        hpls_int p0 = t->beg[0], end = t->end[0];
        double big = 0;
        for (hpls_int p = p0; p < end; p++)
            big = hpls_maxd(big, fabs(t->A->val[p]));
        double a11 = t->upbeg[0] > t->lowend[0] ? t->A->val[t->lowend[0]] : 0.0;
        c.sign = hpls_trifac_shifted(a11, big, F->shift) < 0 ? -1 : 1;
    }
    if (!F->dev_numeric) {
        dilu_report r;
        build_e(&c, &r);
        hpls_status st = check_e(F, r.bad, r.asym, F->pairs, c.sign);
        if (st != HPLS_OK)
            return st;
    }
    if (F->at.A) { /* over A^T, unscaled: (E + U^T) y = r, (E + L^T) z = E y */
        F->fwd_t.T = hpls_trisplit_tri(&F->at, 0, NULL);
        F->fwd_t.dinv = c.rD;
        F->bwd_t.T = hpls_trisplit_tri(&F->at, 1, NULL);
        F->bwd_t.bscale = c.E;
        F->bwd_t.dinv = c.rD;
    }
    return HPLS_OK;
}

static hpls_status setup_dilu(hpls_backend *be, const hpls_csr *A, const hpls_csr *At,
                              const hpls_pcopts *o, hpls_pc *pc, int symmetric)
{
    hpls_trifac *F;
    hpls_status st = hpls_trifac_create(be, A, At, o, symmetric ? "dic" : "dilu", &F);
    if (st != HPLS_OK)
        return st;
    hpls_int n = F->n;
    F->shift = o->shift;
    F->symmetric = symmetric;
    F->faces = o->dilu_order;
    F->numeric = numeric_dilu;
    F->vec[0] = hpls_calloc(n, sizeof *F->vec[0]); /* E */
    F->vec[1] = hpls_calloc(n, sizeof *F->vec[1]); /* rD = 1 / E */
    if (!F->vec[0] || !F->vec[1])
        st = HPLS_ERR_NOMEM;
    if (st == HPLS_OK)
        st = hpls_trifac_copies(F);
    if (st == HPLS_OK) {
        /* the copies' columns, once; on a device E and their values are built there */
        hpls_trifac_copy_pattern(F, F->faces);
        if (be->d)
            F->dev_numeric = device_dilu;
        else
            st = find_mirrors(F);
    }
    if (st == HPLS_OK) {
        F->fwd.bscale = F->vec[1]; /* y_i = rD_i r_i - ...; the backward sweep is unscaled */
        st = numeric_dilu(F);
    }
    if (st == HPLS_OK)
        st = hpls_trifac_finish(F, pc);
    if (st != HPLS_OK)
        hpls_trifac_destroy(F);
    return st;
}

hpls_status hpls_pc_setup_dilu(hpls_backend *be, const hpls_csr *A, const hpls_csr *At,
                               const hpls_pcopts *o, hpls_pc *pc)
{
    return setup_dilu(be, A, At, o, pc, 0);
}

hpls_status hpls_pc_setup_dic(hpls_backend *be, const hpls_csr *A, const hpls_csr *At,
                              const hpls_pcopts *o, hpls_pc *pc)
{
    return setup_dilu(be, A, At, o, pc, 1);
}
