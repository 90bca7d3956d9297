#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# bicgstabl.sh: one run of hpls's BiCGstab(l) against PETSc's KSPBCGSL, 1 thread
# against 1 process, on the same Matrix Market files (l = 1, 2, 4; precond none
# and jacobi; tol 1e-8 on ||b - A x|| / ||b|| for both), with hpls's bicgstab
# beside; written to $HPLS_BENCH_OUT/bicgstabl_petsc.md (bench/run_all.sh
# repeats it).
#   bench/bicgstabl.sh [BUILD_DIR]
set -euo pipefail
. "$(dirname "$0")/common.sh"
build=${1:-./build}
build_targets "$build" hpls_cmd
peer=$(petsc_peer_checked "$build")
work=${TMPDIR:-/tmp}/hpls_bench/bicgstabl
mkdir -p "$work"
specs="gas:n=1000000,k=1 gas:n=1000000,k=3 convdiff3d:nx=100,pe=10"
[ "${HPLS_BENCH_SMOKE:-0}" != 1 ] || specs="gas:n=20000,k=1 convdiff3d:nx=20,pe=10"

kv() { sed -n "s/.*[ ^]$1=\([^ ]*\).*/\1/p" <<<" $2"; }
js() { sed -n "s/.*\"$1\":\([^,}]*\).*/\1/p" <<<"$2"; }

{
    echo "# BiCGstab(l): hpls against PETSc's KSPBCGSL, 1 thread vs 1 process"
    echo
    echo "Both read the same Matrix Market file written by \`hpls gen\`; b = A 1, x0 = 0, right preconditioning, stop when ||b - A x|| <= 1e-8 ||b||.  Time = the solve's (setup excluded), one solve each.  hpls: \`hpls solve A.mtx --solver bicgstabl --ell L --precond PC --threads 1 --json\` (and \`--solver bicgstab\`); PETSc: \`mpiexec -n 1 petsc_bcgs A.mtx 1 -ksp_type bcgsl -ksp_bcgsl_ell L -pc_type PC -rtol_b 1e-8\` (bench/peers/petsc_bcgs.c: -rtol_b makes PETSc's test the same, see its head; PETSc's defaults otherwise: the minimal-residual polynomial by pseudoinverse of the Gram matrix).  An iteration is one BiCG step (two products with A) in both."
    echo
    echo "| matrix | precond | l | iterations hpls / PETSc | hpls s | PETSc s | hpls / PETSc | hpls ms/it | PETSc ms/it | hpls bicgstab: iterations, s |"
    echo "|---|---|---:|---|---:|---:|---:|---:|---:|---|"
    for spec in $specs; do
        file=$work/$(tr ':=,' '___' <<<"$spec").mtx
        [ -s "$file" ] || "$build/bin/hpls" gen "$spec" -o "$file" >/dev/null
        for pc in none jacobi; do
            j=$("$build/bin/hpls" solve "$file" --solver bicgstab --precond "$pc" --threads 1 --json)
            ref=$(printf '%d, %.3f' "$(js iterations "$j")" "$(js solve_s "$j")")
            for l in 1 2 4; do
                j=$("$build/bin/hpls" solve "$file" --solver bicgstabl --ell "$l" --precond "$pc" \
                    --threads 1 --json)
                [ "$(js converged "$j")" = true ] || bench_die "hpls did not converge: $j"
                line=$(mpi_run 1 "$peer" "$file" 1 -ksp_type bcgsl -ksp_bcgsl_ell "$l" \
                    -pc_type "$pc" -rtol_b 1e-8 | grep '^peer=') ||
                    bench_die "PETSc printed no result ($spec $pc l=$l)"
                [ "$(kv reason "$line")" = CONVERGED_ATOL ] || bench_die "PETSc: $line"
                awk -v spec="$spec" -v pc="$pc" -v l="$l" -v oi="$(js iterations "$j")" \
                    -v os="$(js solve_s "$j")" -v pi="$(kv iterations "$line")" \
                    -v ps="$(kv solve_s "$line")" -v ref="$ref" 'BEGIN {
                    printf "| %s | %s | %d | %d / %d | %.3f | %.3f | %.2f | %.2f | %.2f | %s |\n",
                        spec, pc, l, oi, pi, os, ps, os / ps, 1e3 * os / oi, 1e3 * ps / pi, ref
                }'
            done
        done
    done
    cat <<'NOTES'

How to read it:
- iterations: hpls tests after every BiCG step, PETSc at the end of a cycle of
  l steps, so hpls may stop up to l - 1 steps earlier; otherwise the counts
  differ by rounding only (tests/ref/petsc_bcgsl_iterations.txt).
- ms/it: a cycle of l steps reads and writes more vectors as l grows (hpls:
  18 reads and 6 writes of n doubles per step at l = 1, 23 and 6.5 at l = 2,
  31.5 and 8.25 at l = 4, bicgstab 14 and 4; src/iter/bicgstabl.c), so the
  time per step grows with l.
NOTES
} >"$out/bicgstabl_petsc.md"
echo "wrote $out/bicgstabl_petsc.md"
