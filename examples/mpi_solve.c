/* SPDX-License-Identifier: BSD-3-Clause */
/* mpi_solve.c: a distributed solve through hpls_mpi.h.  Every rank builds its
 * own rows of the 5-point Laplacian on a 100 x 100 grid (or, given A.mtx, the
 * ranks read the file in parallel), b = A x_true, and BiCGSTAB with Jacobi
 * solves on the ranks' rows; rank 0 prints the outcome and the error against
 * x_true.   mpirun -np 4 ./mpi_solve [A.mtx] */
#include <hpls_mpi.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* My rows of the Laplacian (rows of equal blocks, global column indices
 * increasing in each row); every rank calls it. */
static hpls_status laplacian_rows(MPI_Comm comm, hpls_int g, hpls_dcsr **D)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    hpls_int n = g * g, first = n * rank / size, m = n * (rank + 1) / size - first, p = 0;
    hpls_int *rowptr = malloc((size_t)(m + 1) * sizeof *rowptr);
    hpls_int *col = malloc((size_t)(5 * m + 1) * sizeof *col);
    hpls_real *val = malloc((size_t)(5 * m + 1) * sizeof *val);
    for (hpls_int i = 0; rowptr && col && val && i < m; i++) {
        hpls_int r = first + i, x = r % g, y = r / g;
        hpls_int nb[5] = {y > 0 ? r - g : -1, x > 0 ? r - 1 : -1, r, x < g - 1 ? r + 1 : -1,
                          y < g - 1 ? r + g : -1};
        rowptr[i] = p;
        for (int k = 0; k < 5; k++) {
            if (nb[k] < 0)
                continue;
            col[p] = nb[k];
            val[p++] = nb[k] == r ? 4.0 : -1.0;
        }
    }
    if (rowptr)
        rowptr[m] = p;
    /* a failed allocation (NULL rows) is an error on every rank, not a hang */
    hpls_status st = hpls_dcsr_create(comm, n, m, col && val ? rowptr : NULL, col, val, D);
    free(rowptr);
    free(col);
    free(val);
    return st;
}

int main(int argc, char **argv)
{
    int provided, rank, size;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    hpls_dcsr *D = NULL;
    hpls_solver *s = NULL;
    hpls_real *xtrue = NULL, *b = NULL, *x = NULL;
    hpls_int n = 0, first = 0, m = 0;
    hpls_info info = {0};
    double err = 0.0;
    hpls_status st = argc > 1 ? hpls_dcsr_read(MPI_COMM_WORLD, argv[1], HPLS_READ_PARALLEL, &D)
                              : laplacian_rows(MPI_COMM_WORLD, 100, &D);
    if (st == HPLS_OK)
        st = hpls_dcsr_get_sizes(D, &n, &first, &m, NULL);
    /* what is local can fail on one rank: agree before the next collective */
    int ok = st == HPLS_OK && (xtrue = malloc((size_t)(m + 1) * sizeof *xtrue)) &&
             (b = malloc((size_t)(m + 1) * sizeof *b)) &&
             (x = calloc((size_t)(m + 1), sizeof *x)) && hpls_solver_create(&s) == HPLS_OK &&
             hpls_solver_set_options(s, "solver=bicgstab precond=jacobi tol=1e-12") == HPLS_OK;
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (!ok) {
        if (rank == 0)
            fprintf(stderr, "mpi_solve: %s\n", st != HPLS_OK ? hpls_last_error() : "no memory");
        goto done;
    }
    for (hpls_int i = 0; i < m; i++) /* my entries of a known solution */
        xtrue[i] = 1.0 + 0.5 * sin((double)(first + i));
    if ((st = hpls_dcsr_spmv(D, xtrue, b)) == HPLS_OK && /* b = A x_true */
        (st = hpls_solver_setup_dcsr(s, D)) == HPLS_OK) {
        hpls_vec bv = {m, b}, xv = {m, x};
        st = hpls_solver_solve(s, &bv, &xv);
    }
    if (st != HPLS_OK) { /* the same status and message on every rank */
        if (rank == 0)
            fprintf(stderr, "mpi_solve: %s\n",
                    s && *hpls_solver_message(s) ? hpls_solver_message(s) : hpls_last_error());
        goto done;
    }
    hpls_solver_get_info(s, &info);
    for (hpls_int i = 0; i < m; i++)
        err = fmax(err, fabs(x[i] - xtrue[i]));
    MPI_Allreduce(MPI_IN_PLACE, &err, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0)
        printf("%s: n = %lld on %d ranks, %s after %lld iterations: relative residual %.2e, "
               "max error %.2e\n",
               argc > 1 ? argv[1] : "laplacian 100 x 100", (long long)n, size,
               hpls_reason_str(info.reason), (long long)info.iterations, info.relres, err);
done:
    hpls_solver_destroy(s); /* before D: the solver refers to it */
    hpls_dcsr_destroy(D);
    free(xtrue);
    free(b);
    free(x);
    MPI_Finalize();
    return st == HPLS_OK && hpls_reason_converged(info.reason) && err < 1e-6 ? 0 : 1;
}
