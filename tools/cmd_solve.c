/* SPDX-License-Identifier: BSD-3-Clause */
/* cmd_solve.c: `hpls solve`: read or generate A, solve, report, write x. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include "backend/backend.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_PROBLEM "gas:n=100000"

static void print_help(void)
{
    printf("usage: hpls solve [A.mtx [b.mtx]] [options]\n"
           "\n"
           "Solves A x = b.  Without A, solves the built-in default problem (%s,\n"
           "a quasi-tridiagonal matrix of 100,000 rows).  Without b, b = A*1 and the error\n"
           "against x = 1 is reported too.  Matrix Market files, .mtx.gz read directly.\n"
           "\n"
           "Command options:\n"
           "  --gen SPEC        generate A instead of reading it (see `hpls gen --help`)\n"
           "  -o, --output F    write x to F (Matrix Market array; written atomically,\n"
           "                    never over an input, not after a numerical failure)\n"
           "  b.mtx n x k       an array of k columns: k right-hand sides solved at once\n"
           "                    (hpls_solver_solve_many), X written n x k\n"
           "  --x0 F            initial guess from F (sets initial_guess=given)\n"
           "  --history F       residual history as CSV: iteration,relres,seconds, written\n"
           "                    live to F itself (flushed every 10 iterations or 0.5 s, and\n"
           "                    at the end: `tail -f F` follows a long run); a failed or\n"
           "                    interrupted solve leaves F with the iterations done.  relres:\n"
           "                    ||b-Ax||/||b||, the iteration's estimate, true where\n"
           "                    confirmed; with norm=preconditioned the column is\n"
           "                    precond_relres: ||M^-1 r||/||M^-1 b||\n"
           "  --read MODE       under mpirun, how the ranks read A.mtx: parallel (each rank\n"
           "                    parses a byte range of the file: never the whole matrix on\n"
           "                    one rank), root (rank 0 reads it and sends each rank its\n"
           "                    rows) or auto (the default: parallel for a plain coordinate\n"
           "                    file of 32 MiB or more, else root); a .gz or array file is\n"
           "                    read by rank 0\n"
           "  --json            print one JSON object instead of the text report\n"
           "  --quiet, -q       print only the summary line (errors still go to stderr)\n"
           "  --verbose, -v     also print the choices made on this machine (prefetch)\n"
           "  --KEY VALUE       any solver option below (also --KEY=VALUE, or KEY=VALUE)\n"
           "  Lis's flags:      -i SOLVER, -p PRECOND, -tol T, -maxiter N, -restart M,\n"
           "                    -omega W, -ssor_omega W (= --omega); names in any case\n"
           "                    (-i BiCGSTAB), and Lis's -p ilu is ilu0 (ILU(0))\n"
           "\nMany machines (an MPI build): `mpirun -np P hpls solve ...` runs on P ranks\n"
           "(rank 0 prints and reads b and x0; A as --read says; --gen builds each rank's\n"
           "rows there; -o gathers x, or X of many right-hand sides).  Distributed:\n"
           "jacobi, gs/sor/ssor (each rank sweeps its rows, the others' x from the last\n"
           "sweep), pjg and hisa/bhisa (their lines below say how) and the Krylov methods\n"
           "(bicg, qmr: A^T x sends the ghost columns' sums back to their owners);\n"
           "gspike (gspike_p partitions per rank, the reduced system gathered to rank 0:\n"
           "2 values per partition each way per solve), thomas, cr, lapack (T gathered to\n"
           "rank 0 and solved there: 3n values once, n each way per solve); a\n"
           "preconditioner acts on each rank's diagonal block (block Jacobi: the coupling\n"
           "between ranks is left out of M, as OpenFOAM's DILU leaves processor boundaries\n"
           "out).  scale=ruiz runs on the ranks; reorder and scale=matching gather A on rank\n"
           "0, which sends the ranks their rows of the transformed A (b and x pass through\n"
           "rank 0); format=qtree stores each rank's diagonal block as the quad-tree.  The\n"
           "other methods: one rank only, for now.\n"
           "\n%s"
           "\nExit status: 0 converged, 1 not converged, 2 bad input or usage,\n"
           "3 numerical failure (breakdown, indefinite, NaN, divergence, zero diagonal),\n"
           "130 / 143 interrupted by SIGINT / SIGTERM: the solve stops at the end of the\n"
           "iteration and no output is written (a second signal kills at once).\n",
           DEFAULT_PROBLEM, hpls_solver_help());
}

/* Appends the history rows [h->written, upto) to the --history file and flushes
 * every 10 rows or 0.5 s, or when flush is set.  The solver's last row may still
 * be replaced by the true residual, so during the solve upto stops before it. */
