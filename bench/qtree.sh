#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# qtree.sh: one run of the quad-tree benchmark (bench_qtree) at 1 and 2 threads on
# the largest real matrices of ../shared/data and on generated matrices whose x
# does not fit in L2 (n = 1e6: x = 8 MB) or not even in L3 (n = 1e7: 80 MB).
# Each (input, thread count) holds `flock /tmp/hpls-bench.lock`, so timings never
# overlap another engineer's.  Writes $HPLS_BENCH_OUT/qtree.md (bench/run_all.sh
# repeats it and publishes bench/results/qtree.md).
#
#   bench/qtree.sh [BUILD_DIR] [REPS] [SPMVS] [THREADS] [INPUT...]
#   (defaults: ./build, 1, 30, "1 2", the real matrices and the n = 1e6 set; with
#   no INPUT given, random n = 1e7 follows in a table of its own, 3 SpMVs a figure)
set -euo pipefail
. "$(dirname "$0")/common.sh"
build=${1:-./build}
reps=${2:-1}
spmvs=${3:-30}
threads=${4:-"1 2"}
shift $(($# < 4 ? $# : 4))
shared_data data matrices
build_targets "$build" bench_qtree
inputs=("$@") big=(random:n=10000000,k=8)
if [ ${#inputs[@]} -eq 0 ]; then
    for m in bayer10 memplus; do
        for f in "$data/$m.mtx" "$data/$m.mtx.gz"; do
            [ -f "$f" ] && inputs+=("$f")
        done
    done
    inputs+=(convdiff3d:nx=100 gas:n=1000000,k=8 random:n=1000000,k=8)
    if [ "${HPLS_BENCH_SMOKE:-0}" = 1 ]; then
        inputs=("${inputs[@]:0:1}" convdiff3d:nx=20 gas:n=20000,k=8) big=(random:n=40000,k=8)
    fi
else
    big=()
fi

# table SPMVS INPUT...: the rows of every (thread count, input)
table() {
    local n=$1 t m
    shift
    echo "| matrix | threads | n | nnz | csr ms (GB/s; triad GB/s) | qt d=1024 (speedup) | d=4096 | d=16384 | d=65536 | best d | auto: Eq. 17 d -> chosen | auto ms (speedup; / fastest of csr and trees) | rcm+csr ms | bytes/entry csr / qtree best d (its build s) | BiCGSTAB ms/it: csr / qtbicgstab auto / qtbicgstab best d | iterations | auto setup s |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    for t in $threads; do
        for m in "$@"; do
            flock /tmp/hpls-bench.lock "$build/bin/bench_qtree" "$reps" "$n" "$t" "$m" |
                sed "s|$data/||"
        done
    done
}
{
    echo "# Quad-tree SpMV and QTBiCGSTAB vs CSR (Xu et al. 2015, Figs. 5-10 reshaped)"
    echo
    echo "One run of \`bench/qtree.sh BUILD_DIR $reps $spmvs \"$threads\"\`: per figure the median of $reps"
    echo "run(s) of $spmvs SpMVs (ms per SpMV); BiCGSTAB b = A 1, tol 1e-8, maxiter 300 (ms per"
    echo "iteration).  L2 = $(cat /sys/devices/system/cpu/cpu0/cache/index2/size 2>/dev/null || echo '?'),"
    echo "L3 = $(cat /sys/devices/system/cpu/cpu0/cache/index3/size 2>/dev/null || echo '?'); real matrices from ../shared/data/matrices."
    echo
    echo "## n = 1e6 (x = 8 MB: beyond L2, inside L3) and the real matrices (x in L2)"
    echo
    table "$spmvs" "${inputs[@]}"
    if [ ${#big[@]} -gt 0 ]; then
        echo
        echo "## n = 1e7 random (x = 80 MB: beyond L3), 3 SpMVs a figure"
        echo
        table 3 "${big[@]}"
    fi
    cat <<'NOTES'

How to read it: the tree's leaves are compact (16-bit offsets: 10-12 bytes per
entry against CSR's 12 + 8 per row); the automatic format times Eq. 17's d and
its neighbours against CSR at setup and keeps CSR unless a tree is 5% faster, and
does not try a tree when x fits in L2.  On stencils CSR streams at the triad, so
only the index bytes can be saved; on scattered patterns the tree moves the
scattered accesses from x to y.
NOTES
} >"$out/qtree.md"
echo "wrote $out/qtree.md"
