#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# small.sh: one run of the small-systems table (issue 29): hpls against PETSc at
# OpenFOAM tutorial sizes (n = 2e3 to 5e4), where a solve lasts milliseconds and
# fixed costs per iteration (parallel-region entry, allocation, reductions)
# decide.  One setup, then many solves of the same matrix, as an application
# does at every time step; 1 thread against 1 process.  The two programs take
# turns, ROUNDS times, so that a change in the machine's speed hits both;
# written to $HPLS_BENCH_OUT/small.md (bench/run_all.sh repeats it).
#   bench/small.sh [BUILD_DIR]        HPLS_SMALL_ROUNDS (5), HPLS_SMALL_SOLVES (31)
set -euo pipefail
. "$(dirname "$0")/common.sh"
build=${1:-./build}
build_targets "$build" bench_repeat bench_hisa_tables hpls_cmd
peer=$(petsc_peer_checked "$build")
triads "$build"
rounds=${HPLS_SMALL_ROUNDS:-5} solves=${HPLS_SMALL_SOLVES:-31}
[[ $rounds =~ ^[1-9][0-9]*$ && $solves =~ ^[1-9][0-9]*$ ]] ||
    bench_die "HPLS_SMALL_ROUNDS and HPLS_SMALL_SOLVES must be positive integers"
work=${TMPDIR:-/tmp}/hpls_bench/small
mkdir -p "$work"
cgdic="cg + dic (PETSc: icc)|solver=cg precond=dic|-ksp_type cg -ksp_pc_side left -pc_type icc"
cgjac="cg + jacobi|solver=cg precond=jacobi|-ksp_type cg -ksp_pc_side left -pc_type jacobi"
bcilu="bicgstab + ilu0|solver=bicgstab precond=ilu0|-ksp_type bcgs -pc_type ilu"
gmres="gmres(30)|solver=gmres restart=30|-ksp_type gmres -ksp_gmres_restart 30 -pc_type none"
bcgs="bicgstab|solver=bicgstab|-ksp_type bcgs -pc_type none"
# matrix|label|hpls options|PETSc options
cases=(
    "poisson2d:nx=50|$cgdic" "poisson2d:nx=100|$cgdic" "poisson2d:nx=220|$cgdic"
    "poisson2d:nx=100|$cgjac"
    "convdiff3d:nx=14|$bcilu" "convdiff3d:nx=22|$bcilu" "convdiff3d:nx=36|$bcilu"
    "convdiff3d:nx=14|$gmres" "convdiff3d:nx=36|$gmres"
    "gas:n=2000,k=1|$bcgs" "gas:n=10000,k=1|$bcgs" "gas:n=50000,k=1|$bcgs"
)
[ "${HPLS_BENCH_SMOKE:-0}" != 1 ] || cases=("poisson2d:nx=20|$cgdic" "gas:n=2000,k=1|$bcgs")

kv() { sed -n "s/.*[ ^]$1=\([^ ]*\).*/\1/p" <<<" $2"; }
# hpls FILE OPTS / petsc FILE OPTS...: "setup_s solve_s iterations", the solve the
# median of $solves
hpls_run() {
    local line
    line=$(OMP_NUM_THREADS=1 "$build/bin/bench_repeat" "$1" "$solves" "$2 tol=1e-7 threads=1") ||
        bench_die "hpls failed: $*"
    [ "$(kv converged "$line")" = 1 ] || bench_die "hpls did not converge: $*: $line"
    echo "$(kv setup_s "$line") $(kv solve_s "$line") $(kv iterations "$line")"
}
petsc_run() {
    local file=$1 line
    shift
    line=$(OMP_NUM_THREADS=1 mpi_run 1 "$peer" "$file" "$solves" -ksp_rtol 1e-7 "$@" |
        grep '^peer=') || bench_die "PETSc printed no result for $*"
    [[ $(kv reason "$line") == CONVERGED* ]] || bench_die "PETSc did not converge: $line"
    echo "$(kv setup_s "$line") $(kv solve_s "$line") $(kv iterations "$line")"
}
# median of the arguments (the lower middle one for an even count)
med() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

