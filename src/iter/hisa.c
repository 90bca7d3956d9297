/* SPDX-License-Identifier: BSD-3-Clause */
/* hisa.c: HISA and BHISA (Li, Yang, Li, IEEE TPDS 27(10), 2016): split the
 * quasi-tridiagonal A = T + S and iterate T x^{m+1} = b - S x^m (Eq. 3, Alg. 1),
 * T factored once and solved directly every iteration.  BHISA (Sec. 5.2, Alg. 3,
 * Eq. 7) cuts T into blocks of `block` rows, moves the couplings between blocks
 * into S, and solves the blocks independently in parallel.
 *
 *   y = S x0; r0 = b - A x0
 *   loop: b' = b - y; T x = b'; y' = S x; r = y - y'; y = y'
 * The residual needs no extra SpMV: b - A x^{m+1} = S x^m - S x^{m+1} (since
 * T x^{m+1} = b - S x^m).  It converges iff rho(T^-1 S) < 1 (Lemma 1; always for
 * diagonally dominant A, Lemma 2); a residual that keeps growing is reported early
 * as HPLS_DIVERGED_GROWTH with the advice to use T as a Krylov preconditioner.
 * Optionally (xtol > 0) the paper's test ||x^m - x^{m-1}|| <= xtol ||x^m|| stops too.
 * Traffic per iteration: S once (SpMV), T's factors once, x twice, b, y, y', b'.
 *
 * On a matrix distributed over MPI ranks, A is the rank's diagonal block: T is
 * cut at the ranks' boundaries too (HISA on P ranks is BHISA with P blocks,
 * Eq. 7), and S x adds the couplings to the other ranks' rows through the halo
 * (mpi/dist_hisa.c).  T x = b' stays local, the residual identity holds row by
 * row, and ||y - y'|| is the one reduction of an iteration. */
#include "iter/hisa_kernels.h"
#include "iter/method.h"

#include "direct/block_tridiag.h"
#include "la/split.h"

#include <math.h>

/* Each family's kernels (kernels/hisa.h), at its index. */
#define HISA_OF_(f, p) [HPLS_KF_##f] = {hpls_##p##_hisa_update},
static const hpls_hisa_kernels kernels[HPLS_KF_COUNT] = {HPLS_KFAMILIES(HISA_OF_)};

const hpls_hisa_kernels *hpls_hisa_kernels_of(const hpls_backend *be)
{
    return &kernels[be->v->family];
}

typedef struct hisa_data {
    hpls_csr *S;
    hpls_btri *T; /* the factors of T */
    /* on a device backend instead: S and T's factors there
     * (kernels/device/tridiag_direct.c) */
    hpls_backend *be;
    hpls_dmat *dS;
    hpls_dtfac *dT;
} hisa_data;

void hpls_destroy_hisa(void *mdata)
{
    hisa_data *H = mdata;
    if (!H)
        return;
    hpls_csr_destroy(H->S);
    hpls_btri_free(H->T);
    if (H->be) {
        H->be->d->csr_release(H->be, H->dS);
        H->be->d->tfac_release(H->be, H->dT);
    }
    hpls_free(H);
}

/* The device's setup: S and the factors of T there. */
static hpls_status setup_device(hpls_mctx *mc, hisa_data *H, hpls_int block)
{
    hpls_backend *be = mc->be;
    hpls_int n = mc->n;
    hpls_int rows = block > 0 && block < n ? block : n;
    int method;
    hpls_status st = hpls_tridiag_device_method(
        be, mc->name, n, rows, mc->opt.tridiag_set ? mc->opt.tridiag : -1, &method);
    if (st != HPLS_OK)
        return st;
    hpls_tridiag *T = NULL;
    st = hpls_split_tridiag(mc->A, block, be->nthreads, &T, &H->S);
    H->be = be;
    if (st == HPLS_OK)
        st = be->d->csr_upload(be, H->S, 0, &H->dS);
    const hpls_tridiag_opts o = {.partitions = mc->opt.gspike_p, .delta = mc->opt.gspike_delta};
    if (st == HPLS_OK)
        st = be->d->tfac_factor(be, T, rows, method, &o, 0, &H->dT);
    hpls_tridiag_destroy(T);
    hpls_csr_destroy(H->S); /* the device has it */
    H->S = NULL;
    return st;
}

static hpls_status setup(hpls_mctx *mc, hpls_int block)
{
    hisa_data *H = hpls_calloc(1, sizeof *H);
    if (!H)
        return HPLS_ERR_NOMEM;
    hpls_status st = mc->be->d
                         ? setup_device(mc, H, block)
                         : hpls_hisa_build(mc->A, block, mc->opt.tridiag, mc->opt.gspike_delta,
                                           mc->opt.gspike_p, mc->be->nthreads, &H->S, &H->T);
    if (st != HPLS_OK) {
        hpls_destroy_hisa(H);
        return st;
    }
    mc->mdata = H;
    return HPLS_OK;
}

hpls_status hpls_setup_hisa(hpls_mctx *mc)
{
    return setup(mc, 0);
}

