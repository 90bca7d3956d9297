/* SPDX-License-Identifier: BSD-3-Clause */
/* factor.c: the constructions of dilu/dic and ilu0 on a device (backend.h's
 * fac_build and fac_release; the kernels are factor.cl's), on the host
 * layer.  A's pattern, the split (lowend, upbeg), the copies' slot maps (and
 * for ilu0's M^-T where A's entries sit in A^T) go to the device once; at
 * every build A's values, then the kernels by strategy, which write the
 * scaled copies' values straight into the sweeps' device arrays
 * (precond/trisolve.c uploaded their layout); the row scales are copied into
 * the sweeps that use them and read back to the host, which keeps them (the
 * tests compare them with the host's), and so is the one pivot a message
 * names. */
#include "kernels/device/devhost.h"
#include "kernels/trifac.h"

#include <math.h>

struct hpls_dfac {
    hpls_dbuf *rp, *ci, *val, *lowend, *upbeg; /* A's pattern and values, its split */
    hpls_dbuf *lslot, *uslot;                  /* row -> slot of the copies, or NULL */
    hpls_dbuf *tpos;                           /* ilu0 with M^-T: A's entries' places in A^T */
    hpls_dbuf *E, *rD, *bad, *asym; /* dilu: E, 1/E; ilu0: the factors (A's pattern), 1/u_ii */
    hpls_dready ready;              /* syncfree, serial */
};

void hpls_devop_fac_release(hpls_backend *be, hpls_dfac *D)
{
    if (!D)
        return;
    hpls_dbuf *const mem[] = {D->rp,    D->ci,   D->val, D->lowend, D->upbeg, D->lslot,
                              D->uslot, D->tpos, D->E,   D->rD,     D->bad,   D->asym};
    for (size_t k = 0; k < sizeof mem / sizeof *mem; k++)
        hpls_dev_free(be, mem[k]);
    hpls_dev_ready_free(be, &D->ready);
    hpls_free(D);
}

/* tpos[p]: the position of A's entry p in A^T (as ilu0.c's transpose_values
 * walks them) */
static hpls_status transpose_positions(const hpls_csr *A, const hpls_csr *At, hpls_int *tpos)
{
    hpls_int *next = hpls_malloc(At->nrows, sizeof *next);
    if (!next)
        return HPLS_ERR_NOMEM;
    for (hpls_int j = 0; j < At->nrows; j++)
        next[j] = At->rowptr[j];
    hpls_status st = HPLS_OK;
    for (hpls_int i = 0; i < A->nrows && st == HPLS_OK; i++)
        for (hpls_int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++) {
            tpos[p] = next[A->colind[p]]++;
            if (At->colind[tpos[p]] != i) {
                st = hpls_fail(HPLS_ERR_INTERNAL, "ilu0: A^T's pattern does not mirror A's");
                break;
            }
        }
    hpls_free(next);
    return st;
}

