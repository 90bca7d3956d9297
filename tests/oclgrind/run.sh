#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# run.sh BUILD: `make oclgrind`.  Runs every opencl kernel (BUILD/bin/oclgrind_kernels)
# under Oclgrind with --data-races: no error may be reported.  Then again with
# the barrier after group_reduce's first store removed (-DHPLS_DROP_BARRIER,
# kernels/device/vector.cl): Oclgrind must report a data race, or the check
# proves nothing.  PoCL alone would not see it: its work-items of a group run
# in program order between barriers on one thread.
set -euo pipefail
build=${1:-build}
exe=$build/bin/oclgrind_kernels
command -v oclgrind >/dev/null || { echo "oclgrind not installed (scripts/deps.sh --opencl)"; exit 1; }
[ -x "$exe" ] || { echo "$exe missing: build with HPLS_OPENCL=ON"; exit 1; }
log=$(mktemp)
trap 'rm -f "$log"' EXIT
oclgrind --data-races --log "$log" "$exe"
if [ -s "$log" ]; then
  echo "oclgrind reported errors on the kernels:"; head -40 "$log"; exit 1
fi
echo "oclgrind --data-races: every kernel clean"
oclgrind --data-races --build-options -DHPLS_DROP_BARRIER --max-errors 5 --log "$log" "$exe" >/dev/null || true
if ! grep -q -i "data race" "$log"; then
  echo "the removed barrier (-DHPLS_DROP_BARRIER) was NOT reported: the check cannot fail"
  head -20 "$log"; exit 1
fi
echo "the removed barrier is reported: $(grep -i -m1 'data race' "$log")"
