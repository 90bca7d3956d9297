#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# run_all.sh: every benchmark table of hpls (`make bench` runs it).
#
#   bench/run_all.sh [BUILD_DIR] [TABLE...]
#       BUILD_DIR defaults to ./build (configured if needed).  TABLE names a table
#       script of bench/ without .sh (default: all of them, in this order):
#       kernels prefetch petsc peers trisolve small gmres bicgstabl backend mmread scipy_krylov tridiag_accuracy tridiag hisa_tables pjg
#       pjg_sparse powerflow qtree dilu many_rhs update_values matching loaded
#       stagnation advice gpu_model gspike_device python cuda_resources mpi spike_mpi repro
#       mpi_model openfoam.  Tables that need a GPU run only when named (they refuse to run without
#       one): cuda_switch, gpu_measured (`make bench-gpu`).
#
# Each table is run HPLS_BENCH_REPS times in full (a repetition is one whole run of
# its script, waiting for a quiet machine first), except the tables that time
# nothing (exact: tridiag_accuracy), whose figures the load cannot change: those
# run once, without the wait, and say so in their head; every repetition's Markdown is
# kept as the CSV bench/results/<table>.csv, with the machine, the load before and
# after each run and the peers' versions, and bench/results/<table>.md is rendered
# from it by bench/tables.py (each cell the median of its runs, [min-max] after it).
# Then docs/performance.md's figures and README.md's headline figures are
# regenerated (bench/readme_figures.py),
# and docs/gpu_model.md's tables when gpu_model ran (bench/gpu_model.py doc), and
# docs/mpi_model.md's tables and mpi_model.png when mpi_model ran (bench/mpi_model.py).
# A table whose run fails is not published: its files in bench/results stay as
# they were, and the script exits 1 after the other tables.
#
# Knobs (environment):
#   HPLS_BENCH_REPS=5          runs of every table (each cell a median of that many)
#   HPLS_BENCH_QUIET_LOAD=0.5  before each run, wait until the 1-minute load average
#   HPLS_BENCH_MAX_WAIT=1800   is below this, but at most this many seconds
#   HPLS_BENCH_RESULTS=DIR     publish there instead of bench/results (README.md and
#                              docs/performance.md are then left alone)
#   HPLS_BENCH_SMOKE=1         tiny sizes, to try the machinery (never publish these
#                              into bench/results: the driver refuses)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
build=$(realpath -m "${1:-./build}")
shift $(($# > 0 ? 1 : 0))
all="kernels prefetch petsc peers trisolve small gmres bicgstabl backend mmread scipy_krylov tridiag_accuracy tridiag hisa_tables pjg pjg_sparse powerflow qtree dilu many_rhs update_values matching loaded stagnation advice gpu_model gspike_device python cuda_resources mpi spike_mpi repro mpi_model openfoam"
gpu_only="cuda_switch gpu_measured"
# tables that time nothing: deterministic figures, one run, no quiet-machine wait
exact="tridiag_accuracy"
tables=${*:-$all}
reps=${HPLS_BENCH_REPS:-5}
quiet_load=${HPLS_BENCH_QUIET_LOAD:-0.5}
max_wait=${HPLS_BENCH_MAX_WAIT:-1800}
results=$(realpath -m "${HPLS_BENCH_RESULTS:-$here/results}")
work=${TMPDIR:-/tmp}/hpls_bench/runs
python=$(command -v python3 || true)

die() {
    echo "run_all.sh: $*" >&2
    exit 2
}
[ -n "$python" ] || die "python3 is needed (scripts/deps.sh installs it)"
[[ $reps =~ ^[1-9][0-9]*$ ]] || die "HPLS_BENCH_REPS must be a positive integer, not '$reps'"
for t in $tables; do
    [[ " $all $gpu_only " == *" $t "* ]] || die "unknown table '$t' (tables: $all $gpu_only)"
done
if [ "${HPLS_BENCH_SMOKE:-0}" = 1 ] && [ "$results" = "$(realpath -m "$here/results")" ]; then
    die "HPLS_BENCH_SMOKE=1 needs HPLS_BENCH_RESULTS=DIR: tiny sizes are never published"
fi
mkdir -p "$results" "$work"

[ -f "$build/CMakeCache.txt" ] || cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release
cmake --build "$build" -j"$(nproc)" >/dev/null # bench_hisa_tables among them: the triad of machine_meta

load1() { cut -d' ' -f1 /proc/loadavg; }

# wait_quiet: until the 1-minute load is below the threshold (at most max_wait s)
wait_quiet() {
    local waited=0
    while awk -v lim="$quiet_load" '{ exit !($1 >= lim) }' /proc/loadavg &&
        [ "$waited" -lt "$max_wait" ]; do
        sleep 10
        waited=$((waited + 10))
    done
}

# machine_meta [exact]: the machine, compiler and commit; the triad too unless
# the table times nothing (exact: no bandwidth run on a machine that may be busy)
machine_meta() {
    local caches="" d
    for d in /sys/devices/system/cpu/cpu0/cache/index*; do
        [ -r "$d/level" ] || continue
        caches+="L$(cat "$d/level") $(cat "$d/type") $(cat "$d/size") (CPUs $(cat "$d/shared_cpu_list")); "
    done
    echo "cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1) ($(sed -n 's/^vendor_id[[:space:]]*: //p' /proc/cpuinfo | head -1) family $(sed -n 's/^cpu family[[:space:]]*: //p' /proc/cpuinfo | head -1) model $(sed -n 's/^model[[:space:]]*: //p' /proc/cpuinfo | head -1) stepping $(sed -n 's/^stepping[[:space:]]*: //p' /proc/cpuinfo | head -1)), nproc $(nproc), $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)"
    echo "caches=${caches%; }"
    echo "compiler=$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt") $("$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")" -dumpfullversion 2>/dev/null) ($(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$build/CMakeCache.txt")), OMP_PROC_BIND=close OMP_PLACES=cores"
    echo "commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$root" diff --quiet HEAD -- src include tools bench 2>/dev/null || echo ' (work tree differs)')"
    [ "${1:-}" != exact ] || return 0
    local t1 t2
    t1=$("$build/bin/bench_hisa_tables" triad 1 | sed -n 's/.*triad_gbs=\([^ ]*\).*/\1/p')
    t2=$("$build/bin/bench_hisa_tables" triad 2 | sed -n 's/.*triad_gbs=\([^ ]*\).*/\1/p')
    echo "triad=$t1 GB/s at 1 thread, $t2 GB/s at 2 (bench_hisa_tables triad T, 24 B per entry, measured as the table was published)"
}

