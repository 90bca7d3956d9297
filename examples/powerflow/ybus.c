/* SPDX-License-Identifier: BSD-3-Clause */
/* ybus.c: the network of a MATPOWER case in internal numbering and its bus admittance
 * matrix. Each in-service branch is the standard pi model (series admittance
 * y = 1/(r + jx), total charging susceptance b, off-nominal tap t at the "from" end with
 * complex ratio tau = t e^{j shift}, t = 0 read as 1):
 *   Y_ff += (y + jb/2) / t^2    Y_ft -= y / conj(tau)
 *   Y_tt +=  y + jb/2           Y_tf -= y / tau
 * and each bus adds its shunt (GS + j BS) / baseMVA (MW and MVAr at V = 1 p.u.).
 * Bus numbers are arbitrary integers; isolated buses (type 4) and their branches
 * and generators are left out; a PV bus without an online generator becomes PQ. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "powerflow.h"

/* MATPOWER column numbers (0-based) */
enum { BUS_I = 0, BUS_TYPE = 1, PD = 2, QD = 3, GS = 4, BS = 5, VM = 7, VA = 8 };
enum { GEN_BUS = 0, PG = 1, QG = 2, VG = 5, GEN_STATUS = 7 };
enum { F_BUS = 0, T_BUS = 1, BR_R = 2, BR_X = 3, BR_B = 4, TAP = 8, SHIFT = 9, BR_STATUS = 10 };

static int fail(char *err, const char *file, int line, const char *fmt, ...) {
  int k = snprintf(err, PF_ERRLEN, "%s:%d: ", file, line);
  if (k < 0 || k >= PF_ERRLEN) return -1; /* the file name alone fills err: no room left */
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err + k, PF_ERRLEN - (size_t)k, fmt, ap);
  va_end(ap);
  return -1;
}

/* A case bus number and its internal index (-1 for an isolated bus). */
typedef struct bus_key {
  int id;
  int idx;
} bus_key;

static int cmp_key(const void *a, const void *b) {
  int x = ((const bus_key *)a)->id;
  int y = ((const bus_key *)b)->id;
  return (x > y) - (x < y);
}

/* The internal index of bus number x read from `what` on `line`: 0 and *idx set, or -1. */
static int lookup(const bus_key *keys, int nkeys, double x, const pf_case *c, const char *what,
                  int line, int *idx, char *err) {
  const bus_key *hit = NULL;
  if (x == floor(x) && fabs(x) < 2e9) { /* converted only once it fits an int */
    bus_key k = {(int)x, 0};
    hit = bsearch(&k, keys, (size_t)nkeys, sizeof k, cmp_key);
  }
  if (!hit) return fail(err, c->file, line, "%s: bus %g is not in mpc.bus", what, x);
  *idx = hit->idx;
  return 0;
}

/* One Ybus contribution (row, col, value) before assembly. */
typedef struct triplet {
  int i;
  int j;
  double complex y;
} triplet;

/* Assemble triplets into CSR, summing duplicates; every row has its diagonal because a
 * diagonal triplet was added for every bus. */
