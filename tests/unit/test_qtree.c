/* SPDX-License-Identifier: BSD-3-Clause */
/* test_qtree.c: the quad-tree storage (Xu et al. 2015, Alg. 2, Fig. 3) and its
 * SpMV against CSR's, qtbicgstab and format=qtree against the CSR methods, and
 * reverse Cuthill-McKee (reorder=rcm). */
#include "testutil.h"

#include "la/qtree.h"
#include "la/rcm.h"

#include <dirent.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* nr x nc with about density*nr*nc random entries; rows and columns whose index
 * is a multiple of 5 (of 7) stay empty. */
static hpls_csr *random_csr(hpls_int nr, hpls_int nc, double density, unsigned seed)
{
    hpls_int cap = (hpls_int)(density * (double)nr * (double)nc) + 1, m = 0;
    hpls_int *ri = malloc((size_t)cap * sizeof *ri), *ci = malloc((size_t)cap * sizeof *ci);
    double *v = malloc((size_t)cap * sizeof *v);
    assert_true(ri && ci && v);
    srand(seed);
    for (hpls_int k = 0; k < cap; k++) {
        hpls_int i = rand() % nr, j = rand() % nc;
        if ((nr > 5 && i % 5 == 0) || (nc > 7 && j % 7 == 0))
            continue;
        ri[m] = i;
        ci[m] = j;
        v[m++] = (double)rand() / RAND_MAX - 0.5;
    }
    hpls_csr *A = NULL;
    assert_int_equal(hpls_csr_from_coo(nr, nc, m, ri, ci, v, &A), HPLS_OK);
    free(ri);
    free(ci);
    free(v);
    return A;
}

/* Row offsets of leaf f's entries, decoded from either form into r[]. */
static void leaf_rows(const hpls_qtree *Q, const hpls_qt_leaf *f, hpls_int *r)
{
    const uint16_t *w = Q->rinfo + f->aux;
    hpls_int m = 0;
    if (f->nrun == 0) {
        for (; m < f[1].off - f->off; m++)
            r[m] = w[m];
        assert_int_equal(f[1].aux - f->aux, m); /* one row word an entry */
        return;
    }
    for (int32_t j = 0; j < f->nrun; j++) {
        assert_true(w[2 * j + 1] > 0);
        if (j > 0) /* a row continues only after a run of the longest length */
            assert_true(w[2 * j] > w[2 * j - 2] || w[2 * j - 1] == 65535);
        for (unsigned c = 0; c < w[2 * j + 1]; c++)
            r[m++] = w[2 * j];
    }
    assert_int_equal(m, f[1].off - f->off);
    assert_int_equal(f[1].aux - f->aux, 2 * f->nrun);
    assert_true(2 * f->nrun < m); /* the runs form only where it is the smaller */
}

/* The tree's invariants: every entry once, leaves inside their band, aligned,
 * of side L <= d, ordered by panel, row block, then column block; entries
 * of a leaf row by row with columns increasing. */
static void check_tree(const hpls_qtree *Q, hpls_int d)
{
    assert_true(Q->side <= d && Q->side * 2 > d);
    assert_true(Q->panel >= Q->side && Q->panel % Q->side == 0);
    assert_int_equal(Q->leaf[Q->nleaves].off, Q->nnz);
    hpls_int *r = malloc(((size_t)Q->nnz + 1) * sizeof *r);
    assert_non_null(r);
    for (int b = 0; b < Q->nbands; b++)
        for (hpls_int l = Q->band_leaf[b]; l < Q->band_leaf[b + 1]; l++) {
            const hpls_qt_leaf *f = &Q->leaf[l];
            assert_true(f[1].off > f->off); /* never an empty leaf */
            assert_int_equal(f->row0 % Q->side, 0);
            assert_int_equal(f->col0 % Q->side, 0);
            if (l > Q->band_leaf[b]) { /* by panel, row block, column block */
                hpls_int p0 = f[-1].col0 / Q->panel, p1 = f->col0 / Q->panel;
                assert_true(p0 < p1 || (p0 == p1 && (f[-1].row0 < f->row0 ||
                                                     (f[-1].row0 == f->row0 && f[-1].col0 < f->col0))));
            }
            leaf_rows(Q, f, r);
            for (hpls_int k = f->off; k < f[1].off; k++) {
                hpls_int m = k - f->off, i = f->row0 + r[m], j = f->col0 + Q->col[k];
                assert_true(i >= Q->band_row[b] && i < Q->band_row[b + 1]);
                assert_true(j < Q->ncols && r[m] < Q->side && Q->col[k] < Q->side);
                if (m > 0)
                    assert_true(r[m] > r[m - 1] || (r[m] == r[m - 1] && Q->col[k] > Q->col[k - 1]));
            }
        }
    free(r);
}

