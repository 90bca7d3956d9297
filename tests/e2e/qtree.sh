#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# qtree.sh: end-to-end tests of --format qtree, --solver qtbicgstab, --qt-d and
# --reorder rcm through `hpls solve` (the format line is in the full report, not
# in --quiet's summary line).
# Usage: qtree.sh PATH/TO/hpls
set -u
HPLS=$1
pass=0 fail=0

. "$(dirname "$0")/../util/expect.sh"

expect help_lists_qtbicgstab 0 "qtbicgstab" -- "$HPLS" solve --help
expect qtbicgstab_given_d 0 "format: qtree d=64 \(given\)" -- \
  "$HPLS" solve --gen gas:n=5000,k=2 --solver qtbicgstab --qt-d 64
expect qtbicgstab_auto_keeps_csr 0 "format: csr \(auto: x fits in L2" -- \
  "$HPLS" solve --gen gas:n=5000,k=2 --solver qtbicgstab
expect qtbicgstab_random_pattern 0 "format: qtree d=256 \(given\), side 256" -- \
  "$HPLS" solve --gen random:n=4000,k=4 --solver qtbicgstab --qt-d 256
expect gmres_qtree 0 "format: qtree d=128 \(given\)" -- \
  "$HPLS" solve --gen convdiff3d:nx=10 --solver gmres --format qtree --qt-d 128
expect cg_rcm 0 "format: rcm: bandwidth" -- \
  "$HPLS" solve --gen poisson2d:nx=30 --solver cg --reorder rcm
expect pjg_rcm 0 "converged" -- "$HPLS" solve --gen gas:n=3000,k=2 --solver pjg --reorder rcm -q
expect format_not_for_jacobi 2 "option format does not apply to solver jacobi" -- \
  "$HPLS" solve --gen poisson2d:nx=10 --solver jacobi --format qtree
expect bad_qt_d 2 "qt_d" -- "$HPLS" solve --gen poisson2d:nx=10 --qt-d 70000

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
