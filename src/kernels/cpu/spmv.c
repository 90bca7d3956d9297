/* SPDX-License-Identifier: BSD-3-Clause */
/* spmv.c: OpenMP CSR SpMV and fused residual.  Rows are split into one
 * contiguous block per thread with about equal (nonzeros + rows), found by
 * binary search on rowptr, so no schedule state is stored with the matrix.
 *
 * Each row is summed left to right, exactly as the reference, whatever the
 * variant below: every variant gives the same bits.
 *
 * Software prefetch (the variants, HPLS_PF_*): the streams of A (val and colind
 * PF_STREAM entries ahead, rowptr PF_ROWS rows ahead, once a row), and x at the
 * column PF_X entries ahead, which turns scattered gathers from latency-bound
 * into bandwidth-bound; each with a locality hint.  What pays differs between
 * CPUs: on an AMD EPYC (Zen 4) the streams and x at locality 2 made gas 1e6
 * 2.3x faster than no prefetch, while on an Intel Xeon the same hints at
 * locality 0 (prefetchnta) made it 2-3x slower than none (issue 29;
 * bench/results/prefetch.md).  So prefetch=auto times the variants on the
 * user's matrix within the first products of a solve (backend.c), and
 * HPLS_PF_DEFAULT, used before and by the object-less calls, is the one that
 * lost least on both: nothing when A, x and y fit in half the last-level
 * cache; else locality 2 (prefetcht1: into L2, never L1-only), x skipped when
 * a sample of rows shows a stencil (each row's columns are the previous row's
 * plus one: x is then read in streams the hardware already prefetches).
 *
 * A^T x is At's product, or on one thread A's rows scattered into y when A's
 * rows keep one length and At's do not (hpls_k_scatter_pays): a CSR row loop
 * whose trip count changes at random mispredicts its exit.  On gas n = 1e5,
 * k = 1 (rows of A: 4 entries; of At: 3 + a random count) At's product took
 * 2.3x A's (737 vs 314 us, interleaved, loaded machine) and the scatter 421 us
 * (PETSc's MatMultTranspose, a scatter too, 400 us); a simulated predictor
 * (callgrind --branch-sim=yes) missed 10.1M branches in BiCG's 118
 * iterations, 2.3k with the scatter.  Where the lengths of both are steady
 * (tridiagonal: 165 vs 234 us) the scatter's extra pass over y loses. */
#include "kernels/cpu/prefetch.h"
#include "kernels/cpu/team.h"

#define PAR_MIN_NNZ 20000
#define PF_X 256       /* entries ahead whose x is prefetched */
#define PF_STREAM 2048 /* entries ahead whose val and colind are prefetched */
#define PF_ROWS 256    /* rows ahead whose rowptr is prefetched */
#define SAMPLE_ROWS 64 /* rows sampled to recognise a stencil */
_Static_assert(PF_X <= PF_STREAM, "the prefetch of x reads colind PF_X entries ahead");

hpls_int hpls_k_row_split(const hpls_csr *A, int t, int p)
{
    /* weight of rows [0, i) is rowptr[i] + i */
    hpls_int n = A->nrows;
    hpls_int target = (A->nnz + n) * t / p;
    hpls_int lo = 0, hi = n;
    while (lo < hi) {
        hpls_int mid = lo + (hi - lo) / 2;
        if (A->rowptr[mid] + mid < target)
            lo = mid + 1;
        else
            hi = mid;
    }
    return t == p ? n : lo;
}

static int nthreads_for(int nt, const hpls_csr *A)
{
    return A->nnz + A->nrows < PAR_MIN_NNZ ? 1 : nt;
}

/* The variant for A x or b - A x (A, x and y or b: hpls_pf_sized). */
static int pf_for(int pf, const hpls_csr *A)
{
    return hpls_pf_sized(pf, 12.0 * (double)A->nnz + 24.0 * (double)A->nrows);
}

/* Whether the rows [lo, hi) look like a stencil: in at least 3/4 of the
 * sampled rows the columns are those of the row before, shifted by one. */
static int is_stencil(const hpls_csr *A, hpls_int lo, hpls_int hi)
{
    const hpls_int *rp = A->rowptr;
    const hpls_idx *ci = A->colind;
    hpls_int step = (hi - lo) / SAMPLE_ROWS + 1, samples = 0, shifted = 0;
    for (hpls_int i = lo + 1; i < hi; i += step) {
        hpls_int a = rp[i - 1], b = rp[i], len = b - a;
        int same = rp[i + 1] - b == len;
        for (hpls_int j = 0; j < len && same; j++)
            same = ci[b + j] == ci[a + j] + 1;
        samples++;
        shifted += same;
    }
    return samples > 0 && 4 * shifted >= 3 * samples;
}

/* Row i's streams ahead: A's values and columns PF_STREAM entries past the
 * row's start, rowptr PF_ROWS rows on.  Always inlined: loc must reach the
 * hint as a constant (kernels/cpu/prefetch.h). */
