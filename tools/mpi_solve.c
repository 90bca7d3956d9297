/* mpi_solve.c: `mpirun -np P hpls solve ...`: the same command on P ranks.
 * Rank 0 reads the matrix and b and cuts them into row blocks (a generator
 * builds each rank's rows on that rank), every rank solves on its rows (the
 * mpi backend, OpenMP inside each rank), rank 0 prints and writes x,
 * gathered.  Other ranks print nothing: every failure is agreed on by all
 * ranks (the library's collective calls carry the failing rank's message),
 * so all ranks end with one exit status and none is left waiting. */
#include "cli.h"

#include "mpi/dcsr.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int mpi_on; /* MPI_Init_thread done: cmd_solve runs distributed */

int cli_mpi_launched(void)
{
    /* OpenMPI's mpirun and PMIx launchers, MPICH's Hydra (PMI) */
    return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK") || getenv("PMI_RANK");
}

int cli_mpi_active(void)
{
    return mpi_on;
}

int cli_mpi_main(int argc, char **argv)
{
    int provided = 0, rank = 0;
    if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
        return cli_error("MPI_Init_thread failed");
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank != 0) { /* only rank 0 speaks: failures reach it through the library */
        if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
            MPI_Abort(MPI_COMM_WORLD, EXIT_USAGE);
    }
    int rc;
    if (provided < MPI_THREAD_FUNNELED) {
        rc = cli_error("the MPI library gives thread level %d, hpls needs MPI_THREAD_FUNNELED",
                       provided);
    } else {
        mpi_on = 1;
        rc = cmd_solve(argc, argv);
    }
    MPI_Finalize();
    return rc;
}

/* Rank 0's exit code (0: go on) to every rank. */
static int share_rc(int rc)
{
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return rc;
}

/* The iterations as they go, on rank 0: the first ten, then every 10th, 100th ... */
static int progress(void *ctx, hpls_int it, double resnorm, double relres)
{
    (void)ctx;
    (void)resnorm;
    hpls_int step = 1;
    while (it >= 10 * step && step < 1000000000)
        step *= 10;
    if (it % step == 0) {
        printf("  %8lld   %.6e\n", (long long)it, relres);
        fflush(stdout);
    }
    return 0; /* a signal ends every rank through mpirun, not one rank's solve */
}

/* A and b on every rank (my rows), from the file at rank 0 or the generator. */
static int load(const char *matrix, const char *bfile, const char *spec, hpls_dcsr **D,
                hpls_real **b)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    hpls_status st;
    hpls_real *bgen = NULL;
    if (matrix) {
        hpls_csr *A = NULL;
        int rc = 0;
        if (rank == 0 && !(rc = cli_check_input(matrix, "matrix")) &&
            (st = hpls_mm_read_csr(matrix, &A)) != HPLS_OK)
            rc = cli_fail(st, "cannot read the matrix", hpls_last_error());
        if ((rc = share_rc(rc)) != 0)
            return rc;
        st = hpls_dcsr_scatter(MPI_COMM_WORLD, 0, A, D);
        hpls_csr_destroy(A);
    } else {
        st = hpls_dcsr_generate(MPI_COMM_WORLD, spec, D, &bgen);
        hpls_free(bgen); /* b = A 1 below, as in one process */
    }
    if (st != HPLS_OK)
        return cli_fail(st, matrix ? "cannot distribute the matrix" : "cannot generate the matrix",
                        hpls_last_error());
    hpls_int n = (*D)->n;
    if (!(*b = calloc((size_t)(*D)->nlocal + 1, sizeof **b)))
        return cli_fail(HPLS_ERR_NOMEM, "cannot allocate b", NULL);
    if (!bfile) {
        hpls_dcsr_row_sums(*D, *b);
        return 0;
    }
    hpls_vec *bg = NULL;
    int rc = 0;
    if (rank == 0 && !(rc = cli_check_input(bfile, "right-hand side"))) {
        if ((st = hpls_mm_read_vec(bfile, &bg)) != HPLS_OK)
            rc = cli_fail(st, "cannot read the right-hand side", hpls_last_error());
        else if (bg->n != n)
            rc = cli_error("%s has %lld entries but the matrix has %lld rows", bfile,
                           (long long)bg->n, (long long)n);
    }
    if ((rc = share_rc(rc)) == 0 &&
        (st = hpls_dcsr_scatter_vec(*D, 0, bg ? bg->data : NULL, *b)) != HPLS_OK)
        rc = cli_fail(st, "cannot distribute b", hpls_last_error());
    hpls_vec_destroy(bg);
    return rc;
}

