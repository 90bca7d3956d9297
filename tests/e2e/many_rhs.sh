#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# many_rhs.sh: `hpls solve A.mtx B.mtx` with B an n x k array: every column
# solved (native jacobi, column by column bicgstab), X written n x k and equal
# to the single solves of each column; what it refuses.
# Usage: many_rhs.sh PATH/TO/hpls
set -u
HPLS=$1
T=$(mktemp -d "${HPLS_TMP:-/tmp}/e2e.XXXXXX")
trap 'rm -rf "$T"' EXIT
pass=0 fail=0

. "$(dirname "$0")/../util/expect.sh"

n=3000
"$HPLS" gen gas:n=$n,k=2 -o "$T/A.mtx" >/dev/null
# B: 3 columns (the file lists column after column); b_j: column j alone
awk -v n=$n 'BEGIN { print "%%MatrixMarket matrix array real general"; print n, 3
  for (j = 1; j <= 3; j++) for (i = 1; i <= n; i++) printf "%.17g\n", sin(i * j) + j }' >"$T/B.mtx"
for j in 1 2 3; do
  awk -v n=$n -v j=$j 'BEGIN { print "%%MatrixMarket matrix array real general"; print n, 1
    for (i = 1; i <= n; i++) printf "%.17g\n", sin(i * j) + j }' >"$T/b$j.mtx"
done

for solver in jacobi "bicgstab --precond ilu0"; do
  name=${solver%% *}
  # shellcheck disable=SC2086
  expect "many_$name" 0 "3 right-hand sides" -- "$HPLS" solve "$T/A.mtx" "$T/B.mtx" --solver $solver --threads 2 -o "$T/X_$name.mtx"
  expect "many_${name}_shape" 0 "^$n 3\$" -- sed -n 2p "$T/X_$name.mtx"
  for j in 1 2 3; do
    # shellcheck disable=SC2086
    "$HPLS" solve "$T/A.mtx" "$T/b$j.mtx" --solver $solver --threads 2 -o "$T/x$j.mtx" >/dev/null
    # column j of X is x_j bit for bit: the same solve (same threads)
    expect "many_${name}_column$j" 0 "" -- cmp <(sed -n "$((3 + (j - 1) * n)),$((2 + j * n))p" "$T/X_$name.mtx") <(sed -n "3,$((2 + n))p" "$T/x$j.mtx")
  done
done
expect many_json 0 '"nrhs":3,.*"columns":\[\{"iterations":' -- "$HPLS" solve "$T/A.mtx" "$T/B.mtx" --solver jacobi --json
# refused: another row count, --x0, --history (exit 2, nothing written)
awk 'BEGIN { print "%%MatrixMarket matrix array real general"; print 5, 2; for (i = 0; i < 10; i++) print 1 }' >"$T/B5.mtx"
expect many_rows 2 "has 5 rows but the matrix has $n" -- "$HPLS" solve "$T/A.mtx" "$T/B5.mtx" -o "$T/no.mtx"
expect many_x0 2 "take one right-hand side" -- "$HPLS" solve "$T/A.mtx" "$T/B.mtx" --x0 "$T/b1.mtx" -o "$T/no.mtx"
expect nothing_written 1 "" -- test -e "$T/no.mtx"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
