/* dense.c: OpenMP kernels on the dense row-major matrix: y = A x, the fused
 * residual, and the row dots they and PJG's dense sweep share.  Rows are split
 * statically; each row's sum has a fixed order (below). */
#include "core/internal.h"

#include <math.h>
#include <omp.h>
#include <string.h>

#define MAX_THREADS 1024

/* Dense rows are summed in 8 interleaved partial sums, held as 4 pairs (GCC's
 * vector extension: SSE2 registers on x86-64): independent chains hide the
 * adds' latency, so a row streams at memory speed; the order is fixed, the
 * same on every machine and thread count.  (Left to the auto-vectoriser, the
 * two-vector dot of PJG was spilled to the stack.) */
typedef double pair __attribute__((vector_size(16)));
#define NP 4 /* pairs */

static inline pair load2(const hpls_real *p)
{
    pair v;
    memcpy(&v, p, sizeof v); /* unaligned */
    return v;
}

static inline double hsum(const pair *acc)
{
    double s = 0.0;
    for (int k = 0; k < NP; k++)
        s += acc[k][0] + acc[k][1];
    return s;
}

double hpls_k_dense_dot(const hpls_real *a, const hpls_real *x, hpls_int lo, hpls_int hi)
{
    pair acc[NP] = {{0.0, 0.0}};
    hpls_int j = lo;
    for (; j + 2 * NP <= hi; j += 2 * NP)
        for (int k = 0; k < NP; k++)
            acc[k] += load2(a + j + 2 * k) * load2(x + j + 2 * k);
    for (int l = 0; j < hi; j++, l++)
        acc[l / 2][l % 2] += a[j] * x[j];
    return hsum(acc);
}

double hpls_k_dense_dot2(const hpls_real *a, const hpls_real *x, const hpls_real *xo, hpls_int hi,
                         double *o)
{
    pair p[NP] = {{0.0, 0.0}}, q[NP] = {{0.0, 0.0}};
    hpls_int j = 0;
    for (; j + 2 * NP <= hi; j += 2 * NP)
        for (int k = 0; k < NP; k++) {
            pair va = load2(a + j + 2 * k);
            p[k] += va * load2(x + j + 2 * k);
            q[k] += va * load2(xo + j + 2 * k);
        }
    for (int l = 0; j < hi; j++, l++) {
        p[l / 2][l % 2] += a[j] * x[j];
        q[l / 2][l % 2] += a[j] * xo[j];
    }
    *o = hsum(q);
    return hsum(p);
}

static int nthreads_for(hpls_int n)
{
    int p = n < 64 ? 1 : omp_get_max_threads();
    return p > MAX_THREADS ? MAX_THREADS : p;
}

void hpls_k_gemv(const hpls_dense *A, const hpls_real *x, hpls_real *y)
{
    const hpls_int n = A->nrows, m = A->ncols;
#pragma omp parallel for schedule(static) num_threads(nthreads_for(n))
    for (hpls_int i = 0; i < n; i++) {
        const hpls_real *a = A->data + i * m;
        y[i] = hpls_k_dense_dot(a, x, 0, m);
    }
}

double hpls_k_dense_residual(const hpls_dense *A, const hpls_real *b, const hpls_real *x,
                             hpls_real *r)
{
    const hpls_int n = A->nrows, m = A->ncols;
    double part[MAX_THREADS];
    int np = 1;
#pragma omp parallel num_threads(nthreads_for(n))
    {
        int t = omp_get_thread_num(), p = omp_get_num_threads();
        double ss = 0.0;
        for (hpls_int i = n * t / p; i < n * (t + 1) / p; i++) {
            const hpls_real *a = A->data + i * m;
            double s = b[i] - hpls_k_dense_dot(a, x, 0, m);
            r[i] = s;
            ss += s * s;
        }
        part[t] = ss;
#pragma omp single
        np = p;
    }
    double ss = 0.0;
    for (int t = 0; t < np; t++)
        ss += part[t];
    return isfinite(ss) && ss < 1e280 && ss > 1e-280 ? sqrt(ss) : hpls_k_nrm2(n, r);
}
