/* SPDX-License-Identifier: BSD-3-Clause */
/* ops.c: the distributed operations of src/mpi/dcsr_ops.h on 1-4 ranks
 * (tests/mpi/ops.sh runs `mpiexec -np P test_mpi_ops`), each against the
 * whole matrix on rank 0 or against the solver's own option:
 *  - gather: the ranks' rows put together are the generator's matrix, entry
 *    for entry; cut again into the same row blocks, the same rows;
 *  - y = A^T x by the reverse halo: one process's A^T x bit for bit on one
 *    rank, to rounding on more (the sums of a column come in another order);
 *  - the quad-tree of each rank's diagonal block: y = A x bit for bit CSR's,
 *    y = A^T x to rounding;
 *  - Ruiz on the ranks: dr, dc and the sweeps bit for bit one process's;
 *  - a preconditioner object on each rank's rows (block Jacobi): the same
 *    iterations and the same x, bit for bit, as the precond option that
 *    builds the same M (ilu0 for bicgstab, ilu0 with M^-T for bicg, a shell
 *    D^-1 for precond=jacobi);
 *  - bad input: an object of the wrong size on one rank, a shell failing on
 *    the last rank: one status on every rank, and no hang (the timeout);
 *  - new values (hpls_dcsr_set_values, hpls_solver_update_dcsr): the updated
 *    solver gives the x of one set up afresh on them, bit for bit.
 * Rank 0 prints each failure and "N passed, M failed"; exit 1 on a failure. */
#include "mpi/dcsr_ops.h"

#include "la/matching.h"
#include "la/qtree.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, nranks, npass, nfail;

/* ok on every rank, else a failure named once by rank 0 */
static void check(const char *name, int ok)
{
    int all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (all) {
        npass++;
        return;
    }
    nfail++;
    if (!ok)
        fprintf(stderr, "rank %d: %s failed here (%s)\n", rank, name, hpls_last_error());
    if (rank == 0)
        printf("FAIL %s (np %d)\n", name, nranks);
}

