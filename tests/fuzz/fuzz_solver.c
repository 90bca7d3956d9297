/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_solver.c: libFuzzer target for hpls_solver_setup + hpls_solver_solve on
 * small fuzzed matrices, with every registered method and preconditioner (read
 * from the registry, so a new method is fuzzed without a change here), the CSR
 * and the dense setup, and the tridiagonal direct solvers' own API.
 *
 * Input bytes, read in order (missing bytes read as 0):
 *   0 method (index into hpls_methods; the next multiple up, on the ref backend)
 *   1 preconditioner (hpls_pc_types)
 *   2 flags: 1 dense setup, 2 b = A*ones (else ones), 4 initial_guess=given,
 *     8 add a diagonal of value byte 5, 16 reorder=rcm or matching and a
 *     scale (option byte bits 8, 64, 128), 32 format=qtree,
 *     64 pc_side=left, 128 the tridiagonal API instead of the solver
 *   3 n = 1 + byte % 64                     4 option values (see set_options)
 *   5 the added diagonal's value (a value byte, below)
 *   6.. entries, 3 bytes each: row, column, value byte
 * A value byte picks from a table of edge cases (0, -0, huge, tiny, subnormal,
 * NaN, Inf, negative) or, above it, (v - 128) / 8.
 * Properties: no crash, sanitizer report or hang (maxiter is 50); any status but
 * HPLS_ERR_INTERNAL (a bug; on ref, a vector the method did not get from the
 * backend) may come back, with a message when it is not OK; when the solve is OK and the
 * reason is a convergence, x is finite and so is the recomputed residual. */
#include "fuzz_common.h"

#include "solver.h"

#include <math.h>
#include <omp.h>
#include <string.h>

enum { NMAX = 64, MAXIT = 50 };

typedef struct input {
    const uint8_t *p;
    size_t left;
} input;

static unsigned next(input *in)
{
    if (in->left == 0)
        return 0;
    in->left--;
    return *in->p++;
}

static double value(unsigned v)
{
    static const double edge[] = {0.0,    -0.0,  1.0, -1.0,     1e300,     -1e300, 1e-300, -1e-300,
                                  5e-324, 1e308, NAN, INFINITY, -INFINITY, 1e-8,   4.0,    -4.0};
    enum { NEDGE = sizeof edge / sizeof edge[0] };
    return v < NEDGE ? edge[v] : ((double)v - 128.0) / 8.0;
}

/* Options from byte o (and the flags): each method sees only those it uses,
 * since an option that does not apply is an error the fuzzer need not hit
 * every time (it still does: bit 7 of o sets them all). */
