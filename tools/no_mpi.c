/* SPDX-License-Identifier: BSD-3-Clause */
/* no_mpi.c: the command's MPI entry points (cli.h) in a build without MPI
 * (HPLS_MPI=OFF: CMake compiles this file in place of mpi_solve.c), as a
 * backend that is not built answers HPLS_ERR_NOT_COMPILED: never launched
 * distributed, so `hpls solve` under mpirun runs one whole solve per process,
 * as any program does, and the command itself has no #ifdef. */
#include "cli.h"

int cli_mpi_launched(void)
{
    return 0;
}

int cli_mpi_active(void)
{
    return 0;
}

int cli_mpi_main(int argc, char **argv)
{
    return cmd_solve(argc, argv);
}

int cli_solve_dist(hpls_solver **sp, const cli_dist_job *job)
{
    (void)job;
    hpls_solver_destroy(*sp);
    *sp = NULL;
    return cli_fail(HPLS_ERR_NOT_COMPILED, "a distributed solve", "hpls was built without MPI");
}
