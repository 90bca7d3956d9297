/* SPDX-License-Identifier: BSD-3-Clause */
/* pjg.c: the Parallel Jacobi-embedded Gauss-Seidel method (Ahmadi et al., IEEE
 * TPDS 32(7), 2021, Eqs. 3-5, Alg. 1): Gauss-Seidel over an ordered list of
 * blocks of unknowns (the paper's "decomposition of the identity"), a Jacobi
 * update inside each block.  psize = 1 is Gauss-Seidel, psize = n is Jacobi.
 *
 *   sweep k: for each block B in order: x_B = D_B^-1 (b_B - (A x)_B + D_B x_B),
 *            all of B's rows from the same old x_B, in parallel
 * Convergence is tested on the true residual without a second pass over A: the
 * sweep that makes x^k also returns r = b - A x^(k-1), from the sums it forms
 * anyway plus a correction over the columns already updated (kernels/cpu/
 * pjg_sweep.c).  So the test runs one sweep late: when r(x^(k-1)) passes (or
 * the iteration stops for any other reason), x^(k-1), kept by the sweep, is
 * taken back and k-1 iterations are reported: the iterates, iteration counts
 * and history are those of sweeping and testing b - A x after each sweep.
 * Paper's Alg. 1 line 12 reads A twice per iteration; this reads it once.
 * Runs on CSR and on dense matrices, on the host or on a device backend
 * (kernels/device/pjg.c: a launch per block, the blocks in order; the same
 * iterates, x and r bit for bit).
 * Traffic per iteration: A once, x, xold, b, r (+ one sweep per solve).
 * On a matrix distributed over MPI ranks, block k is every rank's k-th chunk
 * of psize rows, and each block's new values go to the ranks that hold them
 * before the next block (mpi/dist_pjg.c): the same iteration as one process
 * with those blocks. */
#include "iter/method.h"

#include <stdlib.h>

hpls_status hpls_setup_pjg(hpls_mctx *mc)
{
    if (mc->op->dk) /* distributed: blocks over the ranks (mpi/dist_pjg.c) */
        return mc->op->dk->pjg_setup(mc);
    hpls_pjg_partition *P;
    hpls_backend *be = mc->be;
    hpls_int n = mc->n;
    hpls_int psize = mc->opt.psize; /* a device's default psize is its own */
    if (be->d && psize == 0)
        psize = hpls_pjg_device_psize(n, mc->Ad != NULL);
    hpls_status st = hpls_pjg_blocks(n, mc->A ? mc->A->nnz : n * n, psize, mc->opt.part_nblocks,
                                     mc->opt.part_ptr, mc->opt.part_idx, be->nthreads, &P);
    if (st == HPLS_OK && be->d)
        st = hpls_pjg_partition_upload(be, P, n, mc->Ad != NULL);
    if (st != HPLS_OK) {
        hpls_pjg_partition_free(P);
        return st;
    }
    mc->mdata = P;
    return HPLS_OK;
}

void hpls_destroy_pjg(void *mdata) { hpls_pjg_partition_free(mdata); }

/* On a device (kernels/device/pjg.c) the sweep reads x^it from cur and writes
 * x^(it+1) to nxt, r = b - A x^it riding along; the two vectors exchange roles
 * after each sweep instead of a copy, and the iterate tested last, cur, ends
 * in x. */
static hpls_status solve_device(hpls_mctx *mc, const hpls_pjg_partition *P, const hpls_dvec *b,
                                hpls_dvec *x)
{
    hpls_backend *be = mc->be;
    hpls_dvec *r = mc->work[0], *cur = x, *nxt = mc->work[1];
    for (hpls_int it = 0;; it++) {
        be->d->pjg_sweep(be, P->dev, mc->op->dA, mc->op->dAd, mc->invdiag, b, cur, nxt, r);
        double rnorm = hpls_v_nrm2(be, mc->n, r);
        if ((it == 0 ? hpls_conv_start(mc, rnorm) : hpls_conv_check(mc, it, rnorm)) !=
            HPLS_NOT_RUN) {
            if (cur != x)
                hpls_v_copy(be, mc->n, cur, x);
            return HPLS_OK;
        }
        hpls_dvec *t = cur;
        cur = nxt;
        nxt = t;
    }
}

hpls_status hpls_solve_pjg(hpls_mctx *mc, const hpls_dvec *b, hpls_dvec *x)
{
    hpls_backend *be = mc->be;
    if (be->d)
        return solve_device(mc, mc->mdata, b, x);
    hpls_int n = mc->n;
    hpls_dvec *r = mc->work[0], *xold = mc->work[1];
    /* the sweep is a host kernel (be->k: OpenMP or the sequential reference) */
    const hpls_real *bp = hpls_v_host(be, b), *dinv = hpls_v_host(be, mc->invdiag);
    hpls_real *xp = hpls_v_host(be, x), *rp = hpls_v_host(be, r), *xo = hpls_v_host(be, xold);
    if (!bp || !dinv || !xp || !rp || !xo)
        return HPLS_OK; /* a handle was refused: hpls_solver_solve reports it */
    for (hpls_int it = 0;; it++) {
        /* x: x^it -> x^(it+1); xold = x^it; r = b - A x^it */
        if (mc->op->dk) { /* every rank on every block, new values exchanged after each */
            mc->op->dk->pjg_sweep(mc, it == 0, dinv, bp, xp, xo, rp);
        } else {
            const hpls_pjg_partition *P = mc->mdata;
            be->k->pjg_sweep(be->nthreads, be->pf, mc->A, mc->Ad, dinv, P->nblocks, P->ptr, P->idx,
                             P->blockof, P->lo, bp, xp, xo, rp);
        }
        double rnorm = hpls_v_nrm2(be, n, r);
        if ((it == 0 ? hpls_conv_start(mc, rnorm) : hpls_conv_check(mc, it, rnorm)) !=
            HPLS_NOT_RUN) {
            hpls_v_copy(be, n, xold, x); /* x = x^it, the iterate just tested */
            return HPLS_OK;
        }
    }
}
