/* SPDX-License-Identifier: BSD-3-Clause */
/* setup.c (solver): what may run with what (the options against the method,
 * the preconditioner, the backend and the storage), and the setup of a
 * solver on a CSR, dense or shell operator: the backend, the operator on it,
 * A^T, the diagonal, work vectors, the preconditioner and the method's data;
 * their update for new values on the same pattern. */
#include "options.h"
#include "solver/driver.h"

#include "la/matching.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* A user's convergence test is shown the residual vector in host memory, of
 * A's own system: the methods that hold one, host backends, no transform. */
hpls_status hpls_solver_check_convtest(const hpls_solver *s)
{
    const hpls_method *m = s->opt.method;
    if (!s->conv_fn)
        return HPLS_OK;
    if (!(m->flags & HPLS_M_CONVTEST))
        return hpls_fail(HPLS_ERR_OPTION,
                         "solver %s shows no residual vector to a convergence test "
                         "(hpls_solver_set_convergence_test): use cg or bicgstab",
                         m->name);
    if (s->be->d || s->opt.reorder || s->opt.scale)
        return hpls_fail(HPLS_ERR_OPTION,
                         "a convergence test (hpls_solver_set_convergence_test) sees the "
                         "residual in host memory of A's own system: not on backend %s, nor "
                         "with reorder or scale",
                         s->be->name);
    return HPLS_OK;
}

/* Options set that neither the method nor its preconditioner uses are errors. */
/* reproducible=1 promises the same bits for any number of ranks and threads:
 * jacobi and the Krylov methods keep it (their sums exact, A x row by row),
 * with precond none or jacobi (entrywise) or a preconditioner object (the
 * caller's).  The other methods and preconditioners are refused: their
 * sweeps, blocks or M follow the partition (on several ranks dilu, ilu0, dic,
 * ssor, pjg, tridiag are built on each rank's diagonal block; gs/sor/ssor
 * sweep each rank's rows; pjg, bhisa, gspike cut by the thread count;
 * format=qtree's bands are threads). */
static hpls_status check_reproducible(hpls_solver *s)
{
    const hpls_options *o = &s->opt;
    const hpls_method *m = o->method;
    if (!o->reproducible)
        return HPLS_OK;
    if (o->backend != 0)
        return hpls_solver_fail(s, HPLS_ERR_OPTION,
                                "reproducible=1 runs on backend cpu (and under MPI), not %s: "
                                "its exact sums are the cpu backend's",
                                hpls_optset_get(&s->os, "backend"));
    if (o->format || (m->flags & HPLS_M_QTREE)) /* A^T x adds per-band parts: one band a thread */
        return hpls_solver_fail(s, HPLS_ERR_OPTION,
                                "reproducible=1 needs format=csr: format=qtree's A^T x adds "
                                "its bands' parts, and its bands follow the thread count");
    if (!(m->flags & HPLS_M_PRECOND) && strcmp(m->name, "jacobi") != 0)
        return hpls_solver_fail(s, HPLS_ERR_OPTION,
                                "reproducible=1: solver %s is not partition-independent (its "
                                "sweeps or blocks follow the ranks or threads); it keeps the "
                                "same bits for jacobi and the Krylov methods, or use "
                                "reproducible=0",
                                m->name);
    if (!s->ext_pc && o->pc_type->setup && strcmp(o->pc_type->name, "jacobi") != 0)
        return hpls_solver_fail(s, HPLS_ERR_OPTION,
                                "reproducible=1: precond %s depends on the partition (on several "
                                "MPI ranks it is built on each rank's diagonal block); use "
                                "precond none or jacobi, or reproducible=0",
                                o->pc_type->name);
    return HPLS_OK;
}

hpls_status hpls_solver_check_options(hpls_solver *s)
{
    const hpls_options *o = &s->opt;
    const hpls_method *m = o->method;
    /* what the chosen method and preconditioner use; "precond=none" is always fine */
    unsigned uses = m->flags | (m->flags & HPLS_M_PRECOND ? o->pc_type->flags : 0);
    if (!o->pc_type->setup)
        uses |= HPLS_M_PRECOND;
    const char *key = hpls_optset_unused(&s->os, uses, 1);
    if (key)
        return hpls_solver_fail(s, HPLS_ERR_OPTION, "option %s does not apply to solver %s%s%s",
                                key, m->name, o->pc_type->setup ? " with precond " : "",
                                o->pc_type->setup ? o->pc_type->name : "");
    return check_reproducible(s);
}

