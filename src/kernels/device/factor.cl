/* SPDX-License-Identifier: BSD-3-Clause */
/* factor.cl: the constructions of dilu/dic and ilu0 on a device (Wang, Liu
 * 2022, Sec. 2.2.3 and 3; precond/dilu.c and ilu0.c are the host's, whose
 * bits these kernels give): row i by one work-item, in the host's order of
 * operations, then its check and row i of the split copies the sweeps
 * stream (sweep.cl), written straight into the sweeps' device arrays.
 *
 *   DILU/DIC: E_ii = A_ii - sum_{j<i} K_ij / E_jj, K = L o U^T; a lower
 *     entry's mirror A_ji is found by binary search in row j's upper part;
 *     the copies scaled by 1/E_ii.
 *   ILU(0) (Saad, Alg. 10.4, IKJ): a_ik /= u_kk, then a_ij -= a_ik u_kj on
 *     the pattern; the host finds a_ij through a map of row i's columns, here
 *     row k's upper part and row i are merged (both sorted): the same
 *     updates in the same order.  The upper copy scaled by 1/u_ii.
 *
 * Schedules (precond/trisolve.h's strategies):
 *   *_level: the rows of one level set of L (Alg. 3; row i reads only rows
 *     of its lower part, done in earlier levels), a work-item each, a launch
 *     a level.
 *   *_syncfree: one launch (Alg. 5); a work-group of one item takes rows
 *     from an atomic ticket in order and waits on the ready flags of the rows
 *     it reads, as sweep_syncfree does: those rows had smaller tickets, so
 *     their groups run.  Everything another group reads is read and written
 *     atomically then.  One group: the serial construction.
 *
 * flags: 1 dic (a lower entry without an equal mirror marks the row
 * asymmetric; a pivot must be positive), 2 dilu_order=faces (E_i -= (A_ji
 * A_ij) / E_j term by term, the upper copy's rows reversed), 4 the copies are
 * in level order (lslot, uslot map a row to its slot; else slot = row).
 * bad[i], asym[i]: i when row i's pivot is unusable or its lower part does
 * not mirror its column, else n (fac_first_part finds the first). */

DEVICE double fac_get(GLOBAL double *a, idx_t k, int wait)
{
    return wait ? atomic_load_f64(&a[k]) : a[k];
}

DEVICE void fac_put(GLOBAL double *a, idx_t k, double x, int wait)
{
    if (wait)
        atomic_store_f64(&a[k], x);
    else
        a[k] = x;
}

/* row i's results before the flag that publishes them */
DEVICE void fac_post(GLOBAL u64_t *flag, idx_t i)
{
    GLOBAL_FENCE();
    atomic_add_u64(&flag[i], 1);
}

DEVICE double fac_shifted(double d, double big, double shift)
{
    return shift == 0.0 ? d : d + (d < 0.0 ? -shift : shift) * big;
}

DEVICE int fac_bad_pivot(double piv, double big, int positive)
{
    return !isfinite(piv) || fabs(piv) <= 1e-14 * big || (positive && !(piv > 0.0));
}

