/* SPDX-License-Identifier: BSD-3-Clause */
/* pjg_kernels.h: what PJG's method (iter/pjg.c) and preconditioner
 * (precond/pjg.c) share, below both (pjg_blocks.c): the ordered blocks of a
 * sweep, and the kernels that sweep them besides the backend's generic vector
 * operations.  Their signatures are kernels/pjg.h's, below the backends that
 * implement them; here a family's three as the table the two run. */
#ifndef HPLS_PRECOND_PJG_KERNELS_H
#define HPLS_PRECOND_PJG_KERNELS_H

#include "kernels/pjg.h"

typedef struct hpls_pjg_kernels {
    hpls_pjg_upload_fn *upload;   /* P's blocks for the sweeps on a backend */
    hpls_pjg_release_fn *release; /* what upload made */
    hpls_pjg_sweep_fn *sweep;     /* x^k -> x^(k+1), and b - A x^k */
} hpls_pjg_kernels;

/* The kernels of be's family (be->v->family), never NULL: every family has all
 * three, or the library does not link (pjg_blocks.c's table). */
const hpls_pjg_kernels *hpls_pjg_kernels_of(const hpls_backend *be);

/* The partition of n unknowns (nnz stored entries) into the blocks of a PJG
 * sweep: the user's nblocks blocks (ptr, idx; ptr NULL: none) or blocks of
 * psize rows (0: the default, which depends on the thread count nthreads). */
hpls_status hpls_pjg_blocks(hpls_int n, hpls_int nnz, hpls_int psize, hpls_int nblocks,
                            const hpls_int *ptr, const hpls_int *idx, int nthreads,
                            hpls_pjg_partition **P);
void hpls_pjg_partition_free(hpls_pjg_partition *P);
hpls_int hpls_pjg_default_psize(hpls_int n, hpls_int nnz, int nthreads);
/* P's blocks for the sweeps on be (its family's upload; P->dev, freed with
 * P); dense: of a dense A. */
hpls_status hpls_pjg_partition_upload(hpls_backend *be, hpls_pjg_partition *P, hpls_int n,
                                      int dense);
/* The blocks of a sweep on be, uploaded: hpls_pjg_blocks with be's thread
 * count, psize = 0 a device's own on a device backend (a block is a launch
 * there, which should fill it). */
hpls_status hpls_pjg_partition_for(hpls_backend *be, hpls_int n, hpls_int nnz, int dense,
                                   hpls_int psize, hpls_int nblocks, const hpls_int *ptr,
                                   const hpls_int *idx, hpls_pjg_partition **P);

#endif /* HPLS_PRECOND_PJG_KERNELS_H */