/* The user's preconditioner object instead of the precond option. */
static hpls_status use_precond(hpls_solver *s, hpls_int n)
{
    const hpls_method *m = s->opt.method;
    if (!(m->flags & HPLS_M_PRECOND))
        return hpls_fail(HPLS_ERR_OPTION,
                         "solver %s takes no preconditioner (one was given "
                         "with hpls_solver_set_precond)",
                         m->name);
    if (hpls_optset_is_set(&s->os, "precond"))
        return hpls_fail(HPLS_ERR_OPTION,
                         "both precond=%s and a preconditioner object "
                         "(hpls_solver_set_precond) were given",
                         s->opt.pc_type->name);
    hpls_status st = s->env->check_precond(s, n); /* distributed: each rank's rows */
    if (st != HPLS_OK)
        return st;
    if (hpls_precond_size(s->ext_pc) != n)
        return hpls_fail(HPLS_ERR_SIZE,
                         "the preconditioner object is %lld x %lld (or not set "
                         "up: -1), the matrix has %lld rows",
                         (long long)hpls_precond_size(s->ext_pc),
                         (long long)hpls_precond_size(s->ext_pc), (long long)n);
    if ((m->flags & HPLS_M_TRANSPOSE) && !hpls_precond_has_transpose(s->ext_pc))
        return hpls_fail(HPLS_ERR_OPTION,
                         "solver %s applies M^-T: set the preconditioner "
                         "object up with HPLS_PRECOND_TRANSPOSE (or give a shell apply_t)",
                         m->name);
    s->pc = hpls_precond_bridge(s->ext_pc, s->be);
    return HPLS_OK;
}

/* What a device backend (be->d) runs: the methods flagged HPLS_M_DEVICE, with
 * a preconditioner of the same kind or a preconditioner object (copied
 * through the host), on a CSR matrix or (methods flagged HPLS_M_DENSE) a
 * dense one. */
static hpls_status device_check(const hpls_solver *s)
{
    const hpls_options *o = &s->opt;
    const char *be = s->be->name;
    if (!(o->method->flags & HPLS_M_DEVICE))
        return hpls_fail(HPLS_ERR_UNSUPPORTED,
                         "solver %s has no %s version (on %s: jacobi, gs, sor, ssor, pjg, "
                         "hisa, bhisa, thomas, cr, gspike and the Krylov methods; use backend=cpu)",
                         o->method->name, be, be);
    if (!s->ext_pc && (o->method->flags & HPLS_M_PRECOND) && o->pc_type->setup &&
        !(o->pc_type->flags & HPLS_M_DEVICE))
        return hpls_fail(HPLS_ERR_UNSUPPORTED,
                         "precond %s has no %s version (on %s: none, "
                         "jacobi, ssor, pjg, dilu, dic, ilu0, tridiag, btridiag; use backend=cpu)",
                         o->pc_type->name, be, be);
    if (!s->A && !(s->Ad && (o->method->flags & HPLS_M_DENSE)))
        return hpls_fail(HPLS_ERR_UNSUPPORTED,
                         "backend %s multiplies CSR and dense matrices only (not a "
                         "shell operator)",
                         be);
    if (o->format || (o->method->flags & HPLS_M_QTREE))
        return hpls_fail(HPLS_ERR_UNSUPPORTED,
                         "format=qtree has no %s version: the quad-tree "
                         "is a CPU-cache method (docs/gpu.md)",
                         be);
    return HPLS_OK;
}

/* The part of setup every storage shares: the backend and the operator on it,
 * A^T, the diagonal, work vectors, the preconditioner, the method's own data.
 * s->A or s->Ad is set. */
