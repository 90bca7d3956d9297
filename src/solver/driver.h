/* SPDX-License-Identifier: BSD-3-Clause */
/* driver.h: what the files of the driver (src/solver/) share, and the
 * environment a solver runs in (hpls_env), whose MPI hooks src/mpi/
 * (dist_solver.c) gives: the only file outside src/solver/ that includes
 * this one.  Methods see their context (iter/method.h), preconditioners
 * their options (precond/pc.h). */
#ifndef HPLS_DRIVER_H
#define HPLS_DRIVER_H

#include "solver.h"

/* Ruiz's stopping tolerance and sweep limit (scale=ruiz): a loose one, since
 * the scaling only has to bring the magnitudes near 1, not to equal it. */
enum { HPLS_RUIZ_SWEEPS = 20 };
static const double HPLS_RUIZ_TOL = 1e-2;

/* solver.c */
/* s->mc, the method's context, from the solver: before the method's setup and
 * before each solve (options the solve alone reads may have changed). */
void hpls_solver_context(hpls_solver *s);
/* Frees what setup built (kept: options, monitor, history). */
void hpls_solver_teardown(hpls_solver *s);

/* setup.c */
/* An option the method or its preconditioner does not use, or one that
 * reproducible=1 refuses: the error, with its message; else HPLS_OK. */
hpls_status hpls_solver_check_options(hpls_solver *s);
/* The setup every storage shares, s->A, s->Ad or s->shell set (t0: its start). */
hpls_status hpls_solver_setup_common(hpls_solver *s, hpls_int n, double t0);
/* The setup of A (CSR) with the options in effect. */
hpls_status hpls_solver_setup_csr(hpls_solver *s, const hpls_csr *A, double t0);
/* The new values of A (same pattern) through every piece set up from them. */
hpls_status hpls_solver_update_numeric(hpls_solver *s, const hpls_csr *A);

/* solve.c */
/* One solve of the system set up, on the backend: bb, xx on the host. */
hpls_status hpls_solver_solve_on_backend(hpls_solver *s, hpls_real *bb, hpls_real *xx);
/* One solve with the method set up (the caller checked the arguments). */
hpls_status hpls_solver_solve_once(hpls_solver *s, const hpls_vec *b, hpls_vec *x);

/* format.c */
/* format=qtree (or a method on the quad-tree): A's quad-tree, or CSR kept; s->fmt says why. */
hpls_status hpls_solver_setup_format(hpls_solver *s);

/* transform.c */
/* The message of a failed reorder or scale; returns st. */
hpls_status hpls_solver_transform_fail(hpls_solver *s, hpls_status st);
/* s->pb, s->px: the transformed system's b and x from the user's. */
void hpls_solver_to_inner(hpls_solver *s, const hpls_real *b, const hpls_real *x);
/* The user's x from the transformed system's s->px. */
void hpls_solver_from_inner(hpls_solver *s, hpls_real *x);
/* ||b - A x|| on the user's A (s->pr holds the residual). */
double hpls_solver_user_residual(hpls_solver *s, const hpls_real *b, const hpls_real *x);
/* A solve under scale=, confirmed on ||b - A x|| for the user's A. */
hpls_status hpls_solver_solve_scaled(hpls_solver *s, const hpls_real *b, hpls_real *x);

/* auto.c */
/* The user's options back where solver=auto's candidate is in effect. */
void hpls_solver_auto_restore(hpls_solver *s);
/* solver=auto's setup: the first candidate of the advice for A that sets up. */
hpls_status hpls_solver_setup_auto(hpls_solver *s, const hpls_csr *A, double t0);
/* A solve that did not converge, again with the next candidate (x0: the initial guess). */
hpls_status hpls_solver_auto_fall_back(hpls_solver *s, const hpls_vec *b, hpls_vec *x,
                                       const hpls_real *x0);

/* The environment of a solver (s->env): where one process and a matrix
 * distributed over MPI ranks differ, as hooks, so that the driver has no MPI
 * in it.  hpls_env_local (env.c) is one process's, set by every setup but
 * hpls_solver_setup_dcsr, which sets src/mpi/dist_solver.c's. */
typedef struct hpls_env {
    /* s->be for the options in effect, on `threads` threads */
    hpls_status (*make_backend)(hpls_solver *s, int threads);
    /* s->op on s->be for the matrix set up (s->A, s->Ad or s->shell; n rows) */
    void (*make_operator)(hpls_solver *s, hpls_int n);
    /* what A^T x needs beyond s->op.At = s->At, once that is set (setup, update) */
    hpls_status (*op_transpose)(hpls_solver *s);
    /* a preconditioner object of size other than n refused with this
     * environment's message (else the driver's own check follows) */
    hpls_status (*check_precond)(hpls_solver *s, hpls_int n);
    /* reorder and scale at each solve (transform.c): s->pb, s->px from the
     * user's b and x; x back from s->px; ||b - A x|| on the user's A */
    void (*to_inner)(hpls_solver *s, const hpls_real *b, const hpls_real *x);
    void (*from_inner)(hpls_solver *s, hpls_real *x);
    double (*user_residual)(hpls_solver *s, const hpls_real *b, const hpls_real *x);
    /* the start of a solve: what must hold first, counters reset; *scaled
     * and *moved (set from s->dr, s->Aperm) say how the system is transformed */
    hpls_status (*solve_start)(hpls_solver *s, int *scaled, int *moved);
    /* st as every rank sees it, at the end of a solve and (inner) of its
     * solve on the backend, before x is carried back */
    hpls_status (*agree)(hpls_solver *s, hpls_status st, int inner);
    /* what teardown frees after the backend */
    void (*release)(hpls_solver *s);
} hpls_env;

/* env.c: one process's environment. */
extern const hpls_env hpls_env_local;

#endif