hpls_status hpls_setup_bhisa(hpls_mctx *mc)
{
    if (mc->opt.tridiag != HPLS_TRIDIAG_THOMAS && mc->opt.tridiag != HPLS_TRIDIAG_CR)
        return hpls_fail(HPLS_ERR_OPTION, "bhisa solves its blocks by tridiag=thomas or cr");
    /* on a device: blocks as large as local memory holds (fewer cuts, fewer
     * iterations; the paper took 64 on a K20c) */
    hpls_int dflt = mc->be->d && mc->opt.block <= 0 ? HPLS_DEVICE_TRI_MAX : mc->opt.block;
    return setup(mc, hpls_bhisa_block(mc->n, dflt, mc->be->nthreads));
}

/* Growth over this many consecutive iterations, to a residual above the best
 * seen times GROW_FACTOR, means rho(T^-1 S) >= 1: stop early. */
#define GROW_RUN 5
#define GROW_FACTOR 10.0

/* y = S x on the backend (a host kernel, or the device's SpMV) */
static void s_product(hpls_mctx *mc, const hisa_data *H, const hpls_dvec *x, hpls_dvec *y)
{
    hpls_backend *be = mc->be;
    if (H->dS) {
        be->d->spmv(be, H->dS, x, y);
        return;
    }
    const hpls_csr *S = H->S;
    const hpls_real *xp = hpls_v_host(be, x);
    hpls_real *yp = hpls_v_host(be, y);
    if (!xp || !yp) /* a refused handle, recorded: the test stops */
        return;
    if (mc->op->dk) /* distributed: S is the rank's part, its couplings to the others' rows too */
        mc->op->dk->apply_part(mc->op, S, xp, yp);
    else
        be->k->spmv(be->nthreads, be->pf, S, xp, yp);
}

/* T x = b' on the backend (a host kernel, or the device's factors) */
static hpls_status t_solve(hpls_mctx *mc, const hisa_data *H, const hpls_dvec *bp, hpls_dvec *x)
{
    if (H->dT) {
        mc->be->d->tfac_solve(mc->be, H->dT, bp, x);
        return mc->be->err;
    }
    const hpls_btri *T = H->T;
    const hpls_real *b = hpls_v_host(mc->be, bp);
    hpls_real *xp = hpls_v_host(mc->be, x);
    return b && xp ? hpls_btri_solve(T, b, xp) : mc->be->err;
}

hpls_status hpls_solve_hisa(hpls_mctx *mc, const hpls_dvec *b, hpls_dvec *x)
{
    const hisa_data *H = mc->mdata;
    hpls_backend *be = mc->be;
    const hpls_hisa_kernels *K = hpls_hisa_kernels_of(be);
    hpls_int n = mc->n;
    hpls_dvec *y = mc->work[0], *ynew = mc->work[1], *bp = mc->work[2], *xold = mc->work[3];
    double rnorm = hpls_m_op_residual(mc, b, x, bp); /* r0 = b - A x0 */
    if (hpls_conv_start(mc, rnorm) != HPLS_NOT_RUN)
        return HPLS_OK;
    s_product(mc, H, x, y);                           /* y = S x0 */
    hpls_v_axpbypcz(be, n, 1.0, b, -1.0, y, 0.0, bp); /* b' = b - y */
    double best = rnorm, prev = rnorm;
    int growing = 0;
    for (hpls_int it = 1;; it++) {
        if (mc->opt.xtol > 0)
            hpls_v_copy(be, n, x, xold);
        hpls_status st = t_solve(mc, H, bp, x); /* T x = b' */
        if (st != HPLS_OK)
            return st;
        s_product(mc, H, x, ynew);                         /* y' = S x */
        rnorm = K->update(be, n, b, y, ynew, bp);          /* ||y - y'||, b' = b - y' */
        hpls_dvec *t = y;
        y = ynew;
        ynew = t;
        hpls_reason why = hpls_conv_check(mc, it, rnorm);
        if (why != HPLS_NOT_RUN)
            return HPLS_OK;
        if (mc->opt.xtol > 0) {
            hpls_v_axpy(be, n, -1.0, x, xold); /* xold = x^{m-1} - x^m */
            if (hpls_v_nrm2(be, n, xold) <= mc->opt.xtol * hpls_v_nrm2(be, n, x)) {
                mc->info.reason = HPLS_CONVERGED_STEP;
                return HPLS_OK;
            }
        }
        growing = rnorm > prev ? growing + 1 : 0;
        prev = rnorm;
        best = fmin(best, rnorm);
        if (growing >= GROW_RUN && rnorm > GROW_FACTOR * best) {
            mc->info.reason = HPLS_DIVERGED_GROWTH;
            return hpls_m_fail(mc, HPLS_OK,
                               "the residual grew for %d iterations: "
                               "rho(T^-1 S) >= 1, so %s cannot converge on this matrix; "
                               "use T as a preconditioner instead (e.g. --solver bicgstab "
                               "--precond tridiag)",
                               GROW_RUN, mc->name);
        }
    }
}
