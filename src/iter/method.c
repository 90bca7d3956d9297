/* SPDX-License-Identifier: BSD-3-Clause */
/* method.c: what a method applies through its context: the operator and the
 * preconditioner, each failure recorded on the backend (sticky: the next
 * convergence test stops the solve), and a message told to the context's
 * owner. */
#include "iter/method.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

/* z = M^-1 r (transpose: M^-T r) by f, or r when M has no such application;
 * a failure recorded on the backend, named */
static const hpls_dvec *pc_run(const hpls_mctx *mc, int transpose, const hpls_dvec *r, hpls_dvec *z)
{
    const hpls_pc *pc = mc->pc;
    hpls_status (*f)(const hpls_pc *, const hpls_dvec *, hpls_dvec *) =
        transpose ? pc->apply_t : pc->apply;
    if (!f)
        return r;
    hpls_status st = f(pc, r, z);
    if (st != HPLS_OK)
        hpls_be_fail(mc->be, st, "preconditioner %s%s: %s", mc->pc_name,
                     transpose ? " (transpose)" : "", hpls_last_error());
    return z;
}

const hpls_dvec *hpls_m_pc_apply(const hpls_mctx *mc, const hpls_dvec *r, hpls_dvec *z)
{
    return pc_run(mc, 0, r, z);
}

const hpls_dvec *hpls_m_pc_apply_t(const hpls_mctx *mc, const hpls_dvec *r, hpls_dvec *z)
{
    return pc_run(mc, 1, r, z);
}

void hpls_m_op_apply(const hpls_mctx *mc, const hpls_dvec *x, hpls_dvec *y)
{
    hpls_status st = mc->op->apply(mc->op, x, y);
    if (st != HPLS_OK)
        hpls_be_fail(mc->be, st, "operator: %s", hpls_last_error());
}

void hpls_m_op_apply_t(const hpls_mctx *mc, const hpls_dvec *x, hpls_dvec *y)
{
    hpls_status st = mc->op->apply_t(mc->op, x, y);
    if (st != HPLS_OK)
        hpls_be_fail(mc->be, st, "operator (transpose): %s", hpls_last_error());
}

double hpls_m_op_residual(const hpls_mctx *mc, const hpls_dvec *b, const hpls_dvec *x, hpls_dvec *r)
{
    double rnorm = NAN;
    hpls_status st = mc->op->residual(mc->op, b, x, r, &rnorm);
    if (st != HPLS_OK)
        hpls_be_fail(mc->be, st, "residual: %s", hpls_last_error());
    return st == HPLS_OK ? rnorm : NAN;
}

hpls_status hpls_m_fail(hpls_mctx *mc, hpls_status st, const char *fmt, ...)
{
    char text[512]; /* an argument may be hpls_last_error() itself */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (mc->msg && mc->msglen > 0)
        snprintf(mc->msg, mc->msglen, "%s", text);
    return hpls_fail(st, "%s", text);
}
