/* SPDX-License-Identifier: BSD-3-Clause */
/* rcm.h: reverse Cuthill-McKee ordering and symmetric permutation of a CSR
 * matrix (reorder=rcm). */
#ifndef HPLS_RCM_H
#define HPLS_RCM_H

#include "core/internal.h"

/* perm[k] = the original index of unknown k in the reverse Cuthill-McKee order
 * of the pattern of A + A^T (square A, n values in perm). */
hpls_status hpls_rcm(const hpls_csr *A, hpls_int *perm);
/* B = P A P^T: B_kl = A_{perm[k], perm[l]}, columns sorted. */
hpls_status hpls_csr_permute(const hpls_csr *A, const hpls_int *perm, hpls_csr **B);
/* max |i - j| over the stored entries. */
hpls_int hpls_csr_bandwidth(const hpls_csr *A);

#endif /* HPLS_RCM_H */
