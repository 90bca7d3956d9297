/* SPDX-License-Identifier: BSD-3-Clause */
/* dist_gspike.h: g-Spike (Venetis et al. 2015, Algorithm 1) on the ranks of a
 * row-distributed tridiagonal matrix (dist_gspike.c), and the rows of T from a
 * distributed CSR matrix.  The factorization and the solve are collective over
 * D's communicator; the factorization returns the same status on every rank
 * (the failing rank's message). */
#ifndef HPLS_MPI_DIST_GSPIKE_H
#define HPLS_MPI_DIST_GSPIKE_H

#include "mpi/dcsr.h"

/* My rows of T: l[i] x[i-1] + d[i] x[i] + u[i] x[i+1] for global row D->first
 * + i, l[0] and u[nlocal-1] the couplings to the neighbouring ranks' rows (0 at
 * the ends of T); hpls_malloc'd (nlocal + 1 values each; NULL after a failure).
 * An entry outside the band is an HPLS_ERR_SIZE naming it as one process does,
 * "entry (5, 9) lies outside the tridiagonal band: WHO needs a tridiagonal
 * matrix" (1-based).  Not collective. */
hpls_status hpls_dcsr_tridiag(const hpls_dcsr *D, const char *who, hpls_real **l, hpls_real **d,
                              hpls_real **u);

typedef struct hpls_dgspike hpls_dgspike;

/* Factors T = D's matrix (tridiagonal): parts partitions per rank (0: from the
 * rank's rows and nt), delta the singularity threshold of the partitions (0: no
 * repair), nt threads per rank.  D must outlive the factors (the refinement
 * uses its halo). */
hpls_status hpls_dgspike_factor(hpls_dcsr *D, int nt, hpls_int parts, double delta,
                                hpls_dgspike **f);
/* x = T^{-1} b on my rows (b and x distinct, nlocal values each), refined as
 * one process refines when the spikes grew or a partition was repaired. */
void hpls_dgspike_solve(hpls_dgspike *f, const hpls_real *b, hpls_real *x);
void hpls_dgspike_free(hpls_dgspike *f); /* accepts NULL; not collective */
/* Partitions found singular (all ranks, the reduced system's levels too), and
 * of those on the ranks the ones no repair could reach (T reducible beside
 * them, or a neighbouring partition of one row). */
hpls_int hpls_dgspike_singular_blocks(const hpls_dgspike *f);
hpls_int hpls_dgspike_unrepaired(const hpls_dgspike *f);
/* Partitions on all ranks, and the order of the reduced system at rank 0. */
hpls_int hpls_dgspike_partitions(const hpls_dgspike *f);
hpls_int hpls_dgspike_reduced_order(const hpls_dgspike *f);

#endif /* HPLS_MPI_DIST_GSPIKE_H */
