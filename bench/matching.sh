#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# matching.sh: one run of the table of reorder=matching and scale= on matrices
# with zero or weak diagonals: bicgstab + ilu0 and + dilu without reordering
# and with the matching (alone, + scale=matching, + scale=ruiz), on the
# zero-diagonal matrices of ../shared/data, gre_115 (weak diagonal) and
# generated ones; written to $HPLS_BENCH_OUT/matching.md (bench/run_all.sh
# repeats it, medians of the runs).
#   bench/matching.sh [BUILD_DIR]
set -euo pipefail
. "$(dirname "$0")/common.sh"
build=${1:-./build}
build_targets "$build" bench_matching
shared_data data matrices
names="west0479 west0497 west0989 west1505 bp_1200 impcol_a lns_131 rajat19 nnc1374 orani678
  adder_dcop_05 e05r0000 e05r0500 e20r0000 hangGlider_2 bayer10 gre_115"
gens="scrambled:gas:n=200000,k=3 weak:gas:n=200000,k=3 scrambled:convdiff3d:nx=40"
[ "${HPLS_BENCH_SMOKE:-0}" != 1 ] || { names="lns_131 impcol_a"; gens="scrambled:gas:n=20000,k=3"; }
files=()
for m in $names; do
    for f in "$data/$m.mtx" "$data/$m.mtx.gz"; do
        [ -f "$f" ] && files+=("$f")
    done
done
{
    echo "# Zero and weak diagonals: bicgstab + ilu0 / dilu without and with reorder=matching"
    echo
    echo "\`bench_matching --reps 1 --threads 1 MATRIX...\` (one setup and solve per cell and run; bench/run_all.sh takes the median of its runs): b = A ones, \`tol=1e-8 maxiter=5000 trisolve=serial threads=1\`. *true relres* is \`hpls_info.relres\`, ||b - A x|| / ||b|| on the user's A (x unpermuted and unscaled). *setup ms* includes the matching and the scaling; *matching ms* and *ruiz ms* time \`hpls_match_product\` (with its scaling) and \`hpls_scale_ruiz\` alone. The matrices: those of ../shared/data with zero or missing diagonal entries, gre_115 (no zero diagonal, but ilu0 stagnates on it), and generated ones: \`scrambled:SPEC\` is the generator's (dominant) matrix with its columns in a fixed random order, \`weak:SPEC\` the same plus 1e-3 max_j |A_ij| on each diagonal."
    echo
    "$build/bin/bench_matching" --reps 1 --threads 1 "${files[@]}" $gens
    cat <<'NOTES'

"setup failed: zero or missing diagonal entry" is ilu0 meeting a row without a
diagonal entry in A's pattern; "zero pivot" is dilu's E_ii = 0 (or ilu0's
U_ii = 0 after the matching: the matching makes the diagonal of A Q nonzero,
not the pivots of its incomplete factors).  With a scale, the method's test
sees the scaled residual; the solver confirms convergence on ||b - A x|| and,
where that misses the tolerance, continues from x with a tighter one, so the
iterations shown include those rounds.
NOTES
} >"$out/matching.md"
cat "$out/matching.md"
