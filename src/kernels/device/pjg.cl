/* SPDX-License-Identifier: BSD-3-Clause */
/* pjg.cl: one block of a PJG sweep on a device (Ahmadi et al., IEEE TPDS
 * 32(7), 2021, Eqs. 3-5, Alg. 1), in the arithmetic and order of
 * kernels/cpu/pjg_sweep.c, so that x and r have the host's bits.  A launch
 * updates the rows of one block together (Jacobi inside the block), the
 * launches go in block order (Gauss-Seidel between blocks):
 *   x_i^new = s_i / a_ii,   s_i = b_i - sum_{j != i} a_ij x_j           (Eq. 3)
 * with x_j new for j in a finished block (one before i's), old otherwise.
 * Neither a copy nor a swap: the sweep reads x^k from cur and writes x^(k+1)
 * to nxt, so a finished column's new value is nxt_j and every old one cur_j;
 * the caller exchanges the two vectors' roles after the sweep.  With r, the
 * residual of x^k rides along (pjg_sweep.c's lagged formula, no second read
 * of A):
 *   r_i = s_i - a_ii cur_i - sum_{j finished} a_ij (cur_j - nxt_j).
 * CSR: a work-item a row.  Dense: DENSE_LANES lanes a row, summed as the
 * host's dot products sum (dense.cl): the same bits. */

/* Block `blk` of rows first .. first+count-1 (contiguous: row q is q and its
 * finished columns are j < first) or rows idx[first ..] of a general
 * partition (finished: blockof[j] < blk); want_r: r of cur too. */
KERNEL void pjg_csr(idx_t first, idx_t count, idx_t blk, int contiguous, GLOBAL const idx_t *idx,
                    GLOBAL const idx_t *blockof, GLOBAL const idx_t *rp, GLOBAL const int *ci,
                    GLOBAL const double *val, GLOBAL const double *dinv, GLOBAL const double *b,
                    GLOBAL const double *cur, GLOBAL double *nxt, int want_r, GLOBAL double *r)
{
    FOR_ALL(k, count)
    {
        idx_t i = contiguous ? first + k : idx[first + k], p = rp[i], end = rp[i + 1];
        double s = b[i], aii = 0.0, c = 0.0; /* c: sum over finished j of a_ij (cur_j - nxt_j) */
        if (want_r && contiguous) /* sorted columns: the finished ones, j < first, come first */
            for (; p < end && ci[p] < first; p++) {
                idx_t j = ci[p];
                s -= val[p] * nxt[j];
                c += val[p] * (cur[j] - nxt[j]);
            }
        for (; p < end; p++) {
            idx_t j = ci[p];
            if (j == i) {
                aii = val[p];
                continue;
            }
            int done = contiguous ? j < first : blockof[j] < blk;
            s -= val[p] * (done ? nxt[j] : cur[j]);
            if (want_r && !contiguous && done)
                c += val[p] * (cur[j] - nxt[j]);
        }
        if (want_r)
            r[i] = s - aii * cur[i] - c;
        nxt[i] = s * dinv[i];
    }
}

/* The rows first .. first+count-1 of a dense row-major n x n matrix (a
 * contiguous block: its finished columns are j < first), pjg_sweep.c's dense
 * row with the residual (r written when want_r; a dense A is the solver's,
 * which always wants it, so s is always split as the host splits it then):
 *   new_left, old_left = dot2 over [0, first) of nxt and cur
 *   rest = dot [first, i) + dot [i+1, n) of cur
 *   nxt_i = (b_i - (new_left + rest)) / a_ii,  r_i = b_i - (old_left + rest + a_ii cur_i)
 * WG / DENSE_LANES rows a group and step; every item runs the same steps (the
 * barriers are reached by the whole group). */
KERNEL void pjg_dense(idx_t n, idx_t first, idx_t count, GLOBAL const double *A,
                      GLOBAL const double *dinv, GLOBAL const double *b, GLOBAL const double *cur,
                      GLOBAL double *nxt, int want_r, GLOBAL double *r)
{
    LOCAL_ARRAY(double, s_new, WG);
    LOCAL_ARRAY(double, s_old, WG);
    LOCAL_ARRAY(double, s_mid, WG);
    LOCAL_ARRAY(double, s_right, WG);
    idx_t lane = LID % DENSE_LANES, row0 = LID - lane;
    for (idx_t k0 = GRP * (WG / DENSE_LANES); k0 < count; k0 += NGRP * (WG / DENSE_LANES)) {
        idx_t k = k0 + LID / DENSE_LANES, i = first + k;
        double o = 0.0, nl = 0.0, mid = 0.0, right = 0.0;
        if (k < count) {
            GLOBAL const double *a = A + i * n;
            nl = dense_lane2(a, nxt, cur, first, lane, &o);
            mid = dense_lane(a, cur, first, i, lane);
            right = dense_lane(a, cur, i + 1, n, lane);
        }
        s_new[LID] = nl;
        s_old[LID] = o;
        s_mid[LID] = mid;
        s_right[LID] = right;
        BARRIER();
        if (lane == 0 && k < count) {
            double new_left = dense_hsum(s_new + row0), old_left = dense_hsum(s_old + row0);
            double rest = dense_hsum(s_mid + row0) + dense_hsum(s_right + row0);
            double aii = A[i * n + i];
            if (want_r)
                r[i] = b[i] - (old_left + rest + aii * cur[i]);
            nxt[i] = (b[i] - (new_left + rest)) * dinv[i];
        }
        BARRIER(); /* the arrays are free for the next step */
    }
}
