/* SPDX-License-Identifier: BSD-3-Clause */
/* convdiff3d.c: 3D convection-diffusion with first-order upwind convection, a
 * nonsymmetric M-matrix.
 *
 * PDE on the box, u = 0 on its boundary:  -Laplace(u) + pe * (u_x + u_y + u_z) = f,
 * velocity pe*(1,1,1), pe the Peclet number of the unit length.  Grid spacing
 * h = 1/(nx+1) in every direction (nx x ny x nz interior points, numbered x
 * fastest as in poisson3d).  Central differences for -Laplace(u), backward
 * (upwind, since the velocity is positive) differences u_x ~ (u(x) - u(x-h))/h,
 * and the equation multiplied by h^2 give the 7-point stencil
 *
 *   centre                      6 + 3 pe h
 *   west, south, down (x-h ...)  -1 - pe h
 *   east, north, up   (x+h ...)  -1
 *
 * Off-diagonals are <= 0 and each row sums to 0 inside the grid, > 0 next to the
 * boundary: weakly diagonally dominant, irreducible, an M-matrix for every pe >= 0
 * (no oscillations, unlike central convection when pe h > 2).  pe = 0 is poisson3d. */
#include "gen/gen.h"

#include <math.h>

enum { CD_NX, CD_NY, CD_NZ, CD_PE };

static const gen_opt convdiff3d_opts[] = {
    {"nx", "32", NULL, 1, 1, INT32_MAX, 0, "grid points along x; h = 1/(nx+1)"},
    {"ny", "nx", NULL, 1, 1, INT32_MAX, 0, "grid points along y"},
    {"nz", "nx", NULL, 1, 1, INT32_MAX, 0, "grid points along z"},
    {"pe", "10", NULL, 0, 0, INFINITY, 0, "Peclet number: velocity pe*(1,1,1)"},
    {NULL, NULL, NULL, 0, 0, 0, 0, NULL}};

static hpls_status convdiff3d_setup(gen_matrix *g)
{
    double peh = g->opt[CD_PE] / (g->opt[CD_NX] + 1.0); /* the mesh Peclet number */
    g->par[GEN_BOX_CENTRE] = 6.0 + 3.0 * peh;
    g->par[GEN_BOX_WEST] = g->par[GEN_BOX_SOUTH] = g->par[GEN_BOX_DOWN] = -1.0 - peh;
    g->par[GEN_BOX_EAST] = g->par[GEN_BOX_NORTH] = g->par[GEN_BOX_UP] = -1.0;
    return gen_box_grid(g, (hpls_int)g->opt[CD_NX], (hpls_int)g->opt[CD_NY],
                        (hpls_int)g->opt[CD_NZ]);
}

const gen_def gen_convdiff3d = {
    "convdiff3d", "3D convection-diffusion, upwind, nonsymmetric M-matrix (h^2 scaled)",
    convdiff3d_opts, convdiff3d_setup};
