/* SPDX-License-Identifier: BSD-3-Clause */
/* test_exact_sum.c: reproducible=1.  The long accumulator (kernels/cpu/
 * exact_sum.h) gives the correctly rounded sum on adversarial terms
 * (cancellation, 1e300 + small - 1e300, ties, overflow on the way, subnormals,
 * NaN and Inf as its header defines), the same bits however the terms are
 * ordered and cut, also through limbs added as MPI adds them; the cpu
 * backend's exact operations and kernels give the same bits on 1, 2 and 3
 * threads; whole solves (jacobi and the Krylov methods) give bit-identical x
 * and equal iteration counts at 1, 2 and 3 threads; what cannot keep the
 * promise is refused. */
#include "iter/bicgstab_kernels.h"
#include "iter/hisa_kernels.h"
#include "kernels/cpu/exact_sum.h"
#include "solver.h"
#include "testutil.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double sum_of(const double *t, int n)
{
    hpls_xsum a;
    hpls_xsum_zero(&a);
    for (int i = 0; i < n; i++)
        hpls_xsum_add(&a, t[i]);
    hpls_xsum_carry(&a);
    return hpls_xsum_round(&a);
}

/* a and b are the same double (NaN equals NaN; +0 and -0 differ) */
static int same_bits(double a, double b)
{
    return (isnan(a) && isnan(b)) || memcmp(&a, &b, sizeof a) == 0;
}

static void check_sum(const char *what, const double *t, int n, double want)
{
    double got = sum_of(t, n);
    if (!same_bits(got, want))
        fail_msg("%s: %a, not %a", what, got, want);
    double *rev = malloc((size_t)(n > 0 ? n : 1) * sizeof *rev); /* the other order too */
    for (int i = 0; i < n; i++)
        rev[i] = t[n - 1 - i];
    got = sum_of(rev, n);
    free(rev);
    if (!same_bits(got, want))
        fail_msg("%s, terms reversed: %a, not %a", what, got, want);
}

