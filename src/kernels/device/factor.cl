/* factor.cl: DILU's and DIC's construction on a device (Wang, Liu 2022,
 * Sec. 2.2.3; precond/dilu.c is the host's, whose bits these kernels give):
 *     E_ii = A_ii - sum_{j<i} K_ij / E_jj,   K = L o U^T,
 * row i by one work-item, its lower entries j increasing, each one's mirror
 * A_ji found by binary search in row j's upper part; then 1/E_ii, the row's
 * check and row i of the split copies the sweeps stream (sweep.cl), scaled
 * by 1/E_ii, written straight into the sweeps' device arrays.
 *
 *   dilu_level: the rows of one level set of L (Alg. 3: K's pattern lies in
 *     L's, so L's level sets are a schedule), a work-item each, a launch a level.
 *   dilu_syncfree: one launch (Alg. 5); a work-group of one item takes rows
 *     from an atomic ticket in order and waits on the ready flags of the rows
 *     j whose E_jj it reads (K_ij != 0 only), as sweep_syncfree does: those
 *     rows had smaller tickets, so their groups run.  One group: serial.
 *
 * flags: 1 dic (a lower entry without an equal mirror marks the row
 * asymmetric; a pivot must be positive), 2 dilu_order=faces (E_i -= (A_ji
 * A_ij) / E_j term by term, the upper copy's rows reversed), 4 the copies are
 * in level order (lslot, uslot map a row to its slot; else slot = row).
 * bad[i], asym[i]: i when row i's pivot is unusable or its lower part does
 * not mirror its column, else n (fac_first_part finds the first). */

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

/* row i (wait: the syncfree schedule, E and rD of other rows read through
 * their flags and atomically) */
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
    double big = 0.0, sum = 0.0;
    int skew = 0;
    for (idx_t p = p0; p < end; p++) {
        double a = fabs(v[p]);
        big = a > big ? a : big;
    }
    double e = fac_shifted(ub > le ? v[le] : 0.0, big, shift);
    for (idx_t p = p0; p < le; p++) {
        idx_t j = ci[p];
        idx_t q = fac_mirror(rp, ci, upbeg, j, i);
        if (q >= 0) {
            if (wait) {
                while (atomic_load_u64(&flag[j]) < epoch)
                    ; /* row j was claimed before row i: its group runs */
                GLOBAL_FENCE();
            }
            if (faces) /* face (j, i): E_i -= (A_ji A_ij) / E_j */
                e -= v[q] * v[p] / (wait ? atomic_load_f64(&E[j]) : E[j]);
            else
                sum += v[p] * v[q] * (wait ? atomic_load_f64(&rD[j]) : rD[j]);
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
    if (wait) {
        atomic_store_f64(&E[i], e);
        atomic_store_f64(&rD[i], r);
        GLOBAL_FENCE(); /* E_ii, 1/E_ii before the flag that publishes them */
        atomic_add_u64(&flag[i], 1);
    } else {
        E[i] = e;
        rD[i] = r;
    }
}

KERNEL void dilu_level(idx_t n, idx_t first, idx_t count, GLOBAL const idx_t *order, int flags, double shift, GLOBAL const idx_t *rp, GLOBAL const int *ci, GLOBAL const double *v, GLOBAL const idx_t *lowend, GLOBAL const idx_t *upbeg, GLOBAL const idx_t *lptr, GLOBAL const idx_t *lslot, GLOBAL const idx_t *uptr, GLOBAL const idx_t *uslot, GLOBAL double *lval, GLOBAL double *uval, GLOBAL double *E, GLOBAL double *rD, GLOBAL double *bad, GLOBAL double *asym)
{
    FOR_ALL(k, count)
    dilu_row(n, order[first + k], flags, shift, 0, 0, (GLOBAL u64_t *)0, rp, ci, v, lowend, upbeg,
             lptr, lslot, uptr, uslot, lval, uval, E, rD, bad, asym);
}

KERNEL void dilu_syncfree(idx_t n, int flags, double shift, GLOBAL const idx_t *rp, GLOBAL const int *ci, GLOBAL const double *v, GLOBAL const idx_t *lowend, GLOBAL const idx_t *upbeg, GLOBAL const idx_t *lptr, GLOBAL const idx_t *lslot, GLOBAL const idx_t *uptr, GLOBAL const idx_t *uslot, GLOBAL double *lval, GLOBAL double *uval, GLOBAL double *E, GLOBAL double *rD, GLOBAL double *bad, GLOBAL double *asym, GLOBAL u64_t *flag, GLOBAL u64_t *ticket, u64_t epoch)
{
    for (;;) {
        idx_t i = (idx_t)atomic_add_u64(ticket, 1);
        if (i >= n)
            return;
        dilu_row(n, i, flags, shift, 1, epoch, flag, rp, ci, v, lowend, upbeg, lptr, lslot, uptr,
                 uslot, lval, uval, E, rD, bad, asym);
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
