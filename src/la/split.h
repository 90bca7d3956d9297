/* SPDX-License-Identifier: BSD-3-Clause */
/* split.h: A = T + S, the tridiagonal band and the rest (HISA, BHISA). */
#ifndef HPLS_SPLIT_H
#define HPLS_SPLIT_H

#include "core/internal.h"

/* T: the band of A (block > 0: without the couplings between blocks of block
 * rows, which go to S; block <= 0 or >= n: one block); S: all other entries.
 * nt threads (each first-touches its rows of S). */
hpls_status hpls_split_tridiag(const hpls_csr *A, hpls_int block, int nt, hpls_tridiag **T,
                               hpls_csr **S);

#endif
