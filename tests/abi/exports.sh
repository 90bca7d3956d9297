#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# exports.sh LIBHPLS.so HEADER...: the shared library exports exactly the
# functions the public headers (hpls.h; hpls_mpi.h in an MPI build) declare with
# HPLS_API, and every function they declare carries it.
set -euo pipefail
lib=$1
shift
tmp=$(mktemp -d "${HPLS_TMP:-/tmp}/abi.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail=0
names=""
for header in "$@"; do
    names="$names $(basename "$header")"
    # a declaration at the start of a line without HPLS_API would not be exported
    if grep -nE '^[a-z][a-z_ ]*\*? *hpls_[a-z0-9_]+\(' "$header" | grep -v 'HPLS_API'; then
        echo "FAIL: the declarations above ($header) lack HPLS_API"
        fail=1
    fi
    # every HPLS_API declaration, possibly continued on the next lines: the name before "("
    tr '\n' ' ' <"$header" | grep -oE 'HPLS_API [^;(]*\(' | grep -oE 'hpls_[a-z0-9_]+\($' |
        tr -d '(' >>"$tmp/all"
done
sort -u "$tmp/all" >"$tmp/declared"
nm -D --defined-only "$lib" | awk '{print $NF}' | sort -u >"$tmp/exported"
extra=$(comm -13 "$tmp/declared" "$tmp/exported")
missing=$(comm -23 "$tmp/declared" "$tmp/exported")
if [ -n "$extra" ]; then
    echo "FAIL: exported but not declared in$names:"
    echo "$extra"
    fail=1
fi
if [ -n "$missing" ]; then
    echo "FAIL: declared in$names but not exported:"
    echo "$missing"
    fail=1
fi
n=$(wc -l <"$tmp/declared")
if [ "$n" -lt 40 ]; then # the extraction itself must have worked
    echo "FAIL: only $n declarations found in$names"
    fail=1
fi
[ $fail = 0 ] && echo "exports: $n symbols, all declared in$names; 1 passed, 0 failed"
exit $fail
