#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# hisa_tables.sh: one run of the HISA paper's Tables 5-10 ($HPLS_BENCH_OUT/hisa.md)
# and its Tables 6-7 for the Krylov baselines against PETSc (krylov_table.md), on
# the gas family, hpls and its peers measured in the same run (bench/run_all.sh
# repeats it and publishes bench/results/hisa.md and krylov_table.md).
#
#   bench/hisa_tables.sh [BUILD_DIR]          (default ./build; configured if needed)
#   bench/hisa_tables.sh BUILD_DIR --format   rewrite the tables from the last raw log
#
# Peers: PETSc through bench/peers/petsc_bcgs.c (KSPSetFromOptions picks the
# method), SuiteSparse KLU through bench/peers/klu_solve.c; both compiled here.
# Raw key=value lines go to $TMPDIR/hpls_hisa_tables/raw.log (one line per
# matrix, program, method and thread count).
# Knobs (environment):
#   HISA_SIZES="2000 10000 100000 1000000 10000000"   matrix sizes
#   HISA_REPS=1          solves per figure up to n = 1e5 (median); n >= 1e6 solves once
# Time budget (~40 min on 2 shared cores; a run of the tables took 16):
# neg = 0.2 runs a smaller set of methods (1 thread only at n = 1e6, maxiter 300),
# n = 1e7 only k = 1, neg = 0 with hisa, bhisa, jacobi, gs, bicgstab(+jacobi) and
# PETSc's ILU(0)-bcgs; KLU at n = 2e3 and at n = 1e4 for k = 1, neg = 0.
#   HISA_KLU_MAX=10000   largest n given to KLU (fill grows like n^2: 44 s at 1e4, k=2)
#   HISA_SCALE=1         the n = 1e8 hisa run (0: skip)
#   HISA_MEM="gas:n=1000000,k=1 ..."  matrices of the memory table
#   HISA_NO_PETSC=1      skip PETSc
set -euo pipefail
. "$(dirname "$0")/common.sh"
build=${1:-./build}
mode=${2:-run}
results=$out
work=${TMPDIR:-/tmp}/hpls_hisa_tables
raw=$work/raw.log
if [ "${HPLS_BENCH_SMOKE:-0}" = 1 ]; then
    : "${HISA_SIZES:=2000}" "${HISA_SCALE:=0}" "${HISA_MEM:=gas:n=10000,k=1}"
fi
sizes=${HISA_SIZES:-2000 10000 100000 1000000 10000000}
reps=${HISA_REPS:-1}
klu_max=${HISA_KLU_MAX:-10000}
tol=1e-7
mkdir -p "$work"
build_targets "$build" bench_hisa_tables hpls_cmd
helper=$build/bin/bench_hisa_tables
hpls=$build/bin/hpls
petsc=$build/bench/petsc_bcgs
klu=$build/bench/klu_solve

# hpls's methods (solver or solver+precond) and PETSc's (label:options)
methods="hisa bhisa jacobi gs gmres bicg bicgstab tfqmr bicrstab bicgsafe bicgstab+jacobi bicgstab+tridiag"
# PETSc options are stored with @ for spaces
petsc_all="bcgs:-ksp_type@bcgs gmres:-ksp_type@gmres@-ksp_gmres_restart@5 tfqmr:-ksp_type@tfqmr"
petsc_all+=" bicg:-ksp_type@bicg@-ksp_pc_side@left@-ksp_norm_type@preconditioned"
petsc_all+=" bcgs+ilu:-ksp_type@bcgs@-pc_type@ilu"
petsc_neg="bcgs:-ksp_type@bcgs gmres:-ksp_type@gmres@-ksp_gmres_restart@5 bcgs+ilu:-ksp_type@bcgs@-pc_type@ilu"
petsc_big="bcgs+ilu:-ksp_type@bcgs@-pc_type@ilu"
# the time budget (~40 min on 2 shared cores) shrinks the sets at neg = 0.2 and n = 1e7
methods_neg="hisa bhisa jacobi gs gmres bicgstab tfqmr bicgstab+jacobi bicgstab+tridiag"
methods_big="hisa bhisa jacobi gs bicgstab bicgstab+jacobi"

load1() { cut -d' ' -f1 /proc/loadavg; }
log() { echo "$*" >>"$raw"; }

