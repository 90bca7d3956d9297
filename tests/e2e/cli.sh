#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# cli.sh: end-to-end tests of the `hpls` command: exit codes, messages, files.
# Usage: cli.sh PATH/TO/hpls
set -u
HPLS=$1
T=$(mktemp -d "${HPLS_TMP:-/tmp}/e2e.XXXXXX")
trap 'rm -rf "$T"' EXIT
pass=0 fail=0

. "$(dirname "$0")/../util/expect.sh"

expect help 0 "solve" -- "$HPLS" --help
expect solve_help 0 "stag_window" -- "$HPLS" solve --help
expect solve_help_lists_methods 0 "bicgstab" -- "$HPLS" solve --help
expect solve_help_lists_bicgstabl 0 "bicgstabl +BiCGstab.l. .Sleijpen" -- "$HPLS" solve --help
expect solve_help_lists_ell 0 "^  ell +2 +bicgstabl" -- "$HPLS" solve --help
expect gen_help 0 "gas" -- "$HPLS" gen --help
expect info_help 0 "dominance" -- "$HPLS" info --help
expect no_command 2 "usage" -- "$HPLS"
expect bad_command 2 "unknown command" -- "$HPLS" frobnicate

# the default problem converges and reports the error against x = 1
expect default_problem 0 "converged.*max error vs x = 1" -- "$HPLS" solve --quiet
expect gen_small 0 "" -- "$HPLS" gen gas:n=500,k=2 -o "$T/A.mtx" -b "$T/b.mtx"
expect gen_flags 0 "" -- "$HPLS" gen poisson2d --nx 10 -o "$T/P.mtx"
expect solve_file 0 "converged" -- "$HPLS" solve "$T/A.mtx" "$T/b.mtx" -o "$T/x.mtx"
[ -s "$T/x.mtx" ] && head -1 "$T/x.mtx" | grep -q "MatrixMarket matrix array" && pass=$((pass + 1)) ||
  { echo "FAIL x.mtx not written"; fail=$((fail + 1)); }
expect solve_lis_aliases 0 "converged" -- "$HPLS" solve "$T/A.mtx" -i bicgstab -p jacobi -tol 1e-10 -maxiter 500
expect solve_keyvalue 0 "converged" -- "$HPLS" solve "$T/P.mtx" solver=cg precond=jacobi
expect solve_gs 0 "converged" -- "$HPLS" solve --gen gas:n=2000 --solver gs
expect solve_gs_dense 0 "converged" -- "$HPLS" solve --gen dense-dd:n=200 --solver gs
expect solve_jacobi_omega 0 "converged" -- "$HPLS" solve --gen gas:n=2000 --solver jacobi --omega 0.9
expect json 0 '^\{"problem":"gas:n=3000".*"converged":true.*"relres":' -- "$HPLS" solve --gen gas:n=3000 --json
# the prefetch variant chosen on this machine: in the JSON and under --verbose, not otherwise
expect json_prefetch 0 '"prefetch":"auto: (none|rows-l3|rows\+x-l3|rows-l2|rows\+x-l2|rows\+x-nta)"' -- "$HPLS" solve --gen gas:n=3000 --json
expect verbose_prefetch 0 '^prefetch: rows-l2$' -- "$HPLS" solve --gen gas:n=3000 --prefetch rows-l2 -v
"$HPLS" solve --gen gas:n=3000 | grep -q '^prefetch:' &&
  { echo "FAIL no_verbose_no_prefetch: the prefetch line without --verbose"; fail=$((fail + 1)); } ||
  pass=$((pass + 1))
expect bad_prefetch 2 "prefetch.*rows\+x-nta" -- "$HPLS" solve --gen gas:n=3000 --prefetch nta
expect history 0 "" -- "$HPLS" solve --gen gas:n=3000 --history "$T/h.csv" --quiet
head -1 "$T/h.csv" | grep -q "iteration,relres,seconds" && [ "$(wc -l <"$T/h.csv")" -gt 3 ] &&
  pass=$((pass + 1)) || { echo "FAIL history"; fail=$((fail + 1)); }
expect x0 0 "after 0 iterations" -- "$HPLS" solve "$T/A.mtx" --x0 "$T/x.mtx" --tol 1e-6 --quiet

