#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# readme_figures.sh: every bench/results/*.md is what bench/tables.py renders from
# the CSV beside it, and docs/performance.md's figures and README.md's headline
# figures are what bench/readme_figures.py makes of bench/results (as
# docs/bad_inputs.md is the table of the bad-input catalogue).  First proves the
# check fails on either file edited by hand.
# Usage: readme_figures.sh SOURCE_DIR
set -u
src=$1
tmp=$(mktemp -d "${HPLS_TMP:-${TMPDIR:-/tmp}}/readme_figures.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
# check DOC README: both files' generated sections against bench/results
check() { python3 "$src/bench/readme_figures.py" --check --results "$src/bench/results" --doc "$1" --readme "$2"; }

# a figure changed by hand inside either section must be caught
sed '/^<!-- perf:begin/,/^<!-- perf:end/ s/| kernels\.md |$/| kernels.md (edited) |/' \
    "$src/docs/performance.md" >"$tmp/performance.md"
sed '/^<!-- headline:begin/,/^<!-- headline:end/ s/| \[\([a-z_]*\.md\)\]/| [edited \1]/' \
    "$src/README.md" >"$tmp/README.md"
for f in performance.md README.md; do
    if cmp -s "$tmp/$f" "$src/$( [ $f = README.md ] && echo README.md || echo docs/$f )"; then
        echo "FAIL the hand edit found nothing to change in $f's generated section"
        exit 1
    fi
done
if check "$tmp/performance.md" "$src/README.md" 2>/dev/null; then
    echo "FAIL --check accepted docs/performance.md edited by hand"
    exit 1
fi
if check "$src/docs/performance.md" "$tmp/README.md" 2>/dev/null; then
    echo "FAIL --check accepted a README edited by hand"
    exit 1
fi
echo "ok   --check rejects docs/performance.md or README.md edited by hand"

bad=0
for csv in "$src"/bench/results/*.csv; do
    md=${csv%.csv}.md
    python3 "$src/bench/tables.py" render "$csv" "$tmp/table.md" || { bad=1; continue; }
    if ! cmp -s "$tmp/table.md" "$md"; then
        echo "FAIL ${md#"$src"/} is not the rendering of its CSV: re-run the table (bench/run_all.sh)"
        bad=1
    fi
done
[ "$bad" = 1 ] && exit 1
echo "ok   every bench/results/*.md is rendered from its CSV"

if check "$src/docs/performance.md" "$src/README.md"; then
    echo "ok   docs/performance.md's and README.md's figures match bench/results"
else
    echo "FAIL docs/performance.md or README.md differs from bench/results: run bench/readme_figures.py --write"
    exit 1
fi
