#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# powerflow.sh: one run of Gauss-Seidel vs PJG power flow (the PJG paper's Sec. 9,
# Table 7) on MATPOWER cases, written to $HPLS_BENCH_OUT/powerflow.md: iterations,
# time (median of REPS runs, default 1: bench/run_all.sh repeats the table), the
# final mismatch, and the agreement with the voltages stored in each case. A run
# longer than CAP seconds is stopped and reported as capped. About 5 minutes.
#
#   bench/powerflow.sh [BUILD_DIR]     (default ./build; configured if needed)
set -euo pipefail
. "$(dirname "$0")/common.sh"
build=${1:-./build}
shared_data data powerflow
build_targets "$build" powerflow
pf="$build/bin/powerflow"
out="$out/powerflow.md"
REPS=${REPS:-1}
CAP=${CAP:-240}
# threads sleep at barriers: on a shared, oversubscribed machine spinning threads make
# each PJG block barrier wait for a descheduled peer (35x slower on case118, load 6)
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
cases="case9 case14 case30 case118 case300 case1354pegase case2736sp"
big_cases="case118 case300"
[ "${HPLS_BENCH_SMOKE:-0}" != 1 ] || cases="case9 case14" big_cases="case14"

# paper CASE: Table 7's GS and PJG iteration counts, or "-"
paper() {
    case $1 in
        case118) echo "282 | 315" ;;
        case300) echo "1537 | 1851" ;;
        case1354pegase) echo "10184 | 11915" ;;
        case2736sp) echo "34766 | 51236" ;;
        *) echo "- | -" ;;
    esac
}

# field KEY: a value from the JSON line on stdin
field() { sed -nE "s/.*\"$1\":\"?([^,\"}]*).*/\1/p"; }

# run CASE REPS ARGS...: one table cell "iterations | median seconds | mismatch"
run() {
    local c=$1 reps=$2
    shift 2
    local times=() line="" k rc
    for ((k = 0; k < reps; k++)); do
        rc=0
        line=$(timeout "$CAP" "$pf" "$data/$c.m" --json "$@") || rc=$?
        if [ "$rc" -eq 124 ]; then echo "capped (> $CAP s) | - | -"; return; fi
        if [ "$rc" -ne 0 ]; then echo "$(field iterations <<<"$line") (not converged) | - | $(field mismatch <<<"$line")"; return; fi
        times+=("$(field seconds <<<"$line")")
    done
    local med
    med=$(printf '%s\n' "${times[@]}" | sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}')
    echo "$(field iterations <<<"$line") | $med | $(field mismatch <<<"$line")"
}

{
    echo "# Power flow: Gauss-Seidel vs PJG (the PJG paper's Sec. 9, Table 7)"
    echo
    echo "One run of \`bench/powerflow.sh\`."
    echo
    echo "\`build/bin/powerflow CASE.m\`: flat start, tolerance 1e-8 p.u. on the largest bus mismatch"
    echo "(|S_calc - S_spec| at PQ buses, |P_calc - P_spec| at PV buses), no acceleration, buses"
    echo "swept PQ first then PV (MATPOWER's gausspf order), PV magnitude reset bus by bus."
    echo "gs: the sequential sweep on one thread. pjg: blocks of psize consecutive buses of that"
    echo "sweep, each block updated in parallel from its old values and the previous blocks' new"
    echo "values (Eqs. 3-5); default psize = half the non-reference buses, the paper's choice."
    echo "Time: the iteration only (median of $REPS runs for cases up to 300 buses, one run above)."
    echo "Each run: iterations, seconds, final mismatch (p.u.). OMP_WAIT_POLICY=$OMP_WAIT_POLICY; a run"
    echo "over $CAP s is stopped (capped)."
    echo
    echo "## GS and PJG (psize = m/2) next to Table 7"
    echo
    echo "| case | buses | paper GS it. | paper PJG it. | gs it. | gs s | gs mism. | pjg m/2 1T it. | s | mism. | pjg m/2 2T it. | s | mism. |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    for c in $cases; do
        [ -f "$data/$c.m" ] || continue
        n=$("$pf" "$data/$c.m" --maxiter 0 --json | field buses || true)
        reps=$REPS
        [ "$n" -gt 300 ] && reps=1
        echo "| $c | $n | $(paper "$c") | $(run "$c" "$reps" --method gs) | $(run "$c" "$reps" --method pjg --threads 1) | $(run "$c" "$reps" --method pjg --threads 2) |"
    done
    echo
    echo "## PJG block size (2 threads)"
    echo
    echo "m = non-reference buses; psize m is Jacobi. (psize 1 gives exactly the gs iterates, with one barrier per bus: not timed.)"
    echo
    echo "| case | m | psize | iterations | seconds | mismatch |"
    echo "|---|---|---|---|---|---|"
    for c in $big_cases; do
        [ -f "$data/$c.m" ] || continue
        line=$("$pf" "$data/$c.m" --maxiter 0 --json || true)
        m=$(($(field pv <<<"$line") + $(field pq <<<"$line")))
        for p in 16 $((m / 8)) $((m / 4)) $(((m + 1) / 2)) "$m"; do
            echo "| $c | $m | $p | $(run "$c" "$REPS" --method pjg --psize "$p" --threads 2) |"
        done
    done
    echo
    echo "## Stored state in the case files"
    echo
    echo "A case carries a solved state when its stored VM, VA satisfy the power-flow equations"
    echo "to 1e-3 p.u. (largest mismatch as above, stored VM at PV buses). dVM, dVA: largest"
    echo "difference between our converged gs solution and the stored values."
    echo
    echo "| case | stored-state mismatch (p.u.) | solved state? | max dVM (p.u.) | max dVA (deg) |"
    echo "|---|---|---|---|---|"
    for c in $cases case39; do
        [ -f "$data/$c.m" ] || continue
        line=$(timeout "$CAP" "$pf" "$data/$c.m" --json || true)
        [ -n "$line" ] || { echo "| $c | capped | | | |"; continue; }
        echo "| $c | $(field stored_mismatch <<<"$line") | $(field stored_solved <<<"$line") | $(field max_dvm <<<"$line") | $(field max_dva_deg <<<"$line") |"
    done
} >"$out"
echo "wrote $out"
