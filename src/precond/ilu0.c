/* SPDX-License-Identifier: BSD-3-Clause */
/* ilu0.c (precond): ILU(0), the classic incomplete LU on A's pattern (Saad,
 * Iterative Methods, Alg. 10.4, IKJ order), for comparison with DILU (Wang,
 * Liu 2022, Sec. 3).  M = L U, L unit lower, U upper, both on A's pattern.
 * Row i reads the finished rows k < i of its lower part: the DAG of A's lower
 * triangle, so the rows are built serially, by its level sets (one parallel
 * loop per level, as Alg. 3) or synchronization-free (ready flags, as Alg. 5).
 * M^-T = L^-T U^-T: the factor values moved onto A^T's pattern, where U^T is
 * the lower and L^T the (unit) upper triangle.  On a device backend the
 * factors are built there (kernels/device/factor.cl: the same rows in the
 * same order, the host's bits) by the sweeps' strategy. */
#include "precond/trisolve.h"

#include <omp.h>

typedef struct ilu_ctx {
    hpls_trifac *F;
    double shift;
    hpls_real *lu;   /* factor values on A's pattern */
    hpls_real *uinv; /* 1 / U_ii */
    /* per thread: n offsets into the current row, -1 outside it (32 bits: on
     * gas 1e6 the random reads of this array, at 64 bits, took 58% of
     * ilu_row's perf samples) */
    hpls_idx *iw;
} ilu_ctx;

/* Row i of L and U (IKJ): A's row with its shifted diagonal, then a_ik /= u_kk,
 * a_ij -= a_ik u_kj on the pattern; its pivot check (*bad: the first bad row
 * seen) and row i of the split copies (U scaled by 1/u_ii).  S non-NULL: wait
 * for each row k first (the syncfree schedule). */
static void ilu_row(const ilu_ctx *c, hpls_idx *iw, hpls_int i, hpls_sync *S, unsigned epoch,
                    hpls_int *bad)
{
    const hpls_trisplit *t = &c->F->a;
    const hpls_csr *A = t->A;
    const hpls_int *upbeg = t->upbeg;
    hpls_real *lu = c->lu;
    hpls_int p0 = A->rowptr[i], end = A->rowptr[i + 1], diag = t->lowend[i];
    double big = 0;
    for (hpls_int p = p0; p < end; p++) {
        double a = fabs(A->val[p]);
        big = a > big ? a : big;
        iw[A->colind[p]] = (hpls_idx)(p - p0);
        lu[p] = A->val[p];
    }
    lu[diag] = hpls_trifac_shifted(A->val[diag], big, c->shift);
    for (hpls_int p = p0; p < diag; p++) {
        hpls_int k = A->colind[p];
        if (S)
            hpls_sync_wait(S, k, epoch);
        double lik = lu[p] * c->uinv[k];
        lu[p] = lik;
        for (hpls_int q = upbeg[k]; q < A->rowptr[k + 1]; q++) {
            hpls_idx w = iw[A->colind[q]];
            if (w >= 0)
                lu[p0 + w] -= lik * lu[q];
        }
    }
    for (hpls_int p = p0; p < end; p++)
        iw[A->colind[p]] = -1;
    c->uinv[i] = 1.0 / lu[diag];
    hpls_trifac_copy_row(c->F, i, lu, 1.0, c->uinv[i]);
    if (hpls_trifac_bad_pivot(lu[diag], big, 0) && i < *bad)
        *bad = i;
}

/* Returns the first row with a bad pivot (n: none). */
static hpls_int factor(hpls_trifac *F, const ilu_ctx *c)
{
    hpls_int n = F->n, bad = n;
    if (F->build == HPLS_TRI_SERIAL) {
        for (hpls_int i = 0; i < n; i++)
            ilu_row(c, c->iw, i, NULL, 0, &bad);
        return bad;
    }
    if (F->build == HPLS_TRI_BLOCK) { /* each block alone: a.A couples no two */
#pragma omp parallel for num_threads(F->nt) reduction(min : bad) schedule(static, 1)
        for (int q = 0; q < F->nt; q++)
            for (hpls_int i = F->blk[q]; i < F->blk[q + 1]; i++)
                ilu_row(c, c->iw + (hpls_int)omp_get_thread_num() * n, i, NULL, 0, &bad);
        return bad;
    }
    const hpls_levels *L = &F->fwd.lev; /* built with the copies */
    unsigned epoch = F->build == HPLS_TRI_SYNCFREE ? hpls_sync_begin(&F->sync) : 0;
#pragma omp parallel num_threads(F->nt) reduction(min : bad)
    {
        hpls_idx *iw = c->iw + (hpls_int)omp_get_thread_num() * n;
        if (F->build == HPLS_TRI_LEVELS) {
            for (hpls_int l = 0; l < L->nlev; l++) {
#pragma omp for schedule(static)
                for (hpls_int off = L->off[l]; off < L->off[l + 1]; off++)
                    ilu_row(c, iw, L->order[off], NULL, 0, &bad);
            }
        } else {
            hpls_int k;
            while ((k = hpls_sync_claim(&F->sync)) < n) {
                hpls_int kend = k + HPLS_SYNC_CHUNK < n ? k + HPLS_SYNC_CHUNK : n;
                for (hpls_int i = k; i < kend; i++) {
                    ilu_row(c, iw, i, &F->sync, epoch, &bad);
                    hpls_sync_post(&F->sync, i, epoch);
                }
            }
        }
    }
    return bad;
}

