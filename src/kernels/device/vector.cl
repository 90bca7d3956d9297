/* SPDX-License-Identifier: BSD-3-Clause */
/* vector.cl: the vector operations of a device backend (backend.h's hpls_vops),
 * in the dialect of dialect.h.  Element-wise kernels loop over the vector in
 * strides of the grid (any launch size covers any n) and round as the ref
 * backend does, term by term.  Reductions run in two stages (CUB/Harris's
 * scheme): every work-group leaves one partial per column in part[g * ncol +
 * c], then one work-group combines each column in a fixed order (red_final),
 * so a result depends on n and the launch size only, never on timing. */

#define FOR_ALL(i, n) for (idx_t i = GID; i < (n); i += GSZ)

enum { RED_SUM, RED_MAX, RED_MIN };

/* The sync-free kernels' wait (sweep.cl, factor.cl, relax.cl) until row j's
 * ready flag reaches epoch.  flag holds n + 3 words: the rows' flags, the row
 * ticket, the stall word and the watchdog's bound in spins (devhost.h's
 * HPLS_DEV_SPINS says why no healthy wait comes near it).  Past the bound
 * the wait records row j + 1 in the stall word (the first stall stays) and
 * closes the ticket (no group claims another row); every 1024 spins it also
 * looks at the stall word, so the other groups stop waiting too.  The row
 * then finishes with whatever it reads: the host reports the stall. */
DEVICE void ready_wait(GLOBAL u64_t *flag, idx_t n, idx_t j, u64_t epoch)
{
    for (u64_t spins = 1; atomic_load_u64(&flag[j]) < epoch; spins++)
        if ((spins & 1023) == 0 &&
            (spins >= flag[n + 2] || atomic_load_u64(&flag[n + 1]) != 0)) {
            if (atomic_cas_u64(&flag[n + 1], 0, (u64_t)j + 1) == 0)
                atomic_add_u64(&flag[n], n);
            break;
        }
    GLOBAL_FENCE();
}

/* max propagates NaN (as the ref backend's fmax on a NaN check) */
DEVICE double red_combine(double a, double b, int op)
{
    if (op == RED_SUM)
        return a + b;
    if (op == RED_MAX)
        return isnan(a) ? a : isnan(b) ? b : fmax(a, b);
    return fmin(a, b);
}

/* v combined over the work-group (a tree in s[0..WG)); every item calls it
 * and gets the result.  HPLS_DROP_BARRIER removes the barrier after the
 * first store: a data race `make oclgrind` must report. */
DEVICE double group_reduce(LOCAL double *s, double v, int op)
{
    idx_t l = LID;
    s[l] = v;
#ifndef HPLS_DROP_BARRIER
    BARRIER();
#endif
    for (idx_t h = WG / 2; h > 0; h >>= 1) {
        if (l < h)
            s[l] = red_combine(s[l], s[l + h], op);
        BARRIER();
    }
    double r = s[0];
    BARRIER(); /* s is free for the next call */
    return r;
}

KERNEL void red_final(int ng, int ncol, int op, GLOBAL const double *part, GLOBAL double *out)
{
    LOCAL_ARRAY(double, s, WG);
    for (int c = 0; c < ncol; c++) {
        double v = op == RED_SUM ? 0.0 : part[c]; /* group 0's partial: a neutral start */
        for (idx_t g = LID; g < ng; g += WG)
            v = red_combine(v, part[g * ncol + c], op);
        v = group_reduce(s, v, op);
        if (LID == 0)
            out[c] = v;
    }
}

/* m <= 3 dot products in one pass: column ci of part gets (ai, bi) */
KERNEL void dot_part(idx_t n, int m, GLOBAL const double *a0, GLOBAL const double *b0,
                     GLOBAL const double *a1, GLOBAL const double *b1, GLOBAL const double *a2,
                     GLOBAL const double *b2, GLOBAL double *part, int ncol, int c0, int c1, int c2)
{
    LOCAL_ARRAY(double, s, WG);
    double s0 = 0.0, s1 = 0.0, s2 = 0.0;
    FOR_ALL(i, n)
    {
        s0 += a0[i] * b0[i];
        if (m > 1)
            s1 += a1[i] * b1[i];
        if (m > 2)
            s2 += a2[i] * b2[i];
    }
    s0 = group_reduce(s, s0, RED_SUM);
    if (LID == 0)
        part[GRP * ncol + c0] = s0;
    if (m > 1) {
        s1 = group_reduce(s, s1, RED_SUM);
        if (LID == 0)
            part[GRP * ncol + c1] = s1;
    }
    if (m > 2) {
        s2 = group_reduce(s, s2, RED_SUM);
        if (LID == 0)
            part[GRP * ncol + c2] = s2;
    }
}

/* max |x_i| (NaN wins), then sum (x_i / amax)^2: the ref backend's scaled norm */
KERNEL void amax_part(idx_t n, GLOBAL const double *x, GLOBAL double *part)
{
    LOCAL_ARRAY(double, s, WG);
    double v = 0.0;
    FOR_ALL(i, n)
    v = red_combine(v, fabs(x[i]), RED_MAX);
    v = group_reduce(s, v, RED_MAX);
    if (LID == 0)
        part[GRP] = v;
}

