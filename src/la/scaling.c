/* SPDX-License-Identifier: BSD-3-Clause */
/* scaling.c: row and column scaling of a CSR matrix, and the scaled and
 * permuted copy the solver runs on (reorder=matching, scale=...).
 *
 * Ruiz equilibration (D. Ruiz, "A scaling algorithm to equilibrate both rows
 * and columns norms in matrices", RAL-TR-2001-034, the infinity-norm variant):
 *   repeat:  r_i = max_j |(Dr A Dc)_ij|,  c_j = max_i |(Dr A Dc)_ij|
 *            Dr <- Dr diag(r)^-1/2,  Dc <- Dc diag(c)^-1/2
 *   until max_i |1 - r_i| and max_j |1 - c_j| <= tol.
 * Each sweep halves the distance of the norms from 1 in the log scale (Ruiz,
 * Sec. 2), so a few sweeps reach a loose tolerance. */
#include "la/matching.h"

#include <math.h>

int hpls_scale_ruiz(const hpls_csr *A, double tol, int maxsweeps, double *dr, double *dc)
{
    hpls_int n = A->nrows, m = A->ncols;
    double *cmax = hpls_malloc(m, sizeof *cmax);
    if (!cmax)
        return -1;
    for (hpls_int i = 0; i < n; i++)
        dr[i] = 1.0;
    for (hpls_int j = 0; j < m; j++)
        dc[j] = 1.0;
    int sweep = 0, close = 0;
    while (sweep < maxsweeps && !close) {
        double off = 0.0; /* max |1 - norm| over rows and columns, before this sweep */
        for (hpls_int j = 0; j < m; j++)
            cmax[j] = 0.0;
        for (hpls_int i = 0; i < n; i++) {
            double rmax = 0.0;
            for (hpls_int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++) {
                double a = fabs(dr[i] * A->val[p] * dc[A->colind[p]]);
                rmax = hpls_maxd(rmax, a);
                cmax[A->colind[p]] = hpls_maxd(cmax[A->colind[p]], a);
            }
            if (rmax > 0) {
                off = hpls_maxd(off, fabs(1.0 - rmax));
                dr[i] /= sqrt(rmax);
            }
        }
        for (hpls_int j = 0; j < m; j++)
            if (cmax[j] > 0) {
                off = hpls_maxd(off, fabs(1.0 - cmax[j]));
                dc[j] /= sqrt(cmax[j]);
            }
        sweep++;
        close = off <= tol;
    }
    hpls_free(cmax);
    return sweep;
}

hpls_status hpls_csr_scale_permute(const hpls_csr *A, const hpls_int *rp, const hpls_int *cp,
                                   const double *dr, const double *dc, hpls_csr **B)
{
    if (!A || !B || A->nrows != A->ncols)
        return hpls_fail(HPLS_ERR_ARG, "hpls_csr_scale_permute: needs a square matrix");
    *B = NULL;
    hpls_int n = A->nrows;
    hpls_csr *C = NULL, *Ct = NULL;
    hpls_int *inv = hpls_malloc(n, sizeof *inv);
    hpls_status st = HPLS_ERR_NOMEM;
    if (!inv || (st = hpls_csr_create(n, n, A->nnz, &C)) != HPLS_OK)
        goto done;
    for (hpls_int l = 0; l < n; l++)
        inv[cp ? cp[l] : l] = l;
    /* C: row k is row rp[k] of A, columns renamed and scaled (not yet sorted) */
    for (hpls_int k = 0; k < n; k++) {
        hpls_int i = rp ? rp[k] : k, len = A->rowptr[i + 1] - A->rowptr[i];
        C->rowptr[k + 1] = C->rowptr[k] + len;
        for (hpls_int q = 0; q < len; q++) {
            hpls_int p = A->rowptr[i] + q;
            hpls_idx j = A->colind[p];
            C->colind[C->rowptr[k] + q] = (hpls_idx)inv[j];
            C->val[C->rowptr[k] + q] = (dr ? dr[i] : 1.0) * A->val[p] * (dc ? dc[j] : 1.0);
        }
    }
    /* transposing sorts columns whatever their order: B = (C^T)^T */
    if ((st = hpls_csr_transpose(C, &Ct)) == HPLS_OK)
        st = hpls_csr_transpose(Ct, B);
done:
    hpls_free(inv);
    hpls_csr_destroy(C);
    hpls_csr_destroy(Ct);
    return st;
}