# ---- peers ---------------------------------------------------------------
build_peers() {
    have_petsc=0 have_klu=0
    if [ "${HISA_NO_PETSC:-0}" != 1 ] && [ -n "$(peer_petsc "$build")" ]; then
        have_petsc=1
        note_peer "PETSc $(pkg-config --modversion "$(petsc_pc)") (Debian petsc-dev $(deb_version petsc-dev)), 1 process"
    fi
    if [ -n "$(peer_klu "$build")" ]; then
        have_klu=1
        note_peer "SuiteSparse KLU (Debian libsuitesparse-dev $(deb_version libsuitesparse-dev))"
    fi
}

# run_petsc CASE FILE LABEL OPTS REPS MAXIT [PROCS]: one PETSc solve line, setup
# from -log_view; logged as threads=PROCS (MPI processes, default 1).  On 2
# processes ILU(0) is per process (block Jacobi with ILU(0) blocks): PETSc's own
# ILU is sequential.
run_petsc() {
    local out setup np=${7:-1} opts=$4
    [ "$np" = 1 ] || opts=${opts//-pc_type@ilu/-pc_type@bjacobi@-sub_pc_type@ilu}
    # shellcheck disable=SC2086
    out=$(mpi_run "$np" "$petsc" "$2" "$5" ${opts//@/ } -ksp_rtol "$tol" -ksp_max_it "$6" \
        -log_view 2>&1) || true
    setup=$(awk '$1 == "PCSetUp" { print $4 }' <<<"$out")
    log "case=$1 tool=petsc method=$3 threads=$np load=$(load1) setup_s=${setup:-0}" \
        "$(grep '^peer=' <<<"$out" || echo 'failed=1')"
}

# run_hpls CASE SPEC REPS THREADS MAXIT METHOD...
run_hpls() {
    local c=$1 spec=$2 r=$3 th=$4 mi=$5 line
    shift 5
    while read -r line; do
        log "case=$c tool=hpls load=$(load1) $line"
    done < <("$helper" solve "$spec" "$r" "$th" "$tol" "$mi" "$@")
}

collect() {
    : >"$raw"
    build_peers
    log "meta date=$(date -u '+%Y-%m-%d_%H:%M_UTC') load_start=$(load1) petsc=$have_petsc klu=$have_klu"
    local t
    for t in 1 2; do log "triad $($helper triad $t) load=$(load1)"; done
    local n k neg spec c file r th maxit kl mlist plist
    for n in $sizes; do
        for neg in 0 0.2; do
            for k in 1 2 3; do
                # time budget: n = 1e7 only k = 1, neg = 0 (say so in the tables)
                [ "$n" -ge 10000000 ] && { [ "$neg" != 0 ] || [ "$k" != 1 ]; } && continue
                spec="gas:n=$n,k=$k,neg=$neg"
                c="n=$n,k=$k,neg=$neg"
                r=$reps th="1 2" maxit=2000 mlist=$methods plist=$petsc_all
                [ "$n" -ge 1000000 ] && r=1
                if [ "$neg" != 0 ]; then
                    maxit=300 mlist=$methods_neg plist=$petsc_neg
                    [ "$n" -ge 1000000 ] && th=1
                fi
                [ "$n" -ge 10000000 ] && mlist=$methods_big plist=$petsc_big
                echo "[$(date +%T)] $spec (load $(load1))"
                # shellcheck disable=SC2086
                run_hpls "$c" "$spec" "$r" "$th" "$maxit" $mlist
                # peers read the same matrix from a file
                file=$work/A.mtx
                "$hpls" gen "$spec" -o "$file" >/dev/null
                if [ "$have_klu" = 1 ] && [ "$n" -le "$klu_max" ]; then
                    kl=$r
                    [ "$n" -gt 2000 ] && kl=1
                    if [ "$n" -le 2000 ] || { [ "$k" = 1 ] && [ "$neg" = 0 ]; }; then
                        log "case=$c tool=klu method=klu threads=1 load=$(load1)" \
                            "$(timeout 300 "$klu" "$file" "$kl" || echo failed=1)"
                    fi
                fi
                if [ "$have_petsc" = 1 ]; then
                    local pm
                    for pm in $plist; do
                        run_petsc "$c" "$file" "${pm%%:*}" "${pm#*:}" "$r" "$maxit"
                        # equal resources: 2 processes beside hpls's 2 threads
                        [ "$th" = 1 ] || run_petsc "$c" "$file" "${pm%%:*}" "${pm#*:}" "$r" "$maxit" 2
                    done
                fi
                rm -f "$file"
            done
        done
    done
    for t in 1 2; do log "triad $($helper triad $t) load=$(load1)"; done

    # memory: the whole command's peak, generation alone, and hisa's own part
    local m out
    for spec in ${HISA_MEM:-gas:n=1000000,k=1 gas:n=1000000,k=3 gas:n=10000000,k=1}; do
        echo "[$(date +%T)] memory $spec"
        m=$( { /usr/bin/time -f 'maxrss_kb=%M' "$hpls" solve --gen "$spec" --solver hisa \
            --tol "$tol" --quiet >/dev/null; } 2>&1 | grep -o 'maxrss_kb=[0-9]*')
        out=$( { /usr/bin/time -f 'maxrss_kb=%M' "$helper" mem "$spec" hisa stop; } 2>&1 | tr '\n' ' ')
        log "mem spec=$spec cmd_$m gen_only: $out"
        log "mem spec=$spec $("$helper" mem "$spec" hisa)"
    done
    if [ "${HISA_SCALE:-1}" = 1 ]; then
        local avail
        avail=$(awk '/MemAvailable/ { print $2 }' /proc/meminfo)
        if [ "$avail" -gt 16000000 ]; then
            echo "[$(date +%T)] scale gas:n=100000000,k=1 (available $avail kB)"
            out=$( { /usr/bin/time -f 'maxrss_kb=%M wall_s=%e' "$helper" mem \
                gas:n=100000000,k=1 hisa; } 2>&1 | tr '\n' ' ')
            log "scale load=$(load1) available_kb=$avail $out"
        else
            log "scale skipped=1 available_kb=$avail"
        fi
    fi
    log "meta load_end=$(load1) end=$(date -u '+%H:%M_UTC')"
}

# ---- tables ---------------------------------------------------------------
# kv LINE KEY in awk: the value of KEY= in a raw line ("" when absent)
awk_kv='function kv(line, key,   m) { if (match(line, "(^| )" key "=[^ ]*")) { m = substr(line, RSTART, RLENGTH); sub(/^ /, "", m); return substr(m, length(key) + 2) } return "" }'

machine() {
    echo "- one run of \`bench/hisa_tables.sh\`; \`bench/hisa_tables.sh BUILD_DIR --format\` rewrites both tables from its raw log ($raw)"
    echo "- triad (\`bench_hisa_tables triad T\`: 3 x 2^24 doubles, 24 B per entry, median of 7 sweeps; measured at the start and at the end, the larger is used for the bounds): $(awk '/^triad/ { print $2, $3 }' "$raw" | tr '\n' ';' | sed 's/;$//')"
}

format_tables() {
    [ -s "$raw" ] || { echo "no raw log $raw"; return 1; }
    local common krylov_awk hisa_awk goals_awk
    common=$awk_kv'
    /^triad/ { t = kv($0, "threads"); g = kv($0, "triad_gbs"); if (g + 0 > bw[t] + 0) bw[t] = g; next }
    /^case=/ {
        c = kv($0, "case"); tool = kv($0, "tool"); m = kv($0, "method"); th = kv($0, "threads")
        if (!(c in seen)) { seen[c] = 1; order[++ncase] = c; caseload[c] = kv($0, "load") }
        key = c SUBSEP tool SUBSEP m SUBSEP th
        has[key] = 1; fail[key] = (kv($0, "failed") != "")
        its[key] = kv($0, "iterations"); su[key] = kv($0, "setup_s") + 0; so[key] = kv($0, "solve_s") + 0
        pit[key] = kv($0, "per_it_ms") + 0; bb[key] = kv($0, "bound_bytes") + 0
        if (tool == "klu") { so[key] = kv($0, "total_s") + 0; conv[key] = 1 }
        if (tool == "hpls") { conv[key] = kv($0, "converged") + 0; nnz[c] = kv($0, "nnz"); nn[c] = kv($0, "n") }
        if (tool == "petsc") conv[key] = (kv($0, "reason") ~ /^CONVERGED/)
    }
    function cn(c, f,   a, i) { split(c, a, ","); for (i in a) if (a[i] ~ "^" f "=") { sub(/^[a-z]*=/, "", a[i]); return a[i] } return "" }
    function itstr(key) { if (!(key in has)) return "–"; if (fail[key]) return "fail"; return its[key] (conv[key] ? "" : "\\*") }
    function tstr(key) { if (!(key in has) || fail[key]) return "–"; return sprintf("%.3g", su[key] + so[key]) (conv[key] ? "" : "\\*") }
    function f2(x) { return sprintf("%.2f", x) }
    function cell(key) { return (key in has) ? sprintf("%.3g", so[key]) : "–" }
    function pcell(key) { return (key in has) ? sprintf("%.3g", pit[key]) : "–" }
    '
    krylov_awk=$common'
    END {
        split("jacobi gs gmres bicg bicgstab tfqmr bicrstab bicgsafe", M, " ")
        peer["gmres"] = "gmres"; peer["bicg"] = "bicg"; peer["bicgstab"] = "bcgs"; peer["tfqmr"] = "tfqmr"
        print "| n | k | method | iterations ours / PETSc | Δ its | s ours 1 thr | s ours 2 thr | s PETSc | ms/it ours 1 thr | ms/it ours 2 thr | ms/it PETSc | ours / PETSc per it (1 thr) | ms/it PETSc 2 proc | ours / PETSc per it (2 thr vs 2 proc) | bound ms/it 1 thr | 1 thr / bound | 2 thr / bound | PETSc / bound, 1 / 2 proc |"
        print "|---:|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
        for (ci = 1; ci <= ncase; ci++) {
            c = order[ci]; if (cn(c, "neg") != "0") continue
            n = cn(c, "n"); k = cn(c, "k")
            for (mi = 1; mi <= 8; mi++) {
                m = M[mi]; k1 = c SUBSEP "hpls" SUBSEP m SUBSEP 1; k2 = c SUBSEP "hpls" SUBSEP m SUBSEP 2
                if (!(k1 in has) && !(k2 in has)) continue
                pk = ""; if (m in peer) pk = c SUBSEP "petsc" SUBSEP peer[m] SUBSEP 1
                pits = "–"; dits = "–"; ps = "–"; ppit = "–"; ratio = "–"; pp = 0
                if (pk != "" && (pk in has) && !fail[pk]) {
                    half = (m == "tfqmr") ? 2 : 1; pi = its[pk] * half; pp = pit[pk] / half
                    pits = (half == 2 ? its[pk] " full = " pi " half" : its[pk]) (conv[pk] ? "" : "\\*")
                    if (pi > 0 && (k1 in has)) { d = (its[k1] - pi) / pi * 100; dits = sprintf("%+.0f%%", d); nit++; if (d <= 10 && d >= -10) itok++; else dits = "**" dits "**" }
                    ps = sprintf("%.3g", so[pk]); ppit = sprintf("%.3g", pp)
                    if (pp > 0 && (k1 in has)) { rt = pit[k1] / pp; ratio = f2(rt); if (n + 0 >= 100000) { nrt++; if (rt <= 1) rtok++; else ratio = "**" ratio "**" } }
                }
                # equal resources: ours on 2 threads against PETSc on 2 processes
                pk2 = ""; if (m in peer) pk2 = c SUBSEP "petsc" SUBSEP peer[m] SUBSEP 2
                ppit2 = "–"; ratio2 = "–"; pp2 = 0
                if (pk2 != "" && (pk2 in has) && !fail[pk2] && pit[pk2] > 0) {
                    pp2 = pit[pk2] / ((m == "tfqmr") ? 2 : 1); ppit2 = sprintf("%.3g", pp2)
                    if (k2 in has) { rt = pit[k2] / pp2; ratio2 = f2(rt); if (n + 0 >= 100000) { nrt2++; if (rt <= 1) rtok2++; else ratio2 = "**" ratio2 "**" } }
                }
                b1 = bb[k1] / (bw[1] * 1e9) * 1e3; b2 = bb[k2] / (bw[2] * 1e9) * 1e3
                r1 = (b1 > 0 && (k1 in has)) ? pit[k1] / b1 : 0; r2 = (b2 > 0 && (k2 in has)) ? pit[k2] / b2 : 0
                # PETSc against the same bound: far above it (> 2) is flagged in bold
                q1 = (b1 > 0 && ppit != "–") ? pp / b1 : 0; q2 = (b2 > 0 && ppit2 != "–") ? pp2 / b2 : 0
                pq = (q1 > 0 ? (q1 > 2 ? "**" f2(q1) "**" : f2(q1)) : "–") " / " (q2 > 0 ? (q2 > 2 ? "**" f2(q2) "**" : f2(q2)) : "–")
                if (r1 > 0) { nb++; if (r1 <= 1.3) bok++ }
                if (r2 > 0) { nb++; if (r2 <= 1.3) bok++ }
                printf "| %s | %s | %s | %s / %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", n, k, m, itstr(k1), pits, dits, \
                    cell(k1), cell(k2), ps, pcell(k1), pcell(k2), ppit, ratio, ppit2, ratio2, \
                    (b1 > 0 ? sprintf("%.3g", b1) : "–"), (r1 > 0 ? (r1 <= 1.3 ? f2(r1) : "**" f2(r1) "**") : "–"), (r2 > 0 ? (r2 <= 1.3 ? f2(r2) : "**" f2(r2) "**") : "–"), pq
            }
        }
        printf "\nGoals, counted over the rows above: iterations within ±10%% of PETSc: %d of %d rows; time per iteration ≤ PETSc (1 thread against 1 process, n ≥ 1e5): %d of %d; (2 threads against 2 processes, n ≥ 1e5): %d of %d; time per iteration ≤ 1.3 × bound: %d of %d cells (1 and 2 threads, all n).\n", itok, nit, rtok, nrt, rtok2, nrt2, bok, nb
    }'
    hisa_awk=$common'
    END {
        nm = split("hisa bhisa jacobi gs gmres bicg bicgstab tfqmr bicrstab bicgstab+jacobi bicgstab+tridiag", M, " ")
        split("bcgs gmres bcgs+ilu", P, " ")
        if (part == "t5") {
            print "| matrix | n | k | neg | NNZ | NNZ/n | NNZ outside the tridiagonal | load at start |"
            print "|---|---:|---:|---:|---:|---:|---:|---:|"
            for (ci = 1; ci <= ncase; ci++) { c = order[ci]; n = nn[c]; printf "| %s | %s | %s | %s | %s | %.4f | %s | %s |\n", c, n, cn(c, "k"), cn(c, "neg"), nnz[c], nnz[c] / n, nnz[c] - (3 * n - 2), caseload[c] }
            exit
        }
        th = (part == "t9") ? 2 : 1
        hdr = "| matrix |"; sep = "|---|"
        for (i = 1; i <= nm; i++) { hdr = hdr " " M[i] " |"; sep = sep "---:|" }
        for (i = 1; i <= 3; i++) { hdr = hdr " PETSc " (th == 2 ? "2 proc " (P[i] == "bcgs+ilu" ? "bcgs+bjacobi-ilu" : P[i]) : P[i]) " |"; sep = sep "---:|" }
        if (part == "t7") { hdr = hdr " KLU |"; sep = sep "---:|" }
        print hdr; print sep
        for (ci = 1; ci <= ncase; ci++) {
            c = order[ci]; line = "| " c " |"
            for (i = 1; i <= nm; i++) { key = c SUBSEP "hpls" SUBSEP M[i] SUBSEP th; line = line " " (part == "t6" ? itstr(key) : tstr(key)) " |" }
            for (i = 1; i <= 3; i++) { key = c SUBSEP "petsc" SUBSEP P[i] SUBSEP th; line = line " " (part == "t6" ? itstr(key) : tstr(key)) " |" }
            if (part == "t7") { key = c SUBSEP "klu" SUBSEP "klu" SUBSEP 1; line = line " " tstr(key) " |" }
            print line
        }
    }'
    goals_awk=$common'
    END {
        print "| matrix | hisa its / jacobi its (≤ 0.5) | hisa its ≤ gs its | hisa / bicgstab time, 1 thr (≤ 0.5) | 2 thr | hisa / PETSc ILU(0)-bcgs, setup+solve, 1 thr (≤ 0.5 at n ≥ 1e5) | hisa 2 thr / PETSc 2 proc bjacobi-ILU(0)-bcgs |"
        print "|---|---:|---|---:|---:|---:|---:|"
        for (ci = 1; ci <= ncase; ci++) {
            c = order[ci]; h1 = c SUBSEP "hpls" SUBSEP "hisa" SUBSEP 1; h2 = c SUBSEP "hpls" SUBSEP "hisa" SUBSEP 2
            j = c SUBSEP "hpls" SUBSEP "jacobi" SUBSEP 1; g = c SUBSEP "hpls" SUBSEP "gs" SUBSEP 1
            b1 = c SUBSEP "hpls" SUBSEP "bicgstab" SUBSEP 1; b2 = c SUBSEP "hpls" SUBSEP "bicgstab" SUBSEP 2; il = c SUBSEP "petsc" SUBSEP "bcgs+ilu" SUBSEP 1; il2 = c SUBSEP "petsc" SUBSEP "bcgs+ilu" SUBSEP 2
            if (!(h1 in has)) { h1 = h2 }
            neg0 = (cn(c, "neg") == "0"); big = (cn(c, "n") + 0 >= 100000)
            a = "–"; if ((h1 in has) && (j in has) && its[j] > 0) { x = its[h1] / its[j]; a = f2(x); if (x > 0.5) a = "**" a "**"; a = a (conv[j] ? "" : " (jacobi not conv.)"); if (neg0) { na++; if (x <= 0.5) oka++ } }
            bq = "–"; if ((h1 in has) && (g in has)) { ok = (its[h1] + 0 <= its[g] + 0); bq = its[h1] " vs " its[g] (ok ? " yes" : " **no**"); if (neg0) { nbq++; if (ok) okb++ } }
            t1 = "–"; if ((h1 in has) && (b1 in has) && so[b1] + su[b1] > 0) { x = (su[h1] + so[h1]) / (su[b1] + so[b1]); t1 = f2(x); if (x > 0.5) t1 = "**" t1 "**"; t1 = t1 (conv[b1] ? "" : " (bicgstab not conv.)"); nt++; if (x <= 0.5) okt++ }
            t2 = "–"; if ((h2 in has) && (b2 in has) && so[b2] + su[b2] > 0) { x = (su[h2] + so[h2]) / (su[b2] + so[b2]); t2 = f2(x); if (x > 0.5) t2 = "**" t2 "**"; nt++; if (x <= 0.5) okt++ }
            p1 = "–"; p2 = "–"
            if ((il in has) && !fail[il] && su[il] + so[il] > 0) {
                k1 = c SUBSEP "hpls" SUBSEP "hisa" SUBSEP 1
                if (k1 in has) { x = (su[k1] + so[k1]) / (su[il] + so[il]); p1 = f2(x); if (big) { np++; if (x <= 0.5) okp++; else p1 = "**" p1 "**" } }
                if (!conv[il]) p1 = p1 " (PETSc not conv.)"
            }
            if ((h2 in has) && (il2 in has) && !fail[il2] && su[il2] + so[il2] > 0)
                p2 = f2((su[h2] + so[h2]) / (su[il2] + so[il2])) (conv[il2] ? "" : " (PETSc not conv.)")
            printf "| %s | %s | %s | %s | %s | %s | %s |\n", c, a, bq, t1, t2, p1, p2
        }
        printf "\nGoals met: hisa iterations ≤ 0.5 × jacobi on %d of %d default (neg = 0) matrices; ≤ gs on %d of %d; hisa setup+solve ≤ 0.5 × bicgstab in %d of %d cells (1 and 2 threads, all matrices); hisa setup+solve ≤ 0.5 × PETSc ILU(0)-bcgs on %d of %d matrices with n ≥ 1e5 (1 thread against 1 process).\n", oka, na, okb, nbq, okt, nt, okp, np
    }'
    {
        echo "# Krylov baselines of hpls against PETSc on the gas family (HISA paper Tables 6 and 7, reshaped)"
        echo
        machine
        echo "- PETSc $(pkg-config --modversion PETSc 2>/dev/null || echo '?') through bench/peers/petsc_bcgs.c, one MPI process, OMP_NUM_THREADS=1, reading the Matrix Market file \`hpls gen\` wrote of the same matrix; its time is KSPSolve alone (setup before), median of the solves in one process (one solve: bench/run_all.sh repeats the table)."
        echo
        echo "Matrices \`gas:n=N,k=K\` (neg = 0), b = A 1, x0 = 0, stop at ||b - A x|| ≤ 1e-7 ||b||, no preconditioner, maxiter 2000.  hpls: \`bench_hisa_tables solve\` (public API; solve time, setup apart), $reps solve(s) per figure up to n = 1e5, one at n = 1e6 (both programs).  n = 1e7: not in this table (only k = 1 with jacobi, gs and bicgstab was run, without a PETSc peer: see hisa.md) — the script's ~40-minute budget on 2 shared cores."
        echo
        awk "$krylov_awk" "$raw"
        cat <<'NOTES'

How to read it:
- tfqmr: hpls counts half-steps (one SpMV each, like scipy), PETSc counts full steps (two SpMVs); the PETSc column shows both, and Δ its and the per-iteration ratio compare per half-step (PETSc's time per full step / 2).
- Norms: hpls tests ||b - A x|| (its recurrence, confirmed on the true residual) for every method.  PETSc: bcgs, gmres(5) and tfqmr run with `-ksp_norm_type unpreconditioned` and PC_RIGHT (the peer's default); KSPBICG does not support that pair (PETSc error 56) and runs with `-ksp_pc_side left -ksp_norm_type preconditioned`, which with pc none is the same residual.  PETSc's TFQMR tests its own residual estimate, not ||r||.  Both codes' final true residuals are in the raw log (relres=).
- Bound: bytes one iteration must move / this run's triad bandwidth at the same thread count.  Bytes = vector passes × 8 n + SpMVs × (12 nnz + 8 (n+1) + 16 n) (x read once: strict; gas's random gathers of x are not charged).  Vector passes, from the counts above each solver loop in src/iter: jacobi 4 + 1 SpMV, gs a sweep over A + its upper part again + 4, gmres(5) ≈ 21 + 1.2 SpMV averaged over a cycle (MGS: 5 passes per basis vector), bicg 20 + A and Aᵀ, bicgstab 18 + 2, tfqmr 18 + 1 per half-step, bicrstab 36 + 2, bicgsafe 43 + 2.  Below 1.0: the vectors stayed in cache (n ≤ 1e5).
- PETSc / bound: PETSc's time per iteration over the same bound (1 process against the 1-thread triad, 2 processes against the 2-thread one; tfqmr per half-step).  Bold above 2: PETSc is far from the traffic bound there, so its figure, and our ratio against it, say little about bandwidth; bench/results/petsc_bicgstab.md checks BiCGSTAB's PETSc figures against -log_view's own counts.
- Bold: a goal missed.  `*`: not converged within maxiter.
NOTES
    } >"$results/krylov_table.md.tmp"
    mv "$results/krylov_table.md.tmp" "$results/krylov_table.md"
    {
        echo "# HISA and BHISA against hpls's baselines, PETSc and KLU (HISA paper Tables 5-10, reshaped)"
        echo
        machine
        echo "- PETSc $(pkg-config --modversion PETSc 2>/dev/null || echo '?') (bench/peers/petsc_bcgs.c, 1 process: setup = PCSetUp from \`-log_view\`, i.e. ILU(0)'s factorization; solve = KSPSolve); SuiteSparse KLU (bench/peers/klu_solve.c: analyze with AMD + factor + solve)."
        echo
        echo "gas:n=N,k=K,neg=G, b = A 1, x0 = 0, tol 1e-7 relative to ||b||, maxiter 2000 (neg = 0) or 300 (neg = 0.2, where the unpreconditioned Krylov methods stall).  $reps solve(s) per figure up to n = 1e5, one at n ≥ 1e6.  neg = 0.2: methods hisa, bhisa, jacobi, gs, gmres, bicgstab, tfqmr, bicgstab+jacobi/tridiag and PETSc's bcgs, gmres, ILU-bcgs; at n = 1e6 1 thread only.  n = 1e7: k = 1, neg = 0 only, methods hisa, bhisa, jacobi, gs, bicgstab, bicgstab+jacobi and PETSc's ILU(0)-bcgs.  KLU: n = 2e3 (all), n = 1e4 only k = 1, neg = 0 (one run; 44 s at k = 2 when tried: 15 M entries of fill, growing like n²); skipped above 1e4 (HISA_KLU_MAX)."
        echo
        echo "## Table 5: the matrices"
        echo
        awk -v part=t5 "$hisa_awk" "$raw"
        echo
        echo "## Table 6: iterations (1 thread; \`*\` not converged)"
        echo
        awk -v part=t6 "$hisa_awk" "$raw"
        echo
        echo "## Table 7: seconds, setup + solve, 1 thread (PETSc: 1 process; KLU: analyze + factor + solve)"
        echo
        awk -v part=t7 "$hisa_awk" "$raw"
        echo
        echo "## Table 9: seconds, setup + solve, 2 threads (PETSc: 2 MPI processes; its ILU(0) is then per process, block Jacobi)"
        echo
        awk -v part=t9 "$hisa_awk" "$raw"
        echo
        echo "## Tables 8 and 10: the goals, as same-run ratios"
        echo
        awk "$goals_awk" "$raw"
        echo
        echo "## Memory"
        echo
        echo "Peak RSS three ways: (a) \`/usr/bin/time -f %M hpls solve --gen SPEC --solver hisa --tol 1e-7\`, the whole process; (b) the same for \`bench_hisa_tables mem SPEC hisa stop\`, which exits right after generating A and b; (c) in one process, \`bench_hisa_tables mem SPEC hisa\` resets the peak mark after generation (\`5\` written to /proc/self/clear_refs) and reads VmHWM after setup + solve: hisa's part = that peak − the RSS after generation (x included).  The goal's bound 1.1 × (2·NNZ + 4n) · 8 bytes is compared with (c) and with (a)."
        echo
        echo "| matrix | n | NNZ | (a) whole \`hpls solve\`, MB | (b) generation only, MB | (c) hisa's part, MB | bound, MB | (c) ≤ bound | (a) ≤ bound |"
        echo "|---|---:|---:|---:|---:|---:|---:|---|---|"
        awk "$awk_kv"'
            /^mem .*gen_only/ { s = kv($0, "spec"); a[s] = kv($0, "cmd_maxrss_kb"); bt[s] = kv($0, "maxrss_kb"); if (!(s in o)) o[s] = ++no; next }
            /^mem .*stage=solve/ { s = kv($0, "spec"); n[s] = kv($0, "n"); z[s] = kv($0, "nnz"); d[s] = kv($0, "peak_during_solve_kb") - kv($0, "rss_after_gen_kb"); if (!(s in o)) o[s] = ++no }
            END { for (s in o) idx[o[s]] = s
                  for (i = 1; i <= no; i++) { s = idx[i]; bound = 1.1 * (2 * z[s] + 4 * n[s]) * 8 / 1e6
                      printf "| %s | %s | %s | %.0f | %.0f | %.0f | %.0f | %s | %s |\n", s, n[s], z[s], a[s] * 1.024 / 1000, bt[s] * 1.024 / 1000, d[s] * 1.024 / 1000, bound, (d[s] * 1.024 / 1000 <= bound ? "yes" : "**no**"), (a[s] * 1.024 / 1000 <= bound ? "yes" : "**no**") } }' "$raw"
        echo
        echo "## Scale: gas:n=100000000,k=1 generated in memory, solved by hisa"
        echo
        if grep -q '^scale skipped' "$raw"; then
            echo "Skipped (less than 16 GB available): $(grep '^scale' "$raw")."
        elif grep -q '^scale' "$raw"; then
            awk "$awk_kv"'
                /^scale/ { printf "One run of `/usr/bin/time -f \"%%M %%e\" bench_hisa_tables mem gas:n=100000000,k=1 hisa` (2 threads, load %s): NNZ %s, %s iterations, setup %s s, solve %s s, relres %s; whole process %.2f GB peak RSS (%.2f GB after generation), hisa'"'"'s part %.2f GB against the bound 1.1 (2 NNZ + 4 n) 8 B = %.2f GB; wall time of the whole process, generation included, %s s.\n", kv($0, "load"), kv($0, "nnz"), kv($0, "iterations"), kv($0, "setup_s"), kv($0, "solve_s"), kv($0, "relres"), kv($0, "maxrss_kb") * 1024 / 1e9, kv($0, "rss_after_gen_kb") * 1024 / 1e9, (kv($0, "peak_during_solve_kb") - kv($0, "rss_after_gen_kb")) * 1024 / 1e9, 1.1 * (2 * kv($0, "nnz") + 4 * kv($0, "n")) * 8 / 1e9, kv($0, "wall_s") }' "$raw"
        else
            echo "Not run (HISA_SCALE=0, or the run stopped before it)."
        fi
        echo
        echo "Bold: a goal missed.  Times are setup + solve of one solve from x0 = 0 (hisa's setup: the split A = T + S and T's factorization)."
    } >"$results/hisa.md.tmp"
    mv "$results/hisa.md.tmp" "$results/hisa.md"
    echo "wrote $results/krylov_table.md and $results/hisa.md"
}

main() {
    if [ "$mode" != --format ]; then
        collect
    fi
    format_tables
}

# one line: bash has parsed every function above before it runs (the file may change)
main; exit $?