/* y = A x and A^T x on the tree against the reference CSR products: A x bit for
 * bit (a row is summed in CSR's order for any d, panel and band count), A^T x
 * bit for bit with one band, to rounding with several. */
static void compare(const hpls_csr *A, hpls_int d, hpls_int panel, int nbands)
{
    hpls_qtree *Q = NULL;
    assert_int_equal(hpls_qtree_create(A, d, panel, nbands, &Q), HPLS_OK);
    check_tree(Q, d);
    hpls_vec *x = tu_vec_random(A->ncols, 7), *xt = tu_vec_random(A->nrows, 8), *y, *yr, *z, *zr;
    hpls_vec_create(A->nrows, &y);
    hpls_vec_create(A->nrows, &yr);
    hpls_vec_create(A->ncols, &z);
    hpls_vec_create(A->ncols, &zr);
    hpls_k_qt_spmv(Q, HPLS_PF_DEFAULT, x->data, y->data);
    hpls_ref_spmv(1, A, x->data, yr->data);
    assert_memory_equal(y->data, yr->data, (size_t)A->nrows * sizeof(double));
    hpls_csr *At = NULL;
    assert_int_equal(hpls_csr_transpose(A, &At), HPLS_OK);
    hpls_k_qt_spmv_t(Q, xt->data, z->data);
    hpls_ref_spmv(1, At, xt->data, zr->data);
    if (nbands == 1)
        assert_memory_equal(z->data, zr->data, (size_t)A->ncols * sizeof(double));
    else
        for (hpls_int j = 0; j < A->ncols; j++)
            assert_true(fabs(z->data[j] - zr->data[j]) <= 1e-13 * (1.0 + fabs(zr->data[j])));
    hpls_csr_destroy(At);
    hpls_qtree_destroy(Q);
    hpls_vec_destroy(x);
    hpls_vec_destroy(xt);
    hpls_vec_destroy(y);
    hpls_vec_destroy(yr);
    hpls_vec_destroy(z);
    hpls_vec_destroy(zr);
}

static void spmv_equals_csr_on_generated_matrices(void **state)
{
    (void)state;
    const hpls_int sizes[][2] = {{1, 1}, {7, 7}, {100, 100}, {257, 257}, {300, 517}, {517, 300},
                                 {1000, 1000}};
    const hpls_int ds[] = {1, 2, 3, 16, 64, 100, HPLS_QT_MAX_D};
    const int bands[] = {1, 2, 3, 7};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        hpls_csr *A = random_csr(sizes[s][0], sizes[s][1], 0.02, (unsigned)s + 1);
        for (size_t k = 0; k < sizeof ds / sizeof ds[0]; k++)
            for (size_t b = 0; b < sizeof bands / sizeof bands[0]; b++) {
                compare(A, ds[k], 0, bands[b]);
                compare(A, ds[k], 4 * ds[k], bands[b]); /* several panels */
            }
        hpls_csr_destroy(A);
    }
    const char *const specs[] = {"gas:n=3000,k=2", "convdiff3d:nx=10,pe=5", "poisson2d:nx=33"};
    for (int m = 0; m < 3; m++) {
        hpls_csr *A = tu_gen(specs[m]);
        for (size_t k = 0; k < sizeof ds / sizeof ds[0]; k++) {
            compare(A, ds[k], 0, 1);
            compare(A, ds[k], 0, 2);
            compare(A, ds[k], 2 * ds[k], 2);
        }
        hpls_csr_destroy(A);
    }
}