__attribute__((always_inline)) static inline void prefetch_streams(const hpls_csr *A, hpls_int i,
                                                                   int loc)
{
    hpls_int k = A->rowptr[i];
    hpls_pf_hint(A->val + k + PF_STREAM, loc);
    hpls_pf_hint(A->colind + k + PF_STREAM, loc);
    hpls_pf_hint(A->rowptr + i + PF_ROWS, loc);
}

/* s -/+= row i of A times x, entry by entry from the left; streams and pfx say
 * what is prefetched, loc with which hint (all constants after inlining: no
 * branch is left in the loop). */
static inline double row_acc(const hpls_csr *A, const hpls_real *x, hpls_int i, double s, int sub,
                             int streams, int pfx, int loc)
{
    const hpls_idx *ci = A->colind;
    const hpls_real *v = A->val;
    hpls_int k = A->rowptr[i], e = A->rowptr[i + 1];
    if (streams)
        prefetch_streams(A, i, loc);
    for (; k < e; k++) {
        if (pfx)
            hpls_pf_hint(x + ci[k + PF_X], loc);
        double prod = v[k] * x[ci[k]];
        s = sub ? s - prod : s + prod;
    }
    return s;
}

/* Rows [lo, hi) of y = A x (b == NULL) or y = b - A x with one prefetch
 * variant; returns the sum of the squares of y when asked (sq).  Rows whose
 * prefetches would reach past the end of the arrays are left to the caller:
 * the first row not done is returned in *next. */
static inline double rows_pf(const hpls_csr *A, const hpls_real *x, const hpls_real *b,
                             hpls_real *y, hpls_int lo, hpls_int hi, int sq, int streams, int pfx,
                             int loc, hpls_int *next)
{
    const hpls_int *rp = A->rowptr;
    hpls_int last = A->nnz - PF_STREAM, last_row = A->nrows - PF_ROWS;
    double ss = 0.0;
    hpls_int i = lo;
    for (; i < hi && i < last_row && rp[i + 1] <= last; i++) {
        double s = b ? row_acc(A, x, i, b[i], 1, streams, pfx, loc)
                     : row_acc(A, x, i, 0.0, 0, streams, pfx, loc);
        y[i] = s;
        if (sq)
            ss += s * s;
    }
    *next = i;
    return ss;
}

/* Rows [lo, hi) as rows_pf, with variant pf, the tail without prefetch.
 * Always inlined, so that b and sq are constants and no branch on them is
 * left (called, GCC 12 kept them: the textbook variant ran 1.2x the plain
 * loop's time in cache). */
__attribute__((always_inline)) static inline double rows(const hpls_csr *A, const hpls_real *x, const hpls_real *b, hpls_real *y,
                          hpls_int lo, hpls_int hi, int sq, int pf)
{
    if (pf == HPLS_PF_DEFAULT) /* not in cache: the callers asked pf_for */
        pf = is_stencil(A, lo, hi) ? HPLS_PF_ROWS_L2 : HPLS_PF_ROWSX_L2;
    hpls_int i = lo;
    double ss = 0.0;
    switch (pf) { /* a loop of its own for each variant (constant arguments) */
    case HPLS_PF_ROWS_L3:
        ss = rows_pf(A, x, b, y, lo, hi, sq, 1, 0, 3, &i);
        break;
    case HPLS_PF_ROWSX_L3:
        ss = rows_pf(A, x, b, y, lo, hi, sq, 1, 1, 3, &i);
        break;
    case HPLS_PF_ROWS_L2:
        ss = rows_pf(A, x, b, y, lo, hi, sq, 1, 0, 2, &i);
        break;
    case HPLS_PF_ROWSX_L2:
        ss = rows_pf(A, x, b, y, lo, hi, sq, 1, 1, 2, &i);
        break;
    case HPLS_PF_ROWSX_NTA:
        ss = rows_pf(A, x, b, y, lo, hi, sq, 1, 1, 0, &i);
        break;
    default: /* HPLS_PF_NONE: the textbook loop below */
        break;
    }
    for (; i < hi; i++) {
        double s = b ? row_acc(A, x, i, b[i], 1, 0, 0, 0) : row_acc(A, x, i, 0.0, 0, 0, 0, 0);
        y[i] = s;
        if (sq)
            ss += s * s;
    }
    return ss;
}

void hpls_k_spmv_pf(int nt, int pf, const hpls_csr *A, const hpls_real *x, hpls_real *y)
{
    pf = pf_for(pf, A); /* asked before the threads start */
    HPLS_TEAM(nthreads_for(nt, A), t, p, {
        rows(A, x, NULL, y, hpls_k_row_split(A, t, p), hpls_k_row_split(A, t + 1, p), 0, pf);
    });
}

