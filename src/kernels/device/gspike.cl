/* SPDX-License-Identifier: BSD-3-Clause */
/* gspike.cl: g-Spike on a device (Venetis et al., Parallel Computing 2015,
 * Algorithm 1), the kernels kernels/device/gspike.c launches level by level.
 *
 * One work-item per block of a level, as the paper's GPU code gives a thread
 * a partition (Sec. 3): the Givens-QR of a block, Q^T f and the back
 * substitution are recurrences down its rows, so an item streams its rows
 * from global memory; nothing waits on another item, no local memory.
 * Every operation is src/direct/gspike.c's in the same order (no FMA:
 * dialect.h), so the device's x has the host's bits.
 *
 * The host describes a level's blocks in a table, GS_TAB integers and GS_TABD
 * doubles a block (the same enums in kernels/device/gspike.c):
 *   GS_A, GS_E    the block's rows [a, e)
 *   GS_FL        GS_PART: a partition of a piece of p >= 2 blocks (else the
 *               block is a whole irreducible piece, solved without spikes);
 *               GS_FIRST, GS_LAST: its first, last partition; GS_SING: found
 *               singular (gs_factor sets it)
 *   GS_RX        2j plus the piece's offset in the reduced system: the bottom
 *               row of block j there (its top row is GS_RX - 1)
 *   GS_LB        the table index of the piece's last block
 *   GS_CL, GS_CU  the piece's couplings to the previous and next piece (D T),
 *               on its first and last block; 0: none
 *   GS_ZETA      the repair's multiplier zeta_j (Sec. 2.2; 0: none)
 *   GS_RMM, GS_AUX  what the host reads back: |R_mm|, and a whole piece's
 *               norm (gs_factor) or a partition's spike growth (gs_spikes,
 *               -1 for a NaN)
 * A block's factors (c, s, r0, r1, r2, the spikes v and w and the solve's g)
 * are at IX(k) = b + k * step for its row a + k when step > 0, the paper's
 * marshalled layout (Sec. 3.2: consecutive items read consecutive words, as a
 * GPU's memory bursts want), and at a + k when step = 0 (an item's rows
 * together, as a CPU's caches want).  T, rs, b and x are in row order. */

enum { GS_TAB = 5, GS_A = 0, GS_E = 1, GS_FL = 2, GS_RX = 3, GS_LB = 4 };
enum { GS_TABD = 5, GS_CL = 0, GS_CU = 1, GS_ZETA = 2, GS_RMM = 3, GS_AUX = 4 };
enum { GS_PART = 1, GS_FIRST = 2, GS_LAST = 4, GS_SING = 8 };

#define FOR_BLOCKS(b, b0, nb) for (idx_t b = (b0) + GID; b < (b0) + (nb); b += GSZ)

/* sqrt(a^2 + b^2), as gspike.c's givens_norm */
DEVICE double gs_norm(double a, double b)
{
    double t = a * a + b * b;
    return t > 1e-290 && t < 1e290 ? sqrt(t) : hypot(a, b);
}

/* y = Q^T y on a block's m rows (gspike.c's apply_qt); the rotations at fb +
 * k fs, y's rows at yb + k ys */
DEVICE void gs_qt(GLOBAL const double *c, GLOBAL const double *s, idx_t fb, idx_t fs,
                  GLOBAL double *y, idx_t yb, idx_t ys, idx_t m)
{
    double t0 = y[yb];
    for (idx_t k = 0; k + 1 < m; k++) {
        double t1 = y[yb + (k + 1) * ys], ck = c[fb + k * fs], sk = s[fb + k * fs];
        y[yb + k * ys] = ck * t0 + sk * t1;
        t0 = ck * t1 - sk * t0;
    }
    y[yb + (m - 1) * ys] = t0;
}

/* y = R~^{-1} y (gspike.c's back_subst); short_last: the first m-1 rows only */
DEVICE void gs_back(GLOBAL const double *r0, GLOBAL const double *r1, GLOBAL const double *r2,
                    idx_t fb, idx_t fs, GLOBAL double *y, idx_t yb, idx_t ys, idx_t m,
                    int short_last)
{
    double y1 = 0.0, y2 = 0.0;
    for (idx_t k = short_last ? m - 2 : m - 1; k >= 0; k--) {
        idx_t q = fb + k * fs;
        double t = (y[yb + k * ys] - r1[q] * y1 - r2[q] * y2) / r0[q];
        y[yb + k * ys] = t;
        y2 = y1;
        y1 = t;
    }
}

/* Step 2(i)-(ii) of blocks [b0, b0 + nb): Givens-QR of the block of D T
 * (gspike.c's block_qr); a partition with |R_mm| < delta ||A_j|| is singular,
 * and one that is not its piece's last gets the welcome fill-in (column e-1 +=
 * zeta column e, zeta = +-1 making the corner grow); a whole piece leaves its
 * |R_mm| and its norm for the host's singularity test. */
