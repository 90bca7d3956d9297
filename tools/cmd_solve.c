/* cmd_solve.c: `hpls solve`: read or generate A, solve, report, write x. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <errno.h>
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
           "  --history F       residual history as CSV: iteration,relres,seconds\n"
           "  --json            print one JSON object instead of the text report\n"
           "  --quiet           print only the summary line\n"
           "  --KEY VALUE       any solver option below (also --KEY=VALUE, or KEY=VALUE)\n"
           "  Lis spellings: -i SOLVER, -p PRECOND, -tol T, -maxiter N, -restart M, -omega W\n"
           "\n%s"
           "\nExit status: 0 converged, 1 not converged, 2 bad input or usage,\n"
           "3 numerical failure (breakdown, indefinite, NaN, divergence, zero diagonal),\n"
           "130 / 143 interrupted by SIGINT / SIGTERM: the solve stops at the end of the\n"
           "iteration and no output is written (a second signal kills at once).\n",
           DEFAULT_PROBLEM, hpls_solver_help());
}

typedef struct monitor_state {
    int quiet;
} monitor_state;

/* Prints the first iterations, then every 10th, 100th ... (log spaced); stops
 * the solve at the end of this iteration once SIGINT or SIGTERM came. */
static int print_progress(void *ctx, hpls_int it, double resnorm, double relres)
{
    const monitor_state *m = ctx;
    (void)resnorm;
    hpls_int step = 1;
    while (it >= 10 * step && step < 1000000000)
        step *= 10;
    if (!m->quiet && it % step == 0) {
        printf("  %8lld   %.6e\n", (long long)it, relres);
        fflush(stdout); /* progress is for watching, also through a pipe */
    }
    return cli_interrupted() != 0;
}

