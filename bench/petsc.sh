#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# petsc.sh: one run of hpls's BiCGSTAB against PETSc's KSPBCGS at equal resources
# (1 thread vs 1 MPI process, 2 threads vs 2 processes) on the same Matrix Market
# files, each figure checked against the memory-traffic bound of the same run;
# written to $HPLS_BENCH_OUT/petsc_bicgstab.md (bench/run_all.sh repeats it).
#   bench/petsc.sh [BUILD_DIR]
#
# PETSc's sanity check: -log_view gives each event's calls, time and flops; the
# bytes PETSc moved are its calls times the bytes of each kernel (MatMult as an
# SpMV, VecAXPBYCZ 4 vectors, VecDot 2, ...), and its time per iteration over
# (those bytes / the triad of the same run) says how far it is from its own bound.
set -euo pipefail
. "$(dirname "$0")/common.sh"
build=${1:-./build}
build_targets "$build" bench_kernels bench_hisa_tables hpls_cmd
peer=$(petsc_peer_checked "$build")
work=${TMPDIR:-/tmp}/hpls_bench/petsc
mkdir -p "$work"
cases="poisson3d:nx=100:none gas:n=1000000,k=2:none gas:n=1000000,k=2:jacobi"
[ "${HPLS_BENCH_SMOKE:-0}" != 1 ] || cases="poisson3d:nx=20:none gas:n=20000,k=2:none gas:n=20000,k=2:jacobi"

kv() { sed -n "s/.*[ ^]$1=\([^ ]*\).*/\1/p" <<<" $2"; }
triads "$build"

