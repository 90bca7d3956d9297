/* SPDX-License-Identifier: BSD-3-Clause */
/* trisolve.c: the machinery the factored preconditioners dilu, dic and ilu0
 * share (Wang, Liu 2022, Sec. 2.2.4 and 2.3.5): z = M^-1 r as a forward and a
 * backward sweep by the chosen strategy over split copies of M's triangles
 * (rows in level order when a level strategy may run, Alg. 4), M^-T r by the
 * same sweeps over A^T, and `auto`, the paper's advice made automatic (end of
 * Sec. 2.3.5): the first applications alternate between the strategies, the
 * fastest is kept; on one thread serial is kept at once; a strategy whose
 * trial takes more than twice serial's time is dropped on the spot.
 * block factors and sweeps the block-diagonal part of A instead, each thread
 * its block alone: no waits, more iterations.  Timing an application cannot
 * see the iterations a different M costs, so auto takes block by a rule set
 * from whole solves (trisolve.h: HPLS_TRI_AUTO_BLOCK_ROWS), before anything
 * is built. */
#include "precond/trisolve.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Applications of each strategy timed by auto before it decides. */
#define AUTO_TRIALS 2
/* A parallel strategy's trial is dropped past this many times serial's time. */
#define AUTO_CAP 2.0

/* auto has strategies still to time */
static int undecided(const hpls_trifac *F)
{
    return F->strategy == HPLS_TRI_AUTO && F->trials < 3 * AUTO_TRIALS;
}

/* the level sets may be used: levels chosen (by the user, or by auto on a
 * device), or auto still timing every strategy on the host */
static int by_levels(const hpls_trifac *F)
{
    return F->chosen == HPLS_TRI_LEVELS || undecided(F);
}

static void trisplit_free(hpls_trisplit *t)
{
    hpls_free(t->lowend);
    hpls_free(t->upbeg);
    hpls_free(t->blkbeg);
    hpls_free(t->blkend);
}

static void tricopy_free(hpls_tricopy *c)
{
    hpls_free(c->ptr);
    hpls_free(c->col);
    hpls_free(c->val);
    hpls_free(c->slot);
}

void hpls_trifac_destroy(void *ctx)
{
    hpls_trifac *F = ctx;
    if (!F)
        return;
    trisplit_free(&F->a);
    trisplit_free(&F->at);
    tricopy_free(&F->low);
    tricopy_free(&F->up);
    hpls_levels_free(&F->fwd.lev);
    hpls_levels_free(&F->bwd.lev);
    hpls_levels_free(&F->fwd_t.lev);
    hpls_levels_free(&F->bwd_t.lev);
    hpls_sync_free(&F->sync);
    hpls_free(F->blk);
    hpls_free(F->mirror);
    for (int k = 0; k < 4; k++) {
        hpls_free(F->vec[k]);
        if (F->be->d)
            F->be->d->sweep_release(F->be, F->dev[k]);
    }
    if (F->be->d)
        F->be->d->fac_release(F->be, F->dfac);
    hpls_free(F);
}

/* Row i's entries in columns [lo, hi): columns are sorted, so they are the
 * contiguous positions [*b, *e) of A. */
static void row_range(const hpls_csr *A, hpls_int i, hpls_int lo, hpls_int hi, hpls_int *b,
                      hpls_int *e)
{
    hpls_int p = A->rowptr[i], end = A->rowptr[i + 1];
    while (p < end && A->colind[p] < lo)
        p++;
    *b = p;
    while (p < end && A->colind[p] < hi)
        p++;
    *e = p;
}

/* t on A: whole rows, or (blk non-NULL, trisolve=block) each row's entries
 * in its own block's columns, found by the thread that will factor the block
 * (its pages first touched there).  The split (lowend, upbeg) is the same
 * either way: a row's diagonal lies in its block. */
