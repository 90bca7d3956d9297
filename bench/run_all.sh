#!/usr/bin/env bash
# run_all.sh: every benchmark of hpls (`make bench` runs it).
#
#   bench/run_all.sh [BUILD_DIR] [kernels] [petsc]
#       BUILD_DIR defaults to ./build (configured if needed); naming tables runs
#       only those of this script's own tables, and nothing after them.
#
# Writes bench/results/kernels.md (triad, SpMV and BiCGSTAB against the memory
# bound, ratios taken in one run) and bench/results/petsc_bicgstab.md (our
# BiCGSTAB against PETSc's KSPBCGS on the same files), then runs bench/mmread.sh
# when present.  Installs Debian's petsc-dev when absent and running as root.
# Knobs (environment):
#   HPLS_BENCH_REPS=9         repetitions of the kernel benchmark
#   HPLS_BENCH_QUIET_LOAD=0.5 before each of the two tables, wait until the 1-minute
#   HPLS_BENCH_MAX_WAIT=600   load average is below this, but at most this many seconds
#   HPLS_BENCH_NO_PETSC=1     skip the PETSc comparison
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
build=${1:-./build}
only=${*:2}
results=$here/results
reps=${HPLS_BENCH_REPS:-9}
quiet_load=${HPLS_BENCH_QUIET_LOAD:-0.5}
max_wait=${HPLS_BENCH_MAX_WAIT:-600}
work=${TMPDIR:-/tmp}/hpls_bench
mkdir -p "$results" "$work"

# One thread per core and no migration: the figures then vary less between runs.
export OMP_PROC_BIND=close OMP_PLACES=cores

[ -f "$build/CMakeCache.txt" ] || cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release
cmake --build "$build" --target bench_kernels hpls_cmd -j"$(nproc)"
bench=$build/bin/bench_kernels
hpls=$build/bin/hpls

wait_quiet() {
    local waited=0
    while awk -v lim="$quiet_load" '{ exit !($1 >= lim) }' /proc/loadavg &&
        [ "$waited" -lt "$max_wait" ]; do
        sleep 10
        waited=$((waited + 10))
    done
}

