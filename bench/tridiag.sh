#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tridiag.sh: one run of the tridiagonal direct solvers' tables (the g-Spike
# paper's Table 2, Tables 3-4, and timings against LAPACK dgtsv), written to
# $HPLS_BENCH_OUT/tridiag_accuracy.md, tridiag_singular.md and tridiag_speed.md
# (bench/run_all.sh repeats it).  About 6 minutes on 2 cores (mostly n = 1e8).
#
#   bench/tridiag.sh [BUILD_DIR]     (default ./build; configured if needed)
set -euo pipefail
. "$(dirname "$0")/common.sh"
build=${1:-./build}
build_targets "$build" bench_tridiag
bench="$build/bin/bench_tridiag"
lapack_peer
acc_sizes="512 1048576" scaled_n=4096 sing_n=1048576 speed_sizes="1e6 1e7" big=1e8 batch_sizes="64 256 1024" batch=10000
if [ "${HPLS_BENCH_SMOKE:-0}" = 1 ]; then
    acc_sizes="512 4096" scaled_n=512 sing_n=4096 speed_sizes="1e5" big="" batch_sizes="64" batch=100
fi

{
    echo "# Tridiagonal solvers: accuracy on the g-Spike paper's collection (Table 2 shape)"
    echo
    echo "One run of \`bench/tridiag.sh\`."
    echo "Matrices: \`hpls_tridiag_gallery(K, n, seed 5)\` (Table A.1), x* seeded standard normal,"
    echo "b = A x*.  cond: LAPACK dgtcon (1-norm) on the dgttrf factors.  Forward error"
    echo "||x - x*||_2 / ||x*||_2; backward error ||b - A x||_inf / (||A||_inf ||x||_inf + ||b||_inf)."
    echo "gspike: the public solver (automatic p from the thread count, delta 1e-6, iterative"
    echo "refinement when the spikes grow beyond 100 or a block was repaired); gspike/32: p = n/32"
    echo "(blocks of 32, recursive reduced systems); Alg. 1 only: gspike without the refinement."
    echo "Goals: gspike's backward error <= 100 x max(dgtsv's, 2^-53) on every K; forward error"
    echo "<= 100 x dgtsv's wherever dgtsv's is below 1e-6.  fail: the method reports a zero or"
    echo "tiny pivot (thomas, cr: no pivoting) or a singular matrix."
    for n in $acc_sizes; do
        echo
        echo "## n = $n"
        echo
        echo "| K | cond_1 | fwd thomas | fwd cr | fwd gspike | fwd gspike/32 | fwd dgtsv | bwd thomas | bwd cr | bwd gspike | bwd gspike/32 | bwd Alg. 1 only | bwd dgtsv | goal bwd | goal fwd |"
        echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
        "$bench" accuracy "$n"
    done
    echo
    echo "K = 8..11 (randsvd) are dense constructions (O(n^2) memory, O(n^3) time), built for"
    echo "n <= 2048 only: not at n = 2^20.  K = 15 at n = 2^20 is singular to working precision"
    echo "(dgtsv and gspike both report it).  K = 12 at n = 2^20 (L scaled by 1e-50: in effect an"
    echo "upper bidiagonal matrix with a random diagonal) has a condition beyond the double range:"
    echo "every method's x overflows, and dgtcon's estimate there is meaningless."
    echo
    echo "## n = $scaled_n, every row of T and b scaled by 10^U(-150, 150)"
    echo
    echo "The same matrices and x*, rows (and b) multiplied by 10^U(-150, 150): x* is still the"
    echo "solution.  cond_1 is the unscaled T's; the forward goal compares with dgtsv on the"
    echo "unscaled T (partial pivoting picks the rows by their scale: dgtsv's own error here shows"
    echo "it), the backward goal is 100 x 2^-53.  g-Spike equilibrates the rows by powers of two"
    echo "before its QR and its singularity test (issue 15: before, p = 128 returned wrong entries"
    echo "and p = 1, 64 refused such a dominant T as singular)."
    echo
    echo "| K | cond_1 (unscaled) | fwd thomas | fwd cr | fwd gspike | fwd gspike/32 | fwd dgtsv | bwd thomas | bwd cr | bwd gspike | bwd gspike/32 | bwd Alg. 1 only | bwd dgtsv | goal bwd | goal fwd |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    "$bench" scaled "$scaled_n"
} >"$out/tridiag_accuracy.md"
echo "wrote $out/tridiag_accuracy.md"

{
    echo "# Tridiagonal solvers: singular diagonal blocks (Tables 3-4 shape)"
    echo
    echo "One run of \`bench/tridiag.sh\`."
    echo "n = $sing_n, blocks of m = 32 (p = 32768 partitions, aligned with the blocks made singular"
    echo "by \`hpls_tridiag_singular_blocks\`: #18 shifted by the block's eigenvalue nearest zero,"
    echo "#1 with blocks replaced by the tridiagonal form of B B^T, B random 32 x 31).  Forward"
    echo "relative errors (2-norm).  gspike: repair (delta 1e-6) and refinement; Alg. 1 only: repair,"
    echo "no refinement; no repair: delta = 0, no refinement (a partitioned solver that ignores"
    echo "singular blocks).  Goals: gspike <= 1e-13 (K = 18) and <= 1e-9 (K = 1)."
    for kind in 18 1; do
        echo
        echo "## from K = $kind"
        echo
        echo "| singular blocks | gspike | Alg. 1 only | no repair | dgtsv | blocks gspike repaired | goal |"
        echo "|---|---|---|---|---|---|---|"
        "$bench" singular "$kind" "$sing_n" 32
    done
} >"$out/tridiag_singular.md"
echo "wrote $out/tridiag_singular.md"

speed_header() {
    echo "| n | K | threads | method | one-shot s | one-shot GB/s | with factors s | with factors GB/s | factors / one-shot |"
    echo "|---|---|---|---|---|---|---|---|---|"
}
{
    echo "# Tridiagonal solvers: speed"
    echo
    echo "One run of \`bench/tridiag.sh\`: each time one solve; threads by OMP_NUM_THREADS.  K = 18: tridiag(-1, 4, -1)"
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
