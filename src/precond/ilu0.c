/* SPDX-License-Identifier: BSD-3-Clause */
/* ilu0.c (precond): ILU(0), the classic incomplete LU on A's pattern (Saad,
 * Iterative Methods, Alg. 10.4, IKJ order), for comparison with DILU (Wang,
 * Liu 2022, Sec. 3).  M = L U, L unit lower, U upper, both on A's pattern.
 * Row i reads the finished rows k < i of its lower part: the DAG of A's lower
 * triangle, so the rows are built serially, by its level sets (one parallel
 * loop per level, as Alg. 3) or synchronization-free (ready flags, as Alg. 5),
 * straight into the split copies of L and U that the sweeps read.  M^-T = L^-T U^-T: the factor values moved onto A^T's pattern, where U^T is
 * the lower and L^T the (unit) upper triangle.  On a device backend the
 * factors are built there (kernels/device/factor.cl: the same rows in the
 * same order, the host's bits) by the sweeps' strategy. */
#include "precond/trisolve.h"

#include <omp.h>

typedef struct ilu_ctx {
    hpls_trifac *F;
    double shift;
    hpls_real *uinv; /* 1 / U_ii */
    /* per thread: n offsets into the current row, -1 outside it (32 bits: on
     * gas 1e6 the random reads of this array, at 64 bits, took 58% of
     * ilu_row's perf samples), and the row being factored (wlen values) */
    hpls_idx *iw;
    hpls_real *w;
    hpls_int wlen;
} ilu_ctx;

/* Row i of L and U (IKJ) in w: A's row with its shifted diagonal, then
 * a_ik /= u_kk, a_ij -= a_ik u_kj over row k of the upper copy (the factor is
 * built in the split copies themselves, not in A's layout first: one copy
 * written, not two); row i of the copies (U unscaled: the backward sweep
 * multiplies by 1/u_ii) and its pivot check (*bad: the first bad row seen).
 * S non-NULL: wait for each row k first (the syncfree schedule).  Returns
 * the pivot u_ii. */
static double ilu_row(const ilu_ctx *c, hpls_idx *iw, hpls_real *w, hpls_int i, hpls_sync *S,
                      unsigned epoch, hpls_int *bad)
{
    const hpls_trifac *F = c->F;
    const hpls_csr *A = F->a.A;
    hpls_int p0 = F->a.beg[i], end = F->a.end[i], nl = F->a.lowend[i] - p0;
    hpls_int nu = F->a.upbeg[i] - p0; /* w's first upper entry (nl + 1: the diagonal at nl) */
    double big = 0;
    for (hpls_int p = p0; p < end; p++) {
        double a = fabs(A->val[p]);
        big = a > big ? a : big;
        iw[A->colind[p]] = (hpls_idx)(p - p0);
        w[p - p0] = A->val[p];
    }
    w[nl] = hpls_trifac_shifted(w[nl], big, c->shift);
    const hpls_tricopy *U = &F->up;
    for (hpls_int o = 0; o < nl; o++) {
        hpls_int k = A->colind[p0 + o], s = hpls_tricopy_slot(U, k);
        if (S)
            hpls_sync_wait(S, k, epoch);
        double lik = w[o] * c->uinv[k];
        w[o] = lik;
        for (hpls_int q = U->ptr[s]; q < U->ptr[s + 1]; q++) {
            hpls_idx o2 = iw[U->col[q]];
            if (o2 >= 0)
                w[o2] -= lik * U->val[q];
        }
    }
    for (hpls_int p = p0; p < end; p++)
        iw[A->colind[p]] = -1;
    double d = w[nl];
    c->uinv[i] = d != 0.0 ? 1.0 / d : 0.0; /* a zero pivot is reported, not trapped */
    hpls_real *lv = F->low.val + F->low.ptr[hpls_tricopy_slot(&F->low, i)];
    hpls_real *uv = F->up.val + U->ptr[hpls_tricopy_slot(U, i)];
    for (hpls_int o = 0; o < nl; o++)
        lv[o] = w[o];
    for (hpls_int o = nu; o < end - p0; o++)
        uv[o - nu] = w[o];
    if (hpls_trifac_bad_pivot(d, big, 0) && i < *bad)
        *bad = i;
    return d;
}

