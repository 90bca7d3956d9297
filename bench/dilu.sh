#!/usr/bin/env bash
# dilu.sh: the DILU benchmark (bench_dilu) at 1 and 2 threads on the real
# matrices of ../shared/data (largest first) and convdiff3d / poisson3d; writes
# bench/results/dilu.md with the machine's load (uptime) before and after.
#
#   bench/dilu.sh [BUILD_DIR] [REPS]      (default ./build-dilu, 3)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
build=${1:-$root/build-dilu}
reps=${2:-3}
data=${HPLS_DATA_DIR:-$root/../shared/data}/matrices
out=$here/results/dilu.md
cmake --build "$build" --target bench_dilu -j2 >/dev/null
inputs=(convdiff3d:nx=50 poisson3d:nx=50)
for m in orani678 Chebyshev2 cryg2500 orsreg_1 watt_1 orsirr_1 sherman1 cdde1; do
    [ -f "$data/$m.mtx" ] && inputs+=("$data/$m.mtx")
done
{
    echo "# DILU vs ILU(0) (Wang, Liu 2022, Tables 2, 3, 5 reshaped)"
    echo
    echo "Written by \`bench/dilu.sh $build $reps\`: medians of $reps runs, b = A 1, BiCGSTAB tol 1e-8."
    echo "Load before: \`$(uptime)\`"
    echo
    echo "| matrix | threads | n | dilu setup s: serial | levels | syncfree | ilu0 setup s: serial | levels | syncfree | none its / s | jacobi | dilu (auto) | ilu0 (auto) | dilu solve s: serial | levels | syncfree | auto | auto chose |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    for t in 1 2; do
        OMP_PROC_BIND=close OMP_PLACES=cores "$build/bin/bench_dilu" "$reps" "$t" "${inputs[@]}"
    done
    echo
    echo "Load after: \`$(uptime)\`.  \`*\`: not converged in 5000 iterations."
} >"$out.tmp"
mv "$out.tmp" "$out"
