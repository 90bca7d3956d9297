#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# solve.sh NP HPLS MPIEXEC: `mpirun -np NP hpls solve` gives the one-process
# answer: for every distributed method, on generated matrices and on the real
# ones of HPLS_DATA_DIR (skipped when absent), the iteration count of the
# one-process run +-1, the true relative residual (recomputed distributed)
# <= tol and the error against x = 1 within 10 times the one-process one; the JSON names ranks, threads,
# reductions and halo messages; x gathered by -o equals the one-process x.
# Processor-local preconditioners (block Jacobi: dilu, ilu0, dic on each
# rank's diagonal block) converge to tol, in the same count on one rank.
# The tridiagonal direct methods (0 iterations): the true residual <= tol and
# the error within 10 times one process's; gspike's JSON names its partitions.
set -u
NP=$1 HPLS=$2 MPIEXEC=$3
pass=0 fail=0
. "$(dirname "$0")/../util/expect.sh"
. "$(dirname "$0")/mpiexec.sh"
mpi_launcher "$MPIEXEC" 0
run+=(-np "$NP")
tmp=$(mktemp -d "${HPLS_TMP:-/tmp}/mpi.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
TOL=1e-8

field() { grep -o "\"$1\":[^,}]*" <<<"$2" | head -1 | cut -d: -f2; }

# same NAME PLUSMINUS ARGS...: the distributed run against the one-process one
# (PLUSMINUS "np1": the same count on one rank, any count converging on more:
# BiCGSTAB on the real matrices amplifies the rounding of sums taken in
# another order, 183-222 iterations for sherman1 on 1-4 ranks, its residuals
# equal to 7 digits for the first 30 iterations)
same() {
  local name=$1 slack=$2
  shift 2
  [ "$slack" = np1 ] && { [ "$NP" -eq 1 ] && slack=0 || slack=1000000; }
  local one mpi
  one=$("$HPLS" solve "$@" --tol $TOL --json 2>&1)
  mpi=$("${run[@]}" "$HPLS" solve "$@" --tol $TOL --json 2>&1)
  local i1 im rr err e1 ranks
  i1=$(field iterations "$one") im=$(field iterations "$mpi") rr=$(field relres "$mpi")
  err=$(field error "$mpi") e1=$(field error "$one") ranks=$(field ranks "$mpi")
  if [ -z "$i1" ] || [ -z "$im" ] || [ "$ranks" != "$NP" ] ||
    ! awk -v a="$i1" -v b="$im" -v s="$slack" -v r="$rr" -v t=$TOL -v e="${err:-0}" \
      -v e1="${e1:-0}" 'BEGIN { d = a - b; if (d < 0) d = -d
        exit !(d <= s && r + 0 <= t && r != "null" && e != "null" && e + 0 <= 1e-6 + 10 * e1) }'; then
    echo "FAIL $name (np $NP): one process: $one"
    echo "  mpi: $mpi"
    fail=$((fail + 1))
    return
  fi
  pass=$((pass + 1))
}

same bicgstab_gas 1 --gen gas:n=20000,k=2 --solver bicgstab
same cg_poisson3d 1 --gen poisson3d:nx=20 --solver cg
same gmres_convdiff 1 --gen convdiff3d:nx=16 --solver gmres
same fgmres_convdiff 1 --gen convdiff3d:nx=16 --solver fgmres --restart 20
same jacobi_gas 0 --gen gas:n=5000 --solver jacobi
same jacobi_weighted 0 --gen gas:n=5000 --solver jacobi --omega 0.8
same bicgstab_jacobi 1 --gen convdiff3d:nx=16 --solver bicgstab --precond jacobi
same minres_poisson 1 --gen poisson3d:nx=16 --solver minres
same bicgstabl 1 --gen convdiff3d:nx=16 --solver bicgstabl
same tfqmr 1 --gen convdiff3d:nx=16 --solver tfqmr
same cgs 1 --gen convdiff3d:nx=16 --solver cgs
same bicrstab 1 --gen convdiff3d:nx=16 --solver bicrstab
same bicgsafe 1 --gen convdiff3d:nx=16 --solver bicgsafe
same gmres_left 1 --gen gas:n=8000,k=3 --solver gmres --precond jacobi --pc_side left
# a reduction of more than 256 values goes in pieces (GMRES's multi-dots past step 127)
same gmres_long_cycle 1 --gen gas:n=20000,q=0.97 --solver gmres --restart 300
# reproducible=1: exact sums (its bits on any ranks and threads: repro.sh)
same bicgstab_ordered 1 --gen convdiff3d:nx=16 --solver bicgstab --reproducible 1
same gmres_ordered 1 --gen gas:n=20000,q=0.97 --solver gmres --restart 300 --reproducible 1

