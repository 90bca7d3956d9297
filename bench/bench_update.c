/* SPDX-License-Identifier: BSD-3-Clause */
/* bench_update.c: what hpls_solver_update_values saves: the seconds of a whole
 * setup against those of a values-only update (same pattern), in one run.
 *
 *   bench_update [--threads "1 2"] [--reps R] SPEC...
 *       prints the Markdown rows of bench/results/update_values.md
 *
 * Per matrix, thread count and configuration, the median of R full setups
 * (hpls_solver_setup on a fresh solver) and of R updates (the values scaled by
 * 1.01 between them). */
#define _POSIX_C_SOURCE 200809L

#include "bench_util.h"
#include "hpls.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Noreturn void die(const char *what, const char *detail)
{
    fprintf(stderr, "bench_update: %s%s\n", what, detail ? detail : "");
    exit(2);
}

int main(int argc, char **argv)
{
    const char *threads = "1 2";
    int reps = 5, first = 1;
    for (; first < argc && strncmp(argv[first], "--", 2) == 0; first += 2) {
        if (first + 1 >= argc)
            die("a value is missing after ", argv[first]);
        if (strcmp(argv[first], "--threads") == 0)
            threads = argv[first + 1];
        else if (strcmp(argv[first], "--reps") == 0)
            reps = atoi(argv[first + 1]);
        else
            die("unknown option ", argv[first]);
    }
    if (reps < 1 || reps > 100 || first >= argc)
        die("usage: bench_update [--threads \"1 2\"] [--reps R] SPEC...", NULL);
    static const char *const configs[] = {
        "solver=bicgstab precond=dilu trisolve=auto", "solver=bicgstab precond=ilu0 trisolve=auto",
        "solver=bicgstab precond=dilu trisolve=levels", "solver=bicgstab precond=jacobi",
        "solver=hisa", "solver=bicg precond=ilu0 trisolve=levels"};
    for (int a = first; a < argc; a++) {
        hpls_csr *A;
        if (hpls_gen_csr(argv[a], &A, NULL) != HPLS_OK)
            die("generator: ", hpls_last_error());
        char list[64];
        snprintf(list, sizeof list, "%s", threads);
        for (char *tok = strtok(list, " "); tok; tok = strtok(NULL, " ")) {
            for (size_t c = 0; c < sizeof configs / sizeof *configs; c++) {
                if (strstr(configs[c], "hisa") && !strstr(argv[a], "gas"))
                    continue; /* hisa: the quasi-tridiagonal matrices only */
                char opt[160];
                snprintf(opt, sizeof opt, "%s threads=%s", configs[c], tok);
                double full[100], upd[100];
                hpls_solver *s = NULL;
                hpls_info info;
                for (int r = 0; r < reps; r++) {
                    hpls_solver_destroy(s);
                    if (hpls_solver_create(&s) != HPLS_OK || hpls_solver_set_options(s, opt) ||
                        hpls_solver_setup(s, A) != HPLS_OK)
                        die("setup: ", hpls_last_error());
                    hpls_solver_get_info(s, &info);
                    full[r] = info.setup_s;
                }
                for (int r = 0; r < reps; r++) {
                    for (hpls_int k = 0; k < A->nnz; k++)
                        A->val[k] *= 1.01;
                    if (hpls_solver_update_values(s, A) != HPLS_OK)
                        die("update: ", hpls_solver_message(s));
                    hpls_solver_get_info(s, &info);
                    upd[r] = info.setup_s;
                }
                hpls_solver_destroy(s);
                double f = median(full, reps), u = median(upd, reps);
                printf("| %s | %s | %s | %.2f | %.2f | %.3f |\n", argv[a], configs[c], tok,
                       1e3 * f, 1e3 * u, u / f);
                fflush(stdout);
            }
        }
        hpls_csr_destroy(A);
    }
    return 0;
}
