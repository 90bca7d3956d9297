#!/usr/bin/env bash
# readme_figures.sh: every bench/results/*.md is what bench/tables.py renders from
# the CSV beside it, and README.md's performance section is what
# bench/readme_figures.py makes of bench/results (as docs/bad_inputs.md is the table
# of the bad-input catalogue).  First proves the check fails on a README edited by hand.
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

if check "$src/README.md"; then
    echo "ok   README.md's performance section matches bench/results"
else
    echo "FAIL README.md differs from bench/results: run bench/readme_figures.py --write"
    exit 1
fi
