#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# openfoam.sh: one run of the OpenFOAM table (issue 31): simpleFoam's pitzDaily as
# the tutorial has it (12,225 cells) and refined (every block's cell counts times
# REFINE in x and y: 1.22e6 cells at 10), on 1 and 2 ranks, with three sets of
# linear solvers: OpenFOAM's DIC-PCG for p and DILU-PBiCGStab for U, k, epsilon;
# hpls's cg + dic and bicgstab + dilu (dilu_order faces, libhplsFoam.so) in their
# place; and OpenFOAM's GAMG for p (what the tutorial and most users run) with
# DILU-PBiCGStab for the rest.  Per field, the seconds inside its linear solver
# (OpenFOAM's own profiling, lduMatrix::solver.FIELD: the solver's construction
# and solve, hpls's matrix update included; on ranks the slowest rank's), the
# whole run's seconds and the iterations; written to $HPLS_BENCH_OUT/openfoam.md
# (bench/run_all.sh repeats it).  Installs Debian's openfoam and the headers of
# its source package (scripts/openfoam_deps.sh) when missing and root.
#
#   bench/openfoam.sh [BUILD_DIR]     HPLS_OPENFOAM_STEPS (200: steps on 12,225 cells),
#                                     HPLS_OPENFOAM_BIG_STEPS (5; 0: no refined case),
#                                     HPLS_OPENFOAM_REFINE (10),
#                                     HPLS_OPENFOAM_RANKS ("1 2")
set -euo pipefail
. "$(dirname "$0")/common.sh"
build=$(realpath -m "${1:-./build}")
steps=${HPLS_OPENFOAM_STEPS:-200} big_steps=${HPLS_OPENFOAM_BIG_STEPS:-5}
refine=${HPLS_OPENFOAM_REFINE:-10} ranks=${HPLS_OPENFOAM_RANKS:-1 2}
if [ "${HPLS_BENCH_SMOKE:-0}" = 1 ]; then
    steps=5 big_steps=2 refine=2
fi
for v in "$steps" "$refine" $ranks; do
    [[ $v =~ ^[1-9][0-9]*$ ]] || bench_die "HPLS_OPENFOAM_* must be positive integers, not '$v'"
done
[[ $big_steps =~ ^[0-9]+$ ]] || bench_die "HPLS_OPENFOAM_BIG_STEPS must be a whole number, not '$big_steps'"
cases=("pitzDaily 1 $steps")
[ "$big_steps" = 0 ] || cases+=("pitzDaily-x$refine $refine $big_steps")
work=${TMPDIR:-/tmp}/hpls_bench/openfoam
rm -rf "$work" && mkdir -p "$work"
export WM_PROJECT_DIR=${WM_PROJECT_DIR:-/usr/share/openfoam} OMP_NUM_THREADS=1
examples=/usr/share/doc/openfoam-examples/examples/incompressible
py=("$bench_dir/openfoam_bench.py")
its() { python3 "$root_dir/tests/e2e/openfoam_case.py" iterations "$1"; }

foam_src=$("$root_dir/scripts/openfoam_deps.sh" 2>/dev/null | tail -n 1) ||
    bench_die "scripts/openfoam_deps.sh failed: OpenFOAM or its headers are missing"
build_targets "$build" hpls
make -s -C "$root_dir/integrations/openfoam" FOAM_SRC="$foam_src" HPLS_BUILD="$build" \
    OUT="$work/lib" >/dev/null || bench_die "building libhplsFoam.so failed"
lib=$work/lib/libhplsFoam.so
note_peer "OpenFOAM $(dpkg-query -W -f '${Version}' openfoam 2>/dev/null || echo '?') (Debian openfoam), $(mpiexec --version 2>/dev/null | head -1)"

# run NAME REFINE STEPS RANKS MODE: one simpleFoam run; prints "field seconds" lines
# (main: the whole run), "its FIELD N" lines, "cells N" and "once S": the seconds
# libhplsFoam spent building the mesh's matrix and setting its solvers up (its debug
# switch's lines, rank 0's; 0 for OpenFOAM's solvers)
run() {
    local name=$1 r=$2 n=$3 np=$4 mode=$5 case
    case=$work/$name-$np-$mode
    cp -r "$examples/simpleFoam/pitzDaily" "$case"
    python3 "${py[@]}" prepare "$case" "$mode" "$n" "$r" $([ "$mode" = hpls ] && echo "$lib") ||
        bench_die "$case: case setup"
    (cd "$case" && blockMesh >log.blockMesh 2>&1) || bench_die "$case: blockMesh failed"
    local cmd=(simpleFoam)
    if [ "$np" -gt 1 ]; then
        python3 "${py[@]}" decompose "$case" "$np"
        (cd "$case" && decomposePar >log.decomposePar 2>&1) || bench_die "$case: decomposePar failed"
        cmd=("${mpi_cmd[@]}" "$np" simpleFoam -parallel)
    fi
    (cd "$case" && "${cmd[@]}" >log.solver 2>&1) && grep -q '^End' "$case/log.solver" ||
        bench_die "$case: ${cmd[*]} failed: $(tail -5 "$case/log.solver")"
    python3 "${py[@]}" profile "$case"
    its "$case/log.solver" | awk '{ print "its", $1, $3 }'
    sed -n 's/^ *nCells: *\([0-9]*\).*/cells \1/p' "$case/log.blockMesh" | head -1
    awk '/^hpls: (the CSR pattern|setup \()/ && $(NF) == "s" { s += $(NF - 1) } END { print "once", s + 0 }' \
        "$case/log.solver"
    rm -rf "$case"
}

