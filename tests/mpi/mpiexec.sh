# SPDX-License-Identifier: BSD-3-Clause
# mpiexec.sh, sourced by the MPI tests: `mpi_launcher MPIEXEC SECONDS` sets the
# array run to the command that starts ranks (the caller adds -np N and the
# program), bounded by SECONDS times HPLS_MPI_TIMEOUT_SCALE (tests/CMakeLists.txt;
# 0: not bounded, a hang is then the caller's timeout's).  Open MPI's mpiexec
# needs --oversubscribe for more ranks than cores and --allow-run-as-root under
# root; MPICH's (Hydra) needs neither and knows neither.
mpi_launcher() {
    run=()
    [ "$2" -gt 0 ] && run=(timeout $(($2 * ${HPLS_MPI_TIMEOUT_SCALE:-1})))
    run+=("$1")
    if "$1" --version 2>&1 | grep -q "Open MPI\|OpenRTE"; then
        run+=(--oversubscribe)
        [ "$(id -u)" -eq 0 ] && run+=(--allow-run-as-root)
    fi
    return 0
}
