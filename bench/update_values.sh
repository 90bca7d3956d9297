#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# update_values.sh: one run of the table of what hpls_solver_update_values
# saves against a whole setup (values changed, same pattern), on gas 1e6 and
# poisson3d 100^3 at 1 and 2 threads; written to $HPLS_BENCH_OUT/update_values.md
# (bench/run_all.sh repeats it, medians of the runs).
#   bench/update_values.sh [BUILD_DIR]
set -euo pipefail
. "$(dirname "$0")/common.sh"
build=${1:-./build}
build_targets "$build" bench_update
specs="gas:n=1000000,k=2 poisson3d:nx=100"
reps=3
[ "${HPLS_BENCH_SMOKE:-0}" != 1 ] || { specs="gas:n=20000,k=2 poisson3d:nx=20"; reps=1; }
{
    echo "# Values changed, same pattern: update_values against a whole setup"
    echo
    echo "\`bench_update --threads \"1 2\" --reps $reps SPEC\`: medians of $reps whole setups (a fresh solver, \`hpls_solver_setup\`) and of $reps \`hpls_solver_update_values\` (every value scaled by 1.01 between them), as \`hpls_info.setup_s\` reports them."
    echo
    echo "| matrix | configuration | threads | setup ms | update ms | update / setup |"
    echo "|---|---|---:|---:|---:|---:|"
    # shellcheck disable=SC2086
    "$build/bin/bench_update" --threads "1 2" --reps "$reps" $specs
    cat <<'NOTES'

What an update keeps: the backend and work vectors, the split of A into its
triangles, the copies' layout and level sets (dilu, ilu0), the trisolve
strategy that auto chose (its timing trials are not repeated), the rcm
ordering.  What it redoes: E or the factors, their copies, A^T's values (bicg),
1/A_ii, hisa's T factorization.  trisolve=auto's setup includes choosing the
build strategy; with levels, the level sets are the part an update saves.
NOTES
} >"$out/update_values.md"
cat "$out/update_values.md"
