/* SPDX-License-Identifier: BSD-3-Clause */
/* tri.h: a triangular part of a sparse matrix, the level sets of its
 * dependency DAG and a triangular sweep over them (Wang, Liu, "GPU-based
 * Parallel DILU Preconditioning Technique", Computer Science 49(6), 2022):
 * the objects only.  Their kernels are the cpu backend's (kernels/cpu/levels.h,
 * kernels/cpu/sptrsv.h) and a device's (backend.h's sweep_upload), so they sit
 * below both, as qtree.h's quad-tree does. */
#ifndef HPLS_TRI_H
#define HPLS_TRI_H

#include "core/internal.h"

/* One triangular part of a matrix, its rows stored in n slots: slot s holds
 * row i = row[s] (row NULL: i = s), whose dependencies are col[lo[s] .. hi[s])
 * with values val[...] (val may be NULL when only the pattern matters).  upper:
 * the dependencies are later rows, so natural rows are done from n-1 down to 0.
 * With row given, the slots are in level order (a copy sorted by level, Alg. 4),
 * so a level's rows are contiguous and every sweep walks the slots in order. */
typedef struct hpls_tri {
    hpls_int n;
    const hpls_int *lo, *hi; /* n entries each */
    const hpls_idx *col;
    const hpls_real *val;
    const hpls_int *row; /* n entries, or NULL */
    int upper;
} hpls_tri;

/* Level sets: the rows of level l are order[off[l] .. off[l+1]), in increasing
 * row number; every dependency of a row lies in an earlier level. */
typedef struct hpls_levels {
    hpls_int nlev;
    hpls_int *order; /* n rows sorted by level */
    hpls_int *off;   /* nlev + 1 offsets */
} hpls_levels;

/* A triangular solve x_i = (bscale_i b_i - sum_{j in T_i} T_ij x_j) dinv_i
 * (bscale, dinv NULL: 1).  x may be b: row i reads b_i before writing x_i.
 * lev: the level sets of T's rows; when T is stored in level order they are
 * its slot order (T.row == lev.order). */
typedef struct hpls_sweep {
    hpls_tri T;
    const hpls_real *bscale, *dinv;
    hpls_levels lev; /* for the level-scheduled sweep (nlev 0: not built) */
    int pf;          /* HPLS_PF_* variant: whether and how the matrix streams are prefetched */
} hpls_sweep;

#endif /* HPLS_TRI_H */
