#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# gpu_smoke.sh: the first thing to run on a GPU host (issue 33; docs/gpu.md, "On a
# first GPU host").  The host needs the NVIDIA driver and the bundle of `make
# gpu-bundle` (no CUDA toolkit, no network).  Seven steps, each under a time limit,
# all within HPLS_SMOKE_BUDGET seconds (default 450: under 8 minutes whatever hangs):
#   driver      nvidia-smi's GPUs and driver, else the driver as hpls sees it
#   devices     `hpls info --devices`: the module, the driver, each device
#   suite       the device suite (test_opencl's binary, HPLS_TEST_DEVICE=cuda)
#   iterations  every method's iterations on the device against the ref backend
#   switches    HPLS_CUDA_SPMV=cusparse and HPLS_CUDA_DOT=cublas, where those load
#   memcheck    compute-sanitizer memcheck on one small solve, where present
#   model       bench/gpu_model.py measure on two sizes, rows the model predicts slow left out
# and writes ONE report (Markdown; its path is the last line printed): each step
# PASS, FAIL or SKIP with its reason and time, then what each step saw.
# Exit: 0 no step failed, 1 a step failed, 77 no GPU here (one line says so).
#   scripts/gpu_smoke.sh [DIR]   DIR holds bin/hpls and bin/test_opencl (a bundle's
#                                root or a build folder; default: the bundle this
#                                script sits in, else ./build)
# HPLS_SMOKE_BACKEND=opencl runs every step on the opencl backend instead (PoCL
# pretending to be the target, to try the script where there is no GPU): memcheck
# is then Oclgrind's, the switches (CUDA's) are skipped, the model's sizes small.
# HPLS_SMOKE_QUICK=1: a smaller configuration (the sync-free tests of the suite, the
# methods on smaller matrices, the model on one size), for the ctest gpu_smoke_opencl.
# HPLS_SMOKE_OUT=FILE names the report; HPLS_SMOKE_SANITIZER=PATH a compute-sanitizer.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [ "${1:-}" = --step ]; then
    mode=step
    step_name=$2
    shift 2
else
    mode=main
fi
if [ -n "${1:-}" ]; then
    root=$(cd "$1" && pwd) || exit 2
elif [ -x "$here/../bin/hpls" ]; then
    root=$(cd "$here/.." && pwd)
else
    root=$(cd "$here/../build" 2>/dev/null && pwd) || {
        echo "gpu_smoke.sh: no bundle or build here: give its folder (scripts/gpu_smoke.sh DIR)" >&2
        exit 2
    }
fi
hpls=$root/bin/hpls
suite=$root/bin/test_opencl
model=$here/../bench/gpu_model.py
backend=${HPLS_SMOKE_BACKEND:-cuda}
case $backend in
cuda | opencl) ;;
*)
    echo "gpu_smoke.sh: HPLS_SMOKE_BACKEND=$backend: cuda (the default) or opencl" >&2
    exit 2
    ;;
esac
# a bundle's own copies of the libraries its programs need (make gpu-bundle)
[ -d "$root/lib/deps" ] && export LD_LIBRARY_PATH="$root/lib/deps${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export POCL_MAX_PTHREAD_COUNT=${POCL_MAX_PTHREAD_COUNT:-2} OMP_WAIT_POLICY=passive
quick=${HPLS_SMOKE_QUICK:-0}
if [ "$quick" = 1 ]; then # the matrices of the iterations step: gas, poisson2d, tridiag, 3-D
    ngas=2000 nx2=30 n3=12
else
    ngas=20000 nx2=100 n3=20
fi

# ---- the steps: each prints its details on stdout and its verdict as the last
# line, "PASS|FAIL|SKIP: reason"; run as `gpu_smoke.sh --step NAME` under timeout.

# the target's usable device line of `hpls info --devices`, or nothing
usable_device() {
    if [ "$backend" = cuda ]; then
        grep -m1 -E '^  device [0-9]+: .*usable \(the one backend=cuda' <<<"$1"
    else
        grep -m1 -E '^  device [0-9]+: .*; backend=opencl runs on it' <<<"$1"
    fi
}

