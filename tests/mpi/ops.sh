#!/usr/bin/env bash
# ops.sh NP TEST MPIEXEC: the distributed operations' test program (tests/mpi/ops.c:
# A^T x, the quad-tree's products, Ruiz, gathering, preconditioner objects) on NP
# ranks, bounded by a timeout (a rank left waiting is exit 124, a failure).
set -u
NP=$1 TEST=$2 MPIEXEC=$3
run=(timeout 120 "$MPIEXEC" --oversubscribe -np "$NP")
[ "$(id -u)" -eq 0 ] && run+=(--allow-run-as-root)
"${run[@]}" "$TEST"
