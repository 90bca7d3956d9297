/* SPDX-License-Identifier: BSD-3-Clause */
/* petsc_bcgs.c: PETSc's BiCGSTAB (KSPBCGS) on a Matrix Market file, the peer
 * hpls's bicgstab is compared with in bench/results/petsc_bicgstab.md; with
 * -ksp_type another KSP (tests/ref/petsc_bcgsl.sh: KSPBCGSL for bicgstabl).
 *
 *   petsc_bcgs A.mtx [reps] [PETSc options, e.g. -pc_type jacobi -ksp_rtol 1e-8]
 *
 * -rtol_b T (this driver's): stop when ||b - A x|| <= T ||b||, as abstol with
 * rtol 0.  KSPBCGSL needs it to count as hpls: it calls the convergence test
 * with iteration 0 again after its first BiCG step, and KSPConvergedDefault
 * then takes that residual, not ||b||, as the reference of rtol (PETSc 3.18).
 *
 * Any number of MPI processes (mpiexec -n P; rows split in P consecutive blocks;
 * every process reads the file and keeps its rows).  b = A 1, x0 = 0, relative tolerance on ||b - A x|| / ||b||
 * as hpls: right preconditioning with the unpreconditioned residual norm (for
 * pc_type none the same as PETSc's default).  Each of reps solves is timed
 * around KSPSolve alone (setup done before, timed once: KSPSetUp, which builds
 * the preconditioner); prints one line of key=value: iterations, setup seconds,
 * median seconds per solve and per iteration, reason, true relres.
 * Not built by CMake: bench/run_all.sh compiles it with pkg-config's PETSc flags. */
#include <petscksp.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads a real "coordinate general" Matrix Market file (as `hpls gen` writes it)
 * into an AIJ matrix over PETSC_COMM_WORLD (SeqAIJ on one process), each process
 * keeping its block of rows.  Entries may come in any order; PETSc sums nothing
 * here since each (i, j) appears once. */
