/* SPDX-License-Identifier: BSD-3-Clause */
/* dist_tridiag.c: the tridiagonal direct methods, `--solver thomas|cr|gspike|
 * lapack`, on a matrix distributed over more than one MPI rank (one rank runs
 * the one-process methods of src/direct unchanged):
 *
 *   gspike: distributed (dist_gspike.c): gspike_p partitions per rank, the
 *     reduced system gathered to rank 0 and solved there;
 *   thomas, cr, lapack: T is gathered to rank 0, which factors it by the
 *     one-process method; every solve gathers b to rank 0 and scatters x back.
 *     Not parallel: 3n values reach rank 0 once and n each way per solve, and
 *     rank 0 holds all of T and its factors; but the same bits as one process
 *     (the same code on the same T), which is what a reference method is for.
 *     Their distributed forms would be Spike with each rank's block factored
 *     without pivoting across ranks (ScaLAPACK's pddtsv): they would fail on
 *     matrices these methods solve on one process.
 * What is "singular" must not depend on the rank count or gspike_p: every
 * method decides by one process's test (hpls_tridiag_condition).  Its fast
 * path, the diagonal dominance bound, is computed on the ranks with the same
 * bits (dist_dominance); where it proves T well-conditioned gspike needs
 * nothing more, else T is gathered to rank 0 once for the LU test and dgtcon.
 * Either way the true residual is computed distributed and decides the reason,
 * as one process does. */
#include "mpi/dist_gspike.h"

#include "direct/direct.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct dist_tridiag {
    hpls_dcsr *D;
    hpls_dgspike *gs;        /* gspike: the distributed factors */
    hpls_tridiag_factors *F; /* thomas, cr, lapack: rank 0's factors of the gathered T */
    hpls_real *bx;           /* rank 0: b gathered, then x (n values) */
    char how[160];           /* how it runs on the ranks (hpls_solver_dist_note) */
} dist_tridiag;

static void destroy_dist(void *p)
{
    dist_tridiag *t = p;
    if (!t)
        return;
    hpls_dgspike_free(t->gs);
    hpls_tridiag_factors_destroy(t->F);
    hpls_free(t->bx);
    hpls_free(t);
}

/* One process's dominance bound (direct/dominance.c) from my rows l, d, u:
 * the column terms across rank boundaries from the nearest ranks that have
 * rows, the gaps and ||T||_1 combined by exact min / max (collective). */
static hpls_status dist_dominance(const hpls_dcsr *D, const hpls_real *l, const hpls_real *d,
                                  const hpls_real *u, int nt, double *bound)
{
    hpls_int m = D->nlocal;
    double mine[2] = {m ? fabs(l[0]) : 0.0, m ? fabs(u[m - 1]) : 0.0};
    double *ends = hpls_malloc(2 * (hpls_int)D->size, sizeof *ends);
    hpls_status st = hpls_mpi_agree(D->comm, ends ? HPLS_OK : HPLS_ERR_NOMEM, 0, NULL, 0);
    if (st != HPLS_OK) {
        hpls_free(ends);
        return st;
    }
    MPI_Allgather(mine, 2, MPI_DOUBLE, ends, 2, MPI_DOUBLE, D->comm);
    hpls_tridiag_dom_edge e = {0};
    for (int q = D->rank - 1; q >= 0; q--)
        if (D->rowstart[q + 1] > D->rowstart[q]) {
            e.above = ends[2 * q + 1];
            break;
        }
    for (int q = D->rank + 1; q < D->size; q++)
        if (D->rowstart[q + 1] > D->rowstart[q]) {
            e.below = ends[2 * q];
            break;
        }
    hpls_free(ends);
    hpls_tridiag_dom dom;
    hpls_tridiag_dominance_rows(m, l, d, u, &e, nt, &dom);
    double v[2] = {dom.cgap, -dom.cnorm}; /* negated: one MPI_MIN for both */
    MPI_Allreduce(MPI_IN_PLACE, v, 2, MPI_DOUBLE, MPI_MIN, D->comm);
    dom = (hpls_tridiag_dom){.cgap = v[0], .cnorm = -v[1]};
    *bound = hpls_tridiag_dominance_bound(&dom, D->n);
    return HPLS_OK;
}

/* Singular or not, decided as one process does (the same answer for every
 * rank count and gspike_p; mc->rcond on every rank): gspike is done when the
 * dominance bound proves T well-conditioned.  Else T is gathered to rank 0,
 * where hpls_tridiag_condition decides on the whole T and method m factors
 * it unless m is gspike, which is factored distributed (collective). */