# not converged: exit 1; numerical failure: exit 3
expect maxiter 1 "maximum iterations" -- "$HPLS" solve --gen gas:n=2000 --maxiter 3 --quiet
# a tolerance below the rounding level of b - A x is told as such, with the figures
expect tol_below_accuracy 1 "tolerance below attainable accuracy: the residual reached .* eps" -- "$HPLS" solve --gen poisson2d:nx=30 --solver cg --precond jacobi --tol 1e-30 --quiet
printf '%%%%MatrixMarket matrix coordinate real general\n2 2 2\n1 2 1\n2 1 1\n' >"$T/swap.mtx"
printf '%%%%MatrixMarket matrix array real general\n2 1\n1\n0\n' >"$T/e1.mtx"
expect breakdown 3 "breakdown" -- "$HPLS" solve "$T/swap.mtx" "$T/e1.mtx" --quiet
expect zero_diag 3 "row 1 has no diagonal" -- "$HPLS" solve "$T/swap.mtx" --solver jacobi
printf '%%%%MatrixMarket matrix coordinate real symmetric\n2 2 2\n1 1 1\n2 2 -1\n' >"$T/indef.mtx"
expect indefinite 3 "indefinite" -- "$HPLS" solve "$T/indef.mtx" --solver cg --quiet

# bad usage and input: exit 2 with a message naming what is wrong
expect unknown_option 2 'unknown option "sover"' -- "$HPLS" solve --sover cg
expect bad_value 2 'option tol: bad value "-1"' -- "$HPLS" solve --tol -1
expect maxiter_zero 2 "option maxiter" -- "$HPLS" solve --maxiter 0
expect bad_solver 2 'unknown method "foo"' -- "$HPLS" solve --solver foo
expect option_not_for_method 2 "omega does not apply to solver cg" -- "$HPLS" solve --gen poisson2d:nx=5 --solver cg --omega 1.2
expect ell_not_for_method 2 "ell does not apply to solver bicgstab" -- "$HPLS" solve --gen poisson2d:nx=5 --solver bicgstab --ell 4
expect ell_out_of_range 2 "option ell: bad value \"11\"" -- "$HPLS" solve --gen poisson2d:nx=5 --solver bicgstabl --ell 11
expect missing_file 2 "nonexistent.mtx" -- "$HPLS" solve "$T/nonexistent.mtx"
expect wrong_rhs_length 2 "has 2 entries but the matrix has 500 rows" -- "$HPLS" solve "$T/A.mtx" "$T/e1.mtx"
expect bad_gen 2 "gen" -- "$HPLS" solve --gen nosuch:n=3
sum_before=$(cksum <"$T/b.mtx")
expect output_is_input 2 "would overwrite an input" -- "$HPLS" solve "$T/A.mtx" "$T/b.mtx" -o "$T/b.mtx"
[ "$(cksum <"$T/b.mtx")" = "$sum_before" ] && pass=$((pass + 1)) || { echo "FAIL b.mtx changed"; fail=$((fail + 1)); }
expect unwritable_output 2 "cannot write" -- "$HPLS" solve --gen gas:n=500 -o /nonexistent-dir/x.mtx
expect too_many_files 2 "too many files" -- "$HPLS" solve a b c
expect info_file 0 "tridiagonal" -- "$HPLS" info "$T/A.mtx"
expect info_symmetry 0 "pattern symmetric, values symmetric" -- "$HPLS" info --gen poisson2d:nx=6
expect info_zero_diag 0 "2 zero or missing entries \(first: row 1\)" -- "$HPLS" info "$T/swap.mtx"
expect info_advises_hisa 0 "rho\(T\^-1 S\) ~ 0\.[0-9]+ .*fast enough" -- "$HPLS" info --gen gas:n=1000,k=3
expect info_advises_hisa_line 0 "advice +--solver hisa" -- "$HPLS" info --gen gas:n=1000,k=3
expect info_advises_cg_dic 0 "advice +--solver cg --precond dic" -- "$HPLS" info --gen poisson2d:nx=6
expect info_checks_dic 0 "dic builds on A \(checked\)" -- "$HPLS" info --gen poisson2d:nx=6
expect info_advises_matching 0 "advice +--reorder matching" -- "$HPLS" info "$T/swap.mtx"
# sherman3 (issue 15): rows dominant by 1.000015 only, rho(T^-1 S) ~ 0.999: not hisa
S3=${HPLS_DATA_DIR:-}/matrices/sherman3.mtx
if [ -f "$S3" ]; then
  expect info_dominance_digits 0 "min \|a_ii\|/sum\|a_ij\| 1\.000015" -- "$HPLS" info "$S3"
  expect info_sherman3_not_hisa 0 "advice +--solver bicgstab --precond ilu0" -- "$HPLS" info "$S3"
  expect info_sherman3_rho 0 "rho\(T\^-1 S\) ~ 0\.99[0-9]* .*too slowly" -- "$HPLS" info "$S3"