static int assemble(int n, const triplet *t, int nt, pf_ybus *y) {
  y->n = n;
  y->rowptr = calloc((size_t)n + 1, sizeof *y->rowptr);
  y->col = malloc((size_t)nt * sizeof *y->col);
  y->val = malloc((size_t)nt * sizeof *y->val);
  y->diag = malloc((size_t)n * sizeof *y->diag);
  int *next = malloc((size_t)n * sizeof *next);
  if (!y->rowptr || !y->col || !y->val || !y->diag || !next) {
    free(next);
    return -1;
  }
  for (int k = 0; k < nt; k++) y->rowptr[t[k].i + 1]++;
  for (int i = 0; i < n; i++) y->rowptr[i + 1] += y->rowptr[i];
  memcpy(next, y->rowptr, (size_t)n * sizeof *next);
  for (int k = 0; k < nt; k++) {
    int p = next[t[k].i]++;
    y->col[p] = t[k].j;
    y->val[p] = t[k].y;
  }
  free(next);
  int out = 0;
  for (int i = 0; i < n; i++) {
    int lo = y->rowptr[i];
    int hi = y->rowptr[i + 1];
    for (int p = lo + 1; p < hi; p++) { /* insertion sort by column: rows are short */
      int cj = y->col[p];
      double complex cv = y->val[p];
      int q = p;
      for (; q > lo && y->col[q - 1] > cj; q--) {
        y->col[q] = y->col[q - 1];
        y->val[q] = y->val[q - 1];
      }
      y->col[q] = cj;
      y->val[q] = cv;
    }
    y->rowptr[i] = out;
    for (int p = lo; p < hi; p++) {
      if (out > y->rowptr[i] && y->col[out - 1] == y->col[p]) {
        y->val[out - 1] += y->val[p];
      } else {
        y->col[out] = y->col[p];
        y->val[out] = y->val[p];
        if (y->col[p] == i) y->diag[i] = out;
        out++;
      }
    }
  }
  y->rowptr[n] = out;
  return 0;
}

/* Buses: numbering, types, loads, shunts, stored state. */
static int read_buses(const pf_case *c, bus_key *keys, pf_net *net, double complex *shunt,
                      char *err) {
  const pf_matrix *b = &c->bus;
  int n = 0;
  int nref = 0;
  for (int r = 0; r < b->rows; r++) {
    const double *row = b->v + (size_t)r * b->cols;
    double id = row[BUS_I];
    double type = row[BUS_TYPE];
    if (id != floor(id) || fabs(id) >= 2e9)
      return fail(err, c->file, b->line[r], "mpc.bus: bus number %g is not an integer", id);
    if (type != PF_PQ && type != PF_PV && type != PF_REF && type != PF_ISOLATED)
      return fail(err, c->file, b->line[r], "mpc.bus: bus %g has type %g (expected 1, 2, 3 or 4)",
                  id, type);
    keys[r].id = (int)id;
    keys[r].idx = type == PF_ISOLATED ? -1 : n;
    if (type == PF_ISOLATED) continue;
    nref += type == PF_REF;
    net->id[n] = (int)id;
    net->type[n] = (int)type;
    net->sspec[n] = -(row[PD] + I * row[QD]) / c->base_mva;
    net->vset[n] = row[VM];
    net->vcase[n] = row[VM] * cexp(I * row[VA] * PF_RAD_PER_DEG);
    shunt[n] = (row[GS] + I * row[BS]) / c->base_mva;
    n++;
  }
  net->n = n;
  if (nref == 0)
    return fail(err, c->file, b->at, "mpc.bus: no reference bus (type 3) among %d buses", b->rows);
  qsort(keys, (size_t)b->rows, sizeof *keys, cmp_key);
  for (int r = 1; r < b->rows; r++)
    if (keys[r].id == keys[r - 1].id)
      return fail(err, c->file, b->at, "mpc.bus: bus number %d appears twice", keys[r].id);
  return 0;
}

/* Online generators: injections, voltage setpoints; PV buses without one become PQ. */
static int read_gens(const pf_case *c, const bus_key *keys, pf_net *net, char *err) {
  const pf_matrix *g = &c->gen;
  char *has_gen = calloc((size_t)net->n + 1, 1);
  if (!has_gen) return fail(err, c->file, g->at, "out of memory");
  for (int r = 0; r < g->rows; r++) {
    const double *row = g->v + (size_t)r * g->cols;
    int k = -1;
    if (lookup(keys, c->bus.rows, row[GEN_BUS], c, "mpc.gen", g->line[r], &k, err)) {
      free(has_gen);
      return -1;
    }
    if (k < 0 || !(row[GEN_STATUS] > 0)) continue;
    net->sspec[k] += (row[PG] + I * row[QG]) / c->base_mva;
    if (!has_gen[k]) net->vset[k] = row[VG];
    has_gen[k] = 1;
  }
  for (int k = 0; k < net->n; k++)
    if (net->type[k] == PF_PV && !has_gen[k]) net->type[k] = PF_PQ;
  free(has_gen);
  return 0;
}

