#!/usr/bin/env bash
# qtree.sh: the quad-tree benchmark (bench_qtree) at 1 and 2 threads on the
# largest real matrices of ../shared/data and on generated matrices whose x
# does not fit in L2 (n = 1e6: x = 8 MB) or not even in L3 (n = 1e7: 80 MB).
# Each (input, thread count) is one run under `flock /tmp/hpls-bench.lock`, so
# timings never overlap another engineer's; prints the Markdown table (with
# the load average before each run) to stdout.
#
#   bench/qtree.sh [BUILD_DIR] [REPS] [SPMVS] [THREADS] [INPUT...]
#   (defaults: ./build, 3, 30, "1 2", the real matrices and the n = 1e6 set)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
build=${1:-$root/build}
reps=${2:-3}
spmvs=${3:-30}
threads=${4:-"1 2"}
shift $(($# < 4 ? $# : 4))
data=${HPLS_DATA_DIR:-$root/../shared/data}/matrices
cmake --build "$build" --target bench_qtree -j2 >/dev/null
inputs=("$@")
if [ ${#inputs[@]} -eq 0 ]; then
    for m in bayer10 memplus; do
        for f in "$data/$m.mtx" "$data/$m.mtx.gz"; do
            [ -f "$f" ] && inputs+=("$f")
        done
    done
    inputs+=(convdiff3d:nx=100 gas:n=1000000,k=8 random:n=1000000,k=8)
fi
echo "Written by \`bench/qtree.sh $build $reps $spmvs \"$threads\" ${*:-}\`: medians of $reps runs of"
echo "$spmvs SpMVs (ms per SpMV), BiCGSTAB b = A 1, tol 1e-8, maxiter 300 (ms per iteration, median"
echo "of $reps solves). L2 = $(cat /sys/devices/system/cpu/cpu0/cache/index2/size 2>/dev/null || echo '?'),"
echo "L3 = $(cat /sys/devices/system/cpu/cpu0/cache/index3/size 2>/dev/null || echo '?')."
echo
echo "| matrix | threads | n | nnz | csr ms (GB/s; triad GB/s) | qt d=1024 (speedup) | d=4096 | d=16384 | d=65536 | best d | auto: Eq. 17 d -> chosen | auto ms (speedup; / fastest of csr and trees) | rcm+csr ms | bytes/entry csr / qtree best d (its build s) | BiCGSTAB ms/it: csr / qtbicgstab auto / qtbicgstab best d | iterations | auto setup s | load before |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for t in $threads; do
    for m in "${inputs[@]}"; do
        load=$(cut -d' ' -f1-3 /proc/loadavg)
        row=$(flock /tmp/hpls-bench.lock env OMP_PROC_BIND=close OMP_PLACES=cores \
            "$build/bin/bench_qtree" "$reps" "$spmvs" "$t" "$m")
        echo "$row $load |"
    done
done