#define CASE(want, ...)                                                                            \
    do {                                                                                           \
        const double t_[] = {__VA_ARGS__};                                                         \
        check_sum(#__VA_ARGS__, t_, (int)(sizeof t_ / sizeof t_[0]), want);                        \
    } while (0)

static void adversarial_sums_are_exact_and_correctly_rounded(void **state)
{
    (void)state;
    const double tiny = 0x1p-1074, big = 1e300;
    CASE(1.0, big, 1.0, -big);
    CASE(tiny, big, tiny, -big); /* the smallest subnormal survives 1e300 */
    CASE(-3.5, -big, 1e-300, big, -3.5, -1e-300);
    CASE(0x1p-55, 0.1, 0.2, -0.3);             /* IEEE in this order: 0x1p-54 */
    CASE(DBL_MAX, DBL_MAX, DBL_MAX, -DBL_MAX); /* no overflow on the way */
    CASE(INFINITY, DBL_MAX, DBL_MAX);
    CASE(-INFINITY, -DBL_MAX, -DBL_MAX);
    CASE(INFINITY, DBL_MAX, 0x1p970);            /* the tie above DBL_MAX (odd): up, past it */
    CASE(DBL_MAX, DBL_MAX, 0x1p969);             /* below the tie: DBL_MAX */
    CASE(1.0, 1.0, 0x1p-53);                     /* a tie, 1 even: stays */
    CASE(1.0 + 0x1p-51, 1.0 + 0x1p-52, 0x1p-53); /* a tie, odd: up */
    CASE(1.0 + 0x1p-52, 1.0, 0x1p-53, tiny);     /* just above the tie: the sticky bit */
    CASE(1.0, 1.0, 0x1p-53, -tiny);              /* just below it */
    CASE(3 * tiny, tiny, tiny, tiny);            /* subnormal sums are exact */
    CASE(0x1p-1022 - tiny, 0x1p-1022, -tiny);    /* the largest subnormal */
    CASE(0x1p-1022, 0x1p-1023, 0x1p-1023);       /* subnormals adding up to a normal */
    CASE(0.0, 0.0, -0.0);
    CASE(0.0, -0.0, -0.0); /* an exact zero is +0 (defined so) */
    CASE(0.0, 5.0, -5.0);
    CASE(NAN, 1.0, NAN, 2.0);
    CASE(NAN, INFINITY, NAN);
    CASE(NAN, INFINITY, 1.0, -INFINITY); /* +Inf and -Inf: NaN, as IEEE */
    CASE(INFINITY, -DBL_MAX, INFINITY, -DBL_MAX);
    CASE(-INFINITY, big, -INFINITY, 1.0);
    check_sum("no terms", NULL, 0, 0.0);
}

/* Terms k 2^e with |k| < 2^20 and e in [e0, e0 + 20]: their sum is an integer
 * times 2^e0 below 2^57, so int64 arithmetic has it exactly and the C
 * conversion rounds it to nearest (ties to even), as the accumulator must. */
static void random_sums_match_integer_arithmetic(void **state)
{
    (void)state;
    const int e0s[] = {-1074, -1060, -30, 0, 900, 960};
    srand(5);
    for (size_t c = 0; c < sizeof e0s / sizeof e0s[0]; c++) {
        const int n = 100003;
        double *t = malloc((size_t)n * sizeof *t);
        int64_t S = 0;
        for (int i = 0; i < n; i++) {
            int64_t k = (int64_t)(rand() % (1 << 20)) - (1 << 19);
            int e = rand() % 21;
            S += k * ((int64_t)1 << e);
            t[i] = ldexp((double)k, e0s[c] + e);
        }
        check_sum("random integers", t, n, ldexp((double)S, e0s[c]));
        free(t);
    }
}

/* The terms cut at random into several accumulators (threads), added in
 * another order, and through limbs summed as doubles in yet another order (an
 * MPI_SUM): the same bits every way. */
static void any_cut_and_order_gives_the_same_bits(void **state)
{
    (void)state;
    const int n = 20000;
    double *t = malloc((size_t)n * sizeof *t);
    srand(7);
    for (int i = 0; i < n; i++) { /* cancellation across 600 binades */
        double v = ldexp((double)rand() / RAND_MAX, rand() % 600 - 300);
        t[i] = i % 2 ? v : -v * (1 + 1e-9 * (rand() % 7));
    }
    double want = sum_of(t, n);
    for (int parts = 1; parts <= 7; parts++) {
        hpls_xsum acc[7];
        for (int p = 0; p < parts; p++)
            hpls_xsum_zero(&acc[p]);
        for (int i = 0; i < n; i++) {
            int p = (int)(((uint64_t)i * 2654435761u) % (uint64_t)parts); /* scattered cut */
            hpls_xsum_add(&acc[p], t[i]);
            if (i % HPLS_XS_BATCH == HPLS_XS_BATCH - 1)
                for (int q = 0; q < parts; q++)
                    hpls_xsum_carry(&acc[q]);
        }
        for (int p = 0; p < parts; p++)
            hpls_xsum_carry(&acc[p]);
        hpls_xsum total;
        hpls_xsum_zero(&total);
        for (int p = parts - 1; p >= 0; p--) /* merged backwards */
            hpls_xsum_merge(&total, &acc[p]);
        double got = hpls_xsum_round(&total);
        if (!same_bits(got, want))
            fail_msg("%d parts merged: %a, not %a", parts, got, want);
        /* the limbs of each part, added as doubles from the last part to the first */
        double limbs[7][HPLS_XS_LIMBS], sum[HPLS_XS_LIMBS] = {0};
        for (int p = 0; p < parts; p++) {
            hpls_xsum_limbs(&acc[p], limbs[p]);
            for (int j = 0; j < HPLS_XS_DIGITS - 1; j++) /* each below 2^31: exact in a double */
                assert_true(fabs(limbs[p][j]) <= 0x1p31);
        }
        for (int j = 0; j < HPLS_XS_LIMBS; j++)
            for (int p = parts - 1; p >= 0; p--)
                sum[j] += limbs[p][j];
        hpls_xsum_from_limbs(&total, sum);
        got = hpls_xsum_round(&total);
        if (!same_bits(got, want))
            fail_msg("%d parts through limbs: %a, not %a", parts, got, want);
    }
    free(t);
}

/* Full batches of the largest terms, each batch's carries then propagated:
 * nothing overflows; the flags travel through limbs too. */
static void full_batches_of_huge_terms_do_not_overflow(void **state)
{
    (void)state;
    hpls_xsum a;
    hpls_xsum_zero(&a);
    for (int r = 0; r < 3; r++) {
        for (int i = 0; i < HPLS_XS_BATCH; i++)
            hpls_xsum_add(&a, r == 2 ? -DBL_MAX : DBL_MAX);
        hpls_xsum_carry(&a);
    }
    assert_true(hpls_xsum_round(&a) == INFINITY); /* 1024 DBL_MAX */
    for (int i = 0; i < HPLS_XS_BATCH; i++)
        hpls_xsum_add(&a, -DBL_MAX);
    hpls_xsum_carry(&a);
    hpls_xsum_add(&a, 0.5);
    hpls_xsum_carry(&a);
    assert_true(hpls_xsum_round(&a) == 0.5);
    hpls_xsum_add(&a, -INFINITY);
    hpls_xsum_carry(&a);
    double l[HPLS_XS_LIMBS];
    hpls_xsum_limbs(&a, l);
    for (int j = 0; j < HPLS_XS_LIMBS; j++)
        l[j] *= 3; /* three ranks with these limbs */
    hpls_xsum_from_limbs(&a, l);
    assert_true(hpls_xsum_round(&a) == -INFINITY);
}

/* ---- the cpu backend's exact operations ---------------------------------- */
static hpls_backend *exact_backend(int nt)
{
    hpls_backend *be;
    assert_int_equal(hpls_backend_create(HPLS_BACKEND_CPU, nt, &be), HPLS_OK);
    assert_int_equal(hpls_cpu_set_exact(be), HPLS_OK);
    assert_true(be->exact);
    return be;
}

static hpls_dvec *up(hpls_backend *be, const hpls_vec *v)
{
    hpls_dvec *d;
    assert_int_equal(hpls_be_vector(be, v->n, v->data, &d), HPLS_OK);
    return d;
}

/* Entries of many magnitudes and signs: a plain sum depends on its order. */
static hpls_vec *wild_vector(hpls_int n, unsigned seed)
{
    hpls_vec *v = tu_vec_random(n, seed);
    for (hpls_int i = 0; i < n; i++)
        v->data[i] = ldexp(v->data[i], (int)((i * 7919 + seed) % 61) - 30);
    return v;
}

enum { NRED = 2 * 70 + 3 + 70 + 11 };

/* Every reduction of the exact backend on nt threads, into out (NRED values),
 * and the vectors bicgstab_xr and hisa_update write, into w (3 n values). */
static void exact_reductions(int nt, hpls_int n, const hpls_vec *hx, const hpls_vec *hy,
                             double scale, double *out, double *w)
{
    hpls_backend *be = exact_backend(nt);
    hpls_vec *sx = tu_vec_const(n, 0.0);
    for (hpls_int i = 0; i < n; i++)
        sx->data[i] = hx->data[i] * scale;
    hpls_dvec *x = up(be, sx), *y = up(be, hy), *z = up(be, hy), *r, *bp;
    assert_int_equal(be->v->alloc(be, n, &r), HPLS_OK);
    assert_int_equal(be->v->alloc(be, n, &bp), HPLS_OK);
    hpls_dvec *V[70];
    for (int j = 0; j < 70; j++)
        V[j] = j % 2 ? x : y;
    const hpls_dvec *const *Vc = (const hpls_dvec *const *)V;
    int k = 0;
    hpls_v_mdot2(be, n, 70, Vc, x, y, out + k); /* past one block of 64 */
    k += 2 * 70 + 3;
    hpls_v_mdot(be, n, 70, Vc, x, out + k);
    k += 70;
    out[k++] = hpls_v_dot(be, n, x, y);
    out[k++] = hpls_v_nrm2(be, n, x);
    hpls_bicgstab_kernels_of(be)->dot3(be, n, x, y, &out[k], &out[k + 1], &out[k + 2]);
    k += 3;
    hpls_v_mdot2(be, n, 0, Vc, x, y, out + k); /* only the 3 dots of x and y */
    k += 3;
    hpls_bicgstab_kernels_of(be)->xr(be, n, 0.3, y, -2.5, x, y, x, y, z, r, &out[k], &out[k + 1]);
    k += 2;
    out[k++] = hpls_hisa_kernels_of(be)->update(be, n, x, y, z, bp);
    assert_int_equal(k, NRED);
    be->v->download(be, n, z, w);
    be->v->download(be, n, r, w + n);
    be->v->download(be, n, bp, w + 2 * n);
    hpls_dvec *all[] = {x, y, z, r, bp};
    for (size_t j = 0; j < sizeof all / sizeof all[0]; j++)
        be->v->release(be, all[j]);
    assert_int_equal(be->err, HPLS_OK);
    hpls_backend_destroy(be);
    hpls_vec_destroy(sx);
}

static void exact_operations_give_the_same_bits_on_any_thread_count(void **state)
{
    (void)state;
    const hpls_int sizes[] = {5, 8192, 3 * 8192 + 7, 100003};
    const double scales[] = {1.0, 1e200, 1e-200}; /* the last two: nrm2's scaled pass */
    for (size_t c = 0; c < sizeof sizes / sizeof sizes[0]; c++)
        for (size_t g = 0; g < sizeof scales / sizeof scales[0]; g++) {
            hpls_int n = sizes[c];
            hpls_vec *hx = wild_vector(n, 3), *hy = wild_vector(n, 4);
            double want[NRED], got[NRED];
            double *w1 = malloc((size_t)(3 * n) * sizeof *w1),
                   *w2 = malloc((size_t)(3 * n) * sizeof *w2);
            /* scaled by 1e200, the dots overflow on purpose (Inf is their value):
             * an overflow make check-fpe would trap, held for that scale only */
            int held = scales[g] > 1.0 ? tu_fpe_hold() : 0;
            exact_reductions(1, n, hx, hy, scales[g], want, w1);
            for (int nt = 2; nt <= 3; nt++) {
                exact_reductions(nt, n, hx, hy, scales[g], got, w2);
                for (int j = 0; j < NRED; j++)
                    if (!same_bits(got[j], want[j]))
                        fail_msg("n %lld scale %g, value %d: %a on %d threads, %a on 1",
                                 (long long)n, scales[g], j, got[j], nt, want[j]);
                assert_memory_equal(w1, w2, (size_t)(3 * n) * sizeof *w1);
            }
            /* the dot is the exactly rounded sum of the rounded products */
            hpls_xsum a;
            hpls_xsum_zero(&a);
            for (hpls_int i = 0; i < n; i++) {
                hpls_xsum_add(&a, (hx->data[i] * scales[g]) * hy->data[i]);
                if (i % HPLS_XS_BATCH == HPLS_XS_BATCH - 1)
                    hpls_xsum_carry(&a);
            }
            hpls_xsum_carry(&a);
            assert_true(same_bits(want[2 * 70 + 3 + 70], hpls_xsum_round(&a)));
            tu_fpe_release(held);
            free(w1);
            free(w2);
            hpls_vec_destroy(hx);
            hpls_vec_destroy(hy);
        }
}

/* The vectors the exact operations write are cpu's bits. */
static void exact_operations_write_the_cpu_bits(void **state)
{
    (void)state;
    const hpls_int n = 30011;
    hpls_vec *hx = wild_vector(n, 8), *hy = wild_vector(n, 9);
    hpls_vec *out[2][3];
    for (int e = 0; e < 2; e++) {
        hpls_backend *be;
        assert_int_equal(hpls_backend_create(HPLS_BACKEND_CPU, 2, &be), HPLS_OK);
        if (e)
            assert_int_equal(hpls_cpu_set_exact(be), HPLS_OK);
        hpls_dvec *x = up(be, hx), *y = up(be, hy), *z = up(be, hy), *r, *bp;
        assert_int_equal(be->v->alloc(be, n, &r), HPLS_OK);
        assert_int_equal(be->v->alloc(be, n, &bp), HPLS_OK);
        double rn, rr;
        hpls_bicgstab_kernels_of(be)->xr(be, n, 0.7, x, 1.5, y, x, y, x, z, r, &rn, &rr);
        hpls_hisa_kernels_of(be)->update(be, n, x, y, z, bp);
        hpls_dvec *d[3] = {z, r, bp};
        for (int j = 0; j < 3; j++) {
            assert_int_equal(hpls_vec_create(n, &out[e][j]), HPLS_OK);
            be->v->download(be, n, d[j], out[e][j]->data);
        }
        hpls_dvec *all[] = {x, y, z, r, bp};
        for (size_t j = 0; j < sizeof all / sizeof all[0]; j++)
            be->v->release(be, all[j]);
        hpls_backend_destroy(be);
    }
    for (int j = 0; j < 3; j++) {
        assert_memory_equal(out[0][j]->data, out[1][j]->data, (size_t)n * sizeof(double));
        hpls_vec_destroy(out[0][j]);
        hpls_vec_destroy(out[1][j]);
    }
    hpls_vec_destroy(hx);
    hpls_vec_destroy(hy);
}

/* A hook standing for two ranks holding the same part: it doubles every
 * value.  An exact reduction hands it all its limbs in one call, and the
 * result is then exactly twice the one-rank sum. */
static hpls_status twin_ranks(hpls_backend *be, double *vals, int k, hpls_red_op op)
{
    int *calls = be->reduce_ctx;
    (*calls)++;
    for (int j = 0; j < k; j++)
        vals[j] = op == HPLS_RED_SUM ? 2 * vals[j] : vals[j];
    return HPLS_OK;
}

static void exact_reductions_pass_their_limbs_through_the_hook_once(void **state)
{
    (void)state;
    const hpls_int n = 20011;
    hpls_vec *hx = wild_vector(n, 5), *hy = wild_vector(n, 6);
    hpls_backend *one = exact_backend(2), *two = exact_backend(2);
    int calls = 0;
    two->reduce = twin_ranks;
    two->reduce_ctx = &calls;
    hpls_dvec *x1 = up(one, hx), *y1 = up(one, hy), *x2 = up(two, hx), *y2 = up(two, hy);
    double a[3], b[3];
    hpls_bicgstab_kernels_of(one)->dot3(one, n, x1, y1, &a[0], &a[1], &a[2]);
    hpls_bicgstab_kernels_of(two)->dot3(two, n, x2, y2, &b[0], &b[1], &b[2]);
    assert_int_equal(calls, 1);
    for (int j = 0; j < 3; j++)
        assert_true(same_bits(b[j], 2 * a[j]));
    assert_true(same_bits(hpls_v_dot(two, n, x2, y2), 2 * hpls_v_dot(one, n, x1, y1)));
    assert_int_equal(calls, 2);
    one->v->release(one, x1);
    one->v->release(one, y1);
    two->v->release(two, x2);
    two->v->release(two, y2);
    hpls_backend_destroy(one);
    hpls_backend_destroy(two);
    hpls_vec_destroy(hx);
    hpls_vec_destroy(hy);
}

/* The exact kernels: cpu's r, and a sum of squares the same on 1-3 threads. */
static void exact_kernels_give_cpu_vectors_and_the_same_sums(void **state)
{
    (void)state;
    hpls_csr *A = tu_gen("gas:n=40000,k=3");
    hpls_int n = A->nrows;
    hpls_vec *x = wild_vector(n, 11), *b = wild_vector(n, 12);
    hpls_real *r0 = malloc((size_t)n * sizeof *r0), *r = malloc((size_t)n * sizeof *r);
    hpls_k_residual(1, A, b->data, x->data, r0);
    double ss1 = 0, abs1 = 0;
    for (int nt = 1; nt <= 3; nt++) {
        hpls_backend *be = exact_backend(nt);
        double ss = be->k->residual(nt, HPLS_PF_DEFAULT, A, b->data, x->data, r);
        double abs = hpls_xsum_abs_rows(be, A, NULL, x->data, NULL, 0);
        assert_memory_equal(r, r0, (size_t)n * sizeof *r);
        if (nt == 1) {
            ss1 = ss;
            abs1 = abs;
        }
        assert_true(same_bits(ss, ss1) && same_bits(abs, abs1));
        double rs[2];
        hpls_real *R = malloc((size_t)(2 * n) * sizeof *R),
                  *X = malloc((size_t)(2 * n) * sizeof *X);
        memcpy(X, x->data, (size_t)n * sizeof *X);
        memcpy(X + n, x->data, (size_t)n * sizeof *X);
        hpls_real *B = malloc((size_t)(2 * n) * sizeof *B);
        memcpy(B, b->data, (size_t)n * sizeof *B);
        memcpy(B + n, b->data, (size_t)n * sizeof *B);
        be->k->residual_block(nt, A, 2, B, X, R, n, rs);
        assert_true(same_bits(rs[0], ss1) && same_bits(rs[1], ss1));
        free(R);
        free(X);
        free(B);
        hpls_backend_destroy(be);
    }
    assert_true(same_bits(ss1, hpls_xsum_sumsq(1, n, r0)));
    free(r0);
    free(r);
    hpls_vec_destroy(x);
    hpls_vec_destroy(b);
    hpls_csr_destroy(A);
}

/* ---- whole solves --------------------------------------------------------- */
/* x of a solve of A x = A 1 with options (+ reproducible=1 threads=nt), its
 * iterations in *its. */
static hpls_vec *repro_solve(const hpls_csr *A, const char *options, int nt, hpls_int *its)
{
    char opts[256];
    snprintf(opts, sizeof opts, "%s reproducible=1 threads=%d", options, nt);
    hpls_vec *ones = tu_vec_const(A->nrows, 1.0), *b = tu_rhs(A, ones), *x;
    assert_int_equal(hpls_vec_create(A->nrows, &x), HPLS_OK);
    hpls_solver *s = tu_setup(A, opts);
    hpls_info info = tu_run(s, b, x);
    if (!hpls_reason_converged(info.reason) || tu_relres(A, b, x) > 1e-8)
        fail_msg("%s: %s after %lld iterations (%s)", opts, hpls_reason_str(info.reason),
                 (long long)info.iterations, hpls_solver_message(s));
    *its = info.iterations;
    hpls_solver_destroy(s);
    hpls_vec_destroy(ones);
    hpls_vec_destroy(b);
    return x;
}

static void solves_are_bit_identical_on_1_2_and_3_threads(void **state)
{
    (void)state;
    static const struct {
        const char *spec, *options;
    } cases[] = {
        {"poisson3d:nx=32", "solver=cg"},
        {"poisson3d:nx=32", "solver=cg precond=jacobi"},
        {"gas:n=40000,k=2", "solver=bicgstab"},
        {"gas:n=40000,k=2", "solver=gmres restart=20"},
        {"gas:n=40000,k=2,q=0.97", "solver=gmres restart=70"}, /* mdot2 past a block of 64 */
        {"gas:n=40000,k=2", "solver=jacobi"},
        {"convdiff3d:nx=32", "solver=bicgstab precond=jacobi"},
        {"convdiff3d:nx=32", "solver=fgmres"},
        {"convdiff3d:nx=32", "solver=gmres pc_side=left precond=jacobi"},
        {"convdiff3d:nx=32", "solver=tfqmr"},
        {"convdiff3d:nx=24", "solver=cgs"}, /* diverges at nx=32 (with reproducible=0 too) */
        {"convdiff3d:nx=32", "solver=bicgstabl ell=3"},
        {"convdiff3d:nx=32", "solver=bicrstab"},
        {"convdiff3d:nx=32", "solver=bicgsafe"},
        {"convdiff3d:nx=32", "solver=bicg"},
        {"convdiff3d:nx=32", "solver=qmr"},
        {"poisson3d:nx=32", "solver=minres"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        hpls_csr *A = tu_gen(cases[c].spec);
        hpls_int its1, its;
        hpls_vec *x1 = repro_solve(A, cases[c].options, 1, &its1);
        for (int nt = 2; nt <= 3; nt++) {
            hpls_vec *x = repro_solve(A, cases[c].options, nt, &its);
            if (its != its1 || memcmp(x->data, x1->data, (size_t)A->nrows * sizeof(double)) != 0)
                fail_msg("%s %s: %d threads %lld iterations, 1 thread %lld; x %s", cases[c].spec,
                         cases[c].options, nt, (long long)its, (long long)its1,
                         its == its1 ? "differs" : "-");
            hpls_vec_destroy(x);
        }
        hpls_vec_destroy(x1);
        hpls_csr_destroy(A);
    }
}

/* Many right-hand sides go column by column under reproducible=1 (jacobi's
 * block path sums per thread): each column is its single solve's bits. */
static void solve_many_columns_are_the_single_solves(void **state)
{
    (void)state;
    hpls_csr *A = tu_gen("gas:n=20000,k=2");
    hpls_int n = A->nrows, its;
    hpls_vec *x1 = repro_solve(A, "solver=jacobi", 1, &its);
    hpls_vec *ones = tu_vec_const(n, 1.0), *b = tu_rhs(A, ones);
    hpls_real *B = malloc((size_t)(2 * n) * sizeof *B), *X = calloc((size_t)(2 * n), sizeof *X);
    memcpy(B, b->data, (size_t)n * sizeof *B);
    memcpy(B + n, b->data, (size_t)n * sizeof *B);
    hpls_solver *s = tu_setup(A, "solver=jacobi reproducible=1 threads=3");
    hpls_info info[2];
    assert_int_equal(hpls_solver_solve_many(s, 2, B, X, info), HPLS_OK);
    assert_memory_equal(X, x1->data, (size_t)n * sizeof *X);
    assert_memory_equal(X + n, x1->data, (size_t)n * sizeof *X);
    assert_int_equal(info[1].iterations, its);
    hpls_solver_destroy(s);
    free(B);
    free(X);
    hpls_vec_destroy(ones);
    hpls_vec_destroy(b);
    hpls_vec_destroy(x1);
    hpls_csr_destroy(A);
}

static void what_depends_on_the_partition_is_refused(void **state)
{
    (void)state;
    static const struct {
        const char *options, *says;
    } cases[] = {
        {"solver=bicgstab precond=dilu", "precond dilu depends on the partition"},
        {"solver=cg precond=ilu0", "precond ilu0 depends on the partition"},
        {"solver=gmres precond=ssor", "precond ssor depends on the partition"},
        {"solver=gs", "solver gs is not partition-independent"},
        {"solver=pjg", "solver pjg is not partition-independent"},
        {"solver=bhisa", "solver bhisa is not partition-independent"},
        {"solver=auto", "solver auto is not partition-independent"},
        {"solver=cg backend=ref", "runs on backend cpu"},
        {"solver=bicg format=qtree", "needs format=csr"},
        {"solver=qtbicgstab", "needs format=csr"},
    };
    hpls_csr *A = tu_gen("gas:n=2000");
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char opts[160];
        snprintf(opts, sizeof opts, "%s reproducible=1", cases[c].options);
        hpls_solver *s;
        assert_int_equal(hpls_solver_create(&s), HPLS_OK);
        assert_int_equal(hpls_solver_set_options(s, opts), HPLS_OK);
        assert_int_equal(hpls_solver_setup(s, A), HPLS_ERR_OPTION);
        if (!strstr(hpls_solver_message(s), cases[c].says))
            fail_msg("%s: '%s' does not say '%s'", opts, hpls_solver_message(s), cases[c].says);
        hpls_solver_destroy(s);
    }
    hpls_csr_destroy(A);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(adversarial_sums_are_exact_and_correctly_rounded),
        cmocka_unit_test(random_sums_match_integer_arithmetic),
        cmocka_unit_test(any_cut_and_order_gives_the_same_bits),
        cmocka_unit_test(full_batches_of_huge_terms_do_not_overflow),
        cmocka_unit_test(exact_operations_give_the_same_bits_on_any_thread_count),
        cmocka_unit_test(exact_operations_write_the_cpu_bits),
        cmocka_unit_test(exact_reductions_pass_their_limbs_through_the_hook_once),
        cmocka_unit_test(exact_kernels_give_cpu_vectors_and_the_same_sums),
        cmocka_unit_test(solves_are_bit_identical_on_1_2_and_3_threads),
        cmocka_unit_test(solve_many_columns_are_the_single_solves),
        cmocka_unit_test(what_depends_on_the_partition_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
