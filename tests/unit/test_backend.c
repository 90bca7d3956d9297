/* SPDX-License-Identifier: BSD-3-Clause */
/* test_backend.c: every method and preconditioner on every backend (cpu at 1,
 * 2, 3 threads; ref), each against ref; GMRES's CGS2 keeps its basis
 * orthogonal; reductions per iteration; a backend failure reaches the caller;
 * the thread count is the solver's own. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "solver.h"
#include "testutil.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The solve of one case on one backend: its history and solution. */
typedef struct run {
    hpls_info info;
    hpls_int nhist;
    double hist[21];
    hpls_vec *x;
} run;

static run solve_on(const hpls_csr *A, const hpls_dense *D, const hpls_vec *b, const char *opts,
                    const char *backend)
{
    char all[256];
    snprintf(all, sizeof all, "%s %s", opts, backend);
    hpls_solver *s;
    assert_int_equal(hpls_solver_create(&s), HPLS_OK);
    assert_int_equal(hpls_solver_set_options(s, all), HPLS_OK);
    hpls_status st = A ? hpls_solver_setup(s, A) : hpls_solver_setup_dense(s, D);
    if (st != HPLS_OK)
        fail_msg("%s: setup: %s", all, hpls_solver_message(s));
    run r = {0};
    assert_int_equal(hpls_vec_create(b->n, &r.x), HPLS_OK);
    if (hpls_solver_solve(s, b, r.x) != HPLS_OK)
        fail_msg("%s: solve: %s", all, hpls_solver_message(s));
    hpls_solver_get_info(s, &r.info);
    const double *rel;
    hpls_solver_history(s, &r.nhist, NULL, &rel, NULL);
    r.nhist = r.nhist < 21 ? r.nhist : 21;
    memcpy(r.hist, rel, (size_t)r.nhist * sizeof *rel);
    hpls_solver_destroy(s);
    return r;
}

/* One case on ref and on cpu at 1-3 threads: each converges to x = 1, and its
 * first 20 residuals equal ref's to 1e-12 relative (and, for the residuals
 * near convergence, to 1e-15 of ||b||, what the cancellation in b - A x leaves
 * of them).  bicgstabl: 1e-10, as its residuals inside a cycle are BiCG's,
 * which jump at a near breakdown (gas seed 3, l = 2: x5.5 at iteration 9,
 * where the backends' rounding differences grow x150 to 2e-12). */
static void check_case(const hpls_csr *A, const hpls_dense *D, const char *opts)
{
    double close = strstr(opts, "solver=bicgstabl ") ? 1e-10 : 1e-12;
    hpls_int n = A ? A->nrows : D->nrows;
    hpls_vec *ones = tu_vec_const(n, 1.0), *b;
    assert_int_equal(hpls_vec_create(n, &b), HPLS_OK);
    if (A)
        hpls_ref_spmv(1, A, ones->data, b->data);
    else
        for (hpls_int i = 0; i < n; i++) {
            double s = 0;
            for (hpls_int j = 0; j < n; j++)
                s += D->data[i * n + j];
            b->data[i] = s;
        }
    run ref = solve_on(A, D, b, opts, "backend=ref");
    const char *cpus[] = {"backend=cpu threads=1", "backend=cpu threads=2", "backend=cpu threads=3"};
    for (int k = 0; k < 4; k++) {
        run r = k == 3 ? ref : solve_on(A, D, b, opts, cpus[k]);
        const char *where = k == 3 ? "ref" : cpus[k];
        if (!hpls_reason_converged(r.info.reason) || !(r.info.relres <= 1e-7) ||
            !(tu_relerr(r.x, ones) <= 1e-4))
            fail_msg("%s on %s: %s after %lld iterations, relres %.3g, error %.3g", opts, where,
                     hpls_reason_str(r.info.reason), (long long)r.info.iterations,
                     r.info.relres, tu_relerr(r.x, ones));
        if (k == 3)
            break;
        if (r.nhist != ref.nhist && (r.nhist < 21 || ref.nhist < 21))
            fail_msg("%s on %s: %lld residuals recorded, ref %lld", opts, where,
                     (long long)r.nhist, (long long)ref.nhist);
        for (hpls_int i = 0; i < r.nhist; i++) /* relres: relative to ||b|| */
            if (!(fabs(r.hist[i] - ref.hist[i]) <= close * fabs(ref.hist[i]) + 1e-15))
                fail_msg("%s on %s: residual %lld is %.17g, ref's %.17g", opts, where,
                         (long long)i, r.hist[i], ref.hist[i]);
        hpls_vec_destroy(r.x);
    }
    hpls_vec_destroy(ref.x);
    hpls_vec_destroy(ones);
    hpls_vec_destroy(b);
}

