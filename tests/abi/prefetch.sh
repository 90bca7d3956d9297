#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# prefetch.sh LIBHPLS.a: every prefetch variant of the host CSR kernels
# (kernels/cpu/prefetch.h) is in the compiled objects: the SpMV, the sweeps and
# the quad-tree product each hold prefetcht0, prefetcht1 and prefetchnta.  GCC
# 12 -O3 once dropped the locality 2 and 0 hints of an if chain without a word:
# the variants then differed only in name.  x86-64 only (77: skipped elsewhere).
set -euo pipefail
lib=$1
[ "$(uname -m)" = x86_64 ] || { echo "SKIP: not x86-64"; exit 77; }
command -v objdump >/dev/null || { echo "SKIP: no objdump (binutils)"; exit 77; }
fail=0
dis=$(objdump -d --no-show-raw-insn "$lib")
for obj in spmv.c.o sptrsv.c.o qtree_spmv.c.o sor_sweep.c.o pjg_sweep.c.o; do
    # the archive member's disassembly: from its "file format" line to the next member's
    body=$(awk -v m="$obj:" '$1 == m && /file format/ { on = 1; next } on && /file format/ { exit } on' <<<"$dis")
    [ -n "$body" ] || { echo "FAIL: no member $obj in $lib (renamed? update this test)"; fail=1; continue; }
    for insn in prefetcht0 prefetcht1 prefetchnta; do
        grep -q "$insn" <<<"$body" || { echo "FAIL: $obj has no $insn"; fail=1; }
    done
done
[ $fail = 0 ] && echo "prefetch hints: every variant compiled"
exit $fail
