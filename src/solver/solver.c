/* SPDX-License-Identifier: BSD-3-Clause */
/* solver.c: the solver object: create, options, monitor and convergence
 * test, a user partition, info and history, teardown and destroy.  What it
 * does is in the files beside this one (driver.h): the preconditioner object
 * (precond.c), setup and update (setup.c), a solve (solve.c), reorder and
 * scale (transform.c), solver=auto (auto.c), many right-hand sides
 * (many_rhs.c), the storage format (format.c), and the environment's
 * hooks in one process (env.c; distributed matrices: src/mpi/dist_solver.c). */
#include "options.h"
#include "solver/driver.h"

#include "la/qtree.h"

#include <stdio.h>
#include <string.h>

hpls_status hpls_solver_fail(hpls_solver *s, hpls_status st, const char *fmt, ...)
{
    char text[sizeof s->msg]; /* an argument may be hpls_last_error() itself */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    memcpy(s->msg, text, sizeof text);
    return hpls_fail(st, "%s", text);
}

/* Options that change M (the method, the preconditioner, how it runs) need a
 * new setup; those the solve alone reads (the stop test, the initial guess:
 * OpenFOAM's tolerance changes at every call) keep the setup.  solver=auto's
 * options are the advice's: any change there makes it choose afresh. */
static void options_changing(hpls_solver *s, const char *options)
{
    if (s->ready && !s->auto_on && hpls_optset_solve_only(options))
        return;
    s->ready = 0;
    hpls_solver_auto_restore(s);
}

hpls_status hpls_solver_set_option(hpls_solver *s, const char *keyvalue)
{
    if (!s || !keyvalue)
        return hpls_fail(HPLS_ERR_ARG, "hpls_solver_set_option: NULL argument");
    options_changing(s, keyvalue);
    return hpls_optset_set(&s->os, keyvalue);
}

hpls_status hpls_solver_set_options(hpls_solver *s, const char *options)
{
    if (!s || !options)
        return hpls_fail(HPLS_ERR_ARG, "hpls_solver_set_options: NULL argument");
    options_changing(s, options);
    return hpls_optset_set_list(&s->os, options);
}

const char *hpls_solver_get_option(const hpls_solver *s, const char *key)
{
    return s && key ? hpls_optset_get(&s->os, key) : NULL;
}

hpls_status hpls_solver_create(hpls_solver **out)
{
    if (!out)
        return hpls_fail(HPLS_ERR_ARG, "hpls_solver_create: NULL output");
    hpls_solver *s = hpls_calloc(1, sizeof *s);
    *out = NULL;
    if (!s)
        return HPLS_ERR_NOMEM;
    s->env = &hpls_env_local;
    hpls_status st = hpls_optset_init(&s->os, &s->opt, s->msg, sizeof s->msg);
    if (st != HPLS_OK) {
        hpls_free(s);
        return st;
    }
    *out = s;
    return HPLS_OK;
}

/* The method's context (iter/method.h) from the solver: what the method runs
 * on, the options it reads, the user's hooks; what the method left there
 * (its data, the convergence state, the history ...) is kept. */
void hpls_solver_context(hpls_solver *s)
{
    const hpls_options *o = &s->opt;
    hpls_mctx *c = &s->mc;
    c->name = o->method->name;
    c->be = s->be;
    c->op = &s->op;
    c->n = s->op.n;
    c->pc = &s->pc;
    c->pc_name = s->ext_pc ? "object" : o->pc_type ? o->pc_type->name : "none";
    c->A = s->A;
    c->Ad = s->Ad;
    c->diagpos = s->diagpos;
    c->invdiag = s->invdiag;
    c->work = s->work;
    c->opt = (hpls_mopts){.tol = o->tol,
                          .atol = o->atol,
                          .divtol = o->divtol,
                          .ref = o->ref,
                          .maxiter = o->maxiter,
                          .miniter = o->miniter,
                          .confirm = o->confirm,
                          .stag_window = o->stag_window,
                          .omega = o->omega,
                          .restart = o->restart,
                          .left = o->left,
                          .precnorm = o->precnorm,
                          .ell = o->ell,
                          .tridiag = o->tridiag,
                          .tridiag_set = hpls_optset_is_set(&s->os, "tridiag"),
                          .block = o->block,
                          .gspike_p = o->gspike_p,
                          .gspike_delta = o->gspike_delta,
                          .xtol = o->xtol,
                          .trisolve = o->trisolve,
                          .psize = o->psize,
                          .part_nblocks = o->part_nblocks,
                          .part_ptr = o->part_ptr,
                          .part_idx = o->part_idx};
    c->monitor = s->monitor;
    c->monitor_ctx = s->monitor_ctx;
    c->conv_fn = s->conv_fn;
    c->conv_ctx = s->conv_ctx;
    c->msg = s->msg;
    c->msglen = sizeof s->msg;
}

