/* SPDX-License-Identifier: BSD-3-Clause */
/* dense.cl: a dense row-major n x n matrix on a device, y = A x and r = b -
 * A x, with the row sums of the cpu backend's dense kernels (kernels/cpu/
 * dense.c), so that y and r have its bits.  The host sums a row in 16
 * interleaved partial sums, entry j into partial (j - lo) mod 16, each in
 * order, then adds them four by four (hsum).  Here DENSE_LANES = 16 lanes
 * take a row: lane L holds partial L (its entries are PJG's too: pjg.cl),
 * reading entries side by side (coalesced on a GPU), and one lane adds the
 * lanes' partials in hsum's order. */

#ifndef DENSE_LANES
#define DENSE_LANES 16 /* dense.c's NQ x 4 partial sums; divides WG */
#endif

/* Lane `lane` of dense.c's hpls_k_dense_dot over [lo, hi) of row a: the
 * entries j = lo + lane (mod DENSE_LANES) in order, as the host's partial sum
 * of that lane */
DEVICE double dense_lane(GLOBAL const double *a, GLOBAL const double *v, idx_t lo, idx_t hi,
                         idx_t lane)
{
    double s = 0.0;
    for (idx_t j = lo + lane; j < hi; j += DENSE_LANES)
        s += a[j] * v[j];
    return s;
}

/* the same for dot2 (over [0, hi), two vectors): returns the lane of v, *o v2's */
DEVICE double dense_lane2(GLOBAL const double *a, GLOBAL const double *v, GLOBAL const double *v2,
                          idx_t hi, idx_t lane, double *o)
{
    double s = 0.0, t = 0.0;
    for (idx_t j = lane; j < hi; j += DENSE_LANES) {
        s += a[j] * v[j];
        t += a[j] * v2[j];
    }
    *o = t;
    return s;
}

/* the lanes' partials of one row (sh[0 .. DENSE_LANES)) combined as dense.c's
 * hsum: s = 0, then for each group of four lanes s += (l0 + l1) + (l2 + l3) */
DEVICE double dense_hsum(LOCAL const double *sh)
{
    double s = 0.0;
    for (int k = 0; k < DENSE_LANES; k += 4)
        s += (sh[k] + sh[k + 1]) + (sh[k + 2] + sh[k + 3]);
    return s;
}

/* y = A x (resid 0) or r = b - A x and the partial sums of r_i^2 (resid 1,
 * y is r): WG / DENSE_LANES rows a group and step, every item running the
 * same steps (the barriers are reached by the whole group) */
KERNEL void dense_product(idx_t n, int resid, GLOBAL const double *A, GLOBAL const double *x,
                          GLOBAL const double *b, GLOBAL double *y, GLOBAL double *part)
{
    LOCAL_ARRAY(double, sh, WG);
    LOCAL_ARRAY(double, tree, WG);
    idx_t lane = LID % DENSE_LANES, row0 = LID - lane;
    double ss = 0.0;
    for (idx_t i0 = GRP * (WG / DENSE_LANES); i0 < n; i0 += NGRP * (WG / DENSE_LANES)) {
        idx_t i = i0 + LID / DENSE_LANES;
        sh[LID] = i < n ? dense_lane(A + i * n, x, 0, n, lane) : 0.0;
        BARRIER();
        if (lane == 0 && i < n) {
            double s = dense_hsum(sh + row0);
            if (resid) { /* dense.c: s = b_i - dot */
                s = b[i] - s;
                ss += s * s;
            }
            y[i] = s;
        }
        BARRIER(); /* sh is free for the next step */
    }
    if (resid) {
        ss = group_reduce(tree, ss, RED_SUM);
        if (LID == 0)
            part[GRP] = ss;
    }
}