fi
# the matrices where the advice failed (issue 15): the advice line, its evidence,
# and the advised solve itself converging (each where ../shared/data has it)
# advice_case NAME FILE ADVICE EVIDENCE: the first line of `hpls info` advice is
# /advice +ADVICE$/, a line of its evidence matches EVIDENCE, and the advised
# flags solve A x = A 1 (exit 0: converged)
advice_case() {
  local name=$1 f=${HPLS_DATA_DIR:-}/matrices/$2 adv
  [ -f "$f" ] || return 0
  "$HPLS" info "$f" >"$T/info_$name.txt" 2>&1
  expect "info_${name}_advice" 0 "^advice +$3\$" -- cat "$T/info_$name.txt"
  expect "info_${name}_evidence" 0 "$4" -- cat "$T/info_$name.txt"
  adv=$(sed -n 's/^advice *//p' "$T/info_$name.txt")
  # shellcheck disable=SC2086
  expect "info_${name}_converges" 0 "^converged" -- "$HPLS" solve "$f" $adv --maxiter 2000 --quiet
}
advice_case olm500 olm500.mtx "--solver gmres --precond ilu0" "bicgstab --precond ilu0: diverged"
advice_case olm1000 olm1000.mtx "--solver gmres --precond ilu0" "bicgstab --precond ilu0: diverged"
advice_case jpwh_991 jpwh_991.mtx "--solver gmres --precond ilu0" "bicgstab --precond ilu0: breakdown"
advice_case gre_115 gre_115.mtx "--reorder matching --solver bicgstab --precond ilu0" \
  "smallest \|a_ii\| / max_j \|a_ij\| is 2\.09e-07: .* raises it to 0\.4"
advice_case rdb1250l rdb1250l.mtx "--solver bicgstab --precond none" "bicgstab --precond jacobi: not converged"
# the slow ones (2000-iteration trials: 20-120 s each under ASan) run in plain
# builds only; the cases above take the same paths
SLOW=1
! grep -q __asan_init "$HPLS" || SLOW=0
[ $SLOW = 0 ] || advice_case rdb3200l rdb3200l.mtx "--solver bicgstabl --precond jacobi" "bicgstab --precond ilu0: not converged"
advice_case plat362 plat362.mtx "--solver cg --precond ssor" "dic does not build: .*E_ii = -0\.066"
[ $SLOW = 0 ] || advice_case bcsstk25 bcsstk25.mtx.gz "--solver cg --precond ssor" "ssor .* SPD for an SPD A"
# zero diagonals where ilu0 and dilu have a zero pivot even after the matching
advice_case bp_1200 bp_1200.mtx "--reorder matching --solver bicgstab --precond ssor" "ilu0 does not build"
advice_case e20r0000 e20r0000.mtx.gz "--solver bicgstab --precond dilu" "dilu builds on A itself"
# --solver auto: the choice and why on stderr (one line) and in the JSON
expect solve_auto_says 0 "^hpls: solver=auto chose --solver hisa: .*rho\(T\^-1 S\) ~ 0\.[0-9]+ .*fast enough" -- "$HPLS" solve --gen gas:n=5000,k=3 --solver auto --quiet
expect solve_auto_json 0 '"solver":"cg","precond":"dic",.*"reorder":"none","auto":"solver=auto chose --solver cg --precond dic: symmetric' -- "$HPLS" solve --gen poisson2d:nx=20 --solver auto --json
expect solve_auto_falls_back 1 "dic: not converged \(maximum iterations\) after 3 iterations, so it fell back to --solver cg --precond ssor" -- "$HPLS" solve --gen poisson2d:nx=20 --solver auto --maxiter 3 --quiet
# no perfect matching on the nonzeros: no advice, and auto refuses (exit 3)
SS=$(dirname "$0")/../bad_inputs/struct_singular.mtx
expect info_struct_singular 0 "^advice +none: no method can solve it: structurally singular" -- "$HPLS" info "$SS"
expect auto_struct_singular 3 "solver=auto: structurally singular" -- "$HPLS" solve "$SS" --solver auto
A3=${HPLS_DATA_DIR:-}/matrices/anisotropic3d7816.mtx.gz
if [ -f "$A3" ] && [ $SLOW = 1 ]; then # none of the candidates converges: said so, with every trial
  expect info_anisotropic3d_none 0 "advice +none: no method of hpls converged on this; tried: the 8 below" -- "$HPLS" info "$A3"
