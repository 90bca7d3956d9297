/* SPDX-License-Identifier: BSD-3-Clause */
/* dist_ruiz.c: Ruiz equilibration (la/scaling.c; D. Ruiz, RAL-TR-2001-034,
 * the infinity-norm variant) of a matrix distributed by rows (dcsr_ops.h):
 *
 *   repeat:  halo of dc (the ghost columns' factors, from their owners)
 *            r_i = max_j |(Dr A Dc)_ij| over my row i (Ad's and Ao's entries)
 *            c_j = max_i |(Dr A Dc)_ij|: my rows' maxima for my columns; for a
 *                  ghost column, my rows' maximum goes back to its owner (the
 *                  reverse halo, maxed there into its c_j)
 *            Dr <- Dr diag(r)^-1/2,  Dc <- Dc diag(c)^-1/2 (my rows, my columns)
 *   until max |1 - r_i|, |1 - c_j| over all ranks <= tol (one MPI_Allreduce).
 *
 * A maximum does not depend on the order of its terms, each entry's product
 * is formed as scaling.c forms it, (dr_i a_ij) dc_j, from the factors of the
 * sweep's start, and the square roots are the same: dr and dc are the
 * one-process factors bit for bit, on any number of ranks. */
#include "mpi/dcsr_ops.h"

#include <math.h>

hpls_status hpls_dcsr_ruiz(hpls_dcsr *D, double tol, int maxsweeps, double *dr, double *dc,
                           int *sweeps)
{
    const hpls_csr *Ad = D->Ad, *Ao = D->Ao;
    hpls_int m = D->nlocal;
    double *cmax = hpls_malloc(m + 1, sizeof *cmax);
    hpls_status st = cmax ? hpls_dcsr_reverse_plan(D) : HPLS_ERR_NOMEM;
    st = hpls_mpi_agree(D->comm, st, 0, NULL, 0);
    for (hpls_int i = 0; i < m; i++)
        dr[i] = dc[i] = 1.0;
    int sweep = 0, close = 0;
    while (st == HPLS_OK && sweep < maxsweeps && !close) {
        double *gmax = D->rev->out;       /* my rows' maxima of the ghost columns */
        st = hpls_dcsr_halo_start(D, dc); /* D->ghost: the ghost columns' dc */
        if (st == HPLS_OK)
            st = hpls_dcsr_halo_finish(D);
        double off = 0.0; /* max |1 - norm| over my rows and columns, before this sweep */
        for (hpls_int j = 0; j < m; j++)
            cmax[j] = 0.0;
        for (hpls_int g = 0; g < D->nghost; g++)
            gmax[g] = 0.0;
        for (hpls_int i = 0; st == HPLS_OK && i < m; i++) {
            double rmax = 0.0;
            for (hpls_int p = Ad->rowptr[i]; p < Ad->rowptr[i + 1]; p++) {
                double a = fabs(dr[i] * Ad->val[p] * dc[Ad->colind[p]]);
                rmax = hpls_maxd(rmax, a);
                cmax[Ad->colind[p]] = hpls_maxd(cmax[Ad->colind[p]], a);
            }
            for (hpls_int p = Ao->rowptr[i]; p < Ao->rowptr[i + 1]; p++) {
                double a = fabs(dr[i] * Ao->val[p] * D->ghost[Ao->colind[p]]);
                rmax = hpls_maxd(rmax, a);
                gmax[Ao->colind[p]] = hpls_maxd(gmax[Ao->colind[p]], a);
            }
            if (rmax > 0) {
                off = hpls_maxd(off, fabs(1.0 - rmax));
                dr[i] /= sqrt(rmax);
            }
        }
        if (st == HPLS_OK)
            st = hpls_dcsr_reverse_start(D); /* gmax to the columns' owners */
        if (st == HPLS_OK)
            st = hpls_dcsr_reverse_finish(D, HPLS_RED_MAX, cmax);
        for (hpls_int j = 0; st == HPLS_OK && j < m; j++)
            if (cmax[j] > 0) {
                off = hpls_maxd(off, fabs(1.0 - cmax[j]));
                dc[j] /= sqrt(cmax[j]);
            }
        /* the distance over all ranks, and whether one of them failed */
        double both[2] = {off, st != HPLS_OK};
        MPI_Allreduce(MPI_IN_PLACE, both, 2, MPI_DOUBLE, MPI_MAX, D->comm);
        if (both[1] > 0)
            st = hpls_mpi_agree(D->comm, st == HPLS_OK ? HPLS_ERR_INTERNAL : st, st == HPLS_OK,
                                NULL, 0);
        sweep++;
        close = both[0] <= tol;
    }
    hpls_free(cmax);
    *sweeps = sweep;
    return st;
}
