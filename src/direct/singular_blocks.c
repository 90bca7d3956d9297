/* SPDX-License-Identifier: BSD-3-Clause */
/* singular_blocks.c: the g-Spike paper's test of singular partitions (Sec. 4,
 * Tables 3 and 4): make `count` of the n/m diagonal blocks of order m of T
 * exactly singular, keeping the couplings between blocks.
 *   kind 18 (Toeplitz tridiag(-1, 4, -1)): A_j - omega I, omega the eigenvalue of
 *     A_j nearest zero, 4 - 2 cos(pi / (m+1));
 *   kind 1 (random): A_j replaced by the tridiagonal (Hessenberg) form of B B^T,
 *     B a random m x (m-1) matrix, so of rank m-1. */
#include "direct/direct.h"

#include <math.h>

/* A uniform number in [-1, 1) from a 64-bit state (splitmix64). */
static double unif(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1p-52 - 1.0;
}

/* Householder tridiagonalization of the symmetric m x m row-major M, in place
 * (only the tridiagonal part is meaningful afterwards). */
static void tridiagonalize(double *M, hpls_int m, double *v)
{
    for (hpls_int k = 0; k + 2 < m; k++) {
        double nrm = 0.0;
        for (hpls_int i = k + 1; i < m; i++)
            nrm = hypot(nrm, M[i * m + k]);
        if (nrm == 0.0)
            continue;
        double alpha = M[(k + 1) * m + k] > 0 ? -nrm : nrm;
        for (hpls_int i = 0; i < m; i++)
            v[i] = i > k ? M[i * m + k] : 0.0;
        v[k + 1] -= alpha;
        double vv = 0.0;
        for (hpls_int i = k + 1; i < m; i++)
            vv += v[i] * v[i];
        if (vv == 0.0)
            continue;
        /* M = H M H, H = I - 2 v v^T / (v^T v): rows, then columns */
        for (hpls_int j = 0; j < m; j++) {
            double s = 0.0;
            for (hpls_int i = k + 1; i < m; i++)
                s += v[i] * M[i * m + j];
            s *= 2.0 / vv;
            for (hpls_int i = k + 1; i < m; i++)
                M[i * m + j] -= s * v[i];
        }
        for (hpls_int i = 0; i < m; i++) {
            double s = 0.0;
            for (hpls_int j = k + 1; j < m; j++)
                s += M[i * m + j] * v[j];
            s *= 2.0 / vv;
            for (hpls_int j = k + 1; j < m; j++)
                M[i * m + j] -= s * v[j];
        }
    }
}

hpls_status hpls_tridiag_singular_blocks(hpls_tridiag *T, hpls_int m, hpls_int count, int kind,
                                         uint64_t seed)
{
    hpls_int nb = m > 0 ? T->n / m : 0;
    if (m < 2 || count < 0 || count > nb || (kind != 1 && kind != 18))
        return hpls_fail(HPLS_ERR_ARG, "singular blocks: m %lld, count %lld of %lld, kind %d",
                         (long long)m, (long long)count, (long long)nb, kind);
    double *M = NULL, *B = NULL, *v = NULL;
    if (kind == 1) {
        M = hpls_malloc(m * m, sizeof *M);
        B = hpls_malloc(m * (m - 1), sizeof *B);
        v = hpls_malloc(m, sizeof *v);
        if (!M || !B || !v) {
            hpls_free(M);
            hpls_free(B);
            hpls_free(v);
            return HPLS_ERR_NOMEM;
        }
    }
    const double omega = 4.0 - 2.0 * cos(acos(-1.0) / ((double)m + 1.0));
    uint64_t state = seed;
    for (hpls_int k = 0; k < count; k++) {
        hpls_int a = (k * nb / count) * m; /* blocks spread evenly */
        if (kind == 18) {
            for (hpls_int i = a; i < a + m; i++)
                T->d[i] -= omega;
            continue;
        }
        for (hpls_int q = 0; q < m * (m - 1); q++)
            B[q] = unif(&state);
        for (hpls_int i = 0; i < m; i++) /* M = B B^T */
            for (hpls_int j = 0; j < m; j++) {
                double s = 0.0;
                for (hpls_int q = 0; q < m - 1; q++)
                    s += B[i * (m - 1) + q] * B[j * (m - 1) + q];
                M[i * m + j] = s;
            }
        tridiagonalize(M, m, v);
        for (hpls_int i = 0; i < m; i++) {
            if (i > 0)
                T->dl[a + i] = M[i * m + i - 1];
            T->d[a + i] = M[i * m + i];
            if (i < m - 1)
                T->du[a + i] = M[i * m + i + 1];
        }
    }
    hpls_free(M);
    hpls_free(B);
    hpls_free(v);
    return HPLS_OK;
}