/* x gathered at rank 0 and written there (staged, renamed at commit). */
static int write_x(const hpls_dcsr *D, const hpls_real *x, const char *out)
{
    hpls_vec *xg = NULL;
    int rc = 0;
    if (D->rank == 0 && hpls_vec_create(D->n, &xg) != HPLS_OK)
        rc = cli_fail(HPLS_ERR_NOMEM, "cannot allocate x", NULL);
    if ((rc = share_rc(rc)) != 0)
        return rc;
    hpls_status st = hpls_dcsr_gather_vec(D, 0, x, xg ? xg->data : NULL);
    if (st != HPLS_OK)
        rc = cli_fail(st, "cannot gather x", hpls_last_error());
    if (rc == 0 && D->rank == 0) {
        cli_output xout = {0};
        if (cli_output_begin(&xout, out))
            rc = EXIT_USAGE;
        else if ((st = hpls_mm_write_vec(xout.file, xg)) != HPLS_OK)
            rc = cli_fail(st, "cannot write x", hpls_last_error());
        else
            rc = cli_output_commit(&xout, 1, "while writing the output");
        cli_output_discard(&xout);
    }
    hpls_vec_destroy(xg);
    return share_rc(rc);
}

int cli_solve_dist(hpls_solver **sp, const char *matrix, const char *bfile, const char *spec,
                   const char *out, int json, int quiet)
{
    hpls_solver *s = *sp;
    int rank, size, rc = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *inputs[2] = {matrix, bfile};
    if (rank == 0 && out) { /* before the work, as in one process */
        if (cli_same_file(out, inputs, 2))
            rc = cli_error("output %s would overwrite an input file", out);
        else
            rc = cli_output_probe(out);
    }
    hpls_dcsr *D = NULL;
    hpls_real *b = NULL, *x = NULL;
    if ((rc = share_rc(rc)) != 0)
        goto done;
    if ((rc = load(matrix, bfile, spec, &D, &b)) != 0)
        goto done;
    if (!(x = calloc((size_t)D->nlocal + 1, sizeof *x))) {
        rc = cli_fail(HPLS_ERR_NOMEM, "cannot allocate x", NULL);
        goto done;
    }
    if (rank == 0 && !quiet && !json)
        hpls_solver_set_monitor(s, progress, NULL);
    hpls_status st = hpls_solver_setup_dcsr(s, D);
    if (st != HPLS_OK) {
        rc = cli_fail(st, "setup failed", hpls_solver_message(s));
        goto done;
    }
    hpls_info info;
    hpls_solver_get_info(s, &info);
    /* how a method that is not a backend's runs on the ranks (the direct ones) */
    const char *how = hpls_solver_dist_note(s);
    if (!quiet && !json)
        printf("hpls solve: %s: n = %lld, nnz = %lld on %d MPI ranks\n"
               "solver %s, precond %s, tol %s, maxiter %s, threads %d per rank\n"
               "%s%s%s"
               "  iteration  relative residual\n",
               matrix ? matrix : spec, (long long)D->n, (long long)D->nnz, size,
               hpls_solver_get_option(s, "solver"), hpls_solver_get_option(s, "precond"),
               hpls_solver_get_option(s, "tol"), hpls_solver_get_option(s, "maxiter"),
               info.threads, how ? "method: " : "", how ? how : "", how ? "\n" : "");
    hpls_vec bv = {D->nlocal, b}, xv = {D->nlocal, x};
    st = hpls_solver_solve(s, &bv, &xv);
    if (st != HPLS_OK) {
        rc = cli_fail(st, "solve failed", hpls_solver_message(s));
        goto done;
    }
    hpls_solver_get_info(s, &info);
    long long reductions = 0, messages = 0;
    hpls_solver_mpi_counts(s, &reductions, &messages);
    hpls_mpi_vol vol = {0};
    hpls_solver_mpi_volume(s, &vol);
    double err = 0; /* max |x - 1| when b = A 1; NaN stays NaN (fmax would skip it) */
    for (hpls_int i = 0; !bfile && i < D->nlocal && !isnan(err); i++) {
        double d = fabs(x[i] - 1.0);
        if (!(d <= err))
            err = d;
    }
    double e[2] = {isnan(err) ? 0.0 : err, isnan(err)};
    MPI_Allreduce(MPI_IN_PLACE, e, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    err = e[1] > 0 ? NAN : e[0];
    rc = cli_exit_code(info.reason);
    double its = info.iterations > 0 ? (double)info.iterations : 1.0;
    if (json) {
        printf("{\"problem\":");
        cli_json_string(matrix ? matrix : spec);
        printf(",\"solver\":\"%s\",\"precond\":\"%s\",\"n\":%lld,\"nnz\":%lld,"
               "\"backend\":\"mpi\",\"ranks\":%d,\"threads\":%d,\"iterations\":%lld,"
               "\"converged\":%s,\"relres\":",
               hpls_solver_get_option(s, "solver"), hpls_solver_get_option(s, "precond"),
               (long long)D->n, (long long)D->nnz, size, info.threads, (long long)info.iterations,
               rc == 0 ? "true" : "false");
        cli_json_number(info.relres);
        printf(",\"status\":\"%s\",\"setup_s\":%.6f,\"solve_s\":%.6f,\"reductions\":%lld,"
               "\"halo_messages\":%lld,\"reductions_per_iteration\":%.2f,"
               "\"halo_messages_per_iteration\":%.2f",
               hpls_reason_str(info.reason), info.setup_s, info.solve_s, reductions, messages,
               reductions / its, messages / its);
        printf(",\"reduction_bytes\":%lld,\"halo_exchanges\":%lld,\"halo_bytes\":%lld,"
               "\"halo_neighbours_max\":%lld,\"halo_exchange_bytes_max\":%lld",
               vol.reduction_bytes, vol.halo_exchanges, vol.halo_bytes, vol.neighbours_max,
               vol.exchange_bytes_max);
        if (!bfile) {
            printf(",\"error\":");
            cli_json_number(err);
        }
        if (hpls_solver_gspike_singular(s) >= 0)
            printf(",\"singular_blocks\":%lld", (long long)hpls_solver_gspike_singular(s));
        if (how) {
            printf(",\"distributed\":");
            cli_json_string(how);
        }
        if (hpls_solver_format(s)) { /* how hisa, bhisa, pjg cut their blocks over the ranks */
            printf(",\"format\":");
            cli_json_string(hpls_solver_format(s));
        }
        printf("}\n");
    } else {
        cli_summary(&info, quiet, !bfile, err);
        if (!quiet)
            printf("setup %.4f s, solve %.4f s, %d ranks x %d threads; %lld reductions, "
                   "%lld halo messages\n",
                   info.setup_s, info.solve_s, size, info.threads, reductions, messages);
        if (!quiet && hpls_solver_format(s))
            printf("format: %s\n", hpls_solver_format(s));
    }
    if (rc != 0) {
        const char *why = hpls_solver_message(s);
        fprintf(stderr, "hpls: %s%s%s%s\n", hpls_reason_str(info.reason), *why ? ": " : "", why,
                rc == EXIT_NUMERICAL && out ? "; no output written" : "");
    }
    if (out && rc != EXIT_NUMERICAL) {
        int wrc = write_x(D, x, out);
        if (wrc)
            rc = wrc;
    }
done:
    free(b);
    free(x);
    hpls_solver_destroy(s); /* before D: the solver's backend refers to it */
    *sp = NULL;
    hpls_dcsr_destroy(D);
    return rc;
}