double hpls_k_residual_pf(int nt, int pf, const hpls_csr *A, const hpls_real *b,
                          const hpls_real *x, hpls_real *r)
{
    double part[HPLS_MAX_THREADS];
    int np = 1;
    pf = pf_for(pf, A);
    HPLS_TEAM(nthreads_for(nt, A), t, p, {
        part[t] =
            rows(A, x, b, r, hpls_k_row_split(A, t, p), hpls_k_row_split(A, t + 1, p), 1, pf);
        if (t == 0)
            np = p;
    });
    double ss = 0.0;
    for (int t = 0; t < np; t++)
        ss += part[t];
    return ss;
}

/* The fraction of the sampled rows of A whose length differs from the row
 * before's: each such row end is a loop exit the branch predictor may miss. */
static double length_changes(const hpls_csr *A)
{
    const hpls_int *rp = A->rowptr;
    hpls_int n = A->nrows, step = n / SAMPLE_ROWS + 1, samples = 0, changed = 0;
    for (hpls_int i = 1; i < n; i += step) {
        samples++;
        changed += rp[i + 1] - rp[i] != rp[i] - rp[i - 1];
    }
    return samples > 0 ? (double)changed / (double)samples : 0.0;
}

/* A missed row end cost about 8 times the scatter's extra work per row in the
 * measures above (gas k = 1 against the tridiagonal), so the scatter breaks
 * even near 1/8 of the rows changing length more in At than in A: 1/4 asked. */
int hpls_k_scatter_pays(const hpls_csr *A, const hpls_csr *At)
{
    return length_changes(At) - length_changes(A) >= 0.25;
}

/* y += row i of A times x_i, entry by entry from the left, prefetching as
 * row_acc does with y's entries where it has x's. */
static inline void row_scatter(const hpls_csr *A, const hpls_real *x, hpls_real *y, hpls_int i,
                               int streams, int pfy, int loc)
{
    const hpls_idx *ci = A->colind;
    const hpls_real *v = A->val;
    hpls_int k = A->rowptr[i], e = A->rowptr[i + 1];
    double xi = x[i];
    if (streams)
        prefetch_streams(A, i, loc);
    for (; k < e; k++) {
        if (pfy)
            hpls_pf_hint(y + ci[k + PF_X], loc);
        y[ci[k]] += v[k] * xi;
    }
}

/* Rows of A from 0 scattered with one prefetch variant, up to the first whose
 * prefetches would reach past the end of the arrays (returned). */
static inline hpls_int scatter_pf(const hpls_csr *A, const hpls_real *x, hpls_real *y, int pfy,
                                  int loc)
{
    hpls_int last = A->nnz - PF_STREAM, last_row = A->nrows - PF_ROWS, i = 0;
    for (; i < last_row && A->rowptr[i + 1] <= last; i++)
        row_scatter(A, x, y, i, 1, pfy, loc);
    return i;
}

/* y = A^T x on one thread by A's rows: y_j receives a_ij x_i for i ascending,
 * the order of At's row j from the left, so the same bits as At's product. */
static void scatter(const hpls_csr *A, const hpls_real *x, hpls_real *y, int pf)
{
    for (hpls_int j = 0; j < A->ncols; j++)
        y[j] = 0.0;
    if (pf == HPLS_PF_DEFAULT) /* not in cache: the caller asked pf_for */
        pf = is_stencil(A, 0, A->nrows) ? HPLS_PF_ROWS_L2 : HPLS_PF_ROWSX_L2;
    hpls_int i = 0;
    switch (pf) {
    case HPLS_PF_ROWS_L3: i = scatter_pf(A, x, y, 0, 3); break;
    case HPLS_PF_ROWSX_L3: i = scatter_pf(A, x, y, 1, 3); break;
    case HPLS_PF_ROWS_L2: i = scatter_pf(A, x, y, 0, 2); break;
    case HPLS_PF_ROWSX_L2: i = scatter_pf(A, x, y, 1, 2); break;
    case HPLS_PF_ROWSX_NTA: i = scatter_pf(A, x, y, 1, 0); break;
    default: /* HPLS_PF_NONE */ break;
    }
    for (; i < A->nrows; i++)
        row_scatter(A, x, y, i, 0, 0, 0);
}

void hpls_k_spmv_t_pf(int nt, int pf, const hpls_csr *A, const hpls_csr *At, const hpls_real *x,
                      hpls_real *y)
{
    if (nthreads_for(nt, At) > 1 || !hpls_k_scatter_pays(A, At)) {
        hpls_k_spmv_pf(nt, pf, At, x, y);
        return;
    }
    scatter(A, x, y, pf_for(pf, A));
}

void hpls_k_spmv(int nt, const hpls_csr *A, const hpls_real *x, hpls_real *y)
{
    hpls_k_spmv_pf(nt, HPLS_PF_DEFAULT, A, x, y);
}

double hpls_k_residual(int nt, const hpls_csr *A, const hpls_real *b, const hpls_real *x,
                       hpls_real *r)
{
    return hpls_k_residual_pf(nt, HPLS_PF_DEFAULT, A, b, x, r);
}
