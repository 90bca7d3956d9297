#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# gpu_measured.sh (`make bench-gpu`): on a machine with a GPU, the measured twin
# of gpu_model.md's table (bench/gpu_model.py measure): for each method hpls
# runs on a device, the model's bytes and launches per iteration, the time per
# iteration and the setup it predicts for this device, and the ones measured
# (n = 1e6, 200 iterations at tol 0); written to $HPLS_BENCH_OUT/gpu_measured.md.
# The device: cuda's device 0 when the cuda backend can run, else the OpenCL
# device backend=opencl runs on if it is a GPU.  It refuses to run without a
# GPU: PoCL's CPU device is not one, and its times say nothing about a GPU's.
# HPLS_BENCH_SMOKE=1 (small sizes) accepts a CPU device, to try the machinery
# here; the table then says so in bold.  HPLS_BENCH_GPU_BW (GB/s) gives the
# bandwidth of a device whose datasheet figure gpu_model.py does not know.
#   bench/gpu_measured.sh [BUILD_DIR]   (or bench/run_all.sh BUILD_DIR gpu_measured)
set -euo pipefail
. "$(dirname "$0")/common.sh"
build=${1:-./build}
build_targets "$build" hpls_cmd
devices=$("$build/bin/hpls" info --devices 2>&1)
smoke=()
[ "${HPLS_BENCH_SMOKE:-0}" != 1 ] || smoke=(--smoke)
if line=$(grep -m1 -E '^  device 0: .*usable \(the one backend=cuda' <<<"$devices"); then
    backend=cuda
    device=$(sed -E 's/^  device 0: (.*), compute capability.*/\1/' <<<"$line")
elif line=$(grep -m1 -E '^  device [0-9]+: .* \(GPU\), .*; backend=opencl runs on it' <<<"$devices") ||
    { [ ${#smoke[@]} = 1 ] &&
        line=$(grep -m1 -E '^  device [0-9]+: .*; backend=opencl runs on it' <<<"$devices"); }; then
    backend=opencl
    device=$(sed -E 's/^  device [0-9]+: (.*) \([A-Za-z]+\), [0-9]+ compute units.*/\1/' <<<"$line")
else
    bench_die "no GPU here (hpls info --devices): a usable CUDA device or an OpenCL GPU is" \
        "needed; PoCL's CPU device does not count, its times are not a GPU's"
fi
bw=()
[ -z "${HPLS_BENCH_GPU_BW:-}" ] || bw=(--bw "$HPLS_BENCH_GPU_BW")
python3 "$bench_dir/gpu_model.py" measure "$build" --backend "$backend" --device "$device" \
    "${bw[@]}" "${smoke[@]}" >"$out/gpu_measured.md"
echo "wrote $out/gpu_measured.md"