{
    echo "# Small systems: hpls against PETSc at OpenFOAM tutorial sizes, 1 thread vs 1 process"
    echo
    echo "Both read the same Matrix Market file written by \`hpls gen\`; b = A 1, x0 = 0, stop when ||b - A x|| <= 1e-7 ||b|| (PETSc: right preconditioning and the unpreconditioned norm, except cg: left, unpreconditioned norm).  One setup, then $solves solves of the same system, each timed around the solve call alone, the median kept: hpls \`bench_repeat A.mtx $solves \"OPTIONS tol=1e-7 threads=1\"\` (bench/bench_repeat.c), PETSc \`mpiexec -n 1 petsc_bcgs A.mtx $solves OPTIONS -ksp_rtol 1e-7\` (KSPSolve; setup = KSPSetUp).  The two take turns $rounds times in this run (hpls, PETSc, hpls, ...); each figure below is the median of its $rounds turns, a ratio the median of the $rounds ratios of a turn and the PETSc turn after it.  OMP_NUM_THREADS=1 for both."
    echo
    echo "Triad of this run (\`bench_hisa_tables triad T\`, 24 B per entry): ${triad[1]} GB/s at 1 thread, ${triad[2]} GB/s at 2."
    echo
    echo "| matrix | n | method | hpls ms/it | PETSc ms/it | hpls / PETSc per iteration | hpls solve, ms | PETSc solve, ms | hpls / PETSc solve | hpls setup, ms | PETSc setup, ms | iterations hpls / PETSc |"
    echo "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"
    for c in "${cases[@]}"; do
        IFS='|' read -r spec label ours theirs <<<"$c"
        file=$work/$(tr ':=,' '___' <<<"$spec").mtx
        [ -s "$file" ] || "$build/bin/hpls" gen "$spec" -o "$file" >/dev/null
        n=$(awk '!/^%/ { print $1; exit }' "$file")
        hit=() pit=() hso=() pso=() hse=() pse=() rit=() rso=()
        for ((r = 0; r < rounds; r++)); do
            read -r a b i < <(hpls_run "$file" "$ours")
            # shellcheck disable=SC2086
            read -r p q j < <(petsc_run "$file" $theirs)
            hse+=("$(awk -v x="$a" 'BEGIN { print 1e3 * x }')")
            pse+=("$(awk -v x="$p" 'BEGIN { print 1e3 * x }')")
            hso+=("$(awk -v x="$b" 'BEGIN { print 1e3 * x }')")
            pso+=("$(awk -v x="$q" 'BEGIN { print 1e3 * x }')")
            hit+=("$(awk -v x="$b" -v k="$i" 'BEGIN { print 1e3 * x / k }')")
            pit+=("$(awk -v x="$q" -v k="$j" 'BEGIN { print 1e3 * x / k }')")
            rit+=("$(awk -v x="$b" -v k="$i" -v y="$q" -v l="$j" 'BEGIN { print (x / k) / (y / l) }')")
            rso+=("$(awk -v x="$b" -v y="$q" 'BEGIN { print x / y }')")
        done
        printf '| %s | %s | %s | %.4f | %.4f | %.2f | %.3f | %.3f | %.2f | %.3f | %.3f | %s / %s |\n' \
            "$spec" "$n" "$label" "$(med "${hit[@]}")" "$(med "${pit[@]}")" "$(med "${rit[@]}")" \
            "$(med "${hso[@]}")" "$(med "${pso[@]}")" "$(med "${rso[@]}")" \
            "$(med "${hse[@]}")" "$(med "${pse[@]}")" "$i" "$j"
    done
    cat <<'NOTES'

How to read it:
- A ratio below 1 is hpls ahead.  Per iteration is the fair figure where the
  iteration counts differ; the same preconditioner (IC(0) / ILU(0) with no
  fill, Jacobi) gives both the same counts up to rounding.
- hpls at threads=1 runs no OpenMP parallel region: below a few thousand rows
  entering one cost about a microsecond even for a team of one
  (src/kernels/cpu/team.h), ten an iteration of BiCGSTAB.
- Setup is hpls's setup_s (backend, operator, preconditioner) and PETSc's
  KSPSetUp; an application that changes the matrix's values every step pays
  it every step (hpls_solver_update_values keeps the symbolic part).
NOTES
} >"$out/small.md"
echo "wrote $out/small.md"
