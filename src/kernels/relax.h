/* SPDX-License-Identifier: BSD-3-Clause */
/* relax.h: the relaxation sweeps of gs, sor, ssor (iter/sor.c) and precond
 * ssor (precond/ssor.c): A's setup for them on a backend, the SOR sweep, its
 * residual and the SSOR solve, as every kernel family implements them
 * (backend.h's HPLS_KFAMILIES: cpu in kernels/cpu/sor_sweep.c, cpu_x cpu's
 * with an exact residual sum, ref cpu's sweeps with its own residual in
 * kernels/ref/ref.c, dev in kernels/device/relax.c).  Declared here, below
 * both the backends that define them and the method and preconditioner that
 * take a family's five as one table (precond/relax_kernels.h). */
#ifndef HPLS_KERNELS_RELAX_H
#define HPLS_KERNELS_RELAX_H

#include "backend/backend.h"

/* A's sweeps on a device (kernels/device/relax.c, opaque). */
typedef struct hpls_drelax hpls_drelax;

/* The matrix a sweep reads: CSR A (diagpos[i]: A_ii's position in row i, the
 * columns sorted) or, on the host families, a dense Ad; dA: A's copy on a
 * device backend. */
typedef struct hpls_relax_matrix {
    const hpls_csr *A;
    const hpls_int *diagpos;
    const hpls_dense *Ad;
    const hpls_dmat *dA;
} hpls_relax_matrix;

/* A's sweeps on be by strategy (HPLS_TRI_*; dev: its level sets, auto chosen
 * here); *dR = NULL where the sweeps read A itself */
typedef hpls_status hpls_relax_upload_fn(hpls_backend *be, const hpls_csr *A,
                                         const hpls_int *diagpos, int strategy, hpls_drelax **dR);
typedef void hpls_relax_release_fn(hpls_backend *be, hpls_drelax *dR); /* accepts NULL */
/* One SOR sweep (omega 1: Gauss-Seidel), forward or backward, sequential by
 * definition: x_i = (1-w) x_i + w (b_i - sum_{j!=i} a_ij x_j) / a_ii, x in
 * place (dinv: 1 / a_ii).  On return dx holds what the residual reads: x_old -
 * x_new on the host families (where b may be dx: a row reads b_i before it
 * writes dx_i), x_old on dev.  x has the same bits in every family. */
typedef void hpls_relax_sweep_fn(hpls_backend *be, const hpls_relax_matrix *M, hpls_drelax *R,
                                 double omega, int backward, const hpls_dvec *dinv,
                                 const hpls_dvec *b, hpls_dvec *x, hpls_dvec *dx);
/* After a sweep: r = (T + dscale D)(x_old - x_new), T the strictly upper
 * (upper = 1) or lower part of A; returns sum r_i^2 (not reduced).  After a
 * forward SOR sweep, (U + (1 - 1/w) D)(x_old - x_new) = b - A x_new. */
typedef double hpls_relax_residual_fn(hpls_backend *be, const hpls_relax_matrix *M,
                                      const hpls_drelax *R, int upper, double dscale,
                                      const hpls_dvec *x, const hpls_dvec *dx, hpls_dvec *r);
/* z = M^-1 r for M = (D + wL) D^-1 (D + wU) / (w (2 - w)), of a CSR A */
typedef void hpls_relax_ssor_fn(hpls_backend *be, const hpls_relax_matrix *M, hpls_drelax *R,
                                double omega, const hpls_dvec *r, hpls_dvec *z);

/* cpu_x's sweeps are cpu's (its residual sums exactly); ref's sweeps too,
 * through its checked host arrays (its residual is its own) */
#define hpls_cpu_x_relax_upload hpls_cpu_relax_upload
#define hpls_cpu_x_relax_release hpls_cpu_relax_release
#define hpls_cpu_x_relax_sweep hpls_cpu_relax_sweep
#define hpls_cpu_x_relax_ssor hpls_cpu_relax_ssor
#define hpls_ref_relax_upload hpls_cpu_relax_upload
#define hpls_ref_relax_release hpls_cpu_relax_release
#define hpls_ref_relax_sweep hpls_cpu_relax_sweep
#define hpls_ref_relax_ssor hpls_cpu_relax_ssor

/* Every family's five: hpls_<prefix>_relax_upload, _release, _sweep,
 * _residual and _ssor. */
#define HPLS_RELAX_DECLARE_(f, p)                                                                  \
    hpls_relax_upload_fn hpls_##p##_relax_upload;                                                  \
    hpls_relax_release_fn hpls_##p##_relax_release;                                                \
    hpls_relax_sweep_fn hpls_##p##_relax_sweep;                                                    \
    hpls_relax_residual_fn hpls_##p##_relax_residual;                                              \
    hpls_relax_ssor_fn hpls_##p##_relax_ssor;
HPLS_KFAMILIES(HPLS_RELAX_DECLARE_)

#endif /* HPLS_KERNELS_RELAX_H */