KERNEL void gs_factor(idx_t b0, idx_t nb, idx_t step, double delta, GLOBAL idx_t *tab,
                      GLOBAL double *tabd, GLOBAL const double *dl, GLOBAL const double *d,
                      GLOBAL const double *du, GLOBAL const double *rs, GLOBAL double *c,
                      GLOBAL double *s, GLOBAL double *r0, GLOBAL double *r1, GLOBAL double *r2)
{
    FOR_BLOCKS(b, b0, nb)
    {
        GLOBAL idx_t *t = tab + GS_TAB * b;
        GLOBAL double *td = tabd + GS_TABD * b;
        idx_t a = t[GS_A], e = t[GS_E], fl = t[GS_FL];
        idx_t fb = step > 0 ? b : a, fs = step > 0 ? step : 1;
        double alpha = d[a] * rs[a], beta = a + 1 < e ? du[a] * rs[a] : 0.0;
        double norm = fabs(alpha) + fabs(beta);
        for (idx_t k = a; k + 1 < e; k++) {
            idx_t q = fb + (k - a) * fs;
            double low = dl[k + 1] * rs[k + 1], dk = d[k + 1] * rs[k + 1];
            double up = k + 2 < e ? du[k + 1] * rs[k + 1] : 0.0;
            double r = gs_norm(alpha, low);
            double ck = r > 0 ? alpha / r : 1.0, sk = r > 0 ? low / r : 0.0;
            c[q] = ck;
            s[q] = sk;
            r0[q] = r;
            r1[q] = ck * beta + sk * dk;
            r2[q] = sk * up;
            alpha = ck * dk - sk * beta;
            beta = ck * up;
            double row = fabs(low) + fabs(dk) + fabs(up);
            norm = row > norm ? row : norm;
        }
        idx_t qe = fb + (e - 1 - a) * fs;
        r0[qe] = alpha;
        r1[qe] = 0.0;
        r2[qe] = 0.0;
        td[GS_ZETA] = 0.0;
        td[GS_RMM] = fabs(alpha);
        if (!(fl & GS_PART)) { /* a whole piece: its norm, row sums as gspike.c's */
            double tn = 0.0;
            for (idx_t k = a; k < e; k++) {
                double row = fabs(d[k] * rs[k]) + (k > a ? fabs(dl[k] * rs[k]) : 0.0) +
                             (k + 1 < e ? fabs(du[k] * rs[k]) : 0.0);
                tn = row > tn ? row : tn;
            }
            td[GS_AUX] = tn;
            continue;
        }
        if (!(fabs(alpha) < delta * norm))
            continue;
        t[GS_FL] = fl | GS_SING;
        if (fl & GS_LAST)
            continue;
        /* in Q_j^T A, du[e-1] (s, c) joins R_j's last column (Fig. 3) */
        idx_t q2 = fb + (e - 2 - a) * fs;
        double cu = du[e - 1] * rs[e - 1], add = cu * c[q2];
        double zeta = (alpha < 0) == (add < 0) ? 1.0 : -1.0;
        td[GS_ZETA] = zeta;
        r0[qe] += zeta * add;
        r1[q2] += zeta * cu * s[q2];
    }
}

/* Step 2(iii) and 3(i) of the partitions among blocks [b0, b0 + nb): the
 * spikes v = R~^{-1} Q^T B e_1 and w = R~^{-1} Q^T C e_m (C with the previous
 * block's repair), a singular last block's extra spike, their growth, and the
 * block's rows of the reduced system (App. C, Fig. C.1: unknowns t_2, b_1,
 * t_3, b_2, ..., pairs joined by ones) into rdl, rd, rdu. */
