# SPDX-License-Identifier: BSD-3-Clause
# common.sh: sourced by the table scripts of bench/ (not run by itself).
#
# A table script makes ONE run of its table(s) and writes the Markdown into
# $HPLS_BENCH_OUT (a directory; default $TMPDIR/hpls_bench/out/<script>).  Only
# bench/run_all.sh publishes into bench/results, from several such runs (see
# bench/README.md).  Peers are installed here when missing and running as root:
# Debian packages with apt-get, the current scipy from PyPI into a virtual
# environment under $HPLS_BENCH_VENV (default $TMPDIR/hpls_bench/venv; never in git).

bench_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root_dir=$(cd "$bench_dir/.." && pwd)
out=${HPLS_BENCH_OUT:-${TMPDIR:-/tmp}/hpls_bench/out/$(basename "$0" .sh)}
mkdir -p "$out"

# One thread per core and no migration: the figures then vary less between runs.
export OMP_PROC_BIND=close OMP_PLACES=cores

bench_die() {
    echo "$(basename "$0"): $*" >&2
    exit 2
}

# build_targets BUILD TARGET...: configure BUILD if needed, build the targets
build_targets() {
    local build=$1
    shift
    [ -f "$build/CMakeCache.txt" ] || cmake -S "$root_dir" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build "$build" --target "$@" -j"$(nproc)" >/dev/null
}

# apt_install PKG...: installs Debian packages when root; otherwise says what to run
apt_install() {
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        [ -n "$(find /var/lib/apt/lists -name '*Packages*' -print -quit 2>/dev/null)" ] ||
            apt-get update -qq >/dev/null
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
    else
        echo "$(basename "$0"): missing $*: sudo apt-get install $*" >&2
        return 1
    fi
}

petsc_pc() {
    local name
    for name in PETSc petsc; do
        pkg-config --exists "$name" 2>/dev/null && { echo "$name"; return 0; }
    done
    return 1
}

# peer_petsc BUILD: path of bench/peers/petsc_bcgs.c compiled against Debian's
# PETSc (installed when missing); empty when PETSc cannot be had
peer_petsc() {
    local pc bin=$1/bench/petsc_bcgs
    pc=$(petsc_pc) || { apt_install petsc-dev openmpi-bin >&2 && pc=$(petsc_pc); } || return 0
    command -v "${MPICC:-mpicc}" >/dev/null || return 0
    mkdir -p "$1/bench"
    if [ ! -x "$bin" ] || [ "$bench_dir/peers/petsc_bcgs.c" -nt "$bin" ]; then
        # PETSc's .pc omits MPI's include path on Debian: mpicc supplies it
        # shellcheck disable=SC2046
        "${MPICC:-mpicc}" -O2 -std=c11 -Wall -Wextra -Werror "$bench_dir/peers/petsc_bcgs.c" \
            -o "$bin" $(pkg-config --cflags --libs "$pc") || return 0
    fi
    echo "$bin"
}

# shared_data VAR SUB [required]: VAR = $HPLS_DATA_DIR/SUB (default ../shared/data
# beside the repository); with "required", stop when that folder is missing
shared_data() {
    printf -v "$1" '%s' "${HPLS_DATA_DIR:-$root_dir/../shared/data}/$2"
    [ "${3:-}" != required ] || [ -d "${!1}" ] || bench_die "no $2 in ${!1} (set HPLS_DATA_DIR)"
}

# mpi_run NPROCS CMD...: CMD under mpiexec with NPROCS single-threaded processes
mpi_cmd=(env OMP_NUM_THREADS=1 mpiexec --allow-run-as-root --oversubscribe --bind-to core -n)
mpi_run() {
    "${mpi_cmd[@]}" "$@"
}

# peer_klu BUILD: bench/peers/klu_solve.c against SuiteSparse KLU, or empty
peer_klu() {
    local bin=$1/bench/klu_solve
    [ -f /usr/include/suitesparse/klu.h ] || apt_install libsuitesparse-dev >&2 || return 0
    mkdir -p "$1/bench"
    if [ ! -x "$bin" ] || [ "$bench_dir/peers/klu_solve.c" -nt "$bin" ]; then
        cc -O2 -std=c11 -Wall -Wextra -Werror -I/usr/include/suitesparse \
            "$bench_dir/peers/klu_solve.c" -o "$bin" -lklu -lm || return 0
    fi
    echo "$bin"
}

# debian_python: /usr/bin/python3 with Debian's python3-scipy (installed when missing)
debian_python() {
    /usr/bin/python3 -c 'import scipy' 2>/dev/null || apt_install python3-scipy >&2 || return 1
    echo /usr/bin/python3
}

# pypi_python: the python of a virtual environment holding the current scipy from
# PyPI (created on first use; HPLS_BENCH_SCIPY=1.16.2 pins a release)
pypi_python() {
    local venv=${HPLS_BENCH_VENV:-${TMPDIR:-/tmp}/hpls_bench/venv}
    if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import scipy' 2>/dev/null; then
        /usr/bin/python3 -c 'import venv, ensurepip' 2>/dev/null || apt_install python3-venv >&2 || return 1
        /usr/bin/python3 -m venv "$venv" >&2 || return 1
        "$venv/bin/pip" install -q --disable-pip-version-check \
            "scipy${HPLS_BENCH_SCIPY:+==$HPLS_BENCH_SCIPY}" >&2 || return 1
    fi
    echo "$venv/bin/python"
}

# note_peer TEXT: records a peer and its version for the table's header (the
# driver reads $out/peers.txt)
note_peer() {
    grep -qxF "$*" "$out/peers.txt" 2>/dev/null || echo "$*" >>"$out/peers.txt"
}

deb_version() { dpkg-query -W -f '${Version}' "$1" 2>/dev/null || echo '?'; }

lapack_peer() {
    note_peer "LAPACK: $(basename "$(readlink -f /usr/lib/x86_64-linux-gnu/liblapack.so.3 2>/dev/null || echo liblapack)") (Debian liblapack3 $(deb_version liblapack3))"
}

# petsc_peer_checked BUILD: petsc_bcgs compiled (dies when PETSc or mpiexec is
# missing), its version noted for the table's header
petsc_peer_checked() {
    local peer
    peer=$(peer_petsc "$1")
    [ -n "$peer" ] || bench_die "PETSc (petsc-dev) and mpicc are needed"
    command -v mpiexec >/dev/null || bench_die "mpiexec (openmpi-bin) is needed"
    note_peer "PETSc $(pkg-config --modversion "$(petsc_pc)") (Debian petsc-dev $(deb_version petsc-dev)), $(mpiexec --version 2>/dev/null | head -1)"
    echo "$peer"
}

# triads BUILD: the STREAM-style triad at 1 and 2 threads into triad[1], triad[2]
# (GB/s; bench_hisa_tables triad T, 24 bytes per entry)
declare -A triad
triads() {
    local t
    for t in 1 2; do
        triad[$t]=$("$1/bin/bench_hisa_tables" triad "$t" | sed -n 's/.*triad_gbs=\([^ ]*\).*/\1/p')
    done
}
