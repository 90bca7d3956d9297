#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# gpu_model.sh: docs/gpu_model.md's generated section is what bench/gpu_model.py doc
# renders from bench/results/gpu_model.csv (as README's performance section is
# what readme_figures.py makes of bench/results).  First proves the check fails
# on a doc whose table was edited by hand, and on a CSV whose figures changed.
# Usage: gpu_model.sh SOURCE_DIR
set -u
src=$1
tmp=$(mktemp -d "${HPLS_TMP:-${TMPDIR:-/tmp}}/gpu_model.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
check() { python3 "$src/bench/gpu_model.py" doc --check --results "$1" --doc "$2"; }

# rejects WHAT ORIGINAL EDITED RESULTS DOC: EDITED differs from ORIGINAL, and the
# check of DOC against RESULTS (one of them made from EDITED) fails
rejects() {
    if cmp -s "$2" "$3"; then
        echo "FAIL $1: the edit found nothing to change"
        exit 1
    fi
    if check "$4" "$5" 2>/dev/null; then
        echo "FAIL --check accepted $1"
        exit 1
    fi
    echo "ok   --check rejects $1"
}

# a figure changed by hand inside the section
sed '/^<!-- gpu_model:begin/,/^<!-- gpu_model:end/ s/| BHISA | gas:n=1000000,k=2 | 1000000 |/| BHISA | gas:n=1000000,k=2 | 1000001 |/' \
    "$src/docs/gpu_model.md" >"$tmp/gpu_model.md"
rejects "a docs/gpu_model.md edited by hand" "$src/docs/gpu_model.md" "$tmp/gpu_model.md" "$src/bench/results" "$tmp/gpu_model.md"

# a results CSV whose figures changed (BHISA's MB per iteration)
mkdir -p "$tmp/results"
sed 's/^\(1,[0-9]*,5,\)104\.4$/\1104.5/' "$src/bench/results/gpu_model.csv" >"$tmp/results/gpu_model.csv"
rejects "a doc made from other figures" "$src/bench/results/gpu_model.csv" "$tmp/results/gpu_model.csv" \
    "$tmp/results" "$src/docs/gpu_model.md"

if check "$src/bench/results" "$src/docs/gpu_model.md"; then
    echo "ok   docs/gpu_model.md's table matches bench/results/gpu_model.csv"
else
    echo "FAIL docs/gpu_model.md differs: run bench/gpu_model.py doc --write"
    exit 1
fi