/* opts, and the options whose default depends on the thread count (psize,
 * block, gspike_p) where flags say they apply, so every backend runs the same
 * method. */
static const char *fixed(const char *opts, unsigned flags, char *buf, size_t len)
{
    snprintf(buf, len, "%s%s%s%s", opts, flags & HPLS_M_PSIZE ? " psize=64" : "",
             flags & HPLS_M_BLOCK ? " block=500" : "", flags & HPLS_M_GSPIKE ? " gspike_p=4" : "");
    return buf;
}

/* Every method of the registry, on a matrix it is made for. */
static void every_method_agrees_with_ref_on_every_backend(void **state)
{
    (void)state;
    hpls_csr *gas = tu_gen("gas:n=3001,k=2,seed=3"), *spd = tu_gen("poisson2d:nx=40");
    hpls_csr *tri = tu_gen("tridiag:n=3001,seed=2");
    hpls_dense *D;
    hpls_vec *bd;
    assert_int_equal(hpls_gen_dense("dense-dd:n=200,seed=3", &D, &bd), HPLS_OK);
    for (int m = 0; m < hpls_nmethods; m++) {
        const hpls_method *me = &hpls_methods[m];
        const char *name = me->name;
        char opts[128], buf[256];
        snprintf(opts, sizeof opts, "solver=%s tol=1e-10 maxiter=20000", name);
        fixed(opts, me->flags, buf, sizeof buf);
        const hpls_csr *A = gas;
        if (me->flags & HPLS_M_DIRECT)
            A = tri;
        else if (!strcmp(name, "cg") || !strcmp(name, "minres"))
            A = spd;
        check_case(A, NULL, buf);
        if ((me->flags & HPLS_M_DENSE) && !(me->flags & (HPLS_M_PSIZE | HPLS_M_DIAG)))
            continue; /* the dense path of the Krylov methods is the operator's: below */
        if (me->flags & HPLS_M_DENSE)
            check_case(NULL, D, buf);
    }
    check_case(NULL, D, "solver=bicgstab tol=1e-10");
    hpls_vec_destroy(bd);
    hpls_dense_destroy(D);
    hpls_csr_destroy(gas);
    hpls_csr_destroy(spd);
    hpls_csr_destroy(tri);
}

/* Every preconditioner, applied (bicgstab) and transposed (bicg) where it has
 * M^-T, and with a quad-tree operator and a reordering. */
static void every_preconditioner_agrees_with_ref_on_every_backend(void **state)
{
    (void)state;
    hpls_csr *A = tu_gen("gas:n=3001,k=2,seed=5"), *spd = tu_gen("poisson2d:nx=40");
    for (int p = 0; p < hpls_npc_types; p++) {
        const char *name = hpls_pc_types[p].name;
        if (!strcmp(name, "dic"))
            continue; /* for symmetric A: with cg below */
        char opts[128], buf[256];
        snprintf(opts, sizeof opts, "solver=bicgstab precond=%s tol=1e-10", name);
        check_case(A, NULL, fixed(opts, hpls_pc_types[p].flags, buf, sizeof buf));
        if (strcmp(name, "pjg") != 0) { /* no M^-T */
            snprintf(opts, sizeof opts, "solver=bicg precond=%s tol=1e-10", name);
            check_case(A, NULL, fixed(opts, hpls_pc_types[p].flags, buf, sizeof buf));
        }
    }
    check_case(spd, NULL, "solver=cg precond=dic tol=1e-10");
    check_case(A, NULL, "solver=qtbicgstab qt_d=256 tol=1e-10");
    check_case(A, NULL, "solver=gmres precond=ilu0 reorder=rcm tol=1e-10");
    check_case(A, NULL, "solver=gmres precond=jacobi pc_side=left tol=1e-10");
    hpls_csr_destroy(A);
    hpls_csr_destroy(spd);
}

