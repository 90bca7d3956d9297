/* SPDX-License-Identifier: BSD-3-Clause */
/* direct.c: the tridiagonal direct methods as solver methods, `--solver
 * thomas|cr|gspike|lapack`: setup extracts T from A and factors it (src/direct,
 * or a device backend's factors), a solve is one solve with the factors,
 * iterations 0, the true residual deciding the reason.  On more than one MPI
 * rank both hand over to the operator's distributed forms (op->dk:
 * mpi/dist_tridiag.c). */
#include "iter/method.h"

#include "direct/direct.h"

#include <stdio.h>

/* A direct method's data: the factors on the host, or on a device backend
 * (be->d: thomas, cr and gspike there, kernels/device/tridiag_direct.c). */
typedef struct tridiag_solver {
    hpls_tridiag_factors *F;
    hpls_backend *be; /* a device backend, whose factors D are */
    hpls_dtfac *D;
} tridiag_solver;

/* Extracts T from s->A and factors it with the method named like the solver. */
hpls_status hpls_setup_tridiag(hpls_mctx *mc)
{
    if (mc->op->dk && mc->op->dk->tridiag_setup) /* T on several ranks: src/mpi/dist_tridiag.c */
        return mc->op->dk->tridiag_setup(mc);
    const char *name = mc->name;
    hpls_tridiag_method m;
    hpls_status st = hpls_tridiag_method_from_name(name, &m);
    if (st != HPLS_OK)
        return st;
    hpls_tridiag *T = NULL;
    st = hpls_tridiag_from_csr(mc->A, &T);
    if (st != HPLS_OK) {
        char what[256]; /* hpls_fail writes over hpls_last_error() */
        snprintf(what, sizeof what, "%s", hpls_last_error());
        return hpls_fail(st, "%s: %s needs a tridiagonal matrix", what, name);
    }
    tridiag_solver *M = hpls_calloc(1, sizeof *M);
    const hpls_tridiag_opts o = {
        .partitions = mc->opt.gspike_p, .delta = mc->opt.gspike_delta, .threads = mc->be->nthreads};
    hpls_backend *be = mc->be;
    if (!M)
        st = HPLS_ERR_NOMEM;
    else if ((st = hpls_tridiag_check_finite(T, name)) == HPLS_OK &&
             (st = hpls_tridiag_condition(T, name, be->nthreads, &mc->rcond)) == HPLS_OK) {
        if (be->d) {
            M->be = be;
            st = be->d->tfac_factor(be, T, T->n, m, &o, 0, &M->D);
        } else {
            st = hpls_tridiag_factor(T, m, &o, &M->F);
        }
    }
    hpls_tridiag_destroy(T);
    if (st != HPLS_OK) {
        hpls_destroy_tridiag(M);
        return st;
    }
    mc->mdata = M;
    return HPLS_OK;
}

hpls_status hpls_solve_tridiag(hpls_mctx *mc, const hpls_dvec *b, hpls_dvec *x)
{
    if (mc->op->dk && mc->op->dk->tridiag_solve)
        return mc->op->dk->tridiag_solve(mc, b, x);
    const tridiag_solver *M = mc->mdata;
    if (M->D) {
        mc->be->d->tfac_solve(mc->be, M->D, b, x);
        if (mc->be->err != HPLS_OK)
            return mc->be->err;
    } else {
        const hpls_real *bp = hpls_v_host(mc->be, b); /* a host kernel: the arrays themselves */
        hpls_real *xp = hpls_v_host(mc->be, x);
        if (!bp || !xp)
            return mc->be->err;
        hpls_status st = hpls_tridiag_solve_factored(M->F, 1, bp, xp);
        if (st != HPLS_OK)
            return st;
    }
    /* a direct solve is one step: its true residual decides the reason
     * (an ill-conditioned T may miss tol; that is a reason, not an error) */
    if (hpls_conv_start(mc, hpls_m_op_residual(mc, b, x, mc->work[0])) == HPLS_NOT_RUN)
        mc->info.reason = HPLS_DIVERGED_STAGNATION; /* nothing more a direct solve can do */
    return HPLS_OK;
}

/* k right-hand sides through the factors at once, each column judged by its
 * true residual like a single solve (host backends: solver/many_rhs.c calls it there). */
hpls_status hpls_solve_tridiag_block(hpls_mctx *mc, hpls_int k, const hpls_real *B, hpls_real *X,
                                     hpls_info *col)
{
    const tridiag_solver *M = mc->mdata;
    hpls_int n = mc->n;
    hpls_real *R = hpls_malloc(n * k, sizeof *R);
    double *bn = hpls_malloc(k, sizeof *bn), *rn = hpls_malloc(k, sizeof *rn);
    hpls_status st = R && bn && rn ? hpls_tridiag_solve_factored(M->F, k, B, X) : HPLS_ERR_NOMEM;
    if (st == HPLS_OK) {
        hpls_block_norms(mc, k, B, bn);
        hpls_block_residual(mc, k, B, X, R, rn);
        for (hpls_int j = 0; j < k; j++) {
            hpls_colconv c;
            hpls_reason r = hpls_conv_column_start(mc, &c, bn[j], rn[j]);
            col[j].reason = r == HPLS_NOT_RUN ? HPLS_DIVERGED_STAGNATION : r;
        }
    }
    hpls_free(R);
    hpls_free(bn);
    hpls_free(rn);
    return st;
}

hpls_int hpls_tridiag_solver_singular(const void *mdata)
{
    const tridiag_solver *M = mdata;
    if (M->F)
        return hpls_tridiag_factors_singular(M->F);
    hpls_int sing = 0;
    double rcond;
    M->be->d->tfac_stats(M->D, &sing, &rcond);
    return sing;
}

void hpls_destroy_tridiag(void *mdata)
{
    tridiag_solver *M = mdata;
    if (!M)
        return;
    hpls_tridiag_factors_destroy(M->F);
    if (M->be)
        M->be->d->tfac_release(M->be, M->D);
    hpls_free(M);
}