/* In-service branches: four pi-model triplets each, appended to t. */
static int read_branches(const pf_case *c, const bus_key *keys, pf_net *net, triplet *t, int *nt,
                         char *err) {
  const pf_matrix *br = &c->branch;
  net->nbranch = 0;
  for (int r = 0; r < br->rows; r++) {
    const double *row = br->v + (size_t)r * br->cols;
    int f = -1;
    int to = -1;
    if (lookup(keys, c->bus.rows, row[F_BUS], c, "mpc.branch", br->line[r], &f, err)) return -1;
    if (lookup(keys, c->bus.rows, row[T_BUS], c, "mpc.branch", br->line[r], &to, err)) return -1;
    if (row[BR_STATUS] == 0 || f < 0 || to < 0) continue;
    double complex z = row[BR_R] + I * row[BR_X];
    if (z == 0)
      return fail(err, c->file, br->line[r], "mpc.branch: branch %g-%g has zero impedance",
                  row[F_BUS], row[T_BUS]);
    double complex ys = 1.0 / z;
    double complex ych = I * row[BR_B] / 2.0;
    double tap = row[TAP] == 0 ? 1.0 : row[TAP];
    double complex tau = tap * cexp(I * row[SHIFT] * PF_RAD_PER_DEG);
    t[(*nt)++] = (triplet){f, f, (ys + ych) / (tap * tap)};
    t[(*nt)++] = (triplet){to, to, ys + ych};
    t[(*nt)++] = (triplet){f, to, -ys / conj(tau)};
    t[(*nt)++] = (triplet){to, f, -ys / tau};
    net->nbranch++;
  }
  return 0;
}

int pf_net_build(const pf_case *c, pf_net *net, char *err) {
  memset(net, 0, sizeof *net);
  int nb = c->bus.rows;
  size_t cap = (size_t)nb + 4 * (size_t)c->branch.rows;
  bus_key *keys = malloc(((size_t)nb + 1) * sizeof *keys);
  double complex *shunt = malloc(((size_t)nb + 1) * sizeof *shunt);
  triplet *t = malloc((cap + 1) * sizeof *t);
  net->id = malloc(((size_t)nb + 1) * sizeof *net->id);
  net->type = malloc(((size_t)nb + 1) * sizeof *net->type);
  net->sspec = malloc(((size_t)nb + 1) * sizeof *net->sspec);
  net->vset = malloc(((size_t)nb + 1) * sizeof *net->vset);
  net->vcase = malloc(((size_t)nb + 1) * sizeof *net->vcase);
  int rc = -1;
  int nt = 0;
  if (!keys || !shunt || !t || !net->id || !net->type || !net->sspec || !net->vset || !net->vcase) {
    fail(err, c->file, c->bus.at, "out of memory");
    goto free_work;
  }
  if (read_buses(c, keys, net, shunt, err) || read_gens(c, keys, net, err) ||
      read_branches(c, keys, net, t, &nt, err))
    goto free_work;
  for (int k = 0; k < net->n; k++) t[nt++] = (triplet){k, k, shunt[k]};
  if (assemble(net->n, t, nt, &net->y)) {
    fail(err, c->file, c->bus.at, "out of memory");
    goto free_work;
  }
  for (int k = 0; k < net->n; k++)
    if (net->type[k] != PF_REF && net->y.val[net->y.diag[k]] == 0) {
      fail(err, c->file, c->bus.at, "mpc.bus: bus %d is not connected (Y_ii = 0)", net->id[k]);
      goto free_work;
    }
  rc = 0;
free_work:
  free(keys);
  free(shunt);
  free(t);
  if (rc) pf_net_free(net);
  return rc;
}

void pf_net_free(pf_net *net) {
  free(net->id);
  free(net->type);
  free(net->sspec);
  free(net->vset);
  free(net->vcase);
  free(net->y.rowptr);
  free(net->y.col);
  free(net->y.val);
  free(net->y.diag);
  memset(net, 0, sizeof *net);
}