/* tlu = the factor values on A^T's pattern. */
static hpls_status transpose_values(const hpls_csr *A, const hpls_csr *At, const hpls_real *lu,
                                    hpls_real *tlu)
{
    hpls_int *next = hpls_malloc(At->nrows, sizeof *next);
    if (!next)
        return HPLS_ERR_NOMEM;
    for (hpls_int j = 0; j < At->nrows; j++)
        next[j] = At->rowptr[j];
    hpls_status st = HPLS_OK;
    for (hpls_int i = 0; i < A->nrows && st == HPLS_OK; i++)
        for (hpls_int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++) {
            hpls_int q = next[A->colind[p]]++;
            if (At->colind[q] != i) {
                st = hpls_fail(HPLS_ERR_INTERNAL, "ilu0: A^T's pattern does not mirror A's");
                break;
            }
            tlu[q] = lu[p];
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
    hpls_int n = F->n, nt = F->build == HPLS_TRI_SERIAL ? 1 : F->nt;
    ilu_ctx c = {.F = F, .shift = F->shift, .lu = F->vec[0], .uinv = F->vec[1]};
    if (!F->dev_numeric) {
        c.iw = hpls_malloc(nt * n, sizeof *c.iw);
        if (!c.iw)
            return HPLS_ERR_NOMEM;
        for (hpls_int k = 0; k < nt * n; k++)
            c.iw[k] = -1;
        hpls_int bad = factor(F, &c);
        hpls_free(c.iw);
        if (bad < n)
            return hpls_trifac_pivot_error(F, bad, c.lu[F->a.lowend[bad]], "U_ii", 0);
    }
    if (F->at.A) { /* U^T y = r; L^T z = y (unit) */
        const hpls_csr *At = F->at.A;
        hpls_status st = F->dev_numeric ? HPLS_OK : transpose_values(F->a.A, At, c.lu, F->vec[2]);
        if (st != HPLS_OK)
            return st;
        F->fwd_t.T = hpls_tri_of(At, 0, F->at.lowend, F->at.upbeg, F->vec[2]);
        F->fwd_t.dinv = c.uinv;
        F->bwd_t.T = hpls_tri_of(At, 1, F->at.lowend, F->at.upbeg, F->vec[2]);
    }
    return HPLS_OK;
}

hpls_status hpls_pc_setup_ilu0(hpls_backend *be, const hpls_csr *A, const hpls_csr *At,
                               const hpls_options *o, hpls_pc *pc)
{
    hpls_trifac *F;
    hpls_status st = hpls_trifac_create(be, A, At, o, "ilu0", &F);
    if (st != HPLS_OK)
        return st;
    hpls_int n = F->n;
    F->shift = o->shift;
    F->numeric = numeric_ilu0;
    F->vec[0] = hpls_calloc(A->nnz, sizeof *F->vec[0]); /* the factors' values */
    F->vec[1] = hpls_calloc(n, sizeof *F->vec[1]);      /* 1 / U_ii */
    if (At) /* the same on A^T's pattern (zero: a device construction fills it there) */
        F->vec[2] = hpls_calloc(At->nnz, sizeof *F->vec[2]);
    if (!F->vec[0] || !F->vec[1] || (At && !F->vec[2]))
        st = HPLS_ERR_NOMEM;
    for (hpls_int i = 0; st == HPLS_OK && i < n; i++)
        if (F->a.upbeg[i] == F->a.lowend[i])
            st = hpls_fail(HPLS_ERR_ZERO_DIAG,
                           "ilu0: row %lld has no diagonal entry in A's pattern, so U_ii = 0 "
                           "(dilu does not need one)",
                           (long long)i + 1);
    /* L y = r (unit); U z = y as z_i = y_i / u_ii - sum_j (U_ij / u_ii) z_j */
    if (st == HPLS_OK)
        st = hpls_trifac_copies(F);
    if (st == HPLS_OK && be->d) { /* the factors and the copies' values on the device */
        F->dev_numeric = device_ilu0;
        hpls_trifac_copy_pattern(F, 0);
    }
    if (st == HPLS_OK) {
        F->bwd.bscale = F->vec[1];
        st = numeric_ilu0(F);
    }
    if (st == HPLS_OK)
        st = hpls_trifac_finish(F, pc);
    if (st != HPLS_OK)
        hpls_trifac_destroy(F);
    return st;
}
