/* SPDX-License-Identifier: BSD-3-Clause */
/* options.h: the options of a solver and of a preconditioner object: one table
 * (options.c) that the parser, the defaults, the checks and --help share, the
 * names the command line takes as --key value. */
#ifndef HPLS_OPTIONS_H
#define HPLS_OPTIONS_H

#include "solver.h"

/* The defaults, then HPLS_OPTIONS (the environment's defaults for every
 * solver and preconditioner object, as PETSC_OPTIONS); none counts as set. */
hpls_status hpls_optset_init(hpls_optset *os, hpls_options *opt, char *msg, size_t msglen);
/* One "key=value"; several separated by spaces or commas. */
hpls_status hpls_optset_set(hpls_optset *os, const char *keyvalue);
hpls_status hpls_optset_set_list(hpls_optset *os, const char *options);
/* The value of key as given (NULL: no such option); whether the user set it. */
const char *hpls_optset_get(const hpls_optset *os, const char *key);
int hpls_optset_is_set(const hpls_optset *os, const char *key);
/* 1 if options (one "key=value" or a list) names only options the solve
 * alone reads (tol, atol, rtol_ref, maxiter, miniter, confirm, divtol,
 * stag_window, initial_guess), which may change between solves without a new setup; 0 for
 * anything else, an unknown key or nothing. */
int hpls_optset_solve_only(const char *options);
/* The first option the user set that does not apply to what uses the flags
 * `uses` (a method's and its preconditioner's flags), or NULL.  generic: 1 for
 * a solver (tol, maxiter ... apply to every method), 0 for a preconditioner
 * object (only its own options, threads and backend apply). */
const char *hpls_optset_unused(const hpls_optset *os, unsigned uses, int generic);
/* What a preconditioner reads of o (precond/pc.h), filled before its setup. */
hpls_pcopts hpls_options_pc(const hpls_options *o);

#endif
