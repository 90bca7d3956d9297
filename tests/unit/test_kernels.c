/* SPDX-License-Identifier: BSD-3-Clause */
/* test_kernels.c: every backend operation and host kernel agrees with the ref
 * backend (the sequential oracle): cpu at 1, 2 and 3 threads, bit for bit where
 * the operation is entrywise, to rounding where it sums; repeatably; and the ref
 * backend refuses what it did not allocate. */
#include "iter/bicgstab_kernels.h"
#include "iter/hisa_kernels.h"
#include "kernels/cpu/prefetch.h"
#include "kernels/cpu/sptrsv.h"
#include "precond/pjg_kernels.h"
#include "precond/relax_kernels.h"
#include "solver.h"
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { CPU = 0, REF = 1 };

static hpls_backend *backend(int which, int nt)
{
    hpls_backend *be;
    assert_int_equal(hpls_backend_create(which, nt, &be), HPLS_OK);
    return be;
}

/* A backend vector holding v's values. */
static hpls_dvec *up(hpls_backend *be, const hpls_vec *v)
{
    hpls_dvec *d;
    assert_int_equal(hpls_be_vector(be, v->n, v->data, &d), HPLS_OK);
    return d;
}

/* The n values of d, in a new host vector. */
static hpls_vec *down(hpls_backend *be, hpls_int n, const hpls_dvec *d)
{
    hpls_vec *v;
    assert_int_equal(hpls_vec_create(n, &v), HPLS_OK);
    be->v->download(be, n, d, v->data);
    return v;
}

static void assert_same(const hpls_vec *a, const hpls_vec *b)
{
    assert_int_equal(a->n, b->n);
    for (hpls_int i = 0; i < a->n; i++)
        if (!(a->data[i] == b->data[i] || (isnan(a->data[i]) && isnan(b->data[i]))))
            fail_msg("entry %lld: %.17g vs %.17g", (long long)i, a->data[i], b->data[i]);
}

static void assert_close(double got, double want, double scale)
{
    if (!(fabs(got - want) <= 1e-13 * (scale > 0 ? scale : 1.0)))
        fail_msg("%.17g vs %.17g (scale %g)", got, want, scale);
}

/* sum |x_i y_i|: the scale of a dot product's rounding */
static double abs_dot(const hpls_vec *x, const hpls_vec *y)
{
    double s = 0;
    for (hpls_int i = 0; i < x->n; i++)
        s += fabs(x->data[i] * y->data[i]);
    return s;
}

/* A random sparse matrix with empty rows, a dense row and odd sizes. */
static hpls_csr *random_csr(hpls_int n, hpls_int m, unsigned seed)
{
    hpls_int cap = n * 8 + m;
    hpls_int *ri = malloc((size_t)cap * sizeof *ri), *cj = malloc((size_t)cap * sizeof *cj);
    double *v = malloc((size_t)cap * sizeof *v);
    hpls_vec *rnd = tu_vec_random(cap, seed);
    hpls_int nz = 0;
    for (hpls_int i = 0; i < n; i++) {
        if (i % 7 == 3)
            continue; /* empty row */
        int k = (int)(fabs(rnd->data[i]) * 8);
        for (int j = 0; j < k; j++) {
            ri[nz] = i;
            cj[nz] = (hpls_int)(fabs(rnd->data[(i * 8 + j) % cap]) * (double)(m - 1));
            v[nz] = rnd->data[(i * 5 + j) % cap];
            nz++;
        }
    }
    for (hpls_int j = 0; j < m && nz < cap; j++) { /* one dense row */
        ri[nz] = n / 2;
        cj[nz] = j;
        v[nz] = 1.0 / (1.0 + (double)j);
        nz++;
    }
    hpls_csr *A;
    assert_int_equal(hpls_csr_from_coo(n, m, nz, ri, cj, v, &A), HPLS_OK);
    assert_int_equal(hpls_csr_check(A), HPLS_OK);
    free(ri);
    free(cj);
    free(v);
    hpls_vec_destroy(rnd);
    return A;
}

/* y = A x and r = b - A x of the cpu kernels at 1-3 threads, with every
 * prefetch variant, equal the reference's entry by entry (each row summed in
 * column order), and their sums of squares are the same bits for every
 * variant at a thread count. */
