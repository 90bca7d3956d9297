/* SPDX-License-Identifier: BSD-3-Clause */
/* registry.c: the methods and preconditioners by name.  Adding one is a file
 * plus a line here; --help and the option checks read these tables. */
#include "solver.h"

const hpls_method hpls_methods[] = {
    {.name = "jacobi",
     .help = "Jacobi (weighted with omega), x += omega D^-1 (b - A x)",
     .flags =
         HPLS_M_OMEGA | HPLS_M_DIAG | HPLS_M_DENSE | HPLS_M_DEVICE | HPLS_M_DIST | HPLS_M_BLKDEV,
     .nwork = 1,
     .solve = hpls_solve_jacobi,
     .solve_block = hpls_solve_jacobi_block},
    {.name = "gs",
     .help = "Gauss-Seidel, forward: a true sequential sweep (the reference for PJG and HISA); "
             "CSR or dense (on a device: CSR, the sweep scheduled by trisolve)",
     .flags = HPLS_M_DIAG | HPLS_M_DENSE | HPLS_M_DIST | HPLS_M_DEVICE | HPLS_M_RELAX,
     .nwork = 2,
     .setup = hpls_setup_relax,
     .solve = hpls_solve_gs,
     .destroy = hpls_destroy_relax},
    {.name = "sor",
     .help = "successive over-relaxation with omega, forward sweeps (sequential); CSR or dense "
             "(on a device: CSR, the sweep scheduled by trisolve)",
     .flags =
         HPLS_M_OMEGA | HPLS_M_DIAG | HPLS_M_DENSE | HPLS_M_DIST | HPLS_M_DEVICE | HPLS_M_RELAX,
     .nwork = 2,
     .setup = hpls_setup_relax,
     .solve = hpls_solve_sor,
     .destroy = hpls_destroy_relax},
    {.name = "ssor",
     .help = "symmetric SOR with omega: a forward and a backward sweep (sequential); CSR or "
             "dense (on a device: CSR, the sweeps scheduled by trisolve)",
     .flags =
         HPLS_M_OMEGA | HPLS_M_DIAG | HPLS_M_DENSE | HPLS_M_DIST | HPLS_M_DEVICE | HPLS_M_RELAX,
     .nwork = 2,
     .setup = hpls_setup_relax,
     .solve = hpls_solve_ssor,
     .destroy = hpls_destroy_relax},
    {.name = "cg",
     .help = "conjugate gradients (symmetric definite A and M, positive or negative)",
     .flags = HPLS_M_PRECOND | HPLS_M_DENSE | HPLS_M_FORMAT | HPLS_M_DEVICE | HPLS_M_DIST |
              HPLS_M_CONVTEST,
     .nwork = 4,
     .solve = hpls_solve_cg},
    {.name = "bicgstab",
     .help = "BiCGSTAB (van der Vorst 1992), right preconditioned",
     .flags = HPLS_M_PRECOND | HPLS_M_FORMAT | HPLS_M_DENSE | HPLS_M_DEVICE | HPLS_M_DIST |
              HPLS_M_CONVTEST,
     .nwork = 8,
     .solve = hpls_solve_bicgstab},
    {.name = "qtbicgstab",
     .help = "QTBiCGSTAB (Xu et al. 2015): BiCGSTAB whose SpMV walks a quad-tree of A "
             "(format=qtree; d by qt_d)",
     .flags = HPLS_M_PRECOND | HPLS_M_FORMAT | HPLS_M_QTREE | HPLS_M_DIST,
     .nwork = 8,
     .solve = hpls_solve_bicgstab},
    {.name = "bicg",
     .help = "BiCG (Fletcher 1976), right preconditioned; A^T from a transpose built once at setup",
     .flags = HPLS_M_PRECOND | HPLS_M_TRANSPOSE | HPLS_M_FORMAT | HPLS_M_DEVICE | HPLS_M_DIST,
     .nwork = 8,
     .solve = hpls_solve_bicg},
    {.name = "cgs",
     .help = "CGS, conjugate gradients squared (Sonneveld 1989), right preconditioned",
     .flags = HPLS_M_PRECOND | HPLS_M_DENSE | HPLS_M_FORMAT | HPLS_M_DEVICE | HPLS_M_DIST,
     .nwork = 8,
     .solve = hpls_solve_cgs},
    {.name = "tfqmr",
     .help = "TFQMR (Freund 1993), right preconditioned; an iteration is a half-step (one SpMV)",
     .flags = HPLS_M_PRECOND | HPLS_M_DENSE | HPLS_M_FORMAT | HPLS_M_DEVICE | HPLS_M_DIST,
     .nwork = 9,
     .solve = hpls_solve_tfqmr},
    {.name = "qmr",
     .help = "QMR without look-ahead (Freund & Nachtigal 1991), right preconditioned; A^T from a "
             "transpose built once at setup",
     .flags = HPLS_M_PRECOND | HPLS_M_TRANSPOSE | HPLS_M_FORMAT | HPLS_M_DEVICE | HPLS_M_DIST,
     .nwork = 11,
     .solve = hpls_solve_qmr},
    {.name = "bicrstab",
     .help = "BiCRSTAB (Abe, Sogabe, Fujino, Zhang 2007), BiCR-based product method, right "
             "preconditioned",
     .flags = HPLS_M_PRECOND | HPLS_M_DENSE | HPLS_M_FORMAT | HPLS_M_DEVICE | HPLS_M_DIST,
     .nwork = 10,
     .solve = hpls_solve_bicrstab},
    {.name = "bicgsafe",
     .help = "BiCGSafe (Fujino, Fujiwara, Yoshida 2005), GPBiCG family, right preconditioned",
     .flags = HPLS_M_PRECOND | HPLS_M_DENSE | HPLS_M_FORMAT | HPLS_M_DEVICE | HPLS_M_DIST,
     .nwork = 11,
     .solve = hpls_solve_bicgsafe},
    {.name = "bicgstabl",
     .help = "BiCGstab(l) (Sleijpen & Fokkema 1993): l BiCG steps, then a minimal-residual "
             "polynomial of degree l (l: option ell); right preconditioned",
     .flags =
         HPLS_M_PRECOND | HPLS_M_DENSE | HPLS_M_FORMAT | HPLS_M_ELL | HPLS_M_DEVICE | HPLS_M_DIST,
     .nwork = 3,
     .setup = hpls_setup_bicgstabl,
     .solve = hpls_solve_bicgstabl,
     .destroy = hpls_destroy_bicgstabl},
    {.name = "gmres",
     .help = "GMRES(restart), classical Gram-Schmidt twice with the second pass delayed a step "
             "(DCGS2: one reduction a step), Givens rotations; right preconditioned (pc_side=left "
             "available, tested on ||b-Ax|| unless norm=preconditioned)",
     .flags = HPLS_M_PRECOND | HPLS_M_RESTART | HPLS_M_LEFT | HPLS_M_DENSE | HPLS_M_FORMAT |
              HPLS_M_DEVICE | HPLS_M_DIST,
     .nwork = 3,
     .setup = hpls_setup_gmres,
     .solve = hpls_solve_gmres,
     .destroy = hpls_destroy_gmres},
    {.name = "fgmres",
     .help = "flexible GMRES(restart) (Saad 1993): the preconditioner may change per step",
     .flags = HPLS_M_PRECOND | HPLS_M_RESTART | HPLS_M_DENSE | HPLS_M_FORMAT | HPLS_M_DEVICE |
              HPLS_M_DIST,
     .nwork = 3,
     .setup = hpls_setup_fgmres,
     .solve = hpls_solve_fgmres,
     .destroy = hpls_destroy_gmres},
    {.name = "minres",
     .help = "MINRES (Paige & Saunders 1975): symmetric, possibly indefinite A; SPD M",
     .flags = HPLS_M_PRECOND | HPLS_M_DENSE | HPLS_M_FORMAT | HPLS_M_DEVICE | HPLS_M_DIST,
     .nwork = 9,
     .solve = hpls_solve_minres},
    {.name = "pjg",
     .help = "PJG (Ahmadi et al. 2021): Gauss-Seidel over blocks of psize, Jacobi inside "
             "each block, in parallel; CSR or dense (on a device: a launch per block).  On P MPI "
             "ranks block k is every rank's k-th psize rows, and a sweep makes one exchange per "
             "block, in turn: blocks x (a message's latency) per sweep, so psize defaults to >= "
             "65536 multiply-adds a rank",
     .flags = HPLS_M_DIAG | HPLS_M_PSIZE | HPLS_M_DENSE | HPLS_M_DIST | HPLS_M_DEVICE,
     .nwork = 2,
     .setup = hpls_setup_pjg,
     .solve = hpls_solve_pjg,
     .destroy = hpls_destroy_pjg},
    {.name = "hisa",
     .help = "HISA (Li, Yang, Li 2016): A = T + S, T x+ = b - S x with T factored once.  On P "
             "MPI ranks T is cut at the ranks' boundaries: bhisa with P blocks, S x through the "
             "halo",
     .flags = HPLS_M_TRIDIAG | HPLS_M_XTOL | HPLS_M_GSPIKE | HPLS_M_DEVICE | HPLS_M_DIST,
     .nwork = 4,
     .setup = hpls_setup_hisa,
     .solve = hpls_solve_hisa,
     .destroy = hpls_destroy_hisa},
    {.name = "bhisa",
     .help = "BHISA: HISA with T cut into blocks of `block` rows, solved in parallel; on MPI "
             "ranks blocks of `block` rows from each rank's first row (default: ranks x threads)",
     .flags = HPLS_M_TRIDIAG | HPLS_M_BLOCK | HPLS_M_XTOL | HPLS_M_DEVICE | HPLS_M_DIST,
     .nwork = 4,
     .setup = hpls_setup_bhisa,
     .solve = hpls_solve_hisa,
     .destroy = hpls_destroy_hisa},
    {.name = "thomas",
     .help = "tridiagonal A, direct: Thomas algorithm (LU without pivoting; a tiny pivot is an "
             "error); on MPI ranks T is gathered to rank 0 and solved there",
     .flags = HPLS_M_DIRECT | HPLS_M_DIST | HPLS_M_DEVICE,
     .nwork = 1,
     .setup = hpls_setup_tridiag,
     .solve = hpls_solve_tridiag,
     .solve_block = hpls_solve_tridiag_block,
     .destroy = hpls_destroy_tridiag},
    {.name = "cr",
     .help = "tridiagonal A, direct: cyclic reduction (HISA Sec. 5.1; coefficients reduced once at "
             "setup); on MPI ranks T is gathered to rank 0 and solved there",
     .flags = HPLS_M_DIRECT | HPLS_M_DIST | HPLS_M_DEVICE,
     .nwork = 1,
     .setup = hpls_setup_tridiag,
     .solve = hpls_solve_tridiag,
     .solve_block = hpls_solve_tridiag_block,
     .destroy = hpls_destroy_tridiag},
    {.name = "gspike",
     .help = "tridiagonal A, direct: g-Spike (Venetis et al. 2015), parallel Givens-QR partitions, "
             "singular ones repaired; on MPI ranks gspike_p partitions per rank, the reduced "
             "system gathered to rank 0",
     .flags = HPLS_M_DIRECT | HPLS_M_GSPIKE | HPLS_M_DIST | HPLS_M_DEVICE,
     .nwork = 1,
     .setup = hpls_setup_tridiag,
     .solve = hpls_solve_tridiag,
     .solve_block = hpls_solve_tridiag_block,
     .destroy = hpls_destroy_tridiag},
    {.name = "lapack",
     .help = "tridiagonal A, direct: LAPACK dgttrf/dgttrs (partial pivoting), the reference; on "
             "MPI ranks T is gathered to rank 0 and solved there",
     .flags = HPLS_M_DIRECT | HPLS_M_DIST,
     .nwork = 1,
     .setup = hpls_setup_tridiag,
     .solve = hpls_solve_tridiag,
     .solve_block = hpls_solve_tridiag_block,
     .destroy = hpls_destroy_tridiag},
    {.name = "auto",
     .help = "hpls info's advice for A, chosen at setup (matching, cg + dic, hisa, bicgstab + "
             "ilu0 ...; the choice and why: hpls_solver_auto, the command's stderr); a solve "
             "that does not converge falls back once to the next advice",
     .flags = HPLS_M_AUTO,
     .nwork = 1},
};
const int hpls_nmethods = sizeof hpls_methods / sizeof hpls_methods[0];