static void spmv_equals_csr_on_real_matrices(void **state)
{
    (void)state;
    char dir[512], path[1024];
    if (!tu_data_path("matrices", dir, sizeof dir))
        skip();
    DIR *dp = opendir(dir);
    assert_non_null(dp);
    int seen = 0;
    for (struct dirent *de; (de = readdir(dp)) != NULL;) {
        if (!strstr(de->d_name, ".mtx"))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        hpls_csr *A = NULL;
        if (hpls_mm_read_csr(path, &A) != HPLS_OK)
            continue; /* not a real sparse matrix (complex, ...): not ours to test */
        hpls_int n = A->nrows > A->ncols ? A->nrows : A->ncols;
        compare(A, 1, 0, 2);
        compare(A, 64, 0, 1);
        compare(A, 64, 256, 1);
        compare(A, 100, 0, 2);
        compare(A, n < HPLS_QT_MAX_D ? n : HPLS_QT_MAX_D, 0, 1);
        hpls_csr_destroy(A);
        seen++;
    }
    closedir(dp);
    assert_true(seen > 0);
}

static void spmv_is_repeatable_through_the_openmp_team(void **state)
{
    (void)state;
    hpls_csr *A = tu_gen("gas:n=20000,k=3");
    int saved = omp_get_max_threads();
    omp_set_num_threads(2);
    hpls_qtree *Q = NULL;
    assert_int_equal(hpls_qtree_create(A, 512, 2048, 2, &Q), HPLS_OK);
    hpls_vec *x = tu_vec_random(A->nrows, 1), *y1, *y2;
    hpls_vec_create(A->nrows, &y1);
    hpls_vec_create(A->nrows, &y2);
    hpls_k_qt_spmv_t(Q, x->data, y1->data);
    hpls_k_qt_spmv_t(Q, x->data, y2->data);
    assert_memory_equal(y1->data, y2->data, (size_t)A->nrows * sizeof(double));
    omp_set_num_threads(1); /* a smaller team still computes every band */
    hpls_k_qt_spmv_t(Q, x->data, y2->data);
    assert_memory_equal(y1->data, y2->data, (size_t)A->nrows * sizeof(double));
    hpls_k_qt_spmv(Q, HPLS_PF_DEFAULT, x->data, y1->data);
    hpls_k_spmv(2, A, x->data, y2->data);
    assert_memory_equal(y1->data, y2->data, (size_t)A->nrows * sizeof(double));
    omp_set_num_threads(saved);
    hpls_qtree_destroy(Q);
    hpls_vec_destroy(x);
    hpls_vec_destroy(y1);
    hpls_vec_destroy(y2);
    hpls_csr_destroy(A);
}

static void auto_d_follows_eq17_and_declines_when_x_fits(void **state)
{
    (void)state;
    hpls_csr *A = tu_gen("poisson2d:nx=50");
    assert_int_equal(hpls_qtree_auto_d(A, 1L << 20), 0); /* x is 20 KB */
    hpls_int d = hpls_qtree_auto_d(A, 4096);             /* a tiny cache: x does not fit */
    assert_true(d >= 64 && d <= HPLS_QT_MAX_D && (d & (d - 1)) == 0);
    /* 12 rho d^2 + 16 d <= cache < the same for 2d (unless clamped at 64) */
    double rho = (double)A->nnz / ((double)A->nrows * (double)A->ncols);
    assert_true(d == 64 || 12 * rho * d * d + 16.0 * d <= 4096);
    assert_true(hpls_qtree_cache_bytes(2) > 0 && hpls_qtree_cache_bytes(3) > 0);
    assert_int_equal(hpls_qtree_panel_cols(32L << 20), 1 << 21); /* 16 MB of x */
    hpls_qt_choice c;
    hpls_qtree *Q = (hpls_qtree *)&c; /* must come back NULL */
    assert_int_equal(hpls_qtree_create_auto(A, 1, &Q, &c), HPLS_OK);
    assert_null(Q);
    assert_int_equal(c.d0, 0);
    hpls_csr_destroy(A);
}

