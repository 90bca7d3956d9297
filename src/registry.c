/* registry.c: the methods and preconditioners by name.  Adding one is a file
 * plus a line here; --help and the option checks read these tables. */
#include "solver.h"

const hpls_method hpls_methods[] = {
    {"jacobi", "Jacobi (weighted with omega), x += omega D^-1 (b - A x)",
     HPLS_M_OMEGA | HPLS_M_DIAG, 1, hpls_solve_jacobi},
    {"gs", "Gauss-Seidel, forward: a true sequential sweep (the reference for PJG and HISA)",
     HPLS_M_DIAG, 2, hpls_solve_gs},
    {"cg", "conjugate gradients (symmetric positive definite A and M)", HPLS_M_PRECOND, 4,
     hpls_solve_cg},
    {"bicgstab", "BiCGSTAB (van der Vorst 1992), right preconditioned", HPLS_M_PRECOND, 8,
     hpls_solve_bicgstab},
};
const int hpls_nmethods = sizeof hpls_methods / sizeof hpls_methods[0];

const hpls_pc_type hpls_pc_types[] = {
    {"none", "no preconditioner", NULL},
    {"jacobi", "diagonal scaling, z = D^-1 r (a zero diagonal entry is an error at setup)",
     hpls_pc_setup_jacobi},
};
const int hpls_npc_types = sizeof hpls_pc_types / sizeof hpls_pc_types[0];