/* max |(V^T V - I)_ij| of k vectors of the backend. */
static double orthogonality_loss(hpls_backend *be, hpls_int n, int k, hpls_dvec *const *V)
{
    double loss = 0, h[128];
    for (int i = 0; i < k; i++) {
        hpls_v_mdot(be, n, k, (const hpls_dvec *const *)V, V[i], h);
        for (int j = 0; j < k; j++)
            loss = fmax(loss, fabs(h[j] - (i == j ? 1.0 : 0.0)));
    }
    return loss;
}

/* The control: the Arnoldi basis of A for m steps from b, orthogonalised by one
 * classical Gram-Schmidt pass; returns its loss of orthogonality. */
static double cgs1_loss(const hpls_csr *A, const hpls_vec *b, int m)
{
    hpls_backend *be;
    assert_int_equal(hpls_backend_create(HPLS_BACKEND_CPU, 2, &be), HPLS_OK);
    hpls_int n = A->nrows;
    hpls_dvec *V[128];
    double h[130], c[130];
    assert_int_equal(hpls_be_vector(be, n, b->data, &V[0]), HPLS_OK);
    hpls_v_scale(be, n, 1.0 / hpls_v_nrm2(be, n, V[0]), V[0]);
    int k = 1;
    for (; k <= m; k++) {
        assert_int_equal(be->v->alloc(be, n, &V[k]), HPLS_OK);
        hpls_k_spmv(2, A, hpls_v_host(be, V[k - 1]), hpls_v_host(be, V[k]));
        hpls_v_mdot(be, n, k, (const hpls_dvec *const *)V, V[k], h);
        for (int i = 0; i < k; i++)
            c[i] = -h[i];
        hpls_v_maxpy(be, n, k, c, (const hpls_dvec *const *)V, 1.0, V[k]);
        hpls_v_scale(be, n, 1.0 / hpls_v_nrm2(be, n, V[k]), V[k]);
    }
    double loss = orthogonality_loss(be, n, k, V);
    for (int i = 0; i < k; i++)
        be->v->release(be, V[i]);
    hpls_backend_destroy(be);
    return loss;
}

/* The loss of orthogonality of GMRES's basis after one cycle of m steps from
 * b (x0 = 0), on backend opts. */
static double gmres_loss(const hpls_csr *A, const hpls_vec *b, int m, const char *opts)
{
    char all[256];
    snprintf(all, sizeof all, "solver=gmres restart=%d maxiter=%d tol=1e-300 %s", m, m, opts);
    hpls_solver *s;
    hpls_vec *x;
    assert_int_equal(hpls_vec_create(b->n, &x), HPLS_OK);
    assert_int_equal(hpls_solver_create(&s), HPLS_OK);
    assert_int_equal(hpls_solver_set_options(s, all), HPLS_OK);
    assert_int_equal(hpls_solver_setup(s, A), HPLS_OK);
    assert_int_equal(hpls_solver_solve(s, b, x), HPLS_OK);
    hpls_info info;
    hpls_solver_get_info(s, &info);
    assert_int_equal(info.iterations, m); /* one whole cycle, no breakdown */
    double loss;
    assert_int_equal(hpls_gmres_basis_loss(s, m, &loss), HPLS_OK);
    hpls_solver_destroy(s);
    hpls_vec_destroy(x);
    return loss;
}

/* GMRES's basis (CGS2, its second pass delayed a step) stays orthogonal to
 * ||I - V^T V|| <= 1e-12 on matrices where one classical pass loses
 * orthogonality (the control, which shows the test can fail), on cpu and ref. */
