#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# quick.sh (make bench-quick): the benchmark a new user runs on their own machine,
# in a few minutes: hpls against PETSc (Debian's petsc-dev, installed when root),
# against a plain -O3 CSR loop and against the triad, on 3 generated matrices at 1
# and 2 threads (PETSc at 1 and 2 processes).  Prints ratios taken in this run,
# each figure a median of 3 (of 5 for the SpMV); publishes nothing.  Exit 0
# whatever the figures: a slow one is information, not a failure.
#   bench/quick.sh [BUILD_DIR]
set -euo pipefail
. "$(dirname "$0")/common.sh"
build=${1:-./build}
build_targets "$build" bench_prefetch bench_hisa_tables hpls_cmd
peer=$(peer_petsc "$build")
triads "$build"
work=${TMPDIR:-/tmp}/hpls_bench/quick
mkdir -p "$work"
specs="gas:n=1000000,k=1 poisson3d:nx=100 convdiff3d:nx=100"
[ "${HPLS_BENCH_SMOKE:-0}" != 1 ] || specs="gas:n=20000,k=1 poisson3d:nx=20"

echo "CPU: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), $(nproc) cores"
echo "caches: $(lscpu | awk -F: '/^L[123][a-z]* cache/ { gsub(/^ +/, "", $2); printf "%s %s; ", $1, $2 }')"
echo "triad: ${triad[1]} GB/s at 1 thread, ${triad[2]} GB/s at 2"
[ -n "$peer" ] || echo "PETSc: not available (petsc-dev and mpicc; as root this script installs them)"
echo
printf '%-20s %3s | %9s %9s %6s %8s %6s | %9s %9s %6s %9s\n' matrix thr "SpMV ms" "plain ms" \
    "/plain" "bound ms" "/bound" "BiCG ms/it" "PETSc" "/PETSc" "its"
for spec in $specs; do
    file=$work/$(tr ':=,' '___' <<<"$spec").mtx
    [ -s "$file" ] || "$build/bin/hpls" gen "$spec" -o "$file" >/dev/null
    read -r n nnz < <(grep -v '^%' "$file" | head -1 | awk '{ print $1, $3 }')
    spmv=$("$build/bin/bench_prefetch" --reps 5 "$spec" | grep "^| $spec ")
    for t in 1 2; do
        # the default variant (what hpls_csr_spmv runs) and the plain loop, in us
        read -r ours plain < <(awk -F'|' -v t="$t" '$5 + 0 == t { print $6, $13 }' <<<"$spmv")
        ms=$(for r in 1 2 3; do
            "$build/bin/hpls" solve "$file" --tol 1e-7 --threads "$t" --json |
                sed -n 's/.*"iterations":\([0-9]*\).*"solve_s":\([0-9.e+-]*\).*/\2 \1/p' |
                awk '{ printf "%.4f %d\n", 1e3 * $1 / $2, $2 }'
        done | sort -g | sed -n 2p)
        pm="–" pit="–" ratio="–"
        if [ -n "$peer" ]; then
            line=$(mpi_run "$t" "$peer" "$file" 3 -ksp_rtol 1e-7 | grep '^peer=')
            pm=$(sed -n 's/.* per_it_ms=\([^ ]*\).*/\1/p' <<<"$line")
            pit=$(sed -n 's/.* iterations=\([^ ]*\).*/\1/p' <<<"$line")
            ratio=$(awk -v a="${ms% *}" -v b="$pm" 'BEGIN { printf "%.2f", a / b }')
        fi
        awk -v spec="$spec" -v t="$t" -v ours="$ours" -v plain="$plain" -v n="$n" -v nnz="$nnz" \
            -v bw="${triad[$t]}" -v ms="${ms% *}" -v its="${ms#* }" -v pm="$pm" -v pit="$pit" \
            -v ratio="$ratio" 'BEGIN {
                bound = (12 * nnz + 8 * (n + 1) + 16 * n) / (bw * 1e9) * 1e3
                printf "%-20s %3d | %9.3f %9.3f %6.2f %8.3f %6.2f | %9.3f %9s %6s %4s/%-4s\n",
                    spec, t, ours / 1e3, plain / 1e3, ours / plain, bound, ours / 1e3 / bound,
                    ms, pm, ratio, its, pit
            }'
    done
done
cat <<'NOTES'

SpMV ms: hpls's CSR product (the default prefetch variant, as hpls_csr_spmv runs it);
plain ms: the textbook loop compiled -O3 (bench/bench_util.h); /plain and /bound:
hpls over the plain loop and over the traffic bound (12 nnz + 24 n bytes at the
triad).  BiCG ms/it: hpls's BiCGSTAB (b = A 1, x0 = 0, rtol 1e-7) per iteration,
PETSc's KSPBCGS the same at 1 and 2 processes; its: iterations hpls/PETSc.
Ratios above 1 are hpls behind: bench/README.md says what to send us.
NOTES
