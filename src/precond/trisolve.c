/* trisolve.c: the machinery the factored preconditioners dilu, dic and ilu0
 * share (Wang, Liu 2022, Sec. 2.2.4 and 2.3.5): z = M^-1 r as a forward and a
 * backward sweep by the chosen strategy, M^-T r by the same sweeps over A^T,
 * and `auto`, the paper's advice made automatic (end of Sec. 2.3.5): the first
 * applications alternate between the strategies, the fastest is kept. */
#include "precond/trisolve.h"

#include <math.h>
#include <omp.h>

/* Applications of each strategy timed by auto before it decides. */
#define AUTO_TRIALS 2

static void trisplit_free(hpls_trisplit *t)
{
    hpls_free(t->lowend);
    hpls_free(t->upbeg);
}

void hpls_trifac_destroy(void *ctx)
{
    hpls_trifac *F = ctx;
    if (!F)
        return;
    trisplit_free(&F->a);
    trisplit_free(&F->at);
    hpls_levels_free(&F->fwd.lev);
    hpls_levels_free(&F->bwd.lev);
    hpls_levels_free(&F->fwd_t.lev);
    hpls_levels_free(&F->bwd_t.lev);
    hpls_sync_free(&F->sync);
    for (int k = 0; k < 4; k++)
        hpls_free(F->vec[k]);
    hpls_free(F);
}

static hpls_status trisplit_init(hpls_trisplit *t, const hpls_csr *A)
{
    t->A = A;
    t->lowend = hpls_malloc(A->nrows, sizeof *t->lowend);
    t->upbeg = hpls_malloc(A->nrows, sizeof *t->upbeg);
    if (!t->lowend || !t->upbeg)
        return HPLS_ERR_NOMEM;
    hpls_k_tri_split(A, t->lowend, t->upbeg);
    return HPLS_OK;
}

hpls_status hpls_trifac_create(const hpls_solver *s, const char *name, hpls_trifac **out)
{
    hpls_trifac *F = hpls_calloc(1, sizeof *F);
    *out = NULL;
    if (!F)
        return HPLS_ERR_NOMEM;
    F->name = name;
    F->n = s->A->nrows;
    F->strategy = s->opt.trisolve;
    F->build = F->strategy == HPLS_TRI_AUTO ? HPLS_TRI_SYNCFREE : F->strategy;
    F->chosen = F->strategy == HPLS_TRI_AUTO ? HPLS_TRI_SERIAL : F->strategy;
    hpls_status st = hpls_sync_init(&F->sync, F->n);
    if (st == HPLS_OK)
        st = trisplit_init(&F->a, s->A);
    if (st == HPLS_OK && s->op.At)
        st = trisplit_init(&F->at, s->op.At);
    if (st != HPLS_OK) {
        hpls_trifac_destroy(F);
        return st;
    }
    *out = F;
    return HPLS_OK;
}

hpls_real hpls_trifac_diag(const hpls_trisplit *t, hpls_int i, double shift)
{
    const hpls_csr *A = t->A;
    hpls_real d = t->upbeg[i] > t->lowend[i] ? A->val[t->lowend[i]] : 0.0;
    if (shift == 0)
        return d;
    double big = 0;
    for (hpls_int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++)
        big = fmax(big, fabs(A->val[p]));
    return d + (d < 0 ? -shift : shift) * big;
}

hpls_status hpls_trifac_check(const hpls_trifac *F, const hpls_real *piv, const char *what,
                              int positive)
{
    const hpls_csr *A = F->a.A;
    for (hpls_int i = 0; i < F->n; i++) {
        double big = 0;
        for (hpls_int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++)
            big = fmax(big, fabs(A->val[p]));
        if (positive && !(piv[i] > 0))
            return hpls_fail(HPLS_ERR_SINGULAR,
                             "%s: %s = %g <= 0 at row %lld: M is not positive definite "
                             "(A is not an M-matrix?), cg would diverge; retry with a diagonal "
                             "shift (shift=1 or more) or use dilu with bicgstab",
                             F->name, what, piv[i], (long long)i + 1);
        if (!isfinite(piv[i]) || fabs(piv[i]) <= 1e-14 * big)
            return hpls_fail(HPLS_ERR_SINGULAR,
                             "%s: %s = %g at row %lld is zero or tiny against the row's largest "
                             "entry %g: M is singular; retry with a diagonal shift "
                             "(e.g. shift=1e-2: A_ii + shift*max_j|A_ij|)",
                             F->name, what, piv[i], (long long)i + 1, big);
    }
    return HPLS_OK;
}