step_driver() {
    local devs
    devs=$("$hpls" info --devices 2>&1) || {
        echo "$devs"
        echo "FAIL: $hpls cannot run (a library missing? ldd says:)"
        ldd "$hpls" 2>&1 | grep -i 'not found'
        return
    }
    if [ "$backend" = opencl ]; then
        grep '^opencl' <<<"$devs"
        if [ -n "$(usable_device "$devs")" ]; then
            echo "PASS: opencl mode: an OpenCL platform with a usable device (no NVIDIA driver checked)"
        else echo "FAIL: opencl mode: no usable OpenCL device"; fi
        return
    fi
    local smi=""
    if command -v nvidia-smi >/dev/null; then
        smi=$(nvidia-smi --query-gpu=index,name,driver_version,memory.total,compute_cap \
            --format=csv,noheader 2>&1)
        echo "nvidia-smi: $smi"
    else
        echo "nvidia-smi: not found (the driver is checked through libcuda.so.1 by hpls)"
    fi
    local line
    line=$(grep -m1 -E '^cuda: (kernels|not usable)' <<<"$devs")
    echo "hpls: $line"
    if grep -qE '^cuda: not usable' <<<"$line"; then
        echo "FAIL: the cuda module cannot load: ${line#cuda: not usable: }"
    elif grep -qE 'no driver found|no usable driver' <<<"$line"; then
        echo "FAIL: no usable driver through libcuda.so.1: ${line#cuda: }"
    elif grep -qE '; driver [0-9.]+ found' <<<"$line"; then
        echo "PASS: $(grep -oE 'driver [0-9.]+ found, the module \(runtime [0-9.]+\) needs >= [0-9.]+' <<<"$line")"
    else
        echo "FAIL: hpls info --devices says no driver version: $line"
    fi
}

step_devices() {
    local devs rc
    devs=$("$hpls" info --devices 2>&1)
    rc=$?
    echo "$devs"
    local dev
    dev=$(usable_device "$devs")
    if [ $rc -ne 0 ]; then
        echo "FAIL: hpls info --devices exited $rc"
    elif [ -n "$dev" ]; then
        echo "PASS: $(grep -cE '^  device [0-9]+:' <<<"$devs") device(s) listed; backend=$backend uses ${dev#  }"
    else
        echo "FAIL: no device backend=$backend can use (the lines above say why)"
    fi
}

step_suite() {
    [ -x "$suite" ] || {
        echo "SKIP: $suite is absent (the bundle of make gpu-bundle has it)"
        return
    }
    local tmp out rc
    tmp=$(mktemp -d)
    # the real matrices (../shared/data) are not in a bundle: those tests are left out
    local only='*'
    [ "$quick" != 1 ] || only='*syncfree*'
    out=$(cd "$tmp" && HPLS_TEST_DEVICE=$backend HPLS_TMP=$tmp HPLS_TEST_SKIP='data/*' \
        HPLS_TEST_ONLY=$only "$suite" 2>&1)
    rc=$?
    rm -rf "$tmp"
    grep -E '^(device backend|a GPU is present|skipped:|backend creation)|^\[ *(FAILED|PASSED|ERROR) *\]|^\[=+\]' <<<"$out"
    [ $rc -eq 0 ] || tail -n 60 <<<"$out"
    local n
    n=$(grep -oE '^\[  PASSED  \] [0-9]+' <<<"$out" | grep -oE '[0-9]+$')
    case $rc in
    0) echo "PASS: ${n:-?} tests on $backend (the data/* tests need ../shared/data: left out$(
        [ "$quick" != 1 ] || echo "; HPLS_SMOKE_QUICK=1: the sync-free ones only"))" ;;
    77) echo "FAIL: the suite skipped itself on $backend: $(grep -m1 '^skipped:' <<<"$out")" ;;
    *) echo "FAIL: exit $rc: $(grep -cE '^\[  FAILED  \] [a-z]' <<<"$out") test(s) failed" ;;
    esac
}