static hpls_status trisplit_init(hpls_trisplit *t, const hpls_csr *A, int nt, const hpls_int *blk)
{
    hpls_int n = A->nrows;
    t->A = A;
    t->beg = A->rowptr;
    t->end = A->rowptr + 1;
    t->lowend = hpls_malloc(n, sizeof *t->lowend);
    t->upbeg = hpls_malloc(n, sizeof *t->upbeg);
    if (blk) {
        t->beg = t->blkbeg = hpls_malloc(n, sizeof *t->blkbeg);
        t->end = t->blkend = hpls_malloc(n, sizeof *t->blkend);
    }
    if (!t->lowend || !t->upbeg || (blk && (!t->blkbeg || !t->blkend)))
        return HPLS_ERR_NOMEM;
    if (blk) {
#pragma omp parallel for num_threads(nt) schedule(static, 1)
        for (int q = 0; q < nt; q++)
            for (hpls_int i = blk[q]; i < blk[q + 1]; i++)
                row_range(A, i, blk[q], blk[q + 1], &t->blkbeg[i], &t->blkend[i]);
    }
    hpls_k_tri_split(nt, A, t->lowend, t->upbeg);
    return HPLS_OK;
}

/* block: the blocks of rows, a block per thread, split as the SpMV splits
 * rows (by nonzeros + rows); a.A and at.A then stand for their block-diagonal
 * parts (trisplit_init). */
static hpls_status block_init(hpls_trifac *F, const hpls_csr *A)
{
    if (F->be->d)
        return hpls_fail(HPLS_ERR_UNSUPPORTED,
                         "%s: trisolve=block runs on the host (backend cpu); on %s use levels, "
                         "syncfree or auto",
                         F->name, F->be->name);
    if (!(F->blk = hpls_malloc(F->nt + 1, sizeof *F->blk)))
        return HPLS_ERR_NOMEM;
    for (int t = 0; t <= F->nt; t++)
        F->blk[t] = hpls_k_row_split(A, t, F->nt);
    return HPLS_OK;
}

hpls_status hpls_trifac_create(hpls_backend *be, const hpls_csr *A, const hpls_csr *At,
                               const hpls_pcopts *o, const char *name, hpls_trifac **out)
{
    hpls_trifac *F = hpls_calloc(1, sizeof *F);
    *out = NULL;
    if (!F)
        return HPLS_ERR_NOMEM;
    F->name = name;
    F->n = A->nrows;
    F->be = be;
    F->nt = be->nthreads;
    F->strategy = o->trisolve;
    /* auto builds serially: on 2 cores the syncfree construction took 1.7-1.9x
     * serial's time on a quiet machine (bench/results/dilu.md, 1e6 rows, 2
     * threads), and nothing caps a construction when a thread is descheduled */
    F->build = F->strategy == HPLS_TRI_AUTO ? HPLS_TRI_SERIAL : F->strategy;
    F->chosen = F->strategy == HPLS_TRI_AUTO ? HPLS_TRI_SERIAL : F->strategy;
    if (F->strategy == HPLS_TRI_AUTO && F->nt == 1) {
        /* one thread: nothing runs beside serial, whose sweeps do the least work */
        F->trials = 3 * AUTO_TRIALS;
    }
    if (F->strategy == HPLS_TRI_AUTO && !be->d && F->nt > 1 &&
        F->n / F->nt >= HPLS_TRI_AUTO_BLOCK_ROWS &&
        24.0 * (double)A->nnz > (double)hpls_k_llc_bytes()) {
        F->build = F->chosen = HPLS_TRI_BLOCK;
        F->trials = 3 * AUTO_TRIALS;
    }
    if (F->strategy == HPLS_TRI_AUTO && be->d) {
        /* a device: the sweeps run there, by the device's choice (syncfree on
         * a GPU, levels on a CPU), and so do dilu/dic's constructions */
        F->chosen = be->d->auto_sweep(be);
        F->trials = 3 * AUTO_TRIALS;
    }
    hpls_status st = HPLS_OK;
    if (F->build == HPLS_TRI_SYNCFREE || undecided(F))
        st = hpls_sync_init(&F->sync, F->n);
    if (st == HPLS_OK && F->build == HPLS_TRI_BLOCK)
        st = block_init(F, A);
    if (st == HPLS_OK)
        st = trisplit_init(&F->a, A, F->nt, F->blk);
    if (st == HPLS_OK && At)
        st = trisplit_init(&F->at, At, F->nt, F->blk);
    if (st != HPLS_OK) {
        hpls_trifac_destroy(F);
        return st;
    }
    *out = F;
    return HPLS_OK;
}

/* c's offsets (by slot) and slot map for the rows in lev's order (NULL:
 * natural), row i having end[i] - beg[i] entries. */