static void check_spmv(const hpls_csr *A)
{
    hpls_vec *x = tu_vec_random(A->ncols, 11), *b = tu_vec_random(A->nrows, 12);
    size_t bytes = (size_t)(A->nrows + 1) * sizeof(hpls_real);
    hpls_real *y = malloc(bytes), *yr = malloc(bytes), *r = malloc(bytes), *rr = malloc(bytes);
    hpls_ref_kernels.spmv(1, HPLS_PF_NONE, A, x->data, yr); /* the tables are what backends run */
    double ssr = hpls_ref_kernels.residual(1, HPLS_PF_NONE, A, b->data, x->data, rr);
    for (int p = 1; p <= 3; p++) {
        double ss0 = hpls_k_residual(p, A, b->data, x->data, r);
        for (int pf = 0; pf < HPLS_PF_COUNT; pf++) {
            memset(y, 0, bytes);
            memset(r, 0, bytes);
            hpls_cpu_kernels.spmv(p, pf, A, x->data, y);
            double ss = hpls_cpu_kernels.residual(p, pf, A, b->data, x->data, r);
            for (hpls_int i = 0; i < A->nrows; i++)
                assert_true(y[i] == yr[i] && r[i] == rr[i]);
            assert_true(ss == ss0);
            assert_close(ss, ssr, ssr);
        }
    }
    /* many right-hand sides (square A): column j of the block product equals
     * the reference's residual of column j; k across the 8 columns read together */
    hpls_int n = A->nrows, ks[] = {1, 5, 8, 11};
    for (size_t q = 0; A->nrows == A->ncols && q < sizeof ks / sizeof *ks; q++) {
        hpls_int k = ks[q];
        hpls_real *X = malloc((size_t)(n * k + 1) * sizeof *X), *B = malloc((size_t)(n * k + 1) * sizeof *B);
        hpls_real *R = malloc((size_t)(n * k + 1) * sizeof *R), *Rr = malloc((size_t)(n * k + 1) * sizeof *Rr);
        double ss[11], ssr[11];
        for (hpls_int j = 0; j < n * k; j++) {
            X[j] = x->data[j % n] * (1.0 + (double)(j / n));
            B[j] = b->data[j % n] - (double)(j / n);
        }
        for (int with_b = 0; with_b < 2; with_b++) {
            hpls_ref_kernels.residual_block(1, A, k, with_b ? B : NULL, X, Rr, n, ssr);
            for (hpls_int j = 0; j < k; j++) { /* the single-vector reference, column j */
                if (with_b)
                    hpls_ref_residual(1, A, B + j * n, X + j * n, rr);
                else
                    hpls_ref_spmv(1, A, X + j * n, rr);
                for (hpls_int i = 0; i < n; i++)
                    assert_true(Rr[j * n + i] == rr[i]);
            }
            for (int p = 1; p <= 3; p++) {
                hpls_cpu_kernels.residual_block(p, A, k, with_b ? B : NULL, X, R, n, ss);
                for (hpls_int i = 0; i < n * k; i++)
                    assert_true(R[i] == Rr[i]);
                for (hpls_int j = 0; j < k; j++)
                    assert_close(ss[j], ssr[j], ssr[j]);
            }
        }
        free(X);
        free(B);
        free(R);
        free(Rr);
    }
    free(y);
    free(yr);
    free(r);
    free(rr);
    hpls_vec_destroy(x);
    hpls_vec_destroy(b);
}

static void spmv_matches_reference_for_every_thread_count(void **state)
{
    (void)state;
    const hpls_int sizes[][2] = {{1, 1}, {13, 7}, {1000, 1000}, {30011, 29989}};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        hpls_csr *A = random_csr(sizes[s][0], sizes[s][1], (unsigned)s);
        check_spmv(A);
        hpls_csr_destroy(A);
    }
}

/* HPLS_PF_DEFAULT is no prefetch where a kernel's data fit in half the
 * last-level cache, for the products and the triangular sweeps alike (the
 * sweeps used to prefetch every row whatever their size); a variant the user
 * or prefetch=auto chose is kept whatever the size. */
static void default_prefetch_is_none_in_cache(void **state)
{
    (void)state;
    double half = 0.5 * (double)hpls_k_llc_bytes();
    assert_int_equal(hpls_pf_sized(HPLS_PF_DEFAULT, half), HPLS_PF_NONE);
    assert_int_equal(hpls_pf_sized(HPLS_PF_DEFAULT, 2.0 * half + 1.0), HPLS_PF_DEFAULT);
    assert_int_equal(hpls_pf_sized(HPLS_PF_ROWS_L3, 1.0), HPLS_PF_ROWS_L3);
    /* a sweep's size is its copy's span (only T's offsets are read) */
    hpls_int lo = 0, small = 100, big = (hpls_int)(2.0 * half) + 1;
    hpls_sweep w = {.T = {.n = 1, .lo = &lo, .hi = &small}};
    assert_int_equal(hpls_k_sweep_pf(&w, HPLS_PF_DEFAULT), HPLS_PF_NONE);
    assert_int_equal(hpls_k_sweep_pf(&w, HPLS_PF_ROWSX_NTA), HPLS_PF_ROWSX_NTA);
    w.T.hi = &big;
    assert_int_equal(hpls_k_sweep_pf(&w, HPLS_PF_DEFAULT), HPLS_PF_DEFAULT);
}

/* Both prefetching paths of the SpMV (stencil rows, scattered rows) and the
 * rows near the end that run without prefetch give the reference's sums. */
static void spmv_matches_reference_on_stencil_and_scattered_matrices(void **state)
{
    (void)state;
    const char *specs[] = {"poisson3d:nx=23", "gas:n=20011,k=3", "tridiag:n=5000"};
    for (size_t c = 0; c < sizeof specs / sizeof specs[0]; c++) {
        hpls_csr *A = tu_gen(specs[c]);
        check_spmv(A);
        hpls_csr_destroy(A);
    }
}

/* An n x m matrix whose rows hold 3 entries at random columns (duplicates
 * summed: a few hold 2) and every 5th row none: rows of about one length, so
 * its columns (At's rows) vary far more, with empty ones. */
static hpls_csr *steady_csr(hpls_int n, hpls_int m, unsigned seed)
{
    hpls_int *ri = malloc((size_t)(3 * n) * sizeof *ri), *cj = malloc((size_t)(3 * n) * sizeof *cj);
    hpls_vec *rnd = tu_vec_random(6 * n, seed);
    double *v = rnd->data + 3 * n;
    hpls_int nz = 0;
    for (hpls_int i = 0; i < n; i++)
        for (int j = 0; j < 3 && i % 5 != 4; j++, nz++) {
            ri[nz] = i;
            cj[nz] = (hpls_int)(fabs(rnd->data[3 * i + j]) * (double)(m - 1));
            v[nz] = rnd->data[3 * n + 3 * i + j];
        }
    hpls_csr *A;
    assert_int_equal(hpls_csr_from_coo(n, m, nz, ri, cj, v, &A), HPLS_OK);
    free(ri);
    free(cj);
    hpls_vec_destroy(rnd);
    return A;
}

