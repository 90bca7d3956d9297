/* SPDX-License-Identifier: BSD-3-Clause */
/* tridiag.c: tridiagonal test matrices for the direct tridiagonal solvers.
 *
 * type=random: a(i,i-1), a(i,i+1) uniform in [-1, 1), and
 *   a(i,i) = dom * (|a(i,i-1)| + |a(i,i+1)|) + U(0, 1],
 *   so |a(i,i)| > dom times the off-diagonal sum: strictly diagonally dominant for
 *   dom >= 1, not dominant (pivoting matters) for dom < 1.
 * type=toeplitz: the constant rows (lower, diag, upper); the defaults (-1, 4, -1)
 *   are matrix #18 of the g-Spike paper's collection (Venetis et al. 2015, Table A.1).
 * id=K (1..21): matrix #K of that collection (Table A.1), from the MATLAB gallery
 *   definitions (lesp, kms, randsvd with kl = ku = 1, dorr; Higham's Test Matrix
 *   Toolbox).  Row-wise ones come through the generator; randsvd (#8-#11) is a
 *   dense construction, built by hpls_tridiag_gallery only.
 * b = A*1 (hpls_tridiag_gallery: b = A x_true, x_true seeded standard normal). */
#include "gen/gen.h"

#include <math.h>
#include <string.h>

enum { TRI_TYPE, TRI_N, TRI_DOM, TRI_LOWER, TRI_DIAG, TRI_UPPER, TRI_SEED, TRI_ID };
enum { TYPE_RANDOM, TYPE_TOEPLITZ }; /* values of type, in the order of its words */
enum { GALLERY_MAX = 21, GALLERY_DENSE_MAX = 2048 /* randsvd is O(n^3) */ };

static const gen_opt tridiag_opts[] = {
    {"type", "random", "random|toeplitz", 0, 0, 0, 0, "random entries or constant diagonals"},
    {"n", "1000", NULL, 1, 1, INT32_MAX, 0, "rows"},
    {"dom", "2", NULL, 0, 0, INFINITY, 0, "random: |diagonal| > dom * off-diagonal sum"},
    {"lower", "-1", NULL, 0, -INFINITY, INFINITY, 0, "toeplitz: sub-diagonal value"},
    {"diag", "4", NULL, 0, -INFINITY, INFINITY, 0, "toeplitz: diagonal value"},
    {"upper", "-1", NULL, 0, -INFINITY, INFINITY, 0, "toeplitz: super-diagonal value"},
    {"seed", "1", NULL, 1, 0, UINT32_MAX, 0, "random and id: random seed"},
    {"id", "0", NULL, 1, 0, GALLERY_MAX, 0,
     "matrix K of the g-Spike paper's Table A.1 (1-7, 12-20; 0: off)"},
    {NULL, NULL, NULL, 0, 0, 0, 0, NULL}};

static int gallery_dense(int id) { return id >= 8 && id <= 11; }

/* Row i (0-based) of gallery matrix id for the row-wise ids: sub-diagonal *l,
 * diagonal *dg, super-diagonal *u (l of row 0 and u of row n-1 are unused).
 * Random entries come from stream (seed, i), Toeplitz constants from the global
 * stream, so any thread may build any row. */