static hpls_status fac_upload(hpls_backend *be, const hpls_trifac *F, int kind, hpls_dfac **out)
{
    const hpls_csr *A = F->a.A;
    hpls_int n = F->n;
    size_t nb = (size_t)n * sizeof(hpls_int), db = (size_t)n * sizeof(double);
    size_t vb = (size_t)A->nnz * sizeof(double);
    *out = NULL;
    hpls_dfac *D = hpls_calloc(1, sizeof *D);
    if (!D)
        return HPLS_ERR_NOMEM;
    hpls_status st = hpls_dev_upload(be, A->rowptr, (size_t)(n + 1) * sizeof *A->rowptr, &D->rp);
    if (st == HPLS_OK)
        st = hpls_dev_upload(be, A->colind, (size_t)A->nnz * sizeof *A->colind, &D->ci);
    if (st == HPLS_OK)
        st = hpls_dev_alloc(be, vb, &D->val);
    if (st == HPLS_OK)
        st = hpls_dev_upload(be, F->a.lowend, nb, &D->lowend);
    if (st == HPLS_OK)
        st = hpls_dev_upload(be, F->a.upbeg, nb, &D->upbeg);
    if (st == HPLS_OK && F->low.slot)
        st = hpls_dev_upload(be, F->low.slot, nb, &D->lslot);
    if (st == HPLS_OK && F->up.slot)
        st = hpls_dev_upload(be, F->up.slot, nb, &D->uslot);
    hpls_dbuf **work[] = {&D->E, &D->rD, &D->bad, &D->asym};
    for (int k = 0; k < 4 && st == HPLS_OK; k++) /* ilu0's factors: nnz values */
        st = hpls_dev_alloc(be, k == 0 && kind == HPLS_FAC_ILU0 ? vb : db, work[k]);
    if (st == HPLS_OK)
        st = hpls_dev_ready_alloc(be, n, &D->ready);
    if (st != HPLS_OK)
        st = hpls_dev_fail(be, st, "%s's construction, %lld rows", F->name, (long long)n);
    if (st == HPLS_OK && kind == HPLS_FAC_ILU0 && F->at.A) {
        hpls_int *tpos = hpls_malloc(A->nnz, sizeof *tpos);
        st = tpos ? transpose_positions(A, F->at.A, tpos) : HPLS_ERR_NOMEM;
        if (st == HPLS_OK &&
            (st = hpls_dev_upload(be, tpos, (size_t)A->nnz * sizeof *tpos, &D->tpos)) != HPLS_OK)
            st = hpls_dev_fail(be, st, "ilu0's M^-T, %lld entries", (long long)A->nnz);
        hpls_free(tpos);
    }
    if (st != HPLS_OK) {
        hpls_devop_fac_release(be, D);
        return st;
    }
    *out = D;
    return HPLS_OK;
}

/* The first row flagged in chk (the rows' own numbers; n: unflagged), or n. */
static hpls_int first_flagged(hpls_backend *be, hpls_dbuf *chk, hpls_int n)
{
    double first = NAN;
    hpls_dbuf *part = hpls_dev_part(be, 1);
    if (part) {
        int ng = hpls_dev_rgroups(be, n);
        HPLS_DEV_RUN(be, HPLS_K_fac_first_part, (size_t)ng, HPLS_KL(n), HPLS_KG(chk),
                     HPLS_KG(part));
        hpls_dev_reduce_part(be, ng, 1, HPLS_DEV_MIN, &first);
    }
    return isless(first, (double)n) ? (hpls_int)first : n; /* quiet: NaN after a failure */
}

/* The construction's kernels by strategy. */
static void run_rows(hpls_backend *be, hpls_trifac *F, hpls_dfac *D, int kind, int strategy)
{
    hpls_int n = F->n;
    hpls_dsweep *lo = F->dev[0], *up = F->dev[1];
    int flags = (F->symmetric ? 1 : 0) | (F->faces ? 2 : 0) | (D->lslot && D->uslot ? 4 : 0);
    /* absent slot maps: another array of their type, never read (flags say so) */
    hpls_dbuf *lslot = D->lslot ? D->lslot : D->lowend, *uslot = D->uslot ? D->uslot : D->lowend;
    if (strategy == HPLS_TRI_LEVELS && lo->nlev > 0) { /* Alg. 3: a launch a level of L */
        for (hpls_int l = 0; l < lo->nlev; l++) {
            hpls_int first = lo->off[l], count = lo->off[l + 1] - lo->off[l];
            HPLS_DEV_RUN(be, HPLS_K_fac_level, hpls_dev_groups(count), HPLS_KI(kind), HPLS_KL(n),
                         HPLS_KL(first), HPLS_KL(count), HPLS_KG(lo->order), HPLS_KI(flags),
                         HPLS_KD(F->shift), HPLS_KG(D->rp), HPLS_KG(D->ci), HPLS_KG(D->val),
                         HPLS_KG(D->lowend), HPLS_KG(D->upbeg), HPLS_KG(lo->lo), HPLS_KG(lslot),
                         HPLS_KG(up->lo), HPLS_KG(uslot), HPLS_KG(lo->val), HPLS_KG(up->val),
                         HPLS_KG(D->E), HPLS_KG(D->rD), HPLS_KG(D->bad), HPLS_KG(D->asym));
        }
        return;
    }
    /* Alg. 5: rows from the ticket, ready flags; serial: one group */
    hpls_dev_syncfree(be, &D->ready, HPLS_K_fac_syncfree, strategy != HPLS_TRI_SYNCFREE, 1,
                      HPLS_KARGS(HPLS_KI(kind), HPLS_KL(n), HPLS_KI(flags), HPLS_KD(F->shift),
                                 HPLS_KG(D->rp), HPLS_KG(D->ci), HPLS_KG(D->val),
                                 HPLS_KG(D->lowend), HPLS_KG(D->upbeg), HPLS_KG(lo->lo),
                                 HPLS_KG(lslot), HPLS_KG(up->lo), HPLS_KG(uslot), HPLS_KG(lo->val),
                                 HPLS_KG(up->val), HPLS_KG(D->E), HPLS_KG(D->rD), HPLS_KG(D->bad),
                                 HPLS_KG(D->asym)));
}

