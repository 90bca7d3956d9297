/* SPDX-License-Identifier: BSD-3-Clause */
/* block_tridiag.h: a block-diagonal tridiagonal T (blocks of k rows, no coupling
 * between blocks) factored once and solved block by block in parallel: the
 * tridiagonal solve of BHISA (Li, Yang, Li 2016, Alg. 3) and of the tridiag /
 * btridiag preconditioners.  One block (k >= n) may use any tridiagonal method. */
#ifndef HPLS_BLOCK_TRIDIAG_H
#define HPLS_BLOCK_TRIDIAG_H

#include "direct/direct.h"

typedef struct hpls_btri hpls_btri;

/* T must have dl = du = 0 across block boundaries (hpls_split_tridiag makes it so).
 * Several blocks: method thomas or cr.  opts->threads: threads of the solves. */
hpls_status hpls_btri_factor(const hpls_tridiag *T, hpls_int block, hpls_tridiag_method m,
                             const hpls_tridiag_opts *opts, hpls_btri **B);
/* x = T^{-1} b (x must not alias b for cr blocks). */
hpls_status hpls_btri_solve(const hpls_btri *B, const hpls_real *b, hpls_real *x);
void hpls_btri_free(hpls_btri *B);

#endif
