/* SPDX-License-Identifier: BSD-3-Clause */
/* precond.c (solver): preconditioner objects (hpls.h, hpls_precond_*): one of
 * the registry's preconditioners (src/precond/) built on its own backend from
 * its own options (the driver's option table, hence here), or the user's
 * functions (shell); applied by the user, or by solvers through a bridge
 * (hpls_solver_set_precond).  Applies are serialised by a mutex: the
 * preconditioners keep scratch state (trisolve=auto's timings, sweep flags).
 * The object is reference counted, so a solver may outlive the user's handle. */
#include "options.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <threads.h>

struct hpls_precond {
    hpls_options opt;
    hpls_optset os;
    hpls_backend *be;  /* what M lives on (threads and backend options) */
    hpls_pc pc;
    const hpls_csr *A; /* the matrix of the setup */
    hpls_csr *At;      /* A^T, when M^-T was asked for */
    hpls_int n;        /* -1: not set up */
    int transpose;     /* M^-T available */
    hpls_shell shell;  /* create_shell: the user's functions */
    double setup_s;
    atomic_int refs;
    mtx_t lock;
    hpls_real *h;          /* bridge to a backend of another kind: a host buffer */
    hpls_dvec *hr, *hz;    /* and two vectors of P's backend */
    char msg[512];
};

static hpls_status pfail(hpls_precond *P, hpls_status st, const char *fmt, ...) HPLS_PRINTF(3, 4);
static hpls_status pfail(hpls_precond *P, hpls_status st, const char *fmt, ...)
{
    char text[sizeof P->msg]; /* an argument may be hpls_last_error() itself */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    memcpy(P->msg, text, sizeof text);
    return hpls_fail(st, "%s", text);
}

static void teardown(hpls_precond *P)
{
    if (P->pc.destroy)
        P->pc.destroy(P->pc.ctx);
    memset(&P->pc, 0, sizeof P->pc);
    hpls_csr_destroy(P->At);
    P->At = NULL;
    if (P->be) {
        P->be->v->release(P->be, P->hr);
        P->be->v->release(P->be, P->hz);
    }
    P->hr = P->hz = NULL;
    hpls_free(P->h);
    P->h = NULL;
    P->A = NULL;
    P->n = -1;
}

hpls_status hpls_precond_create(hpls_precond **out)
{
    if (!out)
        return hpls_fail(HPLS_ERR_ARG, "hpls_precond_create: NULL output");
    *out = NULL;
    hpls_precond *P = hpls_calloc(1, sizeof *P);
    if (!P)
        return HPLS_ERR_NOMEM;
    P->n = -1;
    atomic_init(&P->refs, 1);
    if (mtx_init(&P->lock, mtx_plain) != thrd_success) {
        hpls_free(P);
        return hpls_fail(HPLS_ERR_NOMEM, "hpls_precond_create: no mutex");
    }
    hpls_status st = hpls_optset_init(&P->os, &P->opt, P->msg, sizeof P->msg);
    if (st != HPLS_OK) {
        hpls_fail(st, "%s", P->msg);
        mtx_destroy(&P->lock);
        hpls_free(P);
        return st;
    }
    *out = P;
    return HPLS_OK;
}

void hpls_precond_retain(hpls_precond *P) { atomic_fetch_add(&P->refs, 1); }

void hpls_precond_destroy(hpls_precond *P)
{
    if (!P || atomic_fetch_sub(&P->refs, 1) > 1)
        return;
    teardown(P);
    hpls_backend_destroy(P->be);
    mtx_destroy(&P->lock);
    hpls_free(P);
}

hpls_status hpls_precond_set_options(hpls_precond *P, const char *options)
{
    if (!P || !options)
        return hpls_fail(HPLS_ERR_ARG, "hpls_precond_set_options: NULL argument");
    if (P->shell.apply)
        return pfail(P, HPLS_ERR_STATE, "a shell preconditioner takes no options");
    P->msg[0] = '\0';
    teardown(P); /* options change M: set up again */
    return hpls_optset_set_list(&P->os, options);
}

