/* cli.h: what the subcommands of `hpls` share: exit codes, messages, the
 * input (file or generator), and safe output paths. */
#ifndef HPLS_CLI_H
#define HPLS_CLI_H

#include "hpls.h"

#include <stdio.h>

enum {
    EXIT_CONVERGED = 0,
    EXIT_NOT_CONVERGED = 1,
    EXIT_USAGE = 2,   /* bad input or usage */
    EXIT_NUMERICAL = 3 /* breakdown, singular, divergence */
};

/* "hpls: error: ..." on stderr; returns EXIT_USAGE (or the code for st). */
int cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Exit code for a library status: numerical failures 3, the rest 2. */
int cli_status_exit(hpls_status st);
/* Prints "hpls: error: [<what>: ]<detail>" for a failed library call (detail: the
 * library's message, or the status name) and returns its exit code. */
int cli_fail(hpls_status st, const char *what, const char *detail);

/* The matrix to work on: a Matrix Market file, or a generator spec. */
typedef struct cli_problem {
    hpls_csr *A;      /* the matrix in CSR, or NULL when dense */
    hpls_dense *Ad;   /* a dense matrix (array-format file, or dense-dd, when allowed) */
    hpls_vec *b;      /* from the file or generator; NULL if none */
    char label[512];  /* file name or generator spec */
} cli_problem;
/* Loads A from path, or from spec when path is NULL; on failure prints and returns
 * the exit code.  allow_dense: an array-format file or a dense-dd spec loads as dense. */
int cli_load(const char *path, const char *spec, int allow_dense, cli_problem *pb);
void cli_problem_free(cli_problem *pb);

/* 1 if path names the same file as any of the n inputs (so it must not be overwritten). */
int cli_same_file(const char *path, const char *const *inputs, int n);
/* Parses "--key=value" / "--key value" at argv[*i]; returns the value or NULL. */
const char *cli_flag_value(int argc, char **argv, int *i, const char *flag);

int cmd_solve(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_gen(int argc, char **argv);

#endif
