#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# scalapack_ref.sh NP HPLS MPIEXEC PEER: g-Spike on NP ranks against ScaLAPACK's
# distributed tridiagonal solver (PDDTTRF + PDDTTRS, the peer of bench/spike_mpi.sh:
# bench/peers/scalapack_ddtsv.c) on the same T, b = T 1: ScaLAPACK's forward
# error max |x - 1| below 1e-12 with info 0, hpls's within 10 times it (+1e-15).
# Each run is bounded by a timeout (a hang is exit 124, a failure).
set -u
NP=$1 HPLS=$2 MPIEXEC=$3 PEER=$4
. "$(dirname "$0")/mpiexec.sh"
mpi_launcher "$MPIEXEC" 60
run+=(-np "$NP")
pass=0 fail=0
n=20000
# #18 of the g-Spike paper's Table A.1, and a nonsymmetric dominant one
for m in "-1 4 -1" "-1 4 0.5"; do
  read -r lo di up <<<"$m"
  h=$("${run[@]}" "$HPLS" solve --gen "tridiag:type=toeplitz,n=$n,lower=$lo,diag=$di,upper=$up" \
    --solver gspike --gspike_p 2 --json 2>&1)
  p=$("${run[@]}" "$PEER" "$n" "$lo" "$di" "$up" 1 2>&1)
  he=$(grep -o '"error":[^,}]*' <<<"$h" | cut -d: -f2)
  pe=$(sed -n 's/.*error=\([^ ]*\).*/\1/p' <<<"$p")
  pi=$(sed -n 's/.*info=\([^ ]*\).*/\1/p' <<<"$p")
  if [ -n "$he" ] && [ -n "$pe" ] && [ "$pi" = 0 ] &&
    awk -v h="$he" -v p="$pe" 'BEGIN { exit !(p + 0 < 1e-12 && h + 0 <= 10 * p + 1e-15) }'; then
    pass=$((pass + 1))
  else
    echo "FAIL tridiag($lo, $di, $up), n = $n, $NP ranks: hpls: $h"
    echo "  ScaLAPACK: $p"
    fail=$((fail + 1))
  fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
