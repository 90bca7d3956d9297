#!/usr/bin/env bash
# qtree.sh: the quad-tree benchmark (bench_qtree) at 1 and 2 threads on the
# largest real matrices of ../shared/data and on generated matrices whose x
# does not fit in L2; writes bench/results/qtree.md with `uptime` before and after.
#
#   bench/qtree.sh [BUILD_DIR] [REPS] [SPMVS]      (default ./build, 3, 300)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
build=${1:-$root/build}
reps=${2:-3}
spmvs=${3:-300}
data=${HPLS_DATA_DIR:-$root/../shared/data}/matrices
out=$here/results/qtree.md
cmake --build "$build" --target bench_qtree -j2 >/dev/null
inputs=()
for m in bayer10 memplus; do
    for f in "$data/$m.mtx" "$data/$m.mtx.gz"; do
        [ -f "$f" ] && inputs+=("$f")
    done
done
# x of n = 1e6 is 8 MB: far beyond L2.  gas k=8: 8 scattered columns a row (random pattern)
inputs+=(gas:n=1000000,k=2 gas:n=1000000,k=8 convdiff3d:nx=100)
{
    echo "# Quad-tree SpMV and QTBiCGSTAB vs CSR (Xu et al. 2015, Figs. 5-10 reshaped)"
    echo
    echo "Written by \`bench/qtree.sh $build $reps $spmvs\`: medians of $reps runs of $spmvs SpMVs (ms per SpMV),"
    echo "BiCGSTAB b = A 1, tol 1e-8, maxiter 300 (ms per iteration, median of $reps solves). L2 = $(cat /sys/devices/system/cpu/cpu0/cache/index2/size 2>/dev/null || echo '?')."
    echo "Load before: \`$(uptime)\`"
    echo
    echo "| matrix | threads | n | nnz | csr ms | qt d=64 (speedup) | d=256 | d=1024 | d=4096 | d=16384 | d=65536 | auto d | auto d (Eq. 17) | rcm+csr ms | best d | BiCGSTAB ms/it: csr / qtbicgstab auto / qtbicgstab best d / rcm | iterations | A bytes csr / qtree(best d) | qtbicgstab auto chose |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    for t in 1 2; do
        OMP_PROC_BIND=close OMP_PLACES=cores "$build/bin/bench_qtree" "$reps" "$spmvs" "$t" "${inputs[@]}"
    done
    echo
    echo "Load after: \`$(uptime)\`."
} >"$out.tmp"
mv "$out.tmp" "$out"
echo "wrote $out"
