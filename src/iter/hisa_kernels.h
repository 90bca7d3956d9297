/* SPDX-License-Identifier: BSD-3-Clause */
/* hisa_kernels.h: the kernel HISA and BHISA (hisa.c) call besides the
 * backend's generic vector operations, fused so that an iteration's update
 * and its one reduction are one pass.  Its signature is kernels/hisa.h's,
 * below the backends that implement it; here a family's as the table the
 * method runs. */
#ifndef HPLS_ITER_HISA_KERNELS_H
#define HPLS_ITER_HISA_KERNELS_H

#include "kernels/hisa.h"

typedef struct hpls_hisa_kernels {
    hpls_hisa_update_fn *update; /* bp = b - ynew; returns ||y - ynew|| */
} hpls_hisa_kernels;

/* The kernels of be's family (be->v->family), never NULL: every family has
 * them, or the library does not link (hisa.c's table). */
const hpls_hisa_kernels *hpls_hisa_kernels_of(const hpls_backend *be);

#endif /* HPLS_ITER_HISA_KERNELS_H */