fi
# JSON has no NaN: an overflowing iteration reports null, not -nan
printf '%%%%MatrixMarket matrix coordinate real general\n2 2 4\n1 1 1e-300\n1 2 1e300\n2 1 1e300\n2 2 1e-300\n' >"$T/ovf.mtx"
expect json_nan_is_null 3 '"relres":null,.*"error":null' -- "$HPLS" solve "$T/ovf.mtx" --solver gs --json
expect hisa_solves 0 "converged" -- "$HPLS" solve --gen gas:n=20000 --solver hisa
expect bhisa_solves 0 "converged" -- "$HPLS" solve --gen gas:n=20000,k=3 --solver bhisa --block 500 --tridiag cr
expect tridiag_precond 0 "converged" -- "$HPLS" solve --gen gas:n=20000,k=2 --precond btridiag
expect info_needs_file 2 "needs a matrix" -- "$HPLS" info

# --history after a numerical failure: x is not written, the history (written live)
# holds every iteration up to the divergence, the residual growing at its end
cp "$(dirname "$0")/../bad_inputs/not_dominant.mtx" "$T/nd.mtx"
expect history_diverged 3 "diverged \(residual growth\); no output written; the history is in $T/hd.csv" -- \
  "$HPLS" solve "$T/nd.mtx" --solver jacobi -o "$T/xd.mtx" --history "$T/hd.csv"
[ ! -e "$T/xd.mtx" ] && awk -F, 'NR == 1 { ok = $0 == "iteration,relres,seconds"; next }
  { ok = ok && $1 == NR - 2 } END { exit !(ok && NR > 3 && $2 > 1) }' "$T/hd.csv" &&
  pass=$((pass + 1)) || { echo "FAIL history_diverged: $(tail -2 "$T/hd.csv")"; fail=$((fail + 1)); }

# --quiet: the summary line alone on stdout (also where a preconditioner or many
# right-hand sides add lines to the full report)
check_quiet() { # NAME CODE PATTERN -- command...: one line on stdout, matching
  local name=$1 code=$2 pat=$3 out rc
  shift 4
  out=$("$@" 2>/dev/null)
  rc=$?
  if [ "$rc" -eq "$code" ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] && grep -qE -- "$pat" <<<"$out"; then
    pass=$((pass + 1))
  else
    echo "FAIL $name: exit $rc (expected $code), stdout must be one line matching /$pat/:"; echo "$out" | head -5
    fail=$((fail + 1))
  fi
}
check_quiet quiet_plain 0 "^converged .* after [0-9]+ iterations: true relative residual" -- \
  "$HPLS" solve --gen gas:n=2000 --quiet
check_quiet quiet_precond 0 "^converged .* max error vs x = 1" -- "$HPLS" solve --gen gas:n=2000 --precond dilu -q
check_quiet quiet_not_converged 1 "^not converged" -- "$HPLS" solve --gen gas:n=2000 --maxiter 2 --quiet
printf '%%%%MatrixMarket matrix array real general\n500 2\n' >"$T/B2.mtx"
for i in $(seq 1000); do echo 1; done >>"$T/B2.mtx"
check_quiet quiet_many 0 "^2 right-hand sides, 2 converged: setup" -- "$HPLS" solve "$T/A.mtx" "$T/B2.mtx" --quiet

