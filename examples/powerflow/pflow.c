/* SPDX-License-Identifier: BSD-3-Clause */
/* pflow.c: the Gauss-Seidel power flow and its PJG form (Ahmadi et al., IEEE TPDS
 * 32(7), 2021, Sec. 9). With S_i = P_i + jQ_i the specified injection at bus i,
 * the GS update of bus i from the voltages V is (the textbook GS power flow, e.g.
 * Grainger & Stevenson, Power System Analysis, 1994)
 *   V_i <- V_i + ( conj(S_i) / conj(V_i) - (Y V)_i ) / Y_ii,
 * i.e. V_i <- (conj(S_i)/conj(V_i) - sum_{j != i} Y_ij V_j) / Y_ii. A PV bus first takes
 * Q_i = Im(V_i conj((Y V)_i)) from the current voltages, then keeps its new angle and
 * its magnitude setpoint; the reference bus is fixed. An optional acceleration factor
 * alpha gives V_i <- V_i + alpha (V_i^GS - V_i) at PQ buses (MATPOWER's gausspf uses
 * none, alpha = 1). Buses are swept PQ first, then PV, in file order, as gausspf does.
 *
 * PJG (Eqs. 3-5) partitions the sweep into blocks of psize consecutive buses, the
 * partial identities P_1..P_t of a decomposition of the identity: block l is updated
 * from x_{k,l-1} -- the previous blocks' new values and its own old ones -- all of its
 * buses at once, in parallel (Eq. 3); x_{k+1} = x_{k,t} (Eq. 4). psize = 1 is the GS
 * sweep, psize = n the Jacobi sweep. Both are computed by one routine, which reads
 * V_j from the new vector when bus j's position in the sweep precedes the block, and
 * from the old one otherwise; so gs and pjg with psize = 1 give identical iterates,
 * and a run is bit-for-bit repeatable for any thread count. */
#include <math.h>
#include <omp.h>
#include <stdlib.h>

#include "powerflow.h"

/* One sweep's fixed data. */
typedef struct sweep_data {
  const pf_net *net;
  const int *order;  /* m non-reference buses in sweep order */
  const int *pos;    /* n: a bus's position in order; m for reference buses */
  int m;
  double accel;
} sweep_data;

/* The new voltage of bus i, reading V_j from vnew when pos[j] < start, else from vold. */
static double complex bus_update(const sweep_data *d, int i, int start, const double complex *vold,
                                 const double complex *vnew) {
  const pf_net *net = d->net;
  const pf_ybus *y = &net->y;
  double complex yv = 0; /* (Y V)_i */
  for (int p = y->rowptr[i]; p < y->rowptr[i + 1]; p++) {
    int j = y->col[p];
    yv += y->val[p] * (d->pos[j] < start ? vnew[j] : vold[j]);
  }
  double complex s = net->sspec[i];
  if (net->type[i] == PF_PV) s = creal(s) + I * cimag(vold[i] * conj(yv));
  double complex vgs = vold[i] + (conj(s) / conj(vold[i]) - yv) / y->val[y->diag[i]];
  if (net->type[i] == PF_PV) return net->vset[i] * vgs / cabs(vgs);
  return vold[i] + d->accel * (vgs - vold[i]);
}

/* One iteration: vnew from vold (reference buses already equal in both). */
static void sweep(const sweep_data *d, int psize, int sequential, const double complex *vold,
                  double complex *vnew) {
  if (sequential) { /* Gauss-Seidel, Eq. (2): each bus sees all earlier updates */
    for (int k = 0; k < d->m; k++) vnew[d->order[k]] = bus_update(d, d->order[k], k, vold, vnew);
    return;
  }
#pragma omp parallel
  for (int b = 0; b < d->m; b += psize) { /* block l = [b, e): Eq. (3) */
    int e = b + psize < d->m ? b + psize : d->m;
#pragma omp for schedule(static)
    for (int k = b; k < e; k++) vnew[d->order[k]] = bus_update(d, d->order[k], b, vold, vnew);
  } /* the implicit barrier of each block makes its values the next block's input */
}

/* z / |z|, or 1 for z = 0 (a stored magnitude of 0 carries no angle). */
static double complex unit(double complex z) { return z == 0 ? 1.0 : z / cabs(z); }

void pf_start(const pf_net *net, int warm, double complex *v) {
  double theta = 0; /* the (first) reference bus's stored angle */
  for (int i = 0; i < net->n; i++)
    if (net->type[i] == PF_REF) {
      theta = carg(net->vcase[i]);
      break;
    }
  for (int i = 0; i < net->n; i++) {
    double complex u = warm || net->type[i] == PF_REF ? unit(net->vcase[i]) : cexp(I * theta);
    double mag = warm ? cabs(net->vcase[i]) : 1.0;
    if (net->type[i] != PF_PQ) mag = net->vset[i];
    v[i] = mag * u;
  }
}

double pf_mismatch(const pf_net *net, const double complex *v) {
  const pf_ybus *y = &net->y;
  double worst = 0;
#pragma omp parallel for schedule(static) reduction(max : worst)
  for (int i = 0; i < net->n; i++) {
    if (net->type[i] == PF_REF) continue;
    double complex yv = 0;
    for (int p = y->rowptr[i]; p < y->rowptr[i + 1]; p++) yv += y->val[p] * v[y->col[p]];
    double complex ds = v[i] * conj(yv) - net->sspec[i]; /* S_calc - S_spec */
    double e = net->type[i] == PF_PV ? fabs(creal(ds)) : cabs(ds);
    if (isnan(e)) e = INFINITY;
    worst = e > worst ? e : worst;
  }
  return worst;
}

int pf_solve(const pf_net *net, const pf_opts *o, double complex *v, pf_result *r) {
  int n = net->n;
  int *order = malloc(((size_t)n + 1) * sizeof *order);
  int *pos = malloc(((size_t)n + 1) * sizeof *pos);
  double complex *w = malloc(((size_t)n + 1) * sizeof *w);
  r->iterations = 0;
  r->converged = 0;
  r->mismatch = INFINITY;
  r->seconds = 0;
  int rc = -1;
  if (!order || !pos || !w) goto free_work;
  int m = 0;
  for (int pass = PF_PQ; pass <= PF_PV; pass++) /* PQ buses, then PV buses */
    for (int i = 0; i < n; i++)
      if (net->type[i] == pass) {
        pos[i] = m;
        order[m++] = i;
      }
  for (int i = 0; i < n; i++) {
    if (net->type[i] == PF_REF) pos[i] = m;
    w[i] = v[i];
  }
  sweep_data d = {net, order, pos, m, o->accel};
  int psize = o->psize < 1 ? 1 : o->psize;
  double t0 = omp_get_wtime();
  double complex *vold = v;
  double complex *vnew = w;
  r->mismatch = pf_mismatch(net, vold);
  while (r->mismatch > o->tol && r->iterations < o->maxiter && isfinite(r->mismatch)) {
    sweep(&d, psize, o->sequential, vold, vnew);
    double complex *t = vold;
    vold = vnew;
    vnew = t;
    r->iterations++;
    r->mismatch = pf_mismatch(net, vold);
  }
  r->seconds = omp_get_wtime() - t0;
  r->converged = r->mismatch <= o->tol;
  if (vold != v)
    for (int i = 0; i < n; i++) v[i] = vold[i];
  rc = 0;
free_work:
  free(order);
  free(pos);
  free(w);
  return rc;
}