/* position of A_ji in row j's upper part (columns sorted), or -1 */
DEVICE idx_t fac_mirror(GLOBAL const idx_t *rp, GLOBAL const int *ci, GLOBAL const idx_t *upbeg,
                        idx_t j, idx_t i)
{
    idx_t lo = upbeg[j], end = rp[j + 1], hi = end;
    while (lo < hi) {
        idx_t mid = lo + (hi - lo) / 2;
        if (ci[mid] < i)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < end && ci[lo] == i ? lo : -1;
}

DEVICE double fac_big(GLOBAL const double *v, idx_t p0, idx_t end)
{
    double big = 0.0;
    for (idx_t p = p0; p < end; p++) {
        double a = fabs(v[p]);
        big = a > big ? a : big;
    }
    return big;
}

/* DILU's row i (Alg. 3 line 6, Alg. 5 lines 3-10); wait: the syncfree schedule */
DEVICE void dilu_row(idx_t n, idx_t i, int flags, double shift, int wait, u64_t epoch,
                     GLOBAL u64_t *flag, GLOBAL const idx_t *rp, GLOBAL const int *ci,
                     GLOBAL const double *v, GLOBAL const idx_t *lowend,
                     GLOBAL const idx_t *upbeg, GLOBAL const idx_t *lptr,
                     GLOBAL const idx_t *lslot, GLOBAL const idx_t *uptr,
                     GLOBAL const idx_t *uslot, GLOBAL double *lval, GLOBAL double *uval,
                     GLOBAL double *E, GLOBAL double *rD, GLOBAL double *bad, GLOBAL double *asym)
{
    int dic = flags & 1, faces = flags & 2;
    idx_t p0 = rp[i], le = lowend[i], ub = upbeg[i], end = rp[i + 1];
    double big = fac_big(v, p0, end), sum = 0.0;
    int skew = 0;
    double e = fac_shifted(ub > le ? v[le] : 0.0, big, shift);
    for (idx_t p = p0; p < le; p++) {
        idx_t j = ci[p];
        idx_t q = fac_mirror(rp, ci, upbeg, j, i);
        if (q >= 0) {
            if (wait)
                ready_wait(flag, n, j, epoch); /* claimed before row i: its group runs */
            if (faces) /* face (j, i): E_i -= (A_ji A_ij) / E_j */
                e -= v[q] * v[p] / fac_get(E, j, wait);
            else
                sum += v[p] * v[q] * fac_get(rD, j, wait);
        }
        if (dic)
            skew |= q < 0 || v[q] != v[p];
    }
    e -= sum;
    double r = 1.0 / e;
    idx_t ls = flags & 4 ? lslot[i] : i, us = flags & 4 ? uslot[i] : i;
    for (idx_t p = p0; p < le; p++)
        lval[lptr[ls] + (p - p0)] = v[p] * r;
    for (idx_t p = ub; p < end; p++)
        uval[uptr[us] + (faces ? end - 1 - p : p - ub)] = v[p] * r;
    bad[i] = fac_bad_pivot(e, big, dic) ? (double)i : (double)n;
    asym[i] = skew ? (double)i : (double)n;
    fac_put(E, i, e, wait);
    fac_put(rD, i, r, wait);
    if (wait)
        fac_post(flag, i);
}

/* ILU(0)'s row i into lu (A's pattern) and uinv; wait: the syncfree schedule */
DEVICE void ilu_row(idx_t n, idx_t i, int flags, double shift, int wait, u64_t epoch,
                    GLOBAL u64_t *flag, GLOBAL const idx_t *rp, GLOBAL const int *ci,
                    GLOBAL const double *v, GLOBAL const idx_t *lowend, GLOBAL const idx_t *upbeg,
                    GLOBAL const idx_t *lptr, GLOBAL const idx_t *lslot, GLOBAL const idx_t *uptr,
                    GLOBAL const idx_t *uslot, GLOBAL double *lval, GLOBAL double *uval,
                    GLOBAL double *lu, GLOBAL double *uinv, GLOBAL double *bad)
{
    idx_t p0 = rp[i], end = rp[i + 1], diag = lowend[i], ub = upbeg[i];
    double big = fac_big(v, p0, end);
    for (idx_t p = p0; p < end; p++)
        fac_put(lu, p, p == diag ? fac_shifted(v[p], big, shift) : v[p], wait);
    for (idx_t p = p0; p < diag; p++) {
        idx_t k = ci[p];
        if (wait)
            ready_wait(flag, n, k, epoch);
        double lik = fac_get(lu, p, wait) * fac_get(uinv, k, wait);
        fac_put(lu, p, lik, wait);
        idx_t r = p + 1; /* row k's upper columns exceed k: after p in row i */
        for (idx_t q = upbeg[k]; q < rp[k + 1] && r < end; q++) {
            int c = ci[q];
            while (r < end && ci[r] < c)
                r++;
            if (r < end && ci[r] == c)
                fac_put(lu, r, fac_get(lu, r, wait) - lik * fac_get(lu, q, wait), wait);
        }
    }
    double d = fac_get(lu, diag, wait), ui = 1.0 / d;
    idx_t ls = flags & 4 ? lslot[i] : i, us = flags & 4 ? uslot[i] : i;
    for (idx_t p = p0; p < diag; p++)
        lval[lptr[ls] + (p - p0)] = fac_get(lu, p, wait) * 1.0;
    for (idx_t p = ub; p < end; p++) /* unscaled: the backward sweep's dinv is 1/u_ii */
        uval[uptr[us] + (p - ub)] = fac_get(lu, p, wait);
    bad[i] = fac_bad_pivot(d, big, 0) ? (double)i : (double)n;
    fac_put(uinv, i, ui, wait);
    if (wait)
        fac_post(flag, i);
}

/* kind 0: dilu_row with E, rD; 1: ilu_row with lu (in E's place), uinv (rD's) */
KERNEL void fac_level(int kind, idx_t n, idx_t first, idx_t count, GLOBAL const idx_t *order, int flags, double shift, GLOBAL const idx_t *rp, GLOBAL const int *ci, GLOBAL const double *v, GLOBAL const idx_t *lowend, GLOBAL const idx_t *upbeg, GLOBAL const idx_t *lptr, GLOBAL const idx_t *lslot, GLOBAL const idx_t *uptr, GLOBAL const idx_t *uslot, GLOBAL double *lval, GLOBAL double *uval, GLOBAL double *E, GLOBAL double *rD, GLOBAL double *bad, GLOBAL double *asym)
{
    FOR_ALL(k, count)
    {
        idx_t i = order[first + k];
        if (kind == 0)
            dilu_row(n, i, flags, shift, 0, 0, (GLOBAL u64_t *)0, rp, ci, v, lowend, upbeg, lptr,
                     lslot, uptr, uslot, lval, uval, E, rD, bad, asym);
        else
            ilu_row(n, i, flags, shift, 0, 0, (GLOBAL u64_t *)0, rp, ci, v, lowend, upbeg, lptr,
                    lslot, uptr, uslot, lval, uval, E, rD, bad);
    }
}

KERNEL void fac_syncfree(int kind, idx_t n, int flags, double shift, GLOBAL const idx_t *rp, GLOBAL const int *ci, GLOBAL const double *v, GLOBAL const idx_t *lowend, GLOBAL const idx_t *upbeg, GLOBAL const idx_t *lptr, GLOBAL const idx_t *lslot, GLOBAL const idx_t *uptr, GLOBAL const idx_t *uslot, GLOBAL double *lval, GLOBAL double *uval, GLOBAL double *E, GLOBAL double *rD, GLOBAL double *bad, GLOBAL double *asym, GLOBAL u64_t *flag, u64_t epoch)
{
    for (;;) {
        idx_t i = (idx_t)atomic_add_u64(&flag[n], 1);
        if (i >= n)
            return;
        if (kind == 0)
            dilu_row(n, i, flags, shift, 1, epoch, flag, rp, ci, v, lowend, upbeg, lptr, lslot,
                     uptr, uslot, lval, uval, E, rD, bad, asym);
        else
            ilu_row(n, i, flags, shift, 1, epoch, flag, rp, ci, v, lowend, upbeg, lptr, lslot,
                    uptr, uslot, lval, uval, E, rD, bad);
    }
}

/* M^-T of ilu0: the factor values moved onto A^T's pattern (tpos[p]: entry
 * p's position there), A's strictly upper part into tl (the values of A^T's
 * lower sweep), its strictly lower part into tu (A^T's upper sweep) */
KERNEL void ilu_transpose(idx_t n, GLOBAL const idx_t *rp, GLOBAL const idx_t *lowend, GLOBAL const idx_t *upbeg, GLOBAL const idx_t *tpos, GLOBAL const double *lu, GLOBAL double *tl, GLOBAL double *tu)
{
    FOR_ALL(i, n)
    {
        for (idx_t p = rp[i]; p < lowend[i]; p++)
            tu[tpos[p]] = lu[p];
        for (idx_t p = upbeg[i]; p < rp[i + 1]; p++)
            tl[tpos[p]] = lu[p];
    }
}

/* the smallest of x[0..n) and n, a work-group's partial (the first flagged row) */
KERNEL void fac_first_part(idx_t n, GLOBAL const double *x, GLOBAL double *part)
{
    LOCAL_ARRAY(double, s, WG);
    double v = (double)n;
    FOR_ALL(i, n)
    v = red_combine(v, x[i], RED_MIN);
    v = group_reduce(s, v, RED_MIN);
    if (LID == 0)
        part[GRP] = v;
}