hpls_status hpls_devop_fac_build(hpls_backend *be, hpls_trifac *F, int kind, int strategy,
                                 hpls_int *bad, hpls_int *asym, double *pivot)
{
    hpls_int n = F->n;
    *bad = *asym = n;
    *pivot = NAN;
    if (!F->dfac) {
        hpls_status st = fac_upload(be, F, kind, &F->dfac);
        if (st != HPLS_OK)
            return st;
    }
    hpls_dfac *D = F->dfac;
    if (n == 0)
        return HPLS_OK;
    size_t db = (size_t)n * sizeof(double);
    hpls_dev_write(be, D->val, 0, F->a.A->val, (size_t)F->a.A->nnz * sizeof(double));
    run_rows(be, F, D, kind, strategy);
    *bad = first_flagged(be, D->bad, n);
    if (kind == HPLS_FAC_DILU) {
        *asym = F->symmetric ? first_flagged(be, D->asym, n) : n;
        /* y_i = rD_i r_i - ...: the forward sweep's row scale; M^-T over A^T:
         * (E + U^T) y = r with dinv = 1/E, then (E + L^T) z = E y */
        hpls_dev_copy(be, D->rD, 0, F->dev[0]->bscale, 0, db);
        if (F->dev[2]) {
            hpls_dev_copy(be, D->rD, 0, F->dev[2]->dinv, 0, db);
            hpls_dev_copy(be, D->E, 0, F->dev[3]->bscale, 0, db);
            hpls_dev_copy(be, D->rD, 0, F->dev[3]->dinv, 0, db);
        }
        hpls_dev_read(be, D->E, 0, F->vec[0], db);
        if (*bad < n)
            *pivot = F->vec[0][*bad];
    } else {
        /* U z = y as z_i = (y_i - ...) / u_ii; M^-T: U^T y = r (dinv 1/u_ii), L^T z = y */
        hpls_dev_copy(be, D->rD, 0, F->dev[1]->dinv, 0, db);
        if (F->dev[2]) {
            HPLS_DEV_RUN(be, HPLS_K_ilu_transpose, hpls_dev_groups(n), HPLS_KL(n), HPLS_KG(D->rp),
                         HPLS_KG(D->lowend), HPLS_KG(D->upbeg), HPLS_KG(D->tpos), HPLS_KG(D->E),
                         HPLS_KG(F->dev[2]->val), HPLS_KG(F->dev[3]->val));
            hpls_dev_copy(be, D->rD, 0, F->dev[2]->dinv, 0, db);
        }
        if (*bad < n) /* u_ii of the bad row: its factor value at the diagonal */
            hpls_dev_read(be, D->E, (size_t)F->a.lowend[*bad] * sizeof(double), pivot,
                          sizeof(double));
    }
    hpls_dev_read(be, D->rD, 0, F->vec[1], db);
    if (be->err != HPLS_OK)
        return hpls_fail(be->err, "%s", be->msg);
    return HPLS_OK;
}
