#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# peers.sh: one run of issue 29's table: setup + solve of hpls against PETSc at
# equal resources (1 thread vs 1 process; 2 threads and 2 MPI ranks vs 2
# processes) on the same Matrix Market files, for the methods a user compares
# first; written to $HPLS_BENCH_OUT/peers.md (bench/run_all.sh repeats it).
#   bench/peers.sh [BUILD_DIR]
set -euo pipefail
. "$(dirname "$0")/common.sh"
build=${1:-./build}
build_targets "$build" bench_hisa_tables hpls_cmd
peer=$(petsc_peer_checked "$build")
triads "$build"
work=${TMPDIR:-/tmp}/hpls_bench/peers
mkdir -p "$work"
big=1000000 nx=100
[ "${HPLS_BENCH_SMOKE:-0}" != 1 ] || big=20000 nx=20
# matrix | label | hpls options | PETSc options at 1 process | at 2 processes (block Jacobi)
cases=(
    "gas:n=$big,k=1|bicgstab|--solver bicgstab|-ksp_type bcgs -pc_type none|-ksp_type bcgs -pc_type none"
    "gas:n=$big,k=1|gmres(30)|--solver gmres --restart 30|-ksp_type gmres -ksp_gmres_restart 30 -pc_type none|-ksp_type gmres -ksp_gmres_restart 30 -pc_type none"
    "gas:n=$big,k=1|bicgstab + ilu0|--solver bicgstab --precond ilu0|-ksp_type bcgs -pc_type ilu|-ksp_type bcgs -pc_type bjacobi -sub_pc_type ilu"
    "poisson3d:nx=$nx|bicgstab|--solver bicgstab|-ksp_type bcgs -pc_type none|-ksp_type bcgs -pc_type none"
    "poisson3d:nx=$nx|cg + dic (PETSc: icc)|--solver cg --precond dic|-ksp_type cg -ksp_pc_side left -pc_type icc|-ksp_type cg -ksp_pc_side left -pc_type bjacobi -sub_pc_type icc"
    "convdiff3d:nx=$nx|bicgstab + ilu0|--solver bicgstab --precond ilu0|-ksp_type bcgs -pc_type ilu|-ksp_type bcgs -pc_type bjacobi -sub_pc_type ilu"
    "convdiff3d:nx=$nx|gmres(30)|--solver gmres --restart 30|-ksp_type gmres -ksp_gmres_restart 30 -pc_type none|-ksp_type gmres -ksp_gmres_restart 30 -pc_type none"
)

