/* SPDX-License-Identifier: BSD-3-Clause */
/* dist_solver.c: the solver on a matrix distributed over MPI ranks
 * (hpls_mpi.h): what runs there, its setup and update (collective), the
 * counts of a solve's communication, and the environment of its solves: the
 * MPI hooks of the driver (solver/driver.h's hpls_env), which has no MPI in
 * it. */
#include "options.h"
#include "solver/driver.h"

#include "mpi/dcsr_ops.h"
#include "mpi/dist.h"

#include <stdio.h>
#include <string.h>

/* The distributed matrix the user set s up with (s->dist is the transformed
 * one under reorder or scale). */
static const hpls_dcsr *user_dcsr(const hpls_solver *s)
{
    return s->dtr ? s->dtr->D : s->dist;
}

/* ---- the environment of a distributed solver (s->env) ---------------------- */

/* The mpi backend on my rows (its sums made exact under reproducible=1). */
static hpls_status dist_backend(hpls_solver *s, int threads)
{
    return hpls_backend_create_mpi(s->dist, threads, (int)s->opt.reproducible, &s->be);
}

static void dist_operator(hpls_solver *s, hpls_int n)
{
    (void)n; /* my rows: s->dist->nlocal */
    s->op = hpls_op_dcsr(s->be, s->dist);
    /* HISA's S x and PJG's sweeps over the ranks; T's direct methods on more than one */
    s->op.dk = s->dist->size > 1 ? &hpls_dist_ops : &hpls_dist_ops_one;
}

/* Ad^T + the reverse halo (after hpls_dcsr_set_values too, which drops Ao^T). */
static hpls_status dist_transpose(hpls_solver *s)
{
    return hpls_op_dcsr_transpose(&s->op);
}

static hpls_status dist_precond(hpls_solver *s, hpls_int n)
{
    if (s->dist && hpls_precond_size(s->ext_pc) != n) /* block Jacobi: it acts on my rows */
        return hpls_fail(HPLS_ERR_SIZE,
                         "the preconditioner object is %lld x %lld (or not set up: -1), rank "
                         "%d has %lld rows: on a distributed matrix each rank's object acts on "
                         "its own rows (set it up on the rank's diagonal block)",
                         (long long)hpls_precond_size(s->ext_pc),
                         (long long)hpls_precond_size(s->ext_pc), s->dist->rank, (long long)n);
    return HPLS_OK;
}

/* The values checked current on every rank, the counts reset; reorder and
 * scale are s->dtr's (every rank's, whatever rank 0 holds). */
static hpls_status dist_start(hpls_solver *s, int *scaled, int *moved)
{
    /* every rank sees the same version (hpls_dcsr_set_values is collective) */
    if (s->dist && user_dcsr(s)->version != s->dist_version)
        return hpls_solver_fail(s, HPLS_ERR_STATE,
                                "the distributed matrix's values changed since the setup "
                                "(hpls_dcsr_set_values): call hpls_solver_update_dcsr first");
    if (s->dist) {
        hpls_mpi_reset_counts(s->be);
        s->dist->messages = 0;
    }
    if (s->dtr) { /* reorder, scale on the ranks (src/mpi/dist_transform.c) */
        *scaled = s->opt.scale != 0;
        *moved = 1;
        s->dtr->D->messages = 0;
    }
    return HPLS_OK;
}

/* The status of a distributed solve on every rank: the first failing rank's. */
static hpls_status dist_agree(hpls_solver *s, hpls_status st)
{
    return hpls_mpi_agree(s->dist->comm, st, hpls_mpi_stopped(s->be),
                          st == HPLS_ERR_VALUE ? s->msg : NULL, sizeof s->msg);
}

/* At the end of a solve, always; at the end of its solve on the backend
 * (inner) where x goes back through collectives (hpls_dtrans_from_inner):
 * every rank or none. */
static hpls_status dist_agree_solve(hpls_solver *s, hpls_status st, int inner)
{
    if (inner && !s->dtr)
        return st;
    return dist_agree(s, st);
}

static void dist_release(hpls_solver *s)
{
    hpls_dtrans_destroy(s->dtr);
    s->dtr = NULL;
}

