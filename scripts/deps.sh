#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# deps.sh: checks (and, as root on Debian, installs) what building and testing hpls
# needs: a C compiler with OpenMP, CMake, make, pkg-config, zlib, LAPACK, cmocka, python3
# and MPI (OpenMPI).
# Usage: scripts/deps.sh [--bench | --valgrind | --opencl | --python | --cuda | --mpich]
# (also the benchmark peers / valgrind / the opencl backend: loader, headers, PoCL's CPU
# device and Oclgrind / the Python package's venv and headers / the cuda module's toolkit,
# which only says what is missing: see below / MPICH beside Open MPI, for
# scripts/mpich_tests.sh)
set -euo pipefail

need_pkgs=()
have_header() { printf '#include <%s>\n' "$1" | ${CC:-cc} -E -x c - >/dev/null 2>&1; }

command -v cc >/dev/null 2>&1 || command -v gcc >/dev/null 2>&1 || need_pkgs+=(gcc)
command -v cmake >/dev/null 2>&1 || need_pkgs+=(cmake)
command -v make >/dev/null 2>&1 || need_pkgs+=(make)
command -v pkg-config >/dev/null 2>&1 || need_pkgs+=(pkg-config)
command -v python3 >/dev/null 2>&1 || need_pkgs+=(python3) # README figures test (stdlib only)
have_header zlib.h || need_pkgs+=(zlib1g-dev)
have_header omp.h || need_pkgs+=(libgomp1)
compgen -G '/usr/lib/*/liblapack.so' >/dev/null || [ -e /usr/lib/liblapack.so ] || ldconfig -p 2>/dev/null | grep -q 'liblapack\.so ' || need_pkgs+=(liblapack-dev)
{ have_header setjmp.h && printf '#include <stdarg.h>\n#include <stddef.h>\n#include <stdint.h>\n#include <setjmp.h>\n#include <cmocka.h>\n' | ${CC:-cc} -E -x c - >/dev/null 2>&1; } || need_pkgs+=(libcmocka-dev)
# MPI (distributed solves, HPLS_MPI; OpenMPI or MPICH): the library and mpiexec
# for tests/mpi.  A build without it is the one-process library (-DHPLS_MPI=OFF).
pkg-config --exists ompi-c 2>/dev/null || pkg-config --exists mpich 2>/dev/null || need_pkgs+=(libopenmpi-dev)
command -v mpiexec >/dev/null 2>&1 || need_pkgs+=(openmpi-bin)
if [ "${1:-}" = "--mpich" ]; then
  command -v mpicc.mpich >/dev/null 2>&1 || need_pkgs+=(libmpich-dev)
  command -v mpiexec.mpich >/dev/null 2>&1 || need_pkgs+=(mpich)
fi
if [ "${1:-}" = "--valgrind" ]; then
  command -v valgrind >/dev/null 2>&1 || need_pkgs+=(valgrind)
fi
if [ "${1:-}" = "--opencl" ]; then
  have_header CL/cl.h || need_pkgs+=(opencl-c-headers)
  compgen -G '/usr/lib/*/libOpenCL.so' >/dev/null || need_pkgs+=(ocl-icd-opencl-dev)
  compgen -G '/etc/OpenCL/vendors/pocl*.icd' >/dev/null || need_pkgs+=(pocl-opencl-icd)
  command -v oclgrind >/dev/null 2>&1 || need_pkgs+=(oclgrind)
fi
if [ "${1:-}" = "--python" ] || [ "${1:-}" = "--bench" ]; then
  # python/ (pip install ./python into a venv): venv + ensurepip, and Python.h
  /usr/bin/python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || need_pkgs+=(python3-venv)
  [ -f "$(/usr/bin/python3 -c 'import sysconfig; print(sysconfig.get_paths()["include"])' 2>/dev/null)/Python.h" ] || need_pkgs+=(python3-dev)
fi
if [ "${1:-}" = "--cuda" ]; then
  # The cuda module needs NVIDIA's CUDA toolkit (nvcc, NVRTC, cuSPARSE, cuBLAS; 12 or
  # later for sm_100), which is NVIDIA's download, not a Debian package of that
  # version: checked, never installed.  Without it the build skips the module.
  if ! command -v nvcc >/dev/null 2>&1; then
    echo "the cuda module needs nvcc on PATH: install NVIDIA's CUDA toolkit" \
      "(https://developer.nvidia.com/cuda-downloads), then PATH=/usr/local/cuda/bin:\$PATH" >&2
    exit 1
  fi
fi
if [ "${1:-}" = "--bench" ]; then
  /usr/bin/python3 -c 'import scipy' >/dev/null 2>&1 || need_pkgs+=(python3-scipy)
  pkg-config --exists PETSc 2>/dev/null || [ -d /usr/lib/petsc ] || need_pkgs+=(petsc-dev)
  [ -f /usr/include/suitesparse/klu.h ] || need_pkgs+=(libsuitesparse-dev)
  /usr/bin/python3 -c 'import matplotlib' >/dev/null 2>&1 || need_pkgs+=(python3-matplotlib)
fi

[ ${#need_pkgs[@]} -eq 0 ] && exit 0
echo "hpls needs: ${need_pkgs[*]}"
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need_pkgs[@]}" >/dev/null
  echo "installed: ${need_pkgs[*]}"
else
  echo "install them with: sudo apt-get install ${need_pkgs[*]}" >&2
  exit 1
fi
