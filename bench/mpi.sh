#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# mpi.sh: one run of the MPI table: time per BiCGSTAB iteration of hpls on
# ranks against the same solve without MPI, and against PETSc on 2 ranks,
# with the reductions and halo messages per iteration counted by hpls; then
# hisa, bhisa and pjg over the ranks (1 rank, 1 rank x 2 threads, 2 ranks);
# written to $HPLS_BENCH_OUT/mpi.md (bench/run_all.sh repeats it, medians of
# the runs).
#   bench/mpi.sh [BUILD_DIR]      (BUILD_DIR an MPI build; BUILD_DIR-nompi is
#                                  configured beside it with -DHPLS_MPI=OFF)
set -euo pipefail
. "$(dirname "$0")/common.sh"
build=${1:-./build}
build_targets "$build" hpls_cmd
grep -q '^HPLS_MPI:BOOL=ON' "$build/CMakeCache.txt" || bench_die "$build is not an MPI build"
nompi=$build-nompi
[ -f "$nompi/CMakeCache.txt" ] ||
    cmake -S "$root_dir" -B "$nompi" -DCMAKE_BUILD_TYPE=Release -DHPLS_MPI=OFF -DHPLS_TESTS=OFF >/dev/null
cmake --build "$nompi" --target hpls_cmd -j"$(nproc)" >/dev/null
hpls=$build/bin/hpls
petsc=$(peer_petsc "$build")
specs="gas:n=1000000,k=2 poisson3d:nx=100"
hspec="gas:n=1000000,k=2" # hisa, bhisa, pjg: a quasi-tridiagonal matrix
if [ "${HPLS_BENCH_SMOKE:-0}" = 1 ]; then
    specs="gas:n=20000,k=2 poisson3d:nx=20"
    hspec="gas:n=20000,k=2"
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hpls_mpi.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
field() { grep -o "\"$1\":[^,}]*" <<<"$2" | head -1 | cut -d: -f2; }
kv() { sed -n "s/.*[ ^]$1=\([^ ]*\).*/\1/p" <<<" $2"; }
# ms per iteration of a JSON report
per_it() { awk -v s="$(field solve_s "$1")" -v i="$(field iterations "$1")" 'BEGIN { printf "%.4f", 1000 * s / (i > 0 ? i : 1) }'; }
# ranks x threads: no binding by mpiexec, and none by OpenMP either: with common.sh's
# OMP_PROC_BIND=close OMP_PLACES=cores every rank binds its first thread to the first
# core of the whole machine, so all ranks share core 0 (2 x 1 poisson3d: 28.9 ms per
# iteration instead of 13.2); the OS spreads the ranks and their threads
hrun() {
    local np=$1 t=$2
    shift 2
    env -u OMP_PROC_BIND -u OMP_PLACES OMP_NUM_THREADS="$t" mpiexec --allow-run-as-root --oversubscribe --bind-to none -n "$np" \
        "$hpls" solve "$@" --threads "$t" --json
}
{
    echo "# MPI: hpls on ranks against one process and against PETSc"
    echo
    echo "BiCGSTAB, no preconditioner, b = A 1, x0 = 0, tol 1e-8, on the Matrix Market file \`hpls gen\` wrote (rank 0 reads it and sends each rank its rows).  ms per iteration = solve seconds (setup excluded) over iterations, one solve each.  *no MPI*: the build with -DHPLS_MPI=OFF, \`hpls solve A.mtx --threads 1\`.  *P x T*: \`mpiexec -n P --bind-to none hpls solve A.mtx --threads T\` (OMP_NUM_THREADS=T, OMP_PROC_BIND and OMP_PLACES unset: bound by OpenMP, every rank's first thread would sit on core 0).  *PETSc 2 x 1*: \`mpiexec -n 2 petsc_bcgs A.mtx 1 -ksp_rtol 1e-8\` (bench/peers/petsc_bcgs.c, KSPBCGS, MPIAIJ).  reductions and halo messages per iteration: hpls's counts at 2 ranks (all ranks' messages)."
    echo
    echo "| matrix | no MPI ms/it | 1 x 1 ms/it | 1 x 1 / no MPI | 1 x 2 ms/it | 2 x 1 ms/it | 2 x 1 / 1 x 2 | PETSc 2 x 1 ms/it | hpls 2 x 1 / PETSc | iterations (no MPI, 2 x 1, PETSc) | reductions / it | halo messages / it |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|"
    for spec in $specs; do
        "$hpls" gen "$spec" -o "$tmp/A.mtx" >/dev/null
        one=$(env OMP_NUM_THREADS=1 "$nompi/bin/hpls" solve "$tmp/A.mtx" --threads 1 --json)
        r11=$(hrun 1 1 "$tmp/A.mtx")
        r12=$(hrun 1 2 "$tmp/A.mtx")
        r21=$(hrun 2 1 "$tmp/A.mtx")
        pm="" pi=""
        if [ -n "$petsc" ]; then
            line=$(mpi_run 2 "$petsc" "$tmp/A.mtx" 1 -ksp_rtol 1e-8)
            pm=$(kv per_it_ms "$line") pi=$(kv iterations "$line")
        fi
        awk -v m="$spec" -v a="$(per_it "$one")" -v b="$(per_it "$r11")" -v c="$(per_it "$r12")" \
            -v d="$(per_it "$r21")" -v pm="$pm" -v i1="$(field iterations "$one")" \
            -v i2="$(field iterations "$r21")" -v pi="$pi" \
            -v red="$(field reductions_per_iteration "$r21")" \
            -v msg="$(field halo_messages_per_iteration "$r21")" 'BEGIN {
            printf "| %s | %.3f | %.3f | %.2f | %.3f | %.3f | %.2f | %s | %s | %s, %s, %s | %s | %s |\n",
                m, a, b, b / a, c, d, d / c, pm == "" ? "-" : sprintf("%.3f", pm),
                pm == "" ? "-" : sprintf("%.2f", d / pm), i1, i2, pi == "" ? "-" : pi, red, msg }'
    done
    if [ -z "$petsc" ]; then
        echo
        echo "PETSc (petsc-dev) was not available: its columns are empty."
    fi
    echo
    echo "## HISA, BHISA and PJG over the ranks"
    echo
    echo "\`$hspec\` written by \`hpls gen\`, b = A 1, x0 = 0, tol 1e-8, default options, ranks and threads as above (\`mpiexec -n P --bind-to none hpls solve A.mtx --solver M --threads T\`; 1 x T is the distributed code on one rank).  hisa on 2 ranks is bhisa with 2 blocks (T cut at the ranks' boundary), so its 2 x 1 iteration differs from 1 x 1's; bhisa's blocks are ranks x threads, so 1 x 2 and 2 x 1 run the same iteration (2 blocks); pjg's block on 2 ranks is each rank's k-th psize rows, psize at least 65536 multiply-adds a rank (one process: its thread default, 1 row at 1 thread: Gauss-Seidel), so its counts differ too.  reductions and halo messages per iteration: at 2 ranks, all ranks' messages (pjg: one exchange per block)."
    echo
    echo "| method | 1 x 1 ms/it | 1 x 2 ms/it | 2 x 1 ms/it | 2 x 1 / 1 x 2 | 2 x 1 / 1 x 1 | iterations (1 x 1, 1 x 2, 2 x 1) | reductions / it | halo messages / it |"
    echo "|---|---:|---:|---:|---:|---:|---|---:|---:|"
    "$hpls" gen "$hspec" -o "$tmp/H.mtx" >/dev/null
    for m in hisa bhisa pjg; do
        h11=$(hrun 1 1 "$tmp/H.mtx" --solver $m)
        h12=$(hrun 1 2 "$tmp/H.mtx" --solver $m)
        h21=$(hrun 2 1 "$tmp/H.mtx" --solver $m)
        awk -v m="$m" -v a="$(per_it "$h11")" -v b="$(per_it "$h12")" -v c="$(per_it "$h21")" \
            -v i1="$(field iterations "$h11")" -v i2="$(field iterations "$h12")" \
            -v i3="$(field iterations "$h21")" -v red="$(field reductions_per_iteration "$h21")" \
            -v msg="$(field halo_messages_per_iteration "$h21")" 'BEGIN {
            printf "| %s | %.3f | %.3f | %.3f | %.2f | %.2f | %s, %s, %s | %s | %s |\n",
                m, a, b, c, c / b, c / a, i1, i2, i3, red, msg }'
    done
} >"$out/mpi.md"
cat "$out/mpi.md"