static hpls_status tricopy_alloc(hpls_tricopy *c, hpls_int n, const hpls_levels *lev,
                                 const hpls_int *beg, const hpls_int *end)
{
    c->ptr = hpls_malloc(n + 1, sizeof *c->ptr);
    if (!c->ptr)
        return HPLS_ERR_NOMEM;
    if (lev && !(c->slot = hpls_malloc(n, sizeof *c->slot)))
        return HPLS_ERR_NOMEM;
    c->ptr[0] = 0;
    for (hpls_int s = 0; s < n; s++) {
        hpls_int i = lev ? lev->order[s] : s;
        c->ptr[s + 1] = c->ptr[s] + (end[i] - beg[i]);
        if (lev)
            c->slot[i] = s;
    }
    c->col = hpls_malloc(c->ptr[n], sizeof *c->col);
    c->val = hpls_calloc(c->ptr[n], sizeof *c->val); /* a device construction fills them there */
    return c->col && c->val ? HPLS_OK : HPLS_ERR_NOMEM;
}

/* Threads of the level colouring: Alg. 7 as the paper advises (Sec. 2.3.4);
 * serially on one thread, and for auto, whose setup, like its construction,
 * must not depend on every thread getting a core. */
static int colour_threads(const hpls_trifac *F)
{
    return F->strategy == HPLS_TRI_AUTO ? 1 : F->nt;
}

/* trisolve=levels: below this mean level width (rows) a level's rows cannot
 * pay for its barrier, and the sweeps run serially (on the same copies: the
 * same bits).  Rough, on the shared 2-core machine (load 1, 2 threads, ilu0
 * bicgstab, 20 iterations): levels took 2.6x serial's time on poisson2d 1000^2
 * (mean width 500), 4.5x at 300^2 (150), 2.8x on poisson3d 100^3 (3356); gas
 * k = 1 (width 1) about 25 s an iteration against milliseconds.  So the bar is
 * low, to catch only the hopeless; to be measured again on a quiet machine.
 * Only past LEVELS_MAX levels (about 10 us a barrier measured there: 0.1 s
 * a sweep and more) is the user's choice overruled: fewer cost little. */
enum { LEVELS_MIN_WIDTH = 1000, LEVELS_MAX = 10000 };

/* A host levels sweep over many too narrow level sets: serial, and why */
static void check_width(hpls_trifac *F)
{
    const hpls_levels *L = &F->fwd.lev;
    if (F->strategy != HPLS_TRI_LEVELS || F->be->d || L->nlev <= LEVELS_MAX || F->nt == 1)
        return;
    double mean = (double)F->n / (double)L->nlev;
    if (mean >= LEVELS_MIN_WIDTH)
        return;
    F->chosen = F->build = HPLS_TRI_SERIAL; /* the construction's sweeps too */
    snprintf(F->narrow, sizeof F->narrow,
             "serial (levels refused: %lld levels of %.3g rows on average, below %d: too narrow "
             "to pay for a barrier each)",
             (long long)L->nlev, mean, LEVELS_MIN_WIDTH);
}

hpls_status hpls_trifac_copies(hpls_trifac *F)
{
    const hpls_trisplit *t = &F->a;
    hpls_int n = F->n;
    hpls_status st;
    /* levels, or auto's choice on a device; the host's auto: after its trials (auto_next) */
    int by_level = F->chosen == HPLS_TRI_LEVELS;
    if (by_level) {
        hpls_tri Tl = hpls_trisplit_tri(t, 0, NULL);
        hpls_tri Tu = hpls_trisplit_tri(t, 1, NULL);
        if ((st = hpls_levels_build(&Tl, colour_threads(F), &F->fwd.lev)) != HPLS_OK ||
            (st = hpls_levels_build(&Tu, colour_threads(F), &F->bwd.lev)) != HPLS_OK)
            return st;
        check_width(F);
    }
    if ((st = tricopy_alloc(&F->low, n, by_level ? &F->fwd.lev : NULL, t->beg, t->lowend)) !=
            HPLS_OK ||
        (st = tricopy_alloc(&F->up, n, by_level ? &F->bwd.lev : NULL, t->upbeg, t->end)) != HPLS_OK)
        return st;
    F->fwd.T = (hpls_tri){.n = n,
                          .lo = F->low.ptr,
                          .hi = F->low.ptr + 1,
                          .col = F->low.col,
                          .val = F->low.val,
                          .row = by_level ? F->fwd.lev.order : NULL};
    F->bwd.T = (hpls_tri){.n = n,
                          .lo = F->up.ptr,
                          .hi = F->up.ptr + 1,
                          .col = F->up.col,
                          .val = F->up.val,
                          .row = by_level ? F->bwd.lev.order : NULL,
                          .upper = 1};
    return HPLS_OK;
}