hpls_status hpls_solver_setup_common(hpls_solver *s, hpls_int n, double t0)
{
    const hpls_options *o = &s->opt;
    const hpls_method *m = o->method;
    double nnz = s->A ? (double)s->A->nnz : s->Ad ? (double)n * (double)n : -1;
    int threads = o->threads > 0 ? (int)o->threads : hpls_auto_threads(nnz);
    hpls_status st = s->env->make_backend(s, threads);
    if (st != HPLS_OK)
        goto fail;
    hpls_backend *be = s->be;
    hpls_be_set_prefetch(be, o->prefetch);
    if (be->d && (st = device_check(s)) != HPLS_OK)
        goto fail;
    if ((st = hpls_solver_check_convtest(s)) != HPLS_OK)
        goto fail;
    s->env->make_operator(s, n);
    /* a dense A stores every column; a shell operator's entries are unknown */
    s->cols_stored = s->A ? hpls_csr_columns_stored(s->A) : s->Ad != NULL;
    if ((m->flags & HPLS_M_TRANSPOSE) && s->A) {
        if ((st = hpls_csr_transpose(s->A, &s->At)) != HPLS_OK)
            goto fail;
        hpls_op_set_transpose(&s->op, s->At);
        if ((st = s->env->op_transpose(s)) != HPLS_OK) /* distributed: the reverse halo */
            goto fail;
    }
    if ((st = hpls_op_upload(&s->op)) != HPLS_OK)
        goto fail;
    if (m->flags & HPLS_M_DIAG) { /* 1 / A_ii, computed on the host, then uploaded */
        hpls_real *d = hpls_malloc(n, sizeof *d);
        if (!d) {
            st = HPLS_ERR_NOMEM;
            goto fail;
        }
        if (s->A && !(s->diagpos = hpls_malloc(n, sizeof *s->diagpos)))
            st = HPLS_ERR_NOMEM;
        if (st == HPLS_OK && s->A)
            st = hpls_csr_diag_positions(s->A, s->diagpos);
        for (hpls_int i = 0; st == HPLS_OK && i < n; i++) {
            double a = s->A ? s->A->val[s->diagpos[i]] : s->Ad->data[i * n + i];
            if (a == 0.0) /* reported, never divided by: no trap under feenableexcept */
                st = hpls_fail(HPLS_ERR_ZERO_DIAG, "row %lld has a zero diagonal entry",
                               (long long)i + 1);
            else
                d[i] = 1.0 / a;
        }
        if (st == HPLS_OK)
            st = hpls_be_vector(be, n, d, &s->invdiag);
        hpls_free(d);
        if (st != HPLS_OK)
            goto fail;
    }
    s->work = hpls_calloc(m->nwork, sizeof *s->work);
    if (!s->work) {
        st = HPLS_ERR_NOMEM;
        goto fail;
    }
    for (; s->nwork < m->nwork; s->nwork++)
        if ((st = be->v->alloc(be, n, &s->work[s->nwork])) != HPLS_OK)
            goto fail;
    if (s->A && (st = hpls_solver_setup_format(s)) != HPLS_OK)
        goto fail;
    if (s->ext_pc && (st = use_precond(s, n)) != HPLS_OK)
        goto fail;
    if (!s->ext_pc && (m->flags & HPLS_M_PRECOND) && o->pc_type->setup) {
        const hpls_pcopts po = hpls_options_pc(o);
        st = o->pc_type->setup(be, s->A, s->At, &po, &s->pc);
        if (st != HPLS_OK)
            goto fail;
        if ((m->flags & HPLS_M_TRANSPOSE) && s->pc.apply && !s->pc.apply_t) {
            st = hpls_fail(HPLS_ERR_INTERNAL, "precond %s gives no M^-T", o->pc_type->name);
            goto fail;
        }
    }
    hpls_solver_context(s);
    s->mc.mdata_destroy = m->destroy;
    s->mc.rcond = 0.0;
    if (m->setup && (st = m->setup(&s->mc)) != HPLS_OK)
        goto fail;
    if (be->err != HPLS_OK) {
        st = hpls_fail(be->err, "%s", be->msg);
        goto fail;
    }
    s->ready = 1;
    s->info = (hpls_info){.setup_s = hpls_wtime() - t0,
                          .threads = be->nthreads,
                          .rcond = s->mc.rcond,
                          .ill_conditioned = s->mc.rcond > 0 && s->mc.rcond < DBL_EPSILON};
    return HPLS_OK;
fail:
    hpls_solver_fail(s, st, "setup of %s: %s", m->name, hpls_last_error());
    hpls_solver_teardown(s);
    return st;
}

/* The setup of A (CSR) with the options in effect. */
hpls_status hpls_solver_setup_csr(hpls_solver *s, const hpls_csr *A, double t0)
{
    hpls_solver_teardown(s);
    s->env = &hpls_env_local;
    s->msg[0] = '\0';
    hpls_status st = hpls_solver_check_options(s);
    if (st != HPLS_OK)
        return st;
    if (A->nrows != A->ncols)
        return hpls_solver_fail(s, HPLS_ERR_SIZE, "the matrix is %lld x %lld: it must be square",
                                (long long)A->nrows, (long long)A->ncols);
    st = hpls_csr_check(A);
    if (st != HPLS_OK)
        return hpls_solver_fail(s, st, "%s", hpls_last_error());
    if ((s->opt.reorder || s->opt.scale) && (st = hpls_solver_transform(s, A)) != HPLS_OK) {
        hpls_solver_transform_fail(s, st);
        hpls_solver_teardown(s);
        return st;
    }
    s->A = s->Aperm ? s->Aperm : A;
    s->Auser = A;
    return hpls_solver_setup_common(s, A->nrows, t0);
}

