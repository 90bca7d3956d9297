#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# powerflow.sh: end-to-end tests of examples/powerflow (GS and PJG power flow on
# MATPOWER cases): convergence, agreement with a stored solution, PJG psize = 1 being
# exactly GS, Ybus entries checked by hand, and bad input giving exit 2 with file:line.
# Usage: powerflow.sh PATH/TO/hpls   (powerflow is built next to it)
set -u
PF="$(dirname "$1")/powerflow"
DATA="${HPLS_DATA_DIR:-../shared/data}/powerflow"
[ -x "$PF" ] || { echo "no $PF"; exit 1; }
[ -f "$DATA/case9.m" ] || { echo "SKIP: no MATPOWER cases in $DATA"; exit 77; }
T=$(mktemp -d "${HPLS_TMP:-/tmp}/e2e_pf.XXXXXX")
trap 'rm -rf "$T"' EXIT
pass=0 fail=0

ok() { pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }

# expect NAME CODE PATTERN -- command...: exit status CODE and output matching PATTERN
expect() {
  local name=$1 code=$2 pat=$3
  shift 4
  local out rc
  out=$("$@" 2>&1)
  rc=$?
  if [ "$rc" -ne "$code" ]; then
    bad "$name: exit $rc, expected $code"; echo "$out" | tail -5; return
  fi
  if [ -n "$pat" ] && ! grep -qE -- "$pat" <<<"$out"; then
    bad "$name: output does not match /$pat/"; echo "$out" | tail -5; return
  fi
  ok
}

# json KEY: the value of KEY in the JSON line in $out
json() { sed -nE "s/.*\"$1\":\"?([^,\"}]*).*/\1/p" <<<"$out"; }
# le A B: A <= B as numbers
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 <= b + 0) }'; }

expect help 0 "--psize" -- "$PF" --help
expect no_case 2 "no case file" -- "$PF"
expect bad_method 2 "bad value 'sor' for --method" -- "$PF" "$DATA/case9.m" --method sor
expect psize_needs_pjg 2 "pjg only" -- "$PF" "$DATA/case9.m" --psize 2

# case9, case14: gs and pjg (psize 1, 2, n) converge to mismatch <= 1e-8; pjg psize=1 is gs
for c in case9 case14; do
  out=$("$PF" "$DATA/$c.m" --json)
  rc=$?
  gs_it=$(json iterations)
  [ "$rc" -eq 0 ] && le "$(json mismatch)" 1e-8 && ok || bad "$c gs: exit $rc, $out"
  n=$(json buses)
  for p in 1 2 "$n"; do
    for th in 1 2; do
      out=$("$PF" "$DATA/$c.m" --method pjg --psize "$p" --threads "$th" --json)
      rc=$?
      [ "$rc" -eq 0 ] && le "$(json mismatch)" 1e-8 && ok || bad "$c pjg psize $p threads $th: exit $rc, $out"
      if [ "$p" = 1 ]; then
        [ "$(json iterations)" = "$gs_it" ] && ok || bad "$c pjg psize 1: $(json iterations) iterations, gs $gs_it"
      fi
    done
  done
done
expect text_report 0 "converged after [0-9]+ iterations.*max mismatch" -- "$PF" "$DATA/case9.m"
expect warm_start 0 "warm start" -- "$PF" "$DATA/case14.m" --warm
expect not_converged 1 "NOT converged after 5 iterations" -- "$PF" "$DATA/case9.m" --maxiter 5

# the stored solution: case39 carries a solved state (its VM, VA satisfy the power flow
# equations to 3e-5 p.u.), so ours must agree; case14's is rounded to 3 decimals
check_stored() {
  local c=$1 dvm=$2 dva=$3 solved=$4
  [ -f "$DATA/$c.m" ] || return
  out=$("$PF" "$DATA/$c.m" --json)
  [ "$(json stored_solved)" = "$solved" ] && le "$(json max_dvm)" "$dvm" && le "$(json max_dva_deg)" "$dva" &&
    ok || bad "$c stored state: $out"
}
check_stored case39 1e-6 1e-5 true
check_stored case14 2e-3 2e-2 false
out=$("$PF" "$DATA/case39.m" --method pjg --threads 2 --json)
le "$(json max_dvm)" 1e-6 && ok || bad "case39 pjg vs stored: $out"

