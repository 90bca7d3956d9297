/* SPDX-License-Identifier: BSD-3-Clause */
/* block.cl: many right-hand sides on a device (hpls_solver_solve_many's block
 * path): R = B - A X for up to BLOCK_COLS columns with A read once for all of
 * them, and Jacobi's update of every column.  The columns taken are
 * cols[c0 ..] (column j at j * ld): the active ones, so a column that stopped
 * is left where it is.  Each column's row is summed left to right as
 * kernels/cpu/spmm.c's rows_block and the single residual sum it, so column j
 * has the bits of the one-column kernel (csr_residual_scalar, the host's
 * hpls_k_residual). */

#ifndef BLOCK_COLS
#define BLOCK_COLS 8 /* columns a launch reads A once for: HPLS_SPMM_COLS */
#endif

/* the kc <= BLOCK_COLS columns cols[c0 .. c0+kc), a row per work-item;
 * part[g * ncol + c0 + c]: the group's partial sum of the squares of column
 * cols[c0 + c] (ncol: the columns of the whole reduction) */
KERNEL void csr_residual_block(idx_t n, int kc, idx_t ld, GLOBAL const idx_t *cols, idx_t c0,
                               int ncol, GLOBAL const idx_t *rp, GLOBAL const int *ci,
                               GLOBAL const double *val, GLOBAL const double *B,
                               GLOBAL const double *X, GLOBAL double *R, GLOBAL double *part)
{
    LOCAL_ARRAY(double, sh, WG);
    double acc[BLOCK_COLS], ss[BLOCK_COLS];
    idx_t off[BLOCK_COLS];
    for (int c = 0; c < BLOCK_COLS; c++) {
        ss[c] = 0.0;
        off[c] = c < kc ? cols[c0 + c] * ld : 0;
    }
    FOR_ALL(i, n)
    {
        for (int c = 0; c < kc; c++)
            acc[c] = B[off[c] + i];
        for (idx_t p = rp[i]; p < rp[i + 1]; p++) {
            double a = val[p];
            idx_t j = ci[p];
            for (int c = 0; c < kc; c++)
                acc[c] -= a * X[off[c] + j];
        }
        for (int c = 0; c < kc; c++) {
            R[off[c] + i] = acc[c];
            ss[c] += acc[c] * acc[c];
        }
    }
    for (int c = 0; c < kc; c++) { /* kc is the whole group's: every item reduces */
        double v = group_reduce(sh, ss[c], RED_SUM);
        if (LID == 0)
            part[GRP * ncol + c0 + c] = v;
    }
}

/* X_j += omega D^-1 R_j for the columns j = cols[0 .. kc) (jacobi.c's update,
 * term by term) */
KERNEL void jacobi_block(idx_t n, int kc, idx_t ld, GLOBAL const idx_t *cols, double omega,
                         GLOBAL const double *dinv, GLOBAL const double *R, GLOBAL double *X)
{
    FOR_ALL(i, n)
    {
        for (int c = 0; c < kc; c++) {
            idx_t o = cols[c] * ld + i;
            X[o] += omega * dinv[i] * R[o];
        }
    }
}
