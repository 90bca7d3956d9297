#!/usr/bin/env bash
# run.sh NP MPIEXEC PROGRAM [ARGS...]: PROGRAM on NP ranks (--oversubscribe: more
# ranks than cores), bounded by a timeout so that a hang fails (exit 124).
set -u
NP=$1 MPIEXEC=$2
shift 2
run=(timeout 150 "$MPIEXEC" --oversubscribe -np "$NP")
[ "$(id -u)" -eq 0 ] && run+=(--allow-run-as-root)
exec "${run[@]}" "$@"
