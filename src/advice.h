/* SPDX-License-Identifier: BSD-3-Clause */
/* advice.h: the method hpls advises for a matrix, with the evidence (hpls
 * info prints it, solver=auto runs it). */
#ifndef HPLS_ADVICE_H
#define HPLS_ADVICE_H

#include "la/analyze.h"

enum { HPLS_ADVICE_MAX = 12, HPLS_ADVICE_WHY = 3 };
typedef struct hpls_advice {
    int n;                          /* candidates, the first the advice */
    char opts[HPLS_ADVICE_MAX][80]; /* each as solver options: "solver=cg precond=dic" */
    char why[HPLS_ADVICE_WHY][400]; /* the evidence that ordered them ("" when unused) */
} hpls_advice;

/* The candidates for the square matrix A with properties p (hpls_matrix_props),
 * best first: rules on the diagonal, symmetry and the tridiagonal band, and
 * preconditioners checked by building them (advice.c says which and why).
 * A without a perfect matching on its nonzeros is structurally singular: no
 * candidate, HPLS_ERR_SINGULAR with the message that says so. */
hpls_status hpls_advise(const hpls_csr *A, const hpls_props *p, hpls_advice *adv);

/* An estimate of rho(T^-1 S), A = T + S split at the tridiagonal band (HISA
 * converges iff it is < 1): iters power iterations, T factored once by Thomas.
 * A square; a T that Thomas cannot factor is its HPLS_ERR_SINGULAR (message
 * naming the row). */
hpls_status hpls_split_rho(const hpls_csr *A, hpls_int iters, double *rho);

/* "solver=cg precond=dic" as the command's flags "--solver cg --precond dic". */
void hpls_advice_flags(const char *opts, char *out, size_t len);

#endif