static hpls_dcsr *generate(const char *spec)
{
    hpls_dcsr *D = NULL;
    if (hpls_dcsr_generate(MPI_COMM_WORLD, spec, &D, NULL) != HPLS_OK) {
        if (rank == 0)
            printf("cannot generate %s: %s\n", spec, hpls_last_error());
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return D;
}

/* x_i = sin(global index): no two entries equal */
static hpls_real *vector(const hpls_dcsr *D)
{
    hpls_real *x = hpls_malloc(D->nlocal + 1, sizeof *x);
    for (hpls_int i = 0; i < D->nlocal; i++)
        x[i] = sin((double)(D->first + i) + 1.0);
    return x;
}

/* The whole vector at rank 0 (n values there, NULL elsewhere). */
static hpls_real *whole(const hpls_dcsr *D, const hpls_real *mine)
{
    hpls_real *v = rank == 0 ? hpls_malloc(D->n, sizeof *v) : NULL;
    if (hpls_dcsr_gather_vec(D, 0, mine, v) != HPLS_OK)
        MPI_Abort(MPI_COMM_WORLD, 2);
    return v;
}

static int same_csr(const hpls_csr *A, const hpls_csr *B)
{
    return A && B && A->nrows == B->nrows && A->ncols == B->ncols && A->nnz == B->nnz &&
           !memcmp(A->rowptr, B->rowptr, (size_t)(A->nrows + 1) * sizeof *A->rowptr) &&
           !memcmp(A->colind, B->colind, (size_t)A->nnz * sizeof *A->colind) &&
           !memcmp(A->val, B->val, (size_t)A->nnz * sizeof *A->val);
}

/* max |y - z| / max |z| over n values */
static double relerr(hpls_int n, const hpls_real *y, const hpls_real *z)
{
    double d = 0, m = 0;
    for (hpls_int i = 0; i < n; i++) {
        d = fmax(d, fabs(y[i] - z[i]));
        m = fmax(m, fabs(z[i]));
    }
    return m > 0 ? d / m : d;
}

static void test_gather(const char *spec)
{
    hpls_dcsr *D = generate(spec), *E = NULL;
    hpls_csr *W = NULL, *A = NULL;
    hpls_vec *b = NULL;
    hpls_status st = hpls_dcsr_gather(D, 0, &W);
    check("gather: status", st == HPLS_OK);
    check("gather: the generator's matrix at rank 0",
          rank != 0 || (hpls_gen_csr(spec, &A, &b) == HPLS_OK && same_csr(A, W)));
    st = hpls_dcsr_scatter_like(D, 0, W, &E);
    int ok = st == HPLS_OK;
    if (ok) { /* my rows of E are my rows of D */
        hpls_int *rp[2], *gc[2];
        hpls_real *v[2];
        ok = hpls_dcsr_rows(D, NULL, NULL, NULL, &rp[0], &gc[0], &v[0]) == HPLS_OK &&
             hpls_dcsr_rows(E, NULL, NULL, NULL, &rp[1], &gc[1], &v[1]) == HPLS_OK;
        hpls_int m = D->nlocal, nz = ok ? rp[0][m] : 0;
        ok = ok && E->nlocal == m && E->first == D->first && rp[1][m] == nz &&
             !memcmp(rp[0], rp[1], (size_t)(m + 1) * sizeof *rp[0]) &&
             !memcmp(gc[0], gc[1], (size_t)nz * sizeof *gc[0]) &&
             !memcmp(v[0], v[1], (size_t)nz * sizeof *v[0]);
        for (int k = 0; k < 2; k++) {
            hpls_free(rp[k]);
            hpls_free(gc[k]);
            hpls_free(v[k]);
        }
    }
    check("scatter_like: the same rows back", ok);
    hpls_dcsr_destroy(E);
    hpls_csr_destroy(W);
    hpls_csr_destroy(A);
    hpls_vec_destroy(b);
    hpls_dcsr_destroy(D);
}

/* y = A^T x and the quad-tree's products on D, against rank 0's whole A. */
static void test_products(const char *spec)
{
    hpls_dcsr *D = generate(spec);
    hpls_backend *be = NULL;
    hpls_csr *AdT = NULL, *W = NULL, *WT = NULL;
    hpls_qtree *qt = NULL;
    hpls_real *x = vector(D), *y = hpls_malloc(D->nlocal + 1, sizeof *y),
              *z = hpls_malloc(D->nlocal + 1, sizeof *z);
    hpls_status st = hpls_backend_create_mpi(D, 2, 0, &be);
    if (st == HPLS_OK)
        st = hpls_csr_transpose(D->Ad, &AdT);
    if (st == HPLS_OK)
        st = hpls_qtree_create(D->Ad, 16, 0, 2, &qt);
    check("products: setup", st == HPLS_OK);
    hpls_op op = hpls_op_dcsr(be, D), oq;
    hpls_op_set_transpose(&op, AdT);
    check("products: transpose setup", hpls_op_dcsr_transpose(&op) == HPLS_OK);
    oq = op;
    hpls_op_set_qtree(&oq, qt);
    hpls_dvec *X = NULL, *Y = NULL, *Z = NULL;
    hpls_be_attach(be, D->nlocal, x, 1, &X);
    hpls_be_attach(be, D->nlocal, y, 0, &Y);
    hpls_be_attach(be, D->nlocal, z, 0, &Z);

    st = op.apply_t(&op, X, Y);
    check("A^T x: status", st == HPLS_OK);
    if (hpls_dcsr_gather(D, 0, &W) != HPLS_OK)
        MPI_Abort(MPI_COMM_WORLD, 2);
    hpls_real *xw = whole(D, x), *yw = whole(D, y), *ref = NULL;
    if (rank == 0) {
        ref = hpls_malloc(D->n, sizeof *ref);
        if (hpls_csr_transpose(W, &WT) != HPLS_OK)
            MPI_Abort(MPI_COMM_WORLD, 2);
        hpls_k_spmv(1, WT, xw, ref);
    }
    check("A^T x: one process's (bit for bit on 1 rank, else to 1e-14)",
          rank != 0 || (nranks == 1 ? !memcmp(yw, ref, (size_t)D->n * sizeof *ref)
                                    : relerr(D->n, yw, ref) <= 1e-14));

    st = op.apply(&op, X, Y);
    if (st == HPLS_OK)
        st = oq.apply(&oq, X, Z);
    check("quad-tree: A x bit for bit CSR's on each rank",
          st == HPLS_OK && !memcmp(y, z, (size_t)D->nlocal * sizeof *y));
    st = op.apply_t(&op, X, Y);
    if (st == HPLS_OK)
        st = oq.apply_t(&oq, X, Z);
    double e = st == HPLS_OK ? relerr(D->nlocal, z, y) : 1.0;
    MPI_Allreduce(MPI_IN_PLACE, &e, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    check("quad-tree: A^T x CSR's to 1e-14", e <= 1e-14);

    hpls_be_detach(be, D->nlocal, Z, z, 1);
    hpls_be_detach(be, D->nlocal, Y, y, 1);
    hpls_be_detach(be, D->nlocal, X, x, 0);
    hpls_free(xw);
    hpls_free(yw);
    hpls_free(ref);
    hpls_free(x);
    hpls_free(y);
    hpls_free(z);
    hpls_qtree_destroy(qt);
    hpls_csr_destroy(AdT);
    hpls_csr_destroy(W);
    hpls_csr_destroy(WT);
    hpls_backend_destroy(be);
    hpls_dcsr_destroy(D);
}

/* Ruiz on the ranks of a badly row- and column-scaled A, against one process's. */
static void test_ruiz(const char *spec)
{
    hpls_dcsr *D = generate(spec);
    /* rows times 10^(i mod 7 - 3), ghost and own columns times 10^(j mod 5 - 2) */
    for (hpls_int i = 0; i < D->nlocal; i++) {
        double r = pow(10.0, (double)((D->first + i) % 7) - 3.0);
        for (hpls_int p = D->Ad->rowptr[i]; p < D->Ad->rowptr[i + 1]; p++)
            D->Ad->val[p] *= r * pow(10.0, (double)((D->first + D->Ad->colind[p]) % 5) - 2.0);
        for (hpls_int p = D->Ao->rowptr[i]; p < D->Ao->rowptr[i + 1]; p++)
            D->Ao->val[p] *= r * pow(10.0, (double)(D->garray[D->Ao->colind[p]] % 5) - 2.0);
    }
    hpls_real *dr = hpls_malloc(D->nlocal + 1, sizeof *dr),
              *dc = hpls_malloc(D->nlocal + 1, sizeof *dc);
    int sweeps = 0;
    hpls_status st = hpls_dcsr_ruiz(D, 1e-2, 20, dr, dc, &sweeps);
    check("ruiz: status", st == HPLS_OK);
    hpls_csr *W = NULL;
    if (hpls_dcsr_gather(D, 0, &W) != HPLS_OK)
        MPI_Abort(MPI_COMM_WORLD, 2);
    hpls_real *drw = whole(D, dr), *dcw = whole(D, dc);
    int ok = 1;
    if (rank == 0) {
        double *r1 = hpls_malloc(D->n, sizeof *r1), *c1 = hpls_malloc(D->n, sizeof *c1);
        int s1 = hpls_scale_ruiz(W, 1e-2, 20, r1, c1);
        ok = s1 == sweeps && s1 > 1 && !memcmp(r1, drw, (size_t)D->n * sizeof *r1) &&
             !memcmp(c1, dcw, (size_t)D->n * sizeof *c1);
        if (!ok)
            printf("ruiz: %d sweeps here, %d in one process\n", sweeps, s1);
        hpls_free(r1);
        hpls_free(c1);
    }
    check("ruiz: dr, dc and sweeps bit for bit one process's", ok);
    hpls_free(drw);
    hpls_free(dcw);
    hpls_free(dr);
    hpls_free(dc);
    hpls_csr_destroy(W);
    hpls_dcsr_destroy(D);
}

/* A shell preconditioner: z = D^-1 r on my rows, failing (returning 1) at
 * application fail_at on the last rank when fail_at > 0. */
typedef struct shell_ctx {
    const hpls_real *d; /* my diagonal */
    int calls, fail_at;
} shell_ctx;

static int shell_jacobi(void *ctx, hpls_int n, const hpls_real *r, hpls_real *z)
{
    shell_ctx *c = ctx;
    if (++c->calls == c->fail_at && rank == nranks - 1)
        return 1;
    for (hpls_int i = 0; i < n; i++)
        z[i] = (1.0 / c->d[i]) * r[i];
    return 0;
}

/* A solver with options and object P (or none) set up on D. */
static hpls_status set_up(hpls_dcsr *D, const char *options, hpls_precond *P, hpls_solver **s)
{
    hpls_status st = hpls_solver_create(s);
    if (st == HPLS_OK)
        st = hpls_solver_set_options(*s, options);
    if (st == HPLS_OK && P)
        st = hpls_solver_set_precond(*s, P);
    if (st == HPLS_OK)
        st = hpls_solver_setup_dcsr(*s, D);
    return st;
}

/* A x = A 1 by s (set up on D), from x = 0. */
static hpls_status run(hpls_solver *s, hpls_dcsr *D, hpls_real *x)
{
    hpls_real *b = hpls_malloc(D->nlocal + 1, sizeof *b);
    hpls_dcsr_row_sums(D, b);
    memset(x, 0, (size_t)D->nlocal * sizeof *x);
    hpls_vec bv = {D->nlocal, b}, xv = {D->nlocal, x};
    hpls_status st = hpls_solver_solve(s, &bv, &xv);
    hpls_free(b);
    return st;
}

/* Solves A x = A 1 on D with options and object P (or none). */
static hpls_status solve(hpls_dcsr *D, const char *options, hpls_precond *P, hpls_real *x,
                         hpls_info *info, char *msg, size_t msglen)
{
    hpls_solver *s = NULL;
    *info = (hpls_info){0};
    hpls_status st = set_up(D, options, P, &s);
    if (st == HPLS_OK)
        st = run(s, D, x);
    hpls_solver_get_info(s, info);
    snprintf(msg, msglen, "%s", hpls_solver_message(s));
    hpls_solver_destroy(s);
    return st;
}

/* The option's M and the object's M are the same: the same iterates. */
static void same_solve(const char *name, hpls_dcsr *D, const char *options, const char *plain,
                       hpls_precond *P)
{
    hpls_real *x1 = hpls_malloc(D->nlocal + 1, sizeof *x1),
              *x2 = hpls_malloc(D->nlocal + 1, sizeof *x2);
    hpls_info i1, i2;
    char msg[512];
    hpls_status s1 = solve(D, options, NULL, x1, &i1, msg, sizeof msg);
    hpls_status s2 = solve(D, plain, P, x2, &i2, msg, sizeof msg);
    if (rank == 0 && (s1 != HPLS_OK || s2 != HPLS_OK || i1.iterations != i2.iterations))
        printf("%s: option %d (%lld iterations), object %d (%lld iterations): %s\n", name, s1,
               (long long)i1.iterations, s2, (long long)i2.iterations, msg);
    check(name, s1 == HPLS_OK && s2 == HPLS_OK && hpls_reason_converged(i1.reason) &&
                    i1.iterations == i2.iterations && i1.iterations > 1 &&
                    !memcmp(x1, x2, (size_t)D->nlocal * sizeof *x1));
    hpls_free(x1);
    hpls_free(x2);
}

static void test_precond_objects(const char *spec)
{
    hpls_dcsr *D = generate(spec);
    const char *opt = "tol=1e-10 threads=1";
    char a[256], b[256];
    hpls_precond *P = NULL;
    /* ilu0 on my diagonal block, as precond=ilu0 builds it */
    hpls_status st = hpls_precond_create(&P);
    if (st == HPLS_OK)
        st = hpls_precond_set_options(P, "precond=ilu0 trisolve=levels threads=1");
    if (st == HPLS_OK)
        st = hpls_precond_setup(P, D->Ad, HPLS_PRECOND_TRANSPOSE);
    check("precond object: setup on my block", st == HPLS_OK);
    snprintf(a, sizeof a, "solver=bicgstab precond=ilu0 trisolve=levels %s", opt);
    snprintf(b, sizeof b, "solver=bicgstab %s", opt);
    same_solve("precond object ilu0 = precond=ilu0 (bicgstab)", D, a, b, P);
    snprintf(a, sizeof a, "solver=bicg precond=ilu0 trisolve=levels %s", opt);
    snprintf(b, sizeof b, "solver=bicg %s", opt);
    same_solve("precond object ilu0 with M^-T = precond=ilu0 (bicg)", D, a, b, P);
    hpls_precond_destroy(P);

    /* a shell D^-1 against precond=jacobi */
    hpls_int *pos = hpls_malloc(D->nlocal + 1, sizeof *pos);
    hpls_real *d = hpls_malloc(D->nlocal + 1, sizeof *d);
    if (hpls_csr_diag_positions(D->Ad, pos) != HPLS_OK)
        MPI_Abort(MPI_COMM_WORLD, 2);
    for (hpls_int i = 0; i < D->nlocal; i++)
        d[i] = D->Ad->val[pos[i]];
    shell_ctx c = {.d = d};
    hpls_precond_create_shell(D->nlocal, shell_jacobi, shell_jacobi, &c, &P);
    snprintf(a, sizeof a, "solver=qmr precond=jacobi %s", opt);
    snprintf(b, sizeof b, "solver=qmr %s", opt);
    same_solve("shell D^-1 = precond=jacobi (qmr)", D, a, b, P);
    hpls_precond_destroy(P);

    /* the wrong size on rank 1: one status and rank 1 named on every rank
     * (bicgstab: no M^-T, so no other rank fails for another reason) */
    hpls_real *x = hpls_malloc(D->nlocal + 1, sizeof *x);
    hpls_info info;
    char msg[512];
    snprintf(b, sizeof b, "solver=bicgstab %s", opt);
    if (nranks > 1) {
        hpls_precond_create_shell(D->nlocal + (rank == 1), shell_jacobi, NULL, &c, &P);
        st = solve(D, b, P, x, &info, msg, sizeof msg);
        if (rank == 0)
            printf("(wrong size on rank 1: %s)\n", msg);
        check("precond object of the wrong size on rank 1: HPLS_ERR_SIZE naming it",
              st == HPLS_ERR_SIZE && strstr(msg, "rank 1"));
        hpls_precond_destroy(P);
    }
    /* a shell failing at its 3rd application on the last rank: every rank stops */
    c = (shell_ctx){.d = d, .fail_at = 3};
    hpls_precond_create_shell(D->nlocal, shell_jacobi, NULL, &c, &P);
    st = solve(D, b, P, x, &info, msg, sizeof msg);
    if (rank == 0)
        printf("(a shell failing on the last rank: %s)\n", msg);
    check("a shell failing on the last rank: HPLS_ERR_CALLBACK on every rank",
          st == HPLS_ERR_CALLBACK);
    hpls_precond_destroy(P);
    hpls_free(x);
    hpls_free(pos);
    hpls_free(d);
    hpls_dcsr_destroy(D);
}

/* hpls_dcsr_set_values + hpls_solver_update_dcsr against a solver set up
 * afresh on the same new matrix (hpls_dcsr_create from the same rows): the
 * same iterations and x bit for bit, for the numeric update of each kind of
 * setup data (ilu0's factors, with M^-T and Ao^T for bicg; jacobi's 1/A_ii;
 * hisa's T) and for the full setup of qtree and scale; a solve between the
 * two refused; a NaN on the last rank refused on every rank, naming it, with
 * nothing changed; a zero pivot from the update on the last rank one status
 * on every rank. */
static void test_update(const char *spec)
{
    static const char *const opts[] = {"solver=bicgstab precond=ilu0 trisolve=levels",
                                       "solver=bicg precond=ilu0 trisolve=levels",
                                       "solver=jacobi",
                                       "solver=hisa",
                                       "solver=qtbicgstab",
                                       "solver=bicgstab scale=ruiz"};
    enum { NOPT = sizeof opts / sizeof *opts, JACOBI = 2 };
    hpls_dcsr *D = generate(spec), *D2 = NULL;
    hpls_int *rp, *gc, *rp1, *gc1;
    hpls_real *v, *v1;
    if (hpls_dcsr_rows(D, NULL, NULL, NULL, &rp, &gc, &v) != HPLS_OK)
        MPI_Abort(MPI_COMM_WORLD, 2);
    hpls_int m = D->nlocal, nnz = rp[m], diag0 = -1;
    hpls_real *v0 = hpls_malloc(nnz + 1, sizeof *v0);
    memcpy(v0, v, (size_t)nnz * sizeof *v0);
    for (hpls_int i = 0; i < m; i++) /* another matrix, more diagonally dominant */
        for (hpls_int p = rp[i]; p < rp[i + 1]; p++) {
            int d = gc[p] == D->first + i;
            diag0 = d && i == 0 ? p : diag0;
            v[p] *= d ? 1.5 : 1.0 + 0.25 * sin((double)(gc[p] + 2 * (D->first + i)));
        }
    if (hpls_dcsr_create(MPI_COMM_WORLD, D->n, m, rp, gc, v, &D2) != HPLS_OK)
        MPI_Abort(MPI_COMM_WORLD, 2);
    hpls_solver *s[NOPT] = {0};
    hpls_real *x = hpls_malloc(m + 1, sizeof *x), *x2 = hpls_malloc(m + 1, sizeof *x2);
    char o[NOPT][128], name[256], msg[512];
    hpls_info i1, i2;
    for (int k = 0; k < NOPT; k++) {
        snprintf(o[k], sizeof o[k], "%s tol=1e-10 threads=1", opts[k]);
        snprintf(name, sizeof name, "update (%s): set up and solved first", opts[k]);
        check(name, set_up(D, o[k], NULL, &s[k]) == HPLS_OK && run(s[k], D, x) == HPLS_OK);
    }

    hpls_real keep = nnz > 0 ? v[0] : 0;
    if (rank == nranks - 1 && nnz > 0)
        v[0] = NAN;
    hpls_status st = hpls_dcsr_set_values(D, v);
    snprintf(name, sizeof name, "rank %d's entry 1", nranks - 1);
    if (rank == 0)
        printf("(a NaN on the last rank: %s)\n", hpls_last_error());
    check("set_values: a NaN on the last rank is HPLS_ERR_VALUE naming it on every rank",
          st == HPLS_ERR_VALUE && strstr(hpls_last_error(), name));
    if (hpls_dcsr_rows(D, NULL, NULL, NULL, &rp1, &gc1, &v1) != HPLS_OK)
        MPI_Abort(MPI_COMM_WORLD, 2);
    check("set_values refused: every rank's values unchanged, its solvers still solve",
          rp1[m] == nnz && !memcmp(v1, v0, (size_t)nnz * sizeof *v0) && run(s[0], D, x) == HPLS_OK);
    if (nnz > 0)
        v[0] = keep;

    check("set_values: new finite values taken", hpls_dcsr_set_values(D, v) == HPLS_OK);
    check("a solve after set_values and before the update: HPLS_ERR_STATE on every rank",
          run(s[0], D, x) == HPLS_ERR_STATE);
    check("update with a solver set up on another matrix: HPLS_ERR_STATE on every rank",
          hpls_solver_update_dcsr(s[0], D2) == HPLS_ERR_STATE);
    for (int k = 0; k < NOPT; k++) {
        st = hpls_solver_update_dcsr(s[k], D);
        if (st == HPLS_OK)
            st = run(s[k], D, x);
        hpls_solver_get_info(s[k], &i1);
        hpls_status st2 = solve(D2, o[k], NULL, x2, &i2, msg, sizeof msg);
        if (rank == 0 && (st != HPLS_OK || st2 != HPLS_OK || i1.iterations != i2.iterations))
            printf("update (%s): updated %d (%lld iterations), afresh %d (%lld): %s\n", opts[k], st,
                   (long long)i1.iterations, st2, (long long)i2.iterations, msg);
        snprintf(name, sizeof name, "update (%s) = a setup afresh on the new values", opts[k]);
        check(name, st == HPLS_OK && st2 == HPLS_OK && hpls_reason_converged(i1.reason) &&
                        i1.iterations == i2.iterations && !memcmp(x, x2, (size_t)m * sizeof *x));
    }

    if (rank == nranks - 1 && diag0 >= 0)
        v[diag0] = 0.0;
    st = hpls_dcsr_set_values(D, v);
    if (st == HPLS_OK)
        st = hpls_solver_update_dcsr(s[JACOBI], D);
    if (rank == 0)
        printf("(a zero diagonal on the last rank: %s)\n", hpls_solver_message(s[JACOBI]));
    check("update to a zero diagonal on the last rank: HPLS_ERR_ZERO_DIAG on every rank, "
          "then not set up",
          st == HPLS_ERR_ZERO_DIAG && run(s[JACOBI], D, x) == HPLS_ERR_STATE);
    for (int k = 0; k < NOPT; k++)
        hpls_solver_destroy(s[k]);
    hpls_free(rp);
    hpls_free(gc);
    hpls_free(v);
    hpls_free(v0);
    hpls_free(rp1);
    hpls_free(gc1);
    hpls_free(v1);
    hpls_free(x);
    hpls_free(x2);
    hpls_dcsr_destroy(D2);
    hpls_dcsr_destroy(D);
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    /* random: k entries a row at uniform columns, so A^T's pattern is not A's */
    test_gather("random:n=3000,k=5");
    test_gather("poisson3d:nx=9");
    test_products("random:n=3000,k=5");
    test_products("convdiff3d:nx=12");
    test_ruiz("random:n=3000,k=5");
    test_ruiz("convdiff3d:nx=10");
    test_precond_objects("convdiff3d:nx=12");
    test_update("poisson3d:nx=10");
    if (rank == 0)
        printf("%d passed, %d failed\n", npass, nfail);
    MPI_Finalize();
    return nfail > 0;
}
