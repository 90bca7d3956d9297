/* SPDX-License-Identifier: BSD-3-Clause */
/* matching.h: matchings of rows to columns on the nonzero entries of a square
 * CSR matrix (reorder=matching, scale=matching) and row/column scaling
 * (scaling.c: Ruiz equilibration, applying scalings and permutations). */
#ifndef HPLS_MATCHING_H
#define HPLS_MATCHING_H

#include "core/internal.h"

/* A maximum transversal (Duff's MC21): colof[i] = the column matched to row
 * i, or -1; *unmatched = rows left without a column.  Entries whose value is
 * 0 do not count.  A square matrix with *unmatched > 0 is structurally
 * singular.  (HPLS_OK even then: the caller decides.) */
hpls_status hpls_match_transversal(const hpls_csr *A, hpls_int *colof, hpls_int *unmatched);

/* A perfect matching that maximises prod_i |A_{i,colof[i]}| (MC64's job 5)
 * and the scalings from its dual variables: |dr_i A_ij dc_j| <= 1 for every
 * entry, = 1 on the matching.  dr, dc may be NULL.  A matrix without a
 * perfect matching on its nonzeros is an HPLS_ERR_SINGULAR that says how many
 * rows cannot be matched and names one. */
hpls_status hpls_match_product(const hpls_csr *A, hpls_int *colof, double *dr, double *dc);

/* Rows whose diagonal entry is zero or missing. */
hpls_int hpls_csr_zero_diagonals(const hpls_csr *A);

/* Ruiz equilibration (scaling.c): dr, dc such that every row and column of
 * Dr A Dc has max |entry| within tol of 1, or after maxsweeps sweeps; returns
 * the sweeps made.  Empty rows and columns keep the factor 1. */
int hpls_scale_ruiz(const hpls_csr *A, double tol, int maxsweeps, double *dr, double *dc);

/* B: row k is row rp[k] of A times dr[rp[k]], column l is column cp[l] of A
 * times dc[cp[l]] (rp, cp, dr, dc may be NULL: identity), columns sorted.
 * With rp = cp it is P A P^T; with rp = NULL and cp = colof, B_kk is the
 * matched entry of row k. */
hpls_status hpls_csr_scale_permute(const hpls_csr *A, const hpls_int *rp, const hpls_int *cp,
                                   const double *dr, const double *dc, hpls_csr **B);

#endif /* HPLS_MATCHING_H */
