#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# many_rhs.sh: one run of the many right-hand sides table: seconds per column
# of hpls_solver_solve_many at nrhs = 2..16 over nrhs = 1, on gas 1e6 and
# poisson3d 100^3 at 1 and 2 threads; written to $HPLS_BENCH_OUT/many_rhs.md
# (bench/run_all.sh repeats it, medians of the runs).
#   bench/many_rhs.sh [BUILD_DIR]
set -euo pipefail
. "$(dirname "$0")/common.sh"
build=${1:-./build}
build_targets "$build" bench_many
specs="gas:n=1000000,k=2 poisson3d:nx=100"
reps=3
[ "${HPLS_BENCH_SMOKE:-0}" != 1 ] || { specs="gas:n=20000,k=2 poisson3d:nx=20"; reps=1; }
{
    echo "# Many right-hand sides: time per column against one column"
    echo
    echo "\`bench_many --threads \"1 2\" --reps $reps --iters 20 SPEC\`: for each nrhs the median of $reps timings of the whole call, divided by nrhs, over the same at nrhs = 1 (below 1: a column costs less in a block).  *R = B - A X*: the block residual kernel (A read once per block of up to 8 columns, as many as fit a quarter of the last-level cache at 8 min(n, 2 bandwidth + 1) bytes a column; column by column where 2 do not).  *jacobi*: \`hpls_solver_solve_many\`, 20 iterations (tol 0), native (block residuals, the block shrinks as columns stop).  *bicgstab*: 20 iterations, the columns one after another (no block Krylov method yet: the control)."
    echo
    echo "| matrix | what | threads | ms per column at nrhs=1 (per iteration) | nrhs=2 | nrhs=4 | nrhs=8 | nrhs=16 |"
    echo "|---|---|---:|---:|---:|---:|---:|---:|"
    # shellcheck disable=SC2086
    "$build/bin/bench_many" --threads "1 2" --reps "$reps" --iters 20 $specs
    cat <<'NOTES'

Columns are stored one after another (column-major, the API's layout), so a
block product gathers x from up to 8 columns 8*n values apart: it saves the reads
of A (12 bytes a nonzero), not the gathers of x.  Where A's traffic dominates (few
gathers, long rows) the block gains most.  nrhs = 16 is two blocks of 8 where 8
columns fit the cache.
NOTES
} >"$out/many_rhs.md"
cat "$out/many_rhs.md"
