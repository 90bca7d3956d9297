/* internal.h: what every part of hpls shares but users do not see:
 * error recording, checked memory, timers, and the CPU kernel interface. */
#ifndef HPLS_INTERNAL_H
#define HPLS_INTERNAL_H

#include "hpls.h"

#include <stdarg.h>
#include <stddef.h>

#if defined(__GNUC__)
#define HPLS_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define HPLS_PRINTF(a, b)
#endif

/* ---- errors (src/core/status.c) ---------------------------------------- */
/* Records a formatted message thread-locally and returns st, so a failing
 * function can say `return hpls_fail(HPLS_ERR_PARSE, "%s:%ld: ...", ...)`. */
hpls_status hpls_fail(hpls_status st, const char *fmt, ...) HPLS_PRINTF(2, 3);
hpls_status hpls_vfail(hpls_status st, const char *fmt, va_list ap);
/* Clears the thread-local message. */
void hpls_clear_error(void);

/* ---- memory (src/core/memory.c) -----------------------------------------
 * hpls_malloc(count, size) checks count*size for overflow and for count < 0,
 * never returns NULL for count 0 (it allocates one byte), and records an
 * HPLS_ERR_NOMEM message on failure.  A test build can make the k-th call fail. */
void *hpls_malloc(hpls_int count, size_t size);
void *hpls_calloc(hpls_int count, size_t size);
void hpls_free(void *p);
/* Test hook: the k-th allocation from now fails (k >= 1); k = 0 turns it off.
 * Returns how many allocations were made since the last call. */
long hpls_alloc_fail_at(long k);
/* Largest byte count hpls will try to allocate in one block (checked before
 * allocating so that absurd declared sizes fail fast with a clear message). */
#define HPLS_MAX_ALLOC ((size_t)1 << 46)

/* ---- time (src/core/timer.c) ------------------------------------------- */
double hpls_wtime(void); /* seconds, monotonic */

/* ---- CPU kernels (src/kernels/cpu, OpenMP) ------------------------------
 * Static partitions; every reduction sums per-thread partials in thread order,
 * so results are bit-for-bit repeatable for a fixed thread count. */
double hpls_k_dot(hpls_int n, const hpls_real *x, const hpls_real *y);
double hpls_k_nrm2(hpls_int n, const hpls_real *x);
void hpls_k_copy(hpls_int n, const hpls_real *x, hpls_real *y);                  /* y = x */
void hpls_k_set(hpls_int n, hpls_real a, hpls_real *y);                          /* y = a */
void hpls_k_scale(hpls_int n, hpls_real a, hpls_real *y);                        /* y = a y */
void hpls_k_axpy(hpls_int n, hpls_real a, const hpls_real *x, hpls_real *y);     /* y += a x */
void hpls_k_axpby(hpls_int n, hpls_real a, const hpls_real *x, hpls_real b,
                  hpls_real *y);                                                 /* y = a x + b y */
void hpls_k_xpay(hpls_int n, const hpls_real *x, hpls_real a, hpls_real *y);     /* y = x + a y */
void hpls_k_axpbypcz(hpls_int n, hpls_real a, const hpls_real *x, hpls_real b,
                     const hpls_real *y, hpls_real c, hpls_real *z);             /* z = a x + b y + c z */
void hpls_k_pointwise_mult(hpls_int n, const hpls_real *x, const hpls_real *y,
                           hpls_real *z);                                        /* z = x .* y */
void hpls_k_diag_axpy(hpls_int n, hpls_real a, const hpls_real *d, const hpls_real *x,
                      hpls_real *y);                                             /* y += a d .* x */
/* Fused kernels of BiCGSTAB (src/iter/bicgstab.c), one pass each. */
/* p = r + beta (p - omega v) */
void hpls_k_bicgstab_p(hpls_int n, const hpls_real *r, hpls_real beta, hpls_real omega,
                       const hpls_real *v, hpls_real *p);
/* w = y + a x, returns ||w||_2 */
double hpls_k_waxpy_nrm2(hpls_int n, hpls_real a, const hpls_real *x, const hpls_real *y,
                         hpls_real *w);
/* *xx = (x, x), *xy = (x, y) */
void hpls_k_dot2(hpls_int n, const hpls_real *x, const hpls_real *y, double *xx, double *xy);
/* x += alpha phat + omega shat; r = s - omega t; *rnorm = ||r||_2, *rhat_r = (rhat, r) */
void hpls_k_bicgstab_xr(hpls_int n, hpls_real alpha, const hpls_real *phat, hpls_real omega,
                        const hpls_real *shat, const hpls_real *s, const hpls_real *t,
                        const hpls_real *rhat, hpls_real *x, hpls_real *r, double *rnorm,
                        double *rhat_r);
/* y = A x */
void hpls_k_spmv(const hpls_csr *A, const hpls_real *x, hpls_real *y);
/* r = b - A x, returns ||r||_2 (fused: one pass) */
double hpls_k_residual(const hpls_csr *A, const hpls_real *b, const hpls_real *x, hpls_real *r);
/* One SOR sweep (omega = 1: Gauss-Seidel), forward or backward, sequential by
 * definition: x_i = (1-w) x_i + w (b_i - sum_{j!=i} a_ij x_j) / a_ii; dx = x_old - x_new.
 * diagpos[i] is the position of A_ii in row i (columns sorted), dinv[i] = 1 / A_ii. */
