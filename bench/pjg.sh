#!/usr/bin/env bash
# pjg.sh: the PJG paper's Table 3 reshaped for this machine (issue 6): random dense
# diagonally dominant matrices (hpls gen dense-dd, the paper's Sec. 6.3), Gauss-Seidel
# (pjg psize=1, the same iterates as gs), Jacobi and PJG with psize 500..3500, tol 1e-5,
# 1 and 2 threads: iterations, seconds, seconds per iteration, and the GB/s of the
# sweep + residual (1.5 n^2 doubles per iteration) against the triad of the same run.
#   bench/pjg.sh [BUILD_DIR] [SIZES]       (default ./build, "10000 20000")
# Writes bench/results/pjg.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
build=${1:-./build}
sizes=${2:-10000 20000}
seed=${HPLS_PJG_SEED:-2}
out=$here/results/pjg.md
[ -f "$build/CMakeCache.txt" ] || cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release
cmake --build "$build" --target hpls_cmd bench_hisa_tables -j"$(nproc)" >/dev/null
hpls=$build/bin/hpls
export OMP_PROC_BIND=close OMP_PLACES=cores

field() { grep -o "\"$1\":[^,}]*" | head -1 | cut -d: -f2 | tr -d '"'; }

{
  echo "# PJG on dense diagonally dominant matrices (the PJG paper's Table 3, reshaped)"
  echo
  echo "Written by \`bench/pjg.sh $build \"$sizes\"\` on $(date -u '+%Y-%m-%d %H:%M UTC'),"
  echo "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), nproc $(nproc),"
  echo "load at start: $(cut -d' ' -f1-3 /proc/loadavg).  Matrices: \`dense-dd:n=N,seed=$seed\`, b = A 1,"
  echo "x0 = 0, tol 1e-5 relative to ||b||, one run each (a dense solve reads n^2 doubles per"
  echo "sweep: these are long runs).  gs = pjg psize=1 (its iterates equal gs's, tested)."
  echo "Jacobi is capped at 200 iterations: on these matrices its spectral radius is near 1."
  echo "GB/s: 1.5 n^2 x 8 bytes per iteration (sweep + the residual's half) / seconds per"
  echo "iteration; ratio: that / the triad GB/s of the same thread count, same run."
  echo
  echo "| n | threads | method | iterations | seconds | s/iteration | GB/s | / triad | reason |"
  echo "|---:|---:|---|---:|---:|---:|---:|---:|---|"
} >"$out"

for t in 1 2; do
  triad=$(OMP_NUM_THREADS=$t "$build/bin/bench_hisa_tables" triad "$t" | grep -o 'triad_gbs=[0-9.]*' | cut -d= -f2)
  for n in $sizes; do
    for m in "pjg psize=1" "jacobi" "pjg psize=500" "pjg psize=1500" "pjg psize=2500" "pjg psize=3500"; do
      set -- $m
      opts="--solver $1"
      [ $# -gt 1 ] && opts="$opts --${2%%=*} ${2#*=}"
      maxit=2000
      [ "$1" = jacobi ] && maxit=200 # its spectral radius is near 1 here: capped
      # shellcheck disable=SC2086
      j=$(OMP_NUM_THREADS=$t "$hpls" solve --gen "dense-dd:n=$n,seed=$seed" $opts --tol 1e-5 \
        --maxiter "$maxit" --json 2>/dev/null || true)
      its=$(field iterations <<<"$j"); sec=$(field solve_s <<<"$j"); why=$(field status <<<"$j")
      name=$([ "$m" = "pjg psize=1" ] && echo "gs (pjg psize=1)" || echo "$m")
      awk -v n="$n" -v t="$t" -v name="$name" -v its="$its" -v sec="$sec" -v why="$why" -v triad="$triad" \
        'BEGIN { spi = its > 0 ? sec / its : 0; gbs = spi > 0 ? 1.5 * n * n * 8 / spi / 1e9 : 0;
                 ratio = triad > 0 ? gbs / triad : 0;
                 printf("| %d | %d | %s | %d | %.3f | %.4f | %.2f | %.2f | %s |\n", n, t, name, its, sec, spi, gbs, ratio, why) }' >>"$out"
    done
  done
  echo "" >>"$out"
  echo "triad with $t thread(s): $triad GB/s" >>"$out"
  echo "" >>"$out"
done
echo "wrote $out"
