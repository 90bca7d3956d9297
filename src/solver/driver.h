/* SPDX-License-Identifier: BSD-3-Clause */
/* driver.h: what the files of the driver (src/solver/) share.  Nothing
 * outside src/solver/ includes it: methods, preconditioners and src/mpi see
 * solver.h. */
#ifndef HPLS_DRIVER_H
#define HPLS_DRIVER_H

#include "solver.h"

/* format.c */
/* format=qtree (or a method on the quad-tree): A's quad-tree, or CSR kept; s->fmt says why. */
hpls_status hpls_solver_setup_format(hpls_solver *s);

#endif
