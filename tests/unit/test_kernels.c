/* test_kernels.c: the OpenMP kernels agree with the sequential reference. */
#include "testutil.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

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

static void spmv_matches_reference_for_every_thread_count(void **state)
{
    (void)state;
    const hpls_int sizes[][2] = {{1, 1}, {13, 7}, {1000, 1000}, {30011, 29989}};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        hpls_csr *A = random_csr(sizes[s][0], sizes[s][1], (unsigned)s);
        hpls_vec *x = tu_vec_random(A->ncols, 11), *b = tu_vec_random(A->nrows, 12);
        hpls_real *y = malloc((size_t)A->nrows * sizeof *y), *yr = malloc((size_t)A->nrows * sizeof *yr);
        hpls_real *r = malloc((size_t)A->nrows * sizeof *r), *rr = malloc((size_t)A->nrows * sizeof *rr);
        hpls_ref_spmv(A, x->data, yr);
        double rnref = hpls_ref_residual(A, b->data, x->data, rr);
        for (int p = 1; p <= 3; p++) {
            omp_set_num_threads(p);
            hpls_k_spmv(A, x->data, y);
            double rn = hpls_k_residual(A, b->data, x->data, r);
            for (hpls_int i = 0; i < A->nrows; i++) {
                assert_true(y[i] == yr[i]); /* same summation order per row */
                assert_true(r[i] == rr[i]);
            }
            assert_true(fabs(rn - rnref) <= 1e-13 * rnref);
        }
        omp_set_num_threads(2);
        free(y);
        free(yr);
        free(r);
        free(rr);
        hpls_vec_destroy(x);
        hpls_vec_destroy(b);
        hpls_csr_destroy(A);
    }
}

/* Both prefetching paths of the SpMV (stencil rows, scattered rows) and the
 * rows near the end that run without prefetch give the reference's sums. */
static void spmv_matches_reference_on_stencil_and_scattered_matrices(void **state)
{
    (void)state;
    const char *specs[] = {"poisson3d:nx=23", "gas:n=20011,k=3", "tridiag:n=5000"};
    for (size_t c = 0; c < sizeof specs / sizeof specs[0]; c++) {
        hpls_csr *A;
        assert_int_equal(hpls_gen_csr(specs[c], &A, NULL), HPLS_OK);
        hpls_vec *x = tu_vec_random(A->ncols, 5), *b = tu_vec_random(A->nrows, 6);
        size_t bytes = (size_t)A->nrows * sizeof(hpls_real);
        hpls_real *y = malloc(bytes), *yr = malloc(bytes), *r = malloc(bytes), *rr = malloc(bytes);
        hpls_ref_spmv(A, x->data, yr);
        hpls_ref_residual(A, b->data, x->data, rr);
        for (int p = 1; p <= 3; p++) {
            omp_set_num_threads(p);
            hpls_k_spmv(A, x->data, y);
            hpls_k_residual(A, b->data, x->data, r);
            for (hpls_int i = 0; i < A->nrows; i++)
                assert_true(y[i] == yr[i] && r[i] == rr[i]);
        }
        omp_set_num_threads(2);
        free(y);
        free(yr);
        free(r);
        free(rr);
        hpls_vec_destroy(x);
        hpls_vec_destroy(b);
        hpls_csr_destroy(A);
    }
}

static void blas1_matches_reference_and_is_repeatable(void **state)
{
    (void)state;
    const hpls_int sizes[] = {0, 1, 17, 8191, 8192, 100003};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        hpls_int n = sizes[s];
        hpls_vec *x = tu_vec_random(n, 1), *y = tu_vec_random(n, 2), *z = tu_vec_random(n, 3);
        hpls_vec *zr = tu_vec_random(n, 3);
        double d = hpls_k_dot(n, x->data, y->data), dr = hpls_ref_dot(n, x->data, y->data);
        assert_true(fabs(d - dr) <= 1e-12 * (double)(n + 1));
        assert_true(hpls_k_dot(n, x->data, y->data) == d); /* repeatable */
        double nr = hpls_k_nrm2(n, x->data), nrr = hpls_ref_nrm2(n, x->data);
        assert_true(fabs(nr - nrr) <= 1e-13 * (nrr + 1e-300));
        hpls_k_axpbypcz(n, 2.0, x->data, -3.0, y->data, 0.5, z->data);
        hpls_ref_axpbypcz(n, 2.0, x->data, -3.0, y->data, 0.5, zr->data);
        for (hpls_int i = 0; i < n; i++)
            assert_true(z->data[i] == zr->data[i]);
        hpls_k_axpby(n, 1.5, x->data, -0.25, z->data);
        hpls_ref_axpby(n, 1.5, x->data, -0.25, zr->data);
        for (hpls_int i = 0; i < n; i++)
            assert_true(z->data[i] == zr->data[i]);
        hpls_vec_destroy(x);
        hpls_vec_destroy(y);
        hpls_vec_destroy(z);
        hpls_vec_destroy(zr);
    }
}