static void gmres_basis_stays_orthogonal_on_hard_matrices(void **state)
{
    (void)state;
    const char *files[] = {"matrices/fs_183_1.mtx", "matrices/west0479.mtx",
                           "matrices/Chebyshev2.mtx"};
    char path[4096];
    int tried = 0;
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        if (!tu_data_path(files[f], path, sizeof path))
            continue;
        hpls_csr *A;
        assert_int_equal(hpls_mm_read_csr(path, &A), HPLS_OK);
        hpls_vec *b = tu_vec_random(A->nrows, 8);
        double once = cgs1_loss(A, b, 100);
        for (int be = 0; be < 2; be++) {
            double twice = gmres_loss(A, b, 100, be ? "backend=ref" : "backend=cpu threads=2");
            if (!(twice <= 1e-12))
                fail_msg("%s on %s: GMRES's basis lost orthogonality: %.3g", files[f],
                         be ? "ref" : "cpu", twice);
        }
        if (!(once > 1e-8))
            fail_msg("%s: one pass kept orthogonality (%.3g): not a hard matrix", files[f], once);
        hpls_vec_destroy(b);
        hpls_csr_destroy(A);
        tried++;
    }
    /* always: a generated nonnormal matrix, convection-dominated */
    hpls_csr *A = tu_gen("convdiff3d:nx=12,pe=1000");
    hpls_vec *b = tu_vec_random(A->nrows, 8);
    double twice = gmres_loss(A, b, 100, "backend=cpu threads=2");
    if (!(twice <= 1e-12))
        fail_msg("convdiff3d: GMRES's basis lost orthogonality: %.3g", twice);
    hpls_vec_destroy(b);
    hpls_csr_destroy(A);
    if (tried == 0)
        print_message("no matrix of ../shared/data found: the generated one only\n");
}

static int calls;
static int fail_at;

static hpls_status count_reductions(hpls_backend *be, double *vals, int k, hpls_red_op op)
{
    (void)be;
    (void)vals;
    (void)k;
    (void)op;
    return ++calls == fail_at ? HPLS_ERR_IO : HPLS_OK;
}

/* Reductions (allreduces under MPI) of maxiter iterations of a method. */
static int reductions(const hpls_csr *A, const hpls_vec *b, const char *opts, int maxiter)
{
    char all[256];
    snprintf(all, sizeof all, "%s tol=1e-300 maxiter=%d backend=cpu", opts, maxiter);
    hpls_solver *s;
    hpls_vec *x;
    assert_int_equal(hpls_vec_create(b->n, &x), HPLS_OK);
    assert_int_equal(hpls_solver_create(&s), HPLS_OK);
    assert_int_equal(hpls_solver_set_options(s, all), HPLS_OK);
    assert_int_equal(hpls_solver_setup(s, A), HPLS_OK);
    s->be->reduce = count_reductions;
    calls = 0;
    fail_at = -1;
    assert_int_equal(hpls_solver_solve(s, b, x), HPLS_OK);
    hpls_info info;
    hpls_solver_get_info(s, &info);
    assert_int_equal(info.iterations, maxiter);
    hpls_solver_destroy(s);
    hpls_vec_destroy(x);
    return calls;
}

/* BiCGSTAB: 3 reductions per iteration (fused kernels); GMRES: 1 per Arnoldi
 * step (CGS2 with the second pass delayed, the norm by Pythagoras); each count
 * found as the difference of two runs. */
static void reductions_per_iteration(void **state)
{
    (void)state;
    hpls_csr *A = tu_gen("convdiff3d:nx=10,pe=10");
    hpls_vec *b = tu_vec_random(A->nrows, 3);
    assert_int_equal(reductions(A, b, "solver=bicgstab", 20) - reductions(A, b, "solver=bicgstab", 10),
                     30);
    assert_int_equal(reductions(A, b, "solver=gmres restart=40", 25) -
                         reductions(A, b, "solver=gmres restart=40", 5),
                     20);
    hpls_vec_destroy(b);
    hpls_csr_destroy(A);
}

/* A failure inside the backend (here its reduction, as an MPI error would be)
 * stops every method with that status and its message, not with an answer. */