/* Writes the residual history to file, the temporary name of path. */
static int write_history(const char *path, const char *file, const hpls_solver *s)
{
    hpls_int count;
    const hpls_int *its;
    const double *res, *sec;
    hpls_solver_history(s, &count, &its, &res, &sec);
    FILE *f = fopen(file, "w");
    int ok = f != NULL && fprintf(f, "iteration,relres,seconds\n") > 0;
    for (hpls_int k = 0; ok && k < count; k++)
        ok = fprintf(f, "%lld,%.17g,%.9f\n", (long long)its[k], res[k], sec[k]) > 0;
    int err = errno;
    if (f && fclose(f) != 0 && ok) {
        ok = 0;
        err = errno;
    }
    if (!ok)
        return cli_error("cannot write the history %s: %s", path, strerror(err));
    return 0;
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

/* Maps a Lis flag to the option key it spells, or NULL. */
static const char *lis_alias(const char *arg)
{
    static const char *const map[][2] = {{"-i", "solver"},        {"-p", "precond"},
                                         {"-tol", "tol"},         {"-maxiter", "maxiter"},
                                         {"-restart", "restart"}, {"-omega", "omega"}};
    for (size_t k = 0; k < sizeof map / sizeof map[0]; k++)
        if (strcmp(arg, map[k][0]) == 0)
            return map[k][1];
    return NULL;
}

int cmd_solve(int argc, char **argv)
{
    const char *files[2] = {NULL, NULL}, *out = NULL, *x0path = NULL, *hist = NULL, *spec = NULL;
    int nfiles = 0, json = 0, quiet = 0, rc = EXIT_USAGE;
    cli_problem pb = {0};
    hpls_vec *b = NULL, *x = NULL;
    hpls_solver *s = NULL;
    cli_output outputs[2] = {{0}}; /* x, history */
    cli_catch_signals();
    hpls_status st = hpls_solver_create(&s);
    if (st != HPLS_OK)
        return cli_fail(st, "cannot create the solver", hpls_last_error());
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v, *alias = lis_alias(a);
        char opt[160];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            print_help();
            rc = 0;
            goto cleanup;
        } else if (strcmp(a, "--json") == 0) {
            json = 1;
        } else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
            quiet = 1;
        } else if ((v = cli_flag_value(argc, argv, &i, "--gen"))) {
            spec = v;
        } else if ((v = cli_flag_value(argc, argv, &i, "--output")) ||
                   (v = cli_flag_value(argc, argv, &i, "-o"))) {
            out = v;
        } else if ((v = cli_flag_value(argc, argv, &i, "--x0"))) {
            x0path = v;
        } else if ((v = cli_flag_value(argc, argv, &i, "--history"))) {
            hist = v;
        } else if (alias || (a[0] == '-' && a[1] == '-' && a[2])) {
            /* a solver option: --key value, --key=value, or a Lis alias */
            const char *key = alias ? alias : a + 2;
            const char *eq = alias ? NULL : strchr(key, '=');
            if (!eq && i + 1 >= argc) {
                cli_error("%s needs a value", a);
                goto cleanup;
            }
            if (eq)
                snprintf(opt, sizeof opt, "%s", key);
            else
                snprintf(opt, sizeof opt, "%s=%s", key, argv[++i]);
            for (char *c = opt; *c && *c != '='; c++)
                if (*c == '-')
                    *c = '_';
            if ((st = hpls_solver_set_option(s, opt)) != HPLS_OK) {
                rc = cli_fail(st, NULL, hpls_solver_message(s));
                goto cleanup;
            }
        } else if (a[0] == '-' && a[1] != '\0') {
            cli_error("unknown flag %s (see hpls solve --help)", a);
            goto cleanup;
        } else if (strchr(a, '=') && !strchr(a, '/')) {
            if ((st = hpls_solver_set_option(s, a)) != HPLS_OK) {
                rc = cli_fail(st, NULL, hpls_solver_message(s));
                goto cleanup;
            }
        } else if (nfiles < 2) {
            files[nfiles++] = a;
        } else {
            cli_error("too many files: %s (expected A.mtx and optionally b.mtx)", a);
            goto cleanup;
        }
    }
    if (spec && files[0] && nfiles == 2) {
        cli_error("--gen replaces A.mtx: give at most b.mtx");
        goto cleanup;
    }
    if (spec && nfiles == 1) { /* with --gen the one file is b */
        files[1] = files[0];
        files[0] = NULL;
    }
    /* every check that needs no data comes before the (possibly long) read */
    const char *inputs[3] = {files[0], files[1], x0path};
    const char *names[3] = {"matrix", "right-hand side", "initial guess"};
    for (int k = 0; k < 3; k++)
        if (inputs[k] && (rc = cli_check_input(inputs[k], names[k])) != 0)
            goto cleanup;
    rc = EXIT_USAGE;
    if (out && hist && cli_same_path(out, hist)) {
        cli_error("-o %s and --history %s name the same file", out, hist);
        goto cleanup;
    }
    const char *outs[2] = {out, hist};
    for (int k = 0; k < 2; k++) {
        if (!outs[k])
            continue;
        if (cli_same_file(outs[k], inputs, 3)) {
            cli_error("output %s would overwrite an input file", outs[k]);
            goto cleanup;
        }
        if ((rc = cli_output_probe(outs[k])) != 0)
            goto cleanup;
        rc = EXIT_USAGE;
    }
    if ((rc = cli_load(files[0], files[0] ? NULL : (spec ? spec : DEFAULT_PROBLEM), 1, &pb)) != 0)
        goto cleanup;
    if (cli_interrupted()) { /* a read cannot be stopped midway: look after each phase */
        rc = cli_interrupt_exit(files[0] ? "while reading the matrix"
                                         : "while generating the matrix");
        goto cleanup;
    }
    rc = EXIT_USAGE;
    const hpls_int nrows = pb.A ? pb.A->nrows : pb.Ad->nrows;
    const hpls_int ncols = pb.A ? pb.A->ncols : pb.Ad->ncols;
    const hpls_int nnz = pb.A ? pb.A->nnz : nrows * ncols;
    int known_x = files[1] == NULL; /* b = A*1, so x_true = 1 */
    int b_array = 0;
    if (files[1] && (st = hpls_mm_is_array(files[1], &b_array)) != HPLS_OK) {
        rc = cli_fail(st, "cannot read the right-hand side", hpls_last_error());
        goto cleanup;
    }
    if (b_array) { /* n x k: many right-hand sides (cmd_solve_many.c) */
        hpls_dense *Bd = NULL;
        if ((st = hpls_mm_read_dense(files[1], &Bd)) != HPLS_OK) {
            rc = cli_fail(st, "cannot read the right-hand side", hpls_last_error());
            goto cleanup;
        }
        if (Bd->ncols > 1 && Bd->nrows > 1) {
            if (Bd->nrows != nrows)
                cli_error("%s has %lld rows but the matrix has %lld", files[1],
                          (long long)Bd->nrows, (long long)nrows);
            else if (x0path || hist)
                cli_error("--x0 and --history take one right-hand side; %s has %lld", files[1],
                          (long long)Bd->ncols);
            else
                rc = cli_solve_many(s, &pb, Bd, out, json, quiet);
            hpls_dense_destroy(Bd);
            goto cleanup;
        }
        hpls_dense_destroy(Bd); /* one column: read as a vector below */
    }
    if (files[1]) {
        if ((st = hpls_mm_read_vec(files[1], &b)) != HPLS_OK) {
            rc = cli_fail(st, "cannot read the right-hand side", hpls_last_error());
            goto cleanup;
        }
        if (b->n != nrows) {
            cli_error("%s has %lld entries but the matrix has %lld rows", files[1], (long long)b->n,
                      (long long)nrows);
            goto cleanup;
        }
    } else {
        hpls_vec *ones = NULL;
        if ((st = hpls_vec_create(ncols, &ones)) != HPLS_OK ||
            (st = hpls_vec_create(nrows, &b)) != HPLS_OK) {
            hpls_vec_destroy(ones);
            rc = cli_fail(st, "cannot allocate b", hpls_last_error());
            goto cleanup;
        }
        for (hpls_int i = 0; i < ones->n; i++)
            ones->data[i] = 1.0;
        if (pb.A) {
            hpls_csr_spmv(pb.A, ones, b);
        } else { /* b = A*1: the dense row sums */
            for (hpls_int i = 0; i < nrows; i++) {
                double sum = 0.0;
                for (hpls_int j = 0; j < ncols; j++)
                    sum += pb.Ad->data[i * ncols + j];
                b->data[i] = sum;
            }
        }
        hpls_vec_destroy(ones);
    }
    if (cli_interrupted()) {
        rc =
            cli_interrupt_exit(files[1] ? "while reading the right-hand side" : "before the setup");
        goto cleanup;
    }
    if (x0path) {
        if ((st = hpls_mm_read_vec(x0path, &x)) != HPLS_OK) {
            rc = cli_fail(st, "cannot read the initial guess", hpls_last_error());
            goto cleanup;
        }
        if (x->n != ncols) {
            cli_error("%s has %lld entries but the matrix has %lld columns", x0path,
                      (long long)x->n, (long long)ncols);
            goto cleanup;
        }
        hpls_solver_set_option(s, "initial_guess=given");
    } else if ((st = hpls_vec_create(ncols, &x)) != HPLS_OK) {
        rc = cli_fail(st, "cannot allocate x", hpls_last_error());
        goto cleanup;
    }
    if (cli_interrupted()) {
        rc = cli_interrupt_exit(x0path ? "while reading the initial guess" : "before the setup");
        goto cleanup;
    }
    monitor_state mon = {.quiet = quiet || json};
    hpls_solver_set_monitor(s, print_progress, &mon);
    st = pb.A ? hpls_solver_setup(s, pb.A) : hpls_solver_setup_dense(s, pb.Ad);
    if (st != HPLS_OK) {
        rc = cli_fail(st, "setup failed", hpls_solver_message(s));
        goto cleanup;
    }
    if (cli_interrupted()) {
        rc = cli_interrupt_exit("during the setup");
        goto cleanup;
    }
    hpls_info info;
    hpls_solver_get_info(s, &info); /* after setup: the threads it runs on */
    int threads = info.threads;
    if (!mon.quiet)
        printf("hpls solve: %s: n = %lld, nnz = %lld\n"
               "solver %s, precond %s, tol %s, maxiter %s, threads %d\n"
               "  iteration  relative residual\n",
               pb.label, (long long)nrows, (long long)nnz, hpls_solver_get_option(s, "solver"),
               hpls_solver_get_option(s, "precond"), hpls_solver_get_option(s, "tol"),
               hpls_solver_get_option(s, "maxiter"), threads);
    if ((st = hpls_solver_solve(s, b, x)) != HPLS_OK) {
        rc = cli_fail(st, "solve failed", hpls_solver_message(s));
        goto cleanup;
    }
    hpls_solver_get_info(s, &info);
    if (cli_interrupted()) {
        char when[64];
        snprintf(when, sizeof when, "after %lld iterations", (long long)info.iterations);
        rc = cli_interrupt_exit(when);
        goto cleanup;
    }
    double err = 0;
    for (hpls_int i = 0; known_x && i < x->n; i++)
        err = fmax(err, fabs(x->data[i] - 1.0));
    rc = cli_exit_code(info.reason);
    if (json) {
        printf("{\"problem\":");
        cli_json_string(pb.label);
        printf(",\"solver\":\"%s\",\"precond\":\"%s\",\"n\":%lld,\"nnz\":%lld,"
               "\"backend\":\"%s\",\"threads\":%d,\"iterations\":%lld,\"converged\":%s,\"relres\":%.6e,"
               "\"status\":\"%s\",\"setup_s\":%.6f,\"solve_s\":%.6f",
               hpls_solver_get_option(s, "solver"), hpls_solver_get_option(s, "precond"),
               (long long)nrows, (long long)nnz, hpls_solver_get_option(s, "backend"), threads,
               (long long)info.iterations,
               rc == 0 ? "true" : "false", info.relres, hpls_reason_str(info.reason), info.setup_s,
               info.solve_s);
        if (known_x)
            printf(",\"error\":%.6e", err);
        if (hpls_solver_trisolve(s))
            printf(",\"trisolve\":\"%s\"", hpls_solver_trisolve(s));
        printf("}\n");
    } else {
        if (!quiet)
            printf("  %8lld   %.6e\n", (long long)info.iterations, info.relres);
        printf("%s after %lld iterations: true relative residual %.3e",
               hpls_reason_str(info.reason), (long long)info.iterations, info.relres);
        if (known_x)
            printf(", max error vs x = 1: %.3e", err);
        printf("\nsetup %.4f s, solve %.4f s\n", info.setup_s, info.solve_s);
        if (hpls_solver_trisolve(s))
            printf("triangular solves: %s\n", hpls_solver_trisolve(s));
        if (hpls_solver_format(s))
            printf("format: %s\n", hpls_solver_format(s));
    }
    /* x after a breakdown, NaN or divergence is no answer: write nothing (exit 1,
     * stopped at maxiter or stagnating, still writes the last iterate) */
    int keep = rc != EXIT_NUMERICAL;
    if (rc != 0) {
        const char *why = hpls_solver_message(s);
        fprintf(stderr, "hpls: %s%s%s%s\n", hpls_reason_str(info.reason), *why ? ": " : "", why,
                !keep && (out || hist) ? "; no output written" : "");
    }
    if (!keep)
        goto cleanup;
    /* both outputs under temporary names first; renamed together at commit */
    if ((hist &&
         (cli_output_begin(&outputs[1], hist) || write_history(hist, outputs[1].file, s))) ||
        (out && cli_output_begin(&outputs[0], out))) {
        rc = EXIT_USAGE;
        goto cleanup;
    }
    if (out && (st = hpls_mm_write_vec(outputs[0].file, x)) != HPLS_OK) {
        rc = cli_fail(st, "cannot write x", hpls_last_error());
        goto cleanup;
    }
    int committed = cli_output_commit(outputs, 2, "while writing the output");
    if (committed)
        rc = committed;
cleanup:
    cli_output_discard(&outputs[0]);
    cli_output_discard(&outputs[1]);
    hpls_solver_destroy(s);
    cli_problem_free(&pb);
    hpls_vec_destroy(b);
    hpls_vec_destroy(x);
    return rc;
}
