/* SPDX-License-Identifier: BSD-3-Clause */
/* tridiag_direct.c: the tridiagonal direct solvers on a device backend
 * (backend.h's tfac_* entries), for --solver thomas|cr|gspike, HISA's and
 * BHISA's T and precond tridiag|btridiag on the device.  T comes as blocks
 * of `block` rows with no coupling between them (one block: one system):
 *   thomas  the host's factors (src/direct/thomas.c: its pivot test and
 *           message), solved by kernels/device/thomas.cl, a work-item per
 *           block: a batch of systems; one system is one item's recurrence
 *   cr      blocks of at most HPLS_DEVICE_TRI_MAX rows: a work-group each in
 *           local memory (tridiag.cl's tri_cr, the coefficients reduced in
 *           every solve); one larger system: the host's reduction (cr.c),
 *           solved level by level in global memory (cr.cl, 2 log2 n launches,
 *           cr.c's bits); several larger blocks are refused.  The host's
 *           factorization is made in both cases for its pivot test, so the
 *           device refuses what the host refuses
 *   gspike  one system: kernels/device/gspike.c
 *   lapack  host only (LAPACK's dgttrf has no device version): refused.
 * thomas and cr on one system refine as the host does (src/direct/refine.c:
 * the host's growth and probe decide, the device's residual has the host's
 * expressions, so a refined x keeps the host's bits where the solve has them). */
#include "direct/direct.h"
#include "kernels/device/devhost.h"
#include "kernels/device/gspike.h"

#include <float.h>
#include <math.h>

struct hpls_dtfac {
    int method; /* hpls_tridiag_method */
    hpls_int n, block;
    hpls_dbuf *dl, *cp, *pinv;                /* thomas: thomas.c's factors */
    hpls_dtri *tri;                           /* cr, blocks in local memory */
    int nlev;                                 /* cr, one system level by level: cr.c's levels, */
    hpls_int *off;                            /* their offsets (host), */
    hpls_dbuf *l, *u, *dinv, *k1, *k2, *work; /* coefficients, levels 1.. of b and x */
    hpls_devgspike *gs;
    /* thomas and cr on one system, when the host's factors grew (src/direct/
     * refine.c): T, the residual and correction, b's copy, the last iterate */
    hpls_dbuf *tdl, *td, *tdu;
    hpls_dvec *r, *b0, *xp;
};

void hpls_devop_tfac_release(hpls_backend *be, hpls_dtfac *F)
{
    if (!F)
        return;
    hpls_dbuf *const mem[] = {F->dl, F->cp, F->pinv, F->l,   F->u,  F->dinv,
                              F->k1, F->k2, F->work, F->tdl, F->td, F->tdu};
    for (size_t k = 0; k < sizeof mem / sizeof *mem; k++)
        hpls_dev_free(be, mem[k]);
    be->v->release(be, F->r);
    be->v->release(be, F->b0);
    be->v->release(be, F->xp);
    be->d->tri_release(be, F->tri);
    hpls_free(F->off);
    hpls_devgspike_free(be, F->gs);
    hpls_free(F);
}

/* One system: the host's refinement decision on the host's factors fac
 * (refine.c: growth, probe, refusal); when it refines, T and the vectors of
 * the refinement on the device. */
static hpls_status refine_setup(hpls_backend *be, const hpls_tridiag *T, hpls_dtfac *F,
                                const void *fac)
{
    hpls_trefine R;
    hpls_status st = hpls_trefine_setup(F->method, fac, T->n, T->dl, T->d, T->du, be->nthreads, &R);
    if (st != HPLS_OK || R.n == 0)
        return st;
    size_t bytes = (size_t)T->n * sizeof(double);
    st = hpls_dev_upload(be, R.dl, bytes, &F->tdl);
    if (st == HPLS_OK)
        st = hpls_dev_upload(be, R.d, bytes, &F->td);
    if (st == HPLS_OK)
        st = hpls_dev_upload(be, R.du, bytes, &F->tdu);
    hpls_dvec **v[3] = {&F->r, &F->b0, &F->xp};
    for (int k = 0; st == HPLS_OK && k < 3; k++)
        st = be->v->alloc(be, T->n, v[k]);
    hpls_trefine_free(&R);
    return st;
}

