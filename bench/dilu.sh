#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# dilu.sh: one run of the DILU benchmark (bench_dilu) at 1 and 2 threads on the real
# matrices of ../shared/data (largest first) and convdiff3d / poisson3d at
# nx=50 (REPS runs) and nx=100 (1e6 rows, one run each), against PETSc's
# ILU(0)-BiCGSTAB (bench/peers/petsc_bcgs.c, one process) on the same files;
# writes $HPLS_BENCH_OUT/dilu.md and dilu_history_<matrix>.png (BiCGSTAB residual
# histories with none / dilu / ilu0); bench/run_all.sh repeats it and publishes
# bench/results/dilu.md.  Every timed run holds /tmp/hpls-bench.lock, one matrix
# at a time, so that timings never overlap another engineer's.
#
#   bench/dilu.sh [BUILD_DIR] [REPS]      (default ./build, 1 solve per figure)
set -euo pipefail
. "$(dirname "$0")/common.sh"
build=${1:-./build}
reps=${2:-1}
shared_data data matrices
work=${TMPDIR:-/tmp}/hpls_dilu
lock=(flock /tmp/hpls-bench.lock)
mkdir -p "$work"
build_targets "$build" bench_dilu hpls_cmd
hpls=$build/bin/hpls

peer=$(peer_petsc "$build")
pcname=$(petsc_pc || true)
[ -z "$peer" ] || note_peer "PETSc $(pkg-config --modversion "$pcname") (Debian petsc-dev $(deb_version petsc-dev)), 1 process"

# inputs: "spec-or-file reps"; the peer reads plain .mtx only, so generated
# matrices are written with `hpls gen` and .mtx.gz are gunzipped to $work.
inputs=("convdiff3d:nx=50 $reps" "poisson3d:nx=50 $reps" "convdiff3d:nx=100 1" "poisson3d:nx=100 1")
reals="orani678 Chebyshev2 cryg2500 orsreg_1 watt_1 orsirr_1 sherman1 cdde1"
apply="convdiff3d:nx=100 poisson3d:nx=100"
if [ "${HPLS_BENCH_SMOKE:-0}" = 1 ]; then
    inputs=("convdiff3d:nx=15 1" "poisson3d:nx=15 1") reals="sherman1 watt_1"
    apply="convdiff3d:nx=15 poisson3d:nx=15"
fi
for m in $reals; do
    if [ -f "$data/$m.mtx" ]; then
        inputs+=("$data/$m.mtx $reps")
    elif [ -f "$data/$m.mtx.gz" ]; then
        inputs+=("$data/$m.mtx.gz $reps")
    fi
done

# mtx_of INPUT: a plain .mtx file holding INPUT, for the peer.
mtx_of() {
    local in=$1 f
    case $in in
    *:*)
        f=$work/$(tr ':=,' '___' <<<"$in").mtx
        [ -s "$f" ] || "$hpls" gen "$in" -o "$f" >/dev/null
        ;;
    *.gz)
        f=$work/$(basename "${in%.gz}")
        [ -s "$f" ] || gunzip -c "$in" >"$f"
        ;;
    *) f=$in ;;
    esac
    echo "$f"
}

# petsc_cols INPUT: " setup s | its / solve s |" of PETSc ILU(0)-bcgs (median of
# REPS solves; setup = PCSetUp, the ILU factorisation, from -log_view).
declare -A petsc_setup petsc_solve petsc_its
# petsc_run INPUT REPS PROCS: on 2 processes ILU(0) is per process (block Jacobi):
# PETSc's own ILU is sequential.
petsc_run() {
    local in=$1 r=$2 np=$3 f log line pc=(-pc_type ilu -pc_factor_levels 0)
    petsc_setup[$in]="-" petsc_solve[$in]="" petsc_its[$in]="-"
    [ -n "$peer" ] || return 0
    f=$(mtx_of "$in")
    [ "$np" = 1 ] || pc=(-pc_type bjacobi -sub_pc_type ilu -sub_pc_factor_levels 0)
    log=$("${lock[@]}" "${mpi_cmd[@]}" "$np" "$peer" "$f" "$r" "${pc[@]}" -ksp_rtol 1e-8 \
        -ksp_max_it 5000 -log_view 2>&1) || true
    line=$(grep '^peer=' <<<"$log" || true)
    if [ -z "$line" ]; then
        petsc_its[$in]="error"
        return 0
    fi
    petsc_setup[$in]=$(awk '$1 == "PCSetUp" { printf "%.4f", $4 }' <<<"$log")
    petsc_solve[$in]=$(sed -n 's/.*solve_s=\([^ ]*\).*/\1/p' <<<"$line")
    petsc_its[$in]=$(sed -n 's/.*iterations=\([^ ]*\).*/\1/p' <<<"$line")
    grep -q 'reason=CONVERGED' <<<"$line" || petsc_its[$in]+="*"
}

