#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# mpich_tests.sh [BUILD_DIR]: hpls built against MPICH instead of Open MPI (Debian's
# libmpich-dev and mpich, which scripts/deps.sh --mpich installs beside Open MPI, the
# default), then its MPI tests and the installed package's MPI example (ctest -R:
# tests/mpi/mpiexec.sh gives Hydra's mpiexec none of Open MPI's flags).  `make mpich`;
# not in CI (its time: one more build and the MPI tests again).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-mpich}
scripts/deps.sh --mpich
# MPICH's ranks poll while they wait: on fewer cores than ranks, longer timeouts
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DHPLS_CUDA=OFF -DHPLS_OPENCL=OFF \
    -DHPLS_MPI_TIMEOUT_SCALE=5 \
    -DMPI_C_COMPILER="$(command -v mpicc.mpich)" \
    -DMPIEXEC_EXECUTABLE="$(command -v mpiexec.mpich)"
if ! grep -q '^MPI_C_LIB_NAMES:.*mpich' "$build/CMakeCache.txt"; then
    echo "mpich_tests: CMake did not take MPICH ($build/CMakeCache.txt: MPI_C_LIB_NAMES)" >&2
    exit 1
fi
cmake --build "$build" -j "$(nproc)"
cd "$build"
ctest --output-on-failure -j "$(nproc)" -R '^mpi_|^install_package$'