static hpls_status factor_thomas(hpls_backend *be, const hpls_tridiag *T, hpls_dtfac *F)
{
    hpls_thomas t; /* on a block-diagonal T, each block's factors (its dl[lo] is 0) */
    hpls_status st = hpls_thomas_factor(T->n, T->dl, T->d, T->du, &t);
    if (st == HPLS_OK && F->block >= T->n)
        st = refine_setup(be, T, F, &t);
    if (st != HPLS_OK) {
        hpls_thomas_free(&t);
        return st;
    }
    size_t bytes = (size_t)T->n * sizeof(double);
    st = hpls_dev_upload(be, t.dl, bytes, &F->dl);
    if (st == HPLS_OK)
        st = hpls_dev_upload(be, t.cp, bytes, &F->cp);
    if (st == HPLS_OK)
        st = hpls_dev_upload(be, t.pinv, bytes, &F->pinv);
    hpls_thomas_free(&t);
    return st == HPLS_OK ? st
                         : hpls_dev_fail(be, st, "thomas's factors of %lld rows", (long long)T->n);
}

/* CR's pivot test on each block (cr.c, as the host's btri factors them);
 * one system: the refinement's decision too */
static hpls_status cr_check(hpls_backend *be, const hpls_tridiag *T, hpls_dtfac *F)
{
    hpls_status st = HPLS_OK;
    for (hpls_int lo = 0; st == HPLS_OK && lo < T->n; lo += F->block) {
        hpls_cr f;
        hpls_int len = T->n - lo < F->block ? T->n - lo : F->block;
        st = hpls_cr_factor(len, T->dl + lo, T->d + lo, T->du + lo, be->nthreads, &f);
        if (st == HPLS_OK && F->block >= T->n)
            st = refine_setup(be, T, F, &f);
        hpls_cr_free(&f);
    }
    return st;
}

/* one system beyond local memory: cr.c's coefficients on the device */
static hpls_status factor_cr_levels(hpls_backend *be, const hpls_tridiag *T, hpls_dtfac *F)
{
    hpls_cr f;
    hpls_status st = hpls_cr_factor(T->n, T->dl, T->d, T->du, be->nthreads, &f);
    if (st == HPLS_OK)
        st = refine_setup(be, T, F, &f);
    if (st != HPLS_OK) {
        hpls_cr_free(&f);
        return st;
    }
    hpls_int total = f.off[f.nlev];
    size_t bytes = (size_t)total * sizeof(double);
    F->nlev = f.nlev;
    F->off = hpls_malloc(f.nlev + 1, sizeof *F->off);
    if (!F->off)
        st = HPLS_ERR_NOMEM;
    for (int k = 0; st == HPLS_OK && k <= f.nlev; k++)
        F->off[k] = f.off[k];
    const hpls_real *h[5] = {f.l, f.u, f.dinv, f.k1, f.k2};
    hpls_dbuf **d[5] = {&F->l, &F->u, &F->dinv, &F->k1, &F->k2};
    for (int k = 0; st == HPLS_OK && k < 5; k++)
        st = hpls_dev_upload(be, h[k], bytes, d[k]);
    if (st == HPLS_OK)
        st = hpls_dev_alloc(be, (size_t)(total - T->n) * sizeof(double), &F->work);
    if (st != HPLS_OK && st != HPLS_ERR_NOMEM)
        st = hpls_dev_fail(be, st, "cr's coefficients of %lld rows", (long long)T->n);
    hpls_cr_free(&f);
    return st;
}

