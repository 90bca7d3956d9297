/* gs_sweep.c: the forward Gauss-Seidel sweep (sequential: row i needs the new
 * x_j of every j < i) and the strictly-upper product that turns its change
 * into the true residual: with A = L + D + U and (L + D) x_new = b - U x_old,
 * b - A x_new = U (x_old - x_new). */
#include "core/internal.h"

#include <math.h>
#include <omp.h>

void hpls_k_gs_sweep(const hpls_csr *A, const hpls_int *diagpos, const hpls_real *dinv,
                     const hpls_real *b, hpls_real *x, hpls_real *dx)
{
    const hpls_int *rp = A->rowptr;
    const hpls_idx *ci = A->colind;
    const hpls_real *v = A->val;
    for (hpls_int i = 0; i < A->nrows; i++) {
        double s = b[i];
        for (hpls_int k = rp[i]; k < diagpos[i]; k++)
            s -= v[k] * x[ci[k]];
        for (hpls_int k = diagpos[i] + 1; k < rp[i + 1]; k++)
            s -= v[k] * x[ci[k]];
        double xi = s * dinv[i];
        dx[i] = x[i] - xi;
        x[i] = xi;
    }
}

double hpls_k_upper_spmv_nrm2(const hpls_csr *A, const hpls_int *diagpos, const hpls_real *dx,
                              hpls_real *r)
{
    const hpls_int *rp = A->rowptr;
    const hpls_idx *ci = A->colind;
    const hpls_real *v = A->val;
    hpls_int n = A->nrows;
#pragma omp parallel for schedule(static) num_threads(n > 8192 ? omp_get_max_threads() : 1)
    for (hpls_int i = 0; i < n; i++) {
        double s = 0.0;
        for (hpls_int k = diagpos[i] + 1; k < rp[i + 1]; k++)
            s += v[k] * dx[ci[k]];
        r[i] = s;
    }
    return hpls_k_nrm2(n, r);
}
