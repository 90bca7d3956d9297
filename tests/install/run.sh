#!/usr/bin/env bash
# run.sh BUILD_DIR SOURCE_DIR: installs hpls into a temporary prefix, then builds
# the programs of examples/ against it twice, through find_package(hpls)
# (examples/CMakeLists.txt) and through pkg-config, and runs every one.
set -euo pipefail
build=$1 src=$2
tmp=$(mktemp -d "${HPLS_TMP:-/tmp}/install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
test -f "$tmp/prefix/include/hpls.h"
libdir=$(ls -d "$tmp"/prefix/lib*/ | head -1)
test -f "$libdir/pkgconfig/hpls.pc"
"$tmp/prefix/bin/hpls" gen gas:n=3000,k=2 -o "$tmp/A.mtx" >/dev/null
examples="solve_file reuse_setup many_rhs user_precond precond_loop"
run() { # run NAME BINARY: the example's output, or FAIL
    local args=""
    [[ $1 != solve_file* ]] || args=$tmp/A.mtx
    # shellcheck disable=SC2086
    if ! LD_LIBRARY_PATH="$libdir" "$2" $args >"$tmp/out" 2>&1; then
        echo "FAIL $1 ($2):"
        tail -5 "$tmp/out"
        exit 1
    fi
    echo "$1: $(tail -1 "$tmp/out")"
}
cmake -S "$src/examples" -B "$tmp/cmake-build" -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/cmake-build" >/dev/null
for e in $examples; do run "$e" "$tmp/cmake-build/$e"; done
# pkg-config: the shared library by default
flags=$(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --cflags --libs hpls)
for e in $examples; do
    # shellcheck disable=SC2086
    cc -std=c11 -Wall -Wextra -Werror "$src/examples/$e.c" $flags -lm -o "$tmp/$e-pc"
    run "$e (pkg-config)" "$tmp/$e-pc"
done
echo "$(( 2 * $(wc -w <<<"$examples") )) passed, 0 failed"