static hpls_status gather_factor(hpls_mctx *mc, dist_tridiag *t, hpls_tridiag_method m)
{
    hpls_dcsr *D = t->D;
    hpls_real *l = NULL, *d = NULL, *u = NULL;
    hpls_tridiag *T = NULL;
    hpls_status st = hpls_dcsr_tridiag(D, mc->name, &l, &d, &u);
    if (m == HPLS_TRIDIAG_GSPIKE) {
        st = hpls_mpi_agree(D->comm, st, 0, NULL, 0);
        if (st == HPLS_OK)
            st = dist_dominance(D, l, d, u, mc->be->nthreads, &mc->rcond);
        if (st != HPLS_OK || mc->rcond >= HPLS_TRIDIAG_DOMINANT_RCOND) {
            hpls_free(l);
            hpls_free(d);
            hpls_free(u);
            return st;
        }
    }
    if (st == HPLS_OK && D->rank == 0) {
        st = hpls_tridiag_create(D->n, &T);
        if (st == HPLS_OK && m != HPLS_TRIDIAG_GSPIKE &&
            !(t->bx = hpls_malloc(D->n + 1, sizeof *t->bx)))
            st = HPLS_ERR_NOMEM;
    }
    st = hpls_mpi_agree(D->comm, st, 0, NULL, 0);
    if (st == HPLS_OK)
        st = hpls_dcsr_gather_vec(D, 0, l, T ? T->dl : NULL);
    if (st == HPLS_OK)
        st = hpls_dcsr_gather_vec(D, 0, d, T ? T->d : NULL);
    if (st == HPLS_OK)
        st = hpls_dcsr_gather_vec(D, 0, u, T ? T->du : NULL);
    if (st == HPLS_OK) {
        if (D->rank == 0) { /* as hpls_setup_tridiag does in one process */
            const hpls_tridiag_opts o = {.partitions = mc->opt.gspike_p,
                                         .delta = mc->opt.gspike_delta,
                                         .threads = mc->be->nthreads};
            st = hpls_tridiag_condition(T, mc->name, mc->be->nthreads, &mc->rcond);
            if (st == HPLS_OK && m != HPLS_TRIDIAG_GSPIKE)
                st = hpls_tridiag_factor(T, m, &o, &t->F);
        }
        st = hpls_mpi_agree(D->comm, st, 0, NULL, 0);
        if (st == HPLS_OK)
            MPI_Bcast(&mc->rcond, 1, MPI_DOUBLE, 0, D->comm);
    }
    hpls_tridiag_destroy(T);
    hpls_free(l);
    hpls_free(d);
    hpls_free(u);
    return st;
}

hpls_status hpls_setup_tridiag_dist(hpls_mctx *mc)
{
    hpls_dcsr *D = mc->op->D;
    hpls_tridiag_method m;
    hpls_status st = hpls_tridiag_method_from_name(mc->name, &m);
    if (st != HPLS_OK)
        return st;
    dist_tridiag *t = hpls_calloc(1, sizeof *t);
    st = hpls_mpi_agree(D->comm, t ? HPLS_OK : HPLS_ERR_NOMEM, 0, NULL, 0);
    if (st != HPLS_OK) {
        hpls_free(t);
        return st;
    }
    t->D = D;
    st = gather_factor(mc, t, m);
    if (st == HPLS_OK && m == HPLS_TRIDIAG_GSPIKE) {
        st = hpls_dgspike_factor(D, mc->be->nthreads, mc->opt.gspike_p, mc->opt.gspike_delta,
                                 &t->gs);
        if (st == HPLS_OK)
            snprintf(t->how, sizeof t->how,
                     "g-Spike on %d ranks: %lld partitions (%lld singular), reduced system of "
                     "%lld rows gathered to rank 0",
                     D->size, (long long)hpls_dgspike_partitions(t->gs),
                     (long long)hpls_dgspike_singular_blocks(t->gs),
                     (long long)hpls_dgspike_reduced_order(t->gs));
    } else if (st == HPLS_OK) {
        snprintf(t->how, sizeof t->how,
                 "%s on %d ranks: T gathered to rank 0 and solved there (3n values once, n "
                 "each way per solve)",
                 mc->name, D->size);
    }
    if (st != HPLS_OK) {
        destroy_dist(t);
        return st;
    }
    mc->mdata = t;
    mc->mdata_destroy = destroy_dist;
    return HPLS_OK;
}

hpls_status hpls_solve_tridiag_dist(hpls_mctx *mc, const hpls_dvec *b, hpls_dvec *x)
{
    dist_tridiag *t = mc->mdata;
    const hpls_real *bp = hpls_v_host(mc->be, b); /* the mpi backend's: my rows of the arrays */
    hpls_real *xp = hpls_v_host(mc->be, x);
    if (!bp || !xp)
        return mc->be->err;
    hpls_status st = HPLS_OK;
    if (t->gs) {
        hpls_dgspike_solve(t->gs, bp, xp);
    } else {
        st = hpls_dcsr_gather_vec(t->D, 0, bp, t->bx);
        if (st == HPLS_OK) {
            if (t->D->rank == 0)
                st = hpls_tridiag_solve_factored(t->F, 1, t->bx, t->bx);
            st = hpls_mpi_agree(t->D->comm, st, 0, NULL, 0);
        }
        if (st == HPLS_OK)
            st = hpls_dcsr_scatter_vec(t->D, 0, t->bx, xp);
    }
    if (st != HPLS_OK)
        return st;
    /* a direct solve is one step: its true residual decides the reason */
    if (hpls_conv_start(mc, hpls_m_op_residual(mc, b, x, mc->work[0])) == HPLS_NOT_RUN)
        mc->info.reason = HPLS_DIVERGED_STAGNATION;
    return HPLS_OK;
}

/* The solver's own data is ours when its destroy is (one rank: src/direct's). */
static const dist_tridiag *ours(const hpls_solver *s)
{
    return s && s->ready && s->mc.mdata_destroy == destroy_dist ? s->mc.mdata : NULL;
}

hpls_int hpls_solver_gspike_singular(const hpls_solver *s)
{
    if (!s || !s->ready || !s->mc.mdata || strcmp(s->opt.method->name, "gspike") != 0)
        return -1;
    return ours(s) ? hpls_dgspike_singular_blocks(ours(s)->gs)
                   : hpls_tridiag_solver_singular(s->mc.mdata);
}

const char *hpls_solver_dist_note(const hpls_solver *s)
{
    return ours(s) ? ours(s)->how : NULL;
}
