#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# ops.sh NP TEST MPIEXEC: the distributed operations' test program (tests/mpi/ops.c:
# A^T x, the quad-tree's products, Ruiz, gathering, preconditioner objects) on NP
# ranks, bounded by a timeout (a rank left waiting is exit 124, a failure).
set -u
NP=$1 TEST=$2 MPIEXEC=$3
. "$(dirname "$0")/mpiexec.sh"
mpi_launcher "$MPIEXEC" 120
run+=(-np "$NP")
"${run[@]}" "$TEST"