/* y = A^T x of the cpu kernels at 1-3 threads, with every prefetch variant,
 * equals the reference's product with At entry by entry, whether they gather
 * At's rows or, on one thread, scatter A's (rows of steadier length than At's:
 * gas, steady_csr; the rows near the end run without prefetch). */
static void spmv_t_matches_the_product_with_the_transpose(void **state)
{
    (void)state;
    struct {
        hpls_csr *A;
        int scatter; /* whether the scatter pays */
    } cases[] = {{tu_gen("gas:n=20011,k=3"), 1},   {tu_gen("gas:n=3001,k=1"), 1},
                 {steady_csr(30011, 29989, 3), 1}, {steady_csr(13, 7, 4), 1},
                 {tu_gen("poisson3d:nx=23"), 0},   {tu_gen("tridiag:n=5000"), 0},
                 {random_csr(1000, 1000, 5), 0}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        hpls_csr *A = cases[c].A, *At;
        assert_int_equal(hpls_csr_transpose(A, &At), HPLS_OK);
        assert_int_equal(hpls_k_scatter_pays(A, At), cases[c].scatter);
        hpls_vec *x = tu_vec_random(A->nrows, 13);
        size_t bytes = (size_t)(A->ncols + 1) * sizeof(hpls_real);
        hpls_real *y = malloc(bytes), *yr = malloc(bytes);
        hpls_ref_kernels.spmv(1, HPLS_PF_NONE, At, x->data, yr);
        for (int p = 1; p <= 3; p++)
            for (int pf = 0; pf < HPLS_PF_COUNT; pf++) {
                memset(y, 0xff, bytes); /* NaN: every entry must be written */
                hpls_cpu_kernels.spmv_t(p, pf, A, At, x->data, y);
                for (hpls_int j = 0; j < A->ncols; j++)
                    if (!(y[j] == yr[j]))
                        fail_msg("case %zu, %d threads, prefetch %d: y[%lld] = %.17g, At's %.17g",
                                 c, p, pf, (long long)j, y[j], yr[j]);
            }
        free(y);
        free(yr);
        hpls_vec_destroy(x);
        hpls_csr_destroy(At);
        hpls_csr_destroy(A);
    }
}

/* Every entrywise operation of cpu (1-3 threads) gives ref's vector bit for
 * bit, every reduction ref's value to rounding, and twice the same value. */
static void vector_operations_match_ref(void **state)
{
    (void)state;
    const hpls_int sizes[] = {0, 1, 17, 8191, 8192, 100003};
    hpls_backend *ref = backend(REF, 1);
    for (size_t c = 0; c < sizeof sizes / sizeof sizes[0]; c++) {
        hpls_int n = sizes[c];
        hpls_vec *hx = tu_vec_random(n, 1), *hy = tu_vec_random(n, 2), *hz = tu_vec_random(n, 3);
        if (n > 10)
            hx->data[n / 3] = hy->data[n / 2] = 0.0; /* zeros among the entries */
        for (int nt = 1; nt <= 3; nt++) {
            hpls_backend *cpu = backend(CPU, nt);
            hpls_backend *bes[2] = {cpu, ref};
            hpls_vec *out[2][10];
            double red[2][6];
            for (int k = 0; k < 2; k++) {
                hpls_backend *be = bes[k];
                hpls_dvec *x = up(be, hx), *y = up(be, hy), *z = up(be, hz), *w;
                assert_int_equal(be->v->alloc(be, n, &w), HPLS_OK);
                hpls_v_copy(be, n, x, w);
                out[k][0] = down(be, n, w);
                hpls_v_scale(be, n, -0.75, w);
                hpls_v_axpy(be, n, 1.25, y, w);
                out[k][1] = down(be, n, w);
                hpls_v_axpby(be, n, 0.5, x, -2.0, w);
                hpls_v_xpay(be, n, y, 0.3, w);
                out[k][2] = down(be, n, w);
                hpls_v_waxpy(be, n, -0.4, x, y, w);
                out[k][3] = down(be, n, w);
                hpls_v_axpbypcz(be, n, 2.0, x, -3.0, y, 0.5, z);
                out[k][4] = down(be, n, z);
                hpls_v_pmult(be, n, x, y, w);
                out[k][5] = down(be, n, w);
                hpls_v_diag_axpy(be, n, 0.7, x, y, z);
                out[k][6] = down(be, n, z);
                hpls_dvec *bp;
                assert_int_equal(be->v->alloc(be, n, &bp), HPLS_OK);
                red[k][0] = hpls_hisa_kernels_of(be)->update(be, n, x, y, z, bp);
                out[k][7] = down(be, n, bp);
                hpls_bicgstab_kernels_of(be)->p(be, n, x, 0.7, -1.3, y, z);
                out[k][8] = down(be, n, z);
                double tt, ts, ss, rn, rr;
                hpls_bicgstab_kernels_of(be)->dot3(be, n, x, y, &tt, &ts, &ss);
                double tt2, ts2, ss2;
                hpls_bicgstab_kernels_of(be)->dot3(be, n, x, y, &tt2, &ts2, &ss2);
                assert_true(tt == tt2 && ts == ts2 && ss == ss2); /* repeatable */
                hpls_bicgstab_kernels_of(be)->xr(be, n, 0.3, x, -2.5, y, z, x, y, w, bp, &rn, &rr);
                out[k][9] = down(be, n, w);
                red[k][1] = hpls_v_dot(be, n, x, y);
                assert_true(hpls_v_dot(be, n, x, y) == red[k][1]);
                red[k][2] = hpls_v_nrm2(be, n, x);
                red[k][3] = tt;
                red[k][4] = ts;
                red[k][5] = rn + rr;
                hpls_v_set(be, n, 4.0, z);
                double bad = 0;
                assert_int_equal(hpls_v_finite(be, n, z, &bad), -1);
                if (n > 5) { /* a NaN and an Inf: the first is reported (made by the
                              * macros, which raise no floating-point exception) */
                    hpls_real *h = malloc((size_t)n * sizeof *h);
                    for (hpls_int i = 0; i < n; i++)
                        h[i] = i == n / 2 ? NAN : i > n / 2 ? INFINITY : 1.0;
                    hpls_dvec *nf;
                    assert_int_equal(hpls_be_vector(be, n, h, &nf), HPLS_OK);
                    free(h);
                    hpls_int i = hpls_v_finite(be, n, nf, &bad);
                    assert_true(i == n / 2 && isnan(bad));
                    be->v->release(be, nf);
                }
                hpls_dvec *all[] = {x, y, z, w, bp};
                for (size_t j = 0; j < sizeof all / sizeof all[0]; j++)
                    be->v->release(be, all[j]);
                assert_int_equal(be->err, HPLS_OK);
            }
            for (int j = 0; j < 10; j++) {
                assert_same(out[0][j], out[1][j]);
                hpls_vec_destroy(out[0][j]);
                hpls_vec_destroy(out[1][j]);
            }
            double scale = abs_dot(hx, hx) + abs_dot(hy, hy) + abs_dot(hz, hz) + 1.0;
            for (int j = 0; j < 6; j++)
                assert_close(red[0][j], red[1][j], scale);
            hpls_backend_destroy(cpu);
        }
        hpls_vec_destroy(hx);
        hpls_vec_destroy(hy);
        hpls_vec_destroy(hz);
    }
    hpls_backend_destroy(ref);
}

