#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# pjg.sh: one run of the PJG paper's Table 3 reshaped for this machine (issue 6): random dense
# diagonally dominant matrices (hpls gen dense-dd, the paper's Sec. 6.3), Jacobi,
# Gauss-Seidel (pjg psize=1, the same iterates as gs) and PJG with psize 500..3500,
# tol 1e-5: iterations, seconds, seconds per iteration, each against Jacobi's of the
# same n, threads and seed, and GB/s (n^2 doubles per iteration) against the triad of
# the same run.
#   bench/pjg.sh [BUILD_DIR] [SIZES] [THREADS]   (default ./build, "10000 20000", "1 2")
# HPLS_PJG_SEEDS (default "2 3"): matrices.  Writes $HPLS_BENCH_OUT/pjg.md
# (bench/run_all.sh repeats it and publishes bench/results/pjg.md).
set -euo pipefail
. "$(dirname "$0")/common.sh"
build=${1:-./build}
sizes=${2:-10000 20000}
[ "${HPLS_BENCH_SMOKE:-0}" != 1 ] || sizes=${2:-1000}
threads=${3:-1 2}
seeds=${HPLS_PJG_SEEDS:-2 3}
out=$out/pjg.md
build_targets "$build" hpls_cmd bench_hisa_tables
hpls=$build/bin/hpls

field() { grep -o "\"$1\":[^,}]*" | head -1 | cut -d: -f2 | tr -d '"'; }

{
    echo "# PJG on dense diagonally dominant matrices (the PJG paper's Table 3, reshaped)"
    echo
    echo "One run of \`bench/pjg.sh\`.  Matrices: \`dense-dd:n=N,seed=S\`, b = ones (the paper's), x0 = 0,"
    echo "tol 1e-5 relative to ||b||.  gs = pjg psize=1 (its iterates equal gs's,"
    echo "tested).  Jacobi is capped at 200 iterations (on seed 2 its spectral radius is near 1)."
    echo "seconds: the solve (setup excluded); pjg runs one sweep more than it reports (its"
    echo "residual comes from the next sweep, iter/pjg.c), and that sweep is in its seconds."
    echo "x jacobi: s/iteration and seconds over Jacobi's, same n, threads and seed, same run."
    echo "GB/s: n^2 x 8 bytes per iteration / s/iteration; / triad: that over the triad GB/s"
    echo "of the same thread count, measured just before."
    echo
    echo "| n | seed | threads | method | iterations | seconds | s/iteration | s/it x jacobi | s x jacobi | GB/s | / triad | reason |"
    echo "|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---|"
} >"$out"

for t in $threads; do
  triad=$(OMP_NUM_THREADS=$t "$build/bin/bench_hisa_tables" triad "$t" | grep -o 'triad_gbs=[0-9.]*' | cut -d= -f2)
  echo "" >>"$out"
  echo "triad with $t thread(s): $triad GB/s" >>"$out"
  echo "" >>"$out"
  for n in $sizes; do
    for seed in $seeds; do
      jspi=0 jsec=0
      for m in "jacobi" "pjg psize=1" "pjg psize=500" "pjg psize=1500" "pjg psize=2500" "pjg psize=3500"; do
        set -- $m
        opts="--solver $1"
        [ $# -gt 1 ] && opts="$opts --${2%%=*} ${2#*=}"
        maxit=2000
        [ "$1" = jacobi ] && maxit=200
        # shellcheck disable=SC2086
        j=$(OMP_NUM_THREADS=$t "$hpls" solve --gen "dense-dd:n=$n,seed=$seed" $opts --tol 1e-5 \
          --maxiter "$maxit" --json 2>/dev/null || true)
        its=$(field iterations <<<"$j"); sec=$(field solve_s <<<"$j"); why=$(field status <<<"$j")
        name=$([ "$m" = "pjg psize=1" ] && echo "gs (pjg psize=1)" || echo "$m")
        row=$(awk -v n="$n" -v seed="$seed" -v t="$t" -v name="$name" -v its="$its" -v sec="$sec" \
          -v why="$why" -v triad="$triad" -v jspi="$jspi" -v jsec="$jsec" \
          'BEGIN { spi = its > 0 ? sec / its : 0; gbs = spi > 0 ? n * n * 8 / spi / 1e9 : 0;
                   ratio = triad > 0 ? gbs / triad : 0;
                   rs = jspi > 0 ? sprintf("%.2f", spi / jspi) : "-";
                   rt = jsec > 0 ? sprintf("%.2f", sec / jsec) : "-";
                   printf("| %d | %d | %d | %s | %d | %.3f | %.4f | %s | %s | %.2f | %.2f | %s |\n",
                          n, seed, t, name, its, sec, spi, rs, rt, gbs, ratio, why) }')
        echo "$row" >>"$out"
        if [ "$1" = jacobi ]; then
          jsec=$sec
          jspi=$(awk -v s="$sec" -v i="$its" 'BEGIN { print (i > 0 ? s / i : 0) }')
        fi
      done
    done
  done
done
echo "wrote $out"
