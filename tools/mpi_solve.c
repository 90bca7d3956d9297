/* SPDX-License-Identifier: BSD-3-Clause */
/* mpi_solve.c: `mpirun -np P hpls solve ...`: the same command on P ranks.
 * The matrix is read by rank 0 and cut into row blocks, or read by every
 * rank in parallel (--read, hpls_dcsr_read), or generated rank by rank; rank
 * 0 reads b (or k right-hand sides) and x0 and sends each rank its part.
 * Every rank solves on its rows (the mpi backend, OpenMP inside each rank);
 * rank 0 prints, writes the --history live, and writes x (or X), gathered.
 * Other ranks print nothing: every failure is agreed on by all ranks (the
 * library's collective calls carry the failing rank's message), so all ranks
 * end with one exit status and none is left waiting. */
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

/* What rank 0's monitor does: progress (unless quiet), the live history. */
typedef struct dist_monitor {
    int quiet;
    cli_history hist;
} dist_monitor;

/* The iterations as they go, on rank 0: the first ten, then every 10th, 100th
 * ..., and the --history rows so far. */
static int progress(void *ctx, hpls_int it, double resnorm, double relres)
{
    dist_monitor *m = ctx;
    (void)resnorm;
    hpls_int step = 1;
    while (it >= 10 * step && step < 1000000000)
        step *= 10;
    if (!m->quiet && it % step == 0) {
        printf("  %8lld   %.6e\n", (long long)it, relres);
        fflush(stdout);
    }
    cli_history_update(&m->hist);
    return 0; /* a signal ends every rank through mpirun, not one rank's solve */
}

/* A on every rank (my rows): read as --read says, or generated there. */
static int load_matrix(const cli_dist_job *job, hpls_dcsr **D)
{
    hpls_status st;
    if (!job->matrix) {
        if ((st = hpls_dcsr_generate(MPI_COMM_WORLD, job->spec, D, NULL)) != HPLS_OK)
            return cli_fail(st, "cannot generate the matrix", hpls_last_error());
        return 0; /* b = A 1, as in one process */
    }
    hpls_read_mode mode = strcmp(job->read, "parallel") == 0 ? HPLS_READ_PARALLEL
                          : strcmp(job->read, "root") == 0   ? HPLS_READ_ROOT
                                                             : HPLS_READ_AUTO;
    if ((st = hpls_dcsr_read(MPI_COMM_WORLD, job->matrix, mode, D)) != HPLS_OK)
        return cli_fail(st, "cannot read the matrix", hpls_last_error());
    return 0;
}

/* ok: this rank's allocations of count values succeeded.  A failure on any
 * rank is one message (naming the rank) and one exit code on all. */
static int agree_alloc(int ok, hpls_int count, const char *what)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    hpls_status st = ok ? HPLS_OK
                        : hpls_fail(HPLS_ERR_NOMEM, "rank %d: no memory for %lld values", rank,
                                    (long long)count);
    st = hpls_mpi_agree(MPI_COMM_WORLD, st, 0, NULL, 0);
    return st == HPLS_OK ? 0 : cli_fail(st, what, hpls_last_error());
}

/* count zeros on every rank (agree_alloc). */
static int alloc_all(hpls_real **p, hpls_int count, const char *what)
{
    *p = calloc((size_t)count + 1, sizeof **p);
    return agree_alloc(*p != NULL, count, what);
}

/* The right-hand sides, my entries: *k columns of nlocal one after another,
 * from bfile (n x 1, or an n x k array of k right-hand sides) read by rank 0
 * and checked as in one process, or b = A 1. */
