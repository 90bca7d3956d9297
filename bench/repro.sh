#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# repro.sh: one run of the reproducible=1 table: time per iteration of
# BiCGSTAB and GMRES(30) with reproducible=0 and =1, on gas 1e6 and poisson3d
# 100^3, in one process (1 and 2 threads) and under MPI (1 rank x 1 and 2
# threads, 2 ranks x 1 thread), and whether x is the same bits in every
# configuration with it; written to $HPLS_BENCH_OUT/repro.md (bench/run_all.sh
# repeats it, medians of the runs).
#   bench/repro.sh [BUILD_DIR]      (an MPI build)
set -euo pipefail
. "$(dirname "$0")/common.sh"
build=${1:-./build}
build_targets "$build" hpls_cmd
grep -q '^HPLS_MPI:BOOL=ON' "$build/CMakeCache.txt" || bench_die "$build is not an MPI build"
command -v mpiexec >/dev/null || bench_die "mpiexec (openmpi-bin) is needed"
hpls=$build/bin/hpls
specs="gas:n=1000000,k=2 poisson3d:nx=100"
maxiter=150
if [ "${HPLS_BENCH_SMOKE:-0}" = 1 ]; then
    specs="gas:n=20000,k=2 poisson3d:nx=20"
    maxiter=30
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hpls_repro.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
field() { grep -o "\"$1\":[^,}]*" <<<"$2" | head -1 | cut -d: -f2; }
per_it() { awk -v s="$(field solve_s "$1")" -v i="$(field iterations "$1")" 'BEGIN { printf "%.4f", 1000 * s / (i > 0 ? i : 1) }'; }
# solve NP T REPRODUCIBLE OUT ARGS...: one process (NP = 0) or NP ranks, T threads
# each, x into OUT; the JSON report (a solve stopped at maxiter exits 1: its
# time per iteration still counts).  mpiexec runs without binding, and without
# OMP_PROC_BIND/OMP_PLACES (bench/mpi.sh says why).
solve() {
    local np=$1 t=$2 r=$3 x=$4
    shift 4
    if [ "$np" = 0 ]; then
        OMP_NUM_THREADS=$t "$hpls" solve "$@" --threads "$t" --reproducible "$r" --json -o "$x" || true
    else
        env -u OMP_PROC_BIND -u OMP_PLACES OMP_NUM_THREADS="$t" mpiexec --allow-run-as-root \
            --oversubscribe --bind-to none -n "$np" \
            "$hpls" solve "$@" --threads "$t" --reproducible "$r" --json -o "$x" || true
    fi
}
configs="0:1 0:2 1:1 1:2 2:1"
name() { awk -F: '{ print ($1 == 0 ? "1 process" : $1 " rank" ($1 > 1 ? "s" : "")) " x " $2 " thread" ($2 > 1 ? "s" : "") }' <<<"$1"; }
{
    echo "# reproducible=1: the cost of exact sums"
    echo
    echo "b = A 1, x0 = 0, tol 1e-8, at most $maxiter iterations (the time per iteration is what is compared), \`--gen\` (each rank builds its rows).  ms per iteration = solve seconds (setup excluded) over iterations, one solve each.  *reproducible=1*: every reduction summed exactly (a long fixed-point accumulator per thread, its digits added by MPI_Allreduce: 560 bytes per value instead of 8) and, under MPI, each row of A x in global column order (src/kernels/cpu/exact_sum.h, docs in README's MPI section).  *1 process*: \`hpls solve --threads T\`; *P ranks*: \`mpiexec -n P --bind-to none hpls solve --threads T\` (OMP_NUM_THREADS=T).  *same bits*: x written by -o with reproducible=1 equals (cmp) the one of 1 process x 1 thread."
    echo
    echo "| matrix | method | configuration | ms/it reproducible=0 | ms/it reproducible=1 | 1 / 0 | iterations (0, 1) | same bits |"
    echo "|---|---|---|---:|---:|---:|---|---|"
    for spec in $specs; do
        for method in bicgstab gmres; do
            args=(--gen "$spec" --solver "$method" --tol 1e-8 --maxiter "$maxiter")
            ref=$tmp/ref.mtx
            for c in $configs; do
                np=${c%%:*} t=${c##*:}
                r0=$(solve "$np" "$t" 0 "$tmp/x0.mtx" "${args[@]}")
                r1=$(solve "$np" "$t" 1 "$tmp/x1.mtx" "${args[@]}")
                [ "$c" != "0:1" ] || cp "$tmp/x1.mtx" "$ref"
                same=no
                cmp -s "$ref" "$tmp/x1.mtx" && same=yes
                awk -v m="$spec" -v s="$method" -v c="$(name "$c")" -v a="$(per_it "$r0")" \
                    -v b="$(per_it "$r1")" -v i0="$(field iterations "$r0")" \
                    -v i1="$(field iterations "$r1")" -v same="$same" 'BEGIN {
                    printf "| %s | %s | %s | %.3f | %.3f | %.2f | %s, %s | %s |\n",
                        m, s, c, a, b, (a > 0 ? b / a : 0), i0, i1, same }'
                rm -f "$tmp/x0.mtx" "$tmp/x1.mtx"
            done
        done
    done
} >"$out/repro.md"
cat "$out/repro.md"
