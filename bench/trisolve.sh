#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# trisolve.sh: one run of the table that sets trisolve=auto's rule on the host:
# the factored preconditioners (ilu0, dilu, dic) at 2 threads by each strategy,
# setup + solve with the iterations each M costs, from OpenFOAM tutorial sizes
# to 1e6 rows; written to $HPLS_BENCH_OUT/trisolve.md (bench/run_all.sh repeats it).
#   bench/trisolve.sh [BUILD_DIR]
set -euo pipefail
. "$(dirname "$0")/common.sh"
build=${1:-./build}
build_targets "$build" bench_hisa_tables hpls_cmd
triads "$build"
hpls=$build/bin/hpls
big=1000000 nx=100 mid=50 small=30 plane=150
[ "${HPLS_BENCH_SMOKE:-0}" != 1 ] || big=20000 nx=20 mid=12 small=8 plane=30
# matrix | hpls options
cases=(
    "poisson2d:nx=$plane|--solver cg --precond dic"
    "convdiff3d:nx=$small|--solver bicgstab --precond dilu"
    "poisson3d:nx=$mid|--solver cg --precond dic"
    "convdiff3d:nx=$mid|--solver bicgstab --precond ilu0"
    "gas:n=$big,k=1|--solver bicgstab --precond ilu0"
    "gas:n=$big,k=1|--solver bicgstab --precond dilu"
    "poisson3d:nx=$nx|--solver cg --precond dic"
    "convdiff3d:nx=$nx|--solver bicgstab --precond ilu0"
    "convdiff3d:nx=$nx|--solver bicgstab --precond dilu"
)
strategies="serial levels syncfree block auto"
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else printf "–" }'; }

js() { sed -n "s/.*\"$1\":\"\{0,1\}\([^,}\"]*\).*/\1/p" <<<"$2"; }
# run SPEC OPTS...: "seconds iterations strategy" of setup + solve at 2 threads
run() {
    local spec=$1 j
    shift
    j=$("$hpls" solve --gen "$spec" --tol 1e-7 --threads 2 "$@" --json) || bench_die "hpls failed: $spec $*"
    [ "$(js converged "$j")" = true ] || bench_die "hpls did not converge: $spec $*: $j"
    awk -v a="$(js setup_s "$j")" -v b="$(js solve_s "$j")" -v i="$(js iterations "$j")" \
        -v s="$(js trisolve "$j" | tr ' ' '_')" 'BEGIN { printf "%.4f %d %s\n", a + b, i, s }'
}

{
    echo "# trisolve at 2 threads: setup + solve by each strategy, iterations included"
    echo
    echo "What trisolve=auto's rule on the host rests on (precond/trisolve.c): \`hpls solve --gen MATRIX --tol 1e-7 OPTIONS --threads 2 --trisolve S --json\`, seconds of setup_s + solve_s (the generator's time excluded), b = A 1, x0 = 0."
    echo
    echo "Triad of this run (\`bench_hisa_tables triad T\`, 24 B per entry): ${triad[1]} GB/s at 1 thread, ${triad[2]} GB/s at 2."
    echo
    head="| matrix | method |"
    rule="| --- | --- |"
    for s in $strategies; do
        head+=" $s, s |"
        rule+=" ---: |"
    done
    echo "$head block / fastest other | auto / fastest | auto took | iterations: $(tr ' ' / <<<"$strategies") |"
    echo "$rule ---: | ---: | --- | --- |"
    for c in "${cases[@]}"; do
        IFS='|' read -r spec opts <<<"$c"
        row="| $spec | ${opts//--/} |" its="" best=1e300 other=1e300
        for s in $strategies; do
            # shellcheck disable=SC2086
            read -r t i took < <(run "$spec" $opts --trisolve "$s")
            row+=" $t |"
            its+="${its:+ / }$i"
            case $s in
            block) tb=$t ;;
            auto) ta=$t chosen=${took//_/ } ;;
            *) other=$(awk -v a="$t" -v b="$other" 'BEGIN { print (a < b ? a : b) }') ;;
            esac
            [ "$s" = auto ] || best=$(awk -v a="$t" -v b="$best" 'BEGIN { print (a < b ? a : b) }')
        done
        echo "$row $(ratio "$tb" "$other") | $(ratio "$ta" "$best") | $chosen | $its |"
    done
    cat <<'NOTES'

How to read it:
- serial, levels and syncfree are one M, that of 1 thread (the same iterations);
  block is another: A's block-diagonal part, a block per thread, factored and
  swept by each thread alone, PETSc's block Jacobi inside one process (more
  iterations, no waits).
- "block / fastest other": below 1, block's extra iterations cost less than the
  waits of the one-thread M's parallel sweeps (or than serial sweeps).
- "auto / fastest": what the default costs against the best fixed choice of the
  row; "auto took" is its choice as the JSON reports it.
NOTES
} >"$out/trisolve.md"