hpls_status hpls_solver_setup(hpls_solver *s, const hpls_csr *A)
{
    if (!s || !A)
        return hpls_fail(HPLS_ERR_ARG, "hpls_solver_setup: NULL argument");
    double t0 = hpls_wtime();
    hpls_solver_auto_restore(s);
    if (s->opt.method->flags & HPLS_M_AUTO)
        return hpls_solver_setup_auto(s, A, t0);
    s->auto_msg[0] = '\0';
    return hpls_solver_setup_csr(s, A, t0);
}

/* update_values' part: the new values through every piece set up from them. */
hpls_status hpls_solver_update_numeric(hpls_solver *s, const hpls_csr *A)
{
    const hpls_method *m = s->opt.method;
    hpls_status st = HPLS_OK;
    if (s->perm) { /* P A P^T again (the ordering kept) */
        hpls_csr *Ap;
        if ((st = hpls_csr_scale_permute(A, s->rp, s->cp, NULL, NULL, &Ap)) != HPLS_OK)
            return st;
        hpls_csr_destroy(s->Aperm);
        s->Aperm = Ap;
    }
    s->A = s->Aperm ? s->Aperm : A;
    s->Auser = A;
    s->op.A = s->A;
    if (s->At) {
        hpls_csr *At;
        if ((st = hpls_csr_transpose(s->A, &At)) != HPLS_OK)
            return st;
        hpls_csr_destroy(s->At);
        s->At = At;
        s->op.At = At;
        /* distributed: Ao^T again (hpls_dcsr_set_values dropped it) */
        if ((st = s->env->op_transpose(s)) != HPLS_OK)
            return st;
    }
    if ((st = hpls_op_upload(&s->op)) != HPLS_OK) /* a device's copy of the new values */
        return st;
    if (s->invdiag) { /* 1 / A_ii at the diagonal positions found at setup */
        hpls_int n = s->A->nrows;
        hpls_real *d = hpls_malloc(n, sizeof *d);
        if (!d)
            return HPLS_ERR_NOMEM;
        for (hpls_int i = 0; i < n && st == HPLS_OK; i++) {
            double a = s->A->val[s->diagpos[i]];
            if (a == 0.0) /* reported, never divided by: no trap under feenableexcept */
                st = hpls_fail(HPLS_ERR_ZERO_DIAG, "row %lld has a zero diagonal entry",
                               (long long)i + 1);
            else
                d[i] = 1.0 / a;
        }
        if (st == HPLS_OK)
            s->be->v->upload(s->be, n, d, s->invdiag);
        hpls_free(d);
        if (st != HPLS_OK)
            return st;
    }
    if (!s->ext_pc && s->pc.update) {
        if ((st = s->pc.update(&s->pc, s->A, s->At)) != HPLS_OK)
            return st;
    } else if (!s->ext_pc && s->pc.destroy) { /* no numeric part of its own */
        s->pc.destroy(s->pc.ctx);
        memset(&s->pc, 0, sizeof s->pc);
        const hpls_pcopts po = hpls_options_pc(&s->opt);
        if ((st = s->opt.pc_type->setup(s->be, s->A, s->At, &po, &s->pc)) != HPLS_OK)
            return st;
    }
    if (m->setup) { /* the method's own data (hisa: T's factorization) */
        s->mc.mdata_destroy(s->mc.mdata);
        s->mc.mdata = NULL;
        hpls_solver_context(s);
        if ((st = m->setup(&s->mc)) != HPLS_OK)
            return st;
    }
    return s->be->err;
}

hpls_status hpls_solver_update_values(hpls_solver *s, const hpls_csr *A)
{
    if (!s || !A)
        return hpls_fail(HPLS_ERR_ARG, "hpls_solver_update_values: NULL argument");
    if (!s->ready || !s->Auser || s->dist)
        return hpls_solver_fail(s, HPLS_ERR_STATE,
                                "hpls_solver_update_values needs a solver "
                                "set up with a CSR matrix (hpls_solver_setup; a distributed "
                                "one: hpls_dcsr_set_values, then hpls_solver_update_dcsr)");
    double t0 = hpls_wtime();
    s->msg[0] = '\0';
    hpls_status st = hpls_csr_same_pattern(s->Auser, A, "hpls_solver_update_values");
    if (st != HPLS_OK)
        return hpls_solver_fail(s, st, "%s", hpls_last_error());
    /* the quad-tree holds the values in its own order; the matching and the
     * scaling depend on the values: build them again */
    if (s->qt || s->opt.reorder == 2 || s->opt.scale)
        return hpls_solver_setup(s, A);
    hpls_be_clear(s->be);
    st = hpls_solver_update_numeric(s, A);
    if (st != HPLS_OK) {
        hpls_solver_fail(s, st, "update of %s: %s", s->opt.method->name, hpls_last_error());
        hpls_solver_teardown(s);
        return st;
    }
    s->info.setup_s = hpls_wtime() - t0;
    return HPLS_OK;
}

