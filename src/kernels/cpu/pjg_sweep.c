/* SPDX-License-Identifier: BSD-3-Clause */
/* pjg_sweep.c: the cpu family's PJG kernels (kernels/pjg.h): the sweep
 * (Ahmadi et al., IEEE TPDS 32(7), 2021, Eqs. 3-5, Alg. 1) with the residual
 * of the iterate it started from, in one pass over A, on host arrays.
 * Blocks run in order (Gauss-Seidel between blocks); inside a block every row
 * reads only the old values of the block (Jacobi), so the rows of a block are
 * independent and split statically among threads: no locks, two barriers per
 * block.  A block too small to pay for the barriers runs on one thread; the
 * arithmetic per row is the same either way, so results do not depend on the
 * thread count.
 *
 * The residual rides along.  When row i (block B) is reached, x holds x_new in
 * the blocks before B (F, "finished") and x_old elsewhere, and xold holds x_old
 * in F.  The sweep's own sum s_i = b_i - sum_{j != i} a_ij x_j gives
 *   x_i^new       = s_i / a_ii                                   (Eq. 3)
 *   (b - A x_old)_i = s_i - a_ii x_i^old - sum_{j in F} a_ij (x_j^old - x_j^new)
 * since x and x_old differ only in F.  The correction reads xold beside x over
 * the columns of F only, entries the sweep reads anyway: the residual costs no
 * second read of A, where b - A x_new after the sweep would cost half of A.
 * The caller runs one sweep more than it reports and takes x_old back from xold
 * (iter/pjg.c).  Traffic per sweep: A once, x, xold, b, r. */
#include "kernels/cpu/blas1.h"
#include "kernels/cpu/prefetch.h"
#include "kernels/pjg.h"

#include <omp.h>

/* Multiply-adds a thread should get per block before the barriers pay off. */
#define PJG_PAR_WORK 32768
/* Entries ahead whose x is prefetched: scattered columns (gas) would otherwise
 * make every far gather wait for memory, as in kernels/cpu/spmv.c (when the
 * prefetch variant prefetches x). */
#define PF_X 256
/* Row i of the sweep: returns x_i^new = s_i / a_ii and, when r is non-NULL,
 * stores r_i = (b - A x_old)_i.  Row i's finished columns: j < lo[i] when lo
 * is given (contiguous blocks), else blockof[j] < blockof[i].  x (and xold)
 * prefetched with hint loc, or not (loc < 0): a constant after inlining. */
static inline double row_update(const hpls_csr *A, const hpls_dense *Ad, const hpls_real *dinv,
                                const hpls_int *blockof, const hpls_int *lo, hpls_int i,
                                const hpls_real *b, const hpls_real *x, const hpls_real *xold,
                                hpls_real *r, int loc)
{
    double s = b[i];
    if (A) { /* s in column order, as the gs sweep sums it (psize 1 == gs, bit for bit) */
        hpls_int p = A->rowptr[i], end = A->rowptr[i + 1], pf_end = A->nnz - PF_X;
        double aii = 0.0, c = 0.0; /* c = sum over finished j of a_ij (xold_j - x_j) */
        if (r && lo) { /* columns are sorted: the finished ones, j < lo_i, come first */
            for (; p < end && A->colind[p] < lo[i]; p++) {
                hpls_int j = A->colind[p];
                if (loc >= 0 && p < pf_end) {
                    hpls_pf_hint(x + A->colind[p + PF_X], loc);
                    hpls_pf_hint(xold + A->colind[p + PF_X], loc);
                }
                s -= A->val[p] * x[j];
                c += A->val[p] * (xold[j] - x[j]);
            }
        }
        for (; p < end; p++) {
            hpls_int j = A->colind[p];
            if (loc >= 0 && p < pf_end)
                hpls_pf_hint(x + A->colind[p + PF_X], loc);
            if (j == i) {
                aii = A->val[p];
                continue;
            }
            s -= A->val[p] * x[j];
            if (r && !lo && blockof[j] < blockof[i])
                c += A->val[p] * (xold[j] - x[j]);
        }
        if (r)
            r[i] = s - aii * x[i] - c;
    } else {
        const hpls_real *a = Ad->data + i * Ad->ncols;
        hpls_int n = Ad->ncols;
        if (!r) {
            s -= hpls_k_dense_dot(a, x, 0, i) + hpls_k_dense_dot(a, x, i + 1, n);
        } else if (lo) { /* [0, lo_i): finished, x new and xold old; [lo_i, n): x old */
            double old_left, new_left = hpls_k_dense_dot2(a, x, xold, lo[i], &old_left);
            double rest = hpls_k_dense_dot(a, x, lo[i], i) + hpls_k_dense_dot(a, x, i + 1, n);
            s -= new_left + rest;
            r[i] = b[i] - (old_left + rest + a[i] * x[i]);
        } else { /* a general partition: finished columns picked by blockof */
            hpls_int bi = blockof[i];
            double c = 0.0;
            s -= hpls_k_dense_dot(a, x, 0, i) + hpls_k_dense_dot(a, x, i + 1, n);
            for (hpls_int j = 0; j < n; j++)
                if (blockof[j] < bi)
                    c += a[j] * (xold[j] - x[j]);
            r[i] = s - a[i] * x[i] - c;
        }
    }
    return s * dinv[i];
}

