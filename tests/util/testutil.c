/* SPDX-License-Identifier: BSD-3-Clause */
/* testutil.c: helpers shared by the unit tests. */
#define _POSIX_C_SOURCE 200809L /* access, dlopen */
#include "testutil.h"

#include "solver.h"

#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Before main: the filters of HPLS_TEST_ONLY / HPLS_TEST_SKIP (testutil.h). */
__attribute__((constructor)) static void select_tests_from_environment(void)
{
    const char *only = getenv("HPLS_TEST_ONLY"), *skip = getenv("HPLS_TEST_SKIP");
    if (only)
        cmocka_set_test_filter(only);
    if (skip)
        cmocka_set_skip_filter(skip);
}

int tu_data_path(const char *rel, char *buf, size_t len)
{
    const char *dir = getenv("HPLS_DATA_DIR");
    if (!dir)
        dir = "../shared/data";
    snprintf(buf, len, "%s/%s", dir, rel);
    return access(buf, R_OK) == 0;
}

const char *tu_tmp_path(const char *name, char *buf, size_t len)
{
    const char *dir = getenv("HPLS_TMP");
    snprintf(buf, len, "%s/%s", dir ? dir : ".", name);
    return buf;
}

const char *tu_write_file(const char *name, const char *text, char *buf, size_t len)
{
    tu_tmp_path(name, buf, len);
    FILE *f = fopen(buf, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return buf;
}

hpls_solver *tu_setup(const hpls_csr *A, const char *options)
{
    hpls_solver *s;
    assert_int_equal(hpls_solver_create(&s), HPLS_OK);
    assert_int_equal(hpls_solver_set_options(s, options), HPLS_OK);
    if (hpls_solver_setup(s, A) != HPLS_OK)
        fail_msg("setup with %s: %s", options, hpls_solver_message(s));
    return s;
}

hpls_info tu_run(hpls_solver *s, const hpls_vec *b, hpls_vec *x)
{
    assert_int_equal(hpls_solver_solve(s, b, x), HPLS_OK);
    hpls_info info;
    assert_int_equal(hpls_solver_get_info(s, &info), HPLS_OK);
    return info;
}

hpls_int tu_count_iterations(const hpls_csr *A, const char *options, double *relres)
{
    hpls_vec *ones = tu_vec_const(A->nrows, 1.0), *b = tu_rhs(A, ones), *x;
    assert_int_equal(hpls_vec_create(A->nrows, &x), HPLS_OK);
    hpls_solver *s = tu_setup(A, options);
    hpls_info info = tu_run(s, b, x);
    *relres = hpls_reason_converged(info.reason) ? tu_relres(A, b, x) : HUGE_VAL;
    hpls_solver_destroy(s);
    hpls_vec_destroy(ones);
    hpls_vec_destroy(b);
    hpls_vec_destroy(x);
    return info.iterations;
}

double tu_relres(const hpls_csr *A, const hpls_vec *b, const hpls_vec *x)
{
    hpls_real *r = malloc((size_t)(A->nrows ? A->nrows : 1) * sizeof *r);
    assert_non_null(r);
    double rn = sqrt(hpls_ref_residual(1, A, b->data, x->data, r)), bn = 0;
    for (hpls_int i = 0; i < b->n; i++)
        bn += b->data[i] * b->data[i];
    bn = sqrt(bn);
    free(r);
    return bn > 0 ? rn / bn : rn;
}

double tu_relerr(const hpls_vec *x, const hpls_vec *y)
{
    double m = 0, s = 1;
    for (hpls_int i = 0; i < x->n; i++) {
        m = fmax(m, fabs(x->data[i] - y->data[i]));
        s = fmax(s, fabs(y->data[i]));
    }
    return m / s;
}

hpls_vec *tu_rhs(const hpls_csr *A, const hpls_vec *xtrue)
{
    hpls_vec *b;
    assert_int_equal(hpls_vec_create(A->nrows, &b), HPLS_OK);
    hpls_ref_spmv(1, A, xtrue->data, b->data);
    return b;
}

hpls_csr *tu_gen(const char *spec)
{
    hpls_csr *A = NULL;
    assert_int_equal(hpls_gen_csr(spec, &A, NULL), HPLS_OK);
    return A;
}

hpls_vec *tu_vec_const(hpls_int n, double a)
{
    hpls_vec *v;
    assert_int_equal(hpls_vec_create(n, &v), HPLS_OK);
    for (hpls_int i = 0; i < n; i++)
        v->data[i] = a;
    return v;
}

hpls_vec *tu_vec_random(hpls_int n, unsigned seed)
{
    hpls_vec *v;
    assert_int_equal(hpls_vec_create(n, &v), HPLS_OK);
    uint64_t s = 0x9e3779b97f4a7c15ull * (seed + 1);
    for (hpls_int i = 0; i < n; i++) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        v->data[i] = (double)(s >> 11) / 4503599627370496.0 - 1.0;
    }
    return v;
}