static const hpls_env env_mpi = {
    .make_backend = dist_backend,
    .make_operator = dist_operator,
    .op_transpose = dist_transpose,
    .check_precond = dist_precond,
    .to_inner = hpls_dtrans_to_inner,
    .from_inner = hpls_dtrans_from_inner,
    .user_residual = hpls_dtrans_residual,
    .solve_start = dist_start,
    .agree = dist_agree_solve,
    .release = dist_release,
};

/* What runs on a distributed matrix: the methods flagged HPLS_M_DIST on any
 * number of ranks, every method on one.  reorder and scale transform the
 * distributed system (src/mpi/dist_transform.c), format=qtree stores each
 * rank's diagonal block as a quad-tree (src/mpi/dcsr_spmv.c), and a
 * preconditioner object acts on each rank's rows (block Jacobi). */
static hpls_status check_dist(hpls_solver *s, const hpls_dcsr *D)
{
    const hpls_options *o = &s->opt;
    if (o->backend != 0)
        return hpls_solver_fail(s, HPLS_ERR_OPTION,
                                "backend=%s runs in one process: under MPI "
                                "the backend is mpi",
                                hpls_optset_get(&s->os, "backend"));
    if (D->size > 1 && !(o->method->flags & HPLS_M_DIST))
        return hpls_solver_fail(s, HPLS_ERR_OPTION,
                                "solver %s is not distributed yet: it runs "
                                "on 1 MPI rank, not %d (distributed: jacobi, gs, sor, ssor, pjg, "
                                "hisa, bhisa, thomas, cr, gspike, lapack and the Krylov "
                                "methods)",
                                o->method->name, D->size);
    return HPLS_OK;
}

/* Under MPI reproducible=1 also needs every product summed as one process
 * sums it: A x is (dcsr_spmv.c), but A^T x adds the ranks' parts at the
 * owners, and reorder and scale make another system on the ranks. */
static hpls_status check_reproducible_dist(hpls_solver *s)
{
    const hpls_options *o = &s->opt;
    if (!o->reproducible)
        return HPLS_OK;
    if (o->method->flags & HPLS_M_TRANSPOSE)
        return hpls_solver_fail(s, HPLS_ERR_OPTION,
                                "reproducible=1 under MPI: solver %s applies A^T, whose product "
                                "adds the ranks' parts in another order than one process; run "
                                "it in one process, or use reproducible=0",
                                o->method->name);
    if (o->reorder || o->scale)
        return hpls_solver_fail(s, HPLS_ERR_OPTION,
                                "reproducible=1 under MPI: %s builds another system on the ranks "
                                "(not one process's bits); run it in one process, or use "
                                "reproducible=0",
                                o->reorder ? "reorder" : "scale");
    return HPLS_OK;
}

/* A failure's message names rows in my block's numbering: say where the
 * block starts (a size error names none). */
static void name_block_rows(hpls_solver *s, const hpls_dcsr *D, hpls_status st)
{
    if (st == HPLS_OK || st == HPLS_ERR_SIZE || D->first == 0)
        return;
    size_t used = strlen(s->msg);
    snprintf(s->msg + used, sizeof s->msg - used,
             " (a row of rank %d's block: its row 1 is row %lld of %s)", D->rank,
             (long long)D->first + 1, s->opt.reorder ? "the reordered A" : "A");
}

/* The end of a distributed setup or update, collective: the first failing
 * rank's status on every rank, the solver torn down on all; else what hisa
 * and pjg settle over the ranks (mpi/dist.h), and D's version taken. */
static hpls_status dist_setup_end(hpls_solver *s, const hpls_dcsr *D, hpls_status st)
{
    st = hpls_mpi_agree(D->comm, st, 0, s->msg, sizeof s->msg);
    if (st != HPLS_OK) {
        hpls_solver_teardown(s);
        return st;
    }
    hpls_dist_agree(s);
    s->dist_version = D->version;
    return HPLS_OK;
}