static void copy_pattern_rows(hpls_trifac *F, int reverse, hpls_int first, hpls_int last)
{
    const hpls_csr *A = F->a.A;
    for (hpls_int i = first; i < last; i++) {
        hpls_int p0 = F->a.beg[i], le = F->a.lowend[i], ub = F->a.upbeg[i];
        hpls_int end = F->a.end[i];
        hpls_int ls = hpls_tricopy_slot(&F->low, i), us = hpls_tricopy_slot(&F->up, i);
        for (hpls_int p = p0; p < le; p++)
            F->low.col[F->low.ptr[ls] + (p - p0)] = A->colind[p];
        for (hpls_int p = ub; p < end; p++)
            F->up.col[F->up.ptr[us] + (reverse ? end - 1 - p : p - ub)] = A->colind[p];
    }
}

void hpls_trifac_copy_pattern(hpls_trifac *F, int reverse)
{
    if (!F->blk) {
        copy_pattern_rows(F, reverse, 0, F->n);
        return;
    }
    /* block: each block's rows by the thread that factors and sweeps them
     * (its first touch: the pages' faults in parallel, on its memory node) */
#pragma omp parallel for num_threads(F->nt) schedule(static, 1)
    for (int q = 0; q < F->nt; q++)
        copy_pattern_rows(F, reverse, F->blk[q], F->blk[q + 1]);
}

hpls_status hpls_trifac_pivot_error(const hpls_trifac *F, hpls_int i, double piv, const char *what,
                                    int sign)
{
    double big = 0;
    for (hpls_int p = F->a.beg[i]; p < F->a.end[i]; p++)
        big = hpls_maxd(big, fabs(F->a.A->val[p]));
    if (sign && !(sign * piv > 0))
        return hpls_fail(HPLS_ERR_SINGULAR,
                         "%s: %s = %g %s 0 at row %lld: M is not %s definite (the sign of "
                         "row 1's; A is not an M-matrix?), cg would diverge; retry with a "
                         "diagonal shift (shift=1 or more) or use dilu with bicgstab",
                         F->name, what, piv, sign > 0 ? "<=" : ">=", (long long)i + 1,
                         sign > 0 ? "positive" : "negative");
    return hpls_fail(HPLS_ERR_SINGULAR,
                     "%s: %s = %g at row %lld is zero or tiny against the row's largest "
                     "entry %g: M is singular; retry with a diagonal shift "
                     "(e.g. shift=1e-2: A_ii + shift*max_j|A_ij|)",
                     F->name, what, piv, (long long)i + 1, big);
}

/* One sweep by strategy, stopped and finished serially past deadline (0:
 * none); returns 1 when it was late. */
static int sweep(hpls_trifac *F, hpls_sweep *w, int strategy, const hpls_real *b, hpls_real *x,
                 double deadline)
{
    /* the backend's prefetch variant (chosen by now or later) for this copy's size */
    w->pf = hpls_k_sweep_pf(w, F->be->pf);
    if (strategy == HPLS_TRI_BLOCK) {
        hpls_k_sweep_blocks(F->nt, w, F->blk, b, x);
        return 0;
    }
    if (strategy == HPLS_TRI_LEVELS)
        return hpls_k_sweep_levels(F->nt, w, b, x, deadline);
    if (strategy == HPLS_TRI_SYNCFREE)
        return hpls_k_sweep_syncfree(F->nt, w, &F->sync, b, x, deadline);
    hpls_k_sweep_serial(w, b, x);
    return 0;
}

/* The copy c of sweep w laid out again: in lev's level order (Alg. 4: a
 * level's rows contiguous, so its parallel loop streams the copy), or in row
 * order (lev NULL), where a serial or syncfree sweep reads x and b in row
 * order too (in level order they are far apart on a stencil's anti-diagonal
 * levels).  Without memory for the new copy the old layout stays: the same
 * numbers, only slower. */
