/* SPDX-License-Identifier: BSD-3-Clause */
/* test_convtest.c: a user's convergence test (hpls_solver_set_convergence_test)
 * on a distributed solver, on the ranks mpiexec starts (1-4, tests/mpi/run.sh),
 * the way libhplsFoam uses it in OpenFOAM's parallel runs: each rank is shown
 * its own rows of r and sums |r| over the ranks itself (OpenFOAM's gSumMag).
 * On 2-D grids split in row blocks (b = A x_true):
 *   - cg + jacobi on the Laplacian (the iterates of any partition): stops with
 *     HPLS_CONVERGED_USER at the first iteration whose global sum|r| is below
 *     the target, the same iteration on every rank and as one process (rank 0,
 *     the whole matrix, the same test) within one (the sums' order); the test
 *     shown nlocal values each call; sum|b - A x| of the x returned meets it;
 *   - cg + dic on minus the Laplacian (OpenFOAM's negative definite pressure
 *     matrix, dic on each rank's block) and bicgstab + dilu on a
 *     convection-diffusion matrix (its half-step test too): CONVERGED_USER,
 *     sum|b - A x| within the target;
 *   - miniter=7 with a test that always answers converged: 7 iterations;
 *   - cg's reductions (hpls_solver_mpi_counts): with that test and miniter
 *     fixing the iterations, each iteration more costs hpls two MPI_Allreduce
 *     calls, (p, A p) and ||r||^2 with (r, M^-1 r); with the test's own sum|r|
 *     that makes three, as OpenFOAM's PCG;
 *   - bicgstab's fixed reductions: a solve stopped at its first half step
 *     makes six (no separate ones for the checks of b and x), six too under
 *     confirm=no, which asks the test twice fewer;
 *   - new values (hpls_dcsr_set_values, hpls_solver_update_dcsr) agree twice
 *     on a status: set_values on its check, the update on its outcome
 *     (MPI_Allreduce counted here through MPI's profiling interface).
 * Exit status 0 when every check passed, the same on every rank. */
#include <hpls_mpi.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int rank, size, failures;
static long long allreduces; /* MPI_Allreduce calls of this rank */

/* Every MPI_Allreduce of the program and of libhpls, counted (PMPI) */
int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
                  MPI_Comm comm)
{
    allreduces++;
    return PMPI_Allreduce(sendbuf, recvbuf, count, type, op, comm);
}

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            failures++;                                                                            \
            printf("FAIL (rank %d of %d) line %d: ", rank, size, __LINE__);                        \
            printf(__VA_ARGS__);                                                                   \
            printf("\n");                                                                          \
        }                                                                                          \
    } while (0)

enum { M = 24, MAXIT = 2000 }; /* the grid is M x M: n = 576 rows */

/* Row i of the 5-point matrix on the M x M grid: sign * (4, -1 - c on the west,
 * -1 + c on the east, -1 north and south), columns increasing. */
static hpls_int grid_row(hpls_int i, double sign, double c, hpls_int *col, hpls_real *val)
{
    hpls_int gx = i % M, gy = i / M, k = 0;
    if (gy > 0)
        col[k] = i - M, val[k++] = -sign;
    if (gx > 0)
        col[k] = i - 1, val[k++] = sign * (-1.0 - c);
    col[k] = i, val[k++] = 4.0 * sign;
    if (gx < M - 1)
        col[k] = i + 1, val[k++] = sign * (-1.0 + c);
    if (gy < M - 1)
        col[k] = i + M, val[k++] = -sign;
    return k;
}

/* Rows first .. first + nloc - 1 as CSR arrays (5 entries a row at most). */
static void grid_rows(hpls_int first, hpls_int nloc, double sign, double c, hpls_int *rowptr,
                      hpls_int *col, hpls_real *val)
{
    rowptr[0] = 0;
    for (hpls_int i = 0; i < nloc; i++)
        rowptr[i + 1] = rowptr[i] + grid_row(first + i, sign, c, col + rowptr[i], val + rowptr[i]);
}