const char *hpls_precond_get_option(const hpls_precond *P, const char *key)
{
    return P && key ? hpls_optset_get(&P->os, key) : NULL;
}

/* z = M^-1 r (or M^-T) of the user's function on P's host vectors. */
static hpls_status shell_apply_dir(const hpls_pc *pc, const hpls_dvec *r, hpls_dvec *z, int t)
{
    const hpls_precond *P = pc->ctx;
    const hpls_real *rp = hpls_v_host(pc->be, r);
    hpls_real *zp = hpls_v_host(pc->be, z);
    if (!rp || !zp)
        return pc->be->err;
    int rc = (t ? P->shell.apply_t : P->shell.apply)(P->shell.ctx, P->n, rp, zp);
    if (rc != 0)
        return hpls_fail(HPLS_ERR_CALLBACK, "the user's preconditioner z = M^-%s r returned %d",
                         t ? "T" : "1", rc);
    return HPLS_OK;
}

static hpls_status shell_apply(const hpls_pc *pc, const hpls_dvec *r, hpls_dvec *z)
{
    return shell_apply_dir(pc, r, z, 0);
}

static hpls_status shell_apply_t(const hpls_pc *pc, const hpls_dvec *r, hpls_dvec *z)
{
    return shell_apply_dir(pc, r, z, 1);
}

hpls_status hpls_precond_create_shell(hpls_int n, hpls_apply_fn apply, hpls_apply_fn apply_t,
                                      void *ctx, hpls_precond **out)
{
    if (!out || !apply || n < 0)
        return hpls_fail(HPLS_ERR_ARG, "hpls_precond_create_shell: %s",
                         n < 0 ? "negative n" : "NULL apply or output");
    hpls_status st = hpls_precond_create(out);
    hpls_precond *P = *out;
    if (st == HPLS_OK)
        st = hpls_backend_create(HPLS_BACKEND_CPU, 1,
                                 &P->be); /* cpu: the user's function gets host arrays */
    if (st != HPLS_OK) {
        hpls_precond_destroy(P);
        *out = NULL;
        return st;
    }
    P->shell = (hpls_shell){.apply = apply, .apply_t = apply_t, .ctx = ctx};
    P->pc = (hpls_pc){.ctx = P, .be = P->be, .apply = shell_apply,
                      .apply_t = apply_t ? shell_apply_t : NULL};
    P->n = n;
    P->transpose = apply_t != NULL;
    return HPLS_OK;
}

hpls_status hpls_precond_setup(hpls_precond *P, const hpls_csr *A, unsigned flags)
{
    if (!P || !A)
        return hpls_fail(HPLS_ERR_ARG, "hpls_precond_setup: NULL argument");
    if (P->shell.apply)
        return pfail(P, HPLS_ERR_STATE, "a shell preconditioner is not set up from a matrix");
    double t0 = hpls_wtime();
    P->msg[0] = '\0';
    teardown(P);
    const hpls_pc_type *t = P->opt.pc_type;
    const char *key = hpls_optset_unused(&P->os, t->flags | HPLS_M_PRECOND, 0);
    if (key)
        return pfail(P, HPLS_ERR_OPTION, "option %s does not apply to precond %s", key, t->name);
    if (A->nrows != A->ncols)
        return pfail(P, HPLS_ERR_SIZE, "the matrix is %lld x %lld: it must be square",
                     (long long)A->nrows, (long long)A->ncols);
    hpls_status st = hpls_csr_check(A);
    if (st != HPLS_OK)
        return pfail(P, st, "%s", hpls_last_error());
    /* the backend follows the options (threads, backend) of this setup */
    hpls_backend_destroy(P->be);
    P->be = NULL;
    int threads = P->opt.threads > 0 ? (int)P->opt.threads : hpls_auto_threads((double)A->nnz);
    if ((st = hpls_backend_create(P->opt.backend, threads, &P->be)) != HPLS_OK)
        return pfail(P, st, "%s", hpls_last_error());
    hpls_be_set_prefetch(P->be, P->opt.prefetch); /* the sweeps read the variant */
    if ((flags & HPLS_PRECOND_TRANSPOSE) && t->setup &&
        (st = hpls_csr_transpose(A, &P->At)) != HPLS_OK)
        return pfail(P, st, "%s", hpls_last_error());
    const hpls_pcopts po = hpls_options_pc(&P->opt);
    if (t->setup && (st = t->setup(P->be, A, P->At, &po, &P->pc)) != HPLS_OK) {
        pfail(P, st, "setup of precond %s: %s", t->name, hpls_last_error());
        teardown(P);
        return st;
    }
    P->A = A;
    P->n = A->nrows;
    P->transpose = (flags & HPLS_PRECOND_TRANSPOSE) != 0;
    P->setup_s = hpls_wtime() - t0;
    return HPLS_OK;
}

