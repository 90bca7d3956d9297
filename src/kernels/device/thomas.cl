/* SPDX-License-Identifier: BSD-3-Clause */
/* thomas.cl: x = T^{-1} b by the Thomas algorithm (src/direct/thomas.c's
 * solve) with the factors the host made, one work-item per block of `block`
 * rows: a batch of independent systems (BHISA's blocks of T, btridiag's),
 * or one system whose recurrences one item runs (no parallelism inside a
 * system: g-Spike is the device's solver for one large T).  The operations
 * are thomas.c's in its order, so x has the host's values.  x may be b. */
KERNEL void tri_thomas(idx_t n, idx_t block, GLOBAL const double *dl, GLOBAL const double *cp,
                       GLOBAL const double *pinv, GLOBAL const double *b, GLOBAL double *x)
{
    idx_t nb = (n + block - 1) / block;
    for (idx_t k = GID; k < nb; k += GSZ) {
        idx_t lo = k * block, hi = n - lo < block ? n : lo + block;
        double y = b[lo] * pinv[lo];
        x[lo] = y;
        for (idx_t i = lo + 1; i < hi; i++) { /* forward: L y = b */
            y = (b[i] - dl[i] * y) * pinv[i];
            x[i] = y;
        }
        for (idx_t i = hi - 2; i >= lo; i--) { /* backward: U x = y */
            y = x[i] - cp[i] * y;
            x[i] = y;
        }
    }
}
