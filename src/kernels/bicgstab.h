/* SPDX-License-Identifier: BSD-3-Clause */
/* bicgstab.h: BiCGSTAB's fused kernels (iter/bicgstab.c), one pass over
 * memory each, as every kernel family implements them (backend.h's
 * HPLS_KFAMILIES: cpu in kernels/cpu/blas1.c, cpu_x in blas1_exact.c, ref in
 * kernels/ref/ref.c, dev in kernels/device/devhost.c).  Declared here, below
 * both the backends that define them and the method that calls them, which
 * takes a family's three as one table (iter/bicgstab_kernels.h). */
#ifndef HPLS_KERNELS_BICGSTAB_H
#define HPLS_KERNELS_BICGSTAB_H

#include "backend/backend.h"

/* p = r + beta (p - omega v) */
typedef void hpls_bicgstab_p_fn(hpls_backend *be, hpls_int n, const hpls_dvec *r, double beta,
                                double omega, const hpls_dvec *v, hpls_dvec *p);
/* *tt = (t, t), *ts = (t, s), *ss = (s, s) */
typedef void hpls_bicgstab_dot3_fn(hpls_backend *be, hpls_int n, const hpls_dvec *t,
                                   const hpls_dvec *s, double *tt, double *ts, double *ss);
/* x += alpha phat + omega shat; r = s - omega t; *rnorm = ||r||, *rhat_r = (rhat, r) */
typedef void hpls_bicgstab_xr_fn(hpls_backend *be, hpls_int n, double alpha, const hpls_dvec *phat,
                                 double omega, const hpls_dvec *shat, const hpls_dvec *s,
                                 const hpls_dvec *t, const hpls_dvec *rhat, hpls_dvec *x,
                                 hpls_dvec *r, double *rnorm, double *rhat_r);

/* reproducible=1 keeps cpu's p: it sums nothing */
#define hpls_cpu_x_bicgstab_p hpls_cpu_bicgstab_p

/* Every family's three: hpls_<prefix>_bicgstab_p, _dot3 and _xr. */
#define HPLS_BICGSTAB_DECLARE_(f, p)                                                               \
    hpls_bicgstab_p_fn hpls_##p##_bicgstab_p;                                                      \
    hpls_bicgstab_dot3_fn hpls_##p##_bicgstab_dot3;                                                \
    hpls_bicgstab_xr_fn hpls_##p##_bicgstab_xr;
HPLS_KFAMILIES(HPLS_BICGSTAB_DECLARE_)

#endif /* HPLS_KERNELS_BICGSTAB_H */