# get KEY FILE: the value of "KEY value" (0 when absent)
get() { awk -v k="$1" '$1 == k { v = $2 } END { print v + 0 }' "$2"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }

{
    echo "# OpenFOAM: hpls as simpleFoam's linear solver against OpenFOAM's own"
    echo
    echo "simpleFoam on the pitzDaily tutorial (Debian's openfoam-examples)$([ "$big_steps" = 0 ] || echo ", as it comes and refined ${refine}x in x and y"); a run of $steps steps$([ "$big_steps" = 0 ] || echo " (${big_steps} refined)"), from the same mesh with three sets of linear solvers (tolerances and relTol the tutorial's): OpenFOAM's DIC-PCG for p and DILU-PBiCGStab for U, k, epsilon (\`foam\`); hpls's cg + dic and bicgstab + dilu with dilu_order faces through libhplsFoam.so (\`hpls\`, OpenFOAM's stop test); OpenFOAM's GAMG (smoother GaussSeidel) for p and DILU-PBiCGStab for the rest (\`gamg\`).  Seconds are OpenFOAM's profiling (\`lduMatrix::solver.FIELD\`: constructing the solver and solving, every solve of the run; on 2 ranks the slower rank's), run = application::main.  1 thread per rank (OMP_NUM_THREADS=1); 2 ranks: \`decomposePar\` (simple, 2 slabs in x), \`mpiexec -n 2 simpleFoam -parallel\`.  A ratio is hpls's seconds over OpenFOAM's in this run; below 1, hpls ahead."
    echo
    echo "| case | cells | ranks | p: foam s | p: hpls s | p: hpls / foam | p: gamg s | p: hpls / gamg | U: foam s | U: hpls s | U: hpls / foam | k+epsilon: foam s | k+epsilon: hpls s | k+epsilon: hpls / foam | hpls once s | run: foam s | run: hpls s | run: gamg s | p iterations foam / hpls / gamg | U iterations foam / hpls |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|"
    for c in "${cases[@]}"; do
        read -r name r n <<<"$c"
        for np in $ranks; do
            for mode in foam hpls gamg; do
                run "$name" "$r" "$n" "$np" "$mode" >"$work/$mode.txt"
            done
            f=$work/foam.txt h=$work/hpls.txt g=$work/gamg.txt
            u() { awk '$1 == "Ux" || $1 == "Uy" || $1 == "Uz" { s += $2 } END { print s + 0 }' "$1"; }
            ke() { awk '$1 == "k" || $1 == "epsilon" { s += $2 } END { print s + 0 }' "$1"; }
            uits() { awk '$1 == "its" && $2 ~ /^U[xyz]$/ { s += $3 } END { print s + 0 }' "$1"; }
            printf '| %s | %s | %s | %.3f | %.3f | %s | %.3f | %s | %.3f | %.3f | %s | %.3f | %.3f | %s | %.3f | %.2f | %.2f | %.2f | %s / %s / %s | %s / %s |\n' \
                "$name" "$(get cells "$f")" "$np" \
                "$(get p "$f")" "$(get p "$h")" "$(ratio "$(get p "$h")" "$(get p "$f")")" \
                "$(get p "$g")" "$(ratio "$(get p "$h")" "$(get p "$g")")" \
                "$(u "$f")" "$(u "$h")" "$(ratio "$(u "$h")" "$(u "$f")")" \
                "$(ke "$f")" "$(ke "$h")" "$(ratio "$(ke "$h")" "$(ke "$f")")" "$(get once "$h")" \
                "$(get main "$f")" "$(get main "$h")" "$(get main "$g")" \
                "$(awk '$1 == "its" && $2 == "p" { print $3 }' "$f")" \
                "$(awk '$1 == "its" && $2 == "p" { print $3 }' "$h")" \
                "$(awk '$1 == "its" && $2 == "p" { print $3 }' "$g")" "$(uits "$f")" "$(uits "$h")"
        done
    done
    cat <<'NOTES'

How to read it:
- foam and hpls run the same methods with the same arithmetic order (dilu_order
  faces) and the same stop test, so their iteration counts agree but for
  rounding (tests/e2e/openfoam.sh checks it); the seconds compare the
  implementations.  gamg is a different method (multigrid: far fewer, dearer
  iterations), beside them because it is what OpenFOAM users run for p.
- hpls's seconds include converting OpenFOAM's matrix (LDU) into hpls's CSR
  values at every solve (the pattern once per mesh) and OpenFOAM's normFactor
  and initial residual (on hpls's own b - A psi).
- hpls once: of hpls's seconds (p, U, k and epsilon together), those spent once
  a run: building the mesh's CSR matrix and setting up its two solvers (cg + dic
  at p's first solve, bicgstab + dilu at U's, which k and epsilon share), from
  libhplsFoam's debug switch (rank 0's on 2 ranks).  A longer run pays them once
  too.
NOTES
} >"$out/openfoam.md"
echo "wrote $out/openfoam.md"
