# SPDX-License-Identifier: BSD-3-Clause
# expect.sh: sourced by the tests/e2e scripts; counts into $pass and $fail.

# expect NAME CODE PATTERN -- command...: exit status CODE and output matching PATTERN
expect() {
  local name=$1 code=$2 pat=$3
  shift 4
  local out rc
  out=$("$@" 2>&1)
  rc=$?
  if [ "$rc" -ne "$code" ]; then
    echo "FAIL $name: exit $rc, expected $code"; echo "$out" | tail -5; fail=$((fail + 1)); return
  fi
  if [ -n "$pat" ] && ! grep -qE -- "$pat" <<<"$out"; then
    echo "FAIL $name: output does not match /$pat/"; echo "$out" | tail -5; fail=$((fail + 1)); return
  fi
  pass=$((pass + 1))
}
