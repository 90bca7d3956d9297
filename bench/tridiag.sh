#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tridiag.sh: one run of the tridiagonal direct solvers' speed table (timings
# against LAPACK dgtsv), written to $HPLS_BENCH_OUT/tridiag_speed.md
# (bench/run_all.sh repeats it; it needs a quiet machine).  Their accuracy
# tables, which time nothing, are tridiag_accuracy.sh's.  About 4 minutes on
# 2 cores (mostly n = 1e8).
#
#   bench/tridiag.sh [BUILD_DIR]     (default ./build; configured if needed)
set -euo pipefail
. "$(dirname "$0")/common.sh"
build=${1:-./build}
build_targets "$build" bench_tridiag
bench="$build/bin/bench_tridiag"
lapack_peer
speed_sizes="1e6 1e7" big=1e8 batch_sizes="64 256 1024" batch=10000
if [ "${HPLS_BENCH_SMOKE:-0}" = 1 ]; then
    speed_sizes="1e5" big="" batch_sizes="64" batch=100
fi

speed_header() {
    echo "| n | K | threads | method | one-shot s | one-shot GB/s | with factors s | with factors GB/s | factors / one-shot |"
    echo "|---|---|---|---|---|---|---|---|---|"
}
{
    echo "# Tridiagonal solvers: speed"
    echo
    echo "One run of \`bench/tridiag.sh\`: each time one solve, after one untimed one-shot; threads by OMP_NUM_THREADS.  K = 18: tridiag(-1, 4, -1)"
    echo "(diagonally dominant); K = 1: random U(-1, 1) entries (pivoting matters)."
    echo "one-shot: factor + solve + free (hpls_tridiag_solve; dgtsv for lapack);"
    echo "with factors: hpls_tridiag_solve_factored on factors built beforehand (dgttrs for lapack)."
    echo "GB/s counts the bytes a solve must move: one-shot 5n doubles (T, b read, x written);"
    echo "with factors (f + 2) n doubles, f = 3 (thomas), 5 (cr), 7 (gspike), 4.5 (lapack)."
    echo "Goals: thomas >= dgtsv's throughput; gspike within 2x of dgtsv on one thread, faster on"
    echo "two; with factors <= 0.6 x one-shot (last column).  The machine is shared and noisy."
    echo
    speed_header
    for n in $speed_sizes $big; do
        for kind in 18 1; do
            for t in 1 2; do
                OMP_NUM_THREADS=$t "$bench" speed "$n" "$kind" 1
            done
        done
    done
    echo
    echo "## Batched: $batch systems (diagonally dominant random rows), in place"
    echo
    echo "GB/s: 5 values per unknown (dl, d, du, b read, x written)."
    echo
    echo "| n | systems | threads | method | s | GB/s |"
    echo "|---|---|---|---|---|---|"
    for n in $batch_sizes; do
        for t in 1 2; do
            OMP_NUM_THREADS=$t "$bench" batch "$n" "$batch" 1
        done
    done
} >"$out/tridiag_speed.md"
echo "wrote $out/tridiag_speed.md"
