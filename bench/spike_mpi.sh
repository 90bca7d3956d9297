#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# spike_mpi.sh: one run of the distributed tridiagonal table: hpls's g-Spike on
# 1, 2 and 4 MPI ranks (gspike_p = 1 partition per rank, 1 thread each) against
# ScaLAPACK's PDDTTRF + PDDTTRS (PDDTSV's factorization and solve; Debian's
# libscalapack-openmpi) on the same T, n = 1e6 and 1e7: the factorization's
# and one solve's seconds, and the forward error max |x - 1| (b = T 1); written
# to $HPLS_BENCH_OUT/spike_mpi.md (bench/run_all.sh repeats it).
#   bench/spike_mpi.sh [BUILD_DIR]      (BUILD_DIR an MPI build)
set -euo pipefail
. "$(dirname "$0")/common.sh"
build=${1:-./build}
build_targets "$build" hpls_cmd
grep -q '^HPLS_MPI:BOOL=ON' "$build/CMakeCache.txt" || bench_die "$build is not an MPI build"
hpls=$build/bin/hpls
sizes="1000000 10000000"
[ "${HPLS_BENCH_SMOKE:-0}" != 1 ] || sizes="10000 100000"
ranks="1 2 4"

# peer_scalapack BUILD: bench/peers/scalapack_ddtsv.c compiled against Debian's
# ScaLAPACK for OpenMPI (installed when missing); empty when it cannot be had
peer_scalapack() {
    local bin=$1/bench/scalapack_ddtsv lib=/usr/lib/x86_64-linux-gnu/libscalapack-openmpi.so
    [ -e "$lib" ] || apt_install libscalapack-openmpi-dev openmpi-bin >&2 || return 0
    command -v "${MPICC:-mpicc}" >/dev/null || return 0
    mkdir -p "$1/bench"
    if [ ! -x "$bin" ] || [ "$bench_dir/peers/scalapack_ddtsv.c" -nt "$bin" ]; then
        "${MPICC:-mpicc}" -O2 -std=c11 -Wall -Wextra -Werror "$bench_dir/peers/scalapack_ddtsv.c" \
            -o "$bin" -lscalapack-openmpi -lm || return 0
    fi
    note_peer "ScaLAPACK $(deb_version libscalapack-openmpi-dev) (Debian libscalapack-openmpi-dev: PDDTTRF, PDDTTRS), $(mpiexec --version 2>/dev/null | head -1)"
    echo "$bin"
}
scalapack=$(peer_scalapack "$build")

field() { grep -o "\"$1\":[^,}]*" <<<"$2" | head -1 | cut -d: -f2 | tr -d '"'; }
kv() { sed -n "s/.*[ ^]$1=\([^ ]*\).*/\1/p" <<<" $2"; }
# P single-threaded processes for both: OMP_PROC_BIND/OMP_PLACES unset (bound by
# OpenMP, every rank's thread would sit on core 0: bench/mpi.sh), mpiexec binding
# none (4 ranks on this 2-core machine are 2 per core, for both peers alike)
prun() {
    local np=$1
    shift
    env -u OMP_PROC_BIND -u OMP_PLACES OMP_NUM_THREADS=1 \
        mpiexec --allow-run-as-root --oversubscribe --bind-to none -n "$np" "$@"
}
{
    echo "# g-Spike on MPI ranks against ScaLAPACK's PDDTTRF + PDDTTRS"
    echo
    echo "T = tridiag(lower, diag, upper) of order n, b = T 1, error = max |x - 1|.  *hpls*: \`mpiexec -n P hpls solve --gen tridiag:type=toeplitz,n=N,lower=..,diag=..,upper=.. --solver gspike --gspike_p 1 --threads 1 --json\` (each rank builds its rows, one partition each; the reduced system, 2P - 2 rows, is gathered to rank 0 and solved there): setup_s (T's rows taken, factorization, reduced system at rank 0) and solve_s (one solve, with the refinement when the spikes grew or a partition was repaired, and the distributed true residual).  *ScaLAPACK*: \`mpiexec -n P scalapack_ddtsv N lower diag upper 3\` (bench/peers/scalapack_ddtsv.c: each process builds its block of ceil(N/P) rows; the median of 3 factorizations and solves, the slowest process's time): divide and conquer, LU without pivoting (diagonally dominant-like T only; info > 0: a block it could not factor).  Both: P single-threaded processes, \`--bind-to none\`; this machine has 2 cores, so P = 4 runs 2 processes per core.  #18 is diagonally dominant (ScaLAPACK's domain); #16 is not (ScaLAPACK's LU without pivoting loses digits on it); a partition of #16 of odd order would be nearly singular and repaired (Sec. 2.2), but at these n and P every partition has even order: singular partitions 0 is expected."
    echo
    echo "| matrix | n | ranks | hpls setup s | hpls solve s | hpls error | singular partitions | ScaLAPACK factor s | ScaLAPACK solve s | ScaLAPACK error | ScaLAPACK info | hpls / ScaLAPACK (setup + solve) |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    for mat in "18:-1:4:-1" "16:1:1e-8:1"; do
        IFS=: read -r id lower diag upper <<<"$mat"
        for n in $sizes; do
            for np in $ranks; do
                json=$(prun "$np" "$hpls" solve --gen "tridiag:type=toeplitz,n=$n,lower=$lower,diag=$diag,upper=$upper" \
                    --solver gspike --gspike_p 1 --threads 1 --json)
                line=""
                # a ScaLAPACK run that stops (its abort) leaves its columns empty
                [ -z "$scalapack" ] || line=$(prun "$np" "$scalapack" "$n" "$lower" "$diag" "$upper" 3) || line=
                awk -v m="#$id tridiag($lower, $diag, $upper)" -v n="$n" -v np="$np" \
                    -v hs="$(field setup_s "$json")" -v hv="$(field solve_s "$json")" \
                    -v he="$(field error "$json")" -v sb="$(field singular_blocks "$json")" \
                    -v sf="$(kv factor_s "$line")" -v ss="$(kv solve_s "$line")" \
                    -v se="$(kv error "$line")" -v si="$(kv info "$line")" 'BEGIN {
                    printf "| %s | %d | %d | %.4f | %.4f | %.2e | %s | %s | %s | %s | %s | %s |\n",
                        m, n, np, hs, hv, he, sb, sf == "" ? "-" : sprintf("%.4f", sf),
                        ss == "" ? "-" : sprintf("%.4f", ss), se == "" ? "-" : sprintf("%.2e", se),
                        si == "" ? "-" : si, sf == "" ? "-" : sprintf("%.2f", (hs + hv) / (sf + ss)) }'
            done
        done
    done
    if [ -z "$scalapack" ]; then
        echo
        echo "ScaLAPACK (libscalapack-openmpi-dev) was not available: its columns are empty."
    fi
} >"$out/spike_mpi.md"
cat "$out/spike_mpi.md"