/* Multi-dots and multi-axpys (GMRES's sweeps) against ref, for k below, at and
 * above the vectors one pass takes (64). */
static void multi_vector_operations_match_ref(void **state)
{
    (void)state;
    const int ks[] = {1, 4, 7, 31, 64, 70};
    const hpls_int n = 20011;
    hpls_backend *ref = backend(REF, 1);
    double a[80], bb[80], h[2][81], g[2][163];
    for (int i = 0; i < 80; i++)
        a[i] = sin(1.0 + i) / (1.0 + i), bb[i] = cos(2.0 + i) / (3.0 + i);
    hpls_vec *hw = tu_vec_random(n, 99), *hv[80];
    for (int i = 0; i < 80; i++)
        hv[i] = tu_vec_random(n, 100u + (unsigned)i);
    for (size_t c = 0; c < sizeof ks / sizeof ks[0]; c++) {
        int k = ks[c];
        for (int nt = 1; nt <= 3; nt++) {
            hpls_backend *bes[2] = {backend(CPU, nt), ref};
            hpls_vec *out[2][4];
            for (int b = 0; b < 2; b++) {
                hpls_backend *be = bes[b];
                hpls_dvec *V[80], *w = up(be, hw), *y = up(be, hv[79]);
                for (int i = 0; i < k; i++)
                    V[i] = up(be, hv[i]);
                const hpls_dvec *const *Vc = (const hpls_dvec *const *)V;
                hpls_v_mdot(be, n, k, Vc, w, h[b]);
                hpls_v_maxpy(be, n, k, a, Vc, 0.5, w); /* w = 0.5 w + V a */
                out[b][0] = down(be, n, w);
                hpls_v_mdot2(be, n, k, Vc, w, y, g[b]); /* V^T w, V^T y and their 3 dots */
                hpls_v_maxpy2(be, n, k, Vc, a, 0.25, w, bb, -1.5, 3.0, y);
                out[b][1] = down(be, n, w);
                out[b][2] = down(be, n, y);
                hpls_v_maxpy(be, n, k, a, Vc, 0.0, w); /* w = V a, w not read */
                out[b][3] = down(be, n, w);
                for (int i = 0; i < k; i++)
                    be->v->release(be, V[i]);
                be->v->release(be, w);
                be->v->release(be, y);
                assert_int_equal(be->err, HPLS_OK);
            }
            for (int j = 0; j < 4; j++) {
                assert_same(out[0][j], out[1][j]);
                hpls_vec_destroy(out[0][j]);
                hpls_vec_destroy(out[1][j]);
            }
            for (int i = 0; i < k; i++)
                assert_close(h[0][i], h[1][i], abs_dot(hv[i], hw));
            for (int i = 0; i < 2 * k + 3; i++)
                assert_close(g[0][i], g[1][i], (double)n * 100.0);
            hpls_backend_destroy(bes[0]);
        }
    }
    for (int i = 0; i < 80; i++)
        hpls_vec_destroy(hv[i]);
    hpls_vec_destroy(hw);
    hpls_backend_destroy(ref);
}

