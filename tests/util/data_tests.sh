#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# data_tests.sh EXE: runs the tests of a cmocka executable that CTest selected (its
# data tests, HPLS_TEST_ONLY=data/*) and turns cmocka's summary into CTest's: a
# failure fails, and when every test skipped (the data is absent) the exit status is
# 77, which CTest reports as "Skipped" (SKIP_RETURN_CODE); a partial skip passes,
# its skipped tests listed in the output.
set -u
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out"
[ "$rc" -ne 0 ] && exit "$rc"
ran=$(sed -nE 's/^\[==========\] ([0-9]+) test\(s\) run\.$/\1/p' <<<"$out")
passed=$(sed -nE 's/^\[  PASSED  \] ([0-9]+) test\(s\)\.$/\1/p' <<<"$out")
if [ -z "$ran" ] || [ -z "$passed" ] || [ "$ran" -eq 0 ]; then
  echo "data_tests.sh: no test ran (or no cmocka summary): $*"
  exit 1
fi
[ "$passed" -eq 0 ] && exit 77 # none failed (rc 0), none passed: all skipped
exit 0
