/* SPDX-License-Identifier: BSD-3-Clause */
/* relax_kernels.c: the table of each family's relaxation sweeps
 * (relax_kernels.h), which the methods gs, sor, ssor and precond ssor run. */
#include "precond/relax_kernels.h"

/* Each family's kernels (kernels/relax.h), at its index. */
#define RELAX_OF_(f, p)                                                                            \
    [HPLS_KF_##f] = {hpls_##p##_relax_upload, hpls_##p##_relax_release, hpls_##p##_relax_sweep,    \
                     hpls_##p##_relax_residual, hpls_##p##_relax_ssor},
static const hpls_relax_kernels kernels[HPLS_KF_COUNT] = {HPLS_KFAMILIES(RELAX_OF_)};

const hpls_relax_kernels *hpls_relax_kernels_of(const hpls_backend *be)
{
    return &kernels[be->v->family];
}