/* The fused BiCGSTAB kernels give the reference's vectors bit for bit (same
 * operations per entry) and its scalars to rounding, repeatably, at 1-3 threads. */
static void bicgstab_fused_kernels_match_reference(void **state)
{
    (void)state;
    const hpls_int sizes[] = {0, 1, 17, 8191, 8192, 100003};
    for (size_t c = 0; c < sizeof sizes / sizeof sizes[0]; c++) {
        hpls_int n = sizes[c];
        hpls_vec *r = tu_vec_random(n, 1), *v = tu_vec_random(n, 2), *s = tu_vec_random(n, 3);
        hpls_vec *t = tu_vec_random(n, 4), *rhat = tu_vec_random(n, 5), *sh = tu_vec_random(n, 6);
        hpls_vec *p = tu_vec_random(n, 7), *pr = tu_vec_random(n, 7);
        hpls_vec *x = tu_vec_random(n, 8), *xr = tu_vec_random(n, 8);
        hpls_vec *w = tu_vec_const(n, 0.0), *wr = tu_vec_const(n, 0.0);
        if (n > 10)
            r->data[n / 3] = v->data[n / 3] = 0.0; /* zeros among the entries */
        double tol = 1e-13 * (double)(n + 1);
        for (int th = 1; th <= 3; th++) {
            omp_set_num_threads(th);
            hpls_k_bicgstab_p(n, r->data, 0.7, -1.3, v->data, p->data);
            hpls_ref_bicgstab_p(n, r->data, 0.7, -1.3, v->data, pr->data);
            double wn = hpls_k_waxpy_nrm2(n, -0.4, v->data, r->data, w->data);
            double wnr = hpls_ref_waxpy_nrm2(n, -0.4, v->data, r->data, wr->data);
            assert_true(fabs(wn - wnr) <= tol * wnr);
            double xx, xy, xxr, xyr;
            hpls_k_dot2(n, t->data, s->data, &xx, &xy);
            hpls_ref_dot2(n, t->data, s->data, &xxr, &xyr);
            assert_true(fabs(xx - xxr) <= tol * xxr && fabs(xy - xyr) <= tol * (fabs(xyr) + 1.0));
            double again_xx, again_xy;
            hpls_k_dot2(n, t->data, s->data, &again_xx, &again_xy);
            assert_true(again_xx == xx && again_xy == xy); /* repeatable */
            double rn, rr, rnr, rrr;
            hpls_k_bicgstab_xr(n, 0.3, p->data, -2.5, sh->data, s->data, t->data, rhat->data,
                               x->data, w->data, &rn, &rr);
            hpls_ref_bicgstab_xr(n, 0.3, pr->data, -2.5, sh->data, s->data, t->data, rhat->data,
                                 xr->data, wr->data, &rnr, &rrr);
            assert_true(fabs(rn - rnr) <= tol * rnr && fabs(rr - rrr) <= tol * (fabs(rrr) + 1.0));
            for (hpls_int i = 0; i < n; i++)
                assert_true(p->data[i] == pr->data[i] && w->data[i] == wr->data[i] &&
                            x->data[i] == xr->data[i]);
        }
        omp_set_num_threads(2);
        hpls_vec *all[] = {r, v, s, t, rhat, sh, p, pr, x, xr, w, wr};
        for (size_t k = 0; k < sizeof all / sizeof all[0]; k++)
            hpls_vec_destroy(all[k]);
    }
}

static void nrm2_survives_huge_and_tiny_entries(void **state)
{
    (void)state;
    double big[3] = {3e200, 4e200, 0}, tiny[2] = {3e-200, 4e-200};
    assert_true(fabs(hpls_k_nrm2(3, big) - 5e200) <= 1e-14 * 5e200);
    assert_true(fabs(hpls_k_nrm2(2, tiny) - 5e-200) <= 1e-14 * 5e-200);
    /* a NaN entry makes the norm NaN, never 0 (a solve would stop "converged") */
    double nan3[3] = {NAN, NAN, NAN}, mixed[3] = {1e300, NAN, 1.0};
    assert_true(isnan(hpls_k_nrm2(3, nan3)));
    assert_true(isnan(hpls_k_nrm2(3, mixed)));
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
        cmocka_unit_test(blas1_matches_reference_and_is_repeatable),
        cmocka_unit_test(bicgstab_fused_kernels_match_reference),
        cmocka_unit_test(nrm2_survives_huge_and_tiny_entries),
        cmocka_unit_test(csr_from_coo_sums_duplicates_and_sorts),
        cmocka_unit_test(allocation_failure_is_reported_and_leaks_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