static void a_backend_failure_reaches_the_caller(void **state)
{
    (void)state;
    hpls_csr *gas = tu_gen("gas:n=2000,k=2"), *tri = tu_gen("tridiag:n=2000");
    hpls_vec *b = tu_vec_const(2000, 1.0), *x;
    assert_int_equal(hpls_vec_create(2000, &x), HPLS_OK);
    for (int m = 0; m < hpls_nmethods; m++) {
        const hpls_method *me = &hpls_methods[m];
        char opts[128];
        snprintf(opts, sizeof opts, "solver=%s precond=%s", me->name,
                 me->flags & HPLS_M_PRECOND ? "jacobi" : "none");
        hpls_solver *s;
        assert_int_equal(hpls_solver_create(&s), HPLS_OK);
        assert_int_equal(hpls_solver_set_options(s, opts), HPLS_OK);
        assert_int_equal(hpls_solver_setup(s, me->flags & HPLS_M_DIRECT ? tri : gas), HPLS_OK);
        s->be->reduce = count_reductions;
        calls = 0;
        fail_at = 3;
        hpls_status st = hpls_solver_solve(s, b, x);
        if (st != HPLS_ERR_IO || !strstr(hpls_solver_message(s), "reduction"))
            fail_msg("%s: status %s, message \"%s\"", me->name, hpls_strerror(st),
                     hpls_solver_message(s));
        hpls_info info;
        hpls_solver_get_info(s, &info);
        assert_false(hpls_reason_converged(info.reason));
        hpls_solver_destroy(s);
    }
    hpls_vec_destroy(b);
    hpls_vec_destroy(x);
    hpls_csr_destroy(gas);
    hpls_csr_destroy(tri);
}

/* threads is the solver's own: OpenMP's setting of the caller is unchanged,
 * and two solvers with different counts each run on theirs. */
static void the_thread_count_belongs_to_the_solver(void **state)
{
    (void)state;
    if (tu_on_ref())
        skip(); /* ref runs on one thread whatever threads says */
    hpls_csr *A = tu_gen("gas:n=20000,k=2");
    hpls_vec *b = tu_vec_const(A->nrows, 1.0), *x;
    assert_int_equal(hpls_vec_create(A->nrows, &x), HPLS_OK);
    int before = omp_get_max_threads();
    hpls_solver *s1, *s3;
    hpls_solver_create(&s1);
    hpls_solver_create(&s3);
    assert_int_equal(hpls_solver_set_options(s1, "threads=1 precond=dilu"), HPLS_OK);
    assert_int_equal(hpls_solver_set_options(s3, "threads=3 precond=dilu"), HPLS_OK);
    assert_int_equal(hpls_solver_setup(s1, A), HPLS_OK);
    assert_int_equal(hpls_solver_setup(s3, A), HPLS_OK);
    assert_int_equal(hpls_solver_solve(s3, b, x), HPLS_OK);
    assert_int_equal(hpls_solver_solve(s1, b, x), HPLS_OK);
    assert_int_equal(omp_get_max_threads(), before);
    hpls_info i1, i3;
    hpls_solver_get_info(s1, &i1);
    hpls_solver_get_info(s3, &i3);
    assert_int_equal(i1.threads, 1);
    assert_int_equal(i3.threads, 3);
    assert_string_equal(hpls_solver_trisolve(s1), "auto: serial"); /* decided by 1 thread */
    hpls_solver_destroy(s1);
    hpls_solver_destroy(s3);
    hpls_vec_destroy(b);
    hpls_vec_destroy(x);
    hpls_csr_destroy(A);
}

/* HPLS_OPTIONS sets every solver's defaults; a bad one is an error naming it. */
static void hpls_options_sets_defaults(void **state)
{
    (void)state;
    const char *saved = getenv("HPLS_OPTIONS");
    char keep[256] = "";
    if (saved)
        snprintf(keep, sizeof keep, "%s", saved);
    hpls_solver *s = NULL;
    setenv("HPLS_OPTIONS", "backend=ref omega=1.5", 1);
    assert_int_equal(hpls_solver_create(&s), HPLS_OK);
    assert_string_equal(hpls_solver_get_option(s, "backend"), "ref");
    hpls_csr *A = tu_gen("gas:n=100");
    assert_int_equal(hpls_solver_setup(s, A), HPLS_OK); /* omega: no error for bicgstab */
    hpls_solver_destroy(s);
    s = NULL;
    setenv("HPLS_OPTIONS", "backend=gpu", 1);
    assert_int_equal(hpls_solver_create(&s), HPLS_ERR_OPTION);
    assert_null(s);
    assert_non_null(strstr(hpls_last_error(), "HPLS_OPTIONS"));
    assert_non_null(strstr(hpls_last_error(), "backend"));
    if (saved)
        setenv("HPLS_OPTIONS", keep, 1);
    else
        unsetenv("HPLS_OPTIONS");
    hpls_csr_destroy(A);
}

