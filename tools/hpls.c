/* SPDX-License-Identifier: BSD-3-Clause */
/* hpls.c: the command: `hpls solve | info | gen`, with --help everywhere. */
#define _POSIX_C_SOURCE 200809L

#include "cli.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

static const char usage[] =
    "usage: hpls COMMAND [ARGS]\n"
    "\n"
    "Sparse linear solvers for multicore CPUs (hpls %d.%d.%d).\n"
    "\n"
    "Commands:\n"
    "  solve [A.mtx [b.mtx]] [options]   solve A x = b (no matrix: the built-in gas problem)\n"
    "  info A.mtx | --gen SPEC           size, symmetry, diagonal dominance, band structure\n"
    "  gen SPEC -o A.mtx [-b b.mtx]      write a generated test matrix\n"
    "\n"
    "Run `hpls COMMAND --help` for the options of each command.\n"
    "Exit status: 0 converged, 1 not converged, 2 bad input or usage, 3 numerical failure,\n"
    "130 / 143 interrupted by SIGINT / SIGTERM (no output written).\n";

int cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("hpls: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return EXIT_USAGE;
}

int cli_status_exit(hpls_status st)
{
    return st == HPLS_ERR_ZERO_DIAG || st == HPLS_ERR_SINGULAR ? EXIT_NUMERICAL : EXIT_USAGE;
}

int cli_fail(hpls_status st, const char *what, const char *detail)
{
    if (!detail || !*detail)
        detail = hpls_strerror(st);
    if (what)
        cli_error("%s: %s", what, detail);
    else
        cli_error("%s", detail);
    return cli_status_exit(st);
}

int cli_load(const char *path, const char *spec, int allow_dense, cli_problem *pb)
{
    memset(pb, 0, sizeof *pb);
    hpls_status st;
    int dense = 0;
    if (path) {
        int rc = cli_check_input(path, "matrix");
        if (rc)
            return rc;
        snprintf(pb->label, sizeof pb->label, "%s", path);
        st = allow_dense ? hpls_mm_is_array(path, &dense) : HPLS_OK;
        if (st == HPLS_OK)
            st = dense ? hpls_mm_read_dense(path, &pb->Ad) : hpls_mm_read_csr(path, &pb->A);
    } else {
        snprintf(pb->label, sizeof pb->label, "%s", spec);
        dense = allow_dense && strncmp(spec, "dense-dd", 8) == 0;
        st = dense ? hpls_gen_dense(spec, &pb->Ad, &pb->b) : hpls_gen_csr(spec, &pb->A, &pb->b);
    }
    if (st != HPLS_OK)
        return cli_fail(st, path ? "cannot read the matrix" : "cannot generate the matrix",
                        hpls_last_error());
    return 0;
}

void cli_problem_free(cli_problem *pb)
{
    hpls_csr_destroy(pb->A);
    hpls_dense_destroy(pb->Ad);
    hpls_vec_destroy(pb->b);
    memset(pb, 0, sizeof *pb);
}

const char *cli_take_value(int argc, char **argv, int *i, size_t len)
{
    const char *a = argv[*i];
    const char *v = a[len] == '=' ? a + len + 1 : *i + 1 < argc ? argv[*i + 1] : NULL;
    /* "-o --json", "-o -b b.mtx": the next flag is not a value ("--output=-b" can name
     * such a file; "-1", "-.5" are values) */
    int flag = a[len] != '=' && v && v[0] == '-' && (v[1] == '-' || isalpha((unsigned char)v[1]));
    if (!v || !*v || flag) {
        if (v && *v)
            cli_error("%.*s needs a value, not the flag %s", (int)len, a, v);
        else
            cli_error("%.*s needs a value", (int)len, a);
        exit(EXIT_USAGE); /* before anything was read, written or computed */
    }
    if (a[len] != '=')
        ++*i;
    return v;
}

const char *cli_flag_value(int argc, char **argv, int *i, const char *flag)
{
    size_t len = strlen(flag);
    if (strncmp(argv[*i], flag, len) != 0 || (argv[*i][len] != '=' && argv[*i][len] != '\0'))
        return NULL;
    return cli_take_value(argc, argv, i, len);
}

/* Threads that wait at OpenMP barriers should sleep, not spin: with the
 * policy unset, libgomp spins 300000 rounds first, and when another process
 * holds a core a spinning thread burns the time slice its partner needs
 * (2 threads 3-6x slower than 1 on a loaded 2-core machine).  The runtime
 * reads its environment once, as it loads (before main), so the command sets
 * OMP_WAIT_POLICY=passive and runs itself again; a user's own setting
 * (OMP_WAIT_POLICY, GOMP_SPINCOUNT, KMP_BLOCKTIME) is left as it is.  If the
 * new start fails, the command goes on under the runtime's policy.
 * Not when the user binds threads (OMP_PROC_BIND, OMP_PLACES, GOMP_CPU_AFFINITY):
 * the runtime has then already bound this thread to the first place, the new
 * start inherits that one core as its whole CPU set, and every thread would
 * share it (2 threads as slow as 1: gas 1e6 BiCGSTAB 1.80 s vs 0.92 s). */
static void passive_wait_policy(char **argv)
{
    if (getenv("OMP_WAIT_POLICY") || getenv("GOMP_SPINCOUNT") || getenv("KMP_BLOCKTIME"))
        return;
    const char *bind = getenv("OMP_PROC_BIND");
    if ((bind && strcasecmp(bind, "false") != 0) || getenv("OMP_PLACES") ||
        getenv("GOMP_CPU_AFFINITY"))
        return;
    if (setenv("OMP_WAIT_POLICY", "passive", 1) == 0)
        execv("/proc/self/exe", argv);
}

int main(int argc, char **argv)
{
    passive_wait_policy(argv);
    if (argc < 2) {
        fprintf(stderr, usage, HPLS_VERSION_MAJOR, HPLS_VERSION_MINOR, HPLS_VERSION_PATCH);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        printf(usage, HPLS_VERSION_MAJOR, HPLS_VERSION_MINOR, HPLS_VERSION_PATCH);
        return 0;
    }
    if (strcmp(cmd, "--version") == 0) {
        printf("hpls %d.%d.%d\n", HPLS_VERSION_MAJOR, HPLS_VERSION_MINOR, HPLS_VERSION_PATCH);
        return 0;
    }
    if (strcmp(cmd, "solve") == 0) {
        if (cli_mpi_launched()) /* never without MPI (no_mpi.c) */
            return cli_mpi_main(argc - 1, argv + 1);
        return cmd_solve(argc - 1, argv + 1);
    }
    if (strcmp(cmd, "info") == 0)
        return cmd_info(argc - 1, argv + 1);
    if (strcmp(cmd, "gen") == 0)
        return cmd_gen(argc - 1, argv + 1);
    cli_error("unknown command \"%s\" (solve, info, gen; see hpls --help)", cmd);
    return EXIT_USAGE;
}
