/* SPDX-License-Identifier: BSD-3-Clause */
/* analyze.c: properties of A that choose a method, from one pass over A
 * (rho(T^-1 S), which needs T's factors, is advice.c's). */
#include "la/analyze.h"

#include <math.h>

/* Value of A(i, j), found by binary search in row i; *found = 0 if not stored. */
static double entry(const hpls_csr *A, hpls_int i, hpls_int j, int *found)
{
    hpls_int lo = A->rowptr[i], hi = A->rowptr[i + 1];
    while (lo < hi) {
        hpls_int mid = lo + (hi - lo) / 2;
        if (A->colind[mid] < j)
            lo = mid + 1;
        else
            hi = mid;
    }
    *found = lo < A->rowptr[i + 1] && A->colind[lo] == j;
    return *found ? A->val[lo] : 0.0;
}

void hpls_matrix_props(const hpls_csr *A, hpls_props *p)
{
    *p = (hpls_props){.first_zero = -1, .min_ratio = INFINITY, .min_diag_max = INFINITY};
    int square = A->nrows == A->ncols;
    for (hpls_int i = 0; i < A->nrows; i++) {
        double diag = 0, off = 0, big = 0;
        for (hpls_int q = A->rowptr[i]; q < A->rowptr[i + 1]; q++) {
            hpls_int j = A->colind[q];
            double a = A->val[q];
            big = hpls_maxd(big, fabs(a));
            if (j == i)
                diag = a;
            else
                off += fabs(a);
            hpls_int d = j > i ? j - i : i - j;
            p->band += d <= 1;
            p->bw = d > p->bw ? d : p->bw;
            if (square && j != i) {
                int found;
                double t = entry(A, j, i, &found);
                p->pattern_asym += !found;
                p->value_asym += t != a;
            }
        }
        p->nonpos += !(diag > 0);
        if (diag == 0 && i < A->ncols) {
            p->zero_diag++;
            if (p->first_zero < 0)
                p->first_zero = i;
        }
        p->strict += fabs(diag) > off;
        p->weak += fabs(diag) >= off;
        if (off > 0)
            p->min_ratio = hpls_mind(p->min_ratio, fabs(diag) / off);
        if (big > 0)
            p->min_diag_max = hpls_mind(p->min_diag_max, fabs(diag) / big);
    }
}