/* mdot with k = 1 sums as the dot does, bit for bit; mdot2 (two rows at a time)
 * repeats its sums exactly, and the fused maxpy2 gives the separate updates'
 * x bit for bit. */
static void multi_operations_are_repeatable_and_consistent(void **state)
{
    (void)state;
    const hpls_int n = 30011;
    hpls_backend *be = backend(CPU, 2);
    hpls_vec *hv[5], *hw = tu_vec_random(n, 7);
    hpls_dvec *V[5], *w1 = up(be, hw), *w2 = up(be, hw);
    for (int i = 0; i < 5; i++) {
        hv[i] = tu_vec_random(n, 20u + (unsigned)i);
        V[i] = up(be, hv[i]);
    }
    const hpls_dvec *const *Vc = (const hpls_dvec *const *)V;
    double h[13], g[13], a[5] = {0.1, -0.2, 0.3, -0.4, 0.5};
    hpls_v_mdot(be, n, 1, Vc, w1, h);
    assert_true(h[0] == hpls_v_dot(be, n, V[0], w1));
    hpls_v_mdot2(be, n, 5, Vc, w1, w2, h);
    hpls_v_mdot2(be, n, 5, Vc, w1, w2, g);
    assert_memory_equal(h, g, sizeof h);
    hpls_v_maxpy2(be, n, 5, Vc, a, 0.5, w1, a, 0.0, 1.0, w2); /* w2 as w1 before the scaling */
    hpls_vec *x1 = down(be, n, w1), *x2 = down(be, n, w2);
    for (hpls_int i = 0; i < n; i++)
        assert_true(x1->data[i] == 0.5 * x2->data[i]);
    hpls_vec_destroy(x1);
    hpls_vec_destroy(x2);
    for (int i = 0; i < 5; i++) {
        be->v->release(be, V[i]);
        hpls_vec_destroy(hv[i]);
    }
    be->v->release(be, w1);
    be->v->release(be, w2);
    hpls_vec_destroy(hw);
    hpls_backend_destroy(be);
}

static void nrm2_survives_huge_and_tiny_entries(void **state)
{
    (void)state;
    for (int which = CPU; which <= REF; which++) {
        hpls_backend *be = backend(which, 2);
        double big[3] = {3e200, 4e200, 0}, tiny[2] = {3e-200, 4e-200};
        double nan3[3] = {NAN, NAN, NAN}, mixed[3] = {1e300, NAN, 1.0};
        hpls_vec vb = {3, big}, vt = {2, tiny}, vn = {3, nan3}, vm = {3, mixed};
        hpls_dvec *b = up(be, &vb), *t = up(be, &vt), *na = up(be, &vn), *m = up(be, &vm);
        /* the cpu backend's first pass, the plain sum of squares, overflows on
         * purpose here (then rescales): an overflow make check-fpe would trap,
         * held for the huge vectors only (docs/testing.md) */
        int held = tu_fpe_hold();
        assert_true(fabs(hpls_v_nrm2(be, 3, b) - 5e200) <= 1e-14 * 5e200);
        assert_true(isnan(hpls_v_nrm2(be, 3, m)));
        tu_fpe_release(held);
        assert_true(fabs(hpls_v_nrm2(be, 2, t) - 5e-200) <= 1e-14 * 5e-200);
        /* a NaN entry makes the norm NaN, never 0 (a solve would stop "converged") */
        assert_true(isnan(hpls_v_nrm2(be, 3, na)));
        be->v->release(be, b);
        be->v->release(be, t);
        be->v->release(be, na);
        be->v->release(be, m);
        hpls_backend_destroy(be);
    }
}

/* The checking backend: a raw array, a released vector or a too-short one is
 * refused with HPLS_ERR_INTERNAL naming the operation; the operation does
 * nothing; the error is sticky until cleared. */
static void ref_backend_refuses_vectors_it_did_not_allocate(void **state)
{
    (void)state;
    hpls_backend *be = backend(REF, 1);
    hpls_real raw[4] = {1, 2, 3, 4};
    hpls_dvec *v, *u;
    assert_int_equal(be->v->alloc(be, 4, &v), HPLS_OK);
    assert_int_equal(be->v->alloc(be, 2, &u), HPLS_OK);
    hpls_v_copy(be, 4, (const hpls_dvec *)raw, v); /* a method handing over its own array */
    assert_int_equal(be->err, HPLS_ERR_INTERNAL);
    assert_non_null(strstr(be->msg, "copy"));
    assert_non_null(strstr(be->msg, "not one of its vectors"));
    assert_true(raw[0] == 1 && hpls_v_nrm2(be, 4, v) == 0.0); /* nothing was copied */
    hpls_be_clear(be);
    assert_true(isnan(hpls_v_dot(be, 4, v, u))); /* u has 2 values */
    assert_int_equal(be->err, HPLS_ERR_INTERNAL);
    assert_non_null(strstr(be->msg, "4 values of a vector of 2"));
    hpls_be_clear(be);
    be->v->release(be, u);
    hpls_v_set(be, 2, 1.0, u); /* used after release */
    assert_int_equal(be->err, HPLS_ERR_INTERNAL);
    assert_null(hpls_v_host(be, (const hpls_dvec *)raw));
    be->v->release(be, v);
    hpls_backend_destroy(be);
}