void hpls_k_sor_sweep(const hpls_csr *A, const hpls_int *diagpos, const hpls_real *dinv,
                      double omega, int backward, const hpls_real *b, hpls_real *x,
                      hpls_real *dx);
/* r = (T + dscale D) dx, T the strictly upper (upper = 1) or lower part of A;
 * returns ||r||_2.  After a forward SOR sweep, (U + (1 - 1/w) D) dx = b - A x_new. */
double hpls_k_triangle_spmv_nrm2(const hpls_csr *A, const hpls_int *diagpos, int upper,
                                 double dscale, const hpls_real *dx, hpls_real *r);
/* z = M^-1 r for M = (D + wL) D^-1 (D + wU) / (w (2 - w)), the SSOR preconditioner. */
void hpls_k_ssor_solve(const hpls_csr *A, const hpls_int *diagpos, double omega,
                       const hpls_real *r, hpls_real *z);
/* HISA's fused step: bp = b - ynew; returns ||y - ynew||_2. */
double hpls_k_hisa_update(hpls_int n, const hpls_real *b, const hpls_real *y,
                          const hpls_real *ynew, hpls_real *bp);
/* Dense row-major: y = A x; r = b - A x returning ||r||_2 (src/kernels/cpu/dense.c). */
void hpls_k_gemv(const hpls_dense *A, const hpls_real *x, hpls_real *y);
double hpls_k_dense_residual(const hpls_dense *A, const hpls_real *b, const hpls_real *x,
                             hpls_real *r);
/* sum_{j in [lo, hi)} a_j x_j in 8 interleaved partial sums (a fixed order) */
double hpls_k_dense_dot(const hpls_real *a, const hpls_real *x, hpls_int lo, hpls_int hi);
/* The same over [0, hi) with x, returned, and with xo, in *o, from one load of a. */
double hpls_k_dense_dot2(const hpls_real *a, const hpls_real *x, const hpls_real *xo, hpls_int hi,
                         double *o);
/* One PJG sweep (src/kernels/cpu/pjg_sweep.c; Ahmadi et al. 2021, Eqs. 3-5, Alg. 1):
 * blocks k = 0..nblocks-1 in order, block k the rows idx[ptr[k] .. ptr[k+1]-1];
 * inside a block every row is updated in parallel from the block's old values:
 * x_i = (b_i - sum_{j!=i} a_ij x_j) / a_ii.  On return xold holds the x the sweep
 * started from and, when r is non-NULL, r = b - A xold, computed in the same pass
 * (blockof[j]: the block of unknown j; lo[i]: the first row of i's block when
 * blocks are contiguous, else NULL).  Exactly one of A (CSR) and Ad (dense) is
 * non-NULL. */
void hpls_k_pjg_sweep(const hpls_csr *A, const hpls_dense *Ad, const hpls_real *dinv,
                      hpls_int nblocks, const hpls_int *ptr, const hpls_int *idx,
                      const hpls_int *blockof, const hpls_int *lo, const hpls_real *b,
                      hpls_real *x, hpls_real *xold, hpls_real *r);
/* First row of thread t's block when nrows rows are split into p blocks of about
 * equal nonzeros (+ rows, so empty rows still count). */
hpls_int hpls_k_row_split(const hpls_csr *A, int t, int p);
int hpls_k_threads(void); /* threads a parallel kernel will use */

/* ---- CSR helpers (src/la/csr.c) ----------------------------------------- */
/* pos[i] = position of A_ii in row i; a missing or zero diagonal entry is an
 * HPLS_ERR_ZERO_DIAG naming the row (pos may be NULL to only check). */
hpls_status hpls_csr_diag_positions(const hpls_csr *A, hpls_int *pos);

/* ---- sequential reference kernels (src/kernels/ref): the oracle --------- */
double hpls_ref_dot(hpls_int n, const hpls_real *x, const hpls_real *y);
double hpls_ref_nrm2(hpls_int n, const hpls_real *x);
void hpls_ref_axpby(hpls_int n, hpls_real a, const hpls_real *x, hpls_real b, hpls_real *y);
void hpls_ref_axpbypcz(hpls_int n, hpls_real a, const hpls_real *x, hpls_real b,
                       const hpls_real *y, hpls_real c, hpls_real *z);
void hpls_ref_spmv(const hpls_csr *A, const hpls_real *x, hpls_real *y);
double hpls_ref_residual(const hpls_csr *A, const hpls_real *b, const hpls_real *x, hpls_real *r);
void hpls_ref_bicgstab_p(hpls_int n, const hpls_real *r, hpls_real beta, hpls_real omega,
                         const hpls_real *v, hpls_real *p);
double hpls_ref_waxpy_nrm2(hpls_int n, hpls_real a, const hpls_real *x, const hpls_real *y,
                           hpls_real *w);
void hpls_ref_dot2(hpls_int n, const hpls_real *x, const hpls_real *y, double *xx, double *xy);
void hpls_ref_bicgstab_xr(hpls_int n, hpls_real alpha, const hpls_real *phat, hpls_real omega,
                          const hpls_real *shat, const hpls_real *s, const hpls_real *t,
                          const hpls_real *rhat, hpls_real *x, hpls_real *r, double *rnorm,
                          double *rhat_r);

#endif /* HPLS_INTERNAL_H */
