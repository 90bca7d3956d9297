#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# gmres.sh: one run of hpls's GMRES(30) against PETSc's KSPGMRES(30) at equal
# resources (1 thread vs 1 MPI process, 2 threads vs 2 processes) on the same
# Matrix Market files, tol 1e-7, each against the traffic bound of the same
# run; written to $HPLS_BENCH_OUT/gmres_petsc.md (bench/run_all.sh repeats it).
#   bench/gmres.sh [BUILD_DIR]
set -euo pipefail
. "$(dirname "$0")/common.sh"
build=${1:-./build}
build_targets "$build" bench_hisa_tables hpls_cmd
peer=$(petsc_peer_checked "$build")
work=${TMPDIR:-/tmp}/hpls_bench/gmres
mkdir -p "$work"
specs="gas:n=1000000,k=1 convdiff3d:nx=100 gas:n=1000000,k=3"
[ "${HPLS_BENCH_SMOKE:-0}" != 1 ] || specs="gas:n=20000,k=1 convdiff3d:nx=20"

kv() { sed -n "s/.*[ ^]$1=\([^ ]*\).*/\1/p" <<<" $2"; }
triads "$build"

{
    echo "# GMRES(30): hpls against PETSc's KSPGMRES at equal resources"
    echo
    echo "Both read the same Matrix Market file written by \`hpls gen\`; b = A 1, x0 = 0, no preconditioner, restart 30, stop when ||b - A x|| <= 1e-7 ||b||.  Time per iteration = the solve's time (setup excluded) over its iterations.  hpls: \`hpls solve A.mtx --solver gmres --tol 1e-7 --threads T --json\` (classical Gram-Schmidt twice, the second pass delayed a step); PETSc: \`mpiexec -n P petsc_bcgs A.mtx 1 -ksp_type gmres -ksp_gmres_restart 30 -pc_type none -ksp_rtol 1e-7 -log_view\` (its default: classical Gram-Schmidt once, no refinement)."
    echo
    echo "Triad of this run (\`bench_hisa_tables triad T\`, 24 B per entry): ${triad[1]} GB/s at 1 thread, ${triad[2]} GB/s at 2."
    echo
    echo "| matrix | resources | hpls ms/it | PETSc ms/it | hpls / PETSc | iterations hpls / PETSc | bound ms/it | hpls / bound | PETSc / bound | PETSc MatMult: share, GB/s | PETSc VecMDot + VecMAXPY share |"
    echo "|---|---|---:|---:|---:|---|---:|---:|---:|---|---:|"
    for spec in $specs; do
        file=$work/$(tr ':=,' '___' <<<"$spec").mtx
        [ -s "$file" ] || "$build/bin/hpls" gen "$spec" -o "$file" >/dev/null
        read -r n nnz < <(grep -v '^%' "$file" | head -1 | awk '{ print $1, $3 }')
        for p in 1 2; do
            j=$("$build/bin/hpls" solve "$file" --solver gmres --tol 1e-7 --threads "$p" --json)
            mpi_run "$p" "$peer" "$file" 1 -ksp_type gmres -ksp_gmres_restart 30 -pc_type none \
                -ksp_rtol 1e-7 -log_view ":$work/log$p.txt" >"$work/out$p.txt"
            line=$(grep '^peer=' "$work/out$p.txt") || bench_die "PETSc printed no result: $(cat "$work/out$p.txt")"
            awk -v n="$n" -v nnz="$nnz" -v p="$p" -v bw="${triad[$p]}" -v j="$j" \
                -v pm="$(kv per_it_ms "$line")" -v pi="$(kv iterations "$line")" -v spec="$spec" '
                BEGIN {
                    match(j, /"iterations":[0-9]+/); oi = substr(j, RSTART + 13, RLENGTH - 13)
                    match(j, /"solve_s":[0-9.e+-]+/); om = 1e3 * substr(j, RSTART + 10, RLENGTH - 10) / oi
                    spmv = 12 * nnz + 8 * (n + 1) + 16 * n
                    # a step j of a cycle of 30 moves at least the basis twice and
                    # w: (2 j + 6) n doubles; j averages 14.5
                    bound = (spmv + (2 * 14.5 + 6) * 8 * n) / (bw * 1e9) * 1e3
                }
                $1 == "MatMult" { mm = $2; mmt = $4 }
                $1 == "VecMDot" || $1 == "VecMAXPY" { gs += $4 }
                $1 == "KSPSolve" { kt = $4 }
                END {
                    printf "| %s | %d thread%s vs %d process%s | %.2f | %.2f | %.2f | %d / %d | %.2f | %.2f | %.2f | %.0f%%, %.1f GB/s | %.0f%% |\n",
                        spec, p, (p > 1 ? "s" : ""), p, (p > 1 ? "es" : ""), om, pm, om / pm, oi, pi, bound,
                        om / bound, pm / bound, (kt > 0 ? 100 * mmt / kt : 0),
                        (mmt > 0 ? mm * spmv / mmt / 1e9 : 0), (kt > 0 ? 100 * gs / kt : 0)
                }' "$work/log$p.txt"
        done
    done
    cat <<'NOTES'

How to read it:
- bound: one SpMV (12 nnz + 8 (n+1) + 16 n bytes: x read once) and the basis
  read twice per step (a step j of 30 moves (2 j + 6) n doubles, j averaging
  14.5) over the triad at that thread (process) count.  Both codes move about
  that: PETSc's one classical pass (VecMDot, VecMAXPY, VecNormalize) as much as
  hpls's two passes with the second delayed (mdot2, maxpy2); so hpls / bound and
  PETSc / bound compare the kernels, and the orthogonality hpls keeps (two
  passes: ||I - V^T V|| ~ 1e-15) costs no extra sweep.
- PETSc MatMult: its share of KSPSolve and its GB/s (gas's columns are random:
  PETSc's SpMV waits on its gathers, hpls's prefetches them).
NOTES
} >"$out/gmres_petsc.md"
echo "wrote $out/gmres_petsc.md"
