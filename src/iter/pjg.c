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
 * Runs on CSR and on dense matrices, with the sweep of the backend's kernel
 * family (precond/pjg_kernels.h; on a device kernels/device/pjg.c: a launch
 * per block, the blocks in order; the same iterates, x and r bit for bit).
 * Traffic per iteration: A once, x, xold, b, r (+ one sweep per solve).
 * On a matrix distributed over MPI ranks, block k is every rank's k-th chunk
 * of psize rows, and each block's new values go to the ranks that hold them
 * before the next block (mpi/dist_pjg.c): the same iteration as one process
 * with those blocks. */
#include "iter/method.h"
#include "precond/pjg_kernels.h"

hpls_status hpls_setup_pjg(hpls_mctx *mc)
{
    if (mc->op->dk) /* distributed: blocks over the ranks (mpi/dist_pjg.c) */
        return mc->op->dk->pjg_setup(mc);
    const hpls_mopts *o = &mc->opt;
    hpls_pjg_partition *P;
    hpls_status st =
        hpls_pjg_partition_for(mc->be, mc->n, mc->A ? mc->A->nnz : mc->n * mc->n, mc->Ad != NULL,
                               o->psize, o->part_nblocks, o->part_ptr, o->part_idx, &P);
    if (st == HPLS_OK)
        mc->mdata = P;
    return st;
}

void hpls_destroy_pjg(void *mdata) { hpls_pjg_partition_free(mdata); }

hpls_status hpls_solve_pjg(hpls_mctx *mc, const hpls_dvec *b, hpls_dvec *x)
{
    hpls_backend *be = mc->be;
    const hpls_pjg_kernels *K = hpls_pjg_kernels_of(be);
    const hpls_pjg_matrix A = {mc->A, mc->Ad, mc->op->dA, mc->op->dAd};
    hpls_int n = mc->n;
    hpls_dvec *r = mc->work[0], *cur = x, *old = mc->work[1];
    for (hpls_int it = 0;; it++) {
        /* cur: x^it -> x^(it+1), old = x^it (the two handles may exchange);
         * r = b - A x^it */
        if (mc->op->dk) /* every rank on every block, new values exchanged after each */
            mc->op->dk->pjg_sweep(mc, it == 0, mc->invdiag, b, cur, old, r);
        else
            K->sweep(be, mc->mdata, &A, mc->invdiag, b, &cur, &old, r);
        double rnorm = hpls_v_nrm2(be, n, r);
        if ((it == 0 ? hpls_conv_start(mc, rnorm) : hpls_conv_check(mc, it, rnorm)) !=
            HPLS_NOT_RUN) {
            if (old != x)
                hpls_v_copy(be, n, old, x); /* x = x^it, the iterate just tested */
            return HPLS_OK;
        }
    }
}