/* Thread t's row workspace. */
#define ILU_IW(c, t) ((c)->iw + (hpls_int)(t) * (c)->F->n)
#define ILU_W(c, t) ((c)->w + (hpls_int)(t) * (c)->wlen)

/* Returns the first row with a bad pivot (n: none). */
static hpls_int factor(hpls_trifac *F, const ilu_ctx *c)
{
    hpls_int n = F->n, bad = n;
    if (F->build == HPLS_TRI_SERIAL) {
        for (hpls_int i = 0; i < n; i++)
            ilu_row(c, c->iw, c->w, i, NULL, 0, &bad);
        return bad;
    }
    if (F->build == HPLS_TRI_BLOCK) { /* each block alone: a.A couples no two */
#pragma omp parallel for num_threads(F->nt) reduction(min : bad) schedule(static, 1)
        for (int q = 0; q < F->nt; q++) {
            int t = omp_get_thread_num();
            for (hpls_int i = F->blk[q]; i < F->blk[q + 1]; i++)
                ilu_row(c, ILU_IW(c, t), ILU_W(c, t), i, NULL, 0, &bad);
        }
        return bad;
    }
    const hpls_levels *L = &F->fwd.lev; /* built with the copies */
    unsigned epoch = F->build == HPLS_TRI_SYNCFREE ? hpls_sync_begin(&F->sync) : 0;
#pragma omp parallel num_threads(F->nt) reduction(min : bad)
    {
        int t = omp_get_thread_num();
        hpls_idx *iw = ILU_IW(c, t);
        hpls_real *w = ILU_W(c, t);
        if (F->build == HPLS_TRI_LEVELS) {
            for (hpls_int l = 0; l < L->nlev; l++) {
#pragma omp for schedule(static)
                for (hpls_int off = L->off[l]; off < L->off[l + 1]; off++)
                    ilu_row(c, iw, w, L->order[off], NULL, 0, &bad);
            }
        } else {
            hpls_int k;
            while ((k = hpls_sync_claim(&F->sync)) < n) {
                hpls_int kend = k + HPLS_SYNC_CHUNK < n ? k + HPLS_SYNC_CHUNK : n;
                for (hpls_int i = k; i < kend; i++) {
                    ilu_row(c, iw, w, i, &F->sync, epoch, &bad);
                    hpls_sync_post(&F->sync, i, epoch);
                }
            }
        }
    }
    return bad;
}

/* tlu = the factor's strict triangles (from the copies) on A^T's pattern;
 * the diagonal's places stay as they are (the M^-T sweeps skip them). */
static hpls_status transpose_values(const hpls_trifac *F, hpls_real *tlu)
{
    const hpls_csr *A = F->a.A, *At = F->at.A;
    hpls_int *next = hpls_malloc(At->nrows, sizeof *next);
    if (!next)
        return HPLS_ERR_NOMEM;
    for (hpls_int j = 0; j < At->nrows; j++)
        next[j] = F->at.beg[j];
    hpls_status st = HPLS_OK;
    for (hpls_int i = 0; i < A->nrows && st == HPLS_OK; i++) {
        hpls_int p0 = F->a.beg[i], le = F->a.lowend[i], ub = F->a.upbeg[i];
        const hpls_real *lv = F->low.val + F->low.ptr[hpls_tricopy_slot(&F->low, i)];
        const hpls_real *uv = F->up.val + F->up.ptr[hpls_tricopy_slot(&F->up, i)];
        for (hpls_int p = p0; p < F->a.end[i]; p++) {
            hpls_int q = next[A->colind[p]]++;
            if (At->colind[q] != i) {
                st = hpls_fail(HPLS_ERR_INTERNAL, "ilu0: A^T's pattern does not mirror A's");
                break;
            }
            if (p < le)
                tlu[q] = lv[p - p0];
            else if (p >= ub)
                tlu[q] = uv[p - ub];
        }
    }
    hpls_free(next);
    return st;
}

/* L and U on the device (after the sweeps' upload: trisolve.c), M^-T's
 * values there too; its pivot check. */
static hpls_status device_ilu0(hpls_trifac *F)
{
    hpls_int bad, asym;
    double pivot;
    hpls_status st = F->be->d->fac_build(F->be, F, HPLS_FAC_ILU0, F->chosen, &bad, &asym, &pivot);
    if (st == HPLS_OK && bad < F->n)
        st = hpls_trifac_pivot_error(F, bad, pivot, "U_ii", 0);
    return st;
}