hpls_status hpls_devop_tfac_factor(hpls_backend *be, const hpls_tridiag *T, hpls_int block,
                                   int method, const hpls_tridiag_opts *opts, int how,
                                   hpls_dtfac **out)
{
    *out = NULL;
    hpls_int n = T->n;
    if (block <= 0 || block > n)
        block = n > 0 ? n : 1;
    hpls_dtfac *F = hpls_calloc(1, sizeof *F);
    if (!F)
        return HPLS_ERR_NOMEM;
    *F = (hpls_dtfac){.method = method, .n = n, .block = block};
    hpls_status st = HPLS_OK;
    switch (method) {
    case HPLS_TRIDIAG_THOMAS: st = factor_thomas(be, T, F); break;
    case HPLS_TRIDIAG_CR:
        if (block <= HPLS_DEVICE_TRI_MAX) {
            st = cr_check(be, T, F);
            if (st == HPLS_OK)
                st = be->d->tri_upload(be, T, block, &F->tri);
        } else if (block >= n) {
            st = factor_cr_levels(be, T, F);
        } else {
            st = hpls_fail(HPLS_ERR_UNSUPPORTED,
                           "%s backend: cr solves blocks of at most %d rows (local memory), "
                           "or one system: not blocks of %lld",
                           be->name, HPLS_DEVICE_TRI_MAX, (long long)block);
        }
        break;
    case HPLS_TRIDIAG_GSPIKE:
        if (block < n) {
            st = hpls_fail(HPLS_ERR_OPTION, "blocks of a block tridiagonal matrix are solved by "
                                            "thomas or cr, not gspike");
            break;
        }
        /* singular or not: the solver framework's hpls_tridiag_condition, on the host */
        st = hpls_devgspike_factor(be, T, opts ? opts->partitions : 0,
                                 opts ? opts->delta : HPLS_TRIDIAG_DELTA_DEFAULT, how, &F->gs);
        break;
    default:
        st = hpls_fail(HPLS_ERR_UNSUPPORTED,
                       "%s backend: lapack runs on the host only (LAPACK's dgttrf has no device "
                       "version): thomas, cr and gspike run on the device",
                       be->name);
    }
    if (st != HPLS_OK) {
        hpls_devop_tfac_release(be, F);
        return st;
    }
    *out = F;
    return HPLS_OK;
}

/* cr.c's solve, a launch per level and step: the levels' b reduced (Step 2),
 * then solved back from the top (Step 3); level l's values are x itself
 * (l = 0) or work at off[l] - n */
static void solve_cr_levels(hpls_backend *be, const hpls_dtfac *F, const hpls_dvec *b, hpls_dvec *x)
{
    hpls_int n = F->n;
    const hpls_int *off = F->off;
    if (b != x)
        be->v->copy(be, n, b, x);
    hpls_dbuf *xb = hpls_dev_vbuf(x);
#define CR_AT(lev) HPLS_KG((lev) == 0 ? xb : F->work), HPLS_KL((lev) == 0 ? 0 : off[lev] - n)
    for (int lev = 0; lev + 1 < F->nlev; lev++) {
        hpls_int m = off[lev + 1] - off[lev];
        HPLS_DEV_RUN(be, HPLS_K_cr_reduce, hpls_dev_groups(m / 2), HPLS_KL(m), HPLS_KL(off[lev]),
                     HPLS_KG(F->k1), HPLS_KG(F->k2), CR_AT(lev), CR_AT(lev + 1));
    }
    int top = F->nlev - 1;
    HPLS_DEV_RUN(be, HPLS_K_cr_top, 1, HPLS_KL(off[top]), HPLS_KG(F->dinv), CR_AT(top));
    for (int lev = top - 1; lev >= 0; lev--) {
        hpls_int m = off[lev + 1] - off[lev];
        HPLS_DEV_RUN(be, HPLS_K_cr_back, hpls_dev_groups(m), HPLS_KL(m), HPLS_KL(off[lev]),
                     HPLS_KG(F->l), HPLS_KG(F->u), HPLS_KG(F->dinv), CR_AT(lev), CR_AT(lev + 1));
    }
#undef CR_AT
}

