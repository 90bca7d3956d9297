#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# spdx.sh check|add: every tracked source file (code, scripts, build files;
# not data, documents or test inputs) opens with the licence's SPDX line.
#   check  lists the files without it; exit 1 if any (the ctest spdx_lines)
#   add    inserts it where missing: line 1 of C, OpenCL and CUDA files as a
#          /* */ comment; after a #! line, else line 1, of scripts and build files
set -euo pipefail
cd "$(dirname "$0")/.."
tag="SPDX-License-Identifier: BSD-3-Clause"
mode=${1:-}
[ "$mode" = check ] || [ "$mode" = add ] || { echo "usage: scripts/spdx.sh check|add" >&2; exit 2; }
git rev-parse --is-inside-work-tree >/dev/null 2>&1 || { echo "SKIP: not a git checkout"; exit 77; }

sources() {
    git ls-files | grep -E '\.(c|h|cl|cu|cuh|sh|py|cmake|in|toml)$|(^|/)(CMakeLists\.txt|Makefile)$|^\.ci/run$' |
        grep -v '^tests/bad_inputs/'
}

missing=0
while IFS= read -r f; do
    head -3 "$f" | grep -q "$tag" && continue
    if [ "$mode" = check ]; then
        echo "no SPDX line: $f"
        missing=1
        continue
    fi
    case "$f" in
    *.c | *.h | *.cl | *.cu | *.cuh) line="/* $tag */" ;;
    *) line="# $tag" ;;
    esac
    tmp=$(mktemp "$f.XXXXXX")
    if head -1 "$f" | grep -q '^#!'; then
        { head -1 "$f"; echo "$line"; tail -n +2 "$f"; } >"$tmp"
    else
        { echo "$line"; cat "$f"; } >"$tmp"
    fi
    chmod --reference="$f" "$tmp"
    mv "$tmp" "$f"
done < <(sources)
[ "$mode" = add ] || [ $missing = 0 ] || { echo "spdx.sh add puts the line in"; exit 1; }