/* On a matrix whose x exceeds L2 the automatic format tries Eq. 17's d and
 * its neighbours and keeps the fastest, or CSR when none is 5% faster: whichever
 * way the timing falls, the choice must agree with the times it records. */
static void auto_format_keeps_the_fastest_of_its_candidates(void **state)
{
    (void)state;
    hpls_int n = (hpls_int)(hpls_qtree_cache_bytes(2) / 4); /* x = twice L2 */
    char spec[64];
    snprintf(spec, sizeof spec, "random:n=%lld,k=4", (long long)n);
    hpls_csr *A = tu_gen(spec);
    hpls_qtree *Q = NULL;
    hpls_qt_choice c;
    assert_int_equal(hpls_qtree_create_auto(A, 2, &Q, &c), HPLS_OK);
    assert_int_equal(c.d0, hpls_qtree_auto_d(A, c.l2));
    assert_true(c.d0 >= 64 && c.ncand >= 2 && c.ncand <= HPLS_QT_NCAND && c.t_csr > 0);
    double best = 0.95 * c.t_csr; /* a tree must beat CSR by 5% */
    int k_best = -1;
    for (int k = 0; k < c.ncand; k++) {
        assert_true(c.cand[k] >= 64 && c.cand[k] <= HPLS_QT_MAX_D && c.t_cand[k] > 0);
        if (k > 0)
            assert_int_equal(c.cand[k], 2 * c.cand[k - 1]);
        if (c.t_cand[k] < best) {
            best = c.t_cand[k];
            k_best = k;
        }
    }
    if (k_best < 0) {
        assert_null(Q);
        assert_int_equal(c.d, 0);
    } else {
        assert_non_null(Q);
        assert_int_equal(c.d, c.cand[k_best]);
        assert_int_equal(Q->d, c.d);
        assert_int_equal(Q->nbands, 2);
        check_tree(Q, c.d);
    }
    hpls_qtree_destroy(Q);
    hpls_csr_destroy(A);
}

/* A row of a leaf longer than a 16-bit count holds is stored as several runs;
 * dense leaves take the runs form, scattered ones the coo form. */
static void long_rows_split_into_runs_and_forms_follow_the_bytes(void **state)
{
    (void)state;
    hpls_int nc = 70000, m = 0, cap = nc + 40;
    hpls_int *ri = malloc((size_t)cap * sizeof *ri), *ci = malloc((size_t)cap * sizeof *ci);
    double *v = malloc((size_t)cap * sizeof *v);
    assert_true(ri && ci && v);
    for (hpls_int j = 0; j < nc; j++, m++) { /* row 0 full */
        ri[m] = 0;
        ci[m] = j;
        v[m] = 1.0 + (double)(j % 13) / 7.0;
    }
    for (hpls_int i = 1; i < 40; i++, m++) { /* one entry in each of rows 1..39 */
        ri[m] = i;
        ci[m] = (i * 7919) % nc;
        v[m] = -0.5 * (double)i;
    }
    hpls_csr *A = NULL;
    assert_int_equal(hpls_csr_from_coo(40, nc, m, ri, ci, v, &A), HPLS_OK);
    hpls_qtree *Q = NULL;
    assert_int_equal(hpls_qtree_create(A, HPLS_QT_MAX_D, 0, 1, &Q), HPLS_OK);
    check_tree(Q, HPLS_QT_MAX_D);
    int runs_leaf_split = 0;
    for (hpls_int l = 0; l < Q->nleaves; l++)
        runs_leaf_split |= Q->leaf[l].nrun >= 2 && Q->rinfo[Q->leaf[l].aux] == 0 &&
                           Q->rinfo[Q->leaf[l].aux + 2] == 0; /* row 0 twice */
    assert_true(runs_leaf_split);
    hpls_qtree_destroy(Q);
    compare(A, HPLS_QT_MAX_D, 0, 1);
    compare(A, HPLS_QT_MAX_D, 0, 2);
    hpls_csr_destroy(A);
    /* scattered: one entry a row in every leaf of side 64 -> coo; a stencil's
     * leaves of side 4096 hold full rows -> runs */
    hpls_csr *R = tu_gen("random:n=50000,k=3"), *P = tu_gen("poisson2d:nx=200");
    assert_int_equal(hpls_qtree_create(R, 64, 0, 1, &Q), HPLS_OK);
    assert_true(Q->nruns * 100 < R->nnz); /* coo, but for a rare row of 3 in one leaf */
    hpls_qtree_destroy(Q);
    assert_int_equal(hpls_qtree_create(P, 4096, 0, 1, &Q), HPLS_OK);
    assert_true(Q->nruns > 0 && Q->nruns < P->nrows * 2);
    /* 10 bytes an entry and 4 a run: below CSR's 12 and 8 */
    assert_true(hpls_qtree_bytes(Q) < 12.0 * (double)P->nnz + 8.0 * (double)P->nrows);
    hpls_qtree_destroy(Q);
    hpls_csr_destroy(R);
    hpls_csr_destroy(P);
    free(ri);
    free(ci);
    free(v);
}