static void write_history_rows(cli_history *h, hpls_int upto, int flush)
{
    hpls_int count;
    const hpls_int *its;
    const double *res, *sec;
    if (!h->file || h->err)
        return;
    hpls_solver_history(h->s, &count, &its, &res, &sec);
    upto = upto < count ? upto : count;
    for (; h->written < upto; h->written++)
        if (fprintf(h->file, "%lld,%.17g,%.9f\n", (long long)its[h->written], res[h->written],
                    sec[h->written]) < 0)
            h->err = errno;
    double now = h->written ? sec[h->written - 1] : 0.0;
    if (flush || h->written - h->flushed >= 10 || now - h->flush_s >= 0.5) {
        if (!h->err && fflush(h->file) != 0)
            h->err = errno;
        h->flushed = h->written;
        h->flush_s = now;
    }
}

int cli_history_open(cli_history *h, const hpls_solver *s, const char *path)
{
    *h = (cli_history){.s = s};
    if (!(h->file = fopen(path, "w")))
        return cli_error("cannot write the history %s: %s", path, strerror(errno));
    /* what the relres column holds: the preconditioned norm only when asked */
    int pnorm = strcmp(hpls_solver_get_option(s, "pc_side"), "left") == 0 &&
                strcmp(hpls_solver_get_option(s, "norm"), "preconditioned") == 0;
    if (fprintf(h->file, "iteration,%s,seconds\n", pnorm ? "precond_relres" : "relres") < 0)
        h->err = errno;
    return 0;
}

void cli_history_update(cli_history *h)
{
    if (!h->file)
        return;
    hpls_int count;
    hpls_solver_history(h->s, &count, NULL, NULL, NULL);
    write_history_rows(h, count - 1, 0);
}

int cli_history_close(cli_history *h, const char *path)
{
    if (!h->file)
        return 0;
    write_history_rows(h, INT64_MAX, 1);
    if (fclose(h->file) != 0 && !h->err)
        h->err = errno;
    h->file = NULL;
    return h->err ? cli_error("cannot write the history %s: %s", path, strerror(h->err)) : 0;
}

typedef struct monitor_state {
    int quiet;
    cli_history hist; /* the --history file, written live (closed: file NULL) */
} monitor_state;

/* Prints the first iterations, then every 10th, 100th ... (log spaced), writes the
 * history so far; stops the solve at the end of this iteration once SIGINT or
 * SIGTERM came. */
static int print_progress(void *ctx, hpls_int it, double resnorm, double relres)
{
    monitor_state *m = ctx;
    (void)resnorm;
    hpls_int step = 1;
    while (it >= 10 * step && step < 1000000000)
        step *= 10;
    if (!m->quiet && it % step == 0) {
        printf("  %8lld   %.6e\n", (long long)it, relres);
        fflush(stdout); /* progress is for watching, also through a pipe */
    }
    cli_history_update(&m->hist);
    return cli_interrupted() != 0;
}

void cli_json_number(double v)
{
    if (isfinite(v))
        printf("%.6e", v);
    else
        fputs("null", stdout);
}

/* The norm the convergence test used: JSON's "norm". */
static const char *tested_norm(const hpls_info *info)
{
    return info->precond_norm ? "preconditioned" : "unpreconditioned";
}

/* A file name can hold quotes, backslashes or control bytes: escape them. */
void cli_json_string(const char *text)
{
    putchar('"');
    for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
        if (*c == '"' || *c == '\\')
            printf("\\%c", *c);
        else if (*c < 0x20)
            printf("\\u%04x", *c);
        else
            putchar(*c);
    }
    putchar('"');
}

void cli_summary(const hpls_info *info, int quiet, int known_x, double err)
{
    if (!quiet)
        printf("  %8lld   %.6e\n", (long long)info->iterations, info->relres);
    printf("%s after %lld iterations: true relative residual %.3e", hpls_reason_str(info->reason),
           (long long)info->iterations, info->relres);
    if (known_x)
        printf(", max error vs x = 1: %.3e", err);
    putchar('\n');
}

