/* SPDX-License-Identifier: BSD-3-Clause */
/* dist_hisa.c: HISA and BHISA (Li, Yang, Li, IEEE TPDS 27(10), 2016, Sec. 4-5)
 * on a matrix distributed by rows over MPI ranks (dcsr.h).  iter/hisa.c splits
 * the rank's diagonal block Ad = T + S_d: T is the band of the rank's rows,
 * cut into its blocks (BHISA) and always at the ranks' boundaries, so HISA on
 * P ranks is BHISA with P blocks (Eq. 7: each block's T_j x_j = b_j - (S x)_j
 * is solved on its own); every entry of Ao, the couplings to other ranks'
 * rows (the band's across a boundary among them), belongs to S.  So
 *
 *   S x = S_d x_mine + Ao x_ghosts        (one halo exchange an iteration)
 *
 * and T x^{m+1} = b - S x^m holds row by row, so b - A x^{m+1} = S x^m -
 * S x^{m+1} is still the residual, summed over the ranks in the iteration's
 * one reduction.  Each row of S x is summed in global column order (the
 * ghosts left of my rows, mine, the ghosts right of them), as the one-process
 * SpMV sums that row of S: with the same blocks the iterates are one
 * process's BHISA bit for bit. */
#include "mpi/dist.h"

#include <stdio.h>
#include <string.h>

/* Stored entries (rows included) below which one thread does the product,
 * as kernels/cpu/spmv.c decides. */
#define PAR_MIN_NNZ 20000

/* Rows of y = (B + Ao) x whose Ao part is empty (ghosted = 0) or not (1):
 * the first run while the halo travels, the second once the ghosts are in. */
static void part_rows(int nt, const hpls_dcsr *D, const hpls_csr *B, const hpls_real *x,
                      int ghosted, hpls_real *y)
{
    const hpls_csr *Ao = D->Ao;
    const hpls_real *g = D->ghost;
    hpls_int m = B->nrows;
    int par = B->nnz + Ao->nnz + m >= PAR_MIN_NNZ;
#pragma omp parallel for num_threads(nt) schedule(static) if (par)
    for (hpls_int i = 0; i < m; i++) {
        hpls_int p = Ao->rowptr[i], end = Ao->rowptr[i + 1];
        if ((p < end) != ghosted)
            continue;
        double sum = 0.0;
        for (; p < end && D->garray[Ao->colind[p]] < D->first; p++) /* ghosts left of mine */
            sum += Ao->val[p] * g[Ao->colind[p]];
        for (hpls_int q = B->rowptr[i]; q < B->rowptr[i + 1]; q++)
            sum += B->val[q] * x[B->colind[q]];
        for (; p < end; p++) /* ghosts right of mine */
            sum += Ao->val[p] * g[Ao->colind[p]];
        y[i] = sum;
    }
}

void hpls_dist_apply_part(const hpls_op *op, const hpls_csr *B, const hpls_real *x, hpls_real *y)
{
    hpls_dcsr *D = op->D;
    hpls_backend *be = op->be;
    hpls_status st = hpls_dcsr_halo_start(D, x);
    part_rows(be->nthreads, D, B, x, 0, y);
    if (st == HPLS_OK)
        st = hpls_dcsr_halo_finish(D);
    if (st != HPLS_OK) {
        hpls_be_fail(be, st, "%s", hpls_last_error());
        return;
    }
    part_rows(be->nthreads, D, B, x, 1, y);
}

void hpls_dist_hisa_agree(hpls_solver *s)
{
    const hpls_dcsr *D = s->dist;
    if (D->size == 1)
        return; /* one process's hisa and bhisa */
    int bhisa = s->opt.method->setup == hpls_setup_bhisa;
    hpls_int n = D->nlocal;
    /* hisa.c's blocks: bhisa's rows per block (by default one block per
     * thread), hisa's whole rank */
    hpls_int rows = bhisa ? hpls_bhisa_block(n, s->opt.block, s->be->nthreads) : n;
    if (rows > n)
        rows = n;
    long long mine[2] = {n > 0 ? (n + rows - 1) / rows : 0, D->nsend}, all[2], most = rows;
    MPI_Allreduce(mine, all, 2, MPI_LONG_LONG, MPI_SUM, D->comm);
    MPI_Allreduce(MPI_IN_PLACE, &most, 1, MPI_LONG_LONG, MPI_MAX, D->comm);
    size_t used = strlen(s->fmt);
    const char *sep = used ? ", " : "";
    if (bhisa)
        snprintf(s->fmt + used, sizeof s->fmt - used,
                 "%sbhisa: %lld blocks on %d ranks, at most %lld rows each, from each rank's first "
                 "row; S x: %lld halo messages an iteration",
                 sep, all[0], D->size, most, all[1]);
    else
        snprintf(s->fmt + used, sizeof s->fmt - used,
                 "%shisa on %d ranks = bhisa with %lld blocks, T cut at the ranks' boundaries; "
                 "S x: %lld halo messages an iteration",
                 sep, D->size, all[0], all[1]);
}
