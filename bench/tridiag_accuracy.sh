#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tridiag_accuracy.sh: one run of the tridiagonal direct solvers' accuracy tables
# (the g-Spike paper's Table 2 and Tables 3-4 shapes), written to
# $HPLS_BENCH_OUT/tridiag_accuracy.md and tridiag_singular.md (bench/run_all.sh
# runs it).  No timing: every figure is a function of the matrices, the code and
# the thread count (2, fixed here: gspike's automatic p follows it), so one run
# is the table and the load of the machine does not matter (run_all.sh runs it
# once, without waiting for a quiet machine).  About 2 minutes on 2 cores.
#
#   bench/tridiag_accuracy.sh [BUILD_DIR]     (default ./build; configured if needed)
set -euo pipefail
. "$(dirname "$0")/common.sh"
build=${1:-./build}
build_targets "$build" bench_tridiag
bench="$build/bin/bench_tridiag"
lapack_peer
export OMP_NUM_THREADS=2
acc_sizes="512 1048576" scaled_n=4096 sing_n=1048576
if [ "${HPLS_BENCH_SMOKE:-0}" = 1 ]; then
    acc_sizes="512 4096" scaled_n=512 sing_n=4096
fi

{
    echo "# Tridiagonal solvers: accuracy on the g-Spike paper's collection (Table 2 shape)"
    echo
    echo "One run of \`bench/tridiag_accuracy.sh\` (2 threads)."
    echo "Matrices: \`hpls_tridiag_gallery(K, n, seed 5)\` (Table A.1), x* seeded standard normal,"
    echo "b = A x*.  cond: LAPACK dgtcon (1-norm) on the dgttrf factors.  Forward error"
    echo "norm2(x - x*) / norm2(x*); backward error normInf(b - A x) / (normInf(A) normInf(x) + normInf(b))."
    echo "gspike: the public solver (automatic p from the thread count, delta 1e-6, iterative"
    echo "refinement when the spikes grow beyond 100 or a block was repaired); gspike/32: p = n/32"
    echo "(blocks of 32, recursive reduced systems); Alg. 1 only: gspike without the refinement."
    echo "Goals: gspike's backward error <= 100 x max(dgtsv's, 2^-53) on every K; forward error"
    echo "<= 100 x dgtsv's wherever dgtsv's is below 1e-6 (test_tridiag holds thomas and cr to"
    echo "the same goals).  thomas, cr: no pivoting; where the elimination grows they refine every"
    echo "solve (src/direct/refine.c).  fail: the method reports a zero or tiny pivot, refuses T"
    echo "as needing pivoting (thomas, cr), or reports a singular matrix."
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
    echo "dgtsv's and gspike's x overflow, thomas and cr refuse it (their solves would overflow, or"
    echo "refinement cannot help), and dgtcon's estimate there is meaningless.  thomas refuses K = 13"
    echo "(Dorr) at n = 2^20: its elimination does not grow, but its forward sweep multiplies the"
    echo "rounding errors of the middle rows past the double range (x was Inf before it refused)."
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
    echo "One run of \`bench/tridiag_accuracy.sh\` (2 threads)."
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