static hpls_status count_reductions(hpls_backend *be, double *vals, int k, hpls_red_op op)
{
    (void)vals;
    (void)op;
    (*(int *)be->reduce_ctx) += k > 0;
    return HPLS_OK;
}

/* Every reduction of every backend goes through the hook, once (an MPI backend
 * is the cpu backend with an allreduce there); a failing hook is recorded. */
static void every_reduction_goes_through_the_hook_once(void **state)
{
    (void)state;
    const hpls_int n = 10007;
    hpls_vec *hx = tu_vec_random(n, 1);
    for (int which = CPU; which <= REF; which++) {
        hpls_backend *be = backend(which, 2);
        int calls = 0;
        be->reduce = count_reductions;
        be->reduce_ctx = &calls;
        hpls_dvec *x = up(be, hx), *y = up(be, hx), *V[3] = {x, y, x};
        const hpls_dvec *const *Vc = (const hpls_dvec *const *)V;
        double h[4], t1, t2, t3;
        hpls_v_dot(be, n, x, y);
        hpls_v_mdot(be, n, 3, Vc, y, h);
        hpls_bicgstab_kernels_of(be)->dot3(be, n, x, y, &t1, &t2, &t3);
        hpls_hisa_kernels_of(be)->update(be, n, x, y, y, y);
        assert_int_equal(calls, 4);
        double h2[9];
        hpls_v_mdot2(be, n, 3, Vc, x, y, h2);
        assert_int_equal(calls, 5);
        calls = 0;
        hpls_v_nrm2(be, n, x); /* cpu: the sum of squares; ref: max, then the scaled sum */
        assert_int_equal(calls, which == CPU ? 1 : 2);
        be->v->release(be, x);
        be->v->release(be, y);
        hpls_backend_destroy(be);
    }
    hpls_vec_destroy(hx);
}

/* PJG sweeps of the cpu family (1-3 threads) against ref's (psize 1 is
 * Gauss-Seidel, n is Jacobi): the same new x and old x, the residual of the
 * old x to rounding (summed in another order). */
/* The relaxation residual (T + dscale D) dx of the family of backend which on
 * nt threads into r; returns its sum of squares. */
static double relax_residual(int which, int nt, const hpls_relax_matrix *M, int upper,
                             double dscale, const hpls_vec *dx, hpls_real *r)
{
    hpls_backend *be = backend(which, nt);
    hpls_dvec *d = up(be, dx), *rv;
    assert_int_equal(be->v->alloc(be, dx->n, &rv), HPLS_OK);
    double ss = hpls_relax_kernels_of(be)->residual(be, M, NULL, upper, dscale, d, d, rv);
    assert_int_equal(be->err, HPLS_OK);
    be->v->download(be, dx->n, rv, r);
    be->v->release(be, d);
    be->v->release(be, rv);
    hpls_backend_destroy(be);
    return ss;
}

static void pjg_sweeps_match_ref(const hpls_csr *A, const hpls_int *diag, const hpls_vec *x,
                                 const hpls_vec *b)
{
    hpls_int n = A->nrows;
    hpls_vec *dinv;
    assert_int_equal(hpls_vec_create(n, &dinv), HPLS_OK);
    for (hpls_int i = 0; i < n; i++)
        dinv->data[i] = 1.0 / A->val[diag[i]];
    const hpls_pjg_matrix M = {.A = A};
    const hpls_int psizes[] = {1, 7, 1000, n};
    for (size_t c = 0; c < sizeof psizes / sizeof psizes[0]; c++) {
        hpls_pjg_partition *P;
        assert_int_equal(hpls_pjg_blocks(n, A->nnz, psizes[c], 0, NULL, NULL, 2, &P), HPLS_OK);
        for (int p = 1; p <= 3; p++) {
            hpls_vec *out[2][3]; /* new x, old x, r */
            for (int k = 0; k < 2; k++) {
                hpls_backend *be = k == 0 ? backend(CPU, p) : backend(REF, 1);
                hpls_dvec *d = up(be, dinv), *bb = up(be, b), *xn = up(be, x), *xo, *r;
                assert_int_equal(be->v->alloc(be, n, &xo), HPLS_OK);
                assert_int_equal(be->v->alloc(be, n, &r), HPLS_OK);
                hpls_dvec *cur = xn, *old = xo;
                hpls_pjg_kernels_of(be)->sweep(be, P, &M, d, bb, &cur, &old, r);
                assert_int_equal(be->err, HPLS_OK);
                out[k][0] = down(be, n, cur);
                out[k][1] = down(be, n, old);
                out[k][2] = down(be, n, r);
                hpls_dvec *all[] = {d, bb, xn, xo, r};
                for (int j = 0; j < 5; j++)
                    be->v->release(be, all[j]);
                hpls_backend_destroy(be);
            }
            assert_same(out[0][0], out[1][0]);
            assert_same(out[0][1], out[1][1]);
            assert_same(out[0][1], x);
            for (hpls_int i = 0; i < n; i++)
                assert_close(out[0][2]->data[i], out[1][2]->data[i], 100.0);
            for (int k = 0; k < 2; k++)
                for (int j = 0; j < 3; j++)
                    hpls_vec_destroy(out[k][j]);
        }
        hpls_pjg_partition_free(P);
    }
    hpls_vec_destroy(dinv);
}

/* Dense products, the SOR residual kernels (CSR and dense) and the PJG sweep
 * of cpu (1-3 threads) against the reference kernels of the ref backend. */
