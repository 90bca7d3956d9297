/* SPDX-License-Identifier: BSD-3-Clause */
/* gspike.h: g-Spike on a device backend (kernels/device/gspike.c), the
 * direct solver the device runs for one large tridiagonal system; the
 * tridiagonal factors on the device (tridiag_direct.c) use it. */
#ifndef HPLS_DEVICE_GSPIKE_H
#define HPLS_DEVICE_GSPIKE_H

#include "backend/backend.h"

typedef struct hpls_devgspike hpls_devgspike;

/* T factored on the device: p partitions at the top level (0: n divided by
 * HPLS_DEVICE_GSPIKE_ROWS, as every lower level), delta as hpls_gspike_factor's
 * (0: no repair), how: HPLS_TFAC_* (0: automatic).  The solve refines when the
 * host's would (spike growth, a repaired block), so T stays on the device then. */
hpls_status hpls_devgspike_factor(hpls_backend *be, const hpls_tridiag *T, hpls_int p, double delta,
                                int how, hpls_devgspike **F);
/* x = T^{-1} b (x may be b); a failure is the backend's sticky error. */
void hpls_devgspike_solve(hpls_backend *be, hpls_devgspike *F, const hpls_dvec *b, hpls_dvec *x);
void hpls_devgspike_free(hpls_backend *be, hpls_devgspike *F); /* accepts NULL */
/* Blocks found singular and repaired (all levels), and the 1/cond bound of
 * hpls_gspike_rcond_bound: the host's numbers for the same T and partitions. */
hpls_int hpls_devgspike_singular(const hpls_devgspike *F);
double hpls_devgspike_rcond(const hpls_devgspike *F);

#endif /* HPLS_DEVICE_GSPIKE_H */