{
    echo "# DILU vs ILU(0) (Wang, Liu 2022, Tables 2, 3, 5 reshaped) and PETSc ILU(0)-BiCGSTAB"
    echo
    echo "One run of \`bench/dilu.sh BUILD_DIR $reps\`: $reps solve(s) per figure (the nx=100 matrices, 1e6 rows: one), b = A 1, BiCGSTAB tol 1e-8."
    echo "Setup columns: the preconditioner's own setup (what PETSc's PCSetUp times), run a second time on the set-up solver and timed alone: for dilu the E pass with its pivot check and the split copies of L and U (scaled by 1/E) the sweeps read; for ilu0 the factorisation (IKJ on A's pattern) written straight into the same split copies (U unscaled: the backward sweep multiplies by 1/U_ii), and its pivot check.  block: trisolve=block, each thread's diagonal block factored by that thread alone (PETSc's block Jacobi inside one process; at 1 thread one block, the serial M); the 2-thread rows' like-for-like setup against PETSc's 2 processes."
    echo "PETSc $(pkg-config --modversion "${pcname:-PETSc}" 2>/dev/null || echo absent): \`petsc_bcgs A.mtx REPS -pc_type ilu -pc_factor_levels 0 -ksp_rtol 1e-8 -ksp_max_it 5000 -log_view\`, one MPI process, OMP_NUM_THREADS=1, right preconditioning, unpreconditioned residual norm; setup = PCSetUp event (the ILU(0) factorisation), solve = median KSPSolve time.  The 2-thread rows compare with PETSc on 2 MPI processes, where ILU(0) is per process (\`-pc_type bjacobi -sub_pc_type ilu\`: more iterations than ILU(0) of the whole matrix)."
    echo "Goal (last column): dilu (auto) BiCGSTAB solve s <= PETSc ilu-bcgs solve s."
    echo
    echo "| matrix | threads | n | dilu setup s: serial | levels | syncfree | block | ilu0 setup s: serial | levels | syncfree | block | none its / s | jacobi | dilu (auto) | ilu0 (auto) | dilu solve s: serial | levels | syncfree | auto | auto chose | PETSc ilu setup s | PETSc ilu-bcgs its / s | dilu <= PETSc? |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    for t in 1 2; do
        for e in "${inputs[@]}"; do
            in=${e% *} r=${e#* }
            petsc_run "$in" "$r" "$t"
            row=$(OMP_PROC_BIND=close OMP_PLACES=cores "${lock[@]}" "$build/bin/bench_dilu" "$r" "$t" "$in" || true)
            [ -n "$row" ] || continue
            ps=${petsc_solve[$in]:-}
            met=$(awk -F'|' -v p="$ps" '{
                split($15, a, " / "); s = a[2] + 0
                if (p == "" || $15 ~ /error/ || a[1] ~ /\*/) print "-"
                else print (s <= p + 0 ? "yes" : "**no**") " (" sprintf("%.2f", p > 0 ? s / p : 0) "x)"
            }' <<<"$row")
            echo "$row ${petsc_setup[$in]} | ${petsc_its[$in]} / ${ps:--} | $met |"
        done
    done
    echo
    echo
    echo "## The application against its memory-traffic bound"
    echo
    echo "\`bench_dilu --apply 9 THREADS A\` (medians of 9): GB/s of a triad z = x + 3y over 3 arrays of nnz, of the SpMV (12 nnz + 8 (n+1) + 16 n bytes) and of one M^-1 application with the serial sweeps (12 (nnz - n) + 16 (n+1) + 40 n bytes: the split copies of L and U, r, the scaling, z), its time as a multiple of the SpMV's."
    echo
    echo "| matrix | threads | n | triad GB/s | SpMV s / GB/s | dilu apply s / GB/s | ilu0 apply s / GB/s |"
    echo "|---|---|---|---|---|---|---|"
    for t in 1 2; do
        for in in $apply; do
            OMP_PROC_BIND=close OMP_PLACES=cores "${lock[@]}" "$build/bin/bench_dilu" --apply 9 "$t" "$in" || true
        done
    done
    echo
    echo "\`*\`: not converged in 5000 iterations (PETSc: not CONVERGED_*); \`error\`: setup failed (e.g. a zero pivot)."
    echo "\"dilu <= PETSc?\" compares the dilu (auto) column's solve seconds with PETSc's, ratio ours / PETSc in brackets."
} >"$out/dilu.md.tmp"
mv "$out/dilu.md.tmp" "$out/dilu.md"
echo "wrote $out/dilu.md"

# ---- residual histories: BiCGSTAB with none / dilu / ilu0 ------------------
if ! /usr/bin/python3 -c 'import matplotlib' 2>/dev/null && [ "$(id -u)" = 0 ]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y python3-matplotlib >/dev/null
fi
for in in "$data/sherman1.mtx" "$data/orsreg_1.mtx" "convdiff3d:nx=50"; do
    case $in in
    *:*) name=$(tr ':=,' '___' <<<"$in"); src=(--gen "$in") ;;
    *) name=$(basename "${in%.gz}" .mtx); src=("$in") ;;
    esac
    for p in none dilu ilu0; do
        "$hpls" solve "${src[@]}" --precond "$p" --maxiter 5000 --history "$work/h_${name}_$p.csv" --quiet >/dev/null || true
    done
    /usr/bin/python3 - "$work" "$name" "$out/dilu_history_$name.png" <<'PY'
import csv, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
work, name, png = sys.argv[1:4]
fig, ax = plt.subplots(figsize=(6.4, 4.2))
for p in ("none", "dilu", "ilu0"):
    try:
        with open(f"{work}/h_{name}_{p}.csv") as f:
            rows = [(int(r["iteration"]), float(r["relres"])) for r in csv.DictReader(f)]
    except (OSError, ValueError, KeyError):
        continue
    ax.semilogy([r[0] for r in rows], [r[1] for r in rows], label=f"{p} ({rows[-1][0] if rows else 0} its)")
ax.axhline(1e-8, color="grey", lw=0.8, ls="--")
ax.set_xlabel("iteration")
ax.set_ylabel("||b - A x|| / ||b||")
ax.set_title(f"BiCGSTAB residual history: {name}")
ax.legend()
fig.tight_layout()
fig.savefig(png, dpi=100)
PY
    echo "wrote $out/dilu_history_$name.png"
done
