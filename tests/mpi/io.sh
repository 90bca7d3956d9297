#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# io.sh NP HPLS MPIEXEC: the command's input and output under mpirun, against
# the one-process run: A read in parallel (--read parallel) solves as rank 0's
# read and as one process (iterations +-1, x equal); --x0 is used (fewer
# iterations, 0 from the solution); --history is written live by rank 0 in the
# one-process format (also after a numerical failure); n x k right-hand sides
# are solved column by column and X gathered equals the one-process X.
set -u
NP=$1 HPLS=$2 MPIEXEC=$3
pass=0 fail=0
. "$(dirname "$0")/../util/expect.sh"
. "$(dirname "$0")/mpiexec.sh"
mpi_launcher "$MPIEXEC" 60
run+=(-np "$NP")
tmp=$(mktemp -d "${HPLS_TMP:-/tmp}/mpiio.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

field() { grep -o "\"$1\":[^,}]*" <<<"$2" | head -1 | cut -d: -f2 | tr -d '"'; }
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL $1 (np $NP)"; shift; printf '  %s\n' "$@"; fail=$((fail + 1)); }
# same_values A B TOL: two Matrix Market arrays with the same numbers (to TOL)
same_values() {
  paste <(grep -v '^%' "$1") <(grep -v '^%' "$2") | awk -v t="$3" '
    { for (k = 1; k <= NF / 2; k++) { d = $k - $(k + NF / 2); if (d < 0) d = -d
        if (d > t) bad = 1 } n++ }
    END { exit !(n > 0 && !bad) }'
}

"$HPLS" gen convdiff3d:nx=12 -o "$tmp/A.mtx" >/dev/null
GM=(--solver gmres --tol 1e-10)

# A read by every rank: the solve of rank 0's read, and of one process
one=$("$HPLS" solve "$tmp/A.mtx" "${GM[@]}" --json -o "$tmp/x1.mtx" 2>&1)
par=$("${run[@]}" "$HPLS" solve "$tmp/A.mtx" "${GM[@]}" --json --read parallel -o "$tmp/xp.mtx" 2>&1)
root=$("${run[@]}" "$HPLS" solve "$tmp/A.mtx" "${GM[@]}" --json --read root 2>&1)
auto=$("${run[@]}" "$HPLS" solve "$tmp/A.mtx" "${GM[@]}" --json 2>&1)
i1=$(field iterations "$one") ip=$(field iterations "$par") ir=$(field iterations "$root")
if [ "$(field read "$par")" = parallel ] && [ "$(field read "$root")" = root ] &&
  [ "$(field read "$auto")" = root ] && [ "$ip" = "$ir" ] && [ -n "$i1" ] &&
  awk -v a="$i1" -v b="$ip" -v r="$(field relres "$par")" \
    'BEGIN { d = a - b; exit !(d <= 1 && d >= -1 && r + 0 <= 1e-10) }'; then ok; else
  bad read_parallel "one process: $one" "parallel: $par" "root: $root" "auto: $auto"; fi
same_values "$tmp/x1.mtx" "$tmp/xp.mtx" 1e-9 && ok || bad read_parallel_x "x differs"

# --x0: from the solution, 0 iterations; from a rough x, fewer than from 0
"$HPLS" solve "$tmp/A.mtx" --solver gmres --tol 1e-3 -q -o "$tmp/rough.mtx" >/dev/null 2>&1
expect x0_exact 0 'after 0 iterations' -- "${run[@]}" "$HPLS" solve "$tmp/A.mtx" --x0 "$tmp/x1.mtx" \
  --tol 1e-8 --quiet --read parallel
one=$("$HPLS" solve "$tmp/A.mtx" "${GM[@]}" --x0 "$tmp/rough.mtx" --json 2>&1)
mpi=$("${run[@]}" "$HPLS" solve "$tmp/A.mtx" "${GM[@]}" --x0 "$tmp/rough.mtx" --json 2>&1)
i0=$(field iterations "$mpi") i1=$(field iterations "$one")
if [ -n "$i0" ] && [ -n "$i1" ] && awk -v a="$i1" -v b="$i0" -v z="$ip" -v r="$(field relres "$mpi")" \
  'BEGIN { d = a - b; exit !(d <= 1 && d >= -1 && b < z && r + 0 <= 1e-10) }'; then ok; else
  bad x0_used "one process: $one" "mpi: $mpi" "(from zero: $ip)"; fi

# --history: rank 0 writes the one-process format, every iteration
"$HPLS" solve "$tmp/A.mtx" "${GM[@]}" -q --history "$tmp/h1.csv" >/dev/null 2>&1
mpi=$("${run[@]}" "$HPLS" solve "$tmp/A.mtx" "${GM[@]}" --json --history "$tmp/hp.csv" 2>&1)
its=$(field iterations "$mpi")
if [ "$(head -1 "$tmp/hp.csv")" = "$(head -1 "$tmp/h1.csv")" ] &&
  [ "$(head -1 "$tmp/hp.csv")" = "iteration,relres,seconds" ] &&
  awk -F, -v n="$its" 'NR > 1 { if ($1 != NR - 2 || NF != 3) bad = 1; last = $2 }
    END { exit !(!bad && NR - 2 == n && last + 0 <= 1e-10) }' "$tmp/hp.csv" &&
  awk -v a="$(($(wc -l <"$tmp/h1.csv")))" -v b="$(($(wc -l <"$tmp/hp.csv")))" \
    'BEGIN { d = a - b; exit !(d <= 1 && d >= -1) }'; then ok; else
  bad history "$mpi" "$(head -3 "$tmp/hp.csv")" "one process: $(wc -l <"$tmp/h1.csv") lines"; fi
# after a numerical failure the history stays, x is not written
expect history_failure 3 'the history is in' -- "${run[@]}" "$HPLS" solve \
  "${HPLS_TEST_DIR:-$(dirname "$0")/..}/bad_inputs/indefinite.mtx" --solver cg \
  --history "$tmp/hf.csv" -o "$tmp/xf.mtx"
[ -s "$tmp/hf.csv" ] && [ ! -e "$tmp/xf.mtx" ] && ok || bad history_failure_files "$(ls "$tmp")"

# n x 3 right-hand sides: column by column, X gathered = the one-process X
awk 'BEGIN { n = 1728; print "%%MatrixMarket matrix array real general"; print n, 3
  for (j = 1; j <= 3; j++) for (i = 1; i <= n; i++)
    print (j == 1 ? 1 : j == 2 ? (i % 7) - 3 : sin(i)) }' >"$tmp/B.mtx"