static void gallery_row(int id, hpls_int n, uint64_t seed, hpls_int i, double *l, double *dg,
                        double *u)
{
    gen_rng r, g;
    gen_rng_init(&r, seed, (uint64_t)i);
    gen_rng_init(&g, seed, GEN_STREAM_GLOBAL);
    double ri = (double)(i + 1); /* 1-based row, as in the MATLAB definitions */
    switch (id) {
    case 1:  /* tridiag(L, D, U), all U(-1, 1) */
    case 4:  /* #1 with L(n/2+1, n/2) scaled by 1e-50 */
    case 12: /* #1 with L scaled by 1e-50 */
        *l = gen_rng_uniform(&r, -1, 1);
        *dg = gen_rng_uniform(&r, -1, 1);
        *u = gen_rng_uniform(&r, -1, 1);
        if (id == 12 || (id == 4 && i == n / 2))
            *l *= 1e-50;
        break;
    case 2: /* Toeplitz, diagonal 1e8, L and U one U(-1, 1) sample each */
    case 6: /* Toeplitz, diagonal 64 */
        *l = gen_rng_uniform(&g, -1, 1);
        *u = gen_rng_uniform(&g, -1, 1);
        *dg = id == 2 ? 1e8 : 64.0;
        break;
    case 3: /* lesp: tridiag(2:n, -(5:2:2n+3), 1./(2:n)) */
        *l = ri;
        *dg = -(2.0 * ri + 3.0);
        *u = 1.0 / (ri + 1.0);
        break;
    case 5: /* #1 with each entry of L and U zero with probability 1/2 */
        *l = gen_rng_uniform(&r, -1, 1);
        *dg = gen_rng_uniform(&r, -1, 1);
        *u = gen_rng_uniform(&r, -1, 1);
        *l *= gen_rng_unit(&r) < 0.5 ? 0.0 : 1.0;
        *u *= gen_rng_unit(&r) < 0.5 ? 0.0 : 1.0;
        break;
    case 7: { /* inv(kms(n, 0.5)): tridiagonal, (1, 1+rho^2, ..., 1)/(1-rho^2), -rho/(1-rho^2) */
        const double rho = 0.5, den = 1.0 - rho * rho;
        *l = *u = -rho / den;
        *dg = (i == 0 || i == n - 1 ? 1.0 : 1.0 + rho * rho) / den;
        break;
    }
    case 13: { /* dorr(n, 1e-4): c, d, e of Higham's dorr.m, h = 1/(n+1) */
        const double theta = 1e-4, h = 1.0 / ((double)n + 1.0), term = theta / (h * h);
        const hpls_int m = (n + 1) / 2;
        double c, e;
        if (i + 1 <= m) {
            c = -term;
            e = c - (0.5 - ri * h) / h;
        } else {
            e = -term;
            c = e + (0.5 - ri * h) / h;
        }
        *l = c;
        *u = e;
        *dg = -(c + e);
        break;
    }
    case 14: /* tridiag(L, 1e-8, U) */
    case 15: /* tridiag(L, 0, U) */
        *l = gen_rng_uniform(&r, -1, 1);
        *u = gen_rng_uniform(&r, -1, 1);
        *dg = id == 14 ? 1e-8 : 0.0;
        break;
    case 16: /* tridiag(1, 1e-8, 1) */
    case 17: /* tridiag(1, 1e8, 1) */
        *l = *u = 1.0;
        *dg = id == 16 ? 1e-8 : 1e8;
        break;
    case 18: /* tridiag(-1, 4, -1) */
    case 19: /* tridiag(-1, 4, 1) */
        *l = -1.0;
        *dg = 4.0;
        *u = id == 18 ? -1.0 : 1.0;
        break;
    default: /* 20: tridiag(-1, 4, U) */
        *l = -1.0;
        *dg = 4.0;
        *u = gen_rng_uniform(&r, -1, 1);
        break;
    }
}

static hpls_int tridiag_row_len(const gen_matrix *g, hpls_int i)
{
    return 1 + (i > 0) + (i < g->n - 1);
}

static void tridiag_row(const gen_matrix *g, hpls_int i, hpls_idx *col, hpls_real *val)
{
    double lower = g->opt[TRI_LOWER], diag = g->opt[TRI_DIAG], upper = g->opt[TRI_UPPER];
    if (g->opt[TRI_ID] > 0) {
        gallery_row((int)g->opt[TRI_ID], g->n, (uint64_t)g->opt[TRI_SEED], i, &lower, &diag,
                    &upper);
    } else if (g->opt[TRI_TYPE] == TYPE_RANDOM) {
        gen_rng r;
        gen_rng_init(&r, (uint64_t)g->opt[TRI_SEED], (uint64_t)i);
        lower = i > 0 ? gen_rng_uniform(&r, -1.0, 1.0) : 0.0;
        upper = i < g->n - 1 ? gen_rng_uniform(&r, -1.0, 1.0) : 0.0;
        diag = g->opt[TRI_DOM] * (fabs(lower) + fabs(upper)) + (1.0 - gen_rng_unit(&r));
    }
    hpls_int p = 0;
    if (i > 0) {
        col[p] = (hpls_idx)(i - 1);
        val[p++] = lower;
    }
    col[p] = (hpls_idx)i;
    val[p++] = diag;
    if (i < g->n - 1) {
        col[p] = (hpls_idx)(i + 1);
        val[p] = upper;
    }
}

