/* factor.c: dilu's and dic's construction on a device (backend.h's
 * dilu_build and fac_release; the kernels are factor.cl's), on the host
 * layer.  A's pattern, the split (lowend, upbeg) and the copies' slot maps
 * go to the device once; at every build A's values, then the kernels by
 * strategy, which write the scaled copies' values straight into the sweeps'
 * device arrays (precond/trisolve.c uploaded their layout); 1/E and E are
 * copied into the sweeps that scale by them, and read back to the host, which
 * keeps E (the pivot's message, and the tests' comparison with the host's). */
#include "kernels/device/devhost.h"
#include "precond/trisolve.h"

#include <math.h>

struct hpls_dfac {
    hpls_dbuf *rp, *ci, *val, *lowend, *upbeg; /* A's pattern and values, its split */
    hpls_dbuf *lslot, *uslot;                  /* row -> slot of the copies, or NULL */
    hpls_dbuf *E, *rD, *bad, *asym;            /* E, 1/E, the rows' checks */
    hpls_dbuf *flag, *ticket;                  /* syncfree: ready flags, the row ticket */
    hpls_int n;
    unsigned long long epoch; /* syncfree builds started */
};

void hpls_devop_fac_release(hpls_backend *be, hpls_dfac *D)
{
    if (!D)
        return;
    hpls_dbuf *const mem[] = {D->rp,    D->ci, D->val, D->lowend, D->upbeg, D->lslot, D->uslot,
                              D->E,     D->rD, D->bad, D->asym,   D->flag,  D->ticket};
    for (size_t k = 0; k < sizeof mem / sizeof *mem; k++)
        hpls_dev_free(be, mem[k]);
    hpls_free(D);
}

static hpls_status fac_upload(hpls_backend *be, const hpls_trifac *F, hpls_dfac **out)
{
    const hpls_csr *A = F->a.A;
    hpls_int n = F->n;
    size_t nb = (size_t)n * sizeof(hpls_int), db = (size_t)n * sizeof(double);
    *out = NULL;
    hpls_dfac *D = hpls_calloc(1, sizeof *D);
    if (!D)
        return HPLS_ERR_NOMEM;
    D->n = n;
    hpls_status st = hpls_dev_upload(be, A->rowptr, (size_t)(n + 1) * sizeof *A->rowptr, &D->rp);
    if (st == HPLS_OK)
        st = hpls_dev_upload(be, A->colind, (size_t)A->nnz * sizeof *A->colind, &D->ci);
    if (st == HPLS_OK)
        st = hpls_dev_alloc(be, (size_t)A->nnz * sizeof *A->val, &D->val);
    if (st == HPLS_OK)
        st = hpls_dev_upload(be, F->a.lowend, nb, &D->lowend);
    if (st == HPLS_OK)
        st = hpls_dev_upload(be, F->a.upbeg, nb, &D->upbeg);
    if (st == HPLS_OK && F->low.slot)
        st = hpls_dev_upload(be, F->low.slot, nb, &D->lslot);
    if (st == HPLS_OK && F->up.slot)
        st = hpls_dev_upload(be, F->up.slot, nb, &D->uslot);
    hpls_dbuf **work[] = {&D->E, &D->rD, &D->bad, &D->asym};
    for (int k = 0; k < 4 && st == HPLS_OK; k++)
        st = hpls_dev_alloc(be, db, work[k]);
    if (st == HPLS_OK)
        st = hpls_dev_alloc(be, (size_t)n * sizeof(unsigned long long), &D->flag);
    if (st == HPLS_OK)
        st = hpls_dev_alloc(be, sizeof(unsigned long long), &D->ticket);
    if (st != HPLS_OK) {
        st = hpls_dev_fail(be, st, "%s's construction, %lld rows", F->name, (long long)n);
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
        int ng = hpls_dev_rgroups(n);
        HPLS_DEV_RUN(be, HPLS_K_fac_first_part, (size_t)ng, HPLS_KL(n), HPLS_KG(chk),
                     HPLS_KG(part));
        hpls_dev_reduce_part(be, ng, 1, HPLS_DEV_MIN, &first);
    }
    return first < (double)n ? (hpls_int)first : n;
}

