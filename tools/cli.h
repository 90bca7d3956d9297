/* SPDX-License-Identifier: BSD-3-Clause */
/* cli.h: what the subcommands of `hpls` share: exit codes, messages, the
 * input (file or generator), and safe output paths. */
#ifndef HPLS_CLI_H
#define HPLS_CLI_H

#include "hpls.h"

#include <stddef.h>
#include <stdio.h>

enum {
    EXIT_CONVERGED = 0,
    EXIT_NOT_CONVERGED = 1,
    EXIT_USAGE = 2,    /* bad input or usage */
    EXIT_NUMERICAL = 3 /* breakdown, singular, divergence */
    /* 128 + signal (130 SIGINT, 143 SIGTERM): interrupted, no output written */
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
    hpls_csr *A;     /* the matrix in CSR, or NULL when dense */
    hpls_dense *Ad;  /* a dense matrix (array-format file, or dense-dd, when allowed) */
    hpls_vec *b;     /* from the file or generator; NULL if none */
    char label[512]; /* file name or generator spec */
} cli_problem;
/* Loads A from path, or from spec when path is NULL; on failure prints and returns
 * the exit code.  allow_dense: an array-format file or a dense-dd spec loads as dense. */
int cli_load(const char *path, const char *spec, int allow_dense, cli_problem *pb);
void cli_problem_free(cli_problem *pb);

/* ---- files and signals (files.c) ---- */
/* 0 if path is a regular file to read; else prints why ("the <what> X: it is a
 * directory", "not a regular file", "No such file") and returns EXIT_USAGE. */
int cli_check_input(const char *path, const char *what);
/* 1 if a and b name one file: the same inode when both exist, else the same
 * canonical name (./x.mtx, dir/../x.mtx); symlinks and hard links included. */
int cli_same_path(const char *a, const char *b);
/* 1 if path names the same file as any of the n inputs (NULL entries skipped). */
int cli_same_file(const char *path, const char *const *inputs, int n);
/* Before the work: 0 if path can be created (a directory, a missing or read-only
 * parent is reported now, not after a long solve); nothing is left behind. */
int cli_output_probe(const char *path);

/* An output written under a temporary name in a private directory beside its
 * target, "<path>.tmp.XXXXXX/<name>", and renamed over path at commit; a
 * target that exists and is not a regular file (/dev/null, /dev/stdout, a
 * FIFO) is written in place instead: renamed over, it would be replaced. */
typedef struct cli_output {
    const char *path; /* the target */
    char *file;       /* where to write it now; NULL once committed or discarded */
    int in_place;     /* file is path itself: nothing to rename or remove */
} cli_output;
int cli_output_begin(cli_output *o, const char *path);
/* Removes the temporary file and directory (accepts one never begun: file NULL). */
void cli_output_discard(cli_output *o);
/* With SIGINT/SIGTERM blocked: if a signal came, discards all n outputs and
 * returns cli_interrupt_exit(when); otherwise renames each over its target. */
int cli_output_commit(cli_output *outs, int n, const char *when);

/* SIGINT, SIGTERM: set a flag, restore the default action (a second signal kills). */
void cli_catch_signals(void);
/* The signal that came (SIGINT, SIGTERM), or 0. */
int cli_interrupted(void);
/* Prints "hpls: interrupted by SIGINT <when>; no output written" and returns
 * 128 + the signal number (130, 143), the shell's status for a signal. */
int cli_interrupt_exit(const char *when);
/* The same with another outcome than "no output written": "...; <outcome><path>". */
int cli_interrupt_report(const char *when, const char *outcome, const char *path);
/* The value of the flag whose name is the first len bytes of argv[*i]: what follows
 * its '=' ("--key=value"), else the next argument, consumed ("--key value").  A
 * missing value -- the flag given last, an empty value, or another flag (-b, --json)
 * in its place -- is a usage error for every flag of every command: the message
 * names the flag and the process ends with EXIT_USAGE at once.  Commands read all
 * their arguments before they open, compute or write anything, so nothing has begun. */
const char *cli_take_value(int argc, char **argv, int *i, size_t len);
/* If argv[*i] is flag ("--key" or "--key=..."): its value (cli_take_value); else NULL. */
const char *cli_flag_value(int argc, char **argv, int *i, const char *flag);

/* Prints text as a JSON string (quotes, backslashes, control bytes escaped). */
void cli_json_string(const char *text);
/* A number in JSON, which has no NaN or Inf: those are null. */
void cli_json_number(double v);
/* The report's last lines: the final iteration (unless quiet), then the
 * outcome with the true relative residual and, when x = 1 is known, the error. */