machine() {
    echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'); commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown) (work tree may differ)"
    echo "- CPU: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), \`nproc\` = $(nproc)"
    local caches="" d
    for d in /sys/devices/system/cpu/cpu0/cache/index*; do
        [ -r "$d/level" ] || continue
        caches+="L$(cat "$d/level") $(cat "$d/type") $(cat "$d/size") (CPUs $(cat "$d/shared_cpu_list")); "
    done
    echo "- caches of cpu0 (sysfs): ${caches%; }"
    echo "- compiler: $(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt") ($(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$build/CMakeCache.txt")), OMP_PROC_BIND=close OMP_PLACES=cores"
    echo "- 1-minute load average before the run: $(cut -d' ' -f1 /proc/loadavg) (a shared machine: other work disturbs the figures)"
}

wanted() { [ -z "$only" ] || [[ " $only " == *" $1 "* ]]; }

# ---- kernels against the triad -------------------------------------------
if wanted kernels; then
wait_quiet
{
    echo "# Memory-bound kernels against a STREAM-style triad"
    echo
    echo "Written by \`bench/run_all.sh\`.  Reproduce: \`bench/run_all.sh $build kernels\` (this table"
    echo "only; \`make bench\` runs every benchmark), or by hand:"
    echo "\`OMP_PROC_BIND=close OMP_PLACES=cores $bench --reps $reps\`."
    echo
    machine
    echo
    "$bench" --reps "$reps"
    echo
    echo "1-minute load average after the run: $(cut -d' ' -f1 /proc/loadavg) (this run's own threads included)."
    cat <<'EOF'

How to read it:
- Bytes are counted without write-allocate everywhere (the triad moves 24 bytes per
  entry), so every ratio compares like with like.  SpMV bytes = nnz (8+4) + (n+1) 8
  + n 8 (x once) + n 8 (y).
- SpMV keeps each row's left-to-right sum (equal to the reference); its speed comes
  from software prefetch of x at the column 256 entries ahead (turns gas's random
  gathers from latency-bound into bandwidth-bound), skipped when a sample of rows is a
  stencil, and of val/colind/rowptr once a row (one core's hardware prefetcher does
  not run far enough ahead).  See src/kernels/cpu/spmv.c.
- gas: when x fits the last-level cache the far gathers hit L3, so the strict bound
  charges nothing for them; what is left of the gap is each far gather's L2 miss and
  the per-entry work (colind read twice, once for the prefetch; val; the prefetch; x;
  the row's chain of dependent additions, kept for the reference's exact sums).  The
  in-cache figure ("instruction floor") shows how close that floor is to the measured
  time: near it, a thread is bound by instructions, not by memory.
- BiCGSTAB: 18 vectors per iteration (counted above the loop in src/iter/bicgstab.c,
  after fusing the vector updates) plus two SpMVs.
EOF
} >"$results/kernels.md.tmp"
mv "$results/kernels.md.tmp" "$results/kernels.md"
echo "wrote $results/kernels.md"
fi

# ---- BiCGSTAB against PETSc ----------------------------------------------
# Each run appends its key=value line and a ';' to ours1, ours2 (1 and 2 threads)
# or petsc; mean and last read one key back out of such a list.
ours1="" ours2="" petsc=""
run_ours() {
    local out
    out=$("$bench" --solve "$1" --options "solver=bicgstab tol=1e-8 precond=$2" --threads "1 2" --reps 3)
    ours1+="$(grep '^threads=1 ' <<<"$out") ;"
    ours2+="$(grep '^threads=2 ' <<<"$out") ;"
}
run_petsc() {
    petsc+="$(OMP_NUM_THREADS=1 "$1" "$2" 3 -pc_type "$3" -ksp_rtol 1e-8) ;"
}
mean() { tr ';' '\n' <<<"$1" | sed -n "s/.*$2=\([^ ]*\).*/\1/p" | awk '{ s += $1; n++ } END { if (n) printf "%.2f", s / n }'; }
last() { tr ';' '\n' <<<"$1" | sed -n "s/.*$2=\([^ ]*\).*/\1/p" | tail -1; }

petsc_table() {
    local pcname="" name
    for name in PETSc petsc; do
        if pkg-config --exists "$name" 2>/dev/null; then pcname=$name; break; fi
    done
    if [ -z "$pcname" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y petsc-dev
        for name in PETSc petsc; do
            if pkg-config --exists "$name" 2>/dev/null; then pcname=$name; break; fi
        done
    fi
    if [ -z "$pcname" ] || ! command -v "${MPICC:-mpicc}" >/dev/null; then
        echo "PETSc (pkg-config PETSc) or mpicc not available: the comparison was skipped."
        return
    fi
    local peer=$build/bench/petsc_bcgs
    mkdir -p "$build/bench"
    # PETSc's .pc omits MPI's include path on Debian: mpicc supplies it
    # shellcheck disable=SC2046
    "${MPICC:-mpicc}" -O2 -std=c11 -Wall -Wextra -Werror "$here/peers/petsc_bcgs.c" -o "$peer" \
        $(pkg-config --cflags --libs "$pcname")
    local version
    version=$(pkg-config --modversion "$pcname")

    echo "# BiCGSTAB: hpls against PETSc $version (KSPBCGS)"
    echo
    echo "Written by \`bench/run_all.sh\`.  Reproduce: \`bench/run_all.sh $build petsc\` (this table only; \`make bench\` runs every benchmark); one line by hand:"
    echo "\`$hpls gen SPEC -o A.mtx; OMP_PROC_BIND=close OMP_PLACES=cores $bench --solve A.mtx --options 'solver=bicgstab tol=1e-8 precond=none' --reps 3; OMP_NUM_THREADS=1 $peer A.mtx 3 -pc_type none -ksp_rtol 1e-8\`."
    echo
    machine
    echo "- PETSc: Debian's petsc-dev $version (optimised build, reference BLAS), one MPI process (single-threaded: OMP_NUM_THREADS=1), built by this script with \`mpicc\` and \`pkg-config --cflags --libs $pcname\`"
    echo
    echo "Both read the same Matrix Market file written by \`hpls gen\`; b = A 1, x0 = 0, stop when ||b - A x|| <= 1e-8 ||b|| (PETSc: right preconditioning, unpreconditioned norm, abstol 0).  Time per iteration = KSPSolve / hpls_solver_solve time over iterations, setup excluded; each program solves 3 times and reports the median, the two programs run alternately twice and the table gives the mean of the two medians.  Goal: ours ≤ PETSc's per-iteration time (compared at 1 thread against 1 process; ours at 2 threads shown too)."
    echo
    echo "| what | 1 thread | 2 threads | bound: PETSc, 1 process | ratio (ours / PETSc) | goal | met? | iterations ours / PETSc | true relres ours / PETSc |"
    echo "|---|---:|---:|---:|---|---|---|---|---|"
    local spec pc file line o1 o2 pp
    for case in "poisson3d:nx=100 none" "gas:n=1000000,k=2 none" "gas:n=1000000,k=2 jacobi"; do
        spec=${case% *}
        pc=${case#* }
        file=$work/$(tr ':=,' '___' <<<"$spec").mtx
        [ -s "$file" ] || "$hpls" gen "$spec" -o "$file" >/dev/null
        ours1="" ours2="" petsc=""
        run_ours "$file" "$pc"
        run_petsc "$peer" "$file" "$pc"
        run_petsc "$peer" "$file" "$pc"
        run_ours "$file" "$pc"
        o1=$(mean "$ours1" per_it_ms)
        o2=$(mean "$ours2" per_it_ms)
        pp=$(mean "$petsc" per_it_ms)
        line=$(awk -v a="$o1" -v b="$o2" -v p="$pp" 'BEGIN {
            printf "%.2f / %.2f | ≤ 1.0 | %s / %s", a / p, b / p, (a <= p ? "yes" : "**no**"), (b <= p ? "yes" : "**no**") }')
        echo "| BiCGSTAB $spec, precond $pc, ms/iteration | $o1 | $o2 | $pp | $line | $(last "$ours1" iterations) (2 threads: $(last "$ours2" iterations)) / $(last "$petsc" iterations) | $(last "$ours1" relres) / $(last "$petsc" relres) |"
    done
    cat <<'EOF'

Notes: iteration counts can differ by one or two between the two codes (rounding, and
where each tests convergence).  PETSc's KSPBCGS fuses some of its vector work
(VecDotNorm2, VecAXPBYPCZ) but runs its Vec kernels through reference BLAS on one
core; hpls fuses the updates of an iteration into four passes (see
src/iter/bicgstab.c) and prefetches in its SpMV.
EOF
    echo
    echo "1-minute load average after the run: $(cut -d' ' -f1 /proc/loadavg) (this run's own threads included)."
}

if [ "${HPLS_BENCH_NO_PETSC:-0}" != 1 ] && wanted petsc; then
    wait_quiet
    petsc_table >"$results/petsc_bicgstab.md.tmp"
    mv "$results/petsc_bicgstab.md.tmp" "$results/petsc_bicgstab.md"
    echo "wrote $results/petsc_bicgstab.md"
fi
[ -z "$only" ] || exit 0

if [ -f "$here/mmread.sh" ]; then
    bash "$here/mmread.sh" "$build"
fi
bash "$here/tridiag.sh" "$build" # the tridiagonal direct solvers (bench/results/tridiag_*.md)
bash "$here/hisa_tables.sh" "$build" # HISA paper tables: bench/results/hisa.md, krylov_table.md (~40 min)
bash "$here/qtree.sh" "$build" # quad-tree SpMV and QTBiCGSTAB: bench/results/qtree.md