# field NAME JSON: a number or word of hpls solve's one-line JSON
field() { grep -oE "\"$1\":(\"[^\"]*\"|[^,}]*)" <<<"$2" | head -1 | sed -E 's/^"[a-z_]+"://; s/"//g'; }

# The methods, as tests/e2e/backend.sh picks their matrices: name, matrix, options
# (pjg's psize and bhisa's blocks given: their defaults differ on a device).  lapack and qtbicgstab stay on the host (refused by name on a device), auto is a choice.
method_cases() {
    local help s p
    help=$("$hpls" solve --help)
    for s in $(awk '/^Solvers/{f=1;next} /^$/{f=0} f{print $1}' <<<"$help"); do
        case $s in
        lapack | qtbicgstab | auto) ;;
        thomas | cr | gspike) echo "$s tridiag:n=$ngas --solver $s" ;;
        cg | minres) echo "$s poisson2d:nx=$nx2 --solver $s" ;;
        pjg) echo "$s gas:n=$ngas,k=2 --solver $s --psize 1000" ;;
        bhisa) echo "$s gas:n=$ngas,k=2 --solver $s --block 512" ;;
        *) echo "$s gas:n=$ngas,k=2 --solver $s" ;;
        esac
    done
    for p in $(awk '/^Preconditioners/{f=1;next} /^$/{f=0} f{print $1}' <<<"$help"); do
        case $p in
        none) ;;
        dic) echo "cg+dic poisson2d:nx=$nx2 --solver cg --precond dic" ;;
        pjg) echo "bicgstab+pjg gas:n=$ngas,k=2 --solver bicgstab --precond pjg --psize 1000" ;;
        btridiag) echo "bicgstab+btridiag gas:n=$ngas,k=2 --solver bicgstab --precond btridiag --block 512" ;;
        *) echo "bicgstab+$p gas:n=$ngas,k=2 --solver bicgstab --precond $p" ;;
        esac
    done
    # the sync-free schedules, the likeliest to hang on a new device (the watchdog's
    # case); small, as a CPU device (opencl mode) runs them slowly (docs/gpu.md)
    echo "bicgstab+dilu(syncfree) poisson3d:nx=$n3 --solver bicgstab --precond dilu --trisolve syncfree"
    echo "bicgstab+ilu0(syncfree) convdiff3d:nx=$n3 --solver bicgstab --precond ilu0 --trisolve syncfree"
    echo "gs(syncfree) convdiff3d:nx=$n3 --solver gs --trisolve syncfree"
}

# Within one iteration of ref, converged alike, the true residual within tol: what
# test_opencl asks of every method on these generated matrices.
step_iterations() {
    local name gen opts ref dev rit dit rconv dconv drel dbe nfail=0 ncase=0 err
    echo "| method | matrix | ref iterations | $backend iterations | $backend relres | verdict |"
    echo "|---|---|---:|---:|---:|---|"
    while read -r name gen opts; do
        ncase=$((ncase + 1))
        # shellcheck disable=SC2086 # opts is a word list
        ref=$("$hpls" solve --gen "$gen" $opts --backend ref --json 2>/dev/null)
        # shellcheck disable=SC2086
        dev=$("$hpls" solve --gen "$gen" $opts --backend "$backend" --json 2>"$tmp_err")
        rit=$(field iterations "$ref") dit=$(field iterations "$dev")
        rconv=$(field converged "$ref") dconv=$(field converged "$dev")
        drel=$(field relres "$dev") dbe=$(field backend "$dev")
        err=$(grep -m1 -v '^$' "$tmp_err" | cut -c1-300)
        verdict=ok
        if [ -z "$rit" ]; then
            verdict="ref gave no answer"
        elif [ "$dbe" != "$backend" ]; then
            verdict="not run on $backend: ${err:-no JSON}"
        elif [ "$rconv" != "$dconv" ]; then
            verdict="converged=$dconv, ref's $rconv"
        elif [ "$dconv" = true ] && ! awk -v r="$drel" 'BEGIN { exit !(r <= 1e-8) }'; then
            verdict="relres $drel above tol"
        elif [ $((dit > rit ? dit - rit : rit - dit)) -gt 1 ]; then
            verdict="more than one iteration from ref"
        fi
        [ "$verdict" = ok ] || nfail=$((nfail + 1))
        echo "| $name | $gen | ${rit:--} | ${dit:--} | ${drel:--} | $verdict |"
    done < <(method_cases)
    echo ""
    if [ $nfail -eq 0 ]; then
        echo "PASS: $ncase methods within one iteration of ref, converged alike"
    else
        echo "FAIL: $nfail of $ncase methods off (the table says how)"
    fi
}

