#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# gpu_model.sh: one run of the GPU performance model (bench/gpu_model.py): bytes
# and launches per iteration of every method, the time they predict on an H100
# and an A100 beside the papers' speed-ups, and the byte counts checked on this
# CPU against the triad of the same run (n = 1e6, 1 thread, about a minute);
# written to $HPLS_BENCH_OUT/gpu_model.md.  No GPU is used (docs/gpu_model.md).
#   bench/gpu_model.sh [BUILD_DIR]
set -euo pipefail
. "$(dirname "$0")/common.sh"
build=${1:-./build}
build_targets "$build" hpls_cmd bench_hisa_tables
python3 "$bench_dir/gpu_model.py" run "$build" >"$out/gpu_model.md"
echo "wrote $out/gpu_model.md"
