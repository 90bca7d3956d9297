/* registry.c: the methods and preconditioners by name.  Adding one is a file
 * plus a line here; --help and the option checks read these tables. */
#include "solver.h"

const hpls_method hpls_methods[] = {
    {.name = "jacobi",
     .help = "Jacobi (weighted with omega), x += omega D^-1 (b - A x)",
     .flags = HPLS_M_OMEGA | HPLS_M_DIAG,
     .nwork = 1,
     .solve = hpls_solve_jacobi},
    {.name = "gs",
     .help = "Gauss-Seidel, forward: a true sequential sweep (the reference for PJG and HISA)",
     .flags = HPLS_M_DIAG,
     .nwork = 2,
     .solve = hpls_solve_gs},
    {.name = "sor",
     .help = "successive over-relaxation with omega, forward sweeps (sequential)",
     .flags = HPLS_M_OMEGA | HPLS_M_DIAG,
     .nwork = 2,
     .solve = hpls_solve_sor},
    {.name = "ssor",
     .help = "symmetric SOR with omega: a forward and a backward sweep (sequential)",
     .flags = HPLS_M_OMEGA | HPLS_M_DIAG,
     .nwork = 2,
     .solve = hpls_solve_ssor},
    {.name = "cg",
     .help = "conjugate gradients (symmetric positive definite A and M)",
     .flags = HPLS_M_PRECOND,
     .nwork = 4,
     .solve = hpls_solve_cg},
    {.name = "bicgstab",
     .help = "BiCGSTAB (van der Vorst 1992), right preconditioned",
     .flags = HPLS_M_PRECOND,
     .nwork = 8,
     .solve = hpls_solve_bicgstab},
};
const int hpls_nmethods = sizeof hpls_methods / sizeof hpls_methods[0];

const hpls_pc_type hpls_pc_types[] = {
    {.name = "none", .help = "no preconditioner"},
    {.name = "jacobi",
     .help = "diagonal scaling, z = D^-1 r (a zero diagonal entry is an error at setup)",
     .setup = hpls_pc_setup_jacobi},
    {.name = "ssor",
     .help = "symmetric SOR with omega (1: symmetric Gauss-Seidel), sequential sweeps",
     .flags = HPLS_M_OMEGA,
     .setup = hpls_pc_setup_ssor},
};
const int hpls_npc_types = sizeof hpls_pc_types / sizeof hpls_pc_types[0];
