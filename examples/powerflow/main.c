/* SPDX-License-Identifier: BSD-3-Clause */
/* main.c: the powerflow command -- read a MATPOWER case, solve the power flow by
 * Gauss-Seidel or PJG (Ahmadi et al., IEEE TPDS 32(7), 2021, Sec. 9), report the
 * iterations, the time, the largest mismatch, and the agreement with the voltages
 * stored in the case. Exit 0 converged, 1 not converged, 2 bad input or usage. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "powerflow.h"

/* A stored state whose mismatch is below this is taken as a solved power flow. */
#define SOLVED_STATE_TOL 1e-3

static const char *usage =
    "usage: powerflow CASE.m [options]\n"
    "Solve the AC power flow of a MATPOWER case by Gauss-Seidel or PJG.\n"
    "  --method gs|pjg   gs: sequential Gauss-Seidel sweep; pjg: blocks of psize buses,\n"
    "                    each block updated in parallel (default gs)\n"
    "  --psize P         PJG block size, 1 = GS, n = Jacobi (default: half the\n"
    "                    non-reference buses, the paper's choice; pjg only)\n"
    "  --tol T           max bus power mismatch, p.u. (default 1e-8)\n"
    "  --maxiter N       iteration limit (default 1000000)\n"
    "  --threads N       OpenMP threads (default: OpenMP's; pjg only, gs runs on one)\n"
    "  --accel A         acceleration factor at PQ buses (default 1, as MATPOWER)\n"
    "  --warm            start from the case's VM, VA instead of a flat start\n"
    "  --json            one JSON object instead of text\n"
    "  --print-ybus      print Ybus (bus numbers, G, B) and exit\n"
    "  --help            this text\n"
    "Exit status: 0 converged, 1 not converged, 2 bad input or usage.\n";

/* Options of the command. */
typedef struct cli {
  const char *file;
  int pjg;
  int psize;  /* 0: default */
  double tol;
  long maxiter;
  int threads;
  double accel;
  int warm;
  int json;
  int print_ybus;
} cli;

static int bad_value(const char *opt, const char *val) {
  fprintf(stderr, "powerflow: bad value '%s' for %s\n%s", val, opt, usage);
  return 2;
}

static int parse_number(const char *s, double lo, double *out) {
  char *end;
  double x = strtod(s, &end);
  if (end == s || *end != '\0' || !(x >= lo) || !isfinite(x)) return -1;
  *out = x;
  return 0;
}

/* Returns -1 on success (go on), otherwise the exit status. */
static int parse_args(int argc, char **argv, cli *a) {
  *a = (cli){NULL, 0, 0, 1e-8, 1000000, 0, 1.0, 0, 0, 0};
  for (int k = 1; k < argc; k++) {
    const char *o = argv[k];
    double x;
    if (strcmp(o, "--help") == 0 || strcmp(o, "-h") == 0) {
      fputs(usage, stdout);
      return 0;
    } else if (strcmp(o, "--warm") == 0) {
      a->warm = 1;
    } else if (strcmp(o, "--json") == 0) {
      a->json = 1;
    } else if (strcmp(o, "--print-ybus") == 0) {
      a->print_ybus = 1;
    } else if (o[0] == '-' && o[1] == '-') {
      if (k + 1 >= argc) {
        fprintf(stderr, "powerflow: %s needs a value\n%s", o, usage);
        return 2;
      }
      const char *v = argv[++k];
      if (strcmp(o, "--method") == 0) {
        if (strcmp(v, "gs") != 0 && strcmp(v, "pjg") != 0) return bad_value(o, v);
        a->pjg = strcmp(v, "pjg") == 0;
      } else if (strcmp(o, "--psize") == 0) {
        if (parse_number(v, 1, &x) || x != floor(x) || x > 1e9) return bad_value(o, v);
        a->psize = (int)x;
      } else if (strcmp(o, "--tol") == 0) {
        if (parse_number(v, 0, &x) || x == 0) return bad_value(o, v);
        a->tol = x;
      } else if (strcmp(o, "--maxiter") == 0) {
        if (parse_number(v, 0, &x) || x != floor(x) || x > 1e15) return bad_value(o, v);
        a->maxiter = (long)x;
      } else if (strcmp(o, "--threads") == 0) {
        if (parse_number(v, 1, &x) || x != floor(x) || x > 4096) return bad_value(o, v);
        a->threads = (int)x;
      } else if (strcmp(o, "--accel") == 0) {
        if (parse_number(v, 0, &x) || x == 0 || x >= 2) return bad_value(o, v);
        a->accel = x;
      } else {
        fprintf(stderr, "powerflow: unknown option '%s'\n%s", o, usage);
        return 2;
      }
    } else if (!a->file) {
      a->file = o;
    } else {
      fprintf(stderr, "powerflow: unexpected argument '%s'\n%s", o, usage);
      return 2;
    }
  }
  if (!a->file) {
    fprintf(stderr, "powerflow: no case file\n%s", usage);
    return 2;
  }
  if ((a->psize || a->threads) && !a->pjg) {
    fprintf(stderr, "powerflow: --psize and --threads apply to --method pjg only\n");
    return 2;
  }
  return -1;
}

