#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# pjg_sparse.sh: the PJG paper's Table 5 reshaped (issue 6): quasi-tridiagonal matrices
# whose off-band part holds about 50, 70 and 90% of the nonzeros (gas with k = 3, 7, 27
# extras per row), PJG next to Gauss-Seidel, Jacobi, HISA and BiCGSTAB; tol 1e-7,
# 1 and 2 threads, one run.   bench/pjg_sparse.sh [BUILD_DIR] [N]
# Writes $HPLS_BENCH_OUT/pjg_sparse.md (bench/run_all.sh repeats it).
set -euo pipefail
. "$(dirname "$0")/common.sh"
build=${1:-./build}
n=${2:-1000000}
[ "${HPLS_BENCH_SMOKE:-0}" != 1 ] || n=${2:-10000}
out=$out/pjg_sparse.md
build_targets "$build" hpls_cmd
hpls=$build/bin/hpls
field() { grep -o "\"$1\":[^,}]*" | head -1 | cut -d: -f2 | tr -d '"'; }
{
  echo "# PJG on sparse quasi-tridiagonal matrices (the PJG paper's Table 5, reshaped)"
  echo
  echo "One run of \`bench/pjg_sparse.sh BUILD_DIR $n\`.  b = A 1, x0 = 0, tol 1e-7;"
  echo "seconds = setup + solve; s/iteration = solve / iterations (pjg's solve includes the one"
  echo "sweep more that gives it the residual of its last iterate).  Off-band share = k / (3 + k)."
  echo
  echo "| matrix | off-band | threads | method | iterations | seconds | s/iteration | reason |"
  echo "|---|---:|---:|---|---:|---:|---:|---|"
} >"$out"
for spec in "gas:n=$n,k=3" "gas:n=$n,k=7,s=0.2" "gas:n=$n,k=27,s=0.1"; do
  k=$(sed 's/.*k=\([0-9]*\).*/\1/' <<<"$spec")
  for t in 1 2; do
    for m in "gs" "jacobi" "pjg" "pjg --psize 1000" "pjg --psize 100000" "hisa" "bicgstab" "bicgstab --precond jacobi"; do
      # shellcheck disable=SC2086
      j=$(OMP_NUM_THREADS=$t "$hpls" solve --gen "$spec" --solver $m --tol 1e-7 --maxiter 5000 --json 2>/dev/null || true)
      awk -v spec="$spec" -v k="$k" -v t="$t" -v m="$m" -v its="$(field iterations <<<"$j")" \
        -v su="$(field setup_s <<<"$j")" -v so="$(field solve_s <<<"$j")" -v why="$(field status <<<"$j")" \
        'BEGIN { printf("| %s | %.0f%% | %d | %s | %d | %.3f | %.4f | %s |\n", spec, 100 * k / (3 + k), t, m, its,
                        su + so, its > 0 ? so / its : 0, why) }' >>"$out"
    done
  done
done
echo "wrote $out"
