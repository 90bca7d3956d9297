/* analyze.h: properties of A that choose a method (hpls info's advice). */
#ifndef HPLS_ANALYZE_H
#define HPLS_ANALYZE_H

#include "core/internal.h"

/* An estimate of rho(T^-1 S), A = T + S split at the tridiagonal band (HISA
 * converges iff it is < 1): iters power iterations, T factored once by Thomas.
 * A square; a T that Thomas cannot factor is its HPLS_ERR_SINGULAR (message
 * naming the row). */
hpls_status hpls_split_rho(const hpls_csr *A, hpls_int iters, double *rho);

#endif
