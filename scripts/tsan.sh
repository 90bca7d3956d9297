#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tsan.sh: the tests of the OpenMP paths that share data (kernels' reductions, the
# syncfree and level-set triangular solves and DILU/ILU(0) construction, PJG
# sweeps, quad-tree row bands, g-Spike's parallel blocks, HISA, the Krylov
# methods) under ThreadSanitizer.  GCC's libgomp is not instrumented, so TSan
# cannot see its barriers; clang with LLVM's libomp and Archer (its OMPT tool that
# tells TSan about barriers, locks and tasks) can.  A deliberately racy program is
# run first and must be reported, so the run proves the tool is live.
#   scripts/tsan.sh [BUILD_DIR]     (default build-tsan)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-tsan}
archer=/usr/lib/llvm-14/lib/libarcher.so
# (the TSan runtime is in libclang-rt-14-dev, which clang-14 only recommends)
if ! command -v clang-14 >/dev/null 2>&1 || [ ! -e "$archer" ] ||
  ! compgen -G '/usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.tsan-x86_64.a' >/dev/null; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq --no-install-recommends clang-14 libomp-14-dev libclang-rt-14-dev >/dev/null
  else
    echo "tsan.sh needs: sudo apt-get install clang-14 libomp-14-dev libclang-rt-14-dev" >&2
    exit 1
  fi
fi
tsan=(-fsanitize=thread -g)
CC=clang-14 cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_FLAGS="${tsan[*]}" -DCMAKE_EXE_LINKER_FLAGS="${tsan[*]}" \
  -DCMAKE_SHARED_LINKER_FLAGS="${tsan[*]}" >/dev/null
cmake --build "$build" -j "$(nproc)" >/dev/null
build=$(cd "$build" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# threads=2: threads=0 would run the tests' small systems on one thread, with nothing to race
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2} OMP_WAIT_POLICY=passive OMP_TOOL_LIBRARIES=$archer
export HPLS_OPTIONS=${HPLS_OPTIONS:-threads=2}
export TSAN_OPTIONS="suppressions=$root/tests/tsan.supp ignore_noninstrumented_modules=1 exitcode=66"
export HPLS_DATA_DIR=${HPLS_DATA_DIR:-$root/../shared/data} HPLS_TEST_DIR=$root/tests HPLS_TMP=$tmp

cat >"$tmp/racy.c" <<'C'
#include <stdio.h>
int main(void)
{
    double s = 0.0;
#pragma omp parallel for
    for (int i = 0; i < 100000; i++)
        s += i; /* the race TSan must report */
    printf("%g\n", s);
    return 0;
}
C
clang-14 -fopenmp "${tsan[@]}" "$tmp/racy.c" -o "$tmp/racy"
if "$tmp/racy" >/dev/null 2>"$tmp/racy.log" || ! grep -q "data race" "$tmp/racy.log"; then
  echo "FAIL  TSan did not report the deliberate race: the run would prove nothing" >&2
  exit 1
fi
echo "ok    the deliberate race is reported"
fail=0
for t in test_kernels test_dilu test_pjg test_qtree test_tridiag test_hisa test_krylov test_reliability; do
  t0=$SECONDS
  if (cd "$tmp" && "$build/bin/$t" >"$tmp/out" 2>&1); then
    echo "ok    $((SECONDS - t0)) s  $t"
  else
    echo "FAIL  $((SECONDS - t0)) s  $t"
    grep -A30 "WARNING: ThreadSanitizer" "$tmp/out" | head -60 || tail -30 "$tmp/out"
    fail=1
  fi
done
exit $fail
