/* SPDX-License-Identifier: BSD-3-Clause */
/* analyze.h: properties of A that choose a method (hpls info's advice). */
#ifndef HPLS_ANALYZE_H
#define HPLS_ANALYZE_H

#include "core/internal.h"

/* What hpls info prints of A and the advice reads (one pass over A). */
typedef struct hpls_props {
    hpls_int zero_diag, first_zero;    /* zero or missing a_ii; the first such row (-1: none) */
    hpls_int strict, weak;             /* rows with |a_ii| > (>=) sum_{j!=i} |a_ij| */
    hpls_int nonpos;                   /* rows with a_ii <= 0 */
    hpls_int pattern_asym, value_asym; /* off-diagonal entries without a mirror / unequal to it */
    hpls_int band, bw;                 /* entries with |i-j| <= 1; the bandwidth */
    double min_ratio;    /* min over rows of |a_ii| / sum_{j!=i} |a_ij| (inf: no off-diagonal) */
    double min_diag_max; /* min over rows of |a_ii| / max_j |a_ij| (0: a zero diagonal) */
} hpls_props;
void hpls_matrix_props(const hpls_csr *A, hpls_props *p);

#endif