/* gen random: k off-diagonal entries a row at distinct columns, a diagonal of
 * their absolute sum / q, different seeds giving different patterns. */
static void random_generator_has_k_entries_and_a_dominant_diagonal(void **state)
{
    (void)state;
    hpls_csr *A = tu_gen("random:n=3000,k=5,q=0.5"), *B = tu_gen("random:n=3000,k=5,seed=2");
    assert_int_equal(A->nrows, 3000);
    assert_int_equal(A->nnz, 3000 * 6);
    assert_int_equal(hpls_csr_check(A), HPLS_OK);
    hpls_int far = 0, differ = 0;
    for (hpls_int i = 0; i < A->nrows; i++) {
        double off = 0.0, dg = 0.0;
        for (hpls_int k = A->rowptr[i]; k < A->rowptr[i + 1]; k++) {
            if (k > A->rowptr[i])
                assert_true(A->colind[k] > A->colind[k - 1]); /* distinct, sorted */
            if (A->colind[k] == i) {
                dg = A->val[k];
            } else {
                assert_true(A->val[k] >= -1.0 && A->val[k] < 1.0);
                off += fabs(A->val[k]);
                far += llabs((long long)(A->colind[k] - i)) > 100;
            }
            differ += A->colind[k] != B->colind[k];
        }
        assert_true(fabs(dg - off / 0.5) <= 1e-14 * off);
    }
    assert_true(far > 4 * 3000 * 5 / 5); /* uniform columns: almost all far away */
    assert_true(differ > 3000);
    hpls_csr_destroy(A);
    hpls_csr_destroy(B);
    hpls_csr *S = NULL;
    assert_int_equal(hpls_gen_csr("random:n=5,k=5", &S, NULL), HPLS_ERR_OPTION);
    assert_non_null(strstr(hpls_last_error(), "needs n >= 6"));
    assert_null(S);
}

/* Solves with options; x out (zero start), info returned. */
static hpls_info solve(const hpls_csr *A, const char *options, const hpls_vec *b, hpls_vec *x,
                       char *format, size_t flen)
{
    hpls_solver *s;
    hpls_info info;
    assert_int_equal(hpls_solver_create(&s), HPLS_OK);
    assert_int_equal(hpls_solver_set_options(s, options), HPLS_OK);
    if (hpls_solver_setup(s, A) != HPLS_OK)
        fail_msg("%s: %s", options, hpls_solver_message(s));
    assert_int_equal(hpls_solver_solve(s, b, x), HPLS_OK);
    hpls_solver_get_info(s, &info);
    if (format)
        snprintf(format, flen, "%s", hpls_solver_format(s) ? hpls_solver_format(s) : "");
    hpls_solver_destroy(s);
    return info;
}

