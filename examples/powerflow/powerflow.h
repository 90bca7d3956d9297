/* SPDX-License-Identifier: BSD-3-Clause */
/* powerflow.h: the power-flow example of hpls -- a MATPOWER case reader, the bus
 * admittance matrix Ybus, and the Gauss-Seidel / PJG power-flow iteration
 * (Ahmadi et al., IEEE TPDS 32(7), 2021, Sec. 9). Self-contained: it uses no hpls
 * internals. Every function that can fail returns 0, or -1 with a message
 * "FILE:LINE: what (value)" written into err (PF_ERRLEN bytes). */
#ifndef HPLS_POWERFLOW_H
#define HPLS_POWERFLOW_H

#include <complex.h>

#define PF_ERRLEN 512
#define PF_RAD_PER_DEG (3.14159265358979323846 / 180.0)

/* A numeric MATLAB matrix read from the case file, row-major. */
typedef struct pf_matrix {
  int rows;     /* number of rows */
  int cols;     /* values per row (every row has the same count) */
  double *v;    /* rows*cols values, v[r*cols + c] */
  int *line;    /* rows: the file line on which each row starts */
  int at;       /* line of the "mpc.NAME = [" statement, 0 if absent */
} pf_matrix;

/* The parts of a MATPOWER case that a power flow needs. */
typedef struct pf_case {
  const char *file;  /* the file name, for messages (not owned) */
  double base_mva;   /* mpc.baseMVA */
  int base_line;     /* its line, 0 if absent */
  pf_matrix bus;     /* mpc.bus: BUS_I TYPE PD QD GS BS AREA VM VA ... */
  pf_matrix gen;     /* mpc.gen: BUS PG QG QMAX QMIN VG MBASE STATUS ... */
  pf_matrix branch;  /* mpc.branch: F T R X B RATEA RATEB RATEC RATIO ANGLE STATUS ... */
} pf_case;

enum { PF_PQ = 1, PF_PV = 2, PF_REF = 3, PF_ISOLATED = 4 };

/* Ybus as CSR of complex doubles; row i holds bus i's self and mutual admittances. */
typedef struct pf_ybus {
  int n;                 /* buses */
  int *rowptr;           /* n+1 */
  int *col;              /* nnz, ascending within a row */
  double complex *val;   /* nnz */
  int *diag;             /* n: position of Y_ii in col/val */
} pf_ybus;

/* The network in internal numbering 0..n-1 (isolated buses left out). */
typedef struct pf_net {
  int n;                  /* buses in service */
  int nbranch;            /* branches in service */
  int *id;                /* n: the case's bus number of each bus */
  int *type;              /* n: PF_PQ, PF_PV or PF_REF */
  double complex *sspec;  /* n: (Pg - Pd) + j(Qg - Qd), p.u. */
  double *vset;           /* n: |V| setpoint (VG of the first online generator) */
  double complex *vcase;  /* n: the case's stored VM angle VA (VA in radians) */
  pf_ybus y;              /* bus admittance matrix */
} pf_net;

/* Iteration options and results. */
typedef struct pf_opts {
  int psize;       /* PJG block size (1 = Gauss-Seidel, n = Jacobi) */
  int sequential;  /* 1: the plain sequential GS sweep (method gs) */
  double accel;    /* acceleration factor for PQ buses, 1 = none */
  double tol;      /* max mismatch, p.u. */
  long maxiter;
} pf_opts;

typedef struct pf_result {
  long iterations;
  double mismatch;  /* final max mismatch, p.u. */
  int converged;
  double seconds;
} pf_result;

/* matpower.c */
int pf_case_read(const char *file, pf_case *c, char *err);
void pf_case_free(pf_case *c);

/* ybus.c */
int pf_net_build(const pf_case *c, pf_net *net, char *err);
void pf_net_free(pf_net *net);

/* pflow.c */
void pf_start(const pf_net *net, int warm, double complex *v);
double pf_mismatch(const pf_net *net, const double complex *v);
/* Iterate from v until the mismatch is <= tol, maxiter or divergence; v is the result.
 * Returns -1 only when out of memory. */
int pf_solve(const pf_net *net, const pf_opts *o, double complex *v, pf_result *r);

#endif
