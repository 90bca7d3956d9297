/* SPDX-License-Identifier: BSD-3-Clause */
/* dist_check.c: under `mpiexec -np P dist_check`, the distributed PJG and HISA
 * against one process with the same blocks (mpi/dist_pjg.c, dist_hisa.c):
 *   pjg:  block k = every rank's k-th psize rows; rank 0 solves the whole
 *         matrix in one process with hpls_solver_set_partition giving exactly
 *         those blocks: the same iteration count and the same x, bit for bit;
 *   hisa: on P ranks it is bhisa with P blocks; generated rows are cut into
 *         equal blocks (n divisible by P), so one process's bhisa with
 *         block = n / P has the same blocks: the same count and x, bit for bit,
 *         and a divergent case (rho(T^-1 S) >= 1) stops the same way;
 * in both, the residual norm the iteration tests (PJG's lagged true residual,
 * HISA's S x^m - S x^{m+1}) is the same at every iteration to rounding (the
 * norms are summed in another order); and every rank reports the same reason
 * and iteration count.  Rank 0 prints
 * one line per case ("ok ..." or "FAIL ..."); every rank exits 1 when any
 * case failed.  The command-level checks are in hisa_pjg.sh. */
#include "mpi/dcsr.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size, failed;

/* The residual norms a solve tested, in order (the monitor's), the first
 * TRACE_MAX of them. */
enum { TRACE_MAX = 4096 };
typedef struct trace {
    hpls_int n;
    double r[TRACE_MAX];
} trace;

static int record(void *ctx, hpls_int it, double resnorm, double relres)
{
    trace *t = ctx;
    (void)it;
    (void)relres;
    if (t->n < TRACE_MAX)
        t->r[t->n] = resnorm;
    t->n++;
    return 0;
}

/* The same norms to rounding: the ranks' partial sums are added in another
 * order than one process's, nothing else differs. */
static int same_trace(const trace *a, const trace *b)
{
    if (a->n != b->n)
        return 0;
    for (hpls_int k = 0; k < a->n && k < TRACE_MAX; k++)
        if (!(fabs(a->r[k] - b->r[k]) <= 1e-12 * fabs(b->r[k])))
            return 0;
    return 1;
}

/* One distributed solve of spec with options, x0 = 0, b = A 1: every rank's
 * info; at rank 0 the whole x and b (n values, malloc'd) and the row blocks. */
typedef struct dist_run {
    hpls_info info;
    hpls_int n;
    hpls_real *x, *b;   /* rank 0: gathered; NULL elsewhere */
    hpls_int *rowstart; /* size + 1 (every rank) */
    char fmt[160];      /* hpls_solver_format, or "" */
    trace tr;           /* the residual norms tested */
} dist_run;

static void run_free(dist_run *R)
{
    free(R->x);
    free(R->b);
    free(R->rowstart);
}

static int dist_solve(const char *spec, const char *options, dist_run *R)
{
    memset(R, 0, sizeof *R);
    hpls_dcsr *D = NULL;
    if (hpls_dcsr_generate(MPI_COMM_WORLD, spec, &D, NULL) != HPLS_OK) {
        if (rank == 0)
            printf("FAIL %s: cannot generate: %s\n", spec, hpls_last_error());
        return 1;
    }
    R->n = D->n;
    hpls_real *b = calloc((size_t)D->nlocal + 1, sizeof *b);
    hpls_real *x = calloc((size_t)D->nlocal + 1, sizeof *x);
    R->rowstart = malloc((size_t)(size + 1) * sizeof *R->rowstart);
    if (rank == 0) {
        R->x = malloc((size_t)D->n * sizeof *R->x);
        R->b = malloc((size_t)D->n * sizeof *R->b);
    }
    if (!b || !x || !R->rowstart || (rank == 0 && (!R->x || !R->b)))
        MPI_Abort(MPI_COMM_WORLD, 2);
    memcpy(R->rowstart, D->rowstart, (size_t)(size + 1) * sizeof *R->rowstart);
    hpls_dcsr_row_sums(D, b);
    hpls_solver *s = NULL;
    int rc = 0;
    hpls_status st = hpls_solver_create(&s);
    if (st == HPLS_OK)
        st = hpls_solver_set_options(s, options);
    if (st == HPLS_OK)
        st = hpls_solver_set_monitor(s, record, &R->tr);
    /* the same options on every rank: a failure here is the same everywhere */
    if (st == HPLS_OK)
        st = hpls_solver_setup_dcsr(s, D);
    if (st == HPLS_OK) {
        hpls_vec bv = {D->nlocal, b}, xv = {D->nlocal, x};
        st = hpls_solver_solve(s, &bv, &xv);
    }
    if (st != HPLS_OK) {
        if (rank == 0)
            printf("FAIL %s %s: %s\n", spec, options, hpls_solver_message(s));
        rc = 1;
    } else {
        hpls_solver_get_info(s, &R->info);
        if (hpls_solver_format(s))
            snprintf(R->fmt, sizeof R->fmt, "%s", hpls_solver_format(s));
        hpls_dcsr_gather_vec(D, 0, x, R->x);
        hpls_dcsr_gather_vec(D, 0, b, R->b);
    }
    hpls_solver_destroy(s);
    hpls_dcsr_destroy(D);
    free(b);
    free(x);
    return rc;
}