static void qtbicgstab_iterates_equal_bicgstab(void **state)
{
    (void)state;
    const char *const specs[] = {"gas:n=5000,k=2", "convdiff3d:nx=12,pe=10"};
    const char *const pcs[] = {"none", "jacobi"};
    char fmt[256], opts[160];
    for (int m = 0; m < 2; m++) {
        hpls_csr *A = tu_gen(specs[m]);
        hpls_vec *b = tu_vec_random(A->nrows, 5), *x1, *x2;
        hpls_vec_create(A->nrows, &x1);
        hpls_vec_create(A->nrows, &x2);
        for (int p = 0; p < 2; p++) {
            snprintf(opts, sizeof opts, "solver=bicgstab tol=1e-10 precond=%s", pcs[p]);
            hpls_info ref = solve(A, opts, b, x1, NULL, 0);
            snprintf(opts, sizeof opts, "solver=qtbicgstab qt_d=64 tol=1e-10 precond=%s", pcs[p]);
            hpls_info qt = solve(A, opts, b, x2, fmt, sizeof fmt);
            assert_non_null(strstr(fmt, "qtree d=64 (given)"));
            assert_true(hpls_reason_converged(ref.reason) && hpls_reason_converged(qt.reason));
            assert_true(llabs((long long)(ref.iterations - qt.iterations)) <= 1);
            assert_true(tu_relerr(x2, x1) <= 1e-10);
        }
        hpls_vec_destroy(b);
        hpls_vec_destroy(x1);
        hpls_vec_destroy(x2);
        hpls_csr_destroy(A);
    }
}

static void format_qtree_serves_every_krylov_method(void **state)
{
    (void)state;
    hpls_csr *P = tu_gen("poisson2d:nx=40"), *G = tu_gen("gas:n=4000,k=2");
    const char *const methods[] = {"cg", "gmres", "bicg", "qmr", "tfqmr", "minres"};
    char opts[128], fmt[256];
    for (int m = 0; m < 6; m++) {
        const hpls_csr *A = m == 0 || m == 5 ? P : G;
        hpls_vec *b = tu_vec_random(A->nrows, 2), *x1, *x2;
        hpls_vec_create(A->nrows, &x1);
        hpls_vec_create(A->nrows, &x2);
        snprintf(opts, sizeof opts, "solver=%s tol=1e-10 maxiter=3000", methods[m]);
        hpls_info ref = solve(A, opts, b, x1, NULL, 0);
        snprintf(opts, sizeof opts, "solver=%s tol=1e-10 maxiter=3000 format=qtree qt_d=32",
                 methods[m]);
        hpls_info qt = solve(A, opts, b, x2, fmt, sizeof fmt);
        assert_non_null(strstr(fmt, "qtree d=32"));
        assert_true(hpls_reason_converged(ref.reason) && hpls_reason_converged(qt.reason));
        assert_true(llabs((long long)(ref.iterations - qt.iterations)) <= 1);
        assert_true(tu_relerr(x2, x1) <= 1e-10);
        hpls_vec_destroy(b);
        hpls_vec_destroy(x1);
        hpls_vec_destroy(x2);
    }
    /* automatic d on a matrix whose x fits in L2: CSR is kept, and says so */
    hpls_vec *b = tu_vec_const(G->nrows, 1.0), *x;
    hpls_vec_create(G->nrows, &x);
    hpls_info info = solve(G, "solver=qtbicgstab", b, x, fmt, sizeof fmt);
    assert_true(hpls_reason_converged(info.reason));
    assert_non_null(strstr(fmt, "csr (auto: x fits in L2"));
    hpls_vec_destroy(b);
    hpls_vec_destroy(x);
    hpls_csr_destroy(P);
    hpls_csr_destroy(G);
}

