#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# mmread.sh: one run of the Matrix Market read speed of hpls against scipy.io.mmread,
# Debian's scipy (python3-scipy; before 1.12 its reader is pure Python) and the
# current scipy from PyPI (a compiled reader) in a virtual environment, all on the
# same file (a random 1e6 x 1e6 matrix with 5e6 entries, made once under $TMPDIR).
# Writes $HPLS_BENCH_OUT/mmread.md (bench/run_all.sh repeats it).
#   bench/mmread.sh [BUILD_DIR]
set -euo pipefail
. "$(dirname "$0")/common.sh"
build=${1:-./build}
build_targets "$build" bench_mmread
n=1000000
[ "${HPLS_BENCH_SMOKE:-0}" != 1 ] || n=10000
file=${TMPDIR:-/tmp}/hpls_bench/mmread_${n}x5.mtx
mkdir -p "$(dirname "$file")"
[ -s "$file" ] || "$build/bin/bench_mmread" --make "$file" "$n" 5 1 >/dev/null

kv() { sed -n "s/.*[ ^]$1=\([^ ]*\).*/\1/p" <<<" $2"; }
ours=$("$build/bin/bench_mmread" "$file" 1)
mb=$(kv mb "$ours")
hs=$(kv median_s "$ours")

# scipy_read PYTHON: "version seconds" of one scipy.io.mmread of the file
scipy_read() {
    "$1" - "$file" "$((n * 5))" <<'EOF'
import sys, time
import scipy, scipy.io
t = time.perf_counter()
A = scipy.io.mmread(sys.argv[1])
s = time.perf_counter() - t
assert A.nnz == int(sys.argv[2]), A.nnz
print(scipy.__version__, f"{s:.3f}")
EOF
}
deb=$(debian_python) || bench_die "Debian's python3-scipy is needed"
pypi=$(pypi_python) || bench_die "cannot make the PyPI scipy virtual environment"
read -r dv ds < <(scipy_read "$deb")
read -r pv ps < <(scipy_read "$pypi")
note_peer "scipy $dv (Debian python3-scipy $(deb_version python3-scipy))"
note_peer "scipy $pv (PyPI, in a virtual environment; numpy $("$pypi" -c 'import numpy; print(numpy.__version__)'))"

{
    echo "# Matrix Market read: hpls vs scipy.io.mmread"
    echo
    echo "One run: a random $n x $n coordinate real general file, $((n * 5)) entries written with \`%.17g\` by"
    echo "\`bench_mmread --make FILE $n 5 1\`, read once by each reader from the page cache (the"
    echo "file was read before).  hpls: \`hpls_mm_read_csr\` (parse + CSR assembly); scipy:"
    echo "\`scipy.io.mmread\` (returns COO).  scipy before 1.12 reads in pure Python; from 1.12"
    echo "on with a compiled reader (fast_matrix_market), the fair peer."
    echo
    echo "| reader | version | file MB | s | MB/s | s / hpls s |"
    echo "|---|---|---:|---:|---:|---:|"
    awk -v mb="$mb" -v hs="$hs" -v dv="$dv" -v ds="$ds" -v pv="$pv" -v ps="$ps" 'BEGIN {
        printf "| hpls_mm_read_csr | this commit | %s | %.3f | %.1f | 1.00 |\n", mb, hs, mb / hs
        printf "| scipy.io.mmread (Debian python3-scipy) | %s | %s | %.3f | %.1f | %.2f |\n", dv, mb, ds, mb / ds, ds / hs
        printf "| scipy.io.mmread (PyPI) | %s | %s | %.3f | %.1f | %.2f |\n", pv, mb, ps, mb / ps, ps / hs }'
} >"$out/mmread.md"
echo "wrote $out/mmread.md"