hpls_status hpls_precond_update_values(hpls_precond *P, const hpls_csr *A)
{
    if (!P || !A)
        return hpls_fail(HPLS_ERR_ARG, "hpls_precond_update_values: NULL argument");
    if (P->n < 0 || P->shell.apply)
        return pfail(P, HPLS_ERR_STATE, "hpls_precond_update_values needs a preconditioner set "
                                        "up from a matrix (hpls_precond_setup)");
    double t0 = hpls_wtime();
    P->msg[0] = '\0';
    hpls_status st = hpls_csr_same_pattern(P->A, A, "hpls_precond_update_values");
    if (st != HPLS_OK)
        return pfail(P, st, "%s", hpls_last_error());
    if (!P->pc.update) /* this preconditioner has no numeric-only part: all again */
        return hpls_precond_setup(P, A, P->transpose ? HPLS_PRECOND_TRANSPOSE : 0);
    if (P->At) {
        hpls_csr *At = NULL;
        if ((st = hpls_csr_transpose(A, &At)) != HPLS_OK)
            return pfail(P, st, "%s", hpls_last_error());
        hpls_csr_destroy(P->At);
        P->At = At;
    }
    mtx_lock(&P->lock);
    st = P->pc.update(&P->pc, A, P->At);
    mtx_unlock(&P->lock);
    if (st != HPLS_OK) {
        pfail(P, st, "update of precond %s: %s", P->opt.pc_type->name, hpls_last_error());
        teardown(P);
        return st;
    }
    P->A = A;
    P->setup_s = hpls_wtime() - t0;
    return HPLS_OK;
}

/* z = M^-1 r or M^-T r on P's own backend, P locked. */
static hpls_status apply_locked(hpls_precond *P, const hpls_dvec *r, hpls_dvec *z, int t)
{
    hpls_be_clear(P->be);
    hpls_status (*fn)(const hpls_pc *, const hpls_dvec *, hpls_dvec *) =
        t ? P->pc.apply_t : P->pc.apply;
    if (fn)
        return fn(&P->pc, r, z);
    hpls_v_copy(P->be, P->n, r, z); /* precond=none: the identity */
    return P->be->err;
}

static hpls_status user_apply(hpls_precond *P, const hpls_vec *r, hpls_vec *z, int t)
{
    const char *name = t ? "hpls_precond_apply_transpose" : "hpls_precond_apply";
    if (!P || !r || !z)
        return hpls_fail(HPLS_ERR_ARG, "%s: NULL argument", name);
    if (P->n < 0)
        return pfail(P, HPLS_ERR_STATE, "%s before a successful setup", name);
    if (t && !P->transpose)
        return pfail(P, HPLS_ERR_STATE, "%s: M^-T was not asked for (setup flag "
                                        "HPLS_PRECOND_TRANSPOSE, or apply_t of a shell)", name);
    if (r->n != P->n || z->n != P->n)
        return pfail(P, HPLS_ERR_SIZE, "%s: M is %lld x %lld but r has %lld and z %lld entries",
                     name, (long long)P->n, (long long)P->n, (long long)r->n, (long long)z->n);
    if (r->data == z->data && P->n > 0)
        return pfail(P, HPLS_ERR_ARG, "%s: z must not be r", name);
    hpls_dvec *R = NULL, *Z = NULL;
    mtx_lock(&P->lock);
    hpls_status st = hpls_be_attach(P->be, P->n, r->data, 1, &R);
    if (st == HPLS_OK)
        st = hpls_be_attach(P->be, P->n, z->data, 0, &Z);
    if (st == HPLS_OK)
        st = apply_locked(P, R, Z, t);
    hpls_be_detach(P->be, P->n, Z, z->data, st == HPLS_OK);
    hpls_be_detach(P->be, P->n, R, r->data, 0);
    mtx_unlock(&P->lock);
    if (st != HPLS_OK)
        return pfail(P, st, "%s: %s", name, hpls_last_error());
    return HPLS_OK;
}

