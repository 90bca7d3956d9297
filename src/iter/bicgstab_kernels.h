/* SPDX-License-Identifier: BSD-3-Clause */
/* bicgstab_kernels.h: the kernels BiCGSTAB (bicgstab.c) calls besides the
 * backend's generic vector operations, fused so that each is one pass over
 * memory (the shape of Ginkgo's core/solver/bicgstab_kernels.hpp).  Their
 * signatures are kernels/bicgstab.h's, below the backends that implement
 * them; here a family's three as the table the method runs. */
#ifndef HPLS_ITER_BICGSTAB_KERNELS_H
#define HPLS_ITER_BICGSTAB_KERNELS_H

#include "kernels/bicgstab.h"

typedef struct hpls_bicgstab_kernels {
    hpls_bicgstab_p_fn *p;       /* p = r + beta (p - omega v) */
    hpls_bicgstab_dot3_fn *dot3; /* (t, t), (t, s), (s, s) */
    hpls_bicgstab_xr_fn *xr;     /* x and r updated; ||r||, (rhat, r) */
} hpls_bicgstab_kernels;

/* The kernels of be's family (be->v->family), never NULL: every family has all
 * three, or the library does not link (bicgstab.c's table). */
const hpls_bicgstab_kernels *hpls_bicgstab_kernels_of(const hpls_backend *be);

#endif /* HPLS_ITER_BICGSTAB_KERNELS_H */
