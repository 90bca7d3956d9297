/* SPDX-License-Identifier: BSD-3-Clause */
/* dist_transform.c: the solver's reorder and scale options (solver/transform.c's
 * hpls_solver_transform: Aperm = Dr P A Q Dc) on a matrix distributed by rows.
 * The transformed matrix T keeps the user's row blocks (rank p owns the rows
 * of T that it owns of A), so b and x keep their local sizes and the methods
 * run on T as on any distributed matrix.  Two ways, by what the option needs:
 *
 *  - scale=ruiz alone is local to rows and columns: Ruiz's sweeps run
 *    distributed (dist_ruiz.c: the one-process dr and dc bit for bit),
 *    T = Dr A Dc is each rank's rows scaled (the ghost columns' dc through
 *    one halo), and b, x are scaled on each rank with no message.
 *  - reorder=rcm|matching and scale=matching (or ruiz with a reorder) are
 *    global: an ordering of the graph of A, a matching of its rows to its
 *    columns weighed by the values.  A is gathered on rank 0 (pattern and
 *    values, hpls_dcsr_gather), which runs the one-process transformation
 *    (the same permutation and factors as one process) and sends each rank
 *    its rows of T.  Each solve gathers b and x on rank 0, which permutes and
 *    scales them and scatters them back, and x returns the same way: 6
 *    transfers of n values through rank 0 per solve (a gather or a scatter
 *    each), 6 more per extra round of scale's confirmation.  Rank 0 holds A
 *    whole once at setup, as when it reads
 *    the file, also for a generated matrix (--gen): that is the price of a
 *    global ordering here (no distributed RCM or matching).
 *
 * The true residual is the user's: on the permuted system its norm is the
 * same; with scaling, solver/transform.c's rounds of confirmation test ||b - A x|| on
 * the user's distributed A (hpls_dtrans_residual). */
#include "mpi/dcsr_ops.h"

#include <math.h>
#include <stdio.h>

/* scale=ruiz alone: dr, dc on the ranks, T = Dr A Dc on D's rows. */
static hpls_status setup_ruiz(hpls_solver *s, hpls_dtrans *t, double tol, int maxsweeps)
{
    hpls_dcsr *D = t->D;
    hpls_int *rp = NULL, *gc = NULL;
    hpls_real *v = NULL;
    int sweeps = 0;
    t->dr = hpls_malloc(D->nlocal + 1, sizeof *t->dr);
    t->dc = hpls_malloc(D->nlocal + 1, sizeof *t->dc);
    hpls_status st = hpls_mpi_agree(D->comm, t->dr && t->dc ? HPLS_OK : HPLS_ERR_NOMEM, 0, NULL, 0);
    if (st == HPLS_OK)
        st = hpls_dcsr_ruiz(D, tol, maxsweeps, t->dr, t->dc, &sweeps);
    if (st == HPLS_OK) /* the ghost columns' final factors, then my rows scaled */
        st = hpls_dcsr_halo_start(D, t->dc);
    if (st == HPLS_OK)
        st = hpls_dcsr_halo_finish(D);
    if (st == HPLS_OK)
        st = hpls_dcsr_rows(D, t->dr, t->dc, D->ghost, &rp, &gc, &v);
    st = hpls_mpi_agree(D->comm, st, 0, NULL, 0);
    if (st == HPLS_OK)
        st = hpls_dcsr_create(D->comm, D->n, D->nlocal, rp, gc, v, &t->T);
    if (st == HPLS_OK)
        snprintf(s->fmt, sizeof s->fmt, "scale=ruiz (%d sweeps)", sweeps);
    hpls_free(rp);
    hpls_free(gc);
    hpls_free(v);
    return st;
}

/* A global ordering (or scale=matching): the one-process transformation of A
 * gathered on rank 0, T sent back in D's row blocks. */