/* row_update with the hint of prefetch variant pf as a constant. */
static double row_pf(int pf, const hpls_csr *A, const hpls_dense *Ad, const hpls_real *dinv,
                     const hpls_int *blockof, const hpls_int *lo, hpls_int i, const hpls_real *b,
                     const hpls_real *x, const hpls_real *xold, hpls_real *r)
{
    switch (hpls_pf_x(pf) ? hpls_pf_loc(pf) : -1) { /* a switch: see hpls_pf_hint */
    case 3:
        return row_update(A, Ad, dinv, blockof, lo, i, b, x, xold, r, 3);
    case 2:
        return row_update(A, Ad, dinv, blockof, lo, i, b, x, xold, r, 2);
    case 0:
        return row_update(A, Ad, dinv, blockof, lo, i, b, x, xold, r, 0);
    default:
        return row_update(A, Ad, dinv, blockof, lo, i, b, x, xold, r, -1);
    }
}

/* The sweep on nt threads with prefetch variant pf (same bits): x swept in
 * place, xold = the x it started from, r = b - A xold when r is not NULL;
 * blockof[j] is the block of unknown j, lo[i] the first row of i's block when
 * blocks are contiguous, else NULL; exactly one of A and Ad is non-NULL. */
static void sweep(int nt, int pf, const hpls_csr *A, const hpls_dense *Ad, const hpls_real *dinv,
                  hpls_int nblocks, const hpls_int *ptr, const hpls_int *idx,
                  const hpls_int *blockof, const hpls_int *lo, const hpls_real *b, hpls_real *x,
                  hpls_real *xold, hpls_real *r)
{
    hpls_int n = A ? A->nrows : Ad->nrows;
    double row_work = A ? (double)(A->nnz + n) / (double)(n ? n : 1) : (double)n;
    double block_work = nblocks ? row_work * (double)n / (double)nblocks : 0.0;
    int p = nt;
    if (block_work < (double)p * PJG_PAR_WORK)
        p = 1;
    /* Per block: each row puts x_new into xold (not read for its own block),
     * then x and xold swap, so that x holds x_new and xold x_old. */
    if (p == 1) { /* the same arithmetic without the worksharing constructs */
        for (hpls_int k = 0; k < nblocks; k++) {
            for (hpls_int q = ptr[k]; q < ptr[k + 1]; q++)
                xold[idx[q]] = row_pf(pf, A, Ad, dinv, blockof, lo, idx[q], b, x, xold, r);
            for (hpls_int q = ptr[k]; q < ptr[k + 1]; q++) {
                hpls_int i = idx[q];
                double xnew = xold[i];
                xold[i] = x[i];
                x[i] = xnew;
            }
        }
        return;
    }
#pragma omp parallel num_threads(p)
    for (hpls_int k = 0; k < nblocks; k++) {
#pragma omp for schedule(static)
        for (hpls_int q = ptr[k]; q < ptr[k + 1]; q++)
            xold[idx[q]] = row_pf(pf, A, Ad, dinv, blockof, lo, idx[q], b, x, xold, r);
#pragma omp for schedule(static)
        for (hpls_int q = ptr[k]; q < ptr[k + 1]; q++) {
            hpls_int i = idx[q];
            double xnew = xold[i];
            xold[i] = x[i];
            x[i] = xnew;
        }
    }
}

hpls_status hpls_cpu_pjg_upload(hpls_backend *be, const hpls_pjg_partition *P, hpls_int n,
                                int dense, hpls_dpjg **dP)
{
    (void)be;
    (void)P;
    (void)n;
    (void)dense;
    *dP = NULL; /* the sweep reads P's host arrays */
    return HPLS_OK;
}

void hpls_cpu_pjg_release(hpls_backend *be, hpls_dpjg *dP)
{
    (void)be;
    (void)dP;
}

/* In place: the handles stay, x^k is left in xold. */
void hpls_cpu_pjg_sweep(hpls_backend *be, const hpls_pjg_partition *P, const hpls_pjg_matrix *A,
                        const hpls_dvec *dinv, const hpls_dvec *b, hpls_dvec **x, hpls_dvec **xold,
                        hpls_dvec *r)
{
    /* A's entries, b, x, xold, dinv and r: the default prefetches nothing in cache */
    double n = (double)(A->A ? A->A->nrows : A->Ad->nrows);
    double bytes = (A->A ? 12.0 * (double)A->A->nnz : 8.0 * n * n) + 40.0 * n;
    sweep(be->nthreads, hpls_pf_sized(be->pf, bytes), A->A, A->Ad, C_(dinv), P->nblocks, P->ptr,
          P->idx, P->blockof, P->lo, C_(b), A_(*x), A_(*xold), A_(r));
}