static void solve_plain(hpls_backend *be, hpls_dtfac *F, const hpls_dvec *b, hpls_dvec *x)
{
    if (F->gs) {
        hpls_devgspike_solve(be, F->gs, b, x);
    } else if (F->tri) {
        be->d->tri_solve(be, F->tri, b, x);
    } else if (F->off) {
        solve_cr_levels(be, F, b, x);
    } else { /* thomas: a work-item per block */
        hpls_int nb = (F->n + F->block - 1) / F->block;
        HPLS_DEV_RUN(be, HPLS_K_tri_thomas, hpls_dev_groups(nb), HPLS_KL(F->n), HPLS_KL(F->block),
                     HPLS_KG(F->dl), HPLS_KG(F->cp), HPLS_KG(F->pinv), HPLS_KV(b), HPLS_KV(x));
    }
}

/* refine.c's hpls_trefine_solve step for step: its residual (tri_resid_part),
 * its stopping test on the read-back error, its undoing of a worse step */
static void solve_refined(hpls_backend *be, hpls_dtfac *F, const hpls_dvec *b, hpls_dvec *x)
{
    hpls_int n = F->n;
    be->v->copy(be, n, b, F->b0); /* b is needed after x is written (x may be b) */
    solve_plain(be, F, F->b0, x);
    double last = INFINITY;
    for (int it = 0; it <= HPLS_TRIDIAG_REFINE_MAX && be->err == HPLS_OK; it++) {
        int ng = hpls_dev_rgroups(be, n);
        hpls_dbuf *part = hpls_dev_part(be, 1);
        if (!part)
            return;
        HPLS_DEV_RUN(be, HPLS_K_tri_resid_part, (size_t)ng, HPLS_KL(n), HPLS_KG(F->tdl),
                     HPLS_KG(F->td), HPLS_KG(F->tdu), HPLS_KV(F->b0), HPLS_KV(x), HPLS_KV(F->r),
                     HPLS_KG(part));
        double berr;
        hpls_dev_reduce_part(be, ng, 1, HPLS_DEV_MAX, &berr);
        /* the first x not finite from a finite b: the sweeps overflowed, where
         * the host's guarded solve stops before (its refusal, in its words) */
        if (it == 0 && !(berr <= DBL_MAX)) {
            hpls_be_fail(be, HPLS_ERR_SINGULAR,
                         "%s: the solve overflowed (x not finite), amplifying its rounding "
                         "errors without pivoting: T needs pivoting (no pivoting; try gspike or "
                         "lapack)",
                         hpls_tridiag_method_name(F->method));
            return;
        }
        if (it > 0 && !isless(berr, last)) { /* worse (or NaN): the previous x */
            be->v->copy(be, n, F->xp, x);
            break;
        }
        if (!isgreater(berr, DBL_EPSILON) || it == HPLS_TRIDIAG_REFINE_MAX)
            break;
        last = berr;
        be->v->copy(be, n, x, F->xp);
        solve_plain(be, F, F->r, F->r);   /* the correction */
        be->v->axpy(be, n, 1.0, F->r, x); /* x += r */
    }
}

void hpls_devop_tfac_solve(hpls_backend *be, hpls_dtfac *F, const hpls_dvec *b, hpls_dvec *x)
{
    if (F->n == 0 || be->err != HPLS_OK)
        return;
    if (F->r)
        solve_refined(be, F, b, x);
    else
        solve_plain(be, F, b, x);
}

void hpls_devop_tfac_stats(const hpls_dtfac *F, hpls_int *singular, double *rcond)
{
    *singular = F->gs ? hpls_devgspike_singular(F->gs) : 0;
    *rcond = F->gs ? hpls_devgspike_rcond(F->gs) : 1.0;
}
