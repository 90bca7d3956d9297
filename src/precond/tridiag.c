/* SPDX-License-Identifier: BSD-3-Clause */
/* tridiag.c (precond): M = T, the tridiagonal band of A (tridiag), or the band cut
 * into blocks (btridiag), factored once: HISA's splitting used as a Krylov
 * preconditioner, so A's off-band part S need not satisfy rho(T^-1 S) < 1.
 * For methods that apply M^-T (bicg, qmr), T^T is the band of A^T: factored too.
 * The solves are host kernels on the backend's thread count; on a device
 * backend the factors and the solves are the device's (kernels/device/
 * tridiag_direct.c), by the tridiag option as given (thomas by default: a
 * work-item per block, so one work-item for tridiag's one T). */
#include "precond/pc.h"

#include "direct/block_tridiag.h"
#include "la/split.h"

typedef struct tridiag_pc {
    hpls_backend *be;
    hpls_btri *T, *Tt;    /* factors of T, and of T^T when the method needs them */
    hpls_dtfac *dT, *dTt; /* the same on a device backend */
} tridiag_pc;

static hpls_status solve_with(const tridiag_pc *P, const hpls_btri *T, hpls_dtfac *dT,
                              const hpls_dvec *r, hpls_dvec *z)
{
    if (dT) {
        P->be->d->tfac_solve(P->be, dT, r, z);
        return P->be->err;
    }
    const hpls_real *rp = hpls_v_host(P->be, r);
    hpls_real *zp = hpls_v_host(P->be, z);
    if (!rp || !zp)
        return P->be->err;
    return hpls_btri_solve(T, rp, zp); /* the factors were checked at setup */
}

static hpls_status apply_tridiag(const hpls_pc *pc, const hpls_dvec *r, hpls_dvec *z)
{
    const tridiag_pc *P = pc->ctx;
    return solve_with(P, P->T, P->dT, r, z); /* z = T^-1 r */
}

static hpls_status apply_tridiag_t(const hpls_pc *pc, const hpls_dvec *r, hpls_dvec *z)
{
    const tridiag_pc *P = pc->ctx;
    return solve_with(P, P->Tt, P->dTt, r, z); /* z = T^-T r */
}

static void destroy_tridiag(void *ctx)
{
    tridiag_pc *P = ctx;
    if (!P)
        return;
    hpls_btri_free(P->T);
    hpls_btri_free(P->Tt);
    if (P->be->d) {
        P->be->d->tfac_release(P->be, P->dT);
        P->be->d->tfac_release(P->be, P->dTt);
    }
    hpls_free(P);
}

static hpls_status factor_band(hpls_backend *be, const hpls_pcopts *o, const hpls_csr *A,
                               hpls_int block, hpls_btri **B, hpls_dtfac **D)
{
    hpls_csr *S = NULL;
    if (!be->d) {
        hpls_status st = hpls_hisa_build(A, block, o->tridiag, o->gspike_delta, o->gspike_p,
                                         be->nthreads, &S, B);
        hpls_csr_destroy(S); /* only T is needed */
        return st;
    }
    hpls_int n = A->nrows, rows = block > 0 && block < n ? block : n;
    int method;
    hpls_tridiag *T = NULL;
    hpls_status st = hpls_tridiag_device_method(
        be, rows < n ? "precond btridiag" : "precond tridiag", n, rows, o->tridiag, &method);
    if (st == HPLS_OK)
        st = hpls_split_tridiag(A, block, be->nthreads, &T, &S);
    hpls_csr_destroy(S);
    const hpls_tridiag_opts to = {.partitions = o->gspike_p, .delta = o->gspike_delta};
    if (st == HPLS_OK)
        st = be->d->tfac_factor(be, T, rows, method, &to, 0, D);
    hpls_tridiag_destroy(T);
    return st;
}

static hpls_status setup(hpls_backend *be, const hpls_csr *A, const hpls_csr *At,
                         const hpls_pcopts *o, hpls_pc *pc, hpls_int block)
{
    tridiag_pc *P = hpls_calloc(1, sizeof *P);
    if (!P)
        return HPLS_ERR_NOMEM;
    P->be = be;
    hpls_status st = factor_band(be, o, A, block, &P->T, &P->dT);
    if (st == HPLS_OK && At)
        st = factor_band(be, o, At, block, &P->Tt, &P->dTt);
    if (st != HPLS_OK) {
        destroy_tridiag(P);
        return st;
    }
    *pc = (hpls_pc){.ctx = P,
                    .be = be,
                    .apply = apply_tridiag,
                    .apply_t = P->Tt || P->dTt ? apply_tridiag_t : NULL,
                    .destroy = destroy_tridiag};
    return HPLS_OK;
}

hpls_status hpls_pc_setup_tridiag(hpls_backend *be, const hpls_csr *A, const hpls_csr *At,
                                  const hpls_pcopts *o, hpls_pc *pc)
{
    return setup(be, A, At, o, pc, 0);
}

hpls_status hpls_pc_setup_btridiag(hpls_backend *be, const hpls_csr *A, const hpls_csr *At,
                                   const hpls_pcopts *o, hpls_pc *pc)
{
    /* on a device: blocks as large as local memory holds, as bhisa's */
    hpls_int dflt = be->d && o->block <= 0 ? HPLS_DEVICE_TRI_MAX : o->block;
    return setup(be, A, At, o, pc, hpls_bhisa_block(A->nrows, dflt, be->nthreads));
}
