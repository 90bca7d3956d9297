/* SPDX-License-Identifier: BSD-3-Clause */
/* internal.h: what every part of hpls shares but users do not see:
 * error recording, checked memory, timers, threads, and the CPU kernel interface. */
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

/* ---- max and min in loops ---------------------------------------------
 * One maxsd/minsd each: C's fmax/fmin are libm calls unless -ffinite-math-only
 * (12 a row made thomas's factorisation 2x slower).  A NaN v is skipped, as
 * fmax/fmin skip it; a NaN acc is kept (callers start acc from a number). */
static inline double hpls_maxd(double acc, double v)
{
    return v > acc ? v : acc;
}
static inline double hpls_mind(double acc, double v)
{
    return v < acc ? v : acc;
}

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

/* ---- threads (src/core/threads.c) -------------------------------------- */
/* Threads a backend (and so every parallel region of hpls) may use. */
#define HPLS_MAX_THREADS 1024
/* OpenMP's default thread count: what object-less public calls run on. */
int hpls_default_threads(void);
/* Below this many stored entries a solve runs on one thread when its threads
 * option is 0: an iteration's few microseconds of work no longer pay for
 * waking a second thread at each of its parallel loops.  bench/results/
 * threads_crossover.md (BiCGSTAB, 5 quiet runs): 2 threads take 1.75-3.96x
 * one thread's time at 2.2e4-2.2e5 entries, about the same at 4.0e5 (gas,
 * 0.94x) and 6.7e5 (poisson3d, 1.08x), 0.57-0.63x from 1.2e6: the line is
 * drawn at 1e6, where the table turns (at 5e5 it gave 6.7e5 two threads). */
#define HPLS_ONE_THREAD_NNZ 1000000
/* The threads of a solver or preconditioner whose threads option is 0, for a
 * matrix of nnz stored entries (negative: not known, e.g. a shell operator):
 * one below HPLS_ONE_THREAD_NNZ, else OpenMP's default. */
int hpls_auto_threads(double nnz);

/* ---- CPU kernels on host arrays (src/kernels/cpu, OpenMP) ----------------
 * nt: the threads of the region (the backend's count; object-less public
 * calls pass OpenMP's default).  Static partitions; every reduction sums
 * per-thread partials in thread order, so results are bit-for-bit repeatable
 * for a fixed thread count.  The vector operations methods use are the
 * backend's (backend/backend.h); these are the kernels of the algorithms. */
void hpls_k_copy(int nt, hpls_int n, const hpls_real *x, hpls_real *y); /* y = x */
void hpls_k_set(int nt, hpls_int n, hpls_real a, hpls_real *y);         /* y = a */
/* The software prefetch of the CSR kernels (spmv.c): the streams of A ("rows")
 * and the gathers of x ("x"), with locality hint 3, 2 or 0 (nta), or none.
 * Every variant gives the same bits; which is fastest depends on the CPU, so
 * prefetch=auto times them on the matrix (backend.c).  HPLS_PF_DEFAULT is
 * none when A, x and y fit in half the last-level cache, else rows+x-l2, x
 * dropped on a stencil. */
enum {
    HPLS_PF_DEFAULT,
    HPLS_PF_NONE,
    HPLS_PF_ROWS_L3,
    HPLS_PF_ROWSX_L3,
    HPLS_PF_ROWS_L2,
    HPLS_PF_ROWSX_L2,
    HPLS_PF_ROWSX_NTA,
    HPLS_PF_COUNT
};
/* Their names, in that order (the option prefetch; its "auto" is HPLS_PF_COUNT). */
#define HPLS_PF_NAMES "default,none,rows-l3,rows+x-l3,rows-l2,rows+x-l2,rows+x-nta"
/* y = A x (hpls_k_spmv: variant HPLS_PF_DEFAULT) */
void hpls_k_spmv(int nt, const hpls_csr *A, const hpls_real *x, hpls_real *y);
void hpls_k_spmv_pf(int nt, int pf, const hpls_csr *A, const hpls_real *x, hpls_real *y);
/* y = A^T x, At the transpose of A: At's rows as hpls_k_spmv_pf; or, on one
 * thread where hpls_k_scatter_pays, A's rows scattered into y, each y_j summed
 * in At's order (the same bits) with pf's prefetch of y where it has x's. */
void hpls_k_spmv_t_pf(int nt, int pf, const hpls_csr *A, const hpls_csr *At, const hpls_real *x,
                      hpls_real *y);
/* Whether A's rows keep their length from one row to the next markedly more
 * often than At's (sampled): then the scatter's loop exits are predicted
 * where At's are missed. */
