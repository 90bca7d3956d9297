/* SPDX-License-Identifier: BSD-3-Clause */
/* testutil.h: helpers shared by the unit tests (cmocka). */
#ifndef HPLS_TESTUTIL_H
#define HPLS_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "core/internal.h"

/* Floating-point traps (fpe.c): with HPLS_TEST_TRAP_FPE=1 every unit test runs
 * with FE_DIVBYZERO | FE_INVALID | FE_OVERFLOW trapped; tu_fpe_trapping says
 * so; hold lifts them around a third-party call that raises them (returns
 * what release needs), release restores them. */
int tu_fpe_trapping(void);
int tu_fpe_hold(void);
void tu_fpe_release(int was);

/* Full path of a file in ../shared/data (e.g. "matrices/west0479.mtx") into buf;
 * returns 0 when the file is absent, so the caller can skip(). */
int tu_data_path(const char *rel, char *buf, size_t len);
/* A test that skip()s without ../shared/data is registered under a name that
 * begins with TU_DATA_PREFIX: CTest runs those tests apart, as <test>_data, and
 * reports that entry as skipped when all of them skipped (tests/CMakeLists.txt,
 * tests/util/data_tests.sh), instead of counting them inside a "Passed".  The
 * environment chooses the tests an executable runs, by name: HPLS_TEST_ONLY and
 * HPLS_TEST_SKIP (cmocka's filters, patterns with * and ?). */
#define TU_DATA_PREFIX "data/"
/* clang-format off */
#define tu_data_test(f) {TU_DATA_PREFIX #f, f, NULL, NULL, NULL}
/* clang-format on */
/* A path under the test build directory for a temporary file named name. */
const char *tu_tmp_path(const char *name, char *buf, size_t len);
/* Writes text to a temporary file and returns its path (in buf). */
const char *tu_write_file(const char *name, const char *text, char *buf, size_t len);
/* ||b - A x|| / ||b|| computed with the sequential reference kernels. */
double tu_relres(const hpls_csr *A, const hpls_vec *b, const hpls_vec *x);
/* max_i |x_i - y_i| / max(1, max_i |y_i|) */
double tu_relerr(const hpls_vec *x, const hpls_vec *y);
/* b = A * xtrue with the reference SpMV (b allocated). */
hpls_vec *tu_rhs(const hpls_csr *A, const hpls_vec *xtrue);
/* The generator's CSR matrix for spec (hpls_gen_csr), asserting success. */
hpls_csr *tu_gen(const char *spec);
/* Vector of n values: all equal to a. */
hpls_vec *tu_vec_const(hpls_int n, double a);
/* Deterministic pseudo-random vector in [-1, 1]. */
hpls_vec *tu_vec_random(hpls_int n, unsigned seed);

/* A solver created with options and set up on A, asserting success (a failed
 * setup fails the test with the solver's message). */
hpls_solver *tu_setup(const hpls_csr *A, const char *options);
/* solve(b, x), asserting it returns HPLS_OK, and the solver's info. */
hpls_info tu_run(hpls_solver *s, const hpls_vec *b, hpls_vec *x);
/* Iterations of options on A x = A*1 from x0 = 0; *relres: the true relative
 * residual when converged, else HUGE_VAL. */
hpls_int tu_count_iterations(const hpls_csr *A, const char *options, double *relres);

/* z = M^-1 r (transpose: M^-T r) of the solver's preconditioner, through its
 * backend's vectors (r and z are host arrays of the solver's n). */
void tu_pc_apply(const hpls_solver *s, int transpose, const hpls_real *r, hpls_real *z);
/* 1 when the tests run on the ref backend (HPLS_OPTIONS holds backend=ref),
 * where every solver runs on one thread whatever its threads option says. */
int tu_on_ref(void);
/* 1 when an NVIDIA GPU is here, whatever hpls makes of it, and *why says how
 * it was seen: HPLS_TEST_GPU=1 (a claim, to test the tests), /dev/nvidia0, or
 * the driver library itself (cuInit, then a device count), not asked through
 * hpls's module, which is what the tests check. */
int tu_gpu_present(const char **why);

/* Runs create, set_options(options), setup(A), solve(b, x) with the k-th allocation
 * failing, for k = 1, 2, ... until a run makes fewer than k allocations: every run
 * must succeed or return HPLS_ERR_NOMEM, free what it took (ASan checks) and, when
 * it fails, leave A, b and x as they were (x is reset to its entry value each run). */
void tu_solve_under_alloc_failures(const hpls_csr *A, const hpls_vec *b, hpls_vec *x,
                                   const char *options);

#endif