step_switches() {
    if [ "$backend" != cuda ]; then
        echo "SKIP: HPLS_CUDA_SPMV and HPLS_CUDA_DOT are the cuda backend's (opencl mode)"
        return
    fi
    local gen="poisson3d:nx=40" opts="--solver bicgstab --precond jacobi" base sw bit it be err
    # shellcheck disable=SC2086
    base=$("$hpls" solve --gen $gen $opts --backend cuda --json 2>/dev/null)
    bit=$(field iterations "$base")
    echo "default kernels: $bit iterations, relres $(field relres "$base")"
    local ran=0 skipped="" failed=""
    for sw in HPLS_CUDA_SPMV=cusparse HPLS_CUDA_DOT=cublas; do
        # shellcheck disable=SC2086
        out=$(env "$sw" "$hpls" solve --gen $gen $opts --backend cuda --json 2>"$tmp_err")
        it=$(field iterations "$out") be=$(field backend "$out")
        err=$(grep -m1 'cuda backend' "$tmp_err" | cut -c1-300)
        echo "$sw: backend ${be:-none}, $it iterations, relres $(field relres "$out") ${err:+($err)}"
        if grep -q 'which cannot be loaded' <<<"$err"; then
            skipped+="${skipped:+; }$sw: ${err#hpls: }"
        elif [ "$be" != cuda ] || [ "$(field converged "$out")" != true ] ||
            [ -z "$bit" ] || [ $((it > bit ? it - bit : bit - it)) -gt 1 ]; then
            failed+="${failed:+; }$sw: ${err:-$it iterations against $bit}"
        else
            ran=$((ran + 1))
        fi
    done
    if [ -n "$failed" ]; then
        echo "FAIL: $failed"
    elif [ $ran -eq 0 ]; then
        echo "SKIP: neither library loads here: $skipped"
    else
        echo "PASS: $ran switch(es) within one iteration of the default kernels${skipped:+; skipped: $skipped}"
    fi
}

step_memcheck() {
    local gen="poisson2d:nx=12" opts="--solver bicgstab --precond dilu --trisolve levels --maxiter 20"
    local out rc log
    log=$(mktemp)
    if [ "$backend" = opencl ]; then
        command -v oclgrind >/dev/null || {
            echo "SKIP: opencl mode: oclgrind (the stand-in for compute-sanitizer) is not installed"
            return
        }
        # shellcheck disable=SC2086
        out=$(oclgrind --log "$log" "$hpls" solve --gen $gen $opts --backend opencl --json 2>&1)
        rc=$?
        echo "$out"
        head -n 40 "$log"
        if [ $rc -eq 0 ] && [ ! -s "$log" ] && [ "$(field backend "$out")" = opencl ]; then
            echo "PASS: opencl mode: Oclgrind reports nothing on a small solve ($gen, bicgstab + dilu)"
        else
            echo "FAIL: Oclgrind: exit $rc, $(wc -l <"$log") line(s) of report"
        fi
        rm -f "$log"
        return
    fi
    local cs=${HPLS_SMOKE_SANITIZER:-}
    [ -n "$cs" ] || cs=$(command -v compute-sanitizer || true)
    [ -n "$cs" ] || { [ -x /usr/local/cuda/bin/compute-sanitizer ] && cs=/usr/local/cuda/bin/compute-sanitizer; }
    if [ -z "$cs" ]; then
        echo "SKIP: compute-sanitizer not found (it comes with the CUDA toolkit; HPLS_SMOKE_SANITIZER=PATH names one)"
        return
    fi
    # shellcheck disable=SC2086
    out=$("$cs" --tool memcheck --leak-check no --error-exitcode 9 \
        "$hpls" solve --gen $gen $opts --backend cuda --json 2>&1)
    rc=$?
    tail -n 40 <<<"$out"
    rm -f "$log"
    if [ $rc -eq 0 ] && grep -q 'ERROR SUMMARY: 0 errors' <<<"$out" && grep -q '"backend":"cuda"' <<<"$out"; then
        echo "PASS: memcheck reports 0 errors on a small solve ($gen, bicgstab + dilu)"
    else
        echo "FAIL: memcheck: exit $rc, $(grep -m1 'ERROR SUMMARY' <<<"$out" || echo 'no summary')"
    fi
}