void cli_json_condition(const hpls_info *info)
{
    if (info->rcond > 0)
        printf(",\"rcond\":%.3e,\"ill_conditioned\":%s", info->rcond,
               info->ill_conditioned ? "true" : "false");
}

void cli_warn_condition(const hpls_info *info)
{
    if (info->ill_conditioned)
        fprintf(stderr,
                "hpls: warning: A is ill-conditioned (1/cond_1 about %.2g, below the machine "
                "epsilon): x has a small backward error but may have no correct digit\n",
                info->rcond);
}

int cli_outcome(const hpls_solver *s, const hpls_info *info, int rc, const char *out,
                const char *hist)
{
    cli_warn_condition(info);
    int keep = rc != EXIT_NUMERICAL;
    if (rc != 0) {
        const char *why = hpls_solver_message(s);
        fprintf(stderr, "hpls: %s%s%s%s%s%s\n", hpls_reason_str(info->reason), *why ? ": " : "",
                why, !keep && out ? "; no output written" : "",
                !keep && hist ? "; the history is in " : "", !keep && hist ? hist : "");
    }
    return keep;
}

int cli_exit_code(hpls_reason r)
{
    switch (r) {
    case HPLS_CONVERGED_RTOL:
    case HPLS_CONVERGED_ATOL: return EXIT_CONVERGED;
    case HPLS_DIVERGED_MAXIT:
    case HPLS_STOPPED_USER:
    case HPLS_DIVERGED_STAGNATION:
    case HPLS_DIVERGED_ACCURACY:
    case HPLS_NOT_RUN: return EXIT_NOT_CONVERGED;
    default: return EXIT_NUMERICAL;
    }
}

/* Maps a Lis flag ("-tol" or "-tol=...") to the option key it spells, or NULL. */
static const char *lis_alias(const char *arg)
{
    size_t len = strcspn(arg, "=");
    static const char *const map[][2] = {
        {"-i", "solver"},        {"-p", "precond"},       {"-tol", "tol"},
        {"-maxiter", "maxiter"}, {"-restart", "restart"}, {"-omega", "omega"},
        {"-ssor_omega", "omega"} /* Lis's omega of precond ssor: hpls has one omega */};
    for (size_t k = 0; k < sizeof map / sizeof map[0]; k++)
        if (strlen(map[k][0]) == len && strncmp(arg, map[k][0], len) == 0)
            return map[k][1];
    return NULL;
}

/* backend=cuda where CUDA cannot run (no module, no driver, no device): say
 * why and solve on the cpu backend (through the API, setup fails instead with
 * HPLS_ERR_NOT_COMPILED or HPLS_ERR_UNSUPPORTED: README "GPUs"). */
static void cuda_or_cpu(hpls_solver *s)
{
    hpls_backend *be = NULL;
    if (hpls_backend_create(HPLS_BACKEND_CUDA, 1, &be) == HPLS_OK) {
        hpls_backend_destroy(be);
        return;
    }
    fprintf(stderr, "hpls: %s; solving on the cpu backend instead\n", hpls_last_error());
    hpls_solver_set_option(s, "backend=cpu");
}

/* What the command line asked for (the solver options went to the solver). */
typedef struct solve_job {
    const char *files[2]; /* A.mtx (NULL with --gen or the default problem), b.mtx */
    const char *out, *x0, *hist, *spec;
    const char *read; /* --read: how the ranks read A under MPI */
    int json, quiet, verbose;
} solve_job;

/* The arguments into j and s's options: -1 to go on, else the exit status
 * (0 after --help). */