# Ybus of case9 by hand: branch 1-4 is x = 0.0576 (y = -j17.3611); bus 4 joins 1-4,
# 4-5 (0.017 + j0.092, b 0.158) and 9-4 (0.01 + j0.085, b 0.176):
# Y_44 = 1/(j0.0576) + 1/(0.017+j0.092) + 1/(0.01+j0.085) + j(0.158+0.176)/2
out=$("$PF" "$DATA/case9.m" --print-ybus)
for e in "Ybus: 9 buses, 27 nonzeros" "^1 1 0.000000 -17.361111$" "^1 4 -?0.000000 17.361111$" \
  "^4 4 3.307379 -39.308889$" "^4 5 -1.942191 10.510682$" "^9 4 -1.365188 11.604096$"; do
  grep -qE -- "$e" <<<"$out" && ok || bad "case9 Ybus: no /$e/"
done

# Ybus with a tap, a phase shift, a shunt, an out-of-service branch, an isolated bus,
# arbitrary bus numbers and the parser's syntax (commas, comments, "...").
# Branch 10-20: y = 1/(j0.1) = -j10, tau = 2 e^{j90deg} = 2j:
# Y_ff = y/|tau|^2 = -j2.5, Y_ft = -y/conj(tau) = -5, Y_tf = -y/tau = 5;
# Y_tt = y + j BS/baseMVA = -j10 + j0.5 = -j9.5.
cat >"$T/tiny.m" <<'M'
function mpc = tiny
mpc.version = '2';
mpc.baseMVA = 100;
mpc.bus = [
	10	3	0	0	0	0	1	1	0	1	1	1.1	0.9;
	20	1	50, 10, 0,	50	1	1	0 ...	a continuation
		1	1	1.1	0.9;  % a comment
	30	4	0	0	0	0	1	1	0	1	1	1.1	0.9
];
mpc.gen = [ 10 0 0 0 0 1.0 100 1 ];
mpc.branch = [
	10	20	0	0.1	0	0	0	0	2	90	1;
	10	20	0	0.2	0	0	0	0	0	0	0;
	20	30	0	0.1	0	0	0	0	0	0	1;
];
mpc.bus_name = { 'a; b'; 'c' };
M
out=$("$PF" "$T/tiny.m" --print-ybus)
for e in "Ybus: 2 buses, 4 nonzeros" "^10 10 -?0.000000 -2.500000$" "^10 20 -5.000000 -?0.000000$" \
  "^20 10 5.000000 -?0.000000$" "^20 20 -?0.000000 -9.500000$"; do
  grep -qE -- "$e" <<<"$out" && ok || bad "tiny Ybus: no /$e/"
done
expect tiny_solves 0 "converged" -- "$PF" "$T/tiny.m"

# bad input: exit 2 and a message naming the file and the line
expect missing_file 2 "nope.m:0: cannot open" -- "$PF" "$T/nope.m"
sed '31s/	0	345	1	1.1	0.9;/	0	345	1	1.1;/' "$DATA/case9.m" >"$T/trunc.m"
expect truncated_row 2 "trunc.m:31: mpc.bus: row has 12 values, expected 13" -- "$PF" "$T/trunc.m"
sed 's/^\t9\t4\t0.01/\t9\t99\t0.01/' "$DATA/case9.m" >"$T/unknown.m"
expect unknown_bus 2 "unknown.m:[0-9]+: mpc.branch: bus 99 is not in mpc.bus" -- "$PF" "$T/unknown.m"
sed 's/^\t1\t3\t/\t1\t2\t/' "$DATA/case9.m" >"$T/noref.m"
expect no_ref_bus 2 "noref.m:[0-9]+: mpc.bus: no reference bus" -- "$PF" "$T/noref.m"
sed 's/^\t5\t1\t90\t/\t5\t1\t9x0\t/' "$DATA/case9.m" >"$T/number.m"
expect bad_number 2 "number.m:[0-9]+: mpc.bus: bad number '9x0'" -- "$PF" "$T/number.m"
head -44 "$DATA/case9.m" >"$T/eof.m"
expect unterminated 2 "eof.m:[0-9]+: mpc.gen: end of file inside the matrix opened on line" -- "$PF" "$T/eof.m"
grep -v "mpc.baseMVA" "$DATA/case9.m" >"$T/nobase.m"
expect no_base 2 "nobase.m:[0-9]+: mpc.baseMVA is missing" -- "$PF" "$T/nobase.m"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
