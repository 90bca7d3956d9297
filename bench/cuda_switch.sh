#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# cuda_switch.sh: on a machine with an NVIDIA GPU, the cuda backend's own
# kernels against NVIDIA's libraries, the switch README "GPUs" describes:
# ms per BiCGSTAB iteration (jacobi) with our SpMV or cusparseSpMV
# (HPLS_CUDA_SPMV) and our dots or cublasDdot (HPLS_CUDA_DOT), on gas 1e6
# k=2 and poisson3d 100^3; written to $HPLS_BENCH_OUT/cuda_switch.md.  It
# refuses to run without a usable device: a CPU fallback is not a GPU figure.
#   bench/cuda_switch.sh [BUILD_DIR]   (or bench/run_all.sh BUILD_DIR cuda_switch)
set -euo pipefail
. "$(dirname "$0")/common.sh"
build=${1:-./build}
build_targets "$build" hpls_cmd
hpls=$build/bin/hpls
"$hpls" info --devices | grep -qE '^  device 0: .*usable \(the one' ||
    bench_die "no usable CUDA device here (hpls info --devices): nothing to measure"
specs="gas:n=1000000,k=2 poisson3d:nx=100"
its=200
[ "${HPLS_BENCH_SMOKE:-0}" != 1 ] || { specs="gas:n=20000,k=2 poisson3d:nx=20"; its=20; }

# ms per iteration: SPEC SPMV DOT (tol 0: exactly $its iterations)
one() {
    local j
    j=$(HPLS_CUDA_SPMV=$2 HPLS_CUDA_DOT=$3 "$hpls" solve --gen "$1" --solver bicgstab \
        --precond jacobi --backend cuda --tol 0 --maxiter "$its" --json 2>&1) || [ $? = 1 ]
    grep -q '"backend":"cuda"' <<<"$j" || bench_die "the solve did not run on cuda: $j"
    awk -v j="$j" 'BEGIN { match(j, /"iterations":[0-9]+/); it = substr(j, RSTART + 13, RLENGTH - 13)
        match(j, /"solve_s":[0-9.e+-]+/); s = substr(j, RSTART + 10, RLENGTH - 10)
        printf "%.4f\n", 1e3 * s / it }'
}

{
    echo "# cuda backend: our kernels or NVIDIA's libraries, ms per BiCGSTAB iteration"
    echo
    echo "$("$hpls" info --devices | sed -n 's/^  device 0: //p'); BiCGSTAB + jacobi, $its iterations (tol 0)."
    echo "own: kernels/device (SpMV by rows or lanes, two-stage dots); cusparse: cusparseSpMV"
    echo "CSR_ALG2; cublas: cublasDdot for dot and mdot."
    echo
    echo "| matrix | own SpMV, own dots | cusparse, own dots | own SpMV, cublas | cusparse, cublas |"
    echo "|---|---:|---:|---:|---:|"
    for spec in $specs; do
        echo "| $spec | $(one "$spec" own own) | $(one "$spec" cusparse own) | $(one "$spec" own cublas) | $(one "$spec" cusparse cublas) |"
    done
} >"$out/cuda_switch.md"
echo "wrote $out/cuda_switch.md"