# run_table NAME: HPLS_BENCH_REPS runs of bench/NAME.sh, then publish its tables
run_table() {
    local name=$1 dir=$work/$1 r meta start md base reps=$reps kind=""
    [[ " $exact " != *" $name "* ]] || { reps=1 kind=exact; }
    rm -rf "$dir"
    mkdir -p "$dir"
    meta=$dir/meta
    start=$(date -u '+%Y-%m-%d %H:%M UTC')
    for ((r = 1; r <= reps; r++)); do
        [ -n "$kind" ] || wait_quiet
        echo "rep$r.load_before=$(load1)" >>"$meta"
        echo "[$(date +%T)] $name: run $r of $reps (load $(load1))"
        if ! HPLS_BENCH_OUT=$dir/rep$r bash "$here/$name.sh" "$build" >"$dir/rep$r.log" 2>&1; then
            echo "run_all.sh: $name, run $r failed (log: $dir/rep$r.log); its tables are not published" >&2
            tail -5 "$dir/rep$r.log" >&2
            return 1
        fi
        echo "rep$r.load_after=$(load1)" >>"$meta"
    done
    {
        echo "command=bench/run_all.sh BUILD_DIR $name (HPLS_BENCH_REPS=$reps)"
        echo "date=$start to $(date -u '+%H:%M UTC')"
        machine_meta $kind
        [ ! -s "$dir/rep1/peers.txt" ] || echo "peers=$(paste -sd ';' "$dir/rep1/peers.txt" | sed 's/;/; /g')"
        if [ -z "$kind" ]; then
            echo "quiet_load=$quiet_load"
        else
            echo "exact=1"
            echo "note=no timing in this table: its figures are the same on every run at a fixed thread count, whatever the load, so the driver runs it once, without waiting for a quiet machine and without the triad"
        fi
        [ "${HPLS_BENCH_SMOKE:-0}" != 1 ] || echo "note=SMOKE RUN (HPLS_BENCH_SMOKE=1): tiny sizes, not figures"
    } >>"$meta"
    for md in "$dir"/rep1/*.md; do
        base=$(basename "$md" .md)
        "$python" "$here/tables.py" collect "$dir/$base.csv" "$meta" "$dir"/rep*/"$base.md"
        "$python" "$here/tables.py" render "$dir/$base.csv" "$dir/$base.md"
    done
    # publish only when every table of the script rendered
    for md in "$dir"/rep1/*.md; do
        base=$(basename "$md" .md)
        mv "$dir/$base.csv" "$results/$base.csv"
        mv "$dir/$base.md" "$results/$base.md"
        echo "wrote $results/$base.md"
    done
    for md in "$dir/rep$reps"/*.png; do
        [ -e "$md" ] && cp "$md" "$results/"
    done
    return 0
}

failed=""
for t in $tables; do
    run_table "$t" || failed+=" $t"
done

readme=$root/README.md perfdoc=$root/docs/performance.md
if [ "$results" != "$(realpath -m "$here/results")" ]; then
    # smoke runs: show the sections they would give, without touching the repository's
    cp "$root/README.md" "$work/README.md"
    cp "$root/docs/performance.md" "$work/performance.md"
    readme=$work/README.md perfdoc=$work/performance.md
fi
if "$python" "$here/readme_figures.py" --write --results "$results" --doc "$perfdoc" --readme "$readme"; then
    echo "wrote the figures of $perfdoc and $readme"
else
    failed+=" docs/performance.md"
fi
# docs/gpu_model.md's tables are the rendering of gpu_model.csv (ctest docs_gpu_model)
if [[ " $tables " == *" gpu_model "* ]] && [ "$results" = "$(realpath -m "$here/results")" ]; then
    "$python" "$here/gpu_model.py" doc --write --results "$results" --doc "$root/docs/gpu_model.md" ||
        failed+=" docs/gpu_model.md"
fi
# docs/mpi_model.md's tables are the rendering of mpi_model.csv (ctest docs_mpi_model);
# its plot is made from the same medians
if [[ " $tables " == *" mpi_model "* ]] && [[ " $failed " != *" mpi_model "* ]]; then
    "$python" "$here/mpi_model.py" plot --results "$results" || failed+=" mpi_model.png"
    if [ "$results" = "$(realpath -m "$here/results")" ]; then
        "$python" "$here/mpi_model.py" doc --write --results "$results" --doc "$root/docs/mpi_model.md" ||
            failed+=" docs/mpi_model.md"
    fi
fi
[ -z "$failed" ] || { echo "run_all.sh: not published:$failed" >&2; exit 1; }
