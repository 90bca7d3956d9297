/* SPDX-License-Identifier: BSD-3-Clause */
/* dist.c: the table of the distributed methods' kernels (dist.h) and the
 * collective end of their setup. */
#include "mpi/dist.h"

const hpls_distops hpls_dist_ops = {.apply_part = hpls_dist_apply_part,
                                    .pjg_setup = hpls_dist_pjg_setup,
                                    .pjg_sweep = hpls_dist_pjg_sweep,
                                    .tridiag_setup = hpls_setup_tridiag_dist,
                                    .tridiag_solve = hpls_solve_tridiag_dist};

/* One rank holds T whole: the one-process direct methods run on it. */
const hpls_distops hpls_dist_ops_one = {.apply_part = hpls_dist_apply_part,
                                        .pjg_setup = hpls_dist_pjg_setup,
                                        .pjg_sweep = hpls_dist_pjg_sweep};

void hpls_dist_agree(hpls_solver *s)
{
    hpls_status (*setup)(hpls_mctx *) = s->opt.method->setup;
    if (setup == hpls_setup_pjg)
        hpls_dist_pjg_agree(s);
    else if (setup == hpls_setup_hisa || setup == hpls_setup_bhisa)
        hpls_dist_hisa_agree(s);
}
