/* SPDX-License-Identifier: BSD-3-Clause */
/* pc.h: what a preconditioner (src/precond/<name>.c) sees and gives: its
 * setup takes the backend, the matrix and the options it reads (hpls_pcopts)
 * and gives M as an hpls_pc.  It does not see the solver: the driver fills
 * hpls_pcopts from a solver's or a preconditioner object's options
 * (hpls_options_pc, options.c).  Also the pieces methods share with
 * preconditioners of the same kernels (HISA's factored band; PJG's blocks and
 * kernels: pjg_kernels.h), which live here, below the methods (src/iter) that
 * use them too. */
#ifndef HPLS_PC_H
#define HPLS_PC_H

#include "backend/backend.h"

/* A preconditioner z = M^{-1} r (and z = M^{-T} r) on backend be; apply == NULL
 * means the identity.  Built by its type's setup from the backend, the matrix
 * and its own options only: it does not see the solver.  Methods apply it
 * (hpls_m_pc_apply, iter/method.h). */
typedef struct hpls_pc {
    void *ctx;
    hpls_backend *be;
    hpls_status (*apply)(const struct hpls_pc *pc, const hpls_dvec *r, hpls_dvec *z);
    hpls_status (*apply_t)(const struct hpls_pc *pc, const hpls_dvec *r, hpls_dvec *z);
    void (*destroy)(void *ctx);
    /* optional: the numeric part of setup again for A (and At) with the values
     * changed and the same pattern; NULL: the whole setup is redone */
    hpls_status (*update)(struct hpls_pc *pc, const hpls_csr *A, const hpls_csr *At);
} hpls_pc;

/* The options a preconditioner reads (hpls_options' of the same names,
 * options.c). */
typedef struct hpls_pcopts {
    double omega;          /* ssor: the relaxation weight */
    int trisolve;          /* dilu, dic, ilu0 (and ssor on a device): the sweeps' HPLS_TRI_* */
    double shift;          /* dilu, dic, ilu0: A_ii + shift sgn(A_ii) max_j |A_ij| */
    int dilu_order;        /* dilu, dic: 0 rows (sum, then subtract), 1 faces (OpenFOAM's order) */
    int tridiag;           /* tridiag, btridiag: the hpls_tridiag_method factoring T */
    hpls_int block;        /* btridiag: block rows (0: hpls_bhisa_block's) */
    hpls_int gspike_p;     /* g-Spike partitions (0: automatic) */
    double gspike_delta;   /* g-Spike singularity threshold, relative to the block norm */
    hpls_int psize;        /* pjg: block size (0: hpls_pjg_default_psize, a device's own) */
    hpls_int sweeps;       /* pjg: sweeps per application */
    hpls_int part_nblocks; /* pjg: the user's partition (hpls_solver_set_partition) */
    const hpls_int *part_ptr, *part_idx; /* or NULL */
} hpls_pcopts;

/* The preconditioners (src/precond/<name>.c), the registry's hpls_pc_type
 * setup: M for A on be with options o into pc; At is A^T when the method
 * applies M^-T, else NULL. */
hpls_status hpls_pc_setup_jacobi(hpls_backend *be, const hpls_csr *A, const hpls_csr *At,
                                 const hpls_pcopts *o, hpls_pc *pc);
hpls_status hpls_pc_setup_ssor(hpls_backend *be, const hpls_csr *A, const hpls_csr *At,
                               const hpls_pcopts *o, hpls_pc *pc);
hpls_status hpls_pc_setup_tridiag(hpls_backend *be, const hpls_csr *A, const hpls_csr *At,
                                  const hpls_pcopts *o, hpls_pc *pc);
hpls_status hpls_pc_setup_btridiag(hpls_backend *be, const hpls_csr *A, const hpls_csr *At,
                                   const hpls_pcopts *o, hpls_pc *pc);
hpls_status hpls_pc_setup_dilu(hpls_backend *be, const hpls_csr *A, const hpls_csr *At,
                               const hpls_pcopts *o, hpls_pc *pc);
hpls_status hpls_pc_setup_dic(hpls_backend *be, const hpls_csr *A, const hpls_csr *At,
                              const hpls_pcopts *o, hpls_pc *pc);
hpls_status hpls_pc_setup_ilu0(hpls_backend *be, const hpls_csr *A, const hpls_csr *At,
                               const hpls_pcopts *o, hpls_pc *pc);
hpls_status hpls_pc_setup_pjg(hpls_backend *be, const hpls_csr *A, const hpls_csr *At,
                              const hpls_pcopts *o, hpls_pc *pc);
/* Strategy of the triangular sweeps of dilu, dic or ilu0 ("levels", or for
 * trisolve=auto "auto: levels" once decided); NULL for other preconditioners. */
const char *hpls_pc_strategy(const hpls_pc *pc);

/* ---- what methods share with preconditioners of the same kernels --------- */
/* band.c: rows per block of bhisa and btridiag when `block` is 0: one block per thread
 * of the backend.  Every cut moves band couplings into S and, measured on the
 * gas family, costs iterations (n = 1e5: 9 with 2 blocks, 11 with 10, 17 with
 * 25, 23 with 1563 blocks of 64, the paper's GPU choice), while a CPU thread
 * needs only one block. */
hpls_int hpls_bhisa_block(hpls_int n, hpls_int block, int nthreads);
struct hpls_btri;
/* A = T + S, T factored (block <= 0: one block) with nthreads threads; shared
 * by hisa and precond tridiag. */
hpls_status hpls_hisa_build(const hpls_csr *A, hpls_int block, int method, double gspike_delta,
                            hpls_int gspike_p, int nthreads, hpls_csr **S, struct hpls_btri **B);
/* The method solving T's blocks of rows rows (of n) on a device backend: given
 * (an hpls_tridiag_method; -1: not given, the device's choice) into *method,
 * or HPLS_ERR_UNSUPPORTED naming who when the device cannot. */
hpls_status hpls_tridiag_device_method(const hpls_backend *be, const char *who, hpls_int n,
                                       hpls_int rows, int given, int *method);

#endif /* HPLS_PC_H */
