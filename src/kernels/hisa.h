/* SPDX-License-Identifier: BSD-3-Clause */
/* hisa.h: HISA's fused kernel (iter/hisa.c), as every kernel family
 * implements it (backend.h's HPLS_KFAMILIES: cpu in kernels/cpu/blas1.c,
 * cpu_x in blas1_exact.c, ref in kernels/ref/ref.c, dev in
 * kernels/device/devhost.c).  Declared here, below both the backends that
 * define it and the method that calls it through its family's table
 * (iter/hisa_kernels.h). */
#ifndef HPLS_KERNELS_HISA_H
#define HPLS_KERNELS_HISA_H

#include "backend/backend.h"

/* HISA's step: bp = b - ynew; returns ||y - ynew|| */
typedef double hpls_hisa_update_fn(hpls_backend *be, hpls_int n, const hpls_dvec *b,
                                   const hpls_dvec *y, const hpls_dvec *ynew, hpls_dvec *bp);

/* Every family's: hpls_<prefix>_hisa_update. */
#define HPLS_HISA_DECLARE_(f, p) hpls_hisa_update_fn hpls_##p##_hisa_update;
HPLS_KFAMILIES(HPLS_HISA_DECLARE_)

#endif /* HPLS_KERNELS_HISA_H */
