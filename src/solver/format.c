/* SPDX-License-Identifier: BSD-3-Clause */
/* format.c (solver): the storage of A that the operator multiplies by,
 * format=qtree or CSR, chosen at setup (hpls_solver_setup_common, setup.c). */
#include "options.h"
#include "solver/driver.h"

#include "la/qtree.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* format=qtree (or solver qtbicgstab): the operator walks the quad-tree of A
 * (Xu et al. 2015, Alg. 2), one row band per thread; the true residual stays
 * CSR's.  qt_d = 0: hpls_qtree_create_auto starts from Eq. 17's d for the L2
 * size, times one product on the trees of that d and its neighbours against
 * CSR's and keeps the fastest; CSR is kept when x fits in L2 or no tree beat
 * it by 5%, and the format line says which and why.  Either product gives the same
 * y bit for bit (qtree_spmv.c), so the choice changes speed only, never the
 * iterates. */
hpls_status hpls_solver_setup_format(hpls_solver *s)
{
    const hpls_options *o = &s->opt;
    if (!(o->method->flags & HPLS_M_QTREE) && o->format == 0)
        return HPLS_OK;
    if (o->format == 0 && hpls_optset_is_set(&s->os, "format"))
        return hpls_fail(HPLS_ERR_OPTION, "solver %s always uses format=qtree (not csr)",
                         o->method->name);
    size_t used = strlen(s->fmt);
    char *fmt = s->fmt + used;
    size_t room = sizeof s->fmt - used;
    const char *sep = used ? ", " : "";
    hpls_status st;
    if (o->qt_d > 0) {
        st = hpls_qtree_create(s->A, o->qt_d, 0, s->be->nthreads, &s->qt);
        if (st != HPLS_OK)
            return st;
        snprintf(fmt, room, "%sqtree d=%lld (given)", sep, (long long)o->qt_d);
    } else {
        hpls_qt_choice c;
        st = hpls_qtree_create_auto(s->A, s->be->nthreads, &s->qt, &c);
        if (st != HPLS_OK)
            return st;
        if (c.d0 == 0) {
            snprintf(fmt, room, "%scsr (auto: x fits in L2 = %ld KiB, no quad-tree)", sep,
                     c.l2 / 1024);
            return HPLS_OK;
        }
        double tbest = HUGE_VAL;
        for (int k = 0; k < c.ncand; k++)
            tbest = c.t_cand[k] < tbest ? c.t_cand[k] : tbest;
        if (!s->qt) {
            snprintf(fmt, room,
                     "%scsr (auto: no quad-tree beat csr by 5%%, d=%lld..%lld (Eq. 17 d=%lld) best "
                     "%.2fx "
                     "csr's SpMV time)",
                     sep, (long long)c.cand[0], (long long)c.cand[c.ncand - 1], (long long)c.d0,
                     tbest / c.t_csr);
            return HPLS_OK;
        }
        snprintf(fmt, room,
                 "%sqtree d=%lld (auto: Eq. 17 d=%lld, best of %lld..%lld, %.2fx csr's "
                 "SpMV, built %.2f s)",
                 sep, (long long)c.d, (long long)c.d0, (long long)c.cand[0],
                 (long long)c.cand[c.ncand - 1], tbest / c.t_csr, c.t_build);
    }
    hpls_op_set_qtree(&s->op, s->qt);
    used = strlen(s->fmt);
    snprintf(s->fmt + used, sizeof s->fmt - used, ", side %lld, %lld leaves, panel %lld, %d bands",
             (long long)s->qt->side, (long long)s->qt->nleaves, (long long)s->qt->panel,
             s->qt->nbands);
    return HPLS_OK;
}
