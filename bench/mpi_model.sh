#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# mpi_model.sh: one run of the weak-scaling MPI model (bench/mpi_model.py): per
# method the time per iteration of one rank at 1e6 rows, the counts of the same
# solve on 2 and 4 ranks (reductions and their bytes, halo exchanges, neighbours,
# bytes), this machine's MPI ping-pong and allreduce, and the time per iteration
# predicted on 1 .. 1024 ranks over InfiniBand HDR; written to
# $HPLS_BENCH_OUT/mpi_model.md (bench/run_all.sh repeats it, then makes
# docs/mpi_model.md's tables and bench/results/mpi_model.png from the medians).
#   bench/mpi_model.sh [BUILD_DIR]      (an MPI build)
set -euo pipefail
. "$(dirname "$0")/common.sh"
build=${1:-./build}
build_targets "$build" hpls_cmd
grep -q '^HPLS_MPI:BOOL=ON' "$build/CMakeCache.txt" || bench_die "$build is not an MPI build"
command -v mpiexec >/dev/null || bench_die "mpiexec (openmpi-bin) is needed"
command -v "${MPICC:-mpicc}" >/dev/null || bench_die "mpicc (libopenmpi-dev) is needed"
mkdir -p "$build/bench"
probe=$build/bench/mpi_pingpong
if [ ! -x "$probe" ] || [ "$bench_dir/peers/mpi_pingpong.c" -nt "$probe" ]; then
    "${MPICC:-mpicc}" -O2 -std=c11 -Wall -Wextra -Werror "$bench_dir/peers/mpi_pingpong.c" -o "$probe"
fi
note_peer "$(mpiexec --version 2>/dev/null | head -1)"
python3 "$bench_dir/mpi_model.py" run "$build" >"$out/mpi_model.md"
cat "$out/mpi_model.md"