hpls_status hpls_devop_dilu_build(hpls_backend *be, hpls_trifac *F, int strategy, hpls_int *bad,
                                  hpls_int *asym)
{
    hpls_int n = F->n;
    *bad = *asym = n;
    if (!F->dfac) {
        hpls_status st = fac_upload(be, F, &F->dfac);
        if (st != HPLS_OK)
            return st;
    }
    hpls_dfac *D = F->dfac;
    hpls_dsweep *lo = F->dev[0], *up = F->dev[1];
    if (n == 0)
        return HPLS_OK;
    size_t db = (size_t)n * sizeof(double);
    hpls_dev_write(be, D->val, 0, F->a.A->val, (size_t)F->a.A->nnz * sizeof(double));
    int flags = (F->symmetric ? 1 : 0) | (F->faces ? 2 : 0) | (D->lslot && D->uslot ? 4 : 0);
    /* absent slot maps: another array of their type, never read (flags say so) */
    hpls_dbuf *lslot = D->lslot ? D->lslot : D->lowend, *uslot = D->uslot ? D->uslot : D->lowend;
    if (strategy == HPLS_TRI_LEVELS && lo->nlev > 0) { /* Alg. 3: a launch a level of L */
        for (hpls_int l = 0; l < lo->nlev; l++) {
            hpls_int first = lo->off[l], count = lo->off[l + 1] - lo->off[l];
            HPLS_DEV_RUN(be, HPLS_K_dilu_level, hpls_dev_groups(count), HPLS_KL(n), HPLS_KL(first),
                         HPLS_KL(count), HPLS_KG(lo->order), HPLS_KI(flags), HPLS_KD(F->shift),
                         HPLS_KG(D->rp), HPLS_KG(D->ci), HPLS_KG(D->val), HPLS_KG(D->lowend),
                         HPLS_KG(D->upbeg), HPLS_KG(lo->lo), HPLS_KG(lslot), HPLS_KG(up->lo),
                         HPLS_KG(uslot), HPLS_KG(lo->val), HPLS_KG(up->val), HPLS_KG(D->E),
                         HPLS_KG(D->rD), HPLS_KG(D->bad), HPLS_KG(D->asym));
        }
    } else { /* Alg. 5: rows from the ticket, ready flags; serial: one group */
        unsigned long long epoch = ++D->epoch;
        hpls_dev_zero(be, D->ticket, 0, sizeof(unsigned long long));
        HPLS_DEV_RUNL(be, HPLS_K_dilu_syncfree,
                      strategy == HPLS_TRI_SYNCFREE ? HPLS_DEV_SYNCFREE_GROUPS : 1, 1, HPLS_KL(n),
                      HPLS_KI(flags), HPLS_KD(F->shift), HPLS_KG(D->rp), HPLS_KG(D->ci),
                      HPLS_KG(D->val), HPLS_KG(D->lowend), HPLS_KG(D->upbeg), HPLS_KG(lo->lo),
                      HPLS_KG(lslot), HPLS_KG(up->lo), HPLS_KG(uslot), HPLS_KG(lo->val),
                      HPLS_KG(up->val), HPLS_KG(D->E), HPLS_KG(D->rD), HPLS_KG(D->bad),
                      HPLS_KG(D->asym), HPLS_KG(D->flag), HPLS_KG(D->ticket), HPLS_KU(epoch));
    }
    *bad = first_flagged(be, D->bad, n);
    *asym = first_flagged(be, D->asym, n);
    /* y_i = rD_i r_i - ...: the forward sweep's row scale; M^-T over A^T:
     * (E + U^T) y = r with dinv = 1/E, then (E + L^T) z = E y */
    hpls_dev_copy(be, D->rD, 0, lo->bscale, 0, db);
    if (F->dev[2]) {
        hpls_dev_copy(be, D->rD, 0, F->dev[2]->dinv, 0, db);
        hpls_dev_copy(be, D->E, 0, F->dev[3]->bscale, 0, db);
        hpls_dev_copy(be, D->rD, 0, F->dev[3]->dinv, 0, db);
    }
    hpls_dev_read(be, D->E, 0, F->vec[0], db);
    hpls_dev_read(be, D->rD, 0, F->vec[1], db);
    if (be->err != HPLS_OK)
        return hpls_fail(be->err, "%s", be->msg);
    return HPLS_OK;
}
