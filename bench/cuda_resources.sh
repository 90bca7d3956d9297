#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# cuda_resources.sh: registers, shared memory and spills of every device
# kernel as CUDA, from ptxas (-Xptxas -v) for each architecture the cuda module
# is built for (sm_80, sm_90, sm_100); nothing runs, so this is what the
# compiler reports, not a measurement on a GPU.  The kernels are the build's
# cuda_kernels.cu (CMakeLists.txt: dialect.h, the .cl files, in order),
# compiled with the module's flags; written to $HPLS_BENCH_OUT/cuda_resources.md.
#   bench/cuda_resources.sh [BUILD_DIR]   (needs a build configured with HPLS_CUDA=ON)
set -euo pipefail
. "$(dirname "$0")/common.sh"
build=${1:-./build}
command -v nvcc >/dev/null || bench_die "nvcc is not on PATH: the CUDA toolkit is needed"
[ -f "$build/cuda_kernels.cu" ] || bench_die "$build/cuda_kernels.cu missing: configure with -DHPLS_CUDA=ON"
archs="80 90 100"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for a in $archs; do
    nvcc -x cu --fmad=false -cubin -arch=sm_$a -Xptxas -v -I "$root_dir/src" \
        -o "$tmp/k$a.cubin" "$build/cuda_kernels.cu" >"$tmp/ptxas$a.txt" 2>&1 ||
        { cat "$tmp/ptxas$a.txt" >&2; bench_die "nvcc failed for sm_$a"; }
    # "Compiling entry function 'K' for 'sm_A'", then "N bytes spill stores" and
    # "Used R registers, ... S bytes smem": one line "K R S spill" per kernel
    awk '/Compiling entry function/ { k = $0; sub(/.*function .\047?/, "", k); sub(/\047.*/, "", k) }
         /bytes spill stores/ { sp = $5 }
         /Used [0-9]+ registers/ && k != "" {
             r = $0; sub(/.*Used /, "", r); sub(/ registers.*/, "", r)
             s = 0; if (match($0, /[0-9]+ bytes smem/)) { s = substr($0, RSTART, RLENGTH); sub(/ .*/, "", s) }
             print k, r, s, sp; k = "" }' "$tmp/ptxas$a.txt" | sort >"$tmp/res$a.txt"
    [ -s "$tmp/res$a.txt" ] || bench_die "no kernel in ptxas's output for sm_$a"
done
nvccv=$(nvcc --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')
{
    echo "# CUDA kernels: registers and shared memory per kernel (ptxas, compiled only)"
    echo
    echo "Every kernel of src/kernels/device compiled as CUDA through dialect.h by nvcc $nvccv"
    echo "(\`nvcc -x cu --fmad=false -cubin -arch=sm_XX -Xptxas -v\` on the build's cuda_kernels.cu,"
    echo "as bench/cuda_resources.sh runs it), blocks of 128 threads.  No GPU ran these: the"
    echo "figures are the compiler's, per thread (registers) and per block (shared memory)."
    echo
    printf "| kernel |"
    for a in $archs; do printf " sm_%s registers | sm_%s smem (B) | sm_%s spill (B) |" "$a" "$a" "$a"; done
    echo
    printf "|---|"
    for a in $archs; do printf -- "---:|---:|---:|"; done
    echo
    join "$tmp/res80.txt" "$tmp/res90.txt" | join - "$tmp/res100.txt" |
        awk '{ printf "| %s |", $1; for (i = 2; i <= NF; i++) printf " %s |", $i; printf "\n" }'
} >"$out/cuda_resources.md"
echo "wrote $out/cuda_resources.md ($(wc -l <"$tmp/res80.txt") kernels)"