static void set_options(hpls_solver *s, unsigned flags, unsigned o, hpls_int n)
{
    const hpls_method *m = s->opt.method;
    unsigned uses = m->flags | ((m->flags & HPLS_M_PRECOND) ? s->opt.pc_type->flags : 0);
    int all = (o & 128) != 0;
    char buf[64];
    static const char *const omega[] = {"1", "0.5", "1.5", "1.99"};
    static const char *const tol[] = {"1e-8", "0", "1e-2", "1e-14"};
    static const char *const tridiag[] = {"thomas", "cr", "gspike", "lapack"};
    static const char *const trisolve[] = {"serial", "levels", "syncfree", "auto"};
    snprintf(buf, sizeof buf, "tol=%s", tol[o & 3]);
    hpls_solver_set_option(s, buf);
    if (o & 4)
        hpls_solver_set_option(s, "rtol_ref=r0");
    if (all || (uses & HPLS_M_OMEGA)) {
        snprintf(buf, sizeof buf, "omega=%s", omega[(o >> 3) & 3]);
        hpls_solver_set_option(s, buf);
    }
    if (all || (uses & HPLS_M_RESTART)) {
        snprintf(buf, sizeof buf, "restart=%u", 1 + (o >> 2) % 40);
        hpls_solver_set_option(s, buf);
    }
    if (all || (uses & HPLS_M_PSIZE)) {
        snprintf(buf, sizeof buf, "psize=%lld sweeps=%u", (long long)((o >> 1) % (n + 1)),
                 1 + (o >> 5) % 3);
        hpls_solver_set_options(s, buf);
    }
    if (all || (uses & HPLS_M_TRIDIAG)) {
        snprintf(buf, sizeof buf, "tridiag=%s", tridiag[(o >> 3) & 3]);
        hpls_solver_set_option(s, buf);
    }
    if (all || (uses & HPLS_M_BLOCK)) {
        snprintf(buf, sizeof buf, "block=%lld", (long long)((o >> 2) % (n + 1)));
        hpls_solver_set_option(s, buf);
    }
    if (all || (uses & HPLS_M_GSPIKE)) {
        snprintf(buf, sizeof buf, "gspike_p=%u gspike_delta=%s", (o >> 1) % 9,
                 (o & 64) ? "0" : "1e-6");
        hpls_solver_set_options(s, buf);
    }
    if (all || (uses & HPLS_M_XTOL))
        hpls_solver_set_option(s, (o & 32) ? "xtol=1e-10" : "xtol=0");
    if (all || (uses & HPLS_M_TRISOLVE)) {
        snprintf(buf, sizeof buf, "trisolve=%s shift=%s", trisolve[(o >> 2) & 3],
                 (o & 16) ? "0.1" : "0");
        hpls_solver_set_options(s, buf);
    }
    if (flags & 32) {
        snprintf(buf, sizeof buf, "format=qtree qt_d=%u", (o >> 4) % 5);
        hpls_solver_set_options(s, buf);
    }
    if (flags & 16) {
        static const char *const scale[] = {"none", "ruiz", "matching", "matching"};
        snprintf(buf, sizeof buf, "reorder=%s scale=%s", (o & 8) ? "matching" : "rcm",
                 scale[(o >> 6) & 3]);
        hpls_solver_set_options(s, buf);
    }
    if (flags & 64)
        hpls_solver_set_option(s, "pc_side=left");
    if (flags & 4)
        hpls_solver_set_option(s, "initial_guess=given");
    snprintf(buf, sizeof buf, "maxiter=%d", MAXIT);
    FUZZ_CHECK(hpls_solver_set_option(s, buf) == HPLS_OK, "maxiter rejected");
    /* a method's stagnation test may not outlast maxiter: make it reachable */
    hpls_solver_set_option(s, (o & 1) ? "stag_window=5" : "stag_window=500");
}

static void check_solution(const hpls_solver *s, const hpls_vec *x)
{
    hpls_info info;
    FUZZ_CHECK(hpls_solver_get_info(s, &info) == HPLS_OK, "get_info failed");
    if (!hpls_reason_converged(info.reason))
        return;
    for (hpls_int i = 0; i < x->n; i++)
        FUZZ_CHECK(isfinite(x->data[i]), "%s converged (%s) with x[%lld] = %g", s->opt.method->name,
                   hpls_reason_str(info.reason), (long long)i, x->data[i]);
    FUZZ_CHECK(isfinite(info.resnorm) && isfinite(info.relres), "%s converged, residual %g",
               s->opt.method->name, info.resnorm);
}