static void lay_out(hpls_tricopy *c, hpls_sweep *w, hpls_int n, const hpls_levels *lev)
{
    hpls_tricopy r = {.ptr = hpls_malloc(n + 1, sizeof *r.ptr)};
    if (!r.ptr || (lev && !(r.slot = hpls_malloc(n, sizeof *r.slot))))
        goto cleanup;
    r.ptr[0] = 0;
    for (hpls_int s = 0; s < n; s++) {
        hpls_int i = lev ? lev->order[s] : s, from = hpls_tricopy_slot(c, i);
        r.ptr[s + 1] = r.ptr[s] + (c->ptr[from + 1] - c->ptr[from]);
        if (lev)
            r.slot[i] = s;
    }
    r.col = hpls_malloc(r.ptr[n], sizeof *r.col);
    r.val = hpls_malloc(r.ptr[n], sizeof *r.val);
    if (!r.col || !r.val)
        goto cleanup;
    for (hpls_int s = 0; s < n; s++) {
        hpls_int i = lev ? lev->order[s] : s, from = c->ptr[hpls_tricopy_slot(c, i)];
        size_t len = (size_t)(r.ptr[s + 1] - r.ptr[s]);
        memcpy(r.col + r.ptr[s], c->col + from, len * sizeof *r.col);
        memcpy(r.val + r.ptr[s], c->val + from, len * sizeof *r.val);
    }
    tricopy_free(c);
    *c = r;
    w->T.lo = r.ptr;
    w->T.hi = r.ptr + 1;
    w->T.col = r.col;
    w->T.val = r.val;
    w->T.row = lev ? lev->order : NULL;
    return;
cleanup:
    tricopy_free(&r);
}

/* auto, after a timed application: skips the strategies dropped in the first
 * round and, the trials over, keeps the fastest (ties to the simpler).  The
 * trials ran on copies in row order (a serial sweep over level-ordered copies
 * took 1.5x its time on poisson3d 100^3 and lost its trials to levels, which
 * then made the solve 1.4x slower than trisolve=serial): levels, if kept, gets
 * its level order now. */
static void auto_next(hpls_trifac *F)
{
    while (undecided(F) && F->trials >= 3 && isinf(F->best[F->trials % 3]))
        F->trials++;
    if (undecided(F))
        return;
    for (int k = 1; k < 3; k++)
        if (F->best[k] < F->best[F->chosen])
            F->chosen = k;
    if (F->chosen == HPLS_TRI_LEVELS) {
        lay_out(&F->low, &F->fwd, F->n, &F->fwd.lev);
        lay_out(&F->up, &F->bwd, F->n, &F->bwd.lev);
    }
}

/* z = M^-1 r: (forward) g1 = Lbar^-1 r, (backward) z = Ubar^-1 (scaled g1), in
 * place.  auto's trial of a parallel strategy gets AUTO_CAP times serial's
 * time: past it (a thread descheduled by another process stalls every
 * level's barrier or every wait on its rows) the sweep is finished serially
 * and the strategy dropped, so a trial costs at most about AUTO_CAP + 1
 * serial applications. */
static hpls_status apply_trifac(const hpls_pc *pc, const hpls_dvec *rv, hpls_dvec *zv)
{
    hpls_trifac *F = pc->ctx;
    if (F->dev[0]) { /* on the device (kernels/device/sweep.cl) */
        F->be->d->sweep(F->be, F->dev[0], F->chosen, rv, zv);
        F->be->d->sweep(F->be, F->dev[1], F->chosen, zv, zv);
        return F->be->err;
    }
    const hpls_real *r = hpls_v_host(F->be, rv); /* the sweeps are host kernels */
    hpls_real *z = hpls_v_host(F->be, zv);
    if (!r || !z)
        return F->be->err;
    if (!undecided(F)) {
        sweep(F, &F->fwd, F->chosen, r, z, 0);
        sweep(F, &F->bwd, F->chosen, z, z, 0);
        return HPLS_OK;
    }
    int strategy = F->trials % 3; /* serial first: the others' deadline needs its time */
    double t0 = hpls_wtime();
    double deadline = strategy == HPLS_TRI_SERIAL ? 0 : t0 + AUTO_CAP * F->best[HPLS_TRI_SERIAL];
    int late = sweep(F, &F->fwd, strategy, r, z, deadline);
    late |= sweep(F, &F->bwd, late ? HPLS_TRI_SERIAL : strategy, z, z, deadline);
    double t = hpls_wtime() - t0;
    if (late)
        F->best[strategy] = INFINITY;
    else if (F->trials < 3 || t < F->best[strategy])
        F->best[strategy] = t;
    F->trials++;
    auto_next(F);
    return HPLS_OK;
}