static int parse_args(int argc, char **argv, hpls_solver *s, solve_job *j)
{
    int nfiles = 0;
    hpls_status st;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v, *alias = lis_alias(a);
        char opt[160];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            print_help();
            return 0;
        } else if (strcmp(a, "--json") == 0) {
            j->json = 1;
        } else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
            j->quiet = 1;
        } else if (strcmp(a, "--verbose") == 0 || strcmp(a, "-v") == 0) {
            j->verbose = 1;
        } else if ((v = cli_flag_value(argc, argv, &i, "--gen"))) {
            j->spec = v;
        } else if ((v = cli_flag_value(argc, argv, &i, "--output")) ||
                   (v = cli_flag_value(argc, argv, &i, "-o"))) {
            j->out = v;
        } else if ((v = cli_flag_value(argc, argv, &i, "--x0"))) {
            j->x0 = v;
        } else if ((v = cli_flag_value(argc, argv, &i, "--history"))) {
            j->hist = v;
        } else if ((v = cli_flag_value(argc, argv, &i, "--read"))) {
            if (strcmp(v, "auto") != 0 && strcmp(v, "root") != 0 && strcmp(v, "parallel") != 0) {
                cli_error("--read %s: expected auto, root or parallel", v);
                return EXIT_USAGE;
            }
            j->read = v;
        } else if (alias || (a[0] == '-' && a[1] == '-' && a[2])) {
            /* a solver option: --key value, --key=value, or a Lis alias */
            size_t len = strcspn(a, "=");
            int klen = alias ? (int)strlen(alias) : (int)len - 2;
            const char *key = alias ? alias : a + 2;
            v = cli_take_value(argc, argv, &i, len);
            if (snprintf(opt, sizeof opt, "%.*s=%s", klen, key, v) >= (int)sizeof opt) {
                cli_error("%.*s: value too long (%s)", (int)len, a, v);
                return EXIT_USAGE;
            }
            for (char *c = opt; *c && *c != '='; c++)
                if (*c == '-')
                    *c = '_';
            if ((st = hpls_solver_set_option(s, opt)) != HPLS_OK)
                return cli_fail(st, NULL, hpls_solver_message(s));
        } else if (a[0] == '-' && a[1] != '\0') {
            cli_error("unknown flag %s (see hpls solve --help)", a);
            return EXIT_USAGE;
        } else if (strchr(a, '=') && !strchr(a, '/')) {
            if ((st = hpls_solver_set_option(s, a)) != HPLS_OK)
                return cli_fail(st, NULL, hpls_solver_message(s));
        } else if (nfiles < 2) {
            j->files[nfiles++] = a;
        } else {
            cli_error("too many files: %s (expected A.mtx and optionally b.mtx)", a);
            return EXIT_USAGE;
        }
    }
    if (j->spec && j->files[0] && nfiles == 2) {
        cli_error("--gen replaces A.mtx: give at most b.mtx");
        return EXIT_USAGE;
    }
    if (j->spec && nfiles == 1) { /* with --gen the one file is b */
        j->files[1] = j->files[0];
        j->files[0] = NULL;
    }
    return -1;
}

/* Every check that needs no data, before the (possibly long) read: the inputs
 * exist and are files, the outputs are writable and overwrite no input. */
static int check_paths(const solve_job *j)
{
    int rc;
    const char *inputs[3] = {j->files[0], j->files[1], j->x0};
    const char *names[3] = {"matrix", "right-hand side", "initial guess"};
    for (int k = 0; k < 3; k++)
        if (inputs[k] && (rc = cli_check_input(inputs[k], names[k])) != 0)
            return rc;
    if (j->out && j->hist && cli_same_path(j->out, j->hist)) {
        cli_error("-o %s and --history %s name the same file", j->out, j->hist);
        return EXIT_USAGE;
    }
    const char *outs[2] = {j->out, j->hist};
    for (int k = 0; k < 2; k++) {
        if (!outs[k])
            continue;
        if (cli_same_file(outs[k], inputs, 3)) {
            cli_error("output %s would overwrite an input file", outs[k]);
            return EXIT_USAGE;
        }
        if ((rc = cli_output_probe(outs[k])) != 0)
            return rc;
    }
    return 0;
}

/* b from j's file, or b = A 1 (x_true = 1); *many: the file held several
 * columns, solved already by cli_solve_many (its status returned).  0 or the
 * exit status. */