static PetscErrorCode read_mtx(const char *path, Mat *A)
{
    FILE *f = fopen(path, "r");
    PetscCheck(f, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot open %s", path);
    char line[1024];
    PetscCheck(fgets(line, sizeof line, f), PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "%s: empty",
               path);
    PetscCheck(strstr(line, "coordinate") && strstr(line, "real") && strstr(line, "general"),
               PETSC_COMM_SELF, PETSC_ERR_SUP, "%s: only real general coordinate files", path);
    do
        PetscCheck(fgets(line, sizeof line, f), PETSC_COMM_SELF, PETSC_ERR_FILE_READ,
                   "%s: no size line", path);
    while (line[0] == '%');
    long long m, n, nnz;
    PetscCheck(sscanf(line, "%lld %lld %lld", &m, &n, &nnz) == 3 && m == n && m > 0,
               PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: bad size line", path);
    PetscInt mloc = PETSC_DECIDE, mg = (PetscInt)m, rstart = 0;
    PetscCall(PetscSplitOwnership(PETSC_COMM_WORLD, &mloc, &mg));
    PetscCallMPI(MPI_Exscan(&mloc, &rstart, 1, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD));
    PetscMPIInt rank;
    PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
    if (rank == 0)
        rstart = 0; /* MPI_Exscan leaves rank 0's result undefined */
    PetscInt *ri, *cj, *dn, *on;
    PetscScalar *v;
    PetscCall(PetscMalloc5(nnz, &ri, nnz, &cj, nnz, &v, mloc, &dn, mloc, &on));
    PetscCall(PetscArrayzero(dn, mloc));
    PetscCall(PetscArrayzero(on, mloc));
    for (long long k = 0; k < nnz; k++) {
        long long i, j;
        double a;
        PetscCheck(fscanf(f, "%lld %lld %lf", &i, &j, &a) == 3 && i >= 1 && i <= m && j >= 1 &&
                       j <= n,
                   PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: bad entry %lld", path, k + 1);
        ri[k] = (PetscInt)(i - 1);
        cj[k] = (PetscInt)(j - 1);
        v[k] = a;
        if (ri[k] >= rstart && ri[k] < rstart + mloc) { /* diagonal or off-diagonal block */
            if (cj[k] >= rstart && cj[k] < rstart + mloc)
                dn[ri[k] - rstart]++;
            else
                on[ri[k] - rstart]++;
        }
    }
    fclose(f);
    PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, mloc, mloc, mg, mg, 0, dn, 0, on, A));
    for (long long k = 0; k < nnz; k++)
        if (ri[k] >= rstart && ri[k] < rstart + mloc)
            PetscCall(MatSetValue(*A, ri[k], cj[k], v[k], INSERT_VALUES));
    PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
    PetscCall(PetscFree5(ri, cj, v, dn, on));
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
    PetscCheck(argc >= 2, PETSC_COMM_SELF, PETSC_ERR_USER,
               "usage: petsc_bcgs A.mtx [reps] [options]");
    int reps = argc >= 3 && argv[2][0] != '-' ? atoi(argv[2]) : 3;
    PetscCheck(reps >= 1 && reps <= 100, PETSC_COMM_SELF, PETSC_ERR_USER, "reps: 1..100");

    Mat A;
    Vec x, b, r;
    KSP ksp;
    PC pc;
    PetscCall(read_mtx(argv[1], &A));
    PetscCall(MatCreateVecs(A, &x, &b));
    PetscCall(VecDuplicate(b, &r));
    PetscCall(VecSet(x, 1.0));
    PetscCall(MatMult(A, x, b)); /* b = A 1 */

    PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
    PetscCall(KSPSetOperators(ksp, A, A));
    PetscCall(KSPSetType(ksp, KSPBCGS));
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PCSetType(pc, PCNONE));
    PetscCall(KSPSetPCSide(ksp, PC_RIGHT));
    PetscCall(KSPSetNormType(ksp, KSP_NORM_UNPRECONDITIONED));
    PetscCall(KSPSetTolerances(ksp, 1e-8, 0.0, PETSC_DEFAULT, 100000));
    PetscCall(KSPSetFromOptions(ksp));
    PetscReal rtol_b;
    PetscBool by_b;
    PetscCall(PetscOptionsGetReal(NULL, NULL, "-rtol_b", &rtol_b, &by_b));
    if (by_b) {
        PetscReal bn0;
        PetscCall(VecNorm(b, NORM_2, &bn0));
        PetscCall(KSPSetTolerances(ksp, 0.0, rtol_b * bn0, PETSC_DEFAULT, PETSC_DEFAULT));
    }
    PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
    double setup = MPI_Wtime();
    PetscCall(KSPSetUp(ksp));
    setup = MPI_Wtime() - setup;

    double *t = malloc((size_t)reps * sizeof *t);
    PetscInt its = 0;
    KSPConvergedReason reason;
    for (int k = 0; k < reps; k++) {
        PetscCall(VecSet(x, 0.0)); /* x0 = 0 */
        PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
        double t0 = MPI_Wtime();
        PetscCall(KSPSolve(ksp, b, x));
        t[k] = MPI_Wtime() - t0;
        PetscCall(KSPGetIterationNumber(ksp, &its));
        PetscCall(KSPGetConvergedReason(ksp, &reason));
    }
    qsort(t, (size_t)reps, sizeof *t, cmp_double);
    double med = reps % 2 ? t[reps / 2] : 0.5 * (t[reps / 2 - 1] + t[reps / 2]);

    PetscReal bn, rn, rtol, atol;
    PetscBool bcgsl;
    PetscCall(PetscObjectTypeCompare((PetscObject)ksp, KSPBCGSL, &bcgsl));
    if (bcgsl) { /* PETSc 3.18's KSPBCGSL returns u of A M^-1 u = b, not x = M^-1 u */
        PetscCall(PCApply(pc, x, r));
        PetscCall(VecCopy(r, x));
    }
    PetscCall(MatMult(A, x, r));
    PetscCall(VecAYPX(r, -1.0, b)); /* r = b - A x */
    PetscCall(VecNorm(r, NORM_2, &rn));
    PetscCall(VecNorm(b, NORM_2, &bn));
    PetscCall(KSPGetTolerances(ksp, &rtol, &atol, NULL, NULL));
    PCType pctype;
    KSPType ksptype;
    PetscCall(PCGetType(pc, &pctype));
    PetscCall(KSPGetType(ksp, &ksptype));
    PetscMPIInt size;
    PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD,
                          "peer=petsc-%d.%d.%d procs=%d ksp=%s pc=%s rtol=%g atol=%g iterations=%d "
                          "setup_s=%.6f solve_s=%.6f per_it_ms=%.4f reason=%s relres=%.3e\n",
                          PETSC_VERSION_MAJOR, PETSC_VERSION_MINOR, PETSC_VERSION_SUBMINOR,
                          (int)size, ksptype, pctype, (double)rtol, (double)atol, (int)its, setup, med,
                          its > 0 ? 1e3 * med / (double)its : 0.0, KSPConvergedReasons[reason],
                          (double)(rn / bn)));

    free(t);
    PetscCall(KSPDestroy(&ksp));
    PetscCall(VecDestroy(&x));
    PetscCall(VecDestroy(&b));
    PetscCall(VecDestroy(&r));
    PetscCall(MatDestroy(&A));
    PetscCall(PetscFinalize());
    return 0;
}
