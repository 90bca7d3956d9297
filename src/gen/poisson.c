/* SPDX-License-Identifier: BSD-3-Clause */
/* poisson.c: the Dirichlet Laplacian on a box grid, poisson2d (5-point) and
 * poisson3d (7-point), plus the box-stencil rows that convdiff3d shares.
 *
 * Unknown (x, y, z), 0 <= x < nx ..., is row x + nx*(y + ny*z) (natural order, x
 * fastest).  poisson2d: 4 on the diagonal, -1 for each of the up to 4 neighbours;
 * poisson3d: 6 and -1 for up to 6 neighbours.  Neighbours outside the grid are
 * boundary values (zero), so their entries are dropped: the matrix is h^2 times
 * the discrete -Laplacian, symmetric positive definite, with zero row sums in the
 * interior. */
#include "gen/gen.h"

/* Grid sizes and coordinates of row i. */
typedef struct box_point {
    hpls_int nx, ny, nz;
    hpls_int x, y, z;
} box_point;

static box_point box_locate(const gen_matrix *g, hpls_int i)
{
    box_point pt;
    pt.nx = (hpls_int)g->par[GEN_BOX_NX];
    pt.ny = (hpls_int)g->par[GEN_BOX_NY];
    pt.nz = (hpls_int)g->par[GEN_BOX_NZ];
    pt.x = i % pt.nx;
    pt.y = (i / pt.nx) % pt.ny;
    pt.z = i / (pt.nx * pt.ny);
    return pt;
}

static hpls_int box_row_len(const gen_matrix *g, hpls_int i)
{
    box_point pt = box_locate(g, i);
    return 1 + (pt.z > 0) + (pt.y > 0) + (pt.x > 0) + (pt.x < pt.nx - 1) + (pt.y < pt.ny - 1) +
           (pt.z < pt.nz - 1);
}

static void box_row(const gen_matrix *g, hpls_int i, hpls_idx *col, hpls_real *val)
{
    box_point pt = box_locate(g, i);
    hpls_int plane = pt.nx * pt.ny;
    /* the neighbours in increasing column order, each with whether it exists */
    const struct {
        int exists;
        hpls_int col;
        int coef;
    } nb[7] = {
        {pt.z > 0, i - plane, GEN_BOX_DOWN},      {pt.y > 0, i - pt.nx, GEN_BOX_SOUTH},
        {pt.x > 0, i - 1, GEN_BOX_WEST},          {1, i, GEN_BOX_CENTRE},
        {pt.x < pt.nx - 1, i + 1, GEN_BOX_EAST},  {pt.y < pt.ny - 1, i + pt.nx, GEN_BOX_NORTH},
        {pt.z < pt.nz - 1, i + plane, GEN_BOX_UP}};
    hpls_int p = 0;
    for (int m = 0; m < 7; m++) {
        if (!nb[m].exists)
            continue;
        col[p] = (hpls_idx)nb[m].col;
        val[p++] = g->par[nb[m].coef];
    }
}

hpls_status gen_box_grid(gen_matrix *g, hpls_int nx, hpls_int ny, hpls_int nz)
{
    /* 32-bit column indices: at most 2^31-1 unknowns (checked in doubles, which
     * hold these products exactly enough to compare) */
    if ((double)nx * (double)ny * (double)nz > INT32_MAX)
        return hpls_fail(HPLS_ERR_OPTION,
                         "gen %s: grid %lld x %lld x %lld has more than 2^31-1 points", g->name,
                         (long long)nx, (long long)ny, (long long)nz);
    g->n = nx * ny * nz;
    g->par[GEN_BOX_NX] = (double)nx;
    g->par[GEN_BOX_NY] = (double)ny;
    g->par[GEN_BOX_NZ] = (double)nz;
    g->rhs_ones = 0;
    g->row_len = box_row_len;
    g->row = box_row;
    return HPLS_OK;
}

/* The Laplacian's coefficients: 2*dim on the diagonal, -1 off it. */
static void laplacian(gen_matrix *g, int dim)
{
    g->par[GEN_BOX_DOWN] = g->par[GEN_BOX_SOUTH] = g->par[GEN_BOX_WEST] = -1.0;
    g->par[GEN_BOX_EAST] = g->par[GEN_BOX_NORTH] = g->par[GEN_BOX_UP] = -1.0;
    g->par[GEN_BOX_CENTRE] = 2.0 * dim;
}

enum { P2_NX, P2_NY };

static const gen_opt poisson2d_opts[] = {
    {"nx", "100", NULL, 1, 1, INT32_MAX, 0, "grid points along x"},
    {"ny", "nx", NULL, 1, 1, INT32_MAX, 0, "grid points along y"},
    {NULL, NULL, NULL, 0, 0, 0, 0, NULL}};

static hpls_status poisson2d_setup(gen_matrix *g)
{
    laplacian(g, 2);
    return gen_box_grid(g, (hpls_int)g->opt[P2_NX], (hpls_int)g->opt[P2_NY], 1);
}

const gen_def gen_poisson2d = {"poisson2d", "5-point Dirichlet Laplacian on an nx x ny grid (SPD)",
                               poisson2d_opts, poisson2d_setup};

enum { P3_NX, P3_NY, P3_NZ };

static const gen_opt poisson3d_opts[] = {
    {"nx", "32", NULL, 1, 1, INT32_MAX, 0, "grid points along x, 32^3 = 32768 rows by default"},
    {"ny", "nx", NULL, 1, 1, INT32_MAX, 0, "grid points along y"},
    {"nz", "nx", NULL, 1, 1, INT32_MAX, 0, "grid points along z"},
    {NULL, NULL, NULL, 0, 0, 0, 0, NULL}};

static hpls_status poisson3d_setup(gen_matrix *g)
{
    laplacian(g, 3);
    return gen_box_grid(g, (hpls_int)g->opt[P3_NX], (hpls_int)g->opt[P3_NY],
                        (hpls_int)g->opt[P3_NZ]);
}

const gen_def gen_poisson3d = {"poisson3d",
                               "7-point Dirichlet Laplacian on an nx x ny x nz grid (SPD)",
                               poisson3d_opts, poisson3d_setup};
