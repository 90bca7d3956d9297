#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# entry_points.sh: every cuSPARSE and cuBLAS function the cuda backend calls
# (src/kernels/cuda/cuda.c) is called by tests/cuda/libs.c too, so linking
# that program checks them all.  Usage: entry_points.sh SOURCE_DIR
set -u
src=$1
used=$(grep -ohE '\b(cusparse|cublas)[A-Za-z0-9_]+\(' "$src/src/kernels/cuda/cuda.c" | sort -u)
[ -n "$used" ] || { echo "FAIL: no cuSPARSE or cuBLAS call found in cuda.c"; exit 1; }
missing=""
for f in $used; do
  grep -qF "$f" "$src/tests/cuda/libs.c" || missing+=" ${f%(}"
done
[ -z "$missing" ] || { echo "FAIL: called by cuda.c, not by tests/cuda/libs.c:$missing"; exit 1; }
echo "$(wc -w <<<"$used") entry points, all in libs.c"