/* The solver path: CSR (or dense) A, setup, solve twice (the setup is reused). */
static void run_solver(unsigned mi, unsigned pi, unsigned flags, unsigned o, hpls_int n,
                       const hpls_csr *A)
{
    hpls_solver *s;
    FUZZ_CHECK(hpls_solver_create(&s) == HPLS_OK, "create failed");
    char buf[64];
    snprintf(buf, sizeof buf, "solver=%s", hpls_methods[mi % hpls_nmethods].name);
    FUZZ_CHECK(hpls_solver_set_option(s, buf) == HPLS_OK, "%s rejected", buf);
    if (hpls_methods[mi % hpls_nmethods].flags & HPLS_M_PRECOND || (o & 128)) {
        snprintf(buf, sizeof buf, "precond=%s", hpls_pc_types[pi % hpls_npc_types].name);
        FUZZ_CHECK(hpls_solver_set_option(s, buf) == HPLS_OK, "%s rejected", buf);
    }
    set_options(s, flags, o, n);
    if ((mi / hpls_nmethods) & 1) /* the checking backend: a stray vector is a report */
        hpls_solver_set_option(s, "backend=ref");
    hpls_dense *D = NULL;
    hpls_status st;
    if (flags & 1) {
        FUZZ_CHECK(hpls_dense_create(n, n, &D) == HPLS_OK, "dense_create failed");
        for (hpls_int i = 0; i < n; i++)
            for (hpls_int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++)
                D->data[i * n + A->colind[p]] = A->val[p];
        st = hpls_solver_setup_dense(s, D);
    } else {
        st = hpls_solver_setup(s, A);
    }
    FUZZ_CHECK(st != HPLS_ERR_INTERNAL, "setup: internal error: %s", hpls_solver_message(s));
    if (st != HPLS_OK) {
        FUZZ_CHECK(hpls_solver_message(s)[0], "setup failed (%s) without a message",
                   hpls_strerror(st));
        goto destroy;
    }
    hpls_vec *b, *x;
    FUZZ_CHECK(hpls_vec_create(n, &b) == HPLS_OK && hpls_vec_create(n, &x) == HPLS_OK,
               "vec_create failed");
    for (hpls_int i = 0; i < n; i++)
        x->data[i] = 1.0;
    if (flags & 2)
        hpls_csr_spmv(A, x, b); /* the solution is ones (unless A overflows) */
    else
        memcpy(b->data, x->data, (size_t)n * sizeof *b->data);
    for (int rep = 0; rep < 2; rep++) {
        if (flags & 4)
            for (hpls_int i = 0; i < n; i++)
                x->data[i] = 0.5; /* the guess: not the solution */
        if (rep == 1 && !D) { /* the second solve after a values-only update */
            st = hpls_solver_update_values(s, A);
            FUZZ_CHECK(st != HPLS_ERR_INTERNAL, "update_values: internal error: %s",
                       hpls_solver_message(s));
            if (st != HPLS_OK)
                break;
        }
        st = hpls_solver_solve(s, b, x);
        FUZZ_CHECK(st != HPLS_ERR_INTERNAL, "solve: internal error: %s", hpls_solver_message(s));
        if (st == HPLS_OK)
            check_solution(s, x);
        else
            FUZZ_CHECK(hpls_solver_message(s)[0], "solve failed (%s) without a message",
                       hpls_strerror(st));
    }
    if (st == HPLS_OK) { /* two right-hand sides at once: b and 2 b */
        hpls_real *B = malloc(2 * (size_t)n * sizeof *B), *X = malloc(2 * (size_t)n * sizeof *X);
        hpls_info inf[2];
        FUZZ_CHECK(B && X, "malloc failed");
        for (hpls_int i = 0; i < n; i++) {
            B[i] = b->data[i];
            B[n + i] = 2 * b->data[i];
            X[i] = X[n + i] = 0.5;
        }
        st = hpls_solver_solve_many(s, 2, B, X, inf);
        FUZZ_CHECK(st != HPLS_ERR_INTERNAL, "solve_many: internal error: %s",
                   hpls_solver_message(s));
        for (int j = 0; st == HPLS_OK && j < 2; j++)
            for (hpls_int i = 0; hpls_reason_converged(inf[j].reason) && i < n; i++)
                FUZZ_CHECK(isfinite(X[j * n + i]) && isfinite(inf[j].relres),
                           "solve_many: column %d converged with X[%lld] = %g", j,
                           (long long)i, X[j * n + i]);
        free(B);
        free(X);
    }
    hpls_vec_destroy(b);
    hpls_vec_destroy(x);
destroy:
    hpls_solver_destroy(s);
    hpls_dense_destroy(D);
}

/* The tridiagonal API: the band of the fuzzed entries, every method, factored
 * once and solved for two right-hand sides, and the batched solvers. */