void cli_summary(const hpls_info *info, int quiet, int known_x, double err);
/* A direct method's condition estimate: JSON's ",\"rcond\":...,\"ill_conditioned\":..."
 * (nothing for the other methods), and the one warning line on stderr of an
 * ill-conditioned A (solved, exit 0: docs/bad_inputs.md). */
void cli_json_condition(const hpls_info *info);
void cli_warn_condition(const hpls_info *info);
/* The exit code of a solve's reason: 0 converged, 1 not converged, 3 numerical. */
int cli_exit_code(hpls_reason r);
/* After a solve with exit code rc: the ill-conditioning warning, and when rc
 * is not 0 the reason and s's message on stderr.  Returns 1 when x is to be
 * written to out: not after a breakdown, NaN or divergence (rc 3; exit 1,
 * stopped at maxiter or stagnating, still writes the last iterate). */
int cli_outcome(const hpls_solver *s, const hpls_info *info, int rc, const char *out,
                const char *hist);
/* `hpls solve` with an n x k right-hand side Bd (k > 1): sets s up on pb, solves
 * every column, reports, writes X to out (may be NULL).  Returns the exit code. */
int cli_solve_many(hpls_solver *s, const cli_problem *pb, const hpls_dense *Bd, const char *out,
                   int json, int quiet);
/* The report of k solved right-hand sides (inf: each column's outcome): a line
 * per column and the summary line, or one JSON object ("backend":"mpi" and
 * "ranks" when ranks > 0).  Returns the exit code of the worst column. */
int cli_many_report(const hpls_solver *s, const char *label, hpls_int n, hpls_int k, int ranks,
                    const hpls_info *inf, int json, int quiet);

/* The live --history file (cmd_solve.c): "iteration,relres,seconds" (relres:
 * precond_relres when the test was on the preconditioned norm), rows added
 * as the solve goes, flushed every 10 rows or 0.5 s. */
typedef struct cli_history {
    const hpls_solver *s; /* whose history */
    FILE *file;           /* NULL: none, or closed */
    hpls_int written;     /* rows written */
    hpls_int flushed;     /* ... and flushed */
    double flush_s;       /* the seconds column at the last flush */
    int err;              /* errno of a failed write (the file is then left alone) */
} cli_history;
/* After the setup (the header names s's test): creates path; returns 0, or
 * EXIT_USAGE with a message. */
int cli_history_open(cli_history *h, const hpls_solver *s, const char *path);
/* In the monitor: the rows so far but the last, which the solve may still
 * replace by the true residual (nothing when no file is open). */
void cli_history_update(cli_history *h);
/* After the solve, whatever its outcome: the last rows, the file closed;
 * returns 0, or EXIT_USAGE with a message if a write failed. */
int cli_history_close(cli_history *h, const char *path);

/* ---- MPI (mpi_solve.c, built with HPLS_MPI; without, no_mpi.c) ---- */
/* 1 when started by mpirun / mpiexec (the command then runs distributed). */
int cli_mpi_launched(void);
/* `hpls solve` on every rank: MPI_Init_thread (FUNNELED), cmd_solve, MPI_Finalize. */
int cli_mpi_main(int argc, char **argv);
/* 1 inside cli_mpi_main. */
int cli_mpi_active(void);
/* What `hpls solve` was asked, for the distributed solve. */
typedef struct cli_dist_job {
    const char *matrix; /* A.mtx, or NULL: spec */
    const char *bfile;  /* b.mtx, n x 1 or n x k (k right-hand sides), or NULL: b = A 1 */
    const char *x0;     /* --x0, or NULL */
    const char *hist;   /* --history, or NULL */
    const char *spec;   /* --gen (or the default problem) when matrix is NULL */
    const char *out;    /* -o, or NULL */
    const char *read;   /* --read: "auto", "root" or "parallel" */
    int json, quiet;
} cli_dist_job;
/* The distributed solve of cmd_solve with *sp's options (destroyed, set to
 * NULL): A read as job->read says or generated, b, B and x0 read by rank 0;
 * prints on rank 0 and writes the history there live, gathers x (or X) to
 * write it.  Returns the exit code, the same on every rank. */
int cli_solve_dist(hpls_solver **sp, const cli_dist_job *job);

int cmd_solve(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_gen(int argc, char **argv);

#endif
