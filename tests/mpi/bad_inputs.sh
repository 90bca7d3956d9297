#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# bad_inputs.sh NP HPLS MPIEXEC: bad input on one rank is a clean error on all
# ranks: one message (from rank 0, naming the failing rank where it is not
# 0), the exit status of one process, and no rank left waiting (each run is
# bounded by timeout: a hang is exit 124, a failure here).
set -u
NP=$1 HPLS=$2 MPIEXEC=$3
pass=0 fail=0
B=${HPLS_TEST_DIR:-$(dirname "$0")/..}/bad_inputs
. "$(dirname "$0")/mpiexec.sh"
mpi_launcher "$MPIEXEC" 60
run+=(-np "$NP")
tmp=$(mktemp -d "${HPLS_TMP:-/tmp}/mpibad.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# once NAME CODE PATTERN ARGS...: exit CODE, PATTERN in the one error line
once() {
  local name=$1 code=$2 pat=$3
  shift 3
  local out rc n
  out=$("${run[@]}" "$HPLS" solve "$@" 2>&1)
  rc=$?
  n=$(grep -c '^hpls: ' <<<"$out")
  if [ "$rc" -eq "$code" ] && [ "$n" = 1 ] && grep -qE -- "$pat" <<<"$out"; then
    pass=$((pass + 1))
  else
    echo "FAIL $name: exit $rc (expected $code), $n lines from hpls, /$pat/:"
    grep '^hpls: ' <<<"$out"
    fail=$((fail + 1))
  fi
}

once nan_value 2 "value 'nan' is not finite" "$B/mm_value_nan.mtx"
once missing_file 2 'No such file' "$tmp/none.mtx"
once truncated 2 'cannot read the matrix' "$B/mm_truncated.mtx.gz"
# read in parallel: the one-process message (file and line); a .gz is read by rank 0
once nan_parallel 2 "mm_value_nan.mtx:4: value 'nan' is not finite" "$B/mm_value_nan.mtx" --read parallel
once truncated_parallel 2 'mm_truncated.mtx.gz:33: truncated or corrupt gzip data' "$B/mm_truncated.mtx.gz" \
  --read parallel
once bad_spec 2 'gen gas: n=1 is out of range' --gen gas:n=1
once bad_option 2 'tol' --gen gas:n=100 --tol -1
# a zero diagonal in the last row: the last rank's (rows are cut by nonzeros)
printf '%%%%MatrixMarket matrix coordinate real general\n6 6 6\n1 1 1\n2 2 1\n3 3 1\n4 4 1\n5 5 1\n6 6 0\n' >"$tmp/zd.mtx"
if [ "$NP" -gt 1 ]; then
  once zero_diag_last_rank 3 "rank $((NP - 1)): .*zero diagonal" "$tmp/zd.mtx" --solver jacobi
  once pjg_zero_diag_last_rank 3 "rank $((NP - 1)): .*zero diagonal" "$tmp/zd.mtx" --solver pjg
  # the last rank's band block has a zero pivot: its setup fails, every rank stops
  once hisa_zero_pivot_last_rank 3 "rank $((NP - 1)): setup of hisa: .*pivot 0 in row [0-9]+ .*rank $((NP - 1))'s block" \
    "$tmp/zd.mtx" --solver hisa
  once bhisa_zero_pivot_last_rank 3 "rank $((NP - 1)): setup of bhisa: .*pivot 0" "$tmp/zd.mtx" --solver bhisa
else
  once zero_diag 3 "zero diagonal" "$tmp/zd.mtx" --solver jacobi
fi
# reorder=matching on rank 0 of a matrix without a perfect matching; a zero
# diagonal wherever rcm moved it
once struct_singular_matching 3 "setup failed: reorder=matching: structurally singular" \
  "$B/struct_singular.mtx" --reorder matching
once zero_diag_rcm 3 "zero diagonal" "$tmp/zd.mtx" --solver jacobi --reorder rcm
printf '%%%%MatrixMarket matrix array real general\n3 1\n1\n2\n3\n' >"$tmp/b3.mtx"
once b_size 2 'has 3 entries but the matrix has 5 rows' "$B/A5.mtx" "$tmp/b3.mtx"
once x0_size 2 'b3.mtx has 3 entries but the matrix has 5 columns' "$B/A5.mtx" --x0 "$tmp/b3.mtx"
once history_over_input 2 'would overwrite an input' "$tmp/zd.mtx" --history "$tmp/zd.mtx"
once read_mode 2 '--read sometimes: expected auto, root or parallel' "$tmp/zd.mtx" --read sometimes
printf '%%%%MatrixMarket matrix array real general\n6 1\n1\n1\n1\n1\n1\nnan\n' >"$tmp/bnan.mtx"
once b_nan 2 "bnan.mtx:8: value 'nan' is not finite" "$tmp/zd.mtx" "$tmp/bnan.mtx"
once output_over_input 2 'would overwrite an input' "$tmp/zd.mtx" -o "$tmp/zd.mtx"
# cg on an indefinite matrix: the same numerical stop on every rank
once indefinite 3 'indefinite' "$B/indefinite.mtx" --solver cg
# the tridiagonal direct methods: 4 rows on 3 ranks (a rank with one row)
once not_tridiagonal_gspike 2 'entry \(1, 4\) lies outside the tridiagonal band: gspike needs' \
  "$B/not_tridiagonal.mtx" --solver gspike
once not_tridiagonal_thomas 2 'entry \(1, 4\) lies outside the tridiagonal band: thomas needs' \
  "$B/not_tridiagonal.mtx" --solver thomas
once singular_gspike 3 'singular' "$B/tri_singular.mtx" --solver gspike
# not singular, cond 4e16 (issue 32): solved with one warning line, exit 0
once near_singular_gspike 0 'A is ill-conditioned' "$B/tri_near_singular.mtx" --solver gspike
once zero_matrix_gspike 3 'singular' "$B/tri_zero.mtx" --solver gspike
once singular_lapack 3 'singular' "$B/tri_singular.mtx" --solver lapack
# the Neumann matrix (A 1 = 0): singular on the ranks as in one process, any gspike_p
awk 'BEGIN { n = 1000; print "%%MatrixMarket matrix coordinate real general"; print n, n, 3 * n - 2
  for (i = 1; i <= n; i++) { print i, i, (i == 1 || i == n) ? 1 : 2
    if (i > 1) print i, i - 1, -1
    if (i < n) print i, i + 1, -1 } }' >"$tmp/neumann.mtx"
for p in 1 2 8 64 512; do
  once "neumann_gspike_p$p" 3 'gspike: U\(1000, 1000\) is exactly zero: the matrix is singular' \
    "$tmp/neumann.mtx" --solver gspike --gspike_p "$p"
done
# dorr at 2^20: thomas (T gathered to rank 0) refuses it as needing pivoting, its
# sweeps would overflow; gspike on the ranks solves it with the warning (issue 32)
once dorr_thomas 3 'thomas: elimination without pivoting amplifies .* would overflow: T needs pivoting' \
  --gen tridiag:id=13,n=1048576 --solver thomas
once dorr_gspike 0 'warning: A is ill-conditioned' --gen tridiag:id=13,n=1048576 --solver gspike --quiet
once pivot_thomas 3 'pivot 0 in row 1 is zero or tiny' "$B/diag_zero_first.mtx" --solver thomas

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
