/* SPDX-License-Identifier: BSD-3-Clause */
/* dcsr_ops.h: what a distributed matrix (dcsr.h) needs beyond y = A x for
 * the methods and options that change A or apply its transpose:
 *
 *   the reverse halo      each rank's values at its ghost columns sent back to
 *                         the owners, who add them (A^T x) or take their max
 *                         (Ruiz's column maxima): dcsr_reverse.c
 *   y = A^T x             Ad^T x plus the ghosts' part Ao^T x sent back by the
 *                         reverse halo: dcsr_spmv.c
 *   whole and parts       A gathered on one rank, a whole matrix cut into the
 *                         row blocks of another distributed one: dcsr_gather.c
 *   Ruiz's scaling        the one-process sweeps on the ranks' rows: dist_ruiz.c
 *   reorder and scale     the solver's transformed system on the ranks:
 *                         dist_transform.c
 *
 * Every function is collective over D's communicator unless it says
 * otherwise, and a failure on one rank is the same status on all (the
 * failing rank's message, hpls_mpi_agree). */
#ifndef HPLS_MPI_DCSR_OPS_H
#define HPLS_MPI_DCSR_OPS_H

#include "mpi/dcsr.h"

/* The reverse halo of D (D->rev): the halo plan run backwards, so the same
 * neighbours and the same values per message as y = A x's exchange. */
typedef struct hpls_dcsr_rev {
    hpls_real *out;   /* nghost: my values at the ghost columns, for their owners */
    hpls_real *in;    /* send_ptr[nsend]: the other ranks' values at my rows send_idx[] */
    MPI_Request *req; /* nsend receives, then nrecv sends (persistent) */
    int nreq;
    hpls_csr *AoT; /* Ao^T (nghost x nlocal) once a transposed product asked for it, or NULL */
} hpls_dcsr_rev;

/* D->rev made once (local: no message; a failure is this rank's). */
hpls_status hpls_dcsr_reverse_plan(hpls_dcsr *D);
/* Frees D->rev (local; dcsr.c's destroy calls it). */
void hpls_dcsr_reverse_destroy(hpls_dcsr *D);
/* Sends D->rev->out to the ghosts' owners and receives theirs; finish waits,
 * then y[send_idx[k]] += in[k] (HPLS_RED_SUM) or = max(y, in[k]) (HPLS_RED_MAX),
 * in the order of the neighbours' ranks. */
hpls_status hpls_dcsr_reverse_start(hpls_dcsr *D);
hpls_status hpls_dcsr_reverse_finish(hpls_dcsr *D, hpls_red_op op, hpls_real *y);

/* Makes op (hpls_op_dcsr, with op->At = Ad^T set) apply y = A^T x: D->rev and
 * Ao^T built once, kept with D (local). */
hpls_status hpls_op_dcsr_transpose(hpls_op *op);

/* My rows with global columns, increasing in each row; with dr given the
 * values are dr_i a_ij c_j, c_j = dc[local column] or dcg[ghost] (ghost
 * factors of the last halo of dc).  *rowptr, *gcol, *val: hpls_malloc'd.
 * Local. */
hpls_status hpls_dcsr_rows(const hpls_dcsr *D, const double *dr, const double *dc,
                           const double *dcg, hpls_int **rowptr, hpls_int **gcol, hpls_real **val);
/* The whole matrix at root (n x n CSR, *A there, NULL elsewhere): one
 * MPI_Gatherv each of row lengths, columns and values, so n and the stored
 * entries must fit MPI's int counts. */
hpls_status hpls_dcsr_gather(const hpls_dcsr *D, int root, hpls_csr **A);
/* A (n x n at root, NULL elsewhere) cut into D's row blocks: rank p gets rows
 * D->rowstart[p] .. of A, a new distributed matrix with its own ghosts and halo. */
hpls_status hpls_dcsr_scatter_like(const hpls_dcsr *D, int root, const hpls_csr *A,
                                   hpls_dcsr **out);

/* Ruiz's equilibration (la/scaling.c) of a distributed A: dr, dc (my rows
 * and my columns, nlocal each) equal to one process's bit for bit; *sweeps
 * made.  Each sweep: one halo of dc, one reverse halo of the ghost columns'
 * maxima, one MPI_Allreduce. */
hpls_status hpls_dcsr_ruiz(hpls_dcsr *D, double tol, int maxsweeps, double *dr, double *dc,
                           int *sweeps);

/* reorder and scale on a distributed matrix (dist_transform.c).  T has D's
 * row blocks, so b and x keep their local sizes. */
typedef struct hpls_dtrans {
    hpls_dcsr *D; /* the user's matrix (not owned) */
    hpls_dcsr *T; /* the transformed matrix Dr P A Q Dc, on D's row blocks (owned) */
    int at_root;  /* 1: rank 0 computed the transformation; b and x pass through it */
    /* at_root = 0 (scale=ruiz alone): my rows' dr and my columns' dc (nlocal
     * each); at_root = 1: rank 0's n-long permutation and factors (the
     * solver's perm, rp, cp, dr, dc of one process), NULL elsewhere */
    hpls_int *perm;
    const hpls_int *rp, *cp;
    double *dr, *dc;
    hpls_real *ub, *tb; /* rank 0, at_root: a whole vector in A's order and in T's */
    int *cnt, *disp;    /* at_root: every rank's rows, as MPI's counts and displacements */
} hpls_dtrans;

/* s->dtr for s's reorder and scale options on D, with s->pb, px, pr (nlocal)
 * and s->fmt saying what was done (rank 0's).  Ruiz's tolerance and sweeps
 * are the solver's. */
hpls_status hpls_dtrans_setup(hpls_solver *s, hpls_dcsr *D, double ruiz_tol, int ruiz_sweeps);
void hpls_dtrans_destroy(hpls_dtrans *t); /* accepts NULL */
/* s->pb, s->px: the transformed system's b and x from the user's (my rows);
 * x = Dc Q px back from s->px (hpls_solver_to_inner and
 * hpls_solver_from_inner, solver/transform.c). */
void hpls_dtrans_to_inner(hpls_solver *s, const hpls_real *b, const hpls_real *x);
void hpls_dtrans_from_inner(hpls_solver *s, hpls_real *x);
/* ||b - A x|| on the user's A (r into s->pr); NaN after a failure, recorded
 * in s->be. */
double hpls_dtrans_residual(hpls_solver *s, const hpls_real *b, const hpls_real *x);

#endif /* HPLS_MPI_DCSR_OPS_H */
