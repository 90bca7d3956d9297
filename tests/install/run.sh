#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# run.sh BUILD_DIR SOURCE_DIR: installs hpls into a temporary prefix, then builds
# the programs of examples/ against it twice, through find_package(hpls)
# (examples/CMakeLists.txt) and through pkg-config, and runs every one.  In an
# MPI build (hpls_mpi.h installed; HPLS_MPIEXEC and HPLS_MPICC from CTest) also
# mpi_solve, on 2 ranks (its own rows) and 3 (a file read in parallel).
set -euo pipefail
build=$1 src=$2
tmp=$(mktemp -d "${HPLS_TMP:-/tmp}/install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
test -f "$tmp/prefix/include/hpls.h"
# the licence: its text, and its SPDX id in hpls.pc and in the CMake package
cmp "$src/LICENSE" "$tmp/prefix/share/doc/hpls/LICENSE"
libdir=$(ls -d "$tmp"/prefix/lib*/ | head -1)
test -f "$libdir/pkgconfig/hpls.pc"
grep -qx 'License: BSD-3-Clause' "$libdir/pkgconfig/hpls.pc" || { echo "FAIL hpls.pc: no License"; exit 1; }
grep -q '^set(hpls_LICENSE "BSD-3-Clause")' "$libdir/cmake/hpls/hplsConfig.cmake" ||
    { echo "FAIL hplsConfig.cmake: no hpls_LICENSE"; exit 1; }
"$tmp/prefix/bin/hpls" gen gas:n=3000,k=2 -o "$tmp/A.mtx" >/dev/null
examples="solve_file reuse_setup many_rhs user_precond precond_loop"
passed=0
run() { # run NAME COMMAND...: the example's output, or FAIL
    local name=$1
    shift
    if ! LD_LIBRARY_PATH="$libdir" "$@" >"$tmp/out" 2>&1; then
        echo "FAIL $name ($*):"
        tail -5 "$tmp/out"
        exit 1
    fi
    echo "$name: $(tail -1 "$tmp/out")"
    passed=$((passed + 1))
}
args() { [[ $1 != solve_file* ]] || echo "$tmp/A.mtx"; }
mpi=0
if [ -f "$tmp/prefix/include/hpls_mpi.h" ]; then
    mpi=1
    . "$(dirname "$0")/../mpi/mpiexec.sh"
    mpi_launcher "${HPLS_MPIEXEC:-mpiexec}" 120
    mpirun=("${run[@]}")
    unset run # the array; run() below is the function
fi
cmake -S "$src/examples" -B "$tmp/cmake-build" -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/cmake-build" >/dev/null
# shellcheck disable=SC2046
for e in $examples; do run "$e" "$tmp/cmake-build/$e" $(args "$e"); done
if [ $mpi = 1 ]; then
    run "mpi_solve (2 ranks)" "${mpirun[@]}" -np 2 "$tmp/cmake-build/mpi_solve"
    run "mpi_solve (3 ranks, A.mtx)" "${mpirun[@]}" -np 3 "$tmp/cmake-build/mpi_solve" "$tmp/A.mtx"
fi
# pkg-config: the shared library by default
flags=$(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --cflags --libs hpls)
for e in $examples; do
    # shellcheck disable=SC2086
    cc -std=c11 -Wall -Wextra -Werror "$src/examples/$e.c" $flags -lm -o "$tmp/$e-pc"
    # shellcheck disable=SC2046
    run "$e (pkg-config)" "$tmp/$e-pc" $(args "$e")
done
if [ $mpi = 1 ] && [ -n "${HPLS_MPICC:-}" ]; then # the MPI compiler wrapper and hpls.pc
    # shellcheck disable=SC2086
    "$HPLS_MPICC" -std=c11 -Wall -Wextra -Werror "$src/examples/mpi_solve.c" $flags -lm \
        -o "$tmp/mpi_solve-pc"
    run "mpi_solve (pkg-config, 2 ranks)" "${mpirun[@]}" -np 2 "$tmp/mpi_solve-pc"
fi
echo "$passed passed, 0 failed"