KERNEL void gs_spikes(idx_t b0, idx_t nb, idx_t step, GLOBAL const idx_t *tab, GLOBAL double *tabd,
                      GLOBAL const double *dl, GLOBAL const double *d, GLOBAL const double *du,
                      GLOBAL const double *rs, GLOBAL const double *c, GLOBAL const double *s,
                      GLOBAL const double *r0, GLOBAL const double *r1, GLOBAL const double *r2,
                      GLOBAL double *v, GLOBAL double *w, GLOBAL double *rdl, GLOBAL double *rd,
                      GLOBAL double *rdu)
{
    FOR_BLOCKS(b, b0, nb)
    {
        GLOBAL const idx_t *t = tab + GS_TAB * b;
        idx_t a = t[GS_A], e = t[GS_E], fl = t[GS_FL], m = e - a, rx = t[GS_RX];
        if (!(fl & GS_PART))
            continue;
        idx_t fb = step > 0 ? b : a, fs = step > 0 ? step : 1;
        int first = (fl & GS_FIRST) != 0, last = (fl & GS_LAST) != 0;
        int ls = (tab[GS_TAB * t[GS_LB] + GS_FL] & GS_SING) != 0, short_last = last && ls;
        for (idx_t k = 0; k < m; k++)
            v[fb + k * fs] = 0.0;
        if (!last) { /* Q_j^T B_j: du[e-1] (s, c) in the last two rows */
            double cu = du[e - 1] * rs[e - 1];
            v[fb + (m - 1) * fs] = cu * c[fb + (m - 2) * fs];
            v[fb + (m - 2) * fs] = cu * s[fb + (m - 2) * fs];
            gs_back(r0, r1, r2, fb, fs, v, fb, fs, m, 0);
        } else if (short_last) { /* the last column of R over R_11 */
            v[fb + (m - 2) * fs] = r1[fb + (m - 2) * fs];
            if (m >= 3)
                v[fb + (m - 3) * fs] = r2[fb + (m - 3) * fs];
            gs_back(r0, r1, r2, fb, fs, v, fb, fs, m, 1);
        }
        for (idx_t k = 0; k < m; k++)
            w[fb + k * fs] = 0.0;
        if (!first) { /* column a-1 in block row j, with the previous block's repair */
            double zp = tabd[GS_TABD * (b - 1) + GS_ZETA];
            w[fb] = dl[a] * rs[a] + zp * (d[a] * rs[a]);
            if (m > 1)
                w[fb + fs] = zp * (dl[a + 1] * rs[a + 1]);
            gs_qt(c, s, fb, fs, w, fb, fs, m);
            gs_back(r0, r1, r2, fb, fs, w, fb, fs, m, short_last);
        }
        double growth = 0.0;
        int nan = 0;
        for (idx_t k = 0; k < m; k++) {
            double av = fabs(v[fb + k * fs]), aw = fabs(w[fb + k * fs]);
            double g = av > aw ? av : aw;
            if (!(g <= growth)) {
                if (isnan(g))
                    nan = 1;
                else
                    growth = g;
            }
        }
        tabd[GS_TABD * b + GS_AUX] = nan ? -1.0 : growth;
        idx_t ql = fb + (m - 1) * fs;
        if (!last) { /* the bottom row of block j: w_m b_{j-1} + v_m t_{j+1} + b_j */
            rdl[rx] = first ? 0.0 : w[ql];
            rd[rx] = v[ql];
            rdu[rx] = 1.0;
        }
        if (!first) { /* its top row: b_{j-1} + w_1 ... */
            rdl[rx - 1] = 1.0;
            rd[rx - 1] = w[fb];
            rdu[rx - 1] = !last || ls ? v[fb] : 0.0;
        }
        if (short_last) { /* R_p's last row: (Q^T C)_m b_{p-1} + (R_p)_mm b_p */
            rdl[rx] = w[ql];
            rd[rx] = r0[ql];
            rdu[rx] = 0.0;
        }
    }
}

/* The solve's first half on blocks [b0, b0 + nb), whose pieces' neighbours
 * they depend on are solved: f = D b less the couplings to solved pieces,
 * g = R~^{-1} Q^T f, into x for a whole piece (its solution), into g for a
 * partition, whose first and last rows go to the reduced right-hand side y.
 * x may be b (each item reads its own rows before writing them). */
KERNEL void gs_solve1(idx_t b0, idx_t nb, idx_t step, GLOBAL const idx_t *tab,
                      GLOBAL const double *tabd, GLOBAL const double *rs, GLOBAL const double *c,
                      GLOBAL const double *s, GLOBAL const double *r0, GLOBAL const double *r1,
                      GLOBAL const double *r2, GLOBAL const double *b, GLOBAL double *x,
                      GLOBAL double *g, GLOBAL double *y)
{
    FOR_BLOCKS(k0, b0, nb)
    {
        GLOBAL const idx_t *t = tab + GS_TAB * k0;
        GLOBAL const double *td = tabd + GS_TABD * k0;
        idx_t a = t[GS_A], e = t[GS_E], fl = t[GS_FL], m = e - a;
        idx_t fb = step > 0 ? k0 : a, fs = step > 0 ? step : 1;
        int part = (fl & GS_PART) != 0;
        GLOBAL double *out = part ? g : x;
        idx_t ob = part ? fb : a, os = part ? fs : 1;
        for (idx_t k = 0; k < m; k++)
            out[ob + k * os] = rs[a + k] * b[a + k];
        if ((fl & GS_FIRST) && td[GS_CL] != 0.0) /* the previous piece is solved */
            out[ob] -= td[GS_CL] * x[a - 1];
        if ((fl & GS_LAST) && td[GS_CU] != 0.0)
            out[ob + (m - 1) * os] -= td[GS_CU] * x[e];
        int ls = part && (tab[GS_TAB * t[GS_LB] + GS_FL] & GS_SING) != 0;
        gs_qt(c, s, fb, fs, out, ob, os, m);
        gs_back(r0, r1, r2, fb, fs, out, ob, os, m, ls && (fl & GS_LAST));
        if (part) {
            if (!(fl & GS_FIRST))
                y[t[GS_RX] - 1] = out[ob];
            if (!(fl & GS_LAST) || ls)
                y[t[GS_RX]] = out[ob + (m - 1) * os];
        }
    }
}

