/* SPDX-License-Identifier: BSD-3-Clause */
/* dist.h: the methods that are kernels themselves, on a matrix distributed by
 * rows over MPI ranks (dcsr.h): HISA's and BHISA's S x (dist_hisa.c) and PJG's
 * sweep over the ranks (dist_pjg.c).  A distributed solver's operator reaches
 * them as op->dk (iter/method.h's hpls_distops); the method files call them there
 * and never see MPI.
 *
 * What must be the same on every rank and depends on every rank (PJG's
 * psize, the number of blocks) is settled by hpls_dist_agree after every
 * rank has set up: a collective inside a method's setup would wait for ever
 * for a rank whose setup failed before it (a zero diagonal on rank 2). */
#ifndef HPLS_MPI_DIST_H
#define HPLS_MPI_DIST_H

#include "mpi/dcsr.h"

/* The tables op->dk points to (dist.c): on more than one rank, on one. */
extern const hpls_distops hpls_dist_ops, hpls_dist_ops_one;

/* After every rank has set up s (collective; nothing here can fail): what
 * hisa, bhisa and pjg settle over all ranks, and on more than one rank what
 * their blocks are, in s->fmt (hpls_solver_format; the command prints it). */
void hpls_dist_agree(hpls_solver *s);

/* dist_hisa.c: op->dk->apply_part, and hpls_dist_agree's part for hisa and bhisa. */
void hpls_dist_apply_part(const hpls_op *op, const hpls_csr *B, const hpls_real *x, hpls_real *y);
void hpls_dist_hisa_agree(hpls_solver *s);

/* dist_pjg.c: op->dk->pjg_setup and pjg_sweep, and hpls_dist_agree's part for pjg. */
hpls_status hpls_dist_pjg_setup(hpls_mctx *mc);
void hpls_dist_pjg_sweep(hpls_mctx *mc, int fresh, const hpls_dvec *dinv, const hpls_dvec *b,
                         hpls_dvec *x, hpls_dvec *xold, hpls_dvec *r);
void hpls_dist_pjg_agree(hpls_solver *s);

#endif /* HPLS_MPI_DIST_H */
