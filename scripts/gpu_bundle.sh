#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# gpu_bundle.sh BUILD OUT (`make gpu-bundle`): what scripts/gpu_smoke.sh needs on a GPU
# host with the NVIDIA driver and nothing else of CUDA, in the folder OUT and OUT.tar.gz:
#   bin/hpls, bin/test_opencl      the command and the device suite (BUILD/bin)
#   lib/libhpls_cuda.so            the cuda module (BUILD/lib), found beside bin/../lib
#   lib/deps/                      the shared libraries those programs need that are
#                                  not glibc's (OpenMP, zlib, LAPACK and BLAS, the
#                                  OpenCL loader, cmocka), as this machine has them
#   scripts/gpu_smoke.sh, bench/gpu_model.py, bench/tables.py, MANIFEST.txt
# BUILD is a build made for it (make gpu-bundle: MPI off, RPATH $ORIGIN/../lib/deps).
# It then checks that nothing points back here: no RPATH/RUNPATH but $ORIGIN's, ldd
# resolving every library inside OUT or to glibc, nothing from BUILD or a CUDA
# toolkit, the module needing glibc only; and that OUT is at most 64 MiB.
set -euo pipefail
build=$1
out=$2
src=$(cd "$(dirname "$0")/.." && pwd)
die() {
    echo "gpu_bundle.sh: $*" >&2
    exit 1
}
for f in bin/hpls bin/test_opencl lib/libhpls_cuda.so; do
    [ -f "$build/$f" ] || die "$build/$f is missing (a build with HPLS_CUDA=ON and the tests)"
done
rm -rf "$out" "$out.tar.gz"
mkdir -p "$out/bin" "$out/lib/deps" "$out/scripts" "$out/bench"
cp "$build/bin/hpls" "$build/bin/test_opencl" "$out/bin/"
cp "$build/lib/libhpls_cuda.so" "$out/lib/"
cp "$src/scripts/gpu_smoke.sh" "$out/scripts/"
cp "$src/bench/gpu_model.py" "$src/bench/tables.py" "$out/bench/"

# glibc's own libraries stay the host's; every other library ldd finds is copied
glibc='^(linux-vdso|libc|libm|libdl|libpthread|librt|libresolv|ld-linux[-a-z0-9_]*)\.so'
for exe in "$out/bin/hpls" "$out/bin/test_opencl"; do
    ldd "$exe" | awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}'
done | sort -u | while read -r name path; do
    grep -qE "$glibc" <<<"$name" || cp -L "$path" "$out/lib/deps/$name"
done

# nothing may point back to this machine's build or toolkit
fail=0
for f in "$out"/bin/* "$out"/lib/*.so "$out"/lib/deps/*; do
    paths=$(readelf -d "$f" | sed -n 's/.*(R\(UN\)\{0,1\}PATH).*\[\(.*\)\]/\2/p')
    if [ -n "$paths" ] && grep -qvE '^\$ORIGIN' <<<"${paths//:/$'\n'}"; then
        echo "gpu_bundle.sh: $f has the search path $paths" >&2
        fail=1
    fi
done
for exe in "$out"/bin/*; do
    bad=$(env -u LD_LIBRARY_PATH ldd "$exe" | grep -E 'not found|/usr/local/cuda|'"$(cd "$build" && pwd)" || true)
    outside=$(env -u LD_LIBRARY_PATH ldd "$exe" | awk '$2 == "=>" {print $1, $3}' |
        grep -vE "$glibc" | while read -r name path; do
        [ "$(realpath -m "$path")" = "$(realpath "$out/lib/deps/$name")" ] || echo "$name $path"
    done)
    [ -z "$bad$outside" ] || {
        echo "gpu_bundle.sh: $exe resolves outside the bundle: $bad $outside" >&2
        fail=1
    }
done
bash "$src/tests/cuda/needed.sh" "$out/lib/libhpls_cuda.so" >/dev/null ||
    { echo "gpu_bundle.sh: the module needs more than glibc" >&2; fail=1; }
[ $fail -eq 0 ] || die "the bundle is not self-contained (above)"

# the newest glibc symbol version anything in it asks for: the host needs that glibc
need_glibc=$(for f in "$out"/bin/* "$out"/lib/*.so "$out"/lib/deps/*; do
    objdump -T "$f" | grep -oE 'GLIBC_[0-9.]+'
done | sort -t. -k2,2n -k3,3n -u | tail -1)
{
    echo "hpls $(git -C "$src" describe --always --dirty 2>/dev/null || echo '?'), built $(date -u '+%Y-%m-%d') on $(uname -m), needs glibc >= ${need_glibc#GLIBC_} and an NVIDIA driver for CUDA $("$out/bin/hpls" info --devices 2>&1 | grep -oE 'runtime [0-9.]+' | head -1 | cut -d' ' -f2)"
    echo "run: scripts/gpu_smoke.sh (docs/gpu.md, \"On a first GPU host\"); files:"
    (cd "$out" && find . -type f ! -name MANIFEST.txt | sort | xargs ls -l | awk '{print $5, $9}')
} >"$out/MANIFEST.txt"
tar -C "$(dirname "$out")" -czf "$out.tar.gz" "$(basename "$out")"
size=$(du -sb "$out" | cut -f1)
[ "$size" -le $((64 * 1024 * 1024)) ] || die "$out is $((size / 1048576)) MiB, over 64 MiB"
echo "gpu-bundle: $out ($((size / 1024)) KiB; $out.tar.gz $(($(stat -c %s "$out.tar.gz") / 1024)) KiB)"
echo "  $(head -1 "$out/MANIFEST.txt")"
echo "  copy either to the GPU host and run: $(basename "$out")/scripts/gpu_smoke.sh"