/* Frees what setup built (kept: options, monitor, history). */
void hpls_solver_teardown(hpls_solver *s)
{
    if (s->mc.mdata)
        s->mc.mdata_destroy(s->mc.mdata);
    s->mc.mdata = NULL;
    if (s->pc.destroy)
        s->pc.destroy(s->pc.ctx);
    memset(&s->pc, 0, sizeof s->pc);
    for (int i = 0; i < s->nwork; i++)
        s->be->v->release(s->be, s->work[i]);
    hpls_free(s->work);
    s->work = NULL;
    s->nwork = 0;
    s->cols_stored = 0;
    hpls_csr_destroy(s->At);
    s->At = NULL;
    hpls_free(s->diagpos);
    s->diagpos = NULL;
    if (s->be)
        s->be->v->release(s->be, s->invdiag);
    s->invdiag = NULL;
    hpls_qtree_destroy(s->qt);
    s->qt = NULL;
    hpls_csr_destroy(s->Aperm);
    hpls_free(s->perm);
    hpls_free(s->dr);
    hpls_free(s->dc);
    hpls_free(s->pb);
    hpls_free(s->px);
    hpls_free(s->pr);
    s->Aperm = NULL;
    s->perm = NULL;
    s->rp = s->cp = NULL;
    s->dr = s->dc = NULL;
    s->pb = s->px = s->pr = NULL;
    s->fmt[0] = '\0';
    s->A = s->Auser = NULL;
    s->Ad = NULL;
    hpls_op_release(&s->op);
    s->dist = NULL;
    hpls_backend_destroy(s->be);
    s->be = NULL;
    s->env->release(s); /* after the backend (a distributed one uses its matrix's communicator) */
    s->op = (hpls_op){0};
    s->ready = 0;
}

void hpls_solver_destroy(hpls_solver *s)
{
    if (!s)
        return;
    hpls_solver_teardown(s);
    hpls_precond_destroy(s->ext_pc);
    hpls_free(s->mc.hist.it);
    hpls_free(s->mc.hist.res);
    hpls_free(s->mc.hist.t);
    hpls_free(s->part_ptr);
    hpls_free(s->part_idx);
    hpls_free(s->adv);
    hpls_free(s);
}

hpls_status hpls_solver_set_monitor(hpls_solver *s, hpls_monitor_fn fn, void *ctx)
{
    if (!s)
        return hpls_fail(HPLS_ERR_ARG, "hpls_solver_set_monitor: NULL solver");
    s->monitor = fn;
    s->monitor_ctx = ctx;
    return HPLS_OK;
}

hpls_status hpls_solver_set_convergence_test(hpls_solver *s, hpls_converged_fn fn, void *ctx)
{
    if (!s)
        return hpls_fail(HPLS_ERR_ARG, "hpls_solver_set_convergence_test: NULL solver");
    hpls_converged_fn old_fn = s->conv_fn;
    void *old_ctx = s->conv_ctx;
    s->conv_fn = fn;
    s->conv_ctx = ctx;
    hpls_status st = s->ready ? hpls_solver_check_convtest(s) : HPLS_OK;
    if (st != HPLS_OK) { /* the setup checked the old test: keep it */
        s->conv_fn = old_fn;
        s->conv_ctx = old_ctx;
        return hpls_solver_fail(s, st, "%s", hpls_last_error());
    }
    return HPLS_OK;
}

