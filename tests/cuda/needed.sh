#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# needed.sh: the cuda module needs nothing a GPU host with only the NVIDIA
# driver lacks (issue 33, finding 1): its NEEDED entries are glibc's alone
# (the driver, libcuda.so.1, is opened by the CUDA runtime when called;
# cuSPARSE and cuBLAS by cuda.c when their switches ask).  It also exports
# only its entry point.  Usage: needed.sh PATH/TO/libhpls_cuda.so
set -u
mod=$1
needed=$(readelf -d "$mod" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
echo "NEEDED: $(tr '\n' ' ' <<<"$needed")"
bad=$(grep -vE '^(libc|libm|libdl|libpthread|librt)\.so\.[0-9]+$|^ld-linux[-a-z0-9_.]*\.so\.[0-9]+$' <<<"$needed")
[ -z "$bad" ] || { echo "FAIL: the module needs $(tr '\n' ' ' <<<"$bad")"; exit 1; }
exported=$(nm -D --defined-only "$mod" | awk '{print $3}')
[ "$exported" = hpls_cuda_entry ] || { echo "FAIL: exports $(tr '\n' ' ' <<<"$exported")"; exit 1; }
echo "glibc only; exports hpls_cuda_entry only"