static void sweep(hpls_trifac *F, const hpls_sweep *w, int strategy, const hpls_real *b,
                  hpls_real *x)
{
    if (strategy == HPLS_TRI_LEVELS)
        hpls_k_sweep_levels(w, b, x);
    else if (strategy == HPLS_TRI_SYNCFREE)
        hpls_k_sweep_syncfree(w, &F->sync, b, x);
    else
        hpls_k_sweep_serial(w, b, x);
}

/* z = M^-1 r: (forward) g1 = Lbar^-1 r, (backward) z = Ubar^-1 (scaled g1), in place. */
static void apply_trifac(const hpls_pc *pc, const hpls_real *r, hpls_real *z)
{
    hpls_trifac *F = pc->ctx;
    int timing = F->strategy == HPLS_TRI_AUTO && F->trials < 3 * AUTO_TRIALS;
    int strategy = timing ? F->trials % 3 : F->chosen;
    double t0 = timing ? hpls_wtime() : 0;
    sweep(F, &F->fwd, strategy, r, z);
    sweep(F, &F->bwd, strategy, z, z);
    if (!timing)
        return;
    double t = hpls_wtime() - t0;
    if (F->trials < 3 || t < F->best[strategy])
        F->best[strategy] = t;
    if (++F->trials < 3 * AUTO_TRIALS)
        return;
    for (int k = 1; k < 3; k++) /* ties to the simpler strategy */
        if (F->best[k] < F->best[F->chosen])
            F->chosen = k;
}

static void apply_t_trifac(const hpls_pc *pc, const hpls_real *r, hpls_real *z)
{
    hpls_trifac *F = pc->ctx;
    sweep(F, &F->fwd_t, F->chosen, r, z);
    sweep(F, &F->bwd_t, F->chosen, z, z);
}

hpls_status hpls_trifac_finish(hpls_trifac *F, hpls_pc *pc)
{
    if (F->strategy == HPLS_TRI_LEVELS || F->strategy == HPLS_TRI_AUTO) {
        /* coloured by Alg. 7 as the paper advises (Sec. 2.3.4); one thread: serially */
        int syncfree = omp_get_max_threads() > 1;
        hpls_sweep *w[4] = {&F->fwd, &F->bwd, &F->fwd_t, &F->bwd_t};
        for (int k = 0; k < (F->at.A ? 4 : 2); k++) {
            if (w[k]->lev.order)
                continue; /* ilu0 built it for its construction */
            hpls_status st = hpls_levels_build(&w[k]->T, syncfree, &w[k]->lev);
            if (st != HPLS_OK)
                return st;
        }
    }
    *pc = (hpls_pc){.ctx = F,
                    .apply = apply_trifac,
                    .apply_t = F->at.A ? apply_t_trifac : NULL,
                    .destroy = hpls_trifac_destroy};
    return HPLS_OK;
}

const char *hpls_pc_strategy(const hpls_solver *s)
{
    static const char *const fixed[] = {"serial", "levels", "syncfree"};
    static const char *const picked[] = {"auto: serial", "auto: levels", "auto: syncfree"};
    if (!s || s->pc.destroy != hpls_trifac_destroy)
        return NULL;
    const hpls_trifac *F = s->pc.ctx;
    if (F->strategy != HPLS_TRI_AUTO)
        return fixed[F->chosen];
    return F->trials < 3 * AUTO_TRIALS ? "auto: undecided" : picked[F->chosen];
}