void tu_solve_under_alloc_failures(const hpls_csr *A, const hpls_vec *b, hpls_vec *x,
                                   const char *options)
{
    size_t n = (size_t)A->nrows, nnz = (size_t)A->nnz;
    double *val = malloc(nnz * sizeof *val + 1), *b0 = malloc(n * sizeof *b0 + 1),
           *x0 = malloc(n * sizeof *x0 + 1);
    assert_true(val && b0 && x0);
    memcpy(val, A->val, nnz * sizeof *val);
    memcpy(b0, b->data, n * sizeof *b0);
    memcpy(x0, x->data, n * sizeof *x0);
    for (long k = 1;; k++) {
        hpls_solver *s = NULL;
        memcpy(x->data, x0, n * sizeof *x0);
        hpls_alloc_fail_at(k);
        hpls_status st = hpls_solver_create(&s);
        if (st == HPLS_OK)
            st = hpls_solver_set_options(s, options);
        if (st == HPLS_OK)
            st = hpls_solver_setup(s, A);
        if (st == HPLS_OK)
            st = hpls_solver_solve(s, b, x);
        long made = hpls_alloc_fail_at(0);
        hpls_solver_destroy(s);
        if (st == HPLS_OK && made < k)
            break;
        if (st != HPLS_OK && st != HPLS_ERR_NOMEM)
            fail_msg("%s: allocation %ld failing gave \"%s\"", options, k, hpls_strerror(st));
        if (st != HPLS_OK &&
            (memcmp(val, A->val, nnz * sizeof *val) || memcmp(b0, b->data, n * sizeof *b0) ||
             memcmp(x0, x->data, n * sizeof *x0)))
            fail_msg("%s: allocation %ld failing changed the caller's A, b or x", options, k);
        assert_true(k < 5000);
    }
    free(val);
    free(b0);
    free(x0);
}

void tu_pc_apply(const hpls_solver *s, int transpose, const hpls_real *r, hpls_real *z)
{
    hpls_backend *be = s->be;
    hpls_int n = s->op.n;
    hpls_dvec *rv, *zv;
    assert_int_equal(hpls_be_vector(be, n, r, &rv), HPLS_OK);
    assert_int_equal(be->v->alloc(be, n, &zv), HPLS_OK);
    const hpls_dvec *out = transpose ? hpls_pc_apply_t(s, rv, zv) : hpls_pc_apply(s, rv, zv);
    be->v->download(be, n, out, z);
    be->v->release(be, rv);
    be->v->release(be, zv);
    if (be->err != HPLS_OK)
        fail_msg("preconditioner apply: %s", be->msg);
}

int tu_on_ref(void)
{
    const char *env = getenv("HPLS_OPTIONS");
    return env && strstr(env, "backend=ref") != NULL;
}

int tu_gpu_present(const char **why)
{
    const char *claim = getenv("HPLS_TEST_GPU");
    *why = "HPLS_TEST_GPU=1";
    if (claim && strcmp(claim, "1") == 0)
        return 1;
    *why = "/dev/nvidia0";
    if (access("/dev/nvidia0", F_OK) == 0)
        return 1;
    *why = "cuInit and cuDeviceGetCount of libcuda.so.1";
    void *so = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!so)
        return 0;
    int (*init)(unsigned) = NULL, (*count)(int *) = NULL;
    *(void **)&init = dlsym(so, "cuInit"); /* CUresult cuInit(unsigned int) */
    *(void **)&count = dlsym(so, "cuDeviceGetCount");
    int n = 0, found = init && count && init(0) == 0 && count(&n) == 0 && n > 0;
    dlclose(so);
    return found;
}