one=$("$HPLS" solve "$tmp/A.mtx" "$tmp/B.mtx" "${GM[@]}" --json -o "$tmp/X1.mtx" 2>&1)
mpi=$("${run[@]}" "$HPLS" solve "$tmp/A.mtx" "$tmp/B.mtx" "${GM[@]}" --json -o "$tmp/Xp.mtx" 2>&1)
if [ "$(field nrhs "$mpi")" = 3 ] && [ "$(field ranks "$mpi")" = "$NP" ] &&
  [ "$(field converged "$mpi")" = true ] && [ "$(grep -o '"iterations"' <<<"$mpi" | wc -l)" = 3 ] &&
  [ "$(sed -n 2p "$tmp/Xp.mtx")" = "1728 3" ] && same_values "$tmp/X1.mtx" "$tmp/Xp.mtx" 1e-8; then ok
else bad many_rhs "one process: $one" "mpi: $mpi"; fi
expect many_x0 2 'take one right-hand side' -- "${run[@]}" "$HPLS" solve "$tmp/A.mtx" "$tmp/B.mtx" \
  --x0 "$tmp/x1.mtx"
printf '%%%%MatrixMarket matrix array real general\n5 2\n1\n2\n3\n4\n5\n1\n2\n3\n4\n5\n' >"$tmp/B5.mtx"
expect many_rows 2 'B5.mtx has 5 rows but the matrix has 1728' -- "${run[@]}" "$HPLS" solve \
  "$tmp/A.mtx" "$tmp/B5.mtx"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