const hpls_pc_type hpls_pc_types[] = {
    {.name = "none", .help = "no preconditioner"},
    {.name = "jacobi",
     .help = "diagonal scaling, z = D^-1 r (a zero diagonal entry is an error at setup)",
     .flags = HPLS_M_DEVICE,
     .setup = hpls_pc_setup_jacobi},
    {.name = "ssor",
     .help = "symmetric SOR with omega (1: symmetric Gauss-Seidel), sequential sweeps (on a "
             "device: scheduled by trisolve)",
     .flags = HPLS_M_OMEGA | HPLS_M_RELAX | HPLS_M_DEVICE,
     .setup = hpls_pc_setup_ssor},
    {.name = "pjg",
     .help = "`sweeps` PJG sweeps from z = 0 (smoother; not for bicg, qmr, cg, minres); on MPI "
             "ranks on each rank's diagonal block, no exchange (block Jacobi)",
     .flags = HPLS_M_PSIZE | HPLS_M_DEVICE,
     .setup = hpls_pc_setup_pjg},
    {.name = "tridiag",
     .help = "M = T, the tridiagonal band of A, factored once (method: tridiag option)",
     .flags = HPLS_M_TRIDIAG | HPLS_M_GSPIKE | HPLS_M_DEVICE,
     .setup = hpls_pc_setup_tridiag},
    {.name = "btridiag",
     .help = "M = the band cut into blocks of `block` rows, solved in parallel",
     .flags = HPLS_M_TRIDIAG | HPLS_M_BLOCK | HPLS_M_DEVICE,
     .setup = hpls_pc_setup_btridiag},
    {.name = "dilu",
     .help = "diagonal ILU (OpenFOAM; Wang, Liu 2022): M = (E+L) E^-1 (E+U), diag(M) = diag(A); "
             "sweeps by `trisolve`; `dilu_order=faces`: OpenFOAM's order of operations",
     .flags = HPLS_M_TRISOLVE | HPLS_M_DILU | HPLS_M_DEVICE,
     .setup = hpls_pc_setup_dilu},
    {.name = "dic",
     .help = "diagonal incomplete Cholesky, DILU of a symmetric A (for cg; E_ii <= 0 is an error)",
     .flags = HPLS_M_TRISOLVE | HPLS_M_DILU | HPLS_M_DEVICE,
     .setup = hpls_pc_setup_dic},
    {.name = "ilu0",
     .help = "ILU(0): incomplete LU on A's pattern (IKJ); sweeps by `trisolve`",
     .flags = HPLS_M_TRISOLVE | HPLS_M_DEVICE,
     .setup = hpls_pc_setup_ilu0},
};
const int hpls_npc_types = sizeof hpls_pc_types / sizeof hpls_pc_types[0];
