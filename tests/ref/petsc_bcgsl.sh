#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# petsc_bcgsl.sh: reference iteration counts of PETSc's KSPBCGSL (BiCGstab(l))
# for hpls's bicgstabl (tests/unit/test_bicgstabl.c reads the output).
#
# Run once, from the repository root, after building (needs Debian's petsc-dev
# and mpicc):
#   tests/ref/petsc_bcgsl.sh build > tests/ref/petsc_bcgsl_iterations.txt
#
# Each generated problem is written by `hpls gen`, so PETSc sees hpls's matrix;
# the real ones are read from $HPLS_DATA_DIR (default ../shared/data).  The
# driver is bench/peers/petsc_bcgs.c with -ksp_type bcgsl: b = A 1, x0 = 0,
# right preconditioning, unpreconditioned residual norm, one process, and
# -rtol_b, the stopping test hpls uses (||b - A x|| <= tol ||b||, see the
# driver: KSPBCGSL's own rtol test takes the residual after its first BiCG
# step as the reference).  PETSc's defaults otherwise: the minimal-residual
# polynomial (-ksp_bcgsl_mrpoly), solved by pseudoinverse, no residual
# replacement (xres 0).  PETSc counts ell iterations per cycle and tests at the
# cycle's end only.
set -euo pipefail
build=${1:?usage: tests/ref/petsc_bcgsl.sh BUILD_DIR}
data=${HPLS_DATA_DIR:-$(dirname "$0")/../../../shared/data}
pc=$(pkg-config --exists PETSc && echo PETSc || echo petsc)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
driver=$work/petsc_bcgs
# shellcheck disable=SC2046
mpicc -O2 -std=c11 -Wall -Wextra "$(dirname "$0")/../../bench/peers/petsc_bcgs.c" -o "$driver" \
    $(pkg-config --cflags --libs "$pc")
tol=1e-08
generated="gas:n=20000,k=1 gas:n=20000,k=2 gas:n=20000,k=3 convdiff3d:nx=20,pe=10
convdiff3d:nx=20,pe=100 poisson2d:nx=64 poisson3d:nx=20"
# orsirr_1 is left out: hpls's own backends take 324 (cpu) and 390 (ref)
# iterations at l = 2 there, so no count is a reference on it
real="sherman1 cdde1 lis_testmat2 orsreg_1 saylr3"

echo "# PETSc $(pkg-config --modversion "$pc") KSPBCGSL iteration counts; made by tests/ref/petsc_bcgsl.sh"
echo "# source solver:ell=L precond tol iterations   (source: an hpls gen spec, or data:FILE"
echo "# under HPLS_DATA_DIR; the true relres of PETSc's x in the comment)"
# one problem: its source name, the file, the preconditioners
run() {
    local src=$1 file=$2 pcs=$3 p l line its reason relres
    for p in $pcs; do
        for l in 1 2 4; do
            line=$(OMP_NUM_THREADS=1 "$driver" "$file" 1 -ksp_type bcgsl -ksp_bcgsl_ell "$l" \
                -pc_type "$p" -rtol_b "$tol" -ksp_max_it 100000)
            its=$(sed -n 's/.* iterations=\([0-9]*\).*/\1/p' <<<"$line")
            reason=$(sed -n 's/.* reason=\([A-Z_]*\).*/\1/p' <<<"$line")
            relres=$(sed -n 's/.* relres=\([^ ]*\).*/\1/p' <<<"$line")
            if [ "$reason" = CONVERGED_ATOL ]; then
                echo "$src bicgstabl:ell=$l $p $tol $its   # relres $relres"
            else
                echo "# $src bicgstabl:ell=$l $p $tol: PETSc $reason after $its, relres $relres"
            fi
        done
    done
}
for spec in $generated; do
    "$build/bin/hpls" gen "$spec" -o "$work/a.mtx" >/dev/null
    run "$spec" "$work/a.mtx" "none jacobi"
done
for m in $real; do
    f=$data/matrices/$m.mtx
    [ -f "$f" ] || { echo "# data:matrices/$m.mtx: not found under $data"; continue; }
    run "data:matrices/$m.mtx" "$f" "jacobi"
done