/* The test: sum|r| over comm (MPI_COMM_SELF: one process) below target. */
typedef struct {
    MPI_Comm comm;
    double target;
    hpls_int nlocal, bad_n, calls;
    double last;          /* the last sum seen */
    double at[MAXIT + 1]; /* the last sum seen at each iteration (the test may be called
                             again at an iteration, on the true residual) */
    int always;           /* answer converged whatever r */
} sumtest;

static int sum_converged(void *ctx, hpls_int it, hpls_int n, const hpls_real *r, double rnorm)
{
    (void)it, (void)rnorm;
    sumtest *t = ctx;
    double s = 0.0;
    for (hpls_int i = 0; i < n; i++)
        s += fabs(r[i]);
    MPI_Allreduce(MPI_IN_PLACE, &s, 1, MPI_DOUBLE, MPI_SUM, t->comm);
    t->bad_n += n != t->nlocal;
    t->calls++;
    t->last = s;
    if (it >= 0 && it <= MAXIT)
        t->at[it] = s;
    return t->always || s <= t->target;
}

/* Solves with opts and the test t on my rows first .. first + nloc - 1 of the
 * matrix (sign, c) over comm; returns the info and sum|b - A x| over comm,
 * (reductions not NULL) the solve's reductions and (agreements not NULL) the
 * MPI_Allreduce calls of new values set and taken after it. */
static hpls_info solve(MPI_Comm comm, const char *opts, double sign, double c, hpls_int first,
                       hpls_int nloc, sumtest *t, double *true_sum, long long *reductions,
                       long long *agreements)
{
    hpls_int n = M * M;
    hpls_int *rowptr = malloc((size_t)(nloc + 1) * sizeof *rowptr);
    hpls_int *col = malloc((size_t)(5 * nloc + 1) * sizeof *col);
    hpls_real *val = malloc((size_t)(5 * nloc + 1) * sizeof *val);
    hpls_real *xt = malloc((size_t)(3 * nloc + 1) * sizeof *xt), *b = xt + nloc, *x = b + nloc;
    hpls_info info = {.reason = HPLS_NOT_RUN};
    hpls_dcsr *D = NULL;
    hpls_solver *s = NULL;
    grid_rows(first, nloc, sign, c, rowptr, col, val);
    for (hpls_int i = 0; i < nloc; i++)
        xt[i] = 1.0 + sin(0.1 * (double)(first + i)), x[i] = 0.0;
    CHECK(hpls_dcsr_create(comm, n, nloc, rowptr, col, val, &D) == HPLS_OK, "create: %s",
          hpls_last_error());
    CHECK(D && hpls_dcsr_spmv(D, xt, b) == HPLS_OK, "b = A x_true");
    CHECK(hpls_solver_create(&s) == HPLS_OK && hpls_solver_set_options(s, opts) == HPLS_OK,
          "options %s", opts);
    t->nlocal = nloc;
    hpls_solver_set_convergence_test(s, sum_converged, t);
    if (D && hpls_solver_setup_dcsr(s, D) == HPLS_OK) {
        hpls_vec bv = {nloc, b}, xv = {nloc, x};
        CHECK(hpls_solver_solve(s, &bv, &xv) == HPLS_OK, "%s: %s", opts, hpls_solver_message(s));
        hpls_solver_get_info(s, &info);
        long long messages;
        if (reductions)
            CHECK(hpls_solver_mpi_counts(s, reductions, &messages) == HPLS_OK, "counts");
        hpls_dcsr_spmv(D, x, xt); /* xt = A x */
        double sum = 0.0;
        for (hpls_int i = 0; i < nloc; i++)
            sum += fabs(b[i] - xt[i]);
        MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_DOUBLE, MPI_SUM, comm);
        *true_sum = sum;
        if (agreements) {
            long long before = allreduces;
            CHECK(hpls_dcsr_set_values(D, val) == HPLS_OK &&
                      hpls_solver_update_dcsr(s, D) == HPLS_OK,
                  "new values: %s", hpls_solver_message(s));
            *agreements = allreduces - before;
        }
    } else
        CHECK(0, "setup %s: %s", opts, hpls_solver_message(s));
    hpls_solver_destroy(s);
    hpls_dcsr_destroy(D);
    free(rowptr), free(col), free(val), free(xt);
    return info;
}

