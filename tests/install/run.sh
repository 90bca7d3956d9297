#!/usr/bin/env bash
# run.sh BUILD_DIR SOURCE_DIR: installs hpls into a temporary prefix, then builds
# and runs a program against it twice: through find_package(hpls) and pkg-config.
set -euo pipefail
build=$1 src=$2
tmp=$(mktemp -d "${HPLS_TMP:-/tmp}/install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
test -f "$tmp/prefix/include/hpls.h"
libdir=$(ls -d "$tmp"/prefix/lib*/ | head -1)
test -f "$libdir/pkgconfig/hpls.pc"
cmake -S "$src/tests/install" -B "$tmp/cmake-build" -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/cmake-build" >/dev/null
LD_LIBRARY_PATH="$libdir" "$tmp/cmake-build/consumer"
# pkg-config: the shared library by default
flags=$(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --cflags --libs hpls)
# shellcheck disable=SC2086
cc -std=c11 "$src/tests/install/consumer.c" $flags -o "$tmp/consumer-pc"
LD_LIBRARY_PATH="$libdir" "$tmp/consumer-pc"
echo "1 passed, 0 failed"