static hpls_status tridiag_setup(gen_matrix *g)
{
    /* the type each option belongs to (-1: both): the others' keys are refused */
    static const int type_of[] = {
        -1, -1, TYPE_RANDOM, TYPE_TOEPLITZ, TYPE_TOEPLITZ, TYPE_TOEPLITZ, TYPE_RANDOM, -1};
    int type = (int)g->opt[TRI_TYPE], id = (int)g->opt[TRI_ID];
    for (int j = 0; tridiag_opts[j].key; j++) {
        hpls_status st = HPLS_OK;
        if (id > 0 && (j == TRI_TYPE || (type_of[j] >= 0 && j != TRI_SEED)))
            st = gen_reject_given(g, &gen_tridiag, j, "together with id");
        else if (id == 0 && type_of[j] >= 0 && type_of[j] != type)
            st = gen_reject_given(g, &gen_tridiag, j,
                                  type == TYPE_RANDOM ? "to type=random" : "to type=toeplitz");
        if (st != HPLS_OK)
            return st;
    }
    if (gallery_dense(id))
        return hpls_fail(HPLS_ERR_OPTION,
                         "gen tridiag: id=%d (randsvd) is a dense construction, not available "
                         "row by row: use hpls_tridiag_gallery",
                         id);
    if (id == 21)
        return hpls_fail(HPLS_ERR_OPTION, "gen tridiag: id=21 (Fourier coefficients of Legendre "
                                          "polynomials, the paper's ref. [59]) is not implemented");
    g->n = (hpls_int)g->opt[TRI_N];
    g->row_len = tridiag_row_len;
    g->row = tridiag_row;
    return HPLS_OK;
}

const gen_def gen_tridiag = {"tridiag", "tridiagonal: random (dominance dom), Toeplitz, or "
                                        "the g-Spike paper's matrix id",
                             tridiag_opts, tridiag_setup};

/* ---- the dense randsvd construction (ids 8-11) -------------------------- */

static double normal(gen_rng *r)
{
    double u1 = 1.0 - gen_rng_unit(r), u2 = gen_rng_unit(r); /* u1 in (0, 1] */
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2); /* Box-Muller */
}

/* Householder vector of x[0..len) (x[0] becomes -sign(x0) ||x||, v[0] = 1 implied):
 * returns tau with H = I - tau v v^T, v stored over x[1..len). */
static double householder(double *x, hpls_int stride, hpls_int len)
{
    double nrm = 0.0;
    for (hpls_int k = 0; k < len; k++)
        nrm = hypot(nrm, x[k * stride]);
    if (nrm == 0.0 || len < 2)
        return 0.0;
    double alpha = x[0] > 0 ? -nrm : nrm, v0 = x[0] - alpha;
    for (hpls_int k = 1; k < len; k++)
        x[k * stride] /= v0;
    x[0] = alpha;
    return -v0 / alpha;
}

/* A (row-major n x n) = H A on rows [r0, n) (left) or A H on columns [r0, n) (right),
 * H = I - tau v v^T with v[0] = 1, v[1..] = vv[k*vs]. */
static void reflect(double *A, hpls_int n, hpls_int r0, const double *vv, hpls_int vs, double tau,
                    int right, hpls_int from)
{
    hpls_int len = n - r0;
    for (hpls_int t = from; t < n; t++) { /* t: a column (left) or a row (right) */
        double dot = 0.0;
        for (hpls_int k = 0; k < len; k++) {
            double vk = k == 0 ? 1.0 : vv[k * vs];
            dot += vk * (right ? A[t * n + r0 + k] : A[(r0 + k) * n + t]);
        }
        dot *= tau;
        for (hpls_int k = 0; k < len; k++) {
            double vk = k == 0 ? 1.0 : vv[k * vs];
            if (right)
                A[t * n + r0 + k] -= dot * vk;
            else
                A[(r0 + k) * n + t] -= dot * vk;
        }
    }
}

/* gallery('randsvd', n, kappa, mode, 1, 1): A = U diag(sigma) V^T with random
 * orthogonal U, V (products of Householder reflections of normal vectors, as
 * qmult), then reduced to tridiagonal form by two-sided Householder reflections
 * (bandred), which keeps the singular values. */
