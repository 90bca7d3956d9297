#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# valgrind.sh: a subset of the tests under valgrind memcheck (issue 9): the unit
# tests of the parsers, generators, kernels, relaxations and DILU, and the command
# solving, reading and writing.  Any memcheck error or definite/indirect leak fails.
# (The whole suite runs under ASan + UBSan in `make asan`; memcheck also sees
# uninitialised reads, which ASan does not.)  OpenMP's thread stacks show as
# "possibly lost" and are not counted.  Valgrind runs one thread at a time, so
# the barriers of level sweeps and the flags of syncfree ones crawl: the command's
# solve uses trisolve=serial (test_dilu runs every strategy).
#   scripts/valgrind.sh BUILD_DIR     (a Debug build without sanitizers)
set -euo pipefail
build=$(cd "${1:?usage: scripts/valgrind.sh BUILD_DIR}" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HPLS_DATA_DIR=${HPLS_DATA_DIR:-$root/../shared/data} HPLS_TEST_DIR=$root/tests HPLS_TMP=$tmp
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2} OMP_WAIT_POLICY=passive
vg=(valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect
    --show-leak-kinds=definite,indirect)
fail=0
run() {
  local t0=$SECONDS
  if "${vg[@]}" "$@" >"$tmp/out" 2>&1; then
    echo "ok    $((SECONDS - t0)) s  $*"
  else
    echo "FAIL  $((SECONDS - t0)) s  $*"
    tail -40 "$tmp/out"
    fail=1
  fi
}
for t in test_mmio test_gen test_kernels test_relaxation test_dilu; do
  (cd "$tmp" && run "$build/bin/$t")
done
hpls=$build/bin/hpls
run "$hpls" gen convdiff3d:nx=12 -o "$tmp/A.mtx" -b "$tmp/b.mtx"
run "$hpls" solve "$tmp/A.mtx" "$tmp/b.mtx" --precond dilu --trisolve serial -o "$tmp/x.mtx" --history "$tmp/h.csv" --quiet
run "$hpls" solve --gen tridiag:n=5000 --solver gspike --quiet
run "$hpls" solve --gen dense-dd:n=300 --solver pjg --psize 50 --quiet
run "$hpls" info "$tmp/A.mtx"
exit $fail