static void run_tridiag(unsigned mi, unsigned o, hpls_int n, const hpls_csr *A)
{
    hpls_tridiag *T;
    FUZZ_CHECK(hpls_tridiag_create(n, &T) == HPLS_OK, "tridiag_create failed");
    for (hpls_int i = 0; i < n; i++)
        for (hpls_int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++) {
            hpls_int j = A->colind[p];
            if (j == i - 1)
                T->dl[i] = A->val[p];
            else if (j == i)
                T->d[i] = A->val[p];
            else if (j == i + 1)
                T->du[i] = A->val[p];
        }
    hpls_tridiag_method m = (hpls_tridiag_method)(mi % 4);
    hpls_tridiag_opts opts = {.partitions = (o >> 1) % 9, .delta = (o & 1) ? 0.0 : 1e-6};
    hpls_real b[2 * NMAX], x[2 * NMAX];
    for (hpls_int i = 0; i < 2 * n; i++)
        b[i] = 1.0 + (double)(i % 3);
    hpls_tridiag_factors *F = NULL;
    if (hpls_tridiag_factor(T, m, &opts, &F) == HPLS_OK) {
        hpls_tridiag_solve_factored(F, 2, b, x);
        hpls_tridiag_solve_factored(F, 1, x, x); /* in place */
        hpls_tridiag_factors_singular(F);
    } else {
        FUZZ_CHECK(hpls_last_error()[0], "tridiag_factor failed without a message");
    }
    hpls_tridiag_factors_destroy(F);
    /* batches: two systems, strided (stride n or n + 1) or interleaved */
    hpls_batch_layout layout = (o & 64) ? HPLS_BATCH_INTERLEAVED : HPLS_BATCH_STRIDED;
    hpls_int stride = layout == HPLS_BATCH_STRIDED ? n + ((o >> 5) & 1) : n;
    hpls_real dl[2 * NMAX + 2], d[2 * NMAX + 2], du[2 * NMAX + 2], rhs[2 * NMAX + 2];
    for (hpls_int k = 0; k < 2; k++)
        for (hpls_int i = 0; i < n; i++) {
            hpls_int at = layout == HPLS_BATCH_STRIDED ? k * stride + i : i * 2 + k;
            dl[at] = T->dl[i];
            d[at] = T->d[i];
            du[at] = T->du[i];
            rhs[at] = 1.0;
        }
    hpls_tridiag_solve_batch(m == HPLS_TRIDIAG_LAPACK ? m : HPLS_TRIDIAG_THOMAS, layout, n, 2,
                             stride, dl, d, du, rhs);
    hpls_tridiag_destroy(T);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    omp_set_num_threads(1); /* one core per fuzzer: the thread paths have their own tests */
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 6 + 3 * 512)
        return 0; /* more entries than a 64 x 64 matrix needs */
    input in = {data, size};
    unsigned mi = next(&in), pi = next(&in), flags = next(&in);
    hpls_int n = 1 + next(&in) % NMAX;
    unsigned o = next(&in), dv = next(&in);
    hpls_int rows[512 + NMAX], cols[512 + NMAX];
    hpls_real vals[512 + NMAX];
    hpls_int nnz = 0;
    if (flags & 8)
        for (hpls_int i = 0; i < n; i++, nnz++) {
            rows[nnz] = cols[nnz] = i;
            vals[nnz] = value(dv);
        }
    while (in.left >= 3) {
        rows[nnz] = next(&in) % n;
        cols[nnz] = next(&in) % n;
        vals[nnz++] = value(next(&in));
    }
    hpls_csr *A;
    FUZZ_CHECK(hpls_csr_from_coo(n, n, nnz, rows, cols, vals, &A) == HPLS_OK,
               "csr_from_coo failed: %s", hpls_last_error());
    if (flags & 128)
        run_tridiag(mi, o, n, A);
    else
        run_solver(mi, pi, flags, o, n, A);
    hpls_csr_destroy(A);
    return 0;
}
