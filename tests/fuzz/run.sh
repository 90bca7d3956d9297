#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# run.sh: builds the libFuzzer targets of tests/fuzz (clang, ASan + UBSan, the
# library's sources compiled in) and runs each one for a while from its seed
# corpus.  Fails (exit 1) on any crash, leak, timeout, out-of-memory or sanitizer
# report, and on any crash input of tests/fuzz/regressions that fails again.
#
# Usage: tests/fuzz/run.sh [BUILD_DIR] [SECONDS_PER_TARGET] [libFuzzer options...]
#   BUILD_DIR           default /work/main/build-fuzz (objects, binaries, the
#                       working corpora, logs and crash inputs all go under it)
#   SECONDS_PER_TARGET  default 60 (-max_total_time); 0 only builds and replays
#                       the regression inputs
#   libFuzzer options   passed on, e.g. -runs=10000000 (stops at whichever comes
#                       first) or -seed=1
#   FUZZ_TARGETS="mm_matrix options" runs a subset (default: all five).
# Output per target: executions, exec/s and crash inputs found; the full
# libFuzzer log is BUILD_DIR/logs/<target>.log, crash inputs are under
# BUILD_DIR/artifacts/<target>/.  Exit 77: clang or libomp is missing and
# cannot be installed here (not root).
set -euo pipefail

src=$(cd "$(dirname "$0")/../.." && pwd)
build=$(mkdir -p "${1:-$src/build-fuzz}" && cd "${1:-$src/build-fuzz}" && pwd)
seconds=${2:-60}
shift $(($# < 2 ? $# : 2))
targets=${FUZZ_TARGETS:-mm_matrix mm_vector options matpower solver}
cc=${FUZZ_CC:-clang-14}

# ---- dependencies: clang, its OpenMP runtime (Debian libomp-14-dev) and its
# sanitizer and fuzzer runtimes (libclang-rt-14-dev, only "recommended" by clang) ----
have_clang_omp() {
  command -v "$cc" >/dev/null 2>&1 &&
    printf '#include <omp.h>\nint LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return omp_get_max_threads() < 1; }\n' |
    "$cc" -fopenmp -fsanitize=fuzzer,address,undefined -x c - -o "$build/omp-probe" >/dev/null 2>&1
}
if ! have_clang_omp; then
  pkgs="clang-14 libomp-14-dev libclang-rt-14-dev"
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq --no-install-recommends $pkgs >/dev/null
  fi
  if ! have_clang_omp; then
    echo "fuzz: needs $cc with OpenMP: sudo apt-get install $pkgs" >&2
    exit 77
  fi
fi
rm -f "$build/omp-probe"

# ---- build: every library source, then one binary per target ----
flags=(-std=c11 -g -O1 -fopenmp -fno-omit-frame-pointer -fno-sanitize-recover=all -Wall -Wextra
  -I"$src/include" -I"$src/src")
# HPLS_LIBDIR: where backend/cuda_loader.c looks for the cuda module (CMake sets it)
libflags=("${flags[@]}" -fsanitize=fuzzer-no-link,address,undefined -DHPLS_LIBDIR='"lib"')
mkdir -p "$build/obj" "$build/bin"
newest_header=$(find "$src/include" "$src/src" "$src/examples/powerflow" -name '*.h' \
  -printf '%T@\n' | sort -n | tail -1)
stale() { # stale OBJECT SOURCE: the object is missing or older than its source or any header
  [ ! -e "$1" ] || [ "$2" -nt "$1" ] ||
    awk -v h="$newest_header" -v o="$(stat -c %Y "$1")" 'BEGIN { exit !(h > o) }'
}
jobs=()
# src/mpi needs MPI's headers and mpirun: the fuzzers run one process; the opencl and
# cuda backends are optional parts (a library without them refuses backend=opencl|cuda)
for f in $(cd "$src" && find src examples/powerflow -name '*.c' ! -name main.c ! -path 'src/mpi/*' \
  ! -path 'src/kernels/opencl/*' ! -path 'src/kernels/cuda/*' | sort); do
  o="$build/obj/$(echo "${f%.c}" | tr / _).o"
  stale "$o" "$src/$f" && jobs+=("$f")
done
if [ ${#jobs[@]} -gt 0 ]; then
  echo "fuzz: compiling ${#jobs[@]} sources with $cc (ASan, UBSan, fuzzer coverage)"
  export src build
  printf '%s\n' "${jobs[@]}" | xargs -P "$(nproc)" -I{} sh -c \
    'f={}; o="$build/obj/$(echo "${f%.c}" | tr / _).o"; '"$cc $(printf '%q ' "${libflags[@]}")"' -I"$src/examples/powerflow" -c "$src/$f" -o "$o"'
fi
lib=("$build"/obj/src_*.o)
pf=("$build"/obj/examples_powerflow_*.o)
for t in $targets; do
  extra=()
  [ "$t" = matpower ] && extra=(-I"$src/examples/powerflow" "${pf[@]}")
  "$cc" "${flags[@]}" -Werror -fsanitize=fuzzer,address,undefined "$src/tests/fuzz/fuzz_$t.c" \
    "${extra[@]}" "${lib[@]}" -llapack -lz -lm -o "$build/bin/fuzz_$t"
done

# ---- run: regressions first, then fuzzing from a scratch copy of the corpus ----
# Allocations the declared sizes ask for above 256 MB return NULL (the readers
# then report HPLS_ERR_NOMEM) instead of counting as libFuzzer out-of-memory.
export ASAN_OPTIONS=${ASAN_OPTIONS:-allocator_may_return_null=1:max_allocation_size_mb=256:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export OMP_NUM_THREADS=1
fuzz_opts=(-timeout=10 -rss_limit_mb=2048 -print_final_stats=1)
count_art() { # crash inputs libFuzzer saved in directory $1
  find "$1" -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) |
    wc -l
}
status=0
mkdir -p "$build/logs"
for t in $targets; do
  bin="$build/bin/fuzz_$t"
  regress=("$src/tests/fuzz/regressions/$t"/*)
  if [ -e "${regress[0]}" ]; then
    if ! "$bin" "${fuzz_opts[@]}" "${regress[@]}" >"$build/logs/$t.regressions.log" 2>&1; then
      echo "fuzz_$t: a regression input fails again (see $build/logs/$t.regressions.log)"
      status=1
    fi
  fi
  [ "$seconds" -gt 0 ] || continue
  work="$build/corpus/$t"
  art="$build/artifacts/$t"
  mkdir -p "$work" "$art"
  cp -n "$src/tests/fuzz/corpus/$t"/* "$work"/ 2>/dev/null || true
  dict=()
  [ -e "$src/tests/fuzz/$t.dict" ] && dict=(-dict="$src/tests/fuzz/$t.dict")
  before=$(count_art "$art")
  rc=0
  "$bin" "${fuzz_opts[@]}" -max_total_time="$seconds" -artifact_prefix="$art/" "${dict[@]}" "$@" \
    "$work" >"$build/logs/$t.log" 2>&1 || rc=$?
  found=$(($(count_art "$art") - before))
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$build/logs/$t.log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$build/logs/$t.log" | tail -1)
  printf 'fuzz_%-10s executions %12s  exec/s %8s  crashes %d%s\n' "$t" "${execs:-?}" \
    "${rate:-?}" "$found" "$([ $rc -ne 0 ] && echo "  (exit $rc, see $build/logs/$t.log)")"
  if [ $rc -ne 0 ] || [ "$found" -gt 0 ]; then
    status=1
  fi
done
exit $status
