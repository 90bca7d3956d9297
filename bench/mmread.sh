#!/usr/bin/env bash
# mmread.sh: Matrix Market read speed of hpls against scipy.io.mmread, both
# timed in the same run on the same file (a random 1e6 x 1e6 matrix with 5e6
# entries, made once under /tmp).  Writes bench/results/mmread.md.
#
#   bench/mmread.sh [BUILD_DIR]     (default ./build; configured if needed)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
build=${1:-./build}
file=/tmp/hpls_mmread_1e6x5.mtx
python=/usr/bin/python3

[ -f "$build/CMakeCache.txt" ] || cmake -S "$here/.." -B "$build" -DCMAKE_BUILD_TYPE=Release
cmake --build "$build" --target bench_mmread -j"$(nproc)"
bench="$build/bin/bench_mmread"

[ -s "$file" ] || "$bench" --make "$file" 1000000 5 1

# ours: median of 5 reads; the line is key=value pairs
ours=$("$bench" "$file" 5)
echo "hpls:  $ours"
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$ours"; }
mb=$(field mb)
ours_s=$(field median_s)
ours_mbps=$(field mb_per_s)

# scipy: median of 3 reads (it returns COO; hpls also builds CSR)
scipy=$("$python" - "$file" <<'EOF'
import statistics, sys, time
import scipy, scipy.io
times = []
for _ in range(3):
    t = time.perf_counter()
    A = scipy.io.mmread(sys.argv[1])
    times.append(time.perf_counter() - t)
    assert A.nnz == 5000000, A.nnz
print(scipy.__version__, f"{statistics.median(times):.3f}")
EOF
)
scipy_version=${scipy% *}
scipy_s=${scipy#* }
echo "scipy: $scipy_version median_s=$scipy_s"

read -r scipy_mbps ratio < <(awk -v mb="$mb" -v s="$scipy_s" -v o="$ours_s" \
    'BEGIN { printf "%.1f %.2f\n", mb / s, s / o }')
echo "hpls is ${ratio}x as fast as scipy.io.mmread"

mkdir -p "$here/results"
cat >"$here/results/mmread.md" <<EOF
# Matrix Market read: hpls vs scipy.io.mmread

Random 1,000,000 x 1,000,000 coordinate real general file, 5,000,000 entries written
with \`%.17g\` by \`bench_mmread --make $file 1000000 5 1\`; produced by \`bench/mmread.sh\`.
hpls: \`hpls_mm_read_csr\` (parse + CSR assembly), median of 5 reads.
scipy $scipy_version: \`scipy.io.mmread\` (returns COO), median of 3 reads, same run.
Both read a file in the page cache.

| file MB | hpls s | hpls MB/s | scipy s | scipy MB/s | scipy s / hpls s | date | nproc |
|---|---|---|---|---|---|---|---|
| $mb | $ours_s | $ours_mbps | $scipy_s | $scipy_mbps | $ratio | $(date -u +%Y-%m-%d) | $(nproc) |
EOF
echo "wrote $here/results/mmread.md"
