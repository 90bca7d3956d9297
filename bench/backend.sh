#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# backend.sh: one run of the backend layer's cost: time per iteration of the
# build before it (commit $HPLS_BENCH_OLD, default f052336) against this build,
# the two run alternately in the same run, BiCGSTAB and GMRES(30) on gas 1e6
# k=2 and poisson3d 100^3 at 1 and 2 threads; written to
# $HPLS_BENCH_OUT/backend.md (bench/run_all.sh repeats it, medians of the runs).
#   bench/backend.sh [BUILD_DIR]
set -euo pipefail
. "$(dirname "$0")/common.sh"
build=${1:-./build}
build_targets "$build" hpls_cmd
old=${HPLS_BENCH_OLD:-f052336}
git -C "$root_dir" rev-parse -q --verify "$old^{commit}" >/dev/null ||
    bench_die "HPLS_BENCH_OLD=$old is not a commit of this repository"
olddir=${TMPDIR:-/tmp}/hpls_bench/old-$old
if [ ! -x "$olddir/build/bin/hpls" ]; then
    rm -rf "$olddir"
    mkdir -p "$olddir"
    git -C "$root_dir" archive "$old" | tar -x -C "$olddir"
    cmake -S "$olddir" -B "$olddir/build" -DCMAKE_BUILD_TYPE=Release -DHPLS_TESTS=OFF >/dev/null
    cmake --build "$olddir/build" --target hpls_cmd -j"$(nproc)" >/dev/null
fi
specs="gas:n=1000000,k=2 poisson3d:nx=100"
its=60
[ "${HPLS_BENCH_SMOKE:-0}" != 1 ] || { specs="gas:n=20000,k=2 poisson3d:nx=20"; its=20; }

# ms per iteration and iterations of one solve: BIN SPEC SOLVER THREADS
one() {
    local j
    j=$("$1" solve --gen "$2" --solver "$3" --threads "$4" --tol 0 --maxiter "$its" --json 2>/dev/null) ||
        [ $? = 1 ] # exit 1: not converged, as asked (tol 0)
    awk -v j="$j" 'BEGIN {
        match(j, /"iterations":[0-9]+/); it = substr(j, RSTART + 13, RLENGTH - 13)
        match(j, /"solve_s":[0-9.e+-]+/); s = substr(j, RSTART + 10, RLENGTH - 10)
        printf "%.3f %d\n", 1e3 * s / it, it }'
}

{
    echo "# The backend layer's cost: time per iteration before and after"
    echo
    echo "Before: commit $old (methods on raw arrays, MGS in GMRES), built in $olddir; after: this build (\`$(git -C "$root_dir" rev-parse --short HEAD)\`, work tree may differ).  Each cell: \`hpls solve --gen SPEC --solver S --threads T --tol 0 --maxiter $its --json\`, solve time over iterations, run before, after, after, before (an order effect or a drift cancels) and each build's two runs averaged."
    echo
    echo "| matrix | solver | threads | before ms/it | after ms/it | after / before | iterations before / after |"
    echo "|---|---|---:|---:|---:|---:|---|"
    for spec in $specs; do
        for solver in bicgstab gmres; do
            for t in 1 2; do
                # before, after, after, before: an order effect or a drift cancels
                read -r b1 bit < <(one "$olddir/build/bin/hpls" "$spec" "$solver" "$t")
                read -r a1 ait < <(one "$build/bin/hpls" "$spec" "$solver" "$t")
                read -r a2 _ < <(one "$build/bin/hpls" "$spec" "$solver" "$t")
                read -r b2 _ < <(one "$olddir/build/bin/hpls" "$spec" "$solver" "$t")
                awk -v s="$spec" -v m="$solver" -v t="$t" -v b="$b1" -v bb="$b2" -v a="$a1" -v aa="$a2" \
                    -v bi="$bit" -v ai="$ait" 'BEGIN { b = (b + bb) / 2; a = (a + aa) / 2
                    printf "| %s | %s | %d | %.2f | %.2f | %.3f | %d / %d |\n", s, m, t, b, a, a / b, bi, ai }'
            done
        done
    done
    cat <<'NOTES'

How to read it:
- The goal of the backend layer (issue 13) is no slowdown: after / before <= 1.03
  for BiCGSTAB, whose vector operations are the same fused kernels behind the
  backend's table; a ratio above 1 there is the layer's cost.
- GMRES changed its algorithm with the layer: modified Gram-Schmidt with a
  second pass whenever cancellation asked for it (here at every step) became
  classical Gram-Schmidt twice with the second pass delayed a step: two sweeps
  over the basis per step instead of about four, one reduction instead of
  2(j+1).
NOTES
} >"$out/backend.md"
echo "wrote $out/backend.md"
