#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# kernels.sh: one run of the memory-bound kernels against a STREAM-style triad
# measured in the same run (bench_kernels), written to $HPLS_BENCH_OUT/kernels.md.
# bench/run_all.sh repeats it and publishes bench/results/kernels.md.
#   bench/kernels.sh [BUILD_DIR]
set -euo pipefail
. "$(dirname "$0")/common.sh"
build=${1:-./build}
build_targets "$build" bench_kernels
args=()
if [ "${HPLS_BENCH_SMOKE:-0}" = 1 ]; then
    args=(--poisson poisson3d:nx=20 --gas gas:n=20000,k=2 --gas-small gas:n=2000,k=2 --triad-log2 16)
fi
{
    echo "# Memory-bound kernels against a STREAM-style triad"
    echo
    echo "One run: \`bench_kernels --reps 1 ${args[*]}\` (ratios against the triad of the same run)."
    echo
    "$build/bin/bench_kernels" --reps 1 "${args[@]}"
    cat <<'NOTES'

How to read it:
- Bytes are counted without write-allocate everywhere (the triad moves 24 bytes per
  entry), so every ratio compares like with like.  SpMV bytes = nnz (8+4) + (n+1) 8
  + n 8 (x once) + n 8 (y).
- SpMV keeps each row's left-to-right sum (equal to the reference); its speed comes
  from software prefetch of x at the column 256 entries ahead (turns gas's random
  gathers from latency-bound into bandwidth-bound), skipped when a sample of rows is a
  stencil, and of val/colind/rowptr once a row.  See src/kernels/cpu/spmv.c.
- gas: when x fits the last-level cache the far gathers hit L3, so the strict bound
  charges nothing for them; what is left of the gap is each far gather's L2 miss and
  the per-entry work.  The in-cache figure ("instruction floor") shows how close that
  floor is to the measured time: near it, a thread is bound by instructions, not memory.
- BiCGSTAB: 18 vectors per iteration (counted above the loop in src/iter/bicgstab.c,
  after fusing the vector updates) plus two SpMVs.
NOTES
} >"$out/kernels.md"
echo "wrote $out/kernels.md"