static void print_ybus(const pf_net *net) {
  const pf_ybus *y = &net->y;
  printf("Ybus: %d buses, %d nonzeros (bus_i bus_j G B, p.u.)\n", y->n, y->rowptr[y->n]);
  for (int i = 0; i < y->n; i++)
    for (int p = y->rowptr[i]; p < y->rowptr[i + 1]; p++)
      printf("%d %d %.6f %.6f\n", net->id[i], net->id[y->col[p]], creal(y->val[p]),
             cimag(y->val[p]));
}

int main(int argc, char **argv) {
  cli a;
  int rc = parse_args(argc, argv, &a);
  if (rc >= 0) return rc;
  if (a.threads || !a.pjg) omp_set_num_threads(a.pjg ? a.threads : 1); /* gs: sequential */
  char err[PF_ERRLEN];
  pf_case cs;
  pf_net net;
  if (pf_case_read(a.file, &cs, err)) {
    fprintf(stderr, "powerflow: %s\n", err);
    return 2;
  }
  rc = pf_net_build(&cs, &net, err);
  pf_case_free(&cs);
  if (rc) {
    fprintf(stderr, "powerflow: %s\n", err);
    return 2;
  }
  if (a.print_ybus) {
    print_ybus(&net);
    pf_net_free(&net);
    return 0;
  }
  int count[PF_REF + 1] = {0};
  for (int i = 0; i < net.n; i++) count[net.type[i]]++;
  int m = count[PF_PQ] + count[PF_PV];
  pf_opts o = {a.pjg ? (a.psize ? a.psize : (m + 1) / 2) : 1, !a.pjg, a.accel, a.tol, a.maxiter};
  double complex *v = malloc(((size_t)net.n + 1) * sizeof *v);
  pf_result r;
  if (v) pf_start(&net, a.warm, v);
  if (!v || pf_solve(&net, &o, v, &r)) {
    fprintf(stderr, "powerflow: out of memory\n");
    free(v);
    pf_net_free(&net);
    return 2;
  }
  double stored = pf_mismatch(&net, net.vcase); /* does the case carry a solved state? */
  double dvm = 0;
  double dva = 0;
  for (int i = 0; i < net.n; i++) {
    double e = fabs(cabs(v[i]) - cabs(net.vcase[i]));
    double t = fabs(carg(v[i] * conj(net.vcase[i]))) / PF_RAD_PER_DEG;
    dvm = e > dvm ? e : dvm;
    dva = t > dva ? t : dva;
  }
  int threads = omp_get_max_threads();
  const char *solved = stored <= SOLVED_STATE_TOL ? "true" : "false";
  if (a.json) {
    printf("{\"case\":\"%s\",\"buses\":%d,\"ref\":%d,\"pv\":%d,\"pq\":%d,\"branches\":%d,"
           "\"method\":\"%s\",\"psize\":%d,\"threads\":%d,\"accel\":%g,\"start\":\"%s\","
           "\"converged\":%s,\"iterations\":%ld,\"seconds\":%.6g,\"mismatch\":%.3e,"
           "\"stored_mismatch\":%.3e,\"stored_solved\":%s,\"max_dvm\":%.3e,\"max_dva_deg\":%.3e}\n",
           a.file, net.n, count[PF_REF], count[PF_PV], count[PF_PQ], net.nbranch,
           a.pjg ? "pjg" : "gs", o.psize, threads, a.accel, a.warm ? "warm" : "flat",
           r.converged ? "true" : "false", r.iterations, r.seconds, r.mismatch, stored, solved,
           dvm, dva);
  } else {
    printf("%s: %d buses (%d ref, %d PV, %d PQ), %d branches, Ybus nnz %d\n", a.file, net.n,
           count[PF_REF], count[PF_PV], count[PF_PQ], net.nbranch, net.y.rowptr[net.n]);
    printf("method %s, psize %d, threads %d, accel %g, %s start\n", a.pjg ? "pjg" : "gs",
           o.psize, threads, a.accel, a.warm ? "warm" : "flat");
    printf("%s after %ld iterations, %.4f s, max mismatch %.3e p.u.\n",
           r.converged ? "converged" : isfinite(r.mismatch) ? "NOT converged" : "diverged",
           r.iterations, r.seconds, r.mismatch);
    printf("stored state: mismatch %.3e p.u. (%s); vs ours max |dVM| %.3e p.u., max |dVA| %.3e deg\n",
           stored, stored <= SOLVED_STATE_TOL ? "a solved state" : "not a solved state", dvm, dva);
  }
  free(v);
  pf_net_free(&net);
  return r.converged ? 0 : 1;
}