/* The same answer on every rank: its minimum equals its maximum. */
static int same_on_all(long long v)
{
    long long lo = v, hi = v;
    MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
    return lo == hi;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    hpls_int n = M * M, nloc = n / size + (rank < n % size), first = 0;
    MPI_Exscan(&nloc, &first, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        first = 0;
    const double target = 1e-6 * 4.0 * (double)n; /* sum|r| of about 1e-6 per row's scale */
    double true_sum = 0.0;

    /* cg + jacobi: the first iteration below the target, as one process */
    static sumtest t, tk, ta, one;
    t = (sumtest){.comm = MPI_COMM_WORLD, .target = target};
    hpls_info info = solve(MPI_COMM_WORLD, "solver=cg precond=jacobi threads=1", 1.0, 0.0, first,
                           nloc, &t, &true_sum, NULL, NULL);
    CHECK(info.reason == HPLS_CONVERGED_USER, "cg: reason %s", hpls_reason_str(info.reason));
    CHECK(same_on_all(info.iterations) && same_on_all(t.calls), "cg: ranks disagree");
    CHECK(t.bad_n == 0, "cg: the test was shown other than my %lld rows", (long long)nloc);
    hpls_int it = info.iterations;
    CHECK(it > 0 && it <= MAXIT && t.at[it] <= target && t.at[it - 1] > target,
          "cg: sums %g then %g at iterations %lld and %lld, target %g", t.at[it > 0 ? it - 1 : 0],
          t.at[it], (long long)it - 1, (long long)it, target);
    CHECK(true_sum <= target, "cg: sum|b - A x| = %g above %g", true_sum, target);
    if (rank == 0) { /* one process on the whole matrix */
        one = (sumtest){.comm = MPI_COMM_SELF, .target = target};
        double one_sum = 0.0;
        hpls_info i1 = solve(MPI_COMM_SELF, "solver=cg precond=jacobi threads=1", 1.0, 0.0, 0, n,
                             &one, &one_sum, NULL, NULL);
        CHECK(i1.reason == HPLS_CONVERGED_USER && llabs(i1.iterations - info.iterations) <= 1,
              "cg: %lld iterations on %d ranks, %lld on one (%s)", (long long)info.iterations, size,
              (long long)i1.iterations, hpls_reason_str(i1.reason));
        CHECK(i1.iterations > 10, "cg: %lld iterations only", (long long)i1.iterations);
    }

    /* cg + dic on -A (negative definite), bicgstab + dilu on convection-diffusion */
    const char *opts[] = {"solver=cg precond=dic threads=1",
                          "solver=bicgstab precond=dilu threads=1"};
    const double sign[] = {-1.0, 1.0}, conv[] = {0.0, 0.4};
    for (int k = 0; k < 2; k++) {
        tk = (sumtest){.comm = MPI_COMM_WORLD, .target = target};
        info = solve(MPI_COMM_WORLD, opts[k], sign[k], conv[k], first, nloc, &tk, &true_sum, NULL,
                     NULL);
        CHECK(info.reason == HPLS_CONVERGED_USER, "%s: reason %s", opts[k],
              hpls_reason_str(info.reason));
        CHECK(same_on_all(info.iterations), "%s: ranks disagree", opts[k]);
        CHECK(tk.bad_n == 0 && tk.last <= target, "%s: n shown wrong or last sum %g", opts[k],
              tk.last);
        CHECK(true_sum <= target, "%s: sum|b - A x| = %g above %g", opts[k], true_sum, target);
    }

    /* miniter: a test that always says converged is not asked to stop before it */
    ta = (sumtest){.comm = MPI_COMM_WORLD, .target = target, .always = 1};
    info = solve(MPI_COMM_WORLD, "solver=cg precond=jacobi miniter=7 threads=1", 1.0, 0.0, first,
                 nloc, &ta, &true_sum, NULL, NULL);
    CHECK(info.reason == HPLS_CONVERGED_USER && info.iterations == 7,
          "miniter=7: %lld iterations, %s", (long long)info.iterations,
          hpls_reason_str(info.reason));

    /* cg + dic on -A: ten iterations more, twenty reductions more */
    long long reductions[2] = {0, 0};
    for (int k = 0; k < 2; k++) {
        char o[96];
        snprintf(o, sizeof o, "solver=cg precond=dic miniter=%d threads=1", 7 + 10 * k);
        ta = (sumtest){.comm = MPI_COMM_WORLD, .target = target, .always = 1};
        info =
            solve(MPI_COMM_WORLD, o, -1.0, 0.0, first, nloc, &ta, &true_sum, &reductions[k], NULL);
        CHECK(info.reason == HPLS_CONVERGED_USER && info.iterations == 7 + 10 * k,
              "%s: %lld iterations, %s", o, (long long)info.iterations,
              hpls_reason_str(info.reason));
    }
    CHECK(reductions[1] - reductions[0] == 2 * 10,
          "cg: %lld reductions in 7 iterations, %lld in 17: not 2 an iteration", reductions[0],
          reductions[1]);

    /* a solve's fixed reductions (OpenFOAM's U solves take one iteration or two):
     * bicgstab + dilu stopped at its first half step by the test makes six,
     * ||b|| (carrying the check of b), r0, (rhat, r), (rhat, A phat), the three
     * dots of t and s, and the confirming b - A x; x is not scanned after, as
     * every rank's diagonal block stores each of its columns */
    long long fixed = 0, agreements = 0;
    ta = (sumtest){.comm = MPI_COMM_WORLD, .target = target, .always = 1};
    info = solve(MPI_COMM_WORLD, "solver=bicgstab precond=dilu miniter=1 threads=1", 1.0, 0.4,
                 first, nloc, &ta, &true_sum, &fixed, &agreements);
    CHECK(info.reason == HPLS_CONVERGED_USER && info.iterations == 1,
          "bicgstab miniter=1: %lld iterations, %s", (long long)info.iterations,
          hpls_reason_str(info.reason));
    CHECK(fixed == 6, "bicgstab: %lld reductions in a solve of one half step, not 6", fixed);
    CHECK(agreements == 2, "new values: %lld MPI_Allreduce calls, not 2", agreements);
    /* confirm=no (libhplsFoam's): no confirming b - A x, so the test is not
     * asked again on it (twice: its answer and the reason's); x is scanned
     * for a NaN or Inf instead, one reduction for the residual's norm */
    long long unconfirmed = 0;
    hpls_int calls = ta.calls;
    ta = (sumtest){.comm = MPI_COMM_WORLD, .target = target, .always = 1};
    info = solve(MPI_COMM_WORLD, "solver=bicgstab precond=dilu miniter=1 confirm=no threads=1", 1.0,
                 0.4, first, nloc, &ta, &true_sum, &unconfirmed, NULL);
    CHECK(info.reason == HPLS_CONVERGED_USER && info.iterations == 1 && info.unconfirmed == 1,
          "bicgstab confirm=no: %lld iterations, %s", (long long)info.iterations,
          hpls_reason_str(info.reason));
    CHECK(unconfirmed == 6 && ta.calls == calls - 2,
          "confirm=no: %lld reductions (not 6), the test asked %lld times (not %lld - 2)",
          unconfirmed, (long long)ta.calls, (long long)calls);

    int all = failures;
    MPI_Allreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("convtest on %d ranks: %s\n", size, all ? "FAILED" : "all passed");
    MPI_Finalize();
    return all != 0;
}
