#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# gspike_device.sh: one run of the table of g-Spike on the opencl backend, its
# reduced systems solved on the device or on the host, beside the host's
# g-Spike at 1 and 2 threads (bench_gspike_device; n = 1e5 and 1e6, the paper's
# #18 and #1); written to $HPLS_BENCH_OUT/gspike_device.md.  The device is PoCL
# on this machine's CPU: these are not GPU figures (docs/gpu.md).
#   bench/gspike_device.sh [BUILD_DIR]
set -euo pipefail
. "$(dirname "$0")/common.sh"
build=${1:-./build}
build_targets "$build" bench_gspike_device
sizes="100000 1000000"
reps=5
[ "${HPLS_BENCH_SMOKE:-0}" != 1 ] || { sizes="3001"; reps=1; }
export POCL_MAX_PTHREAD_COUNT=2
{
    echo "# g-Spike on the device: reduced systems on the device or on the host (PoCL: the CPU, not a GPU)"
    echo
    echo "\`bench_gspike_device --reps $reps $sizes\` (POCL_MAX_PTHREAD_COUNT=2): medians of $reps factorizations and of $reps solves with the factors, b = T x_true; the host's g-Spike (src/direct/gspike.c, one partition per thread) beside it.  **The opencl device here is PoCL on this machine's 2 CPU cores: these are CPU times, not GPU figures** (a GPU's prediction: docs/gpu_model.md)."
    echo
    echo "| n | matrix (Table A.1) | where | factor ms | solve ms | solve / host's at 1 thread | forward error |"
    echo "|---:|---|---|---:|---:|---:|---:|"
    # shellcheck disable=SC2086
    "$build/bin/bench_gspike_device" --reps "$reps" $sizes
    cat <<'NOTES'

The device's g-Spike partitions every level into blocks of 32 rows (n/32
work-items); its reduced system (2 rows a partition) is solved by the next
level on the device, or read back, solved by src/direct/gspike.c on the host
and written back (HPLS_GSPIKE_REDUCED=host).  The factorization includes the
host's bookkeeping of every level (scales, pieces, the table) and the copies
it needs.  The host's own g-Spike takes one partition per thread.
NOTES
} >"$out/gspike_device.md"
cat "$out/gspike_device.md"