/* The second half on the partitions among blocks [b0, b0 + nb), once the
 * reduced system's solution is in y: x~_j = g_j - v_j t_{j+1} - w_j b_{j-1}
 * (Alg. 1, 3(ii)), then x = P_mu x~ (3(iii), Prop. 2.3): a repaired block j-1
 * adds zeta_{j-1} times its last x~ to this block's first row, the x~ its own
 * item computes, recomputed here from g the same way. */
KERNEL void gs_solve2(idx_t b0, idx_t nb, idx_t step, GLOBAL const idx_t *tab,
                      GLOBAL const double *tabd, GLOBAL const double *v, GLOBAL const double *w,
                      GLOBAL const double *g, GLOBAL const double *y, GLOBAL double *x)
{
    FOR_BLOCKS(k0, b0, nb)
    {
        GLOBAL const idx_t *t = tab + GS_TAB * k0;
        idx_t a = t[GS_A], e = t[GS_E], fl = t[GS_FL], m = e - a, rx = t[GS_RX];
        if (!(fl & GS_PART))
            continue;
        idx_t fb = step > 0 ? k0 : a, fs = step > 0 ? step : 1;
        int first = (fl & GS_FIRST) != 0, last = (fl & GS_LAST) != 0;
        int ls = (tab[GS_TAB * t[GS_LB] + GS_FL] & GS_SING) != 0;
        double tn = !last || ls ? y[rx] : 0.0, bp = !first ? y[rx - 1] : 0.0;
        idx_t top = last && ls ? m - 1 : m;
        for (idx_t k = 0; k < top; k++) {
            idx_t q = fb + k * fs;
            x[a + k] = g[q] - (v[q] * tn + w[q] * bp);
        }
        if (top < m)
            x[e - 1] = tn;
        double zp = first ? 0.0 : tabd[GS_TABD * (k0 - 1) + GS_ZETA];
        if (zp != 0.0) { /* block j-1 is not its piece's last: its t_{j} is y[rx-2] */
            GLOBAL const idx_t *tp = tab + GS_TAB * (k0 - 1);
            idx_t pa = tp[GS_A], q = (step > 0 ? k0 - 1 : pa) + (a - 1 - pa) * fs;
            double ptn = y[rx - 2], pbp = (tp[GS_FL] & GS_FIRST) ? 0.0 : y[rx - 3];
            double prev = g[q] - (v[q] * ptn + w[q] * pbp);
            x[a] = x[a] + zp * prev;
        }
    }
}

/* The refinement's residual (gspike.c's residual): r = b - T x, and per
 * work-group the maxima of |D r|, the rows of |D T|, |x| and |D b| into
 * part[GRP * 4 + 0..3] (max-reduced in two stages: red_final) */
KERNEL void gs_resid_part(idx_t n, GLOBAL const double *dl, GLOBAL const double *d,
                          GLOBAL const double *du, GLOBAL const double *rs, GLOBAL const double *b,
                          GLOBAL const double *x, GLOBAL double *r, GLOBAL double *part)
{
    LOCAL_ARRAY(double, sh, WG);
    double rn = 0.0, an = 0.0, xn = 0.0, bn = 0.0;
    FOR_ALL(i, n)
    {
        double t = d[i] * x[i], ai = fabs(d[i]);
        if (i > 0) {
            t += dl[i] * x[i - 1];
            ai += fabs(dl[i]);
        }
        if (i < n - 1) {
            t += du[i] * x[i + 1];
            ai += fabs(du[i]);
        }
        double ri = b[i] - t;
        r[i] = ri;
        double sc = rs[i], rr = sc * fabs(ri), bb = sc * fabs(b[i]);
        ai *= sc;
        rn = rr > rn ? rr : rn;
        an = ai > an ? ai : an;
        xn = fabs(x[i]) > xn ? fabs(x[i]) : xn;
        bn = bb > bn ? bb : bn;
    }
    rn = group_reduce(sh, rn, RED_MAX);
    an = group_reduce(sh, an, RED_MAX);
    xn = group_reduce(sh, xn, RED_MAX);
    bn = group_reduce(sh, bn, RED_MAX);
    if (LID == 0) {
        part[GRP * 4 + 0] = rn;
        part[GRP * 4 + 1] = an;
        part[GRP * 4 + 2] = xn;
        part[GRP * 4 + 3] = bn;
    }
}