static void format_options_are_checked(void **state)
{
    (void)state;
    hpls_csr *A = tu_gen("poisson2d:nx=10");
    hpls_solver *s;
    assert_int_equal(hpls_solver_create(&s), HPLS_OK);
    assert_int_equal(hpls_solver_set_options(s, "solver=jacobi format=qtree"), HPLS_OK);
    assert_int_equal(hpls_solver_setup(s, A), HPLS_ERR_OPTION); /* not a Krylov method */
    assert_int_equal(hpls_solver_set_options(s, "solver=qtbicgstab format=csr"), HPLS_OK);
    assert_int_equal(hpls_solver_setup(s, A), HPLS_ERR_OPTION);
    assert_non_null(strstr(hpls_solver_message(s), "always uses format=qtree"));
    assert_int_equal(hpls_solver_set_option(s, "qt_d=65537"), HPLS_ERR_OPTION);
    assert_int_equal(hpls_solver_set_option(s, "format=ell"), HPLS_ERR_OPTION);
    hpls_solver_destroy(s);
    hpls_dense *D;
    assert_int_equal(hpls_dense_create(3, 3, &D), HPLS_OK);
    for (int i = 0; i < 3; i++)
        D->data[i * 4] = 2.0;
    assert_int_equal(hpls_solver_create(&s), HPLS_OK);
    assert_int_equal(hpls_solver_set_options(s, "solver=cg reorder=rcm"), HPLS_OK);
    assert_int_equal(hpls_solver_setup_dense(s, D), HPLS_ERR_OPTION);
    hpls_solver_destroy(s);
    hpls_dense_destroy(D);
    hpls_csr_destroy(A);
}

static void check_permutation(const hpls_int *perm, hpls_int n)
{
    char *seen = calloc((size_t)n + 1, 1);
    assert_non_null(seen);
    for (hpls_int k = 0; k < n; k++) {
        assert_true(perm[k] >= 0 && perm[k] < n);
        assert_int_equal(seen[perm[k]], 0);
        seen[perm[k]] = 1;
    }
    free(seen);
}

static void rcm_is_a_permutation_that_narrows_the_band(void **state)
{
    (void)state;
    hpls_csr *A = tu_gen("poisson2d:nx=30");
    hpls_int n = A->nrows;
    hpls_int *scramble = malloc((size_t)n * sizeof *scramble), *perm = malloc((size_t)n * sizeof *perm);
    assert_true(scramble && perm);
    for (hpls_int k = 0; k < n; k++)
        scramble[k] = k;
    srand(11);
    for (hpls_int k = n - 1; k > 0; k--) {
        hpls_int j = rand() % (k + 1), t = scramble[k];
        scramble[k] = scramble[j];
        scramble[j] = t;
    }
    hpls_csr *S = NULL, *R = NULL;
    assert_int_equal(hpls_csr_permute(A, scramble, &S), HPLS_OK);
    assert_int_equal(hpls_csr_check(S), HPLS_OK);
    assert_true(hpls_csr_bandwidth(S) > 10 * hpls_csr_bandwidth(A));
    assert_int_equal(hpls_rcm(S, perm), HPLS_OK);
    check_permutation(perm, n);
    assert_int_equal(hpls_csr_permute(S, perm, &R), HPLS_OK);
    assert_int_equal(hpls_csr_check(R), HPLS_OK);
    assert_int_equal(R->nnz, A->nnz);
    assert_true(hpls_csr_bandwidth(R) <= 2 * hpls_csr_bandwidth(A)); /* 30 -> at most 60 */
    /* P A P^T entry by entry */
    for (hpls_int k = 0; k < n; k++)
        for (hpls_int p = R->rowptr[k]; p < R->rowptr[k + 1]; p++) {
            hpls_int i = perm[k], j = perm[R->colind[p]], q = S->rowptr[i];
            while (q < S->rowptr[i + 1] && S->colind[q] != j)
                q++;
            assert_true(q < S->rowptr[i + 1] && S->val[q] == R->val[p]);
        }
    hpls_csr_destroy(S);
    hpls_csr_destroy(R);
    /* several components, isolated unknowns and an unsymmetric pattern */
    hpls_csr *U = random_csr(500, 500, 0.003, 4);
    hpls_int *pu = malloc(500 * sizeof *pu);
    assert_non_null(pu);
    assert_int_equal(hpls_rcm(U, pu), HPLS_OK);
    check_permutation(pu, 500);
    free(pu);
    hpls_csr_destroy(U);
    free(scramble);
    free(perm);
    hpls_csr_destroy(A);
}