/* What a dense or shell setup does first: the old setup torn down, this
 * process's environment, the options checked. */
static hpls_status begin_local_setup(hpls_solver *s)
{
    hpls_solver_auto_restore(s);
    hpls_solver_teardown(s);
    s->env = &hpls_env_local;
    s->msg[0] = '\0';
    return hpls_solver_check_options(s);
}

hpls_status hpls_solver_setup_dense(hpls_solver *s, const hpls_dense *A)
{
    if (!s || !A || (A->nrows * A->ncols > 0 && !A->data))
        return hpls_fail(HPLS_ERR_ARG, "hpls_solver_setup_dense: NULL argument");
    double t0 = hpls_wtime();
    hpls_status st = begin_local_setup(s);
    if (st != HPLS_OK)
        return st;
    const hpls_method *m = s->opt.method;
    if (s->opt.format || s->opt.reorder || s->opt.scale)
        return hpls_solver_fail(s, HPLS_ERR_OPTION,
                                "format=qtree, reorder and scale need a CSR matrix");
    if (!(m->flags & HPLS_M_DENSE) || ((m->flags & HPLS_M_PRECOND) && s->opt.pc_type->setup))
        return hpls_solver_fail(
            s, HPLS_ERR_OPTION,
            "solver %s%s%s does not run on a dense matrix (dense: pjg, jacobi, gs, "
            "sor, ssor, and the Krylov methods without A^T, unpreconditioned)",
            m->name, s->opt.pc_type->setup ? " with precond " : "",
            s->opt.pc_type->setup ? s->opt.pc_type->name : "");
    if (A->nrows != A->ncols)
        return hpls_solver_fail(s, HPLS_ERR_SIZE, "the matrix is %lld x %lld: it must be square",
                                (long long)A->nrows, (long long)A->ncols);
    for (hpls_int k = 0; k < A->nrows * A->ncols; k++)
        if (!isfinite(A->data[k]))
            return hpls_solver_fail(s, HPLS_ERR_VALUE,
                                    "dense matrix: value %g at row %lld, "
                                    "column %lld",
                                    A->data[k], (long long)(k / A->ncols) + 1,
                                    (long long)(k % A->ncols) + 1);
    s->Ad = A;
    return hpls_solver_setup_common(s, A->nrows, t0);
}

hpls_status hpls_solver_setup_shell(hpls_solver *s, hpls_int n, hpls_apply_fn apply,
                                    hpls_apply_fn apply_t, void *ctx)
{
    if (!s || !apply || n < 0)
        return hpls_fail(HPLS_ERR_ARG, "hpls_solver_setup_shell: %s",
                         n < 0 ? "negative n" : "NULL solver or apply");
    double t0 = hpls_wtime();
    hpls_status st = begin_local_setup(s);
    if (st != HPLS_OK)
        return st;
    const hpls_method *m = s->opt.method;
    /* what a method needs beyond y = A x: the entries of A */
    unsigned entries = HPLS_M_DIAG | HPLS_M_DIRECT | HPLS_M_TRIDIAG | HPLS_M_PSIZE | HPLS_M_QTREE;
    if ((m->flags & entries) || !(m->flags & (HPLS_M_DENSE | HPLS_M_TRANSPOSE)))
        return hpls_solver_fail(s, HPLS_ERR_OPTION,
                                "solver %s needs the entries of A: a shell "
                                "operator runs the Krylov methods only",
                                m->name);
    if ((m->flags & HPLS_M_TRANSPOSE) && !apply_t)
        return hpls_solver_fail(s, HPLS_ERR_OPTION, "solver %s applies A^T: give apply_t", m->name);
    if (s->opt.format || s->opt.reorder || s->opt.scale || (s->opt.pc_type->setup && !s->ext_pc))
        return hpls_solver_fail(s, HPLS_ERR_OPTION,
                                "%s needs the entries of A: with a shell "
                                "operator, give a preconditioner object (hpls_solver_set_precond)",
                                s->opt.pc_type->setup ? "precond"
                                                      : "format=qtree or reorder/scale");
    s->shell = (hpls_shell){.apply = apply, .apply_t = apply_t, .ctx = ctx};
    return hpls_solver_setup_common(s, n, t0);
}