# Lis's names: any case, -p ilu is ilu0; an unknown name is reported with the canonical ones
expect lis_case 0 "solver bicgstab, precond ilu0" -- "$HPLS" solve "$T/A.mtx" -i BiCGSTAB -p ilu -tol 1e-10
expect long_case 0 "solver bicgstab, precond dilu" -- "$HPLS" solve "$T/A.mtx" --solver BiCGStab precond=DILU
expect lis_ssor_omega 0 "solver cg, precond ssor" -- "$HPLS" solve "$T/P.mtx" -i cg -p SSOR -ssor_omega 1.2
expect lis_equals 0 "solver gmres, precond jacobi, tol 1e-9, maxiter 400" -- \
  "$HPLS" solve "$T/A.mtx" -i=gmres -p=jacobi -tol=1e-9 -maxiter=400 -restart=20
expect lis_unknown 2 'unknown method "BiCG-Stab" \(jacobi, gs, sor, ssor, cg, bicgstab' -- "$HPLS" solve "$T/A.mtx" -i BiCG-Stab

# an output that is a FIFO or a device is written in place, never renamed over: x and a
# generated matrix reach a reader through a pipe, which stays a pipe (renamed over, it
# became a regular file, as /dev/null once did, and the reader waited forever)
special_out() { # NAME TARGET -- hpls arguments writing to TARGET
  local name=$1 target=$2
  shift 3
  timeout 20 cat "$target" >"$T/$name.read" 2>/dev/null &
  local reader=$!
  timeout 20 "$HPLS" "$@" >/dev/null 2>"$T/$name.err"
  local rc=$?
  wait "$reader"
  if [ "$rc" -eq 0 ] && [ -p "$target" ] && head -1 "$T/$name.read" | grep -q "^%%MatrixMarket" &&
    ! ls "$T" | grep -q '\.tmp\.'; then
    pass=$((pass + 1))
  else
    echo "FAIL $name: exit $rc, $target $(stat -c %F "$target"), read $(wc -c <"$T/$name.read") bytes: $(head -2 "$T/$name.err")"
    fail=$((fail + 1))
  fi
}
mkfifo "$T/xpipe" "$T/apipe"
special_out x_to_fifo "$T/xpipe" -- solve "$T/A.mtx" "$T/b.mtx" -o "$T/xpipe"
special_out gen_to_fifo "$T/apipe" -- gen gas:n=50 -o "$T/apipe"
# a character device (made here, as root: a node like /dev/null's) keeps its type
if [ "$(id -u)" = 0 ] && mknod "$T/null" c 1 3 2>/dev/null; then
  "$HPLS" solve "$T/A.mtx" "$T/b.mtx" -o "$T/null" >/dev/null 2>&1 && [ -c "$T/null" ] &&
    pass=$((pass + 1)) || { echo "FAIL -o to a character device: $(stat -c %F "$T/null")"; fail=$((fail + 1)); }
fi

# every solver option given last, without its value: exit 2 at once, naming the flag
keys=$("$HPLS" solve --help | awk '/^Options \(key=value/ { f = 1; next } f && /^$/ { exit } f { print $1 }')
[ "$(wc -w <<<"$keys")" -gt 20 ] && pass=$((pass + 1)) || { echo "FAIL no options in solve --help"; fail=$((fail + 1)); }
for key in $keys; do
  out=$("$HPLS" solve "$T/A.mtx" -o "$T/never.mtx" "--$key" 2>"$T/err")
  rc=$?
  if [ "$rc" -eq 2 ] && [ -z "$out" ] && [ "$(cat "$T/err")" = "hpls: error: --$key needs a value" ] && [ ! -e "$T/never.mtx" ]; then
    pass=$((pass + 1))
  else
    echo "FAIL --$key given last: exit $rc, stdout ${#out} bytes, stderr: $(head -2 "$T/err")"; fail=$((fail + 1))
  fi
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