static hpls_status setup_at_root(hpls_solver *s, hpls_dtrans *t)
{
    hpls_dcsr *D = t->D;
    hpls_csr *A = NULL, *Ap = NULL;
    t->at_root = 1;
    t->cnt = hpls_malloc(D->size, sizeof *t->cnt);
    t->disp = hpls_malloc(D->size, sizeof *t->disp);
    hpls_status st =
        hpls_mpi_agree(D->comm, t->cnt && t->disp ? HPLS_OK : HPLS_ERR_NOMEM, 0, NULL, 0);
    if (st == HPLS_OK)
        st = hpls_dcsr_gather(D, 0, &A); /* n <= INT_MAX: the counts below fit */
    if (st != HPLS_OK)
        return st;
    for (int q = 0; q < D->size; q++) {
        t->cnt[q] = (int)(D->rowstart[q + 1] - D->rowstart[q]);
        t->disp[q] = (int)D->rowstart[q];
    }
    if (D->rank == 0) {
        /* one process's hpls_solver_transform on the whole A; what it made is moved here */
        st = hpls_solver_transform(s, A);
        t->perm = s->perm;
        t->rp = s->rp;
        t->cp = s->cp;
        t->dr = s->dr;
        t->dc = s->dc;
        Ap = s->Aperm;
        s->perm = NULL;
        s->rp = s->cp = NULL;
        s->dr = s->dc = NULL;
        s->Aperm = NULL;
        if (st == HPLS_OK && (!(t->ub = hpls_malloc(D->n, sizeof *t->ub)) ||
                              !(t->tb = hpls_malloc(D->n, sizeof *t->tb))))
            st = HPLS_ERR_NOMEM;
        hpls_csr_destroy(A);
    }
    st = hpls_mpi_agree(D->comm, st, 0, NULL, 0);
    if (st == HPLS_OK)
        st = hpls_dcsr_scatter_like(D, 0, Ap, &t->T);
    hpls_csr_destroy(Ap);
    if (st == HPLS_OK) /* what was done, as rank 0 says it */
        MPI_Bcast(s->fmt, (int)sizeof s->fmt, MPI_CHAR, 0, D->comm);
    return st;
}

hpls_status hpls_dtrans_setup(hpls_solver *s, hpls_dcsr *D, double ruiz_tol, int ruiz_sweeps)
{
    hpls_dtrans *t = hpls_calloc(1, sizeof *t);
    hpls_status st = hpls_mpi_agree(D->comm, t ? HPLS_OK : HPLS_ERR_NOMEM, 0, NULL, 0);
    if (st != HPLS_OK) {
        hpls_free(t);
        return st;
    }
    t->D = D;
    s->dtr = t;
    if (s->opt.scale == 1 && !s->opt.reorder)
        st = setup_ruiz(s, t, ruiz_tol, ruiz_sweeps);
    else
        st = setup_at_root(s, t);
    if (st != HPLS_OK)
        return st;
    /* the transformed system's b and x, and the user's residual: my rows (rank 0's
     * whole ones of hpls_solver_transform are no longer needed) */
    hpls_free(s->pb);
    hpls_free(s->px);
    hpls_free(s->pr);
    s->pb = hpls_malloc(D->nlocal + 1, sizeof *s->pb);
    s->px = hpls_malloc(D->nlocal + 1, sizeof *s->px);
    s->pr = hpls_malloc(D->nlocal + 1, sizeof *s->pr);
    return hpls_mpi_agree(D->comm, s->pb && s->px && s->pr ? HPLS_OK : HPLS_ERR_NOMEM, 0, NULL, 0);
}

void hpls_dtrans_destroy(hpls_dtrans *t)
{
    if (!t)
        return;
    hpls_dcsr_destroy(t->T);
    hpls_free(t->perm);
    hpls_free(t->dr);
    hpls_free(t->dc);
    hpls_free(t->ub);
    hpls_free(t->tb);
    hpls_free(t->cnt);
    hpls_free(t->disp);
    hpls_free(t);
}

