/* SPDX-License-Identifier: BSD-3-Clause */
/* scalapack_ddtsv.c: ScaLAPACK's distributed tridiagonal solver, PDDTTRF and
 * PDDTTRS (the factorization and the solve that PDDTSV chains: divide and
 * conquer over the processes, LU without pivoting, for diagonally
 * dominant-like T), the peer of hpls's g-Spike on MPI ranks (bench/spike_mpi.sh).
 *
 *   mpiexec -n P scalapack_ddtsv N LOWER DIAG UPPER [reps]
 *
 * T = tridiag(LOWER, DIAG, UPPER) of order N, the Toeplitz matrices `hpls gen
 * tridiag:type=toeplitz,lower=..,diag=..,upper=..` builds (-1 4 -1 is #18 of
 * the g-Spike paper's Table A.1), b = T 1.  Each process builds its own block
 * of NB = ceil(N / P) rows: ScaLAPACK's 1-D block distribution, one block per
 * process, which its tridiagonal solvers require.  Each of reps runs factors
 * fresh copies and solves once; a time is the slowest process's (MPI_Wtime
 * around the call, after a barrier), the median over the runs.  Prints one
 * line of key=value: factor_s, solve_s, error = max |x - 1|, info (nonzero:
 * PDDTTRF found a block it cannot factor without pivoting).
 * Not built by CMake: bench/spike_mpi.sh compiles it with mpicc against
 * Debian's libscalapack-openmpi. */
#include <mpi.h>

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* BLACS's C interface; ScaLAPACK's Fortran routines (arguments by reference,
 * the length of a character argument appended) */
void Cblacs_get(int context, int what, int *value);
void Cblacs_gridinit(int *context, char *order, int nprow, int npcol);
void Cblacs_gridexit(int context);
void pddttrf_(const int *n, double *dl, double *d, double *du, const int *ja, const int *desca,
              double *af, const int *laf, double *work, const int *lwork, int *info);
void pddttrs_(const char *trans, const int *n, const int *nrhs, double *dl, double *d, double *du,
              const int *ja, const int *desca, double *b, const int *ib, const int *descb,
              double *af, const int *laf, double *work, const int *lwork, int *info,
              size_t trans_len);

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The slowest process's seconds since t0. */
static double slowest(double t0)
{
    double t = MPI_Wtime() - t0, all;
    MPI_Allreduce(&t, &all, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return all;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long long nll = argc > 4 ? atoll(argv[1]) : 0;
    int reps = argc > 5 ? atoi(argv[5]) : 3;
    if (nll < 2LL * size || nll > INT_MAX || reps < 1) {
        if (rank == 0)
            fprintf(stderr, "usage: mpiexec -n P scalapack_ddtsv N LOWER DIAG UPPER [reps] "
                            "(2 P <= N < 2^31)\n");
        MPI_Finalize();
        return 2;
    }
    const double lower = atof(argv[2]), diag = atof(argv[3]), upper = atof(argv[4]);
    int n = (int)nll, nb = (n + size - 1) / size, first = rank * nb;
    int mine = first >= n ? 0 : n - first < nb ? n - first : nb;
    int ctxt;
    Cblacs_get(-1, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Row", 1, size);
    int desca[7] = {501, ctxt, n, nb, 0, nb, 0}, descb[7] = {502, ctxt, n, nb, 0, nb, 0};
    int one = 1, laf = 12 * size + 3 * nb, lwork = 32 * size + 64, info = 0, worst = 0;
    double *dl = malloc((size_t)nb * sizeof *dl), *d = malloc((size_t)nb * sizeof *d);
    double *du = malloc((size_t)nb * sizeof *du), *b = malloc((size_t)nb * sizeof *b);
    double *af = malloc((size_t)laf * sizeof *af), *work = malloc((size_t)lwork * sizeof *work);
    double *tf = malloc((size_t)reps * sizeof *tf), *ts = malloc((size_t)reps * sizeof *ts);
    if (!dl || !d || !du || !b || !af || !work || !tf || !ts) {
        fprintf(stderr, "scalapack_ddtsv: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    double err = 0.0;
    for (int r = 0; r < reps; r++) {
        for (int i = 0; i < mine; i++) { /* global row first + i of T, and of b = T 1 */
            long long g = (long long)first + i;
            dl[i] = g > 0 ? lower : 0.0;
            d[i] = diag;
            du[i] = g < n - 1 ? upper : 0.0;
            b[i] = dl[i] + d[i] + du[i];
        }
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        pddttrf_(&n, dl, d, du, &one, desca, af, &laf, work, &lwork, &info);
        tf[r] = slowest(t0);
        worst = info != 0 ? info : worst;
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        pddttrs_("N", &n, &one, dl, d, du, &one, desca, b, &one, descb, af, &laf, work, &lwork,
                 &info, 1);
        ts[r] = slowest(t0);
        worst = info != 0 ? info : worst;
        double e = 0.0; /* NaN stays NaN (fmax would skip it) */
        for (int i = 0; i < mine; i++)
            e = fabs(b[i] - 1.0) > e || isnan(b[i]) ? fabs(b[i] - 1.0) : e;
        MPI_Allreduce(&e, &err, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    }
    int worst_all;
    MPI_Allreduce(&worst, &worst_all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    qsort(tf, (size_t)reps, sizeof *tf, cmp);
    qsort(ts, (size_t)reps, sizeof *ts, cmp);
    if (rank == 0)
        printf("factor_s=%.6f solve_s=%.6f error=%.3e info=%d n=%d procs=%d nb=%d\n", tf[reps / 2],
               ts[reps / 2], err, worst_all, n, size, nb);
    free(dl);
    free(d);
    free(du);
    free(b);
    free(af);
    free(work);
    free(tf);
    free(ts);
    Cblacs_gridexit(ctxt);
    MPI_Finalize();
    return 0;
}
