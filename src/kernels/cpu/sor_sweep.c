/* SPDX-License-Identifier: BSD-3-Clause */
/* sor_sweep.c: the sequential relaxation sweeps (Gauss-Seidel, SOR, SSOR) and the
 * SSOR preconditioner solve: the cpu family's relaxation kernels (kernels/relax.h,
 * cpu_x's and ref's sweeps too).  With A = L + D + U, a forward SOR sweep solves
 * (D/w + L) x_new = b - U x_old - (1 - 1/w) D x_old, so the true residual of the
 * new iterate is b - A x_new = (U + (1 - 1/w) D)(x_old - x_new): half an SpMV
 * instead of a whole one (and symmetrically with L after a backward sweep).
 * Sweeps are sequential by definition (row i needs the new x_j of earlier rows). */
#include "kernels/cpu/exact_sum.h"
#include "kernels/cpu/prefetch.h"
#include "kernels/cpu/team.h"
#include "kernels/relax.h"

#include <math.h>

/* Entries ahead whose x is prefetched (scattered columns, as in spmv.c), when
 * the prefetch variant prefetches x. */
#define PF_X 256

/* The forward sweep's rows with x prefetched PF_X entries ahead, hint loc. */
static inline void pf_row_x(const hpls_csr *A, const hpls_real *x, hpls_int i, int loc)
{
    for (hpls_int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++)
        hpls_pf_hint(x + A->colind[p + PF_X], loc);
}

/* One SOR sweep of a CSR A; pf: the prefetch variant (HPLS_PF_*: whether and
 * how x is prefetched; same bits). */
static void sor_sweep(int pf, const hpls_csr *A, const hpls_int *diagpos, const hpls_real *dinv,
                      double omega, int backward, const hpls_real *b, hpls_real *x, hpls_real *dx)
{
    const hpls_int *rp = A->rowptr;
    const hpls_idx *ci = A->colind;
    const hpls_real *v = A->val;
    hpls_int n = A->nrows;
    pf = hpls_pf_sized(pf, 12.0 * (double)A->nnz + 40.0 * (double)n); /* A, b, x, dx, dinv */
    int pfx = hpls_pf_x(pf) && !backward, loc = hpls_pf_loc(pf);
    for (hpls_int k = 0; k < n; k++) {
        hpls_int i = backward ? n - 1 - k : k;
        double s = b[i];
        if (pfx && rp[i + 1] + PF_X < A->nnz) {
            switch (loc) { /* a switch: see hpls_pf_hint */
            case 3:
                pf_row_x(A, x, i, 3);
                break;
            case 2:
                pf_row_x(A, x, i, 2);
                break;
            default:
                pf_row_x(A, x, i, 0);
                break;
            }
        }
        for (hpls_int p = rp[i]; p < diagpos[i]; p++)
            s -= v[p] * x[ci[p]];
        for (hpls_int p = diagpos[i] + 1; p < rp[i + 1]; p++)
            s -= v[p] * x[ci[p]];
        double xi = omega == 1.0 ? s * dinv[i] : (1.0 - omega) * x[i] + omega * s * dinv[i];
        dx[i] = x[i] - xi;
        x[i] = xi;
    }
}

static double triangle_spmv(int nt, const hpls_csr *A, const hpls_int *diagpos, int upper,
                            double dscale, const hpls_real *dx, hpls_real *r)
{
    const hpls_int *rp = A->rowptr;
    const hpls_idx *ci = A->colind;
    const hpls_real *v = A->val;
    hpls_int n = A->nrows;
    double ss = 0.0; /* summed in the order of the rows of each thread */
    double part[HPLS_MAX_THREADS];
    int np = 1;
    HPLS_TEAM(n > 8192 ? nt : 1, t, p, {
        double sum = 0.0;
        for (hpls_int i = n * t / p; i < n * (t + 1) / p; i++) {
            double s = dscale * v[diagpos[i]] * dx[i];
            hpls_int lo = upper ? diagpos[i] + 1 : rp[i], hi = upper ? rp[i + 1] : diagpos[i];
            for (hpls_int q = lo; q < hi; q++)
                s += v[q] * dx[ci[q]];
            r[i] = s;
            sum += s * s;
        }
        part[t] = sum;
        if (t == 0)
            np = p;
    });
    for (int t = 0; t < np; t++)
        ss += part[t];
    return ss;
}