# gs, sor, ssor: each rank sweeps its rows, the others' unknowns from the last
# sweep: the one-process count on one rank, at most 1.25 times it on more
# (poisson3d 16^3: gs 476 -> 515 at 4 ranks)
for c in "gs" "sor --omega 1.2" "ssor --omega 1.2"; do
  for g in gas:n=20000,k=2 poisson3d:nx=12; do
    # shellcheck disable=SC2086
    slack=$("$HPLS" solve --gen "$g" --solver $c --tol $TOL --json |
      grep -o '"iterations":[0-9]*' | awk -F: -v np="$NP" '{ print np == 1 ? 0 : int($2 / 4) + 1 }')
    # shellcheck disable=SC2086
    same "${c%% *}_$g" "${slack:-0}" --gen "$g" --solver $c
  done
done

# the tridiagonal direct methods (src/mpi/dist_tridiag.c): gspike distributed
# (partitions per rank), thomas, cr and lapack on T gathered to rank 0 (the
# one-process x, checked bit for bit in test_dist_gspike); the JSON says how
for c in "gspike" "gspike --gspike_p 3" "thomas" "cr" "lapack"; do
  # shellcheck disable=SC2086
  same "tridiag_${c// /_}" 0 --gen tridiag:n=6000 --solver $c
done
same gspike_nondominant 0 --gen tridiag:n=6000,dom=0.2 --solver gspike --gspike_p 2
same gspike_id1 0 --gen tridiag:id=1,n=4000 --solver gspike --gspike_p 2
out=$("${run[@]}" "$HPLS" solve --gen tridiag:n=6000 --solver gspike --gspike_p 2 --json 2>&1)
if grep -q '"singular_blocks":0' <<<"$out" &&
  { [ "$NP" -eq 1 ] || grep -q "\"distributed\":\"g-Spike on $NP ranks: $((2 * NP)) partitions" <<<"$out"; }; then
  pass=$((pass + 1))
else
  echo "FAIL gspike_json (np $NP): $out"
  fail=$((fail + 1))
fi

D=${HPLS_DATA_DIR:-}/matrices
data=0
for c in "sherman1 gmres 1" "orsirr_1 gmres 1" "gr_30_30 cg 1" "add32 cg 1" "jpwh_991 gmres 1" \
  "sherman1 bicgstab np1" "cdde1 bicgstab np1" "add32 bicgstab np1"; do
  set -- $c
  [ -f "$D/$1.mtx" ] || continue
  data=$((data + 1))
  same "data_$1_$2" "$3" "$D/$1.mtx" --solver "$2" --precond jacobi
done
[ "$data" -eq 0 ] && echo "(no matrices in HPLS_DATA_DIR: the real-matrix cases were skipped)"

# A^T x by the reverse halo (bicg, qmr), reorder and scale (Ruiz on the ranks;
# rcm, matching on rank 0), the quad-tree of each rank's diagonal block
same bicg 1 --gen convdiff3d:nx=16 --solver bicg
same qmr 1 --gen convdiff3d:nx=16 --solver qmr
same bicg_jacobi 1 --gen gas:n=8000,k=3 --solver bicg --precond jacobi
same qmr_jacobi 1 --gen gas:n=8000,k=3 --solver qmr --precond jacobi
same rcm_cg 1 --gen poisson3d:nx=12 --solver cg --reorder rcm
same ruiz_gmres 1 --gen convdiff3d:nx=16 --solver gmres --scale ruiz
same rcm_ruiz_gmres 1 --gen convdiff3d:nx=16 --solver gmres --reorder rcm --scale ruiz
same qtbicgstab 1 --gen gas:n=20000,k=2 --solver qtbicgstab --qt_d 64
same bicg_qtree 1 --gen convdiff3d:nx=16 --solver bicg --format qtree --qt_d 64

# x = 1 + i/n from b = A x (awk): a permutation or a scaling left undone on
# the way back shows in x (x = 1 hides a permutation); poisson2d with its rows
# reversed has zero diagonals, reorder=matching's case
"$HPLS" gen poisson2d:nx=24 -o "$tmp/p2.mtx" >/dev/null 2>&1
"$HPLS" gen convdiff3d:nx=10 -o "$tmp/cd.mtx" >/dev/null 2>&1
awk '/^%/ { print; next } !n { n = $1; print; next } { print n + 1 - $1, $2, $3 }' \
  "$tmp/p2.mtx" >"$tmp/swap.mtx"
