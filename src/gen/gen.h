/* SPDX-License-Identifier: BSD-3-Clause */
/* gen.h: what the test-matrix generators share (private to src/gen).
 *
 * A generator is a table of options and a setup function.  gen.c parses the spec
 * "name:key=value,..." against the table, then setup checks what the table cannot
 * (limits that involve two options), derives its parameters and names two row
 * functions.  gen.c builds the matrix from those, row by row and in parallel: a
 * row is a pure function of (options, row index), its random numbers come from a
 * counter-based generator keyed by (seed, row), so the result does not depend on
 * the number of threads. */
#ifndef HPLS_GEN_H
#define HPLS_GEN_H

#include "core/internal.h"

#include <stdint.h>

#define GEN_MAX_OPTS 8 /* options of one generator */
#define GEN_MAX_PAR 12 /* derived parameters of one generator */
/* Largest order generated with every entry stored (dense forms, dense-dd):
 * 20000^2 doubles are 3.2 GB. */
#define GEN_DENSE_MAX 20000

/* One option: a number in a range, or one word of a list. */
typedef struct gen_opt {
    const char *key;
    const char *def;   /* default as shown in the help: a number, a word, or the key
                          of an earlier option whose value it copies ("ny=nx") */
    const char *words; /* non-NULL: the value is one of these words, "a|b"; stored
                          as the word's index */
    int integer;       /* 1: the value must be integral (1e6 is accepted) */
    double lo, hi;     /* accepted range, hi may be INFINITY */
    int lo_open;       /* 1: lo itself is excluded (q > 0) */
    const char *help;  /* what it means, for hpls_gen_help */
} gen_opt;

/* A matrix being generated: the parsed options and what setup derives from them. */
typedef struct gen_matrix {
    const char *name;         /* the generator's name, for messages */
    double opt[GEN_MAX_OPTS]; /* option values in table order */
    unsigned given;           /* bit j: option j was written in the spec */
    hpls_int n;               /* order (rows = columns); set by setup */
    double par[GEN_MAX_PAR];  /* generator-defined parameters; set by setup */
    int rhs_ones;             /* 1: b = ones; 0: b = A*1 (row sums) */
    /* entries in row i */
    hpls_int (*row_len)(const struct gen_matrix *g, hpls_int i);
    /* writes row i, row_len(g, i) entries in increasing column order */
    void (*row)(const struct gen_matrix *g, hpls_int i, hpls_idx *col, hpls_real *val);
} gen_matrix;

typedef struct gen_def {
    const char *name;
    const char *about;   /* one line for the help */
    const gen_opt *opts; /* terminated by an entry with key NULL */
    /* Checks the options together, sets n, par, rhs_ones, row_len, row; a failure
     * is an HPLS_ERR_OPTION recorded with hpls_fail. */
    hpls_status (*setup)(gen_matrix *g);
} gen_def;

extern const gen_def gen_gas, gen_poisson2d, gen_poisson3d, gen_convdiff3d, gen_dense_dd,
    gen_tridiag, gen_random;

/* Fails with an HPLS_ERR_OPTION if option j was written in the spec although the
 * other options make it meaningless (STYLE: such keys are reported, not ignored). */
hpls_status gen_reject_given(const gen_matrix *g, const gen_def *def, int j, const char *why);

/* ---- box-grid stencils (poisson.c), shared by poisson2d/3d and convdiff3d ----
 * Unknowns on an nx x ny x nz grid, numbered x fastest; row i couples to its up
 * to six neighbours with constant coefficients; missing neighbours (Dirichlet
 * boundary) are dropped.  par layout: */
enum {
    GEN_BOX_NX,
    GEN_BOX_NY,
    GEN_BOX_NZ,
    GEN_BOX_DOWN,   /* coefficient of (x, y, z-1) */
    GEN_BOX_SOUTH,  /* (x, y-1, z) */
    GEN_BOX_WEST,   /* (x-1, y, z) */
    GEN_BOX_CENTRE, /* (x, y, z) */
    GEN_BOX_EAST,   /* (x+1, y, z) */
    GEN_BOX_NORTH,  /* (x, y+1, z) */
    GEN_BOX_UP      /* (x, y, z+1) */
};
/* Sets g->n = nx*ny*nz and the grid part of par, the row functions and b = A*1;
 * fails if the grid has more than 2^31-1 points. */
hpls_status gen_box_grid(gen_matrix *g, hpls_int nx, hpls_int ny, hpls_int nz);

/* Rows lo .. hi-1 of the matrix spec generates, for a rank of a distributed
 * solve (src/mpi): *n its order; rowptr (hi - lo + 1 offsets from 0), global
 * columns col and values val of those rows, and b's entries (hpls_malloc'd,
 * the caller frees).  hi < 0: only *n (and the spec checked). */
hpls_status hpls_gen_rows(const char *spec, hpls_int lo, hpls_int hi, hpls_int *n,
                          hpls_int **rowptr, hpls_int **col, hpls_real **val, hpls_real **b);

/* ---- counter-based random numbers (rng.c) -------------------------------
 * Stream number `stream` of seed `seed` (a row index, or GEN_STREAM_GLOBAL for
 * matrix-wide draws): the k-th number depends only on (seed, stream, k). */
#define GEN_STREAM_GLOBAL UINT64_MAX
typedef struct gen_rng {
    uint64_t key; /* derived from (seed, stream) */
    uint64_t ctr; /* numbers drawn so far */
} gen_rng;

void gen_rng_init(gen_rng *r, uint64_t seed, uint64_t stream);
uint64_t gen_rng_u64(gen_rng *r);
double gen_rng_unit(gen_rng *r);                        /* uniform in [0, 1) */
double gen_rng_uniform(gen_rng *r, double a, double b); /* uniform in [a, b) */
hpls_int gen_rng_below(gen_rng *r, hpls_int m);         /* uniform in 0 .. m-1, 0 < m < 2^32 */

#endif /* HPLS_GEN_H */