static int load_rhs(hpls_solver *s, const solve_job *j, const cli_problem *pb, hpls_vec **b,
                    int *many)
{
    const hpls_int nrows = pb->A ? pb->A->nrows : pb->Ad->nrows;
    const hpls_int ncols = pb->A ? pb->A->ncols : pb->Ad->ncols;
    const char *file = j->files[1];
    int b_array = 0;
    hpls_status st;
    *many = 0;
    if (file && (st = hpls_mm_is_array(file, &b_array)) != HPLS_OK)
        return cli_fail(st, "cannot read the right-hand side", hpls_last_error());
    if (b_array) { /* n x k: many right-hand sides (cmd_solve_many.c) */
        hpls_dense *Bd = NULL;
        if ((st = hpls_mm_read_dense(file, &Bd)) != HPLS_OK)
            return cli_fail(st, "cannot read the right-hand side", hpls_last_error());
        if (Bd->ncols > 1 && Bd->nrows > 1) {
            int rc = EXIT_USAGE;
            *many = 1;
            if (Bd->nrows != nrows)
                cli_error("%s has %lld rows but the matrix has %lld", file, (long long)Bd->nrows,
                          (long long)nrows);
            else if (j->x0 || j->hist)
                cli_error("--x0 and --history take one right-hand side; %s has %lld", file,
                          (long long)Bd->ncols);
            else
                rc = cli_solve_many(s, pb, Bd, j->out, j->json, j->quiet);
            hpls_dense_destroy(Bd);
            return rc;
        }
        hpls_dense_destroy(Bd); /* one column: read as a vector below */
    }
    if (file) {
        if ((st = hpls_mm_read_vec(file, b)) != HPLS_OK)
            return cli_fail(st, "cannot read the right-hand side", hpls_last_error());
        if ((*b)->n != nrows) {
            cli_error("%s has %lld entries but the matrix has %lld rows", file, (long long)(*b)->n,
                      (long long)nrows);
            return EXIT_USAGE;
        }
        return 0;
    }
    hpls_vec *ones = NULL;
    if ((st = hpls_vec_create(ncols, &ones)) != HPLS_OK ||
        (st = hpls_vec_create(nrows, b)) != HPLS_OK) {
        hpls_vec_destroy(ones);
        return cli_fail(st, "cannot allocate b", hpls_last_error());
    }
    for (hpls_int i = 0; i < ones->n; i++)
        ones->data[i] = 1.0;
    if (pb->A) {
        hpls_csr_spmv(pb->A, ones, *b);
    } else { /* b = A*1: the dense row sums */
        for (hpls_int i = 0; i < nrows; i++) {
            double sum = 0.0;
            for (hpls_int k = 0; k < ncols; k++)
                sum += pb->Ad->data[i * ncols + k];
            (*b)->data[i] = sum;
        }
    }
    hpls_vec_destroy(ones);
    return 0;
}

/* x: the --x0 file (initial_guess=given) or zeros.  0 or the exit status. */
static int load_x0(hpls_solver *s, const solve_job *j, hpls_int ncols, hpls_vec **x)
{
    hpls_status st;
    if (!j->x0) {
        if ((st = hpls_vec_create(ncols, x)) != HPLS_OK)
            return cli_fail(st, "cannot allocate x", hpls_last_error());
        return 0;
    }
    if ((st = hpls_mm_read_vec(j->x0, x)) != HPLS_OK)
        return cli_fail(st, "cannot read the initial guess", hpls_last_error());
    if ((*x)->n != ncols) {
        cli_error("%s has %lld entries but the matrix has %lld columns", j->x0, (long long)(*x)->n,
                  (long long)ncols);
        return EXIT_USAGE;
    }
    hpls_solver_set_option(s, "initial_guess=given");
    return 0;
}