step_model() {
    command -v python3 >/dev/null || {
        echo "SKIP: python3 not found (bench/gpu_model.py needs it)"
        return
    }
    [ -f "$model" ] || {
        echo "SKIP: $model is absent"
        return
    }
    local devs line device args out rc
    devs=$("$hpls" info --devices 2>&1)
    line=$(usable_device "$devs")
    if [ "$backend" = cuda ]; then
        device=$(sed -E 's/^  device [0-9]+: (.*), compute capability.*/\1/' <<<"$line")
        # n = 1e5 and 1e6, 50 iterations; a row the model predicts over 5 s on this
        # device is left out (DILU and GS on gas: a chain of n rows)
        args=(--sizes "100000,1000000" --its 50 --row-limit 5)
    else
        device=$(sed -E 's/^  device [0-9]+: (.*) \([A-Za-z]+\), [0-9]+ compute units.*/\1/' <<<"$line")
        args=(--smoke --sizes "4000,20000")
        [ "$quick" != 1 ] || args=(--smoke --sizes 4000)
    fi
    [ -z "${HPLS_BENCH_GPU_BW:-}" ] || args+=(--bw "$HPLS_BENCH_GPU_BW")
    # row by row: a step stopped by its limit still shows the rows done
    python3 "$model" measure "$root" --backend "$backend" --device "${device:-unknown}" \
        --row-timeout 20 "${args[@]}" 2>&1 | tee "$tmp_err"
    rc=${PIPESTATUS[0]}
    out=$(cat "$tmp_err")
    local rows bad
    rows=$(grep -cE '^\| [A-Z]' <<<"$out")
    bad=$(grep -cE '\| (not on the device|failed[^|]*|timed out[^|]*) \|' <<<"$out")
    if [ $rc -ne 0 ]; then
        echo "FAIL: gpu_model.py measure exited $rc"
    elif [ "$bad" -gt 0 ]; then
        echo "FAIL: $bad of $rows rows did not run on $backend (the table says which)"
    else
        echo "PASS: $rows rows measured or left out by the model's prediction"
    fi
}

if [ $mode = step ]; then
    tmp_err=$(mktemp)
    trap 'rm -f "$tmp_err"' EXIT
    "step_$step_name"
    exit 0
fi

# ---- main: is there a GPU?  then the steps, each under its limit, and the report.
if [ "$backend" = cuda ]; then
    seen=""
    if nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
        seen="nvidia-smi -L"
    elif [ -e /dev/nvidia0 ]; then
        seen=/dev/nvidia0
    elif "$hpls" info --devices 2>/dev/null | grep -qE '^  device [0-9]+: .*compute capability'; then
        seen="libcuda.so.1 (hpls info --devices)"
    fi
    if [ -z "$seen" ]; then
        echo "gpu_smoke.sh: no NVIDIA GPU here (nvidia-smi -L lists none, no /dev/nvidia0, libcuda.so.1 lists no device): nothing run (HPLS_SMOKE_BACKEND=opencl tries the steps on opencl)"
        exit 77
    fi
