#!/usr/bin/env bash
# readme_figures.sh: README.md's performance section is what bench/readme_figures.py
# makes of bench/results (as docs/bad_inputs.md is the table of the bad-input
# catalogue).  First proves the check fails on a README edited by hand.
# Usage: readme_figures.sh SOURCE_DIR
set -u
src=$1
tmp=$(mktemp -d "${HPLS_TMP:-${TMPDIR:-/tmp}}/readme_figures.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
check() { python3 "$src/bench/readme_figures.py" --check --results "$src/bench/results" --readme "$1"; }

# a figure changed by hand inside the section must be caught
sed '/^<!-- perf:begin/,/^<!-- perf:end/ s/| kernels\.md |$/| kernels.md (edited) |/' \
    "$src/README.md" >"$tmp/README.md"
if cmp -s "$src/README.md" "$tmp/README.md"; then
    echo "FAIL the hand edit found nothing to change in the performance section"
    exit 1
fi
if check "$tmp/README.md" 2>/dev/null; then
    echo "FAIL --check accepted a README edited by hand"
    exit 1
fi
echo "ok   --check rejects a README edited by hand"

if check "$src/README.md"; then
    echo "ok   README.md's performance section matches bench/results"
else
    echo "FAIL README.md differs from bench/results: run bench/readme_figures.py --write"
    exit 1
fi