/* L and U from A's values (and the pivot check), the copies, the M^-T
 * sweeps' values: the numeric part of the setup, again at every update; on a
 * device only the M^-T sweeps' pattern (device_ilu0 builds the rest there). */
static hpls_status numeric_ilu0(hpls_trifac *F)
{
    const hpls_trisplit *t = &F->a;
    hpls_int n = F->n, nt = F->build == HPLS_TRI_SERIAL ? 1 : F->nt;
    ilu_ctx c = {.F = F, .shift = F->shift, .uinv = F->vec[1], .wlen = 1};
    if (!F->dev_numeric) {
        for (hpls_int i = 0; i < n; i++)
            if (t->end[i] - t->beg[i] > c.wlen)
                c.wlen = t->end[i] - t->beg[i];
        c.iw = hpls_malloc(nt * n, sizeof *c.iw);
        c.w = hpls_malloc(nt * c.wlen, sizeof *c.w);
        hpls_int bad = n, ok = c.iw && c.w;
        double pivot = 0;
        if (ok) {
            for (hpls_int k = 0; k < nt * n; k++)
                c.iw[k] = -1;
            bad = factor(F, &c);
            if (bad < n) /* its pivot again (the rows before it are final) */
                pivot = ilu_row(&c, c.iw, c.w, bad, NULL, 0, &bad);
        }
        hpls_free(c.iw);
        hpls_free(c.w);
        if (!ok)
            return HPLS_ERR_NOMEM;
        if (bad < n)
            return hpls_trifac_pivot_error(F, bad, pivot, "U_ii", 0);
    }
    if (F->at.A) { /* U^T y = r; L^T z = y (unit) */
        hpls_status st = F->dev_numeric ? HPLS_OK : transpose_values(F, F->vec[2]);
        if (st != HPLS_OK)
            return st;
        F->fwd_t.T = hpls_trisplit_tri(&F->at, 0, F->vec[2]);
        F->fwd_t.dinv = c.uinv;
        F->bwd_t.T = hpls_trisplit_tri(&F->at, 1, F->vec[2]);
    }
    return HPLS_OK;
}

hpls_status hpls_pc_setup_ilu0(hpls_backend *be, const hpls_csr *A, const hpls_csr *At,
                               const hpls_pcopts *o, hpls_pc *pc)
{
    hpls_trifac *F;
    hpls_status st = hpls_trifac_create(be, A, At, o, "ilu0", &F);
    if (st != HPLS_OK)
        return st;
    hpls_int n = F->n;
    F->shift = o->shift;
    F->numeric = numeric_ilu0;
    F->vec[1] = hpls_calloc(n, sizeof *F->vec[1]); /* 1 / U_ii */
    if (At) /* the factor on A^T's pattern (zero: a device construction fills it there) */
        F->vec[2] = hpls_calloc(At->nnz, sizeof *F->vec[2]);
    if (!F->vec[1] || (At && !F->vec[2]))
        st = HPLS_ERR_NOMEM;
    for (hpls_int i = 0; st == HPLS_OK && i < n; i++)
        if (F->a.upbeg[i] == F->a.lowend[i])
            st = hpls_fail(HPLS_ERR_ZERO_DIAG,
                           "ilu0: row %lld has no diagonal entry in A's pattern, so U_ii = 0 "
                           "(dilu does not need one)",
                           (long long)i + 1);
    /* the factor lives in the copies (their columns now, the values at every
     * numeric): L y = r (unit); U z = y as z_i = (y_i - sum_j U_ij z_j) / u_ii,
     * PETSc's order of operations too */
    if (st == HPLS_OK)
        st = hpls_trifac_copies(F);
    if (st == HPLS_OK) {
        hpls_trifac_copy_pattern(F, 0);
        if (be->d) /* the factor's values on the device */
            F->dev_numeric = device_ilu0;
        F->bwd.dinv = F->vec[1];
        st = numeric_ilu0(F);
    }
    if (st == HPLS_OK)
        st = hpls_trifac_finish(F, pc);
    if (st != HPLS_OK)
        hpls_trifac_destroy(F);
    return st;
}
