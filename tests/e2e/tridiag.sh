#!/usr/bin/env bash
# tridiag.sh: end-to-end tests of the tridiagonal direct solvers through `hpls`:
# `hpls gen tridiag --id K`, `hpls solve --solver thomas|cr|gspike|lapack`, errors.
# Usage: tridiag.sh PATH/TO/hpls
set -u
HPLS=$1
T=$(mktemp -d "${HPLS_TMP:-/tmp}/e2e.XXXXXX")
trap 'rm -rf "$T"' EXIT
pass=0 fail=0

. "$(dirname "$0")/../util/expect.sh"

expect help_lists_direct 0 "gspike" -- "$HPLS" solve --help
expect gen_id 0 "" -- "$HPLS" gen tridiag --id 18 --n 2000 -o "$T/A18.mtx" -b "$T/b18.mtx"
expect gen_id_random 0 "" -- "$HPLS" gen tridiag:id=1,n=3000,seed=2 -o "$T/A1.mtx"
for m in thomas cr gspike lapack; do
  expect "solve_$m" 0 "converged" -- "$HPLS" solve "$T/A18.mtx" "$T/b18.mtx" --solver "$m"
done
expect gspike_random 0 "converged.*after 0 iterations" -- "$HPLS" solve "$T/A1.mtx" --solver gspike
expect lapack_random 0 "converged" -- "$HPLS" solve "$T/A1.mtx" --solver lapack
expect gen_randsvd_refused 2 "randsvd" -- "$HPLS" gen tridiag --id 9 -o "$T/x.mtx"
expect gen_id_and_dom 2 "together with id" -- "$HPLS" gen tridiag --id 3 --dom 2 -o "$T/x.mtx"
expect off_band 2 "entry \(1, 5\) lies outside the tridiagonal band: thomas needs a tridiagonal matrix" \
  -- "$HPLS" solve --gen poisson2d:nx=4 --solver thomas
# a zero pivot fails with its row (exit 2 until the command maps HPLS_ERR_SINGULAR to 3)
out=$("$HPLS" solve --gen tridiag:id=15,n=100 --solver thomas 2>&1)
rc=$?
{ [ "$rc" -ne 0 ] && grep -q "row 1 " <<<"$out"; } && pass=$((pass + 1)) ||
  { echo "FAIL zero_pivot_named: exit $rc: $out"; fail=$((fail + 1)); }
expect zero_pivot_gspike_solves 0 "converged" -- "$HPLS" solve --gen tridiag:id=15,n=100 --solver gspike

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
