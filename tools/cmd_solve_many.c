/* SPDX-License-Identifier: BSD-3-Clause */
/* cmd_solve_many.c: `hpls solve A.mtx B.mtx` when B is an n x k array: the k
 * right-hand sides in one hpls_solver_solve_many, a report line per column,
 * X written as an n x k array. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <stdlib.h>

int cli_many_report(const hpls_solver *s, const char *label, hpls_int n, hpls_int k, int ranks,
                    const hpls_info *inf, int json, int quiet)
{
    hpls_info all;
    hpls_solver_get_info(s, &all);
    int rc = EXIT_CONVERGED; /* the worst column decides */
    hpls_int converged = 0;
    for (hpls_int j = 0; j < k; j++) {
        int c = cli_exit_code(inf[j].reason);
        rc = c > rc ? c : rc;
        converged += c == EXIT_CONVERGED;
    }
    if (json) {
        printf("{\"problem\":");
        cli_json_string(label);
        printf(",\"solver\":\"%s\",\"precond\":\"%s\",\"n\":%lld,\"nrhs\":%lld,",
               hpls_solver_get_option(s, "solver"), hpls_solver_get_option(s, "precond"),
               (long long)n, (long long)k);
        if (ranks > 0)
            printf("\"backend\":\"mpi\",\"ranks\":%d,", ranks);
        printf("\"setup_s\":%.6f,\"solve_s\":%.6f,\"converged\":%s", all.setup_s,
               all.solve_s, rc == 0 ? "true" : "false");
        cli_json_condition(&all);
        printf(",\"columns\":[");
    }
    for (hpls_int j = 0; j < k; j++) {
        if (json)
            printf("%s{\"iterations\":%lld,\"relres\":%.6e,\"status\":\"%s\"}", j ? "," : "",
                   (long long)inf[j].iterations, inf[j].relres, hpls_reason_str(inf[j].reason));
        else if (!quiet)
            printf("column %lld: %s after %lld iterations: true relative residual %.3e\n",
                   (long long)j + 1, hpls_reason_str(inf[j].reason), (long long)inf[j].iterations,
                   inf[j].relres);
    }
    if (json)
        printf("]}\n");
    else /* the summary line, all that --quiet prints */
        printf("%lld right-hand sides, %lld converged: setup %.4f s, solve %.4f s (%.4f s per "
               "column)\n",
               (long long)k, (long long)converged, all.setup_s, all.solve_s,
               all.solve_s / (double)(k ? k : 1));
    cli_warn_condition(&all);
    return rc;
}

int cli_solve_many(hpls_solver *s, const cli_problem *pb, const hpls_dense *Bd, const char *out,
                   int json, int quiet)
{
    hpls_int n = Bd->nrows, k = Bd->ncols;
    hpls_real *B = malloc((size_t)(n * k) * sizeof *B), *X = calloc((size_t)(n * k), sizeof *X);
    hpls_info *inf = malloc((size_t)k * sizeof *inf);
    hpls_dense Xd = {n, k, NULL};
    cli_output o = {0};
    int rc = EXIT_USAGE;
    if (!B || !X || !inf || !(Xd.data = malloc((size_t)(n * k) * sizeof *Xd.data))) {
        rc = cli_error("cannot allocate %lld right-hand sides of %lld values", (long long)k,
                       (long long)n);
        goto done;
    }
    for (hpls_int i = 0; i < n; i++) /* row-major file order -> a column after another */
        for (hpls_int j = 0; j < k; j++)
            B[j * n + i] = Bd->data[i * k + j];
    hpls_status st = pb->A ? hpls_solver_setup(s, pb->A) : hpls_solver_setup_dense(s, pb->Ad);
    if (st != HPLS_OK) {
        rc = cli_fail(st, "setup failed", hpls_solver_message(s));
        goto done;
    }
    if (!quiet && !json)
        printf("hpls solve: %s: n = %lld, %lld right-hand sides\nsolver %s, precond %s, tol %s, "
               "maxiter %s\n",
               pb->label, (long long)n, (long long)k, hpls_solver_get_option(s, "solver"),
               hpls_solver_get_option(s, "precond"), hpls_solver_get_option(s, "tol"),
               hpls_solver_get_option(s, "maxiter"));
    if ((st = hpls_solver_solve_many(s, k, B, X, inf)) != HPLS_OK) {
        rc = cli_fail(st, "solve failed", hpls_solver_message(s));
        goto done;
    }
    if (cli_interrupted()) {
        rc = cli_interrupt_exit("during the solves");
        goto done;
    }
    rc = cli_many_report(s, pb->label, n, k, 0, inf, json, quiet);
    if (rc == EXIT_NUMERICAL) {
        fprintf(stderr, "hpls: a column failed numerically%s\n", out ? "; no output written" : "");
        goto done;
    }
    if (!out)
        goto done;
    for (hpls_int i = 0; i < n; i++)
        for (hpls_int j = 0; j < k; j++)
            Xd.data[i * k + j] = X[j * n + i];
    int wrc = cli_output_begin(&o, out);
    if (!wrc && (st = hpls_mm_write_dense(o.file, &Xd)) != HPLS_OK)
        wrc = cli_fail(st, "cannot write X", hpls_last_error());
    if (!wrc)
        wrc = cli_output_commit(&o, 1, "while writing the output");
    if (wrc)
        rc = wrc;
done:
    cli_output_discard(&o);
    free(B);
    free(X);
    free(inf);
    free(Xd.data);
    return rc;
}