/* The outcome on stdout: one JSON object, or the summary and what ran. */
static void report(hpls_solver *s, const solve_job *j, const cli_problem *pb, const hpls_info *info,
                   int rc, int known_x, double err)
{
    const hpls_int n = pb->A ? pb->A->nrows : pb->Ad->nrows;
    const hpls_int nnz = pb->A ? pb->A->nnz : n * pb->Ad->ncols;
    if (!j->json) {
        cli_summary(info, j->quiet, known_x, err);
        if (j->quiet) /* --quiet: the summary line above and nothing else */
            return;
        printf("setup %.4f s, solve %.4f s, threads %d\n", info->setup_s, info->solve_s,
               info->threads);
        if (hpls_solver_trisolve(s))
            printf("triangular solves: %s\n", hpls_solver_trisolve(s));
        if (hpls_solver_format(s))
            printf("format: %s\n", hpls_solver_format(s));
        if (j->verbose && hpls_solver_prefetch(s))
            printf("prefetch: %s\n", hpls_solver_prefetch(s));
        if (strcmp(hpls_solver_get_option(s, "pc_side"), "left") == 0)
            printf("convergence test: %s\n",
                   info->precond_norm ? "||M^-1 r|| <= tol ||M^-1 b|| (norm=preconditioned: the "
                                        "true residual was not tested)"
                                      : "||b - A x|| <= tol ||b||, confirmed on b - A x");
        return;
    }
    printf("{\"problem\":");
    cli_json_string(pb->label);
    printf(",\"solver\":\"%s\",\"precond\":\"%s\",\"n\":%lld,\"nnz\":%lld,"
           "\"backend\":\"%s\",\"threads\":%d,\"iterations\":%lld,\"converged\":%s,\"relres\":",
           hpls_solver_get_option(s, "solver"), hpls_solver_get_option(s, "precond"), (long long)n,
           (long long)nnz, hpls_solver_get_option(s, "backend"), info->threads,
           (long long)info->iterations, rc == 0 ? "true" : "false");
    cli_json_number(info->relres);
    printf(",\"norm\":\"%s\",\"status\":\"%s\",\"setup_s\":%.6f,\"solve_s\":%.6f",
           tested_norm(info), hpls_reason_str(info->reason), info->setup_s, info->solve_s);
    if (known_x) {
        printf(",\"error\":");
        cli_json_number(err);
    }
    cli_json_condition(info);
    if (hpls_solver_trisolve(s))
        printf(",\"trisolve\":\"%s\"", hpls_solver_trisolve(s));
    if (hpls_solver_prefetch(s))
        printf(",\"prefetch\":\"%s\"", hpls_solver_prefetch(s));
    if (hpls_solver_auto(s)) {
        printf(",\"reorder\":\"%s\",\"auto\":", hpls_solver_get_option(s, "reorder"));
        cli_json_string(hpls_solver_auto(s));
    }
    printf("}\n");
}

/* x to j->out under a temporary name, renamed over it at commit.  rc: the
 * solve's status, returned unless the write fails. */
static int write_x(const solve_job *j, const hpls_vec *x, cli_output *xout, int rc)
{
    hpls_status st;
    if (cli_output_begin(xout, j->out))
        return EXIT_USAGE;
    if ((st = hpls_mm_write_vec(xout->file, x)) != HPLS_OK)
        return cli_fail(st, "cannot write x", hpls_last_error());
    int committed = cli_output_commit(xout, 1, "while writing the output");
    return committed ? committed : rc;
}

/* The solve itself: setup, iterations, the report, x written.  The exit status. */
static int run(hpls_solver *s, const solve_job *j, const cli_problem *pb, hpls_vec *b, hpls_vec *x,
               monitor_state *mon, cli_output *xout)
{
    const hpls_int n = pb->A ? pb->A->nrows : pb->Ad->nrows;
    const hpls_int nnz = pb->A ? pb->A->nnz : n * pb->Ad->ncols;
    int rc, known_x = j->files[1] == NULL; /* b = A*1, so x_true = 1 */
    mon->quiet = j->quiet || j->json;
    hpls_solver_set_monitor(s, print_progress, mon);
    if (strcmp(hpls_solver_get_option(s, "backend"), "cuda") == 0)
        cuda_or_cpu(s);
    hpls_status st = pb->A ? hpls_solver_setup(s, pb->A) : hpls_solver_setup_dense(s, pb->Ad);
    if (st != HPLS_OK)
        return cli_fail(st, "setup failed", hpls_solver_message(s));
    if (cli_interrupted())
        return cli_interrupt_exit("during the setup");
    /* created now: a failed read or setup leaves no history behind */
    if (j->hist && (rc = cli_history_open(&mon->hist, s, j->hist)) != 0)
        return rc;
    hpls_info info;
    hpls_solver_get_info(s, &info); /* after setup: the threads it runs on */
    if (!mon->quiet)
        printf("hpls solve: %s: n = %lld, nnz = %lld\n"
               "solver %s, precond %s, tol %s, maxiter %s, threads %d\n"
               "  iteration  relative residual\n",
               pb->label, (long long)n, (long long)nnz, hpls_solver_get_option(s, "solver"),
               hpls_solver_get_option(s, "precond"), hpls_solver_get_option(s, "tol"),
               hpls_solver_get_option(s, "maxiter"), info.threads);
    int threads = info.threads;
    st = hpls_solver_solve(s, b, x);
    int hist_rc = cli_history_close(&mon->hist, j->hist); /* the iterations done, whatever came */
    if (st != HPLS_OK)
        return cli_fail(st, "solve failed", hpls_solver_message(s));
    hpls_solver_get_info(s, &info);
    info.threads = threads;
    if (hpls_solver_auto(s)) /* what solver=auto chose, and why: one line */
        fprintf(stderr, "hpls: %s\n", hpls_solver_auto(s));
    if (cli_interrupted()) {
        char when[64], outcome[PATH_MAX + 64];
        snprintf(when, sizeof when, "after %lld iterations", (long long)info.iterations);
        snprintf(outcome, sizeof outcome, "%s%s%s", j->out ? "x not written" : "",
                 j->out && j->hist ? ", " : "", j->hist ? "the history is in " : "");
        return j->hist ? cli_interrupt_report(when, outcome, j->hist) : cli_interrupt_exit(when);
    }
    if (hist_rc)
        return hist_rc;
    double err = 0;
    for (hpls_int i = 0; known_x && i < x->n && !isnan(err); i++) {
        double d = fabs(x->data[i] - 1.0);
        if (!(d <= err)) /* a NaN entry makes the error NaN (fmax would skip it) */
            err = d;
    }
    rc = cli_exit_code(info.reason);
    report(s, j, pb, &info, rc, known_x, err);
    int keep = cli_outcome(s, &info, rc, j->out, j->hist);
    return keep && j->out ? write_x(j, x, xout, rc) : rc;
}