static int load_rhs(const cli_dist_job *job, const hpls_dcsr *D, hpls_real **B, hpls_int *k)
{
    *k = 1;
    if (!job->bfile) {
        int rc = alloc_all(B, D->nlocal, "cannot allocate b");
        if (rc == 0)
            hpls_dcsr_row_sums(D, *B);
        return rc;
    }
    hpls_dense *Bd = NULL;
    hpls_vec *bv = NULL;
    hpls_real *col = NULL;
    hpls_status st = HPLS_OK;
    long long cols = 1;
    int rc = 0, array = 0;
    if (D->rank == 0) {
        if ((st = hpls_mm_is_array(job->bfile, &array)) == HPLS_OK && array &&
            (st = hpls_mm_read_dense(job->bfile, &Bd)) == HPLS_OK &&
            (Bd->nrows < 2 || Bd->ncols < 2)) {
            hpls_dense_destroy(Bd); /* one column: read as a vector below */
            Bd = NULL;
        }
        if (st == HPLS_OK && Bd)
            cols = Bd->ncols;
        else if (st == HPLS_OK)
            st = hpls_mm_read_vec(job->bfile, &bv);
        if (st != HPLS_OK)
            rc = cli_fail(st, "cannot read the right-hand side", hpls_last_error());
        else if (Bd && Bd->nrows != D->n)
            rc = cli_error("%s has %lld rows but the matrix has %lld", job->bfile,
                           (long long)Bd->nrows, (long long)D->n);
        else if (Bd && (job->x0 || job->hist))
            rc = cli_error("--x0 and --history take one right-hand side; %s has %lld", job->bfile,
                           cols);
        else if (bv && bv->n != D->n)
            rc = cli_error("%s has %lld entries but the matrix has %lld rows", job->bfile,
                           (long long)bv->n, (long long)D->n);
        else if (Bd && !(col = malloc(((size_t)D->n + 1) * sizeof *col)))
            rc = cli_fail(HPLS_ERR_NOMEM, "cannot allocate a right-hand side", NULL);
    }
    if ((rc = share_rc(rc)) == 0) {
        MPI_Bcast(&cols, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
        *k = cols;
        rc = alloc_all(B, D->nlocal * cols, "cannot allocate the right-hand sides");
    }
    for (hpls_int j = 0; rc == 0 && j < cols; j++) { /* a column from row-major B */
        for (hpls_int i = 0; Bd && i < D->n; i++)
            col[i] = Bd->data[i * cols + j];
        const hpls_real *whole = Bd ? col : bv ? bv->data : NULL;
        if ((st = hpls_dcsr_scatter_vec(D, 0, whole, *B + j * D->nlocal)) != HPLS_OK)
            rc = cli_fail(st, "cannot distribute b", hpls_last_error());
    }
    hpls_dense_destroy(Bd);
    hpls_vec_destroy(bv);
    free(col);
    return rc;
}

/* --x0 read by rank 0 into my entries of x; initial_guess=given everywhere. */
static int load_x0(const cli_dist_job *job, const hpls_dcsr *D, hpls_solver *s, hpls_real *x)
{
    hpls_vec *x0 = NULL;
    hpls_status st;
    int rc = 0;
    if (D->rank == 0) {
        if ((st = hpls_mm_read_vec(job->x0, &x0)) != HPLS_OK)
            rc = cli_fail(st, "cannot read the initial guess", hpls_last_error());
        else if (x0->n != D->n)
            rc = cli_error("%s has %lld entries but the matrix has %lld columns", job->x0,
                           (long long)x0->n, (long long)D->n);
    }
    if ((rc = share_rc(rc)) == 0 &&
        (st = hpls_dcsr_scatter_vec(D, 0, x0 ? x0->data : NULL, x)) != HPLS_OK)
        rc = cli_fail(st, "cannot distribute the initial guess", hpls_last_error());
    hpls_vec_destroy(x0);
    if (rc == 0)
        hpls_solver_set_option(s, "initial_guess=given");
    return rc;
}

/* x (k = 1) or X (k columns of my entries, one after another) gathered to
 * rank 0 and written there to out, staged and renamed as in one process. */
static int write_out(const hpls_dcsr *D, const hpls_real *X, hpls_int k, const char *out)
{
    hpls_dense *Xd = NULL;
    hpls_real *col = NULL;
    int rc = 0;
    if (D->rank == 0 && (hpls_dense_create(D->n, k, &Xd) != HPLS_OK ||
                         !(col = malloc(((size_t)D->n + 1) * sizeof *col))))
        rc = cli_fail(HPLS_ERR_NOMEM, k > 1 ? "cannot allocate X" : "cannot allocate x", NULL);
    hpls_status st = HPLS_OK;
    for (hpls_int j = 0; (rc = share_rc(rc)) == 0 && j < k; j++) {
        if ((st = hpls_dcsr_gather_vec(D, 0, X + j * D->nlocal, col)) != HPLS_OK)
            rc = cli_fail(st, k > 1 ? "cannot gather X" : "cannot gather x", hpls_last_error());
        for (hpls_int i = 0; rc == 0 && Xd && i < D->n; i++) /* X row-major */
            Xd->data[i * k + j] = col[i];
    }
    if (rc == 0 && D->rank == 0) {
        cli_output xout = {0};
        hpls_vec x = {D->n, Xd->data};
        if (cli_output_begin(&xout, out))
            rc = EXIT_USAGE;
        else if ((st = k > 1 ? hpls_mm_write_dense(xout.file, Xd)
                             : hpls_mm_write_vec(xout.file, &x)) != HPLS_OK)
            rc = cli_fail(st, k > 1 ? "cannot write X" : "cannot write x", hpls_last_error());
        else
            rc = cli_output_commit(&xout, 1, "while writing the output");
        cli_output_discard(&xout);
    }
    hpls_dense_destroy(Xd);
    free(col);
    return share_rc(rc);
}

/* Rank 0, before the work, as in one process: the inputs are files to read,
 * the outputs differ from them and from each other, and can be created. */
static int check_paths(const cli_dist_job *job)
{
    const char *inputs[3] = {job->matrix, job->bfile, job->x0};
    const char *names[3] = {"matrix", "right-hand side", "initial guess"};
    int rc;
    for (int k = 0; k < 3; k++)
        if (inputs[k] && (rc = cli_check_input(inputs[k], names[k])) != 0)
            return rc;
    if (job->out && job->hist && cli_same_path(job->out, job->hist))
        return cli_error("-o %s and --history %s name the same file", job->out, job->hist);
    const char *outs[2] = {job->out, job->hist};
    for (int k = 0; k < 2; k++) {
        if (!outs[k])
            continue;
        if (cli_same_file(outs[k], inputs, 3))
            return cli_error("output %s would overwrite an input file", outs[k]);
        if ((rc = cli_output_probe(outs[k])) != 0)
            return rc;
    }
    return 0;
}

/* k right-hand sides (B: my entries, a column after another) solved one
 * after another by hpls_solver_solve_many and reported as in one process; X
 * gathered to rank 0 and written there. */
static int solve_many(hpls_solver *s, const hpls_dcsr *D, const char *label, hpls_int k,
                      const hpls_real *B, const cli_dist_job *job)
{
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    hpls_real *X = calloc((size_t)(D->nlocal * k) + 1, sizeof *X);
    hpls_info *inf = calloc((size_t)k, sizeof *inf);
    int rc = agree_alloc(X && inf, D->nlocal * k, "cannot allocate X");
    if (rc != 0)
        goto done;
    if (!job->quiet && !job->json)
        printf("hpls solve: %s: n = %lld, %lld right-hand sides on %d MPI ranks\nsolver %s, "
               "precond %s, tol %s, maxiter %s\n",
               label, (long long)D->n, (long long)k, size, hpls_solver_get_option(s, "solver"),
               hpls_solver_get_option(s, "precond"), hpls_solver_get_option(s, "tol"),
               hpls_solver_get_option(s, "maxiter"));
    hpls_status st = hpls_solver_solve_many(s, k, B, X, inf);
    if (st != HPLS_OK) {
        rc = cli_fail(st, "solve failed", hpls_solver_message(s));
        goto done;
    }
    /* every rank has the same outcomes (the tests are on global sums) */
    rc = cli_many_report(s, label, D->n, k, size, inf, job->json, job->quiet);
    if (rc == EXIT_NUMERICAL) {
        fprintf(stderr, "hpls: a column failed numerically%s\n",
                job->out ? "; no output written" : "");
    } else if (job->out) {
        int wrc = write_out(D, X, k, job->out);
        if (wrc)
            rc = wrc;
    }
done:
    free(X);
    free(inf);
    return rc;
}

/* The outcome on rank 0's stdout: one JSON object (with the ranks' message
 * and byte counts), or the summary and what ran. */
static void report_dist(hpls_solver *s, const cli_dist_job *job, const hpls_dcsr *D,
                        const char *label, const char *how, const hpls_info *info, int rc,
                        double err)
{
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long long reductions = 0, messages = 0;
    hpls_solver_mpi_counts(s, &reductions, &messages);
    if (!job->json) {
        cli_summary(info, job->quiet, !job->bfile, err);
        if (!job->quiet)
            printf("setup %.4f s, solve %.4f s, %d ranks x %d threads; %lld reductions, "
                   "%lld halo messages\n",
                   info->setup_s, info->solve_s, size, info->threads, reductions, messages);
        if (!job->quiet && hpls_solver_format(s))
            printf("format: %s\n", hpls_solver_format(s));
        return;
    }
    hpls_mpi_vol vol = {0};
    hpls_solver_mpi_volume(s, &vol);
    const char *note = hpls_solver_dist_note(s);
    double its = info->iterations > 0 ? (double)info->iterations : 1.0;
    printf("{\"problem\":");
    cli_json_string(label);
    printf(",\"solver\":\"%s\",\"precond\":\"%s\",\"n\":%lld,\"nnz\":%lld,"
           "\"backend\":\"mpi\",\"ranks\":%d,\"threads\":%d,\"iterations\":%lld,"
           "\"converged\":%s,\"relres\":",
           hpls_solver_get_option(s, "solver"), hpls_solver_get_option(s, "precond"),
           (long long)D->n, (long long)D->nnz, size, info->threads, (long long)info->iterations,
           rc == 0 ? "true" : "false");
    cli_json_number(info->relres);
    printf(",\"status\":\"%s\",\"setup_s\":%.6f,\"solve_s\":%.6f,\"reductions\":%lld,"
           "\"halo_messages\":%lld,\"reductions_per_iteration\":%.2f,"
           "\"halo_messages_per_iteration\":%.2f",
           hpls_reason_str(info->reason), info->setup_s, info->solve_s, reductions, messages,
           reductions / its, messages / its);
    printf(",\"reduction_bytes\":%lld,\"halo_exchanges\":%lld,\"halo_bytes\":%lld,"
           "\"halo_neighbours_max\":%lld,\"halo_exchange_bytes_max\":%lld",
           vol.reduction_bytes, vol.halo_exchanges, vol.halo_bytes, vol.neighbours_max,
           vol.exchange_bytes_max);
    if (how)
        printf(",\"read\":\"%s\"", how);
    if (!job->bfile) {
        printf(",\"error\":");
        cli_json_number(err);
    }
    cli_json_condition(info);
    if (hpls_solver_gspike_singular(s) >= 0)
        printf(",\"singular_blocks\":%lld", (long long)hpls_solver_gspike_singular(s));
    if (note) {
        printf(",\"distributed\":");
        cli_json_string(note);
    }
    if (hpls_solver_format(s)) { /* how hisa, bhisa, pjg cut their blocks over the ranks */
        printf(",\"format\":");
        cli_json_string(hpls_solver_format(s));
    }
    printf("}\n");
}

int cli_solve_dist(hpls_solver **sp, const cli_dist_job *job)
{
    hpls_solver *s = *sp;
    int rank, size, rc;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *label = job->matrix ? job->matrix : job->spec, *out = job->out, *hist = job->hist;
    dist_monitor mon = {.quiet = job->quiet || job->json};
    hpls_dcsr *D = NULL;
    hpls_real *b = NULL, *x = NULL;
    hpls_int k = 1;
    if ((rc = share_rc(rank == 0 ? check_paths(job) : 0)) != 0)
        goto done;
    if ((rc = load_matrix(job, &D)) != 0 || (rc = load_rhs(job, D, &b, &k)) != 0)
        goto done;
    if (k == 1 && ((rc = alloc_all(&x, D->nlocal, "cannot allocate x")) != 0 ||
                   (job->x0 && (rc = load_x0(job, D, s, x)) != 0)))
        goto done;
    hpls_status st = hpls_solver_setup_dcsr(s, D);
    if (st != HPLS_OK) {
        rc = cli_fail(st, "setup failed", hpls_solver_message(s));
        goto done;
    }
    if (k > 1) { /* no progress lines, as in one process */
        rc = solve_many(s, D, label, k, b, job);
        goto done;
    }
    if (rank == 0)
        hpls_solver_set_monitor(s, progress, &mon);
    /* created now, by rank 0: a failed read or setup leaves no history behind */
    if (hist && (rc = share_rc(rank == 0 ? cli_history_open(&mon.hist, s, hist) : 0)) != 0)
        goto done;
    hpls_info info;
    hpls_solver_get_info(s, &info);
    const char *how = !job->matrix                                   ? NULL
                      : hpls_dcsr_read_mode(D) == HPLS_READ_PARALLEL ? "parallel"
                                                                     : "root";
    /* how a method that is not a backend's runs on the ranks (the direct ones) */
    const char *note = hpls_solver_dist_note(s);
    if (!mon.quiet)
        printf("hpls solve: %s: n = %lld, nnz = %lld on %d MPI ranks%s%s\n"
               "solver %s, precond %s, tol %s, maxiter %s, threads %d per rank\n"
               "%s%s%s"
               "  iteration  relative residual\n",
               label, (long long)D->n, (long long)D->nnz, size, how ? ", read by " : "",
               !how                       ? ""
               : strcmp(how, "root") == 0 ? "rank 0"
                                          : "every rank",
               hpls_solver_get_option(s, "solver"), hpls_solver_get_option(s, "precond"),
               hpls_solver_get_option(s, "tol"), hpls_solver_get_option(s, "maxiter"), info.threads,
               note ? "method: " : "", note ? note : "", note ? "\n" : "");
    hpls_vec bv = {D->nlocal, b}, xv = {D->nlocal, x};
    st = hpls_solver_solve(s, &bv, &xv);
    /* the iterations done, whatever came of them */
    int hist_rc = share_rc(cli_history_close(&mon.hist, hist));
    if (st != HPLS_OK) {
        rc = cli_fail(st, "solve failed", hpls_solver_message(s));
        goto done;
    }
    if (hist_rc) {
        rc = hist_rc;
        goto done;
    }
    hpls_solver_get_info(s, &info);
    double err = 0; /* max |x - 1| when b = A 1; NaN stays NaN (fmax would skip it) */
    for (hpls_int i = 0; !job->bfile && i < D->nlocal && !isnan(err); i++) {
        double d = fabs(x[i] - 1.0);
        if (!(d <= err))
            err = d;
    }
    double e[2] = {isnan(err) ? 0.0 : err, isnan(err)};
    MPI_Allreduce(MPI_IN_PLACE, e, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    err = e[1] > 0 ? NAN : e[0];
    rc = cli_exit_code(info.reason);
    report_dist(s, job, D, label, how, &info, rc, err);
    if (cli_outcome(s, &info, rc, out, hist) && out) {
        int wrc = write_out(D, x, 1, out);
        if (wrc)
            rc = wrc;
    }
done:
    if (mon.hist.file)
        fclose(mon.hist.file);
    free(b);
    free(x);
    hpls_solver_destroy(s); /* before D: the solver's backend refers to it */
    *sp = NULL;
    hpls_dcsr_destroy(D);
    return rc;
}