static void host_kernels_match_reference(void **state)
{
    (void)state;
    hpls_dense *D;
    hpls_vec *bd;
    assert_int_equal(hpls_gen_dense("dense-dd:n=301,seed=4", &D, &bd), HPLS_OK);
    hpls_csr *A = tu_gen("gas:n=9001,k=3");
    hpls_int n = A->nrows, m = D->nrows;
    hpls_vec *x = tu_vec_random(n, 3), *b = tu_vec_random(n, 4), *xd = tu_vec_random(m, 5);
    size_t bytes = (size_t)n * sizeof(hpls_real);
    hpls_real *y = malloc(bytes), *yr = malloc(bytes), *r = malloc(bytes), *rr = malloc(bytes);
    hpls_int *diag = malloc((size_t)n * sizeof *diag);
    assert_int_equal(hpls_csr_diag_positions(A, diag), HPLS_OK);
    for (int p = 1; p <= 3; p++) {
        hpls_cpu_kernels.gemv(p, D, xd->data, y);
        hpls_ref_kernels.gemv(1, D, xd->data, yr);
        for (hpls_int i = 0; i < m; i++) /* 16 lanes vs one sum: rounding */
            assert_close(y[i], yr[i], 10.0 * m);
        double ss = hpls_cpu_kernels.dense_residual(p, D, bd->data, xd->data, r);
        double ssr = hpls_ref_kernels.dense_residual(1, D, bd->data, xd->data, rr);
        assert_close(ss, ssr, ssr * 1e3);
        for (int upper = 0; upper <= 1; upper++) { /* dense gs/sor/ssor residual */
            const hpls_relax_matrix Md = {.Ad = D};
            ss = relax_residual(CPU, p, &Md, upper, -0.5, xd, y);
            ssr = relax_residual(REF, 1, &Md, upper, -0.5, xd, yr);
            for (hpls_int i = 0; i < m; i++)
                assert_close(y[i], yr[i], 10.0 * m);
            assert_close(ss, ssr, ssr * 1e3);
        }
        for (int upper = 0; upper <= 1; upper++) {
            const hpls_relax_matrix M = {.A = A, .diagpos = diag};
            ss = relax_residual(CPU, p, &M, upper, 0.25, x, r);
            ssr = relax_residual(REF, 1, &M, upper, 0.25, x, rr);
            for (hpls_int i = 0; i < n; i++)
                assert_true(r[i] == rr[i]); /* row by row in column order */
            assert_close(ss, ssr, ssr);
        }
    }
    pjg_sweeps_match_ref(A, diag, x, b);
    free(y);
    free(yr);
    free(r);
    free(rr);
    free(diag);
    hpls_vec_destroy(x);
    hpls_vec_destroy(b);
    hpls_vec_destroy(xd);
    hpls_vec_destroy(bd);
    hpls_dense_destroy(D);
    hpls_csr_destroy(A);
}

static void csr_from_coo_sums_duplicates_and_sorts(void **state)
{
    (void)state;
    hpls_int ri[] = {2, 0, 0, 2, 0, 1};
    hpls_int cj[] = {1, 2, 0, 1, 2, 1};
    double v[] = {1, 2, 3, 4, 5, 0};
    hpls_csr *A;
    assert_int_equal(hpls_csr_from_coo(3, 3, 6, ri, cj, v, &A), HPLS_OK);
    assert_int_equal(A->nnz, 4);
    assert_int_equal(A->rowptr[1], 2);
    assert_int_equal(A->colind[0], 0);
    assert_true(A->val[0] == 3.0 && A->val[1] == 7.0); /* (0,2): 2 + 5 */
    assert_true(A->val[2] == 0.0);                      /* explicit zero kept */
    assert_true(A->val[3] == 5.0);                      /* (2,1): 1 + 4 */
    hpls_csr_destroy(A);
    hpls_int bad[] = {3};
    assert_int_equal(hpls_csr_from_coo(3, 3, 1, bad, cj, v, &A), HPLS_ERR_SIZE);
    assert_non_null(strstr(hpls_last_error(), "outside"));
}

/* A 4 x 4 CSR matrix over the caller's arrays (8 entries at most). */
static hpls_csr csr4(hpls_int *rp, hpls_idx *ci, double *v)
{
    return (hpls_csr){.nrows = 4, .ncols = 4, .nnz = rp[4], .rowptr = rp, .colind = ci, .val = v};
}

/* hpls_csr_check takes every valid matrix, empty rows and columns falling
 * from one row to the next included, and names the first fault of an
 * invalid one, whichever pass finds it. */