static void rcm_solves_give_the_same_x(void **state)
{
    (void)state;
    const char *const specs[] = {"convdiff3d:nx=12,pe=10", "gas:n=3000,k=2"};
    const char *const methods[] = {"solver=bicgstab", "solver=gmres precond=ilu0",
                                   "solver=qtbicgstab qt_d=16", "solver=bicg format=qtree qt_d=64"};
    char opts[160], fmt[256];
    for (int m = 0; m < 2; m++) {
        hpls_csr *A = tu_gen(specs[m]);
        hpls_vec *b = tu_vec_random(A->nrows, 9), *x1, *x2;
        hpls_vec_create(A->nrows, &x1);
        hpls_vec_create(A->nrows, &x2);
        for (int k = 0; k < 4; k++) {
            snprintf(opts, sizeof opts, "%s tol=1e-13 maxiter=5000", methods[k]);
            hpls_info ref = solve(A, opts, b, x1, NULL, 0);
            snprintf(opts, sizeof opts, "%s tol=1e-13 maxiter=5000 reorder=rcm", methods[k]);
            hpls_info rc = solve(A, opts, b, x2, fmt, sizeof fmt);
            assert_non_null(strstr(fmt, "rcm: bandwidth"));
            assert_true(hpls_reason_converged(ref.reason) && hpls_reason_converged(rc.reason));
            assert_true(rc.relres <= 1e-12 && tu_relres(A, b, x2) <= 1e-12);
            assert_true(tu_relerr(x2, x1) <= 1e-10);
        }
        /* a given initial guess is permuted too: the solution as guess converges at once */
        hpls_solver *s;
        assert_int_equal(hpls_solver_create(&s), HPLS_OK);
        assert_int_equal(hpls_solver_set_options(s, "reorder=rcm initial_guess=given tol=1e-10"),
                         HPLS_OK);
        assert_int_equal(hpls_solver_setup(s, A), HPLS_OK);
        assert_int_equal(hpls_solver_solve(s, b, x2), HPLS_OK);
        hpls_info info;
        hpls_solver_get_info(s, &info);
        assert_int_equal(info.iterations, 0);
        hpls_solver_destroy(s);
        hpls_vec_destroy(b);
        hpls_vec_destroy(x1);
        hpls_vec_destroy(x2);
        hpls_csr_destroy(A);
    }
}

static void allocation_failures_leave_no_leak(void **state)
{
    (void)state;
    hpls_csr *A = tu_gen("gas:n=300,k=2");
    hpls_vec *b = tu_vec_const(A->nrows, 1.0), *x = tu_vec_const(A->nrows, 0.0);
    const char *const methods[] = {"solver=qtbicgstab qt_d=16",
                                   "solver=bicg format=qtree qt_d=8 reorder=rcm precond=jacobi"};
    for (int m = 0; m < 2; m++) {
        tu_solve_under_alloc_failures(A, b, x, methods[m]);
    }
    hpls_vec_destroy(b);
    hpls_vec_destroy(x);
    hpls_csr_destroy(A);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(spmv_equals_csr_on_generated_matrices),
        tu_data_test(spmv_equals_csr_on_real_matrices),
        cmocka_unit_test(spmv_is_repeatable_through_the_openmp_team),
        cmocka_unit_test(auto_d_follows_eq17_and_declines_when_x_fits),
        cmocka_unit_test(auto_format_keeps_the_fastest_of_its_candidates),
        cmocka_unit_test(long_rows_split_into_runs_and_forms_follow_the_bytes),
        cmocka_unit_test(random_generator_has_k_entries_and_a_dominant_diagonal),
        cmocka_unit_test(qtbicgstab_iterates_equal_bicgstab),
        cmocka_unit_test(format_qtree_serves_every_krylov_method),
        cmocka_unit_test(format_options_are_checked),
        cmocka_unit_test(rcm_is_a_permutation_that_narrows_the_band),
        cmocka_unit_test(rcm_solves_give_the_same_x),
        cmocka_unit_test(allocation_failures_leave_no_leak),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
