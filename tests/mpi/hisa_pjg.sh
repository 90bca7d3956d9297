#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# hisa_pjg.sh NP HPLS MPIEXEC CHECK: hisa, bhisa and pjg on NP ranks through the
# command (src/mpi/dist_hisa.c, dist_pjg.c):
#  - hisa on NP ranks is bhisa with NP blocks: on gas rows cut into equal
#    blocks (n divisible by NP), the one-process bhisa with block = n / NP
#    gives the same iteration count and the same x (-o, every digit); bhisa
#    with the same blocks (block 1000, or ranks x threads) likewise, by thomas
#    and cr; hisa's local blocks by cr, gspike, lapack within 1 iteration;
#  - pjg on one rank is the one-process pjg exactly (psize given and the
#    defaults of 1 and 2 threads); on more, it converges to tol with 1
#    reduction an iteration and its messages counted; CHECK (dist_check.c)
#    compares it with one process given the same blocks (a partition no
#    command option can give);
#  - the true residual <= tol everywhere, real quasi-tridiagonal matrices of
#    HPLS_DATA_DIR (skipped when absent), the report names the blocks.
# Every run is bounded by timeout (a hang fails).
set -u
NP=$1 HPLS=$2 MPIEXEC=$3 CHECK=$4
pass=0 fail=0
. "$(dirname "$0")/../util/expect.sh"
. "$(dirname "$0")/mpiexec.sh"
mpi_launcher "$MPIEXEC" 120
run+=(-np "$NP")
tmp=$(mktemp -d "${HPLS_TMP:-/tmp}/mpihisa.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
TOL=1e-8

field() { grep -o "\"$1\":[^,}]*" <<<"$2" | head -1 | cut -d: -f2; }
format() { grep -o '"format":"[^"]*"' <<<"$1" | cut -d'"' -f4; }
ok() { pass=$((pass + 1)); }
bad() {
  echo "FAIL $1 (np $NP)"
  shift
  printf '  %s\n' "$@"
  fail=$((fail + 1))
}
# converged with the true relative residual (the report's) <= tol
good() { grep -q '"converged":true' <<<"$1" && awk -v r="$(field relres "$1")" -v t=$TOL 'BEGIN { exit !(r != "" && r + 0 <= t) }'; }

# exact NAME "ONE-PROCESS ARGS" "MPI ARGS": the same iteration count and the
# same x, written by -o (%.17g: every bit), and converged to tol
exact() {
  local name=$1 one mpi
  # shellcheck disable=SC2086
  one=$("$HPLS" solve $2 --tol $TOL --json -o "$tmp/one.mtx" 2>&1)
  # shellcheck disable=SC2086
  mpi=$("${run[@]}" "$HPLS" solve $3 --tol $TOL --json -o "$tmp/mpi.mtx" 2>&1)
  if good "$mpi" && [ "$(field iterations "$one")" = "$(field iterations "$mpi")" ] &&
    [ "$(field ranks "$mpi")" = "$NP" ] && cmp -s "$tmp/one.mtx" "$tmp/mpi.mtx"; then
    ok
  else
    bad "$name" "one process: $one" "mpi: $mpi"
  fi
  rm -f "$tmp/one.mtx" "$tmp/mpi.mtx"
  last=$mpi
}

n=12000 # divisible by 1 .. 4 (and 8): generated rows are cut into equal blocks
G="--gen gas:n=$n,k=2"
exact hisa_is_bhisa "$G --solver bhisa --block $((n / NP))" "$G --solver hisa"
one_thomas=$("$HPLS" solve $G --solver bhisa --block $((n / NP)) --tol $TOL --json 2>&1)
if [ "$NP" -gt 1 ]; then
  grep -q "hisa on $NP ranks = bhisa with $NP blocks" <<<"$(format "$last")" && ok ||
    bad hisa_report "$last"
  # one S x a step: a halo message to each neighbour; one reduction (||y - y'||)
  # a step, and a few around the solve (b's checks and norm, r0, x's residual)
  # (the totals: the per-iteration figures are rounded to 2 decimals)
  awk -v r="$(field reductions "$last")" -v i="$(field iterations "$last")" \
    -v m="$(field halo_messages "$last")" \
    'BEGIN { exit !(r >= i && r - i <= 6 && m >= i) }' && ok || bad hisa_counts "$last"
else
  exact hisa_one_rank "$G --solver hisa" "$G --solver hisa"
fi
exact bhisa_same_blocks "$G --solver bhisa --block 1000" "$G --solver bhisa --block 1000"
exact bhisa_cr "$G --solver bhisa --block 1000 --tridiag cr" "$G --solver bhisa --block 1000 --tridiag cr"
# default blocks: ranks x threads
exact bhisa_ranks_x_threads "$G --solver bhisa --block $((n / NP / 2))" "$G --solver bhisa --threads 2"
if [ "$NP" -gt 1 ]; then
  grep -q "bhisa: $((2 * NP)) blocks on $NP ranks" <<<"$(format "$last")" && ok ||
    bad bhisa_report "$last"
fi

# hisa's block of each rank by the other tridiagonal methods: within 1 iteration
# of thomas's (exact on one rank against one process's hisa)
for t in cr gspike lapack; do
  if [ "$NP" -eq 1 ]; then
    exact "hisa_$t" "$G --solver hisa --tridiag $t" "$G --solver hisa --tridiag $t"
    continue
  fi
  out=$("${run[@]}" "$HPLS" solve $G --solver hisa --tridiag "$t" --tol $TOL --json 2>&1)
  good "$out" && awk -v a="$(field iterations "$out")" -v b="$(field iterations "$one_thomas")" \
    'BEGIN { d = a - b; exit !(d <= 1 && d >= -1) }' && ok || bad "hisa_$t" "$out" "$one_thomas"
done

# pjg: one rank is one process (blocks of psize rows, and the default psize)
if [ "$NP" -eq 1 ]; then
  exact pjg_one_rank "$G --solver pjg --psize 64" "$G --solver pjg --psize 64"
  exact pjg_one_rank_default "$G --solver pjg --threads 2" "$G --solver pjg --threads 2"
  # one thread: psize 1, Gauss-Seidel, a block a row (dist_pjg.c's region-free chunk)
  exact pjg_one_rank_gs "$G --solver pjg --threads 1" "$G --solver pjg --threads 1"
else
  for c in "$G --solver pjg --psize 500" "$G --solver pjg" "--gen poisson3d:nx=16 --solver pjg --psize 256"; do
    # shellcheck disable=SC2086
    out=$("${run[@]}" "$HPLS" solve $c --tol $TOL --json 2>&1)
    if good "$out" && grep -q "pjg: [0-9]* blocks, block k = each rank's k-th" <<<"$(format "$out")" &&
      awk -v r="$(field reductions "$out")" -v i="$(field iterations "$out")" \
        -v m="$(field halo_messages "$out")" \
        'BEGIN { exit !(r >= i && r - i <= 6 && m >= i) }'; then
      ok
    else
      bad "pjg: $c" "$out"
    fi
  done
fi
# rho(T^-1 S) >= 1: the growth stop, one message, the one-process exit status
expect hisa_divergent 3 "rho\(T\^-1 S\) >= 1, so hisa cannot converge" -- \
  "${run[@]}" "$HPLS" solve --gen gas:n=12000,k=3,q=2,s=1 --solver hisa -q

# one process with the same blocks: the same iterates (dist_check.c)
out=$("${run[@]}" "$CHECK" 2>&1)
rc=$?
[ "$rc" -eq 0 ] && ! grep -q FAIL <<<"$out" && [ "$(grep -c '^ok ' <<<"$out")" -ge 5 ] && ok ||
  bad "dist_check (exit $rc)" "$out"

# real quasi-tridiagonal matrices (tests/unit/test_hisa.c's): hisa on rows cut
# by nonzeros converges to tol; one rank: the one-process x
D=${HPLS_DATA_DIR:-}/matrices
data=0
for m in lis_testmat2 pts5ldd03 sherman1; do
  [ -f "$D/$m.mtx" ] || continue
  data=$((data + 1))
  if [ "$NP" -eq 1 ]; then
    exact "data_$m" "$D/$m.mtx --solver hisa --maxiter 5000" "$D/$m.mtx --solver hisa --maxiter 5000"
  else
    out=$("${run[@]}" "$HPLS" solve "$D/$m.mtx" --solver hisa --maxiter 5000 --tol $TOL --json 2>&1)
    good "$out" && ok || bad "data_$m" "$out"
  fi
done
[ "$data" -eq 0 ] && echo "(no matrices in HPLS_DATA_DIR: the real-matrix cases were skipped)"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
