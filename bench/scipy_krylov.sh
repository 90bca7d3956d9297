#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# scipy_krylov.sh: hpls's Krylov iteration counts beside scipy's on the problems of
# tests/ref/scipy_iterations.py (the reference test_solver checks, made with Debian's
# scipy 1.10), counted again with Debian's scipy and with the current scipy from
# PyPI; written to $HPLS_BENCH_OUT/scipy_krylov.md (counts, so one run tells all).
#   bench/scipy_krylov.sh [BUILD_DIR]
set -euo pipefail
. "$(dirname "$0")/common.sh"
build=${1:-./build}
build_targets "$build" hpls_cmd
hpls=$build/bin/hpls
deb=$(debian_python) || bench_die "Debian's python3-scipy is needed"
pypi=$(pypi_python) || bench_die "cannot make the PyPI scipy virtual environment"
ref=$root_dir/tests/ref/scipy_iterations.py
"$deb" "$ref" "$hpls" >"$out/deb.txt"
"$pypi" "$ref" "$hpls" >"$out/pypi.txt"
dv=$(sed -n '1s/# scipy \([^ ]*\) .*/\1/p' "$out/deb.txt")
pv=$(sed -n '1s/# scipy \([^ ]*\) .*/\1/p' "$out/pypi.txt")
note_peer "scipy $dv (Debian python3-scipy $(deb_version python3-scipy))"
note_peer "scipy $pv (PyPI, in a virtual environment)"
{
    echo "# Krylov iteration counts: hpls and scipy"
    echo
    echo "The problems of \`tests/ref/scipy_iterations.py\` (b = A 1, x0 = 0, stop at ||b - A x|| <="
    echo "tol ||b||; gmres counted in inner iterations), solved by \`hpls solve --json\` and by"
    echo "scipy.sparse.linalg with Debian's scipy $dv (the reference tests/ref/scipy_iterations.txt"
    echo "holds) and with the current scipy $pv from PyPI.  Δ: hpls minus scipy."
    echo
    echo "| problem | solver | precond | tol | hpls | scipy $dv (Debian) | Δ | scipy $pv (PyPI) | Δ |"
    echo "|---|---|---|---:|---:|---:|---:|---:|---:|"
    paste -d' ' <(grep -v '^#' "$out/deb.txt" | awk '{ print $1, $2, $3, $4, $5 }') \
        <(grep -v '^#' "$out/pypi.txt" | awk '{ print $1, $5 }') |
        while read -r spec solver pc tol di spec2 pi; do
            [ "$spec" = "$spec2" ] || bench_die "the two scipy runs list different problems"
            opts=(--solver "${solver%%:*}")
            [[ $solver != *:restart=* ]] || opts+=(--restart "${solver##*=}")
            hi=$("$hpls" solve --gen "$spec" "${opts[@]}" --precond "$pc" --tol "$tol" --json |
                sed -n 's/.*"iterations":\([0-9]*\).*/\1/p')
            echo "| $spec | $solver | $pc | $tol | $hi | $di | $((hi - di)) | $pi | $((hi - pi)) |"
        done
} >"$out/scipy_krylov.md"
rm -f "$out/deb.txt" "$out/pypi.txt"
echo "wrote $out/scipy_krylov.md"