fi
[ -x "$hpls" ] || {
    echo "gpu_smoke.sh: $hpls is absent (make gpu-bundle builds the bundle)" >&2
    exit 2
}
start=$(date +%s)
budget=${HPLS_SMOKE_BUDGET:-450}
report=${HPLS_SMOKE_OUT:-$PWD/gpu_smoke_$(hostname -s 2>/dev/null || echo host)_$(date -u +%Y%m%dT%H%M%SZ).md}
details=$(mktemp)
summary=$(mktemp)
trap 'rm -f "$details" "$summary"' EXIT
nfail=0

# run_step NAME LIMIT WHAT: the step under min(LIMIT, what is left of the budget)
run_step() {
    local name=$1 limit=$2 what=$3 left t0 out rc verdict secs
    left=$((budget - ($(date +%s) - start)))
    [ "$limit" -le "$left" ] || limit=$left
    t0=$(date +%s.%N)
    if [ "$limit" -lt 5 ]; then
        out="" verdict="FAIL: not run: the budget of ${budget} s is spent" rc=0
    else
        out=$(timeout -k 5 "$limit" bash "$0" --step "$name" "$root" 2>&1)
        rc=$?
        verdict=$(tail -n 1 <<<"$out")
        grep -qE '^(PASS|FAIL|SKIP): ' <<<"$verdict" && out=$(sed '$d' <<<"$out")
        if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
            verdict="FAIL: timed out after ${limit} s (the step's limit)"
        elif ! grep -qE '^(PASS|FAIL|SKIP): ' <<<"$verdict"; then
            verdict="FAIL: the step ended without a verdict (exit $rc): $(cut -c1-200 <<<"$verdict")"
        fi
    fi
    secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    case $verdict in FAIL*) nfail=$((nfail + 1)) ;; esac
    printf '%-10s %-4s %6s s  %s\n' "$name" "${verdict%%:*}" "$secs" "${verdict#*: }"
    echo "| $name | $what | ${verdict%%:*} | $secs s | ${verdict#*: } |" >>"$summary"
    {
        echo "## $name: ${verdict%%:*} ($secs s, limit $limit s)"
        echo ""
        echo "${verdict#*: }"
        echo ""
        if [ -n "$out" ]; then
            case $name in iterations | model) echo "$out" ;; *) printf '```\n%s\n```\n' "$out" ;; esac
        fi
        echo ""
    } >>"$details"
}

echo "gpu_smoke.sh: backend $backend, $root, budget $budget s"
run_step driver 20 "the NVIDIA driver (nvidia-smi; libcuda.so.1 through hpls)"
run_step devices 30 "hpls info --devices"
run_step suite 140 "the device suite (test_opencl, HPLS_TEST_DEVICE=$backend)"
run_step iterations 110 "every method's iterations against ref"
run_step switches 30 "HPLS_CUDA_SPMV=cusparse, HPLS_CUDA_DOT=cublas"
run_step memcheck 40 "$([ "$backend" = cuda ] && echo "compute-sanitizer memcheck" || echo "Oclgrind"), one small solve"
run_step model 80 "bench/gpu_model.py measure"
total=$(($(date +%s) - start))
{
    echo "# hpls GPU smoke test: $([ $nfail -eq 0 ] && echo "no step failed" || echo "$nfail step(s) FAILED")"
    echo ""
    echo "- date: $(date -u '+%Y-%m-%d %H:%M:%S UTC'), $total s of a $budget s budget"
    echo "- host: $(hostname 2>/dev/null), $(uname -srm), glibc $(ldd --version 2>/dev/null | head -1 | grep -oE '[0-9.]+$')"
    echo "- backend: $backend$([ "$backend" = opencl ] && echo " (HPLS_SMOKE_BACKEND=opencl: NOT a GPU run)")"
    echo "- build: $root$([ -f "$root/MANIFEST.txt" ] && echo ", $(head -1 "$root/MANIFEST.txt")")"
    echo "- hpls: $("$hpls" --version 2>&1 | head -1)"
    echo ""
    echo "| step | what | result | time | reason |"
    echo "|---|---|---|---:|---|"
    cat "$summary"
    echo ""
    cat "$details"
} >"$report"
echo "report: $report"
[ $nfail -eq 0 ]