rhs() { # MATRIX: b = A x for that x, a Matrix Market array
  awk '/^%/ { next } !n { n = $1; next } { b[$1] += $3 * (1 + $2 / n) }
    END { print "%%MatrixMarket matrix array real general"; print n, 1
      for (i = 1; i <= n; i++) printf "%.17g\n", b[i] }' "$1"
}
x_back() { # NAME MATRIX ARGS...: x written by -o on NP ranks is that x to 1e-6
  local name=$1 m=$2
  shift 2
  rhs "$m" >"$tmp/b_$name.mtx"
  local out n
  out=$("${run[@]}" "$HPLS" solve "$m" "$tmp/b_$name.mtx" --tol 1e-10 -q -o "$tmp/x_$name.mtx" "$@" 2>&1)
  n=$(grep -v '^%' "$m" | head -1 | cut -d' ' -f1)
  if grep -v '^%' "$tmp/x_$name.mtx" 2>/dev/null | tail -n +2 | awk -v n="$n" \
    '{ d = $1 - (1 + NR / n); if (d < 0) d = -d; if (!(d <= 1e-6)) bad = 1 }
     END { exit !(NR == n && !bad) }'; then
    pass=$((pass + 1))
  else
    echo "FAIL x_back_$name (np $NP): $out"
    fail=$((fail + 1))
  fi
}
x_back rcm "$tmp/p2.mtx" --solver cg --reorder rcm
x_back ruiz "$tmp/cd.mtx" --solver gmres --scale ruiz
x_back rcm_ruiz "$tmp/cd.mtx" --solver bicgstab --reorder rcm --scale ruiz
x_back matching "$tmp/swap.mtx" --solver gmres --precond jacobi --reorder matching
x_back matching_scaled "$tmp/swap.mtx" --solver gmres --reorder matching --scale matching
same matching 1 "$tmp/swap.mtx" --solver gmres --precond jacobi --reorder matching

# the quad-tree's product is CSR's bit for bit: qtbicgstab's x is bicgstab's on NP ranks
for c in "bicgstab" "qtbicgstab --qt_d 64"; do
  # shellcheck disable=SC2086
  "${run[@]}" "$HPLS" solve --gen gas:n=20000,k=2 --solver $c --tol $TOL -q \
    -o "$tmp/xq_${c%% *}.mtx" >/dev/null 2>&1
done
cmp -s "$tmp/xq_bicgstab.mtx" "$tmp/xq_qtbicgstab.mtx" && pass=$((pass + 1)) ||
  { echo "FAIL qtree_bits (np $NP)"; fail=$((fail + 1)); }

# block Jacobi with local dilu / ilu0 / dic (and their M^-T for bicg, qmr)
for c in "bicgstab dilu convdiff3d:nx=16" "bicgstab ilu0 convdiff3d:nx=16" "cg dic poisson3d:nx=16" \
  "bicg ilu0 convdiff3d:nx=16" "qmr dilu convdiff3d:nx=16"; do
  set -- $c
  out=$("${run[@]}" "$HPLS" solve --gen "$3" --solver "$1" --precond "$2" --tol $TOL --json 2>&1)
  one=$("$HPLS" solve --gen "$3" --solver "$1" --precond "$2" --tol $TOL --json 2>&1)
  rr=$(field relres "$out")
  if grep -q '"converged":true' <<<"$out" && awk -v r="$rr" -v t=$TOL 'BEGIN { exit !(r + 0 <= t) }' &&
    { [ "$NP" -gt 1 ] || [ "$(field iterations "$out")" = "$(field iterations "$one")" ]; }; then
    pass=$((pass + 1))
  else
    echo "FAIL local_$2 (np $NP): $out (one process: $one)"
    fail=$((fail + 1))
  fi
done

# counts: bicgstab's fused kernels make about 3 reductions per iteration
out=$("${run[@]}" "$HPLS" solve --gen gas:n=20000 --solver bicgstab --json 2>&1)
awk -v r="$(field reductions_per_iteration "$out")" -v m="$(field halo_messages "$out")" -v np="$NP" \
  'BEGIN { exit !(r >= 3 && r <= 3.5 && ((np == 1) == (m == 0))) }' && pass=$((pass + 1)) ||
  { echo "FAIL counts (np $NP): $out"; fail=$((fail + 1)); }

# x gathered and written by rank 0: the one-process x
"$HPLS" solve --gen convdiff3d:nx=12 --tol 1e-12 -q -o "$tmp/x1.mtx" >/dev/null 2>&1
expect output 0 'converged' -- "${run[@]}" "$HPLS" solve --gen convdiff3d:nx=12 --tol 1e-12 -q -o "$tmp/xp.mtx"
paste <(grep -v '^%' "$tmp/x1.mtx" | tail -n +2) <(grep -v '^%' "$tmp/xp.mtx" | tail -n +2) |
  awk 'NF != 2 { bad = 1 } { d = $1 - $2; if (d < 0) d = -d; if (d > 1e-9) bad = 1; n++ }
       END { exit !(n == 1728 && !bad) }' && pass=$((pass + 1)) ||
  { echo "FAIL output_equal (np $NP)"; fail=$((fail + 1)); }

# only rank 0 prints
lines=$("${run[@]}" "$HPLS" solve --gen gas:n=3000 -q 2>&1 | grep -c 'converged')
[ "$lines" = 1 ] && pass=$((pass + 1)) || { echo "FAIL one_printer (np $NP): $lines lines"; fail=$((fail + 1)); }

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
