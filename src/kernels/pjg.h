/* SPDX-License-Identifier: BSD-3-Clause */
/* pjg.h: PJG's kernels (iter/pjg.c, precond/pjg.c; Ahmadi et al., IEEE TPDS
 * 32(7), 2021, Eqs. 3-5, Alg. 1): its blocks' copy on a backend and its sweep,
 * as every kernel family implements them (backend.h's HPLS_KFAMILIES: cpu in
 * kernels/cpu/pjg_sweep.c, cpu_x cpu's, ref in kernels/ref/ref.c, dev in
 * kernels/device/pjg.c).  Declared here, below both the backends that define
 * them and the method and preconditioner that take a family's three as one
 * table (precond/pjg_kernels.h). */
#ifndef HPLS_KERNELS_PJG_H
#define HPLS_KERNELS_PJG_H

#include "backend/backend.h"

/* A partition's copy on a device (kernels/device/pjg.c, opaque). */
typedef struct hpls_dpjg hpls_dpjg;

/* The blocks of a PJG sweep: block k is unknowns idx[ptr[k] .. ptr[k+1]-1]
 * (built by precond/pjg_blocks.c). */
typedef struct hpls_pjg_partition {
    hpls_int nblocks, psize; /* psize: 0 for a user partition */
    hpls_int *ptr, *idx;
    hpls_int *blockof; /* block of each unknown */
    hpls_int *lo;      /* contiguous blocks: first unknown of i's block, else NULL */
    hpls_backend *be;  /* the backend P was uploaded to (hpls_pjg_partition_upload), or NULL */
    hpls_dpjg *dev;    /* its copy there (a device's; NULL on the host families) */
} hpls_pjg_partition;

/* The matrix a sweep reads: CSR A or dense Ad on the host (the host
 * families), and on a device backend their copy there, dA or dAd (dev). */
typedef struct hpls_pjg_matrix {
    const hpls_csr *A;
    const hpls_dense *Ad;
    const hpls_dmat *dA;
    const hpls_ddense *dAd;
} hpls_pjg_matrix;

/* P's blocks for the sweeps on be (dense: of a dense A, which dev sweeps in
 * contiguous blocks only); *dP = NULL where the sweep reads P itself */
typedef hpls_status hpls_pjg_upload_fn(hpls_backend *be, const hpls_pjg_partition *P, hpls_int n,
                                       int dense, hpls_dpjg **dP);
typedef void hpls_pjg_release_fn(hpls_backend *be, hpls_dpjg *dP); /* accepts NULL */
/* One sweep: blocks k = 0..nblocks-1 in order, inside a block every row
 * updated from the block's old values: x_i = (b_i - sum_{j!=i} a_ij x_j) / a_ii
 * (dinv: 1 / a_ii).  On entry *x holds x^k; on return *x holds x^(k+1), *xold
 * x^k and, when r is not NULL, r = b - A x^k, computed in the same pass (the
 * lagged residual of kernels/cpu/pjg_sweep.c).  A family may exchange the two
 * handles instead of copying (dev reads x^k from one and writes x^(k+1) into
 * the other).  x has the same bits in every family, r too but in ref, which
 * sums b - A x^k apart. */
typedef void hpls_pjg_sweep_fn(hpls_backend *be, const hpls_pjg_partition *P,
                               const hpls_pjg_matrix *A, const hpls_dvec *dinv, const hpls_dvec *b,
                               hpls_dvec **x, hpls_dvec **xold, hpls_dvec *r);

/* reproducible=1 keeps cpu's: a sweep returns no sum (r's norm is the table's) */
#define hpls_cpu_x_pjg_upload hpls_cpu_pjg_upload
#define hpls_cpu_x_pjg_release hpls_cpu_pjg_release
#define hpls_cpu_x_pjg_sweep hpls_cpu_pjg_sweep
/* ref keeps nothing beside P either */
#define hpls_ref_pjg_upload hpls_cpu_pjg_upload
#define hpls_ref_pjg_release hpls_cpu_pjg_release

/* Every family's three: hpls_<prefix>_pjg_upload, _release and _sweep. */
#define HPLS_PJG_DECLARE_(f, p)                                                                    \
    hpls_pjg_upload_fn hpls_##p##_pjg_upload;                                                      \
    hpls_pjg_release_fn hpls_##p##_pjg_release;                                                    \
    hpls_pjg_sweep_fn hpls_##p##_pjg_sweep;
HPLS_KFAMILIES(HPLS_PJG_DECLARE_)

#endif /* HPLS_KERNELS_PJG_H */