hpls_status hpls_precond_apply(hpls_precond *P, const hpls_vec *r, hpls_vec *z)
{
    return user_apply(P, r, z, 0);
}

hpls_status hpls_precond_apply_transpose(hpls_precond *P, const hpls_vec *r, hpls_vec *z)
{
    return user_apply(P, r, z, 1);
}

hpls_status hpls_precond_get_info(const hpls_precond *P, double *setup_seconds,
                                  const char **strategy)
{
    if (!P)
        return hpls_fail(HPLS_ERR_ARG, "hpls_precond_get_info: NULL argument");
    if (setup_seconds)
        *setup_seconds = P->setup_s;
    if (strategy)
        *strategy = P->n >= 0 ? hpls_pc_strategy(&P->pc) : NULL;
    return HPLS_OK;
}

const char *hpls_precond_message(const hpls_precond *P) { return P ? P->msg : ""; }

hpls_int hpls_precond_size(const hpls_precond *P) { return P->n; }

int hpls_precond_has_transpose(const hpls_precond *P) { return P->transpose; }

/* A solver's z = M^-1 r through P: the solver's vectors are handed over as they
 * are when both backends keep host arrays (cpu), else copied through host
 * memory into P's vectors (ref, later device backends). */
static hpls_status bridge_apply_dir(const hpls_pc *pc, const hpls_dvec *r, hpls_dvec *z, int t)
{
    hpls_precond *P = pc->ctx;
    hpls_backend *be = pc->be;
    hpls_int n = P->n;
    mtx_lock(&P->lock);
    hpls_status st = HPLS_OK;
    if (be->host_arrays && P->be->host_arrays) {
        st = apply_locked(P, r, z, t);
    } else {
        if (!P->h && (!(P->h = hpls_malloc(n, sizeof *P->h)) ||
                      P->be->v->alloc(P->be, n, &P->hr) != HPLS_OK ||
                      P->be->v->alloc(P->be, n, &P->hz) != HPLS_OK)) {
            hpls_free(P->h);
            P->h = NULL;
            st = HPLS_ERR_NOMEM;
        }
        if (st == HPLS_OK) {
            be->v->download(be, n, r, P->h);
            P->be->v->upload(P->be, n, P->h, P->hr);
            st = apply_locked(P, P->hr, P->hz, t);
            P->be->v->download(P->be, n, P->hz, P->h);
            be->v->upload(be, n, P->h, z);
        }
    }
    mtx_unlock(&P->lock);
    return st == HPLS_OK ? be->err : st;
}

static hpls_status bridge_apply(const hpls_pc *pc, const hpls_dvec *r, hpls_dvec *z)
{
    return bridge_apply_dir(pc, r, z, 0);
}

static hpls_status bridge_apply_t(const hpls_pc *pc, const hpls_dvec *r, hpls_dvec *z)
{
    return bridge_apply_dir(pc, r, z, 1);
}

hpls_pc hpls_precond_bridge(hpls_precond *P, hpls_backend *be)
{
    return (hpls_pc){.ctx = P, .be = be, .apply = bridge_apply,
                     .apply_t = P->transpose ? bridge_apply_t : NULL};
}