static hpls_status randsvd(hpls_int n, double kappa, int mode, uint64_t seed, hpls_tridiag *T)
{
    double *A = hpls_calloc(n * n, sizeof *A), *x = hpls_malloc(n, sizeof *x);
    if (!A || !x) {
        hpls_free(A);
        hpls_free(x);
        return HPLS_ERR_NOMEM;
    }
    for (hpls_int i = 0; i < n; i++) {
        double t = n > 1 ? (double)i / (double)(n - 1) : 0.0, s;
        if (mode == 1)
            s = i == 0 ? 1.0 : 1.0 / kappa; /* one large singular value */
        else if (mode == 2)
            s = i == n - 1 ? 1.0 / kappa : 1.0; /* one small singular value */
        else if (mode == 3)
            s = pow(kappa, -t); /* geometrically distributed */
        else
            s = 1.0 - (1.0 - 1.0 / kappa) * t; /* arithmetically distributed */
        A[i * n + i] = s;
    }
    gen_rng r;
    gen_rng_init(&r, seed, GEN_STREAM_GLOBAL);
    for (int side = 0; side < 2; side++) /* U from the left, V^T from the right */
        for (hpls_int k = n - 2; k >= 0; k--) {
            hpls_int len = n - k;
            for (hpls_int q = 0; q < len; q++)
                x[q] = normal(&r);
            double tau = householder(x, 1, len);
            reflect(A, n, k, x, 1, tau, side, 0);
        }
    for (hpls_int j = 0; j + 1 < n; j++) { /* bandred(A, 1, 1) */
        double tau = householder(&A[(j + 1) * n + j], n, n - j - 1);
        for (hpls_int q = 1; q < n - j - 1; q++)
            x[q] = A[(j + 1 + q) * n + j];
        reflect(A, n, j + 1, x, 1, tau, 0, j + 1);
        for (hpls_int q = 1; q < n - j - 1; q++)
            A[(j + 1 + q) * n + j] = 0.0;
        if (j + 2 < n) {
            tau = householder(&A[j * n + j + 1], 1, n - j - 1);
            for (hpls_int q = 1; q < n - j - 1; q++)
                x[q] = A[j * n + j + 1 + q];
            reflect(A, n, j + 1, x, 1, tau, 1, j + 1);
            for (hpls_int q = 1; q < n - j - 1; q++)
                A[j * n + j + 1 + q] = 0.0;
        }
    }
    for (hpls_int i = 0; i < n; i++) {
        T->dl[i] = i > 0 ? A[i * n + i - 1] : 0.0;
        T->d[i] = A[i * n + i];
        T->du[i] = i < n - 1 ? A[i * n + i + 1] : 0.0;
    }
    hpls_free(A);
    hpls_free(x);
    return HPLS_OK;
}

hpls_status hpls_tridiag_gallery(int id, hpls_int n, uint64_t seed, hpls_tridiag **T,
                                 hpls_vec **xtrue, hpls_vec **b)
{
    if (!T || id < 1 || id > GALLERY_MAX || n < 1)
        return hpls_fail(HPLS_ERR_ARG, "hpls_tridiag_gallery: id %d (1..%d) or n %lld invalid",
                         id, GALLERY_MAX, (long long)n);
    *T = NULL;
    if (id == 21)
        return hpls_fail(HPLS_ERR_UNSUPPORTED, "hpls_tridiag_gallery: id 21 (Legendre Fourier "
                                               "coefficients, ref. [59]) is not implemented");
    if (gallery_dense(id) && n > GALLERY_DENSE_MAX)
        return hpls_fail(HPLS_ERR_UNSUPPORTED,
                         "hpls_tridiag_gallery: id %d (randsvd) is a dense construction, "
                         "n <= %d",
                         id, GALLERY_DENSE_MAX);
    hpls_tridiag *M = NULL;
    hpls_vec *x = NULL, *y = NULL;
    hpls_status st = hpls_tridiag_create(n, &M);
    if (st == HPLS_OK && (xtrue || b))
        st = hpls_vec_create(n, &x);
    if (st == HPLS_OK && b)
        st = hpls_vec_create(n, &y);
    if (st != HPLS_OK)
        goto fail;
    if (gallery_dense(id)) {
        static const int mode[] = {2, 3, 1, 4}; /* ids 8, 9, 10, 11 */
        if ((st = randsvd(n, 1e15, mode[id - 8], seed, M)) != HPLS_OK)
            goto fail;
    } else {
#pragma omp parallel for schedule(static)
        for (hpls_int i = 0; i < n; i++) {
            double l, dg, u;
            gallery_row(id, n, seed, i, &l, &dg, &u);
            M->dl[i] = i > 0 ? l : 0.0;
            M->d[i] = dg;
            M->du[i] = i < n - 1 ? u : 0.0;
        }
    }
    if (x) {
        const uint64_t xseed = seed ^ 0x5851f42d4c957f2dull; /* a stream apart from A's */
#pragma omp parallel for schedule(static)
        for (hpls_int i = 0; i < n; i++) {
            gen_rng r;
            gen_rng_init(&r, xseed, (uint64_t)i);
            x->data[i] = normal(&r);
        }
    }
    if (y && (st = hpls_tridiag_mv(M, x->data, y->data)) != HPLS_OK)
        goto fail;
    *T = M;
    if (xtrue)
        *xtrue = x;
    else
        hpls_vec_destroy(x);
    if (b)
        *b = y;
    return HPLS_OK;
fail:
    hpls_tridiag_destroy(M);
    hpls_vec_destroy(x);
    hpls_vec_destroy(y);
    return st;
}
