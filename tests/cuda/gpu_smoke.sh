#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# gpu_smoke.sh (tests/cuda): scripts/gpu_smoke.sh where there is no GPU (issue 33).
#   nogpu BUILD   it exits 77 and prints one line saying there is no GPU
#                 (skipped on a machine with one)
#   opencl BUILD  HPLS_SMOKE_BACKEND=opencl HPLS_SMOKE_QUICK=1: every step runs on
#                 PoCL and the report lists the seven steps, each PASS, or SKIP with
#                 its reason (skipped without an OpenCL device)
# A report is checked by check_report, which is also shown a copy with one step
# turned to FAIL and one with a reason removed: it must refuse both.
set -u
mode=$1
build=$2
smoke=$(cd "$(dirname "$0")/../.." && pwd)/scripts/gpu_smoke.sh
steps="driver devices suite iterations switches memcheck model"

if [ "$mode" = nogpu ]; then
    if nvidia-smi -L 2>/dev/null | grep -q '^GPU ' || [ -e /dev/nvidia0 ]; then
        echo "a GPU is here: the no-GPU case cannot be checked"
        exit 77
    fi
    out=$(bash "$smoke" "$build" 2>&1)
    rc=$?
    echo "$out"
    if [ $rc -eq 77 ] && [ "$(wc -l <<<"$out")" -eq 1 ] &&
        grep -qE '^gpu_smoke.sh: no NVIDIA GPU here \(.*\): nothing run' <<<"$out"; then
        echo "PASS: exit 77, one line"
        exit 0
    fi
    echo "FAIL: exit $rc (expected 77 and one line saying there is no GPU)"
    exit 1
fi

# check_report FILE: the summary has every step once, each PASS or SKIP with a reason
check_report() {
    local s row bad=0
    for s in $steps; do
        row=$(grep -E "^\| $s \| " "$1")
        if [ "$(grep -c . <<<"$row")" -ne 1 ]; then
            echo "step $s: not once in the summary"
            bad=1
        elif ! grep -qE '\| (PASS|SKIP) \| [0-9.]+ s \| [^ |][^|]* \|$' <<<"$row"; then
            echo "step $s: $row"
            bad=1
        fi
    done
    return $bad
}

[ "$mode" = opencl ] || {
    echo "usage: gpu_smoke.sh nogpu|opencl BUILD"
    exit 2
}
"$build/bin/hpls" info --devices 2>&1 | grep -qE '^  device [0-9]+: .*; backend=opencl runs on it' || {
    echo "no usable OpenCL device: skipped"
    exit 77
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$(cd "$tmp" && HPLS_SMOKE_BACKEND=opencl HPLS_SMOKE_QUICK=1 HPLS_SMOKE_OUT="$tmp/report.md" \
    bash "$smoke" "$build" 2>&1)
rc=$?
echo "$out"
fail=0
[ $rc -eq 0 ] || { echo "FAIL: exit $rc"; fail=1; }
[ "$(tail -n 1 <<<"$out")" = "report: $tmp/report.md" ] || { echo "FAIL: the last line is not the report's path"; fail=1; }
if [ -f "$tmp/report.md" ]; then
    check_report "$tmp/report.md" || { echo "FAIL: the report (above)"; sed -n '1,20p' "$tmp/report.md"; fail=1; }
    # the check itself must fail on a failed step and on a SKIP without its reason
    sed -E 's/^(\| suite \|.*\| )PASS( \|)/\1FAIL\2/' "$tmp/report.md" >"$tmp/failed.md"
    sed -E 's/^(\| switches \|.*\| SKIP \| [0-9.]+ s \| ).*/\1 |/' "$tmp/report.md" >"$tmp/noreason.md"
    check_report "$tmp/failed.md" >/dev/null && { echo "FAIL: a FAIL step passes the check"; fail=1; }
    check_report "$tmp/noreason.md" >/dev/null && { echo "FAIL: a SKIP without reason passes the check"; fail=1; }
else
    echo "FAIL: no report written"
    fail=1
fi
[ $fail -eq 0 ] && echo "PASS: every step PASS or SKIP with a reason"
exit $fail
