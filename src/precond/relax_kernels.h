/* SPDX-License-Identifier: BSD-3-Clause */
/* relax_kernels.h: the relaxation sweeps gs, sor, ssor (iter/sor.c) and
 * precond ssor (precond/ssor.c) share, below both (relax_kernels.c): their
 * signatures are kernels/relax.h's, below the backends that implement them;
 * here a family's five as the table the two run. */
#ifndef HPLS_PRECOND_RELAX_KERNELS_H
#define HPLS_PRECOND_RELAX_KERNELS_H

#include "kernels/relax.h"

typedef struct hpls_relax_kernels {
    hpls_relax_upload_fn *upload;     /* A's sweeps on a backend */
    hpls_relax_release_fn *release;   /* what upload made */
    hpls_relax_sweep_fn *sweep;       /* one SOR sweep */
    hpls_relax_residual_fn *residual; /* b - A x after it, from x_old - x_new */
    hpls_relax_ssor_fn *ssor;         /* the SSOR preconditioner's solve */
} hpls_relax_kernels;

/* The kernels of be's family (be->v->family), never NULL: every family has all
 * five, or the library does not link (relax_kernels.c's table). */
const hpls_relax_kernels *hpls_relax_kernels_of(const hpls_backend *be);

#endif /* HPLS_PRECOND_RELAX_KERNELS_H */