int hpls_k_scatter_pays(const hpls_csr *A, const hpls_csr *At);
/* r = b - A x (fused: one pass); returns sum r_i^2 */
double hpls_k_residual(int nt, const hpls_csr *A, const hpls_real *b, const hpls_real *x,
                       hpls_real *r);
double hpls_k_residual_pf(int nt, int pf, const hpls_csr *A, const hpls_real *b,
                          const hpls_real *x, hpls_real *r);
/* The last-level cache's size in bytes (read once: sysfs, else sysconf). */
long hpls_k_llc_bytes(void);
/* Columns of a block product read together at most (A once per block; fewer
 * where they do not fit the last-level cache: spmm.c). */
#define HPLS_SPMM_COLS 8
/* Many right-hand sides: R = B - A X (B == NULL: R = A X) for k columns, column
 * j at j*ld; ss[j] = the sum of the squares of R's column j (unreduced). */
void hpls_k_residual_block(int nt, const hpls_csr *A, hpls_int k, const hpls_real *B,
                           const hpls_real *X, hpls_real *R, hpls_int ld, double *ss);
void hpls_ref_residual_block(int nt, const hpls_csr *A, hpls_int k, const hpls_real *B,
                             const hpls_real *X, hpls_real *R, hpls_int ld, double *ss);
/* Dense row-major: y = A x; r = b - A x returning sum r_i^2 (src/kernels/cpu/dense.c). */
void hpls_k_gemv(int nt, const hpls_dense *A, const hpls_real *x, hpls_real *y);
double hpls_k_dense_residual(int nt, const hpls_dense *A, const hpls_real *b, const hpls_real *x,
                             hpls_real *r);
/* The SOR sweep and its residual (kernels/cpu/sor_sweep.c) on a dense square A, each row's sums
 * left and right of the diagonal by hpls_k_dense_dot. */
void hpls_k_dense_sor_sweep(const hpls_dense *A, const hpls_real *dinv, double omega, int backward,
                            const hpls_real *b, hpls_real *x, hpls_real *dx);
double hpls_k_dense_triangle(int nt, const hpls_dense *A, int upper, double dscale,
                             const hpls_real *dx, hpls_real *r);
/* sum_{j in [lo, hi)} a_j x_j in 16 interleaved partial sums (a fixed order) */
double hpls_k_dense_dot(const hpls_real *a, const hpls_real *x, hpls_int lo, hpls_int hi);
/* The same over [0, hi) with x, returned, and with xo, in *o, from one load of a. */
double hpls_k_dense_dot2(const hpls_real *a, const hpls_real *x, const hpls_real *xo, hpls_int hi,
                         double *o);
/* First row of thread t's block when nrows rows are split into p blocks of about
 * equal nonzeros (+ rows, so empty rows still count). */
hpls_int hpls_k_row_split(const hpls_csr *A, int t, int p);

/* ---- CSR helpers (src/la/csr.c) ----------------------------------------- */
/* pos[i] = position of A_ii in row i; a missing or zero diagonal entry is an
 * HPLS_ERR_ZERO_DIAG naming the row (pos may be NULL to only check). */
hpls_status hpls_csr_diag_positions(const hpls_csr *A, hpls_int *pos);
/* 1 when every column of A holds a stored entry, else 0 (also when the
 * marks cannot be allocated): then, A's values finite, a NaN or Inf in x
 * reaches b - A x, and the true residual's norm shows it. */
int hpls_csr_columns_stored(const hpls_csr *A);
/* The index of the first NaN or Inf of v[0 .. n-1], or -1.  One branch-free
 * pass over the bits (no floating-point operation: nothing to trap) that the
 * compiler vectorizes; a branch per value (isfinite) took 0.48M instructions
 * a solve for pitzDaily's 61k values, 8 a value.  Then a second pass finds it. */
hpls_int hpls_first_nonfinite(const hpls_real *v, hpls_int n);
/* HPLS_OK when B has A's dimensions and pattern (values may differ) and
 * finite values, else an HPLS_ERR_SIZE naming the first row that differs
 * (what: the caller's name) or hpls_csr_check's HPLS_ERR_VALUE: one pass,
 * and with A's pattern checked at setup, B is then as hpls_csr_check wants
 * (the update of a small system: the whole check took 8% of a solve). */
hpls_status hpls_csr_same_pattern(const hpls_csr *A, const hpls_csr *B, const char *what);

/* ---- sequential reference kernels (src/kernels/ref): the oracle --------- */
void hpls_ref_spmv(int nt, const hpls_csr *A, const hpls_real *x, hpls_real *y);
/* r = b - A x; returns sum r_i^2 */
double hpls_ref_residual(int nt, const hpls_csr *A, const hpls_real *b, const hpls_real *x,
                         hpls_real *r);

#endif /* HPLS_INTERNAL_H */