/* v (my rows) into rank 0's whole vector, and back. */
static void to_root(const hpls_dtrans *t, const hpls_real *mine, hpls_real *whole)
{
    const hpls_dcsr *D = t->D;
    MPI_Gatherv(mine, (int)D->nlocal, MPI_DOUBLE, whole, t->cnt, t->disp, MPI_DOUBLE, 0, D->comm);
}

static void from_root(const hpls_dtrans *t, const hpls_real *whole, hpls_real *mine)
{
    const hpls_dcsr *D = t->D;
    MPI_Scatterv(whole, t->cnt, t->disp, MPI_DOUBLE, mine, (int)D->nlocal, MPI_DOUBLE, 0, D->comm);
}

/* As hpls_solver_to_inner (solver/transform.c):
 * pb_k = dr_{rp_k} b_{rp_k}, px_l = x_{cp_l} / dc_{cp_l}. */
void hpls_dtrans_to_inner(hpls_solver *s, const hpls_real *b, const hpls_real *x)
{
    const hpls_dtrans *t = s->dtr;
    if (!t->at_root) { /* Ruiz: my rows and my columns */
        for (hpls_int i = 0; i < t->D->nlocal; i++) {
            s->pb[i] = t->dr[i] * b[i];
            s->px[i] = x[i] / t->dc[i];
        }
        return;
    }
    int root = t->D->rank == 0;
    to_root(t, b, t->ub);
    for (hpls_int k = 0; root && k < t->D->n; k++) {
        hpls_int i = t->rp ? t->rp[k] : k;
        t->tb[k] = (t->dr ? t->dr[i] : 1.0) * t->ub[i];
    }
    from_root(t, t->tb, s->pb);
    to_root(t, x, t->ub);
    for (hpls_int l = 0; root && l < t->D->n; l++) {
        hpls_int j = t->cp ? t->cp[l] : l;
        t->tb[l] = t->ub[j] / (t->dc ? t->dc[j] : 1.0);
    }
    from_root(t, t->tb, s->px);
}

/* As hpls_solver_from_inner (solver/transform.c): x_{cp_l} = dc_{cp_l} px_l. */
void hpls_dtrans_from_inner(hpls_solver *s, hpls_real *x)
{
    const hpls_dtrans *t = s->dtr;
    if (!t->at_root) {
        for (hpls_int i = 0; i < t->D->nlocal; i++)
            x[i] = t->dc[i] * s->px[i];
        return;
    }
    to_root(t, s->px, t->tb);
    for (hpls_int l = 0; t->D->rank == 0 && l < t->D->n; l++) {
        hpls_int j = t->cp ? t->cp[l] : l;
        t->ub[j] = (t->dc ? t->dc[j] : 1.0) * t->tb[l];
    }
    from_root(t, t->ub, x);
}

double hpls_dtrans_residual(hpls_solver *s, const hpls_real *b, const hpls_real *x)
{
    hpls_backend *be = s->be;
    hpls_dcsr *D = s->dtr->D;
    hpls_op op = hpls_op_dcsr(be, D); /* the user's A, on the solver's backend */
    hpls_dvec *B = NULL, *X = NULL, *R = NULL;
    double rn = NAN;
    hpls_status st = hpls_be_attach(be, D->nlocal, (hpls_real *)b, 1, &B);
    if (st == HPLS_OK)
        st = hpls_be_attach(be, D->nlocal, (hpls_real *)x, 1, &X);
    if (st == HPLS_OK)
        st = hpls_be_attach(be, D->nlocal, s->pr, 0, &R);
    if (st == HPLS_OK)
        st = op.residual(&op, B, X, R, &rn);
    hpls_be_detach(be, D->nlocal, R, s->pr, 1);
    hpls_be_detach(be, D->nlocal, X, (hpls_real *)x, 0);
    hpls_be_detach(be, D->nlocal, B, (hpls_real *)b, 0);
    if (st != HPLS_OK) {
        hpls_be_fail(be, st, "the residual on A: %s", hpls_last_error());
        return NAN;
    }
    return rn;
}