KERNEL void sscaled_part(idx_t n, double amax, GLOBAL const double *x, GLOBAL double *part)
{
    LOCAL_ARRAY(double, s, WG);
    double v = 0.0;
    FOR_ALL(i, n)
    v += (x[i] / amax) * (x[i] / amax);
    v = group_reduce(s, v, RED_SUM);
    if (LID == 0)
        part[GRP] = v;
}

/* the first index of a NaN or Inf (n if none), as a double: exact below 2^53 */
KERNEL void finite_part(idx_t n, GLOBAL const double *x, GLOBAL double *part)
{
    LOCAL_ARRAY(double, s, WG);
    double v = (double)n;
    FOR_ALL(i, n)
    if (!isfinite(x[i]) && (double)i < v)
        v = (double)i;
    v = group_reduce(s, v, RED_MIN);
    if (LID == 0)
        part[GRP] = v;
}

KERNEL void v_set(idx_t n, double a, GLOBAL double *y)
{
    FOR_ALL(i, n)
    y[i] = a;
}

KERNEL void v_scale(idx_t n, double a, GLOBAL double *y)
{
    FOR_ALL(i, n)
    y[i] = a * y[i];
}

KERNEL void v_axpy(idx_t n, double a, GLOBAL const double *x, GLOBAL double *y)
{
    FOR_ALL(i, n)
    y[i] = y[i] + a * x[i];
}

KERNEL void v_axpby(idx_t n, double a, GLOBAL const double *x, double b, GLOBAL double *y)
{
    FOR_ALL(i, n)
    y[i] = a * x[i] + b * y[i];
}

KERNEL void v_xpay(idx_t n, GLOBAL const double *x, double a, GLOBAL double *y)
{
    FOR_ALL(i, n)
    y[i] = x[i] + a * y[i];
}

KERNEL void v_waxpy(idx_t n, double a, GLOBAL const double *x, GLOBAL const double *y,
                    GLOBAL double *w)
{
    FOR_ALL(i, n)
    w[i] = y[i] + a * x[i];
}

KERNEL void v_axpbypcz(idx_t n, double a, GLOBAL const double *x, double b, GLOBAL const double *y,
                       double c, GLOBAL double *z)
{
    FOR_ALL(i, n)
    z[i] = a * x[i] + b * y[i] + c * z[i];
}

KERNEL void v_pmult(idx_t n, GLOBAL const double *x, GLOBAL const double *y, GLOBAL double *z)
{
    FOR_ALL(i, n)
    z[i] = x[i] * y[i];
}

KERNEL void v_diag_axpy(idx_t n, double a, GLOBAL const double *d, GLOBAL const double *x,
                        GLOBAL double *y)
{
    FOR_ALL(i, n)
    y[i] = y[i] + a * d[i] * x[i];
}

/* maxpy2's step for one basis vector: x += a v, y += b v */
KERNEL void v_axpy2(idx_t n, double a, double b, GLOBAL const double *v, GLOBAL double *x,
                    GLOBAL double *y)
{
    FOR_ALL(i, n)
    {
        x[i] = x[i] + a * v[i];
        y[i] = y[i] + b * v[i];
    }
}

/* maxpy2's end: x = alpha x, y = gamma (y + beta x) */
KERNEL void v_maxpy2_end(idx_t n, double alpha, GLOBAL double *x, double beta, double gamma,
                         GLOBAL double *y)
{
    FOR_ALL(i, n)
    {
        x[i] = alpha * x[i];
        y[i] = gamma * (y[i] + beta * x[i]);
    }
}

KERNEL void v_bicgstab_p(idx_t n, GLOBAL const double *r, double beta, double omega,
                         GLOBAL const double *v, GLOBAL double *p)
{
    FOR_ALL(i, n)
    p[i] = r[i] + beta * (p[i] - omega * v[i]);
}

/* x += alpha phat + omega shat; r = s - omega t (the dots follow in dot_part) */
KERNEL void v_bicgstab_xr(idx_t n, double alpha, GLOBAL const double *phat, double omega,
                          GLOBAL const double *shat, GLOBAL const double *s, GLOBAL const double *t,
                          GLOBAL double *x, GLOBAL double *r)
{
    FOR_ALL(i, n)
    {
        x[i] = alpha * phat[i] + omega * shat[i] + x[i];
        r[i] = s[i] - omega * t[i];
    }
}

/* HISA's step (iter/hisa.c, the paper's fused update): bp = b - ynew, and the
 * partial sums of (y - ynew)^2 */
KERNEL void hisa_update_part(idx_t n, GLOBAL const double *b, GLOBAL const double *y,
                             GLOBAL const double *ynew, GLOBAL double *bp, GLOBAL double *part)
{
    LOCAL_ARRAY(double, s, WG);
    double v = 0.0;
    FOR_ALL(i, n)
    {
        v += (y[i] - ynew[i]) * (y[i] - ynew[i]);
        bp[i] = b[i] - ynew[i];
    }
    v = group_reduce(s, v, RED_SUM);
    if (LID == 0)
        part[GRP] = v;
}