/* Every rank's reason and iteration count equal (collective). */
static int same_everywhere(const hpls_info *info)
{
    long long mine[2] = {info->iterations, info->reason}, lo[2], hi[2];
    MPI_Allreduce(mine, lo, 2, MPI_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(mine, hi, 2, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
    return lo[0] == hi[0] && lo[1] == hi[1];
}

/* Rank 0: the one-process solve of spec's matrix with b, options and the
 * partition (nb > 0); x0 = 0; the norms it tested in *tr. */
static hpls_info one_solve(const char *spec, const char *options, const hpls_real *b, hpls_int nb,
                           const hpls_int *ptr, const hpls_int *idx, hpls_vec *x, trace *tr)
{
    hpls_csr *A = NULL;
    hpls_vec *bgen = NULL;
    hpls_solver *s = NULL;
    hpls_info info = {.reason = HPLS_NOT_RUN};
    if (hpls_gen_csr(spec, &A, &bgen) != HPLS_OK || hpls_solver_create(&s) != HPLS_OK ||
        hpls_solver_set_options(s, options) != HPLS_OK ||
        hpls_solver_set_monitor(s, record, tr) != HPLS_OK ||
        (nb > 0 && hpls_solver_set_partition(s, nb, ptr, idx) != HPLS_OK) ||
        hpls_solver_setup(s, A) != HPLS_OK) {
        printf("FAIL one process %s %s: %s\n", spec, options,
               s ? hpls_solver_message(s) : hpls_last_error());
    } else {
        hpls_vec bv = {A->nrows, (hpls_real *)b};
        memset(x->data, 0, (size_t)x->n * sizeof *x->data);
        if (hpls_solver_solve(s, &bv, x) != HPLS_OK)
            printf("FAIL one process %s %s: %s\n", spec, options, hpls_solver_message(s));
        else
            hpls_solver_get_info(s, &info);
    }
    hpls_solver_destroy(s);
    hpls_vec_destroy(bgen);
    hpls_csr_destroy(A);
    return info;
}

/* The outcome of a case, decided at rank 0 (ok), told to every rank. */
static void verdict(const char *name, int ok, const dist_run *R, const hpls_info *one)
{
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("%s %s (np %d): %lld iterations (%s), one process %lld (%s)%s%s\n",
               ok ? "ok" : "FAIL", name, size, (long long)R->info.iterations,
               hpls_reason_str(R->info.reason), (long long)one->iterations,
               hpls_reason_str(one->reason), R->fmt[0] ? "; " : "", R->fmt);
    failed += !ok;
}

/* pjg with psize rows of every rank in each block against one process with
 * the partition of those blocks. */
static void pjg_case(const char *name, const char *spec, hpls_int psize)
{
    char options[128];
    snprintf(options, sizeof options, "solver=pjg psize=%lld tol=1e-8 maxiter=20000",
             (long long)psize);
    dist_run R;
    int bad = dist_solve(spec, options, &R), same = same_everywhere(&R.info), ok = !bad && same;
    hpls_info one = {.reason = HPLS_NOT_RUN};
    if (rank == 0 && !bad) {
        hpls_int n = R.n, nb = 0, *ptr = malloc((size_t)(n + 1) * sizeof *ptr),
                 *idx = malloc((size_t)n * sizeof *idx);
        hpls_vec *x = NULL;
        if (!ptr || !idx || hpls_vec_create(n, &x) != HPLS_OK)
            MPI_Abort(MPI_COMM_WORLD, 2);
        for (int q = 0; q < size; q++) {
            hpls_int rows = R.rowstart[q + 1] - R.rowstart[q];
            nb = (rows + psize - 1) / psize > nb ? (rows + psize - 1) / psize : nb;
        }
        ptr[0] = 0;
        for (hpls_int k = 0, c = 0; k < nb; k++) { /* block k: every rank's k-th chunk */
            for (int q = 0; q < size; q++)
                for (hpls_int i = R.rowstart[q] + k * psize;
                     i < R.rowstart[q + 1] && i < R.rowstart[q] + (k + 1) * psize; i++)
                    idx[c++] = i;
            ptr[k + 1] = c;
        }
        trace *tr = calloc(1, sizeof *tr);
        if (!tr)
            MPI_Abort(MPI_COMM_WORLD, 2);
        one = one_solve(spec, "solver=pjg tol=1e-8 maxiter=20000", R.b, nb, ptr, idx, x, tr);
        ok = ok && hpls_reason_converged(R.info.reason) && R.info.relres <= 1e-8 &&
             one.iterations == R.info.iterations && one.reason == R.info.reason &&
             memcmp(x->data, R.x, (size_t)n * sizeof *R.x) == 0 && same_trace(&R.tr, tr);
        free(tr);
        hpls_vec_destroy(x);
        free(ptr);
        free(idx);
    }
    verdict(name, ok, &R, &one);
    run_free(&R);
}

/* hisa on P ranks against one process's bhisa with block n / P (the
 * generator's equal row blocks); converging or not, the same stop. */
static void hisa_case(const char *name, const char *spec, int converges)
{
    dist_run R;
    int bad = dist_solve(spec, "solver=hisa tol=1e-8 maxiter=2000", &R);
    int same = same_everywhere(&R.info), ok = !bad && same;
    hpls_info one = {.reason = HPLS_NOT_RUN};
    if (rank == 0 && !bad) {
        char options[128];
        snprintf(options, sizeof options, "solver=bhisa block=%lld tol=1e-8 maxiter=2000",
                 (long long)(R.n / size));
        hpls_vec *x = NULL;
        trace *tr = calloc(1, sizeof *tr);
        if (R.n % size != 0 || !tr || hpls_vec_create(R.n, &x) != HPLS_OK)
            MPI_Abort(MPI_COMM_WORLD, 2);
        one = one_solve(spec, options, R.b, 0, NULL, NULL, x, tr);
        ok = ok && hpls_reason_converged(R.info.reason) == converges &&
             (!converges || R.info.relres <= 1e-8) && one.iterations == R.info.iterations &&
             one.reason == R.info.reason && memcmp(x->data, R.x, (size_t)R.n * sizeof *R.x) == 0 &&
             same_trace(&R.tr, tr);
        free(tr);
        hpls_vec_destroy(x);
    }
    verdict(name, ok, &R, &one);
    run_free(&R);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    /* gas: far columns, so every rank has every other as a neighbour; rows
     * not divisible by the ranks or psize: chunks and block counts uneven */
    pjg_case("pjg_gas", "gas:n=3001,k=2", 7);
    pjg_case("pjg_gas_one_block", "gas:n=3001,k=2", 5000);
    /* a 3-D stencil: neighbours of the next and previous rank only */
    pjg_case("pjg_convdiff3d", "convdiff3d:nx=10", 64);
    hisa_case("hisa_gas", "gas:n=12000,k=2", 1);
    /* not dominant: rho(T^-1 S) >= 1, the growth stop on every rank */
    hisa_case("hisa_divergent", "gas:n=12000,k=3,q=2,s=1", 0);
    MPI_Finalize();
    return failed ? 1 : 0;
}