static void csr_check_takes_valid_and_names_each_fault(void **state)
{
    (void)state;
    double v[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    /* rows {2, 3}, {}, {0, 1}, {3}: valid */
    hpls_int rp[5] = {0, 2, 2, 4, 5};
    hpls_idx ok[8] = {2, 3, 0, 1, 3};
    hpls_csr A = csr4(rp, ok, v);
    assert_int_equal(hpls_csr_check(&A), HPLS_OK);
    /* the same column ending one row and starting the next: valid */
    hpls_int rp1[5] = {0, 2, 2, 3, 5};
    hpls_idx same1[8] = {2, 3, 3, 0, 3};
    A = csr4(rp1, same1, v);
    assert_int_equal(hpls_csr_check(&A), HPLS_OK);
    struct {
        hpls_int rp[5];
        hpls_idx ci[8];
        double bad_value;
        hpls_status st;
        const char *words;
    } fault[] = {
        {{0, 2, 1, 4, 5}, {2, 3, 0, 1, 3}, 0, HPLS_ERR_SIZE, "rowptr decreases at row 1"},
        {{0, 2, 2, 4, 5}, {2, 3, 1, 0, 3}, 0, HPLS_ERR_SIZE, "row 2: column 0 out of range or unsorted"},
        {{0, 2, 2, 4, 5}, {2, 3, 1, 1, 3}, 0, HPLS_ERR_SIZE, "row 2: column 1 out of range or unsorted"},
        {{0, 2, 2, 4, 5}, {2, 3, -1, 1, 3}, 0, HPLS_ERR_SIZE, "row 2: column -1 out of range"},
        {{0, 2, 2, 4, 5}, {2, 3, 0, 1, 4}, 0, HPLS_ERR_SIZE, "row 3: column 4 out of range"},
        {{0, 1, 3, 4, 5}, {3, 1, 0, 2, 3}, 0, HPLS_ERR_SIZE, "row 1: column 0 out of range or unsorted"},
        {{0, 2, 2, 4, 5}, {2, 3, 0, 1, 3}, NAN, HPLS_ERR_VALUE, "value nan at row 2, column 1"},
        {{0, 2, 2, 4, 5}, {2, 3, 0, 1, 3}, -INFINITY, HPLS_ERR_VALUE, "value -inf at row 2, column 1"},
    };
    for (size_t k = 0; k < sizeof fault / sizeof *fault; k++) {
        double w[8] = {1, 2, 3, 4, 5, 6, 7, 8};
        if (fault[k].bad_value != 0)
            w[3] = fault[k].bad_value;
        A = csr4(fault[k].rp, fault[k].ci, w);
        assert_int_equal(hpls_csr_check(&A), fault[k].st);
        if (!strstr(hpls_last_error(), fault[k].words))
            fail_msg("case %zu: \"%s\" does not say \"%s\"", k, hpls_last_error(), fault[k].words);
    }
}

/* Whether every column holds an entry: at once when every diagonal entry is
 * stored, else column by column. */
static void columns_stored_with_and_without_the_diagonal(void **state)
{
    (void)state;
    double v[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    hpls_int rp[5] = {0, 2, 3, 4, 6};
    hpls_idx diag[8] = {0, 2, 1, 2, 1, 3};   /* every diagonal */
    hpls_idx perm[8] = {1, 2, 0, 3, 1, 2};   /* no diagonal of row 0, 1, 2; every column */
    hpls_idx missing[8] = {1, 2, 2, 3, 1, 2}; /* column 0 nowhere */
    hpls_csr A = csr4(rp, diag, v);
    assert_true(hpls_csr_columns_stored(&A));
    A = csr4(rp, perm, v);
    assert_true(hpls_csr_columns_stored(&A));
    A = csr4(rp, missing, v);
    assert_false(hpls_csr_columns_stored(&A));
}

static void allocation_failure_is_reported_and_leaks_nothing(void **state)
{
    (void)state;
    hpls_int ri[] = {0, 1}, cj[] = {0, 1};
    double v[] = {1, 2};
    for (long k = 1;; k++) {
        hpls_csr *A = NULL;
        hpls_alloc_fail_at(k);
        hpls_status st = hpls_csr_from_coo(2, 2, 2, ri, cj, v, &A);
        hpls_alloc_fail_at(0);
        if (st == HPLS_OK) {
            hpls_csr_destroy(A);
            break;
        }
        assert_int_equal(st, HPLS_ERR_NOMEM);
        assert_null(A);
    }
    for (int which = CPU; which <= REF; which++) /* a backend and its vectors too */
        for (long k = 1;; k++) {
            hpls_backend *be = NULL;
            hpls_dvec *d = NULL;
            hpls_alloc_fail_at(k);
            hpls_status st = hpls_backend_create(which, 2, &be);
            if (st == HPLS_OK)
                st = be->v->alloc(be, 100, &d);
            hpls_alloc_fail_at(0);
            if (be)
                be->v->release(be, d);
            hpls_backend_destroy(be);
            if (st == HPLS_OK)
                break;
            assert_int_equal(st, HPLS_ERR_NOMEM);
        }
    void *p = hpls_malloc(INT64_MAX / 2, 16);
    assert_null(p);
    void *q = hpls_malloc(0, 8); /* count 0 is a valid, freeable block */
    assert_non_null(q);
    hpls_free(q);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(spmv_matches_reference_for_every_thread_count),
        cmocka_unit_test(spmv_matches_reference_on_stencil_and_scattered_matrices),
        cmocka_unit_test(default_prefetch_is_none_in_cache),
        cmocka_unit_test(spmv_t_matches_the_product_with_the_transpose),
        cmocka_unit_test(vector_operations_match_ref),
        cmocka_unit_test(multi_vector_operations_match_ref),
        cmocka_unit_test(multi_operations_are_repeatable_and_consistent),
        cmocka_unit_test(nrm2_survives_huge_and_tiny_entries),
        cmocka_unit_test(ref_backend_refuses_vectors_it_did_not_allocate),
        cmocka_unit_test(every_reduction_goes_through_the_hook_once),
        cmocka_unit_test(host_kernels_match_reference),
        cmocka_unit_test(csr_from_coo_sums_duplicates_and_sorts),
        cmocka_unit_test(csr_check_takes_valid_and_names_each_fault),
        cmocka_unit_test(columns_stored_with_and_without_the_diagonal),
        cmocka_unit_test(allocation_failure_is_reported_and_leaks_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
