/* SPDX-License-Identifier: BSD-3-Clause */
/* auto.c (solver): solver=auto: hpls info's advice (advice.c), chosen at
 * setup (the first candidate that sets up), and at most one fallback to the
 * next candidate when a solve does not converge. */
#include "options.h"
#include "solver/driver.h"

#include "advice.h"

#include <stdio.h>
#include <string.h>

/* solver=auto (hpls_solver_setup_auto below): the user's options again
 * where a candidate's are in effect: before any option is set and any setup,
 * so solver=auto chooses afresh. */
void hpls_solver_auto_restore(hpls_solver *s)
{
    if (!s->auto_on)
        return;
    s->opt = s->auto_opt;
    s->os = s->auto_os;
    s->auto_on = 0;
}

/* Sets A up with the user's options and candidate k's (solver, precond, reorder). */
static hpls_status auto_use(hpls_solver *s, const hpls_csr *A, int k, double t0)
{
    s->opt = s->auto_opt;
    s->os = s->auto_os;
    s->auto_on = 1;
    s->auto_pick = k;
    hpls_status st = hpls_optset_set_list(&s->os, s->adv->opts[k]);
    return st == HPLS_OK ? hpls_solver_setup_csr(s, A, t0) : st;
}

/* solver=auto: the advice for A, then the first candidate that sets up; what
 * was chosen and why in auto_msg. */
hpls_status hpls_solver_setup_auto(hpls_solver *s, const hpls_csr *A, double t0)
{
    hpls_solver_teardown(s);
    s->msg[0] = s->auto_msg[0] = '\0';
    hpls_status st = hpls_solver_check_options(s);
    if (st != HPLS_OK)
        return st;
    int reorder = hpls_optset_is_set(&s->os, "reorder"),
        scale = hpls_optset_is_set(&s->os, "scale");
    if (reorder || scale || s->ext_pc)
        return hpls_solver_fail(s, HPLS_ERR_OPTION,
                                "solver=auto chooses reorder, scale and "
                                "the preconditioner itself (%s was given)",
                                s->ext_pc ? "a preconditioner object"
                                : reorder ? "reorder"
                                          : "scale");
    if (A->nrows != A->ncols)
        return hpls_solver_fail(s, HPLS_ERR_SIZE, "the matrix is %lld x %lld: it must be square",
                                (long long)A->nrows, (long long)A->ncols);
    if ((st = hpls_csr_check(A)) != HPLS_OK)
        return hpls_solver_fail(s, st, "%s", hpls_last_error());
    if (!s->adv && !(s->adv = hpls_malloc(1, sizeof *s->adv)))
        return HPLS_ERR_NOMEM;
    hpls_props p;
    hpls_matrix_props(A, &p);
    if ((st = hpls_advise(A, &p, s->adv)) != HPLS_OK)
        return hpls_solver_fail(s, st, "solver=auto: %s", hpls_last_error());
    s->auto_opt = s->opt;
    s->auto_os = s->os;
    s->auto_fell = 0;
    char flags[160], failed[sizeof s->auto_msg] = "";
    st = HPLS_ERR_OPTION;
    for (int k = 0; k < s->adv->n && st != HPLS_OK; k++) {
        if ((st = auto_use(s, A, k, t0)) == HPLS_OK)
            break;
        hpls_advice_flags(s->adv->opts[k], flags, sizeof flags);
        size_t used = strlen(failed);
        snprintf(failed + used, sizeof failed - used, "; %s did not set up: %s", flags, s->msg);
    }
    if (st != HPLS_OK) {
        hpls_solver_auto_restore(s);
        return hpls_solver_fail(s, st, "solver=auto: no advice sets up%s", failed);
    }
    hpls_advice_flags(s->adv->opts[s->auto_pick], flags, sizeof flags);
    int used = snprintf(s->auto_msg, sizeof s->auto_msg, "solver=auto chose %s", flags);
    for (int k = 0; k < HPLS_ADVICE_WHY; k++)
        if (s->adv->why[k][0] && used >= 0 && (size_t)used < sizeof s->auto_msg)
            used += snprintf(s->auto_msg + used, sizeof s->auto_msg - (size_t)used, "%s%s",
                             k ? "; " : ": ", s->adv->why[k]);
    if (failed[0] && used >= 0 && (size_t)used < sizeof s->auto_msg)
        snprintf(s->auto_msg + used, sizeof s->auto_msg - (size_t)used, "%s", failed);
    return HPLS_OK;
}

const char *hpls_solver_auto(const hpls_solver *s)
{
    return s && s->auto_on && s->ready ? s->auto_msg : NULL;
}

/* solver=auto: a solve that did not converge is done again, once, with the
 * next candidate of the advice (set up on the same A, from the same initial
 * guess); auto_msg says so.  A candidate that does not set up leaves the
 * first one in place. */
hpls_status hpls_solver_auto_fall_back(hpls_solver *s, const hpls_vec *b, hpls_vec *x,
                                       const hpls_real *x0)
{
    hpls_info first = s->info;
    char flags[160], next[160], why[sizeof s->msg];
    memcpy(why, s->msg, sizeof why);
    int pick = s->auto_pick;
    hpls_advice_flags(s->adv->opts[pick], flags, sizeof flags);
    hpls_advice_flags(s->adv->opts[pick + 1], next, sizeof next);
    size_t used = strlen(s->auto_msg);
    s->auto_fell = 1;
    hpls_status st = auto_use(s, s->Auser, pick + 1, hpls_wtime());
    if (st != HPLS_OK) { /* back to the first candidate, its result kept */
        snprintf(s->auto_msg + used, sizeof s->auto_msg - used,
                 "; %s: %s after %lld iterations, and %s did not set up: %s", flags,
                 hpls_reason_str(first.reason), (long long)first.iterations, next, s->msg);
        if ((st = auto_use(s, s->Auser, pick, hpls_wtime())) != HPLS_OK)
            return st;
        s->info = first;
        memcpy(s->msg, why, sizeof why);
        return HPLS_OK;
    }
    snprintf(s->auto_msg + used, sizeof s->auto_msg - used,
             "; %s: %s after %lld iterations, so it fell back to %s", flags,
             hpls_reason_str(first.reason), (long long)first.iterations, next);
    for (hpls_int i = 0; x0 && i < x->n; i++)
        x->data[i] = x0[i];
    double setup_s = s->info.setup_s + first.setup_s;
    st = hpls_solver_solve_once(s, b, x);
    s->info.setup_s = setup_s;
    s->info.solve_s += first.solve_s;
    return st;
}