hpls_status hpls_solver_setup_dcsr(hpls_solver *s, hpls_dcsr *D)
{
    if (!s || !D)
        return hpls_fail(HPLS_ERR_ARG, "hpls_solver_setup_dcsr: NULL argument");
    double t0 = hpls_wtime();
    hpls_solver_teardown(s);
    s->env = &env_mpi;
    s->msg[0] = '\0';
    hpls_status st = hpls_solver_check_options(s);
    if (st == HPLS_OK)
        st = check_reproducible_dist(s);
    if (st == HPLS_OK)
        st = check_dist(s, D);
    if (s->opt.reorder || s->opt.scale) { /* collective: every rank or none */
        st = hpls_mpi_agree(D->comm, st, 0, s->msg, sizeof s->msg);
        if (st == HPLS_OK &&
            (st = hpls_dtrans_setup(s, D, HPLS_RUIZ_TOL, HPLS_RUIZ_SWEEPS)) != HPLS_OK)
            hpls_solver_transform_fail(s, st);
    }
    if (st == HPLS_OK) {
        /* the transformed matrix has D's row blocks; it is kept out of a teardown
         * by hpls_solver_setup_common failing on this rank only: its communicator is freed
         * by every rank together, after the agreement below */
        hpls_dtrans *tr = s->dtr;
        s->dtr = NULL;
        s->dist = tr ? tr->T : D;
        s->A = s->dist->Ad;
        s->Auser = D->Ad;
        st = hpls_solver_setup_common(s, D->nlocal, t0);
        s->dtr = tr;
        name_block_rows(s, D, st);
    }
    if ((st = dist_setup_end(s, D, st)) == HPLS_OK) {
        /* x is scanned after a solve (collectively) unless every rank's
         * diagonal block stores all its columns: decided once, by all */
        int all = s->cols_stored;
        MPI_Allreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_MIN, D->comm);
        s->cols_stored = all;
    }
    return st;
}

hpls_status hpls_solver_update_dcsr(hpls_solver *s, hpls_dcsr *D)
{
    if (!s || !D)
        return hpls_fail(HPLS_ERR_ARG, "hpls_solver_update_dcsr: NULL argument");
    double t0 = hpls_wtime();
    s->msg[0] = '\0';
    /* s's state is the same on every rank: it changes only through calls
     * every rank makes alike (the options; setup_dcsr and update_dcsr, whose
     * failures the ranks agree on), so the check needs no agreement, as
     * hpls_solver_solve's checks of it have none */
    if (!s->ready || !s->dist || user_dcsr(s) != D)
        return hpls_solver_fail(s, HPLS_ERR_STATE,
                                "hpls_solver_update_dcsr needs a solver set up with this "
                                "distributed matrix (hpls_solver_setup_dcsr(s, D))");
    if (s->qt || s->dtr) /* the quad-tree's and the transformed system's copies of A */
        return hpls_solver_setup_dcsr(s, D);
    hpls_be_clear(s->be);
    hpls_status st = hpls_solver_update_numeric(s, D->Ad);
    if (st != HPLS_OK) {
        hpls_solver_fail(s, st, "update of %s: %s", s->opt.method->name, hpls_last_error());
        name_block_rows(s, D, st);
    }
    if ((st = dist_setup_end(s, D, st)) == HPLS_OK)
        s->info.setup_s = hpls_wtime() - t0;
    return st;
}

hpls_status hpls_solver_mpi_volume(const hpls_solver *s, hpls_mpi_vol *v)
{
    if (!s || !s->ready || !s->dist)
        return hpls_fail(HPLS_ERR_STATE, "hpls_solver_mpi_volume: no distributed solver");
    return hpls_mpi_volume(s->be, s->dist, v);
}

hpls_status hpls_solver_mpi_counts(const hpls_solver *s, long long *reductions, long long *messages)
{
    if (!s || !s->ready || !s->dist)
        return hpls_fail(HPLS_ERR_STATE, "hpls_solver_mpi_counts: no distributed solver");
    long long mine[2] = {hpls_mpi_reductions(s->be),
                         s->dist->messages + (s->dtr ? s->dtr->D->messages : 0)},
              all[2];
    MPI_Allreduce(mine, all, 2, MPI_LONG_LONG, MPI_SUM, s->dist->comm);
    *reductions = all[0] / s->dist->size; /* every rank makes each reduction */
    *messages = all[1];
    return HPLS_OK;
}
