#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# readme_example.sh SOURCE_DIR BUILD_DIR: README.md's library code block is
# examples/solve_file.c verbatim; it compiles with -Wall -Wextra -Werror against
# hpls.h and the built static library, and solves a generated matrix.
set -u
src=$1 build=$2
tmp=$(mktemp -d "${HPLS_TMP:-${TMPDIR:-/tmp}}/readme_example.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
# the first ```c block after "## The library"
awk '/^## The library/ { lib = 1 } lib && /^```c$/ { on = 1; next } on && /^```$/ { exit } on' \
    "$src/README.md" >"$tmp/readme.c"
if [ ! -s "$tmp/readme.c" ]; then
    echo "FAIL no C block under '## The library' in README.md"
    exit 1
fi
if ! cmp -s "$tmp/readme.c" "$src/examples/solve_file.c"; then
    echo "FAIL README.md's code block differs from examples/solve_file.c:"
    diff "$tmp/readme.c" "$src/examples/solve_file.c" | head -20
    exit 1
fi
libs=$(sed -n 's/^Libs.private: //p' "$build/hpls.pc" 2>/dev/null)
# shellcheck disable=SC2086
if ! cc -std=c11 -Wall -Wextra -Werror -I"$src/include" "$tmp/readme.c" "$build/lib/libhpls.a" \
    -fopenmp -llapack -lz -lm $libs -o "$tmp/readme"; then
    echo "FAIL README.md's code block does not compile with -Wall -Wextra -Werror"
    exit 1
fi
"$build/bin/hpls" gen gas:n=2000,k=2 -o "$tmp/A.mtx" >/dev/null || exit 1
if ! out=$("$tmp/readme" "$tmp/A.mtx"); then
    echo "FAIL the README example did not converge: $out"
    exit 1
fi
echo "$out"
echo "1 passed, 0 failed"