kv() { sed -n "s/.*[ ^]$1=\([^ ]*\).*/\1/p" <<<" $2"; }
js() { sed -n "s/.*\"$1\":\([^,}]*\).*/\1/p" <<<"$2"; }
# hpls T|R FILE OPTS: "seconds iterations" of setup + solve, T threads or R ranks
hpls_run() {
    local how=$1 file=$2 j
    shift 2
    if [ "$how" = ranks ]; then
        j=$(mpi_run 2 "$build/bin/hpls" solve "$file" --tol 1e-7 "$@" --json)
    else
        j=$("$build/bin/hpls" solve "$file" --tol 1e-7 --threads "$how" "$@" --json)
    fi
    [ "$(js converged "$j")" = true ] || bench_die "hpls did not converge: $j"
    awk -v a="$(js setup_s "$j")" -v b="$(js solve_s "$j")" -v i="$(js iterations "$j")" \
        'BEGIN { printf "%.3f %d\n", a + b, i }'
}
# petsc P FILE OPTS: "seconds iterations" of KSPSetUp + KSPSolve on P processes
petsc_run() {
    local p=$1 file=$2 line
    shift 2
    line=$(mpi_run "$p" "$peer" "$file" 1 -ksp_rtol 1e-7 "$@" | grep '^peer=') ||
        bench_die "PETSc printed no result for $*"
    [[ $(kv reason "$line") == CONVERGED* ]] || bench_die "PETSc did not converge: $line"
    awk -v a="$(kv setup_s "$line")" -v b="$(kv solve_s "$line")" -v i="$(kv iterations "$line")" \
        'BEGIN { printf "%.3f %d\n", a + b, i }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

{
    echo "# hpls against PETSc: setup + solve at equal resources (issue 29's table)"
    echo
    echo "Both read the same Matrix Market file written by \`hpls gen\`; b = A 1, x0 = 0, stop when ||b - A x|| <= 1e-7 ||b|| (PETSc: right preconditioning and the unpreconditioned norm, except cg: left, unpreconditioned norm, which PETSc's CG needs).  Seconds of setup + solve (reading the file excluded).  hpls: \`hpls solve A.mtx --tol 1e-7 OPTIONS --threads T --json\` (setup_s + solve_s), on 2 ranks \`mpiexec -n 2 hpls solve ...\` with OMP_NUM_THREADS=1; PETSc: \`mpiexec -n P petsc_bcgs A.mtx 1 OPTIONS -ksp_rtol 1e-7\` (KSPSetUp + KSPSolve; on 2 processes the preconditioners are block Jacobi with ILU(0) / ICC(0) in each block, PETSc's default there)."
    echo
    echo "Triad of this run (\`bench_hisa_tables triad T\`, 24 B per entry): ${triad[1]} GB/s at 1 thread, ${triad[2]} GB/s at 2."
    echo
    echo "| matrix | method | hpls 1 thread, s | PETSc 1 process, s | hpls / PETSc (1) | hpls 2 threads, s | hpls 2 threads, trisolve=serial, s | hpls 2 ranks, s | PETSc 2 processes, s | hpls 2 threads / PETSc 2 | hpls 2 threads serial / PETSc 2 | hpls 2 ranks / PETSc 2 | iterations: hpls 1 thread / PETSc 1 / hpls 2 threads / serial / hpls 2 ranks / PETSc 2 |"
    echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
    for c in "${cases[@]}"; do
        IFS='|' read -r spec label ours p1 p2 <<<"$c"
        file=$work/$(tr ':=,' '___' <<<"$spec").mtx
        [ -s "$file" ] || "$build/bin/hpls" gen "$spec" -o "$file" >/dev/null
        # shellcheck disable=SC2086
        read -r h1 i1 < <(hpls_run 1 "$file" $ours)
        # shellcheck disable=SC2086
        read -r q1 j1 < <(petsc_run 1 "$file" $p1)
        # shellcheck disable=SC2086
        read -r h2 i2 < <(hpls_run 2 "$file" $ours)
        hb=– ib=– bq=–
        if [[ $ours == *--precond* ]]; then
            # shellcheck disable=SC2086
            read -r hb ib < <(hpls_run 2 "$file" $ours --trisolve serial)
        fi
        # shellcheck disable=SC2086
        read -r r2 k2 < <(hpls_run ranks "$file" $ours)
        # shellcheck disable=SC2086
        read -r q2 j2 < <(petsc_run 2 "$file" $p2)
        [ "$hb" = – ] || bq=$(ratio "$hb" "$q2")
        echo "| $spec | $label | $h1 | $q1 | $(ratio "$h1" "$q1") | $h2 | $hb | $r2 | $q2 | $(ratio "$h2" "$q2") | $bq | $(ratio "$r2" "$q2") | $i1 / $j1 / $i2 / $ib / $k2 / $j2 |"
    done
    cat <<'NOTES'

How to read it:
- Equal resources: 1 thread against 1 process; 2 threads and 2 MPI ranks of one
  thread each against 2 processes.  A ratio below 1 is hpls ahead.
- ILU(0) and IC(0) on 2 processes are PETSc's block Jacobi: each process factors
  its own diagonal block, so its iteration count differs from 1 process; hpls at 2
  threads (trisolve=auto, the default) takes trisolve=block on these sizes: the
  same preconditioners as PETSc's block Jacobi, a block per thread, each factored
  and swept by its thread alone (no waits; the iterations of PETSc's 2 processes),
  and on 2 ranks factors each rank's block as PETSc.
- trisolve=serial: the one-process M at 2 threads (the iterations of 1 thread),
  its sweeps serial (what auto kept on 2 cores before it took block; levels and
  syncfree: bench/results/trisolve.md).
- Setup counts what each code builds before the first iteration: hpls's
  setup_s (backend, operator, preconditioner), PETSc's KSPSetUp (PCSetUp).
NOTES
} >"$out/peers.md"
echo "wrote $out/peers.md"
