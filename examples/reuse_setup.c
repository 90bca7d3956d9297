/* SPDX-License-Identifier: BSD-3-Clause */
/* reuse_setup.c: the time-stepping pattern: set up once, solve for a new b at
 * every step, and when A's values change (same pattern) redo only the numeric
 * part of the setup (hpls_solver_update_values), not the whole. */
#include <hpls.h>
#include <stdio.h>

#define CHECK(call)                                                                            \
    do {                                                                                       \
        hpls_status st_ = (call);                                                              \
        if (st_ != HPLS_OK) {                                                                  \
            fprintf(stderr, "%s: %s: %s\n", #call, hpls_strerror(st_),                         \
                    s ? hpls_solver_message(s) : hpls_last_error());                           \
            return 1;                                                                          \
        }                                                                                      \
    } while (0)

int main(void)
{
    hpls_solver *s = NULL;
    hpls_csr *A;
    hpls_vec *b, *x;
    hpls_info info;
    CHECK(hpls_gen_csr("convdiff3d:nx=40", &A, &b));
    CHECK(hpls_vec_create(A->nrows, &x));
    CHECK(hpls_solver_create(&s));
    CHECK(hpls_solver_set_options(s, "solver=bicgstab precond=ilu0 initial_guess=given"));
    CHECK(hpls_solver_setup(s, A));
    CHECK(hpls_solver_get_info(s, &info));
    double full = info.setup_s, updates = 0;
    for (int step = 1; step <= 5; step++) {
        if (step > 1) { /* the coefficients move: scale every value, keep the pattern */
            for (hpls_int k = 0; k < A->nnz; k++)
                A->val[k] *= 1.0 + 0.01 * step;
            CHECK(hpls_solver_update_values(s, A));
            CHECK(hpls_solver_get_info(s, &info));
            updates += info.setup_s;
        }
        for (hpls_int i = 0; i < b->n; i++)
            b->data[i] = 1.0 + 0.1 * step;
        CHECK(hpls_solver_solve(s, b, x)); /* starts from the last step's x */
        CHECK(hpls_solver_get_info(s, &info));
        printf("step %d: %s after %lld iterations, relres %.2e\n", step,
               hpls_reason_str(info.reason), (long long)info.iterations, info.relres);
        if (!hpls_reason_converged(info.reason))
            return 1;
    }
    printf("setup %.4f s; update_values %.4f s on average\n", full, updates / 4);
    hpls_solver_destroy(s);
    hpls_vec_destroy(x);
    hpls_vec_destroy(b);
    hpls_csr_destroy(A);
    return 0;
}
