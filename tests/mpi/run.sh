#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# run.sh NP MPIEXEC PROGRAM [ARGS...]: PROGRAM on NP ranks (oversubscribed, as
# root when the tests run as root), bounded by a timeout: a hang is exit 124,
# a failure.
set -u
NP=$1 MPIEXEC=$2
shift 2
. "$(dirname "$0")/mpiexec.sh"
mpi_launcher "$MPIEXEC" 150
run+=(-np "$NP")
exec "${run[@]}" "$@"
