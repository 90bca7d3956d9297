#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# backend.sh: `hpls solve --backend ref` runs every method and every
# preconditioner the help lists (the ref backend refuses any vector a method
# did not get from it, so a pass also proves the method keeps to the backend),
# and gives the cpu backend's answer; a bad backend is a usage error.
# Usage: backend.sh PATH/TO/hpls
set -u
HPLS=$1
pass=0 fail=0

. "$(dirname "$0")/../util/expect.sh"

help=$("$HPLS" solve --help)
solvers=$(awk '/^Solvers/{f=1;next} /^$/{f=0} f{print $1}' <<<"$help")
precs=$(awk '/^Preconditioners/{f=1;next} /^$/{f=0} f{print $1}' <<<"$help")
[ "$(wc -w <<<"$solvers")" -ge 20 ] && [ "$(wc -w <<<"$precs")" -ge 9 ] && pass=$((pass + 1)) ||
  { echo "FAIL help_lists: solvers '$solvers', preconditioners '$precs'"; fail=$((fail + 1)); }

for s in $solvers; do
  case $s in
  thomas | cr | gspike | lapack) gen=tridiag:n=2000 ;;
  cg | minres) gen=poisson2d:nx=30 ;;
  *) gen=gas:n=2000,k=2 ;;
  esac
  expect "ref_$s" 0 '"backend":"ref".*"converged":true' -- "$HPLS" solve --gen "$gen" --solver "$s" --backend ref --json
done
for p in $precs; do
  solver=bicgstab gen=gas:n=2000,k=2
  [ "$p" = dic ] && solver=cg gen=poisson2d:nx=30
  expect "ref_bicgstab_$p" 0 '"backend":"ref".*"converged":true' \
    -- "$HPLS" solve --gen "$gen" --solver "$solver" --precond "$p" --backend ref --json
  [ "$p" = pjg ] || [ "$p" = dic ] && continue # no M^-T
  expect "ref_bicg_$p" 0 '"converged":true' \
    -- "$HPLS" solve --gen "$gen" --solver bicg --precond "$p" --backend ref --json
done
# the same iterations as the cpu backend
cpu=$("$HPLS" solve --gen gas:n=5000,k=3 --precond dilu --threads 2 --json | grep -o '"iterations":[0-9]*')
ref=$("$HPLS" solve --gen gas:n=5000,k=3 --precond dilu --backend ref --json | grep -o '"iterations":[0-9]*')
[ -n "$cpu" ] && [ "$cpu" = "$ref" ] && pass=$((pass + 1)) ||
  { echo "FAIL same_iterations: cpu $cpu, ref $ref"; fail=$((fail + 1)); }
expect ref_one_thread 0 '"threads":1' -- "$HPLS" solve --gen gas:n=500 --backend ref --threads 4 --json
expect bad_backend 2 'backend: bad value "gpu" \(one of: cpu,ref,opencl,cuda\)' -- "$HPLS" solve --gen gas:n=50 --backend gpu
expect env_defaults 0 '"backend":"ref"' -- env HPLS_OPTIONS=backend=ref "$HPLS" solve --gen gas:n=500 --json

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
