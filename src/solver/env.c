/* SPDX-License-Identifier: BSD-3-Clause */
/* env.c (solver): one process's environment (driver.h's hpls_env), the
 * driver's default: the backend the backend option names, the operator on
 * the CSR, dense or shell matrix, reorder and scale on host arrays
 * (transform.c), and no one to agree with.  A matrix distributed over MPI
 * ranks brings its own (src/mpi/dist_solver.c). */
#include "solver/driver.h"

#include "kernels/cpu/exact_sum.h"

/* The backend; under reproducible=1 the cpu backend with exact sums. */
static hpls_status local_backend(hpls_solver *s, int threads)
{
    const hpls_options *o = &s->opt;
    hpls_status st = hpls_backend_create(o->backend, threads, &s->be);
    if (st == HPLS_OK && o->reproducible)
        st = hpls_cpu_set_exact(s->be);
    return st;
}

/* || |A| |x| || for reproducible=1 (conv.c's attainable accuracy): the rows
 * and the sum of their squares as on any number of ranks. */
static double csr_abs_norm_exact(const hpls_op *op, const hpls_real *x)
{
    return hpls_xsum_abs_rows(op->be, op->A, NULL, x, NULL, 0);
}

static void local_operator(hpls_solver *s, hpls_int n)
{
    hpls_backend *be = s->be;
    s->op = s->A    ? hpls_op_csr(be, s->A)
            : s->Ad ? hpls_op_dense(be, s->Ad)
                    : hpls_op_shell(be, n, &s->shell);
    if (be->exact && s->A) /* as any partition computes it (dcsr_spmv.c) */
        s->op.abs_norm = csr_abs_norm_exact;
}

/* s->op.At is all A^T x needs. */
static hpls_status local_transpose(hpls_solver *s)
{
    (void)s;
    return HPLS_OK;
}

/* The driver's check of the object's size is the whole check. */
static hpls_status local_precond(hpls_solver *s, hpls_int n)
{
    (void)s;
    (void)n;
    return HPLS_OK;
}

/* Nothing before a solve. */
static hpls_status local_start(hpls_solver *s, int *scaled, int *moved)
{
    (void)s;
    (void)scaled;
    (void)moved;
    return HPLS_OK;
}

/* One process: its status is everyone's. */
static hpls_status local_agree(hpls_solver *s, hpls_status st, int inner)
{
    (void)s;
    (void)inner;
    return st;
}

static void local_release(hpls_solver *s)
{
    (void)s;
}

const hpls_env hpls_env_local = {
    .make_backend = local_backend,
    .make_operator = local_operator,
    .op_transpose = local_transpose,
    .check_precond = local_precond,
    .to_inner = hpls_solver_to_inner,
    .from_inner = hpls_solver_from_inner,
    .user_residual = hpls_solver_user_residual,
    .solve_start = local_start,
    .agree = local_agree,
    .release = local_release,
};