/* threads=0 (the default) is automatic: one thread below HPLS_ONE_THREAD_NNZ
 * stored entries, OpenMP's default from there (gas k=1: nnz = 4n - 2), and
 * the count is what hpls_info reports; threads=N is kept on any size. */
static void threads_0_runs_small_systems_on_one_thread(void **state)
{
    (void)state;
    if (tu_on_ref())
        skip(); /* ref runs on one thread whatever threads says */
    int before = omp_get_max_threads();
    omp_set_num_threads(3); /* OpenMP's default here: 3, so that it shows */
    const char *specs[2] = {"gas:n=250000,k=1", "gas:n=250001,k=1"};
    const char *opts[3] = {"threads=0", "threads=2", "threads=1"};
    int want[2][3] = {{1, 2, 1}, {3, 2, 1}};
    for (int m = 0; m < 2; m++) {
        hpls_csr *A = tu_gen(specs[m]);
        assert_true(m == 0 ? A->nnz < HPLS_ONE_THREAD_NNZ : A->nnz >= HPLS_ONE_THREAD_NNZ);
        for (int k = 0; k < 3; k++) {
            hpls_solver *s;
            hpls_info info;
            hpls_solver_create(&s);
            assert_int_equal(hpls_solver_set_options(s, opts[k]), HPLS_OK);
            assert_int_equal(hpls_solver_setup(s, A), HPLS_OK);
            hpls_solver_get_info(s, &info);
            assert_int_equal(info.threads, want[m][k]);
            hpls_solver_destroy(s);
        }
        hpls_csr_destroy(A);
    }
    omp_set_num_threads(before);
}

/* The backends by name: HPLS_BACKEND_NAMES (the option's choices) lists
 * backend.c's kinds in index order; an index past them is an argument error,
 * and a kind not built in says so by name. */
static void backends_are_registered_by_name(void **state)
{
    (void)state;
    char names[64] = "";
    for (int k = 0; k < HPLS_BACKEND_COUNT; k++)
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", k ? "," : "",
                 hpls_backend_kind_name(k));
    assert_string_equal(names, HPLS_BACKEND_NAMES);
    assert_null(hpls_backend_kind_name(HPLS_BACKEND_COUNT));
    hpls_backend *be = (hpls_backend *)1;
    assert_int_equal(hpls_backend_create(HPLS_BACKEND_COUNT, 1, &be), HPLS_ERR_ARG);
    assert_null(be);
    assert_non_null(strstr(hpls_last_error(), "not one of cpu,ref,opencl,cuda"));
    for (int k = 0; k < HPLS_BACKEND_COUNT; k++) {
        hpls_status st = hpls_backend_create(k, 1, &be);
        if (st == HPLS_OK) {
            assert_string_equal(be->name, hpls_backend_kind_name(k));
            hpls_backend_destroy(be);
        } else if (!strstr(hpls_last_error(), hpls_backend_kind_name(k))) {
            fail_msg("backend %s: status %d, message without its name: %s",
                     hpls_backend_kind_name(k), (int)st, hpls_last_error());
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_method_agrees_with_ref_on_every_backend),
        cmocka_unit_test(every_preconditioner_agrees_with_ref_on_every_backend),
        cmocka_unit_test(gmres_basis_stays_orthogonal_on_hard_matrices),
        cmocka_unit_test(reductions_per_iteration),
        cmocka_unit_test(a_backend_failure_reaches_the_caller),
        cmocka_unit_test(the_thread_count_belongs_to_the_solver),
        cmocka_unit_test(threads_0_runs_small_systems_on_one_thread),
        cmocka_unit_test(hpls_options_sets_defaults),
        cmocka_unit_test(backends_are_registered_by_name),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
