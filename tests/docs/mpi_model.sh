#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# mpi_model.sh: docs/mpi_model.md's generated section is what bench/mpi_model.py doc
# renders from bench/results/mpi_model.csv (a line saying it is not measured yet
# while there is none), as docs_gpu_model checks docs/gpu_model.md.  First proves,
# on a CSV collected here from a made-up run (its figures are not measurements),
# that the check passes on the doc it writes and fails on a doc whose table was
# edited by hand and on a CSV whose figures changed.
# Usage: mpi_model.sh SOURCE_DIR
set -u
src=$1
tmp=$(mktemp -d "${HPLS_TMP:-${TMPDIR:-/tmp}}/mpi_model.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
model=$src/bench/mpi_model.py
check() { python3 "$model" doc --check --results "$1" --doc "$2"; }

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

# a made-up run of two repetitions, collected as bench/run_all.sh collects them
mkdir -p "$tmp/results" "$tmp/other"
cat >"$tmp/rep1.md" <<'MD'
# Weak-scaling model of hpls under MPI, to 1024 ranks

A made-up run for the test (not a measurement): alpha = 0.60 µs.

## Predicted ms per iteration, InfiniBand HDR

| method | 1 rank | 2 ranks | efficiency at 1024 |
|---|---:|---:|---:|
| CG | 10.000 | 10.100 | 0.90 |
MD
sed 's/10\.100/10.200/' "$tmp/rep1.md" >"$tmp/rep2.md"
printf 'command=tests/docs/mpi_model.sh\ndate=none\ncommit=none\ncpu=none\n' >"$tmp/meta"
python3 "$src/bench/tables.py" collect "$tmp/results/mpi_model.csv" "$tmp/meta" "$tmp/rep1.md" \
    "$tmp/rep2.md" || exit 1
cp "$src/docs/mpi_model.md" "$tmp/doc.md"
python3 "$model" doc --write --results "$tmp/results" --doc "$tmp/doc.md" >/dev/null || exit 1
if check "$tmp/results" "$tmp/doc.md" >/dev/null && grep -q '| CG | 10.000 | 10.100 \[10.100–10.200\] |' "$tmp/doc.md"; then
    echo "ok   the doc written from a CSV passes the check and shows its medians"
else
    echo "FAIL the doc written from a CSV:"
    sed -n '/mpi_model:begin/,/mpi_model:end/p' "$tmp/doc.md"
    exit 1
fi

# a figure changed by hand inside the section
sed '/^<!-- mpi_model:begin/,/^<!-- mpi_model:end/ s/| CG | 10\.000 |/| CG | 10.001 |/' \
    "$tmp/doc.md" >"$tmp/edited.md"
rejects "a docs/mpi_model.md edited by hand" "$tmp/doc.md" "$tmp/edited.md" "$tmp/results" "$tmp/edited.md"

# a results CSV whose figures changed (CG's 1-rank time)
sed 's/^\(1,[0-9]*,2,\)10\.000$/\110.500/' "$tmp/results/mpi_model.csv" >"$tmp/other/mpi_model.csv"
rejects "a doc made from other figures" "$tmp/results/mpi_model.csv" "$tmp/other/mpi_model.csv" \
    "$tmp/other" "$tmp/doc.md"

if check "$src/bench/results" "$src/docs/mpi_model.md"; then
    echo "ok   docs/mpi_model.md's section matches bench/results"
else
    echo "FAIL docs/mpi_model.md differs: run bench/mpi_model.py doc --write"
    exit 1
fi
