#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# threads.sh: end-to-end tests of the command's thread choice and wait policy:
# threads=0 (the default) runs a system below 1000000 stored entries on one
# thread and a larger one on OpenMP's default, --threads N is kept, both
# reported by --json and the summary; with no policy of the user's, the
# OpenMP runtime the command runs under waits passively (libgomp's
# OMP_DISPLAY_ENV=verbose shows GOMP_SPINCOUNT = '0'), and a user's policy is kept.
# Usage: threads.sh PATH/TO/hpls
set -u
HPLS=$1
pass=0 fail=0

. "$(dirname "$0")/../util/expect.sh"

export OMP_NUM_THREADS=2
expect small_auto_one 0 '"threads":1,' -- "$HPLS" solve --gen gas:n=1000 --json
expect small_summary_one 0 'threads 1$' -- "$HPLS" solve --gen gas:n=1000
expect small_given_two 0 '"threads":2,' -- "$HPLS" solve --gen gas:n=1000 --threads 2 --json
# gas k=1 has 4n - 2 entries: n = 300000 is above the threshold
expect large_auto_default 1 '"threads":2,' -- \
  "$HPLS" solve --gen gas:n=300000,k=1 --maxiter 2 --json
expect large_given_one 1 '"threads":1,' -- \
  "$HPLS" solve --gen gas:n=300000,k=1 --maxiter 2 --threads 1 --json

# the last display is the run's own (the command may start itself again)
spincount() {
  "$@" 2>&1 | sed -n "s/.*GOMP_SPINCOUNT = '\([0-9]*\)'.*/\1/p" | tail -1
}
if [ -z "$(env OMP_DISPLAY_ENV=verbose "$HPLS" --version 2>&1 | grep GOMP_SPINCOUNT)" ]; then
  echo "skip wait policy checks: the OpenMP runtime is not libgomp"
else
  for c in "unset 0" "OMP_WAIT_POLICY=active 30000000000" "GOMP_SPINCOUNT=1234 1234" "OMP_WAIT_POLICY=passive 0"; do
    read -r setting want <<<"$c"
    envs=(env -u OMP_WAIT_POLICY -u GOMP_SPINCOUNT -u KMP_BLOCKTIME OMP_DISPLAY_ENV=verbose)
    [ "$setting" = unset ] || envs+=("$setting")
    got=$(spincount "${envs[@]}" "$HPLS" solve --gen gas:n=1000 -q)
    if [ "$got" = "$want" ]; then
      pass=$((pass + 1))
    else
      echo "FAIL wait_policy_$setting: GOMP_SPINCOUNT '$got', expected '$want'"
      fail=$((fail + 1))
    fi
  done
fi

# Threads the user binds (OMP_PROC_BIND, OMP_PLACES) keep the whole CPU set: the
# command does not start itself again from a thread the runtime already bound to
# one core (which would put every thread on that core).
if [ "$(nproc)" -ge 2 ] && [ -n "$(env OMP_DISPLAY_ENV=verbose "$HPLS" --version 2>&1 | grep GOMP_SPINCOUNT)" ]; then
  cores=$(env -u OMP_WAIT_POLICY -u GOMP_SPINCOUNT -u KMP_BLOCKTIME OMP_PROC_BIND=close \
    OMP_PLACES=cores OMP_DISPLAY_AFFINITY=true OMP_AFFINITY_FORMAT='hpls-aff %A' \
    "$HPLS" solve --gen gas:n=1000 --threads 2 -q 2>&1 | sed -n 's/^hpls-aff //p' | sort -u | wc -l)
  if [ "$cores" -ge 2 ]; then
    pass=$((pass + 1))
  else
    echo "FAIL bound_threads: the 2 bound threads share $cores place(s), expected 2"
    fail=$((fail + 1))
  fi
else
  echo "skip bound threads check: one CPU, or the OpenMP runtime is not libgomp"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