{
    echo "# BiCGSTAB: hpls against PETSc's KSPBCGS at equal resources"
    echo
    echo "Both read the same Matrix Market file written by \`hpls gen\`; b = A 1, x0 = 0, stop when ||b - A x|| <= 1e-8 ||b|| (PETSc: right preconditioning, unpreconditioned norm, abstol 0).  Time per iteration = the solve's time (setup excluded) over its iterations, one solve each.  hpls: \`bench_kernels --solve A.mtx --threads T\`; PETSc: \`mpiexec -n P petsc_bcgs A.mtx 1 -pc_type PC -ksp_rtol 1e-8 -log_view\` (bench/peers/petsc_bcgs.c; P single-threaded processes, rows split in P blocks)."
    echo
    echo "Triad of this run (\`bench_hisa_tables triad T\`, 24 B per entry): ${triad[1]} GB/s at 1 thread, ${triad[2]} GB/s at 2."
    echo
    echo "| matrix | precond | resources | hpls ms/it | PETSc ms/it | hpls / PETSc | iterations hpls / PETSc | bound ms/it | hpls / bound | PETSc / bound | PETSc bytes/it over the bound's | PETSc MatMult: share of the solve, GB/s | PETSc Mflop/it | check |"
    echo "|---|---|---|---:|---:|---:|---|---:|---:|---:|---:|---|---:|---|"
    for c in $cases; do
        pc=${c##*:}
        spec=${c%:*}
        file=$work/$(tr ':=,' '___' <<<"$spec").mtx
        [ -s "$file" ] || "$build/bin/hpls" gen "$spec" -o "$file" >/dev/null
        read -r n nnz < <(grep -v '^%' "$file" | head -1 | awk '{ print $1, $3 }')
        ours=$("$build/bin/bench_kernels" --solve "$file" --options "solver=bicgstab tol=1e-8 precond=$pc" \
            --threads "1 2" --reps 1)
        for p in 1 2; do
            o=$(grep "^threads=$p " <<<"$ours")
            mpi_run "$p" "$peer" "$file" 1 -pc_type "$pc" -ksp_rtol 1e-8 -log_view ":$work/log$p.txt" \
                >"$work/out$p.txt"
            line=$(grep '^peer=' "$work/out$p.txt") || bench_die "PETSc printed no result: $(cat "$work/out$p.txt")"
            # events: name calls time flops (max over processes; flops x P for the total)
            awk -v n="$n" -v nnz="$nnz" -v p="$p" -v bw="${triad[$p]}" -v pc="$pc" \
                -v om="$(kv per_it_ms "$o")" -v oi="$(kv iterations "$o")" \
                -v pm="$(kv per_it_ms "$line")" -v pi="$(kv iterations "$line")" \
                -v spec="$spec" '
                BEGIN {
                    spmv = 12 * nnz + 8 * (n + 1) + 16 * n
                    # bytes of one call of each Vec kernel (reads + writes of n doubles)
                    split("VecDot:2 VecTDot:2 VecDotNorm2:2 VecNorm:1 VecCopy:2 VecSet:1 VecScale:2 VecAXPY:3 VecAYPX:3 VecAXPBY:3 VecWAXPY:3 VecAXPBYCZ:4 VecPointwiseMult:3", kinds, " ")
                    for (i in kinds) { split(kinds[i], kw, ":"); passes[kw[1]] = kw[2] }
                }
                $1 == "MatMult" { mm = $2; mmt = $4 }
                $1 in passes { vb += $2 * passes[$1] * 8 * n }
                $1 == "KSPSolve" { kt = $4; kf = $6 * p }
                END {
                    its = pi + 0
                    pbytes = (mm * spmv + vb) / (its > 0 ? its : 1)
                    bound = (2 * spmv + 18 * 8 * n) / (bw * 1e9) * 1e3   # ms, as kernels.md counts
                    if (pc == "jacobi") bound += 3 * 8 * n / (bw * 1e9) * 1e3   # z = D^-1 r
                    pb = pbytes / (bw * 1e9) * 1e3
                    share = kt > 0 ? 100 * mmt / kt : 0
                    mmg = mmt > 0 ? mm * spmv / mmt / 1e9 : 0
                    r = pm / pb
                    check = (r <= 1.5) ? "PETSc within 1.5x of its own traffic" : sprintf("PETSc %.1fx its own traffic: MatMult at %.1f GB/s of %.1f", r, mmg, bw)
                    printf "| %s | %s | %d thread%s vs %d process%s | %.2f | %.2f | %.2f | %s / %s | %.2f | %.2f | %.2f | %.2f | %.0f%%, %.1f GB/s | %.1f | %s |\n",
                        spec, pc, p, (p > 1 ? "s" : ""), p, (p > 1 ? "es" : ""), om, pm, om / pm, oi, pi,
                        bound, om / bound, pm / bound, pbytes / (bound * bw * 1e6), share, mmg,
                        (its > 0 ? kf / its / 1e6 : 0), check
                }' "$work/log$p.txt"
        done
    done
    cat <<'NOTES'

How to read it:
- bound: the bytes one iteration must move / the triad at that thread (process)
  count: 2 SpMVs (12 nnz + 8 (n+1) + 16 n bytes each: x read once, gas's gathers
  free since x fits L3) + 18 vectors of n doubles (+ 3 for jacobi's z = D^-1 r).
  The same bound serves both codes: it is the algorithm's, not an implementation's.
- PETSc bytes/it over the bound's: what PETSc's kernels moved (-log_view's calls of
  MatMult and each Vec kernel times its bytes) over the bound's bytes; above 1, PETSc
  makes more passes over its vectors than hpls's fused updates.
- check: PETSc's time per iteration over the time its own bytes take at the triad.
  Far above 1 means PETSc is not bandwidth-bound there (gas's far columns are random,
  so at 2 processes each MatMult also exchanges much of x between the processes).
- 2 processes vs 2 threads: equal cores; PETSc's processes split A by rows and
  exchange x's ghost entries every MatMult, hpls's threads share x.
NOTES
} >"$out/petsc_bicgstab.md"
echo "wrote $out/petsc_bicgstab.md"
