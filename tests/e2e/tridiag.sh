#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
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

# issue 32: ill-conditioned is solved with one warning line, exit 0 (dorr, #13,
# cond 1e20: every method, gspike at any partition count); JSON carries rcond
for a in "--solver lapack" "--solver thomas" "--solver cr" "--solver gspike" \
  "--solver gspike --gspike_p 1" "--solver gspike --gspike_p 8" "--solver gspike --gspike_p 512"; do
  # shellcheck disable=SC2086 # $a holds several words
  expect "dorr_warns_${a// /_}" 0 "^hpls: warning: A is ill-conditioned \(1/cond_1 about 1\.4e-20" \
    -- "$HPLS" solve --gen tridiag:id=13,n=512 $a --quiet
done
out=$("$HPLS" solve --gen tridiag:id=13,n=512 --solver gspike --json 2>&1)
{ [ "$(grep -c '^hpls: ' <<<"$out")" = 1 ] && grep -q '"converged":true' <<<"$out" &&
  grep -q '"rcond":1.372e-20,"ill_conditioned":true' <<<"$out"; } && pass=$((pass + 1)) ||
  { echo "FAIL dorr_json: $out"; fail=$((fail + 1)); }
expect well_conditioned_json 0 '"rcond":[0-9.e+-]*,"ill_conditioned":false' \
  -- "$HPLS" solve "$T/A18.mtx" --solver gspike --json
# issue 32: thomas and cr refine where elimination without pivoting grows
# (#16: 1e8) and refuse where no refinement can help (#14 at 2^20: cond 1e46)
for m in thomas cr; do
  expect "grown_${m}_refines" 0 "converged" -- "$HPLS" solve --gen tridiag:id=16,n=4096 --solver "$m"
  expect "needs_pivoting_$m" 3 "$m: elimination without pivoting grows by .* T needs pivoting \(no pivoting; try gspike or lapack\)" \
    -- "$HPLS" solve --gen tridiag:id=14,n=1048576 --solver "$m"
done
# thomas's sweeps on dorr at 2^20 would overflow (growth 1, amplification past
# 2^500): refused as needing pivoting, never "singular" and never an Inf x; cr
# solves it with the warning
expect needs_pivoting_thomas_dorr 3 "thomas: elimination without pivoting amplifies the rounding errors of its sweeps by more than .* would overflow: T needs pivoting \(no pivoting; try gspike or lapack\)" \
  -- "$HPLS" solve --gen tridiag:id=13,n=1048576 --solver thomas
expect dorr_big_cr_warns 0 "^hpls: warning: A is ill-conditioned" \
  -- "$HPLS" solve --gen tridiag:id=13,n=1048576 --solver cr --quiet
# the Neumann matrix tridiag(-1, 2, -1), 1 at both ends (A 1 = 0): singular, the
# same refusal at every partition count, for a consistent b (A x, x_i = i) or not
awk 'BEGIN { n = 1000; print "%%MatrixMarket matrix coordinate real general"
  print n, n, 3 * n - 2
  for (i = 1; i <= n; i++) { print i, i, (i == 1 || i == n) ? 1 : 2
    if (i > 1) print i, i - 1, -1
    if (i < n) print i, i + 1, -1 } }' >"$T/neumann.mtx"
awk 'BEGIN { n = 1000; print "%%MatrixMarket matrix array real general"; print n, 1
  for (i = 1; i <= n; i++) print (i == 1 ? -1 : i == n ? 1 : 0) }' >"$T/consistent.mtx"
awk 'BEGIN { n = 1000; print "%%MatrixMarket matrix array real general"; print n, 1
  for (i = 1; i <= n; i++) print 1 }' >"$T/inconsistent.mtx"
for b in consistent inconsistent; do
  for p in 1 2 8 64 512; do
    expect "neumann_${b}_p$p" 3 "gspike: U\(1000, 1000\) is exactly zero: the matrix is singular" \
      -- "$HPLS" solve "$T/neumann.mtx" "$T/$b.mtx" --solver gspike --gspike_p "$p" --threads 2
  done
  for m in thomas cr lapack; do
    expect "neumann_${b}_$m" 3 "$m: U\(1000, 1000\) is exactly zero: the matrix is singular" \
      -- "$HPLS" solve "$T/neumann.mtx" "$T/$b.mtx" --solver "$m"
  done
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