int cmd_solve(int argc, char **argv)
{
    solve_job j = {.read = "auto"};
    cli_problem pb = {0};
    hpls_vec *b = NULL, *x = NULL;
    hpls_solver *s = NULL;
    cli_output xout = {0}; /* x, staged; the history is written live (monitor_state) */
    monitor_state mon = {0};
    int rc, many = 0;
    cli_catch_signals();
    hpls_status st = hpls_solver_create(&s);
    if (st != HPLS_OK)
        return cli_fail(st, "cannot create the solver", hpls_last_error());
    if ((rc = parse_args(argc, argv, s, &j)) >= 0)
        goto cleanup;
    const char *spec = j.files[0] ? NULL : (j.spec ? j.spec : DEFAULT_PROBLEM);
    if (cli_mpi_active()) { /* mpirun: every rank parsed the same arguments */
        cli_dist_job job = {.matrix = j.files[0],
                            .bfile = j.files[1],
                            .x0 = j.x0,
                            .hist = j.hist,
                            .spec = spec,
                            .out = j.out,
                            .read = j.read,
                            .json = j.json,
                            .quiet = j.quiet};
        rc = cli_solve_dist(&s, &job);
        goto cleanup;
    }
    /* one process reads A itself: --read is for mpirun */
    if ((rc = check_paths(&j)) != 0 || (rc = cli_load(j.files[0], spec, 1, &pb)) != 0)
        goto cleanup;
    if (cli_interrupted()) { /* a read cannot be stopped midway: look after each phase */
        rc = cli_interrupt_exit(j.files[0] ? "while reading the matrix"
                                           : "while generating the matrix");
        goto cleanup;
    }
    if ((rc = load_rhs(s, &j, &pb, &b, &many)) != 0 || many)
        goto cleanup;
    if (cli_interrupted()) {
        rc = cli_interrupt_exit(j.files[1] ? "while reading the right-hand side"
                                           : "before the setup");
        goto cleanup;
    }
    if ((rc = load_x0(s, &j, pb.A ? pb.A->ncols : pb.Ad->ncols, &x)) != 0)
        goto cleanup;
    if (cli_interrupted()) {
        rc = cli_interrupt_exit(j.x0 ? "while reading the initial guess" : "before the setup");
        goto cleanup;
    }
    rc = run(s, &j, &pb, b, x, &mon, &xout);
cleanup:
    if (mon.hist.file)
        fclose(mon.hist.file);
    cli_output_discard(&xout);
    hpls_solver_destroy(s);
    cli_problem_free(&pb);
    hpls_vec_destroy(b);
    hpls_vec_destroy(x);
    return rc;
}
