/* SPDX-License-Identifier: BSD-3-Clause */
/* dense.c: OpenMP kernels on the dense row-major matrix: y = A x, the fused
 * residual, the relaxation sweep and its triangle residual, and the row dots
 * they and PJG's dense sweep share.  Rows are split
 * statically; each row's sum has a fixed order (below). */
#include "core/internal.h"
#include "kernels/cpu/team.h"

#include <omp.h>
#include <string.h>

/* Dense rows are summed in 16 interleaved partial sums, held as 4 vectors of 4
 * (GCC's vector extension): independent chains hide the adds' latency, so a row
 * streams at memory speed; the order is fixed by the vectors' lanes, not by the
 * instruction set, so every machine and thread count gives the same sums.  The
 * bodies are compiled twice: for AVX2 (one instruction per vector), taken when
 * the CPU has it, and for the baseline SSE2 (two).  No FMA: C11 forbids
 * contracting a * b + c, which would change the rounding.  (A dispatch by hand,
 * not target_clones: an ifunc resolver runs before the sanitizers' runtimes.) */
typedef double quad __attribute__((vector_size(32)));
#define NQ 4 /* vectors */
/* an unaligned load (a macro: a function returning a 32-byte vector has a
 * different ABI with and without AVX) */
#define LOAD4(v, p) memcpy(&(v), (p), sizeof(quad))

static inline double hsum(const quad *acc)
{
    double s = 0.0;
    for (int k = 0; k < NQ; k++)
        s += (acc[k][0] + acc[k][1]) + (acc[k][2] + acc[k][3]);
    return s;
}

static inline double dot_body(const hpls_real *a, const hpls_real *x, hpls_int lo, hpls_int hi)
{
    quad acc[NQ] = {{0.0}};
    hpls_int j = lo;
    for (; j + 4 * NQ <= hi; j += 4 * NQ)
        for (int k = 0; k < NQ; k++) {
            quad va, vx;
            LOAD4(va, a + j + 4 * k);
            LOAD4(vx, x + j + 4 * k);
            acc[k] += va * vx;
        }
    for (int l = 0; j < hi; j++, l++)
        acc[l / 4][l % 4] += a[j] * x[j];
    return hsum(acc);
}

static inline double dot2_body(const hpls_real *a, const hpls_real *x, const hpls_real *xo,
                               hpls_int hi, double *o)
{
    quad p[NQ] = {{0.0}}, q[NQ] = {{0.0}};
    hpls_int j = 0;
    for (; j + 4 * NQ <= hi; j += 4 * NQ)
        for (int k = 0; k < NQ; k++) {
            quad va, vx, vo;
            LOAD4(va, a + j + 4 * k);
            LOAD4(vx, x + j + 4 * k);
            LOAD4(vo, xo + j + 4 * k);
            p[k] += va * vx;
            q[k] += va * vo;
        }
    for (int l = 0; j < hi; j++, l++) {
        p[l / 4][l % 4] += a[j] * x[j];
        q[l / 4][l % 4] += a[j] * xo[j];
    }
    *o = hsum(q);
    return hsum(p);
}

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("avx2"))) static double dot_avx2(const hpls_real *a, const hpls_real *x,
                                                       hpls_int lo, hpls_int hi)
{
    return dot_body(a, x, lo, hi);
}

__attribute__((target("avx2"))) static double dot2_avx2(const hpls_real *a, const hpls_real *x,
                                                        const hpls_real *xo, hpls_int hi,
                                                        double *o)
{
    return dot2_body(a, x, xo, hi, o);
}
#define HAVE_AVX2() __builtin_cpu_supports("avx2")
#else
#define HAVE_AVX2() 0
#define dot_avx2 dot_body
#define dot2_avx2 dot2_body
#endif

double hpls_k_dense_dot(const hpls_real *a, const hpls_real *x, hpls_int lo, hpls_int hi)
{
    return HAVE_AVX2() ? dot_avx2(a, x, lo, hi) : dot_body(a, x, lo, hi);
}

double hpls_k_dense_dot2(const hpls_real *a, const hpls_real *x, const hpls_real *xo, hpls_int hi,
                         double *o)
{
    return HAVE_AVX2() ? dot2_avx2(a, x, xo, hi, o) : dot2_body(a, x, xo, hi, o);
}

static int nthreads_for(int nt, hpls_int n)
{
    return n < 64 ? 1 : nt;
}

void hpls_k_gemv(int nt, const hpls_dense *A, const hpls_real *x, hpls_real *y)
{
    const hpls_int n = A->nrows, m = A->ncols;
#pragma omp parallel for schedule(static) num_threads(nthreads_for(nt, n))
    for (hpls_int i = 0; i < n; i++) {
        const hpls_real *a = A->data + i * m;
        y[i] = hpls_k_dense_dot(a, x, 0, m);
    }
}

double hpls_k_dense_residual(int nt, const hpls_dense *A, const hpls_real *b, const hpls_real *x,
                             hpls_real *r)
{
    const hpls_int n = A->nrows, m = A->ncols;
    double part[HPLS_MAX_THREADS];
    int np = 1;
    HPLS_TEAM(nthreads_for(nt, n), t, p, {
        double ss = 0.0;
        for (hpls_int i = n * t / p; i < n * (t + 1) / p; i++) {
            const hpls_real *a = A->data + i * m;
            double s = b[i] - hpls_k_dense_dot(a, x, 0, m);
            r[i] = s;
            ss += s * s;
        }
        part[t] = ss;
        if (t == 0)
            np = p;
    });
    double ss = 0.0;
    for (int t = 0; t < np; t++)
        ss += part[t];
    return ss;
}

/* The SOR sweep of sor_sweep.c over dense rows: the row's dots left and
 * right of the diagonal (sequential by definition: row i reads the new x_j,
 * j < i, forward). */
void hpls_k_dense_sor_sweep(const hpls_dense *A, const hpls_real *dinv, double omega, int backward,
                            const hpls_real *b, hpls_real *x, hpls_real *dx)
{
    const hpls_int n = A->nrows;
    for (hpls_int k = 0; k < n; k++) {
        hpls_int i = backward ? n - 1 - k : k;
        const hpls_real *a = A->data + i * n;
        double s = b[i] - hpls_k_dense_dot(a, x, 0, i) - hpls_k_dense_dot(a, x, i + 1, n);
        double xi = omega == 1.0 ? s * dinv[i] : (1.0 - omega) * x[i] + omega * s * dinv[i];
        dx[i] = x[i] - xi;
        x[i] = xi;
    }
}

double hpls_k_dense_triangle(int nt, const hpls_dense *A, int upper, double dscale,
                             const hpls_real *dx, hpls_real *r)
{
    const hpls_int n = A->nrows;
    double part[HPLS_MAX_THREADS];
    int np = 1;
    HPLS_TEAM(nthreads_for(nt, n), t, p, {
        double ss = 0.0;
        for (hpls_int i = n * t / p; i < n * (t + 1) / p; i++) {
            const hpls_real *a = A->data + i * n;
            double s = dscale * a[i] * dx[i] +
                       (upper ? hpls_k_dense_dot(a, dx, i + 1, n) : hpls_k_dense_dot(a, dx, 0, i));
            r[i] = s;
            ss += s * s;
        }
        part[t] = ss;
        if (t == 0)
            np = p;
    });
    double ss = 0.0;
    for (int t = 0; t < np; t++)
        ss += part[t];
    return ss;
}