hpls_status hpls_solver_set_precond(hpls_solver *s, hpls_precond *P)
{
    if (!s)
        return hpls_fail(HPLS_ERR_ARG, "hpls_solver_set_precond: NULL solver");
    if (P && hpls_precond_size(P) < 0)
        return hpls_solver_fail(s, HPLS_ERR_STATE,
                                "hpls_solver_set_precond: the preconditioner "
                                "object is not set up");
    if (P)
        hpls_precond_retain(P);
    hpls_solver_teardown(s); /* the bridge to the old one goes with the setup */
    hpls_precond_destroy(s->ext_pc);
    s->ext_pc = P;
    s->ready = 0;
    return HPLS_OK;
}

hpls_status hpls_solver_get_info_sized(const hpls_solver *s, hpls_info *info, size_t info_size)
{
    if (!s || !info)
        return hpls_fail(HPLS_ERR_ARG, "hpls_solver_get_info: NULL argument");
    /* as much as the caller's hpls_info holds (hpls.h, ABI) */
    memcpy(info, &s->info, info_size < sizeof s->info ? info_size : sizeof s->info);
    return HPLS_OK;
}

hpls_status hpls_solver_history(const hpls_solver *s, hpls_int *count, const hpls_int **its,
                                const double **relres, const double **seconds)
{
    if (!s || !count)
        return hpls_fail(HPLS_ERR_ARG, "hpls_solver_history: NULL argument");
    *count = s->mc.hist.len;
    if (its)
        *its = s->mc.hist.it;
    if (relres)
        *relres = s->mc.hist.res;
    if (seconds)
        *seconds = s->mc.hist.t;
    return HPLS_OK;
}

hpls_status hpls_solver_set_partition(hpls_solver *s, hpls_int nblocks, const hpls_int *ptr,
                                      const hpls_int *idx)
{
    if (!s || nblocks < 0 || (nblocks > 0 && (!ptr || !idx)))
        return hpls_fail(HPLS_ERR_ARG, "hpls_solver_set_partition: bad argument");
    for (hpls_int k = 0; k < nblocks; k++)
        if (ptr[k + 1] < ptr[k] || ptr[0] != 0)
            return hpls_solver_fail(s, HPLS_ERR_ARG,
                                    "partition: ptr must start at 0 and not "
                                    "decrease (block %lld)",
                                    (long long)k + 1);
    hpls_int *p = NULL, *q = NULL;
    if (nblocks > 0 && (!(p = hpls_malloc(nblocks + 1, sizeof *p)) ||
                        !(q = hpls_malloc(ptr[nblocks], sizeof *q)))) {
        hpls_free(p);
        return HPLS_ERR_NOMEM;
    }
    for (hpls_int k = 0; p && k <= nblocks; k++)
        p[k] = ptr[k];
    for (hpls_int k = 0; q && k < ptr[nblocks]; k++)
        q[k] = idx[k];
    hpls_solver_auto_restore(s);
    hpls_free(s->part_ptr);
    hpls_free(s->part_idx);
    s->part_ptr = p;
    s->part_idx = q;
    s->opt.part_nblocks = nblocks;
    s->opt.part_ptr = p;
    s->opt.part_idx = q;
    s->ready = 0;
    return HPLS_OK;
}

const char *hpls_solver_trisolve(const hpls_solver *s)
{
    const char *strategy = NULL;
    if (s && s->ready && s->ext_pc)
        hpls_precond_get_info(s->ext_pc, NULL, &strategy);
    return s && s->ready && !s->ext_pc ? hpls_pc_strategy(&s->pc) : strategy;
}

hpls_status hpls_gmres_basis_loss(const hpls_solver *s, hpls_int k, double *loss)
{
    return hpls_gmres_loss(&s->mc, k, loss);
}

const char *hpls_solver_message(const hpls_solver *s)
{
    return s ? s->msg : "";
}

const char *hpls_solver_prefetch(hpls_solver *s)
{
    if (!s || !s->ready || !s->be || s->be->k->spmv != hpls_k_spmv_pf) /* cpu's kernels only */
        return NULL;
    return hpls_be_prefetch(s->be, s->pfmsg, sizeof s->pfmsg);
}

const char *hpls_solver_format(const hpls_solver *s)
{
    return s && s->ready && s->fmt[0] ? s->fmt : NULL;
}