static hpls_status apply_t_trifac(const hpls_pc *pc, const hpls_dvec *rv, hpls_dvec *zv)
{
    hpls_trifac *F = pc->ctx;
    if (F->dev[2]) {
        F->be->d->sweep(F->be, F->dev[2], F->chosen, rv, zv);
        F->be->d->sweep(F->be, F->dev[3], F->chosen, zv, zv);
        return F->be->err;
    }
    const hpls_real *r = hpls_v_host(F->be, rv);
    hpls_real *z = hpls_v_host(F->be, zv);
    if (!r || !z)
        return F->be->err;
    sweep(F, &F->fwd_t, F->chosen, r, z, 0);
    sweep(F, &F->bwd_t, F->chosen, z, z, 0);
    return HPLS_OK;
}

/* The sweeps (with M^-T's) copied to a device backend, replacing older copies. */
static hpls_status upload_sweeps(hpls_trifac *F)
{
    hpls_backend *be = F->be;
    const hpls_sweep *w[4] = {&F->fwd, &F->bwd, &F->fwd_t, &F->bwd_t};
    hpls_status st = HPLS_OK;
    for (int k = 0; k < 4; k++) {
        be->d->sweep_release(be, F->dev[k]);
        F->dev[k] = NULL;
        if (st == HPLS_OK && (k < 2 || F->at.A))
            st = be->d->sweep_upload(be, w[k], &F->dev[k]);
    }
    return st;
}

/* t on A', A's pattern with new values (maybe another object: its rowptr) */
static void rebind(hpls_trisplit *t, const hpls_csr *A)
{
    t->A = A;
    if (!t->blkbeg) {
        t->beg = A->rowptr;
        t->end = A->rowptr + 1;
    }
}

/* Values changed, same pattern: the split, the copies' layout, the level sets
 * and the strategy (trisolve=auto's choice) stay; only the numbers are redone
 * (and copied to the device again). */
static hpls_status update_trifac(hpls_pc *pc, const hpls_csr *A, const hpls_csr *At)
{
    hpls_trifac *F = pc->ctx;
    rebind(&F->a, A);
    if (F->at.A)
        rebind(&F->at, At);
    hpls_status st = F->numeric(F);
    if (st == HPLS_OK && F->be->d)
        st = upload_sweeps(F);
    if (st == HPLS_OK && F->dev_numeric)
        st = F->dev_numeric(F);
    return st;
}

hpls_status hpls_trifac_finish(hpls_trifac *F, hpls_pc *pc)
{
    if (by_levels(F)) { /* fwd, bwd: see hpls_trifac_copies */
        hpls_sweep *w[4] = {&F->fwd, &F->bwd, &F->fwd_t, &F->bwd_t};
        for (int k = 0; k < (F->at.A ? 4 : 2); k++) {
            if (w[k]->lev.order)
                continue; /* built for the construction */
            hpls_status st = hpls_levels_build(&w[k]->T, colour_threads(F), &w[k]->lev);
            if (st != HPLS_OK)
                return st;
        }
    }
    if (F->be->d) {
        hpls_status st = upload_sweeps(F);
        if (st == HPLS_OK && F->dev_numeric)
            st = F->dev_numeric(F);
        if (st != HPLS_OK)
            return st;
    }
    *pc = (hpls_pc){.ctx = F,
                    .be = F->be,
                    .apply = apply_trifac,
                    .apply_t = F->at.A ? apply_t_trifac : NULL,
                    .destroy = hpls_trifac_destroy,
                    .update = update_trifac};
    return HPLS_OK;
}

const char *hpls_pc_strategy(const hpls_pc *pc)
{
    static const char *const fixed[] = {"serial", "levels", "syncfree", "auto", "block"};
    static const char *const picked[] = {"auto: serial", "auto: levels", "auto: syncfree", "",
                                         "auto: block"};
    if (!pc || pc->destroy != hpls_trifac_destroy)
        return NULL;
    const hpls_trifac *F = pc->ctx;
    if (F->narrow[0])
        return F->narrow;
    if (F->strategy != HPLS_TRI_AUTO)
        return fixed[F->chosen];
    return undecided(F) ? "auto: undecided" : picked[F->chosen];
}
