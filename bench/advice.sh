#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# advice.sh: one run of the advice table: for every matrix of
# $HPLS_DATA_DIR/matrices (default ../shared/data relative to the repository),
# the method `hpls info` advises against the fastest of a menu of methods, each
# solved by `hpls solve --threads 1 --tol 1e-8 --maxiter 2000` (b = A 1);
# written to $HPLS_BENCH_OUT/advice.md.
#   bench/advice.sh [BUILD_DIR]
set -euo pipefail
. "$(dirname "$0")/common.sh"
build=${1:-./build}
build_targets "$build" hpls_cmd
hpls=$build/bin/hpls
shared_data data matrices required
menu="cg:jacobi cg:dic bicgstab:none bicgstab:jacobi bicgstab:ilu0 bicgstab:dilu bicgstab:tridiag gmres:ilu0 hisa:none"
files=("$data"/*.mtx "$data"/*.mtx.gz)
[ "${HPLS_BENCH_SMOKE:-0}" != 1 ] || files=("$data"/sherman3.mtx "$data"/lis_testmat2.mtx "$data"/west0479.mtx)
common=(--threads 1 --tol 1e-8 --maxiter 2000 --json)

# solve FILE OPTIONS...: "converged iterations milliseconds" or "no <status>"
solve() {
    local f=$1 json rc=0
    shift
    json=$("$hpls" solve "$f" "$@" "${common[@]}" 2>"$out/err.txt") || rc=$?
    if grep -q "bad value" "$out/err.txt"; then
        echo "no - - unknown_option"
        return
    elif [ -z "$json" ]; then
        echo "no - - setup_refused"
        return
    fi
    python3 -c 'import json, sys
d = json.loads(sys.argv[1])
ms = 1000 * (d["setup_s"] + d["solve_s"])
print("yes" if d["converged"] else "no", d["iterations"], f"{ms:.3f}", d["status"].replace(" ", "_"))' "$json"
}

rows=$out/rows.txt
: >"$rows"
nadv=0 nconv=0 nbest=0 nmissing=0
for f in "${files[@]}"; do
    [ -e "$f" ] || continue
    m=$(basename "$f")
    m=${m%.gz}
    m=${m%.mtx}
    advice=$("$hpls" info "$f" | sed -n 's/^advice *//p')
    advice=${advice%% (*} # "--solver hisa (or bhisa ...)": the first choice
    if [[ $advice == none:* ]]; then # no candidate converged in hpls info's own trials
        aok=no ait=- ams=- astat=none_of_the_advice_converged
    else
        # shellcheck disable=SC2086
        read -r aok ait ams astat <<<"$(solve "$f" $advice)"
    fi
    best="" bit="" bms=""
    for c in $menu; do
        read -r ok it ms _ <<<"$(solve "$f" --solver "${c%:*}" --precond "${c#*:}")"
        [ "$ok" = yes ] || continue
        if [ -z "$bms" ] || awk -v a="$ms" -v b="$bms" 'BEGIN { exit !(a < b) }'; then
            best=${c/:/+} bit=$it bms=$ms
        fi
    done
    nadv=$((nadv + 1))
    if [ "$aok" = yes ]; then
        nconv=$((nconv + 1))
        ratio=-
        [ -z "$bms" ] || ratio=$(awk -v a="$ams" -v b="$bms" 'BEGIN { printf "%.2f", a / b }')
        # the advice is the best when no method of the menu beats it by 10%
        if [ -z "$bms" ] || awk -v a="$ams" -v b="$bms" 'BEGIN { exit !(a <= 1.1 * b) }'; then
            nbest=$((nbest + 1))
        fi
        acell="$ait | $ams"
    elif [ "$astat" = unknown_option ]; then
        nmissing=$((nmissing + 1))
        ratio=- acell="not run: option unknown to this build | -"
    else
        ratio=- acell="${astat//_/ } | -"
    fi
    echo "| $m | \`$advice\` | $acell | ${best:-none converged} | ${bit:--} | ${bms:--} | $ratio |" >>"$rows"
done
{
    echo "# hpls info's advice against the fastest of a menu"
    echo
    echo "For every matrix of ../shared/data/matrices: the method \`hpls info\` advises (the first of its ranked candidates that converged in its own trials on b = A 1, tol 1e-8, maxiter 2000; none when no candidate did), and every method of the menu ($(echo "$menu" | sed 's/:/+/g; s/ /, /g')), each solved by \`hpls solve A --threads 1 --tol 1e-8 --maxiter 2000 --json\` (b = A 1, x0 = 0).  Times are setup + solve in ms.  *advised / best*: the advised method's time over the fastest converged method of the menu (the advice itself may be in the menu).  Advice that needs an option this build does not have (\`--reorder matching\`, from the matching work of issue 15) is listed as not run."
    echo
    echo "Of $nadv matrices: the advice converged on $nconv, was within 10% of the fastest on $nbest, and could not run on $nmissing (option unknown to this build)."
    echo
    echo "| matrix | advice | advised: iterations | advised: ms | fastest of the menu | its iterations | its ms | advised / best |"
    echo "|---|---|---:|---:|---|---:|---:|---:|"
    cat "$rows"
} >"$out/advice.md"
cat "$out/advice.md"