static void ssor_solve(const hpls_csr *A, const hpls_int *diagpos, double omega, const hpls_real *r,
                       hpls_real *z)
{
    const hpls_int *rp = A->rowptr;
    const hpls_idx *ci = A->colind;
    const hpls_real *v = A->val;
    hpls_int n = A->nrows;
    for (hpls_int i = 0; i < n; i++) { /* (D + wL) y = r; then y = D y */
        double s = r[i];
        for (hpls_int p = rp[i]; p < diagpos[i]; p++)
            s -= omega * v[p] * z[ci[p]];
        z[i] = s / v[diagpos[i]];
    }
    for (hpls_int i = 0; i < n; i++)
        z[i] *= v[diagpos[i]];
    const double scale = omega * (2.0 - omega);
    for (hpls_int i = n - 1; i >= 0; i--) { /* (D + wU) z = y */
        double s = z[i];
        for (hpls_int p = diagpos[i] + 1; p < rp[i + 1]; p++)
            s -= omega * v[p] * z[ci[p]];
        z[i] = s / v[diagpos[i]];
    }
    for (hpls_int i = 0; i < n; i++)
        z[i] *= scale;
}

hpls_status hpls_cpu_relax_upload(hpls_backend *be, const hpls_csr *A, const hpls_int *diagpos,
                                  int strategy, hpls_drelax **dR)
{
    (void)be;
    (void)A;
    (void)diagpos;
    (void)strategy; /* the host's sweeps are sequential */
    *dR = NULL;
    return HPLS_OK;
}

void hpls_cpu_relax_release(hpls_backend *be, hpls_drelax *dR)
{
    (void)be;
    (void)dR;
}

void hpls_cpu_relax_sweep(hpls_backend *be, const hpls_relax_matrix *M, hpls_drelax *R,
                          double omega, int backward, const hpls_dvec *dinv, const hpls_dvec *b,
                          hpls_dvec *x, hpls_dvec *dx)
{
    (void)R;
    const hpls_real *bp = hpls_v_host(be, b), *di = hpls_v_host(be, dinv);
    hpls_real *xp = hpls_v_host(be, x), *dxp = hpls_v_host(be, dx);
    if (!bp || !di || !xp || !dxp) /* a handle was refused: recorded, the test stops */
        return;
    if (M->Ad) /* dense rows: the same sweep by row dots */
        hpls_k_dense_sor_sweep(M->Ad, di, omega, backward, bp, xp, dxp);
    else
        sor_sweep(be->pf, M->A, M->diagpos, di, omega, backward, bp, xp, dxp);
}

/* r of the residual (hpls_relax_residual_fn) on host arrays; NULL: refused */
static hpls_real *triangle(hpls_backend *be, const hpls_relax_matrix *M, int upper, double dscale,
                           const hpls_dvec *dx, hpls_dvec *r, double *ss)
{
    const hpls_real *dxp = hpls_v_host(be, dx);
    hpls_real *rp = hpls_v_host(be, r);
    if (!dxp || !rp)
        return NULL;
    *ss = M->Ad ? hpls_k_dense_triangle(be->nthreads, M->Ad, upper, dscale, dxp, rp)
                : triangle_spmv(be->nthreads, M->A, M->diagpos, upper, dscale, dxp, rp);
    return rp;
}

double hpls_cpu_relax_residual(hpls_backend *be, const hpls_relax_matrix *M, const hpls_drelax *R,
                               int upper, double dscale, const hpls_dvec *x, const hpls_dvec *dx,
                               hpls_dvec *r)
{
    (void)R;
    (void)x; /* dx is x_old - x_new */
    double ss = NAN;
    triangle(be, M, upper, dscale, dx, r, &ss);
    return ss;
}

double hpls_cpu_x_relax_residual(hpls_backend *be, const hpls_relax_matrix *M, const hpls_drelax *R,
                                 int upper, double dscale, const hpls_dvec *x, const hpls_dvec *dx,
                                 hpls_dvec *r)
{
    (void)R;
    (void)x;
    double ss = NAN;
    hpls_real *rp = triangle(be, M, upper, dscale, dx, r, &ss);
    return rp ? hpls_xsum_sumsq(be->nthreads, M->A ? M->A->nrows : M->Ad->nrows, rp) : ss;
}

void hpls_cpu_relax_ssor(hpls_backend *be, const hpls_relax_matrix *M, hpls_drelax *R, double omega,
                         const hpls_dvec *r, hpls_dvec *z)
{
    (void)R;
    const hpls_real *rp = hpls_v_host(be, r);
    hpls_real *zp = hpls_v_host(be, z);
    if (rp && zp)
        ssor_solve(M->A, M->diagpos, omega, rp, zp);
}
