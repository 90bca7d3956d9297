#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# prefetch.sh: one run of the SpMV's software-prefetch variants on this machine
# (bench_prefetch), written to $HPLS_BENCH_OUT/prefetch.md (bench/run_all.sh
# repeats it): the measurement behind prefetch=auto and the default variant.
#   bench/prefetch.sh [BUILD_DIR]
set -euo pipefail
. "$(dirname "$0")/common.sh"
build=${1:-./build}
build_targets "$build" bench_prefetch bench_hisa_tables
triads "$build"
specs="gas:n=1000000,k=1 gas:n=1000000,k=2 poisson3d:nx=100 convdiff3d:nx=100 gas:n=100000,k=2 poisson2d:nx=110"
[ "${HPLS_BENCH_SMOKE:-0}" != 1 ] || specs="gas:n=20000,k=2 poisson2d:nx=30"
{
    echo "# Software prefetch in the SpMV: the variants on this machine"
    echo
    echo "One run: \`bench_prefetch --reps 21 $specs\`: each variant's SpMV (kernels/cpu/spmv.c) timed in turn, 21 rounds, each the faster of two calls; the median in microseconds.  Every variant gives the same bits; they differ in what is prefetched (rows: the streams of A; x: its gathers) and with which hint (l3 prefetcht0, l2 prefetcht1, nta prefetchnta).  default: none when A, x and y fit in half the last-level cache, else rows+x-l2 (x dropped on a stencil).  auto keeps: the variant a solver with prefetch=auto keeps after timing its first products (each variant once, then again those within 1.25x of the fastest)."
    echo
    echo "Triad of this run (\`bench_hisa_tables triad T\`, 24 B per entry): ${triad[1]} GB/s at 1 thread, ${triad[2]} GB/s at 2."
    echo
    # shellcheck disable=SC2086
    "$build/bin/bench_prefetch" --reps 21 $specs
    cat <<'NOTES'

How to read it:
- The other machine: on an Intel Xeon (L2 2 MiB a core, L3 300 MiB; issue 29,
  20 calls, not in this file's runs) the SpMV of gas 1e6 k=1 took 29-43 ms with
  rows+x-nta, 13-15 ms with rows+x-l3, 16 ms without prefetch and 10.5 ms as a
  plain -O3 loop: nta, tuned on this EPYC, cost 2-3x there.  That is why no
  hint is fixed: the default avoids nta, and auto measures on the user's matrix.
- default / fastest and auto's / fastest: above 1, what the default (or auto's
  pick) costs against the best variant of the same run.
NOTES
} >"$out/prefetch.md"
echo "wrote $out/prefetch.md"
