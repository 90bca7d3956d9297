#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# loaded.sh: one run of the tables of a machine that is not ours alone (issue 15):
#  - threads_crossover.md: BiCGSTAB seconds per iteration at 1 and 2 threads on
#    gas and poisson3d, n = 1e3 .. 1e6, beside the thread count threads=0 picks;
#  - loaded.md: the whole solve (setup + solve) of gas 1e6 k=3 and poisson3d
#    100^3 with bicgstab + dilu / ilu0 by every trisolve strategy, at 1 and 2
#    threads, with the machine to itself and with a competing process
#    (bench/stream_load.c: one thread running the STREAM triad, pinned to the
#    last core), and the OpenMP wait policy the command sets (passive) against
#    OMP_WAIT_POLICY=active.
# Written to $HPLS_BENCH_OUT; bench/run_all.sh repeats it and publishes
# bench/results/{threads_crossover,loaded}.md.
#   bench/loaded.sh [BUILD_DIR]
set -euo pipefail
. "$(dirname "$0")/common.sh"
build=${1:-./build}
build_targets "$build" hpls_cmd stream_load
hpls=$build/bin/hpls
# A user's run is not pinned: the scheduler may move threads away from the
# competitor's core (common.sh pins them for the other tables).
unset OMP_PROC_BIND OMP_PLACES
last_core=$(($(nproc) - 1))
timeout_s=${HPLS_BENCH_TIMEOUT:-60}

cross_gas="1000 3000 10000 30000 100000 300000 1000000"
cross_p3d="10 15 22 32 46 68 100"
big=("gas:n=1000000,k=3" "poisson3d:nx=100")
if [ "${HPLS_BENCH_SMOKE:-0}" = 1 ]; then
    cross_gas="1000 10000" cross_p3d="10 22" big=("gas:n=20000,k=3" "poisson3d:nx=20")
fi

# field JSON KEY: a number of hpls's --json line
field() { sed -n "s/.*\"$2\":\\([^,}]*\\).*/\\1/p" <<<"$1"; }

# solve_json ARGS...: hpls solve --json's line ("" when it failed or timed out)
solve_json() {
    timeout "$timeout_s" "$hpls" solve --json "$@" 2>/dev/null | tail -1 || true
}

load_pid=""
load_start() {
    if command -v taskset >/dev/null; then
        taskset -c "$last_core" "$build/bin/stream_load" >/dev/null &
    else
        "$build/bin/stream_load" >/dev/null &
    fi
    load_pid=$!
    sleep 0.5 # its arrays written: it is at full speed
}
load_stop() {
    [ -z "$load_pid" ] || { kill "$load_pid" 2>/dev/null || true; wait "$load_pid" 2>/dev/null || true; }
    load_pid=""
}
trap load_stop EXIT

# ---- threads_crossover.md ----
# per_it SPEC THREADS ITERS: microseconds per BiCGSTAB iteration (tol 0: all ITERS run)
per_it() {
    local j
    j=$(solve_json --gen "$1" --solver bicgstab --tol 0 --stag_window 0 --maxiter "$3" --threads "$2")
    [ -n "$j" ] || { echo "-"; return; }
    awk -v s="$(field "$j" solve_s)" -v k="$(field "$j" iterations)" 'BEGIN { printf "%.1f", 1e6 * s / k }'
}
{
    echo "# Threads: where two beat one (BiCGSTAB, no preconditioner)"
    echo
    echo "\`hpls solve --gen SPEC --solver bicgstab --tol 0 --stag_window 0 --maxiter M --threads T --json\`: microseconds per iteration (solve_s / iterations; M gives about 2e8 nonzeros read per run).  *auto*: the threads \`threads=0\` (the default) runs on, as the solver reports it (\`\"threads\"\` of --json).  Not pinned; OMP_WAIT_POLICY as the command sets it (passive)."
    echo
    echo "| matrix | n | nnz | µs/it 1 thread | µs/it 2 threads | 2 threads / 1 | auto: threads |"
    echo "|---|---:|---:|---:|---:|---:|---:|"
    specs=()
    for n in $cross_gas; do specs+=("gas:n=$n,k=1"); done
    for nx in $cross_p3d; do specs+=("poisson3d:nx=$nx"); done
    for spec in "${specs[@]}"; do
        j=$(solve_json --gen "$spec" --solver bicgstab --maxiter 1)
        n=$(field "$j" n) nnz=$(field "$j" nnz) auto=$(field "$j" threads)
        iters=$(awk -v z="$nnz" 'BEGIN { m = int(2e8 / z); print m < 20 ? 20 : (m > 20000 ? 20000 : m) }')
        t1=$(per_it "$spec" 1 "$iters")
        t2=$(per_it "$spec" 2 "$iters")
        ratio=$(awk -v a="$t1" -v b="$t2" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2f", b / a; else print "-" }')
        echo "| $spec | $n | $nnz | $t1 | $t2 | $ratio | $auto |"
    done
} >"$out/threads_crossover.md"

# ---- loaded.md ----
# whole SPEC PC TRISOLVE THREADS: setup + solve seconds ("-": failed or timed out)
whole() {
    local j
    j=$(solve_json --gen "$1" --solver bicgstab --precond "$2" --trisolve "$3" --threads "$4")
    [ -n "$j" ] || { echo "-"; return; }
    awk -v a="$(field "$j" setup_s)" -v b="$(field "$j" solve_s)" 'BEGIN { printf "%.3f", a + b }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2f", b / a; else print "-" }'; }
{
    echo "# Under load: the whole solve with another process on the machine"
    echo
    echo "\`hpls solve --gen SPEC --solver bicgstab --precond PC --trisolve S --threads T --json\`: setup_s + solve_s in seconds (tol 1e-8).  *loaded*: bench/stream_load (one thread, STREAM triad over 3 x 64 MiB) runs pinned to core $last_core during the solve; hpls is not pinned.  *2 thr / 1 thr loaded*: the 2-thread time under load over the 1-thread time under load (trisolve=auto at 1 thread), the goal being at most 1.5.  Row *auto, policy active*: the same run with OMP_WAIT_POLICY=active (libgomp spins at barriers; the command otherwise sets passive).  \`-\`: failed or over ${timeout_s} s."
    echo
    echo "| matrix | precond | trisolve | threads | quiet s | loaded s | loaded / quiet | 2 thr / 1 thr loaded |"
    echo "|---|---|---|---:|---:|---:|---:|---:|"
    for spec in "${big[@]}"; do
        for pc in dilu ilu0; do
            one_loaded=""
            for run in "auto 1" "auto 2" "serial 2" "syncfree 2" "levels 2" "auto 2 active"; do
                read -r ts t pol <<<"$run"
                if [ -n "${pol:-}" ]; then
                    q=$(OMP_WAIT_POLICY=active whole "$spec" "$pc" "$ts" "$t")
                    load_start
                    l=$(OMP_WAIT_POLICY=active whole "$spec" "$pc" "$ts" "$t")
                    load_stop
                    label="$ts, policy active"
                else
                    q=$(whole "$spec" "$pc" "$ts" "$t")
                    load_start
                    l=$(whole "$spec" "$pc" "$ts" "$t")
                    load_stop
                    label=$ts
                fi
                [ "$t" = 2 ] || one_loaded=$l
                vs1="-"
                [ "$t" = 1 ] || vs1=$(ratio "$one_loaded" "$l")
                echo "| $spec | $pc | $label | $t | $q | $l | $(ratio "$q" "$l") | $vs1 |"
            done
        done
    done
} >"$out/loaded.md"
cat "$out/threads_crossover.md" "$out/loaded.md"
