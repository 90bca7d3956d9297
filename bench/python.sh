#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# python.sh: the cost of going through Python, and hpls against scipy's own BiCGSTAB,
# on gas n=1e6 (BiCGSTAB, no preconditioner, tol 1e-8) at 1 and 2 threads.
# Columns, all from one run: setup+solve of the command (`hpls solve --json`, C API),
# of hpls.solve from Python (wall time of the call: CSR conversion, setup, solve),
# their ratio, Python's wall time over the library's own setup_s + solve_s in the same
# process (the wrapper alone), and scipy.sparse.linalg.bicgstab's wall time on the
# same matrix over hpls.solve's.  Written to $HPLS_BENCH_OUT/python.md.
#   bench/python.sh [BUILD_DIR]
set -euo pipefail
. "$(dirname "$0")/common.sh"
build=${1:-./build}
spec=${HPLS_BENCH_SMOKE:+gas:n=1e4}
spec=${spec:-gas:n=1e6}
build_targets "$build" hpls_cmd
hpls=$build/bin/hpls
# hpls's Python package in its own virtual environment (rebuilt incrementally)
venv=${HPLS_BENCH_PYVENV:-${TMPDIR:-/tmp}/hpls_bench/pyvenv}
if [ ! -x "$venv/bin/python" ]; then
    /usr/bin/python3 -m venv "$venv" >&2 || bench_die "cannot make $venv (scripts/deps.sh --python)"
fi
"$venv/bin/pip" install -q --disable-pip-version-check --config-settings=build-dir="$venv/build" "$root_dir/python" >&2
# scipy at the same threads as hpls: its BLAS limited to T threads per row
"$venv/bin/pip" install -q --disable-pip-version-check threadpoolctl >&2
py=$venv/bin/python
note_peer "scipy $("$py" -c 'import scipy; print(scipy.__version__)') (PyPI, in a virtual environment), numpy $("$py" -c 'import numpy; print(numpy.__version__)')"

# the command at 1 and 2 threads: setup + solve as it reports them
cmd_runs=()
for t in 1 2; do
    cmd_runs+=("$("$hpls" solve --gen "$spec" --threads "$t" --json | "$py" -c '
import json, sys
r = json.load(sys.stdin)
print("%d:%r:%d" % (r["threads"], r["setup_s"] + r["solve_s"], r["iterations"]))')")
done

"$py" - "$spec" "${cmd_runs[@]}" >"$out/python.md" <<'PY'
import sys, time
import numpy as np
import scipy
import scipy.sparse.linalg as sla
from threadpoolctl import threadpool_limits
import hpls

spec = sys.argv[1]
cmd = [tuple(float(v) for v in a.split(":")) for a in sys.argv[2:]]
A, b = hpls.generate(spec)
# as a user would hold it: scipy's own int32 index arrays
A = type(A)((A.data, A.indices.astype(np.int32), A.indptr.astype(np.int32)), shape=A.shape)

def scipy_bicgstab(threads):
    """scipy's BiCGSTAB with its BLAS on `threads` threads: seconds, iterations, relres"""
    its = [0]
    def count(xk):
        its[0] += 1
    with threadpool_limits(limits=threads):
        t = time.perf_counter()
        try:
            xs, code = sla.bicgstab(A, b, rtol=1e-8, atol=0.0, maxiter=10000, callback=count)
        except TypeError:  # scipy < 1.12 says tol
            xs, code = sla.bicgstab(A, b, tol=1e-8, atol=0.0, maxiter=10000, callback=count)
        sc_s = time.perf_counter() - t
    return sc_s, its[0], np.linalg.norm(b - A @ xs) / np.linalg.norm(b)

print("# Through Python: hpls.solve against the command, and against scipy's BiCGSTAB")
print()
print("%s, BiCGSTAB without preconditioner, tol 1e-8 (relative to ||b||), x0 = 0; each "
      "figure one call.  command: `hpls solve --gen %s --threads T --json`, its setup_s + "
      "solve_s; hpls.solve: the wall time of the call from Python (CSR conversion from "
      "scipy's int32 indices, setup, solve) with threads=T; python / C: their ratio; "
      "wrapper: hpls.solve's wall time over the library's own setup_s + solve_s in that "
      "call; scipy: scipy.sparse.linalg.bicgstab (scipy %s) at the same T threads "
      "(threadpoolctl limits its BLAS to T; its sparse product has one thread whatever T), "
      "one call, and scipy / hpls its wall time over hpls.solve's; relres: the true "
      "relative residual each reached." % (spec, spec, scipy.__version__))
print()
print("| problem | threads | command s | its | hpls.solve s | its | python / C | wrapper "
      "| scipy bicgstab s | its | scipy relres | hpls relres | scipy / hpls |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for threads, cmd_s, cmd_its in cmd:
    t = time.perf_counter()
    x, info = hpls.solve(A, b, solver="bicgstab", tol=1e-8, threads=int(threads),
                         return_info=True)
    py_s = time.perf_counter() - t
    inner = info.setup_s + info.solve_s
    sc_s, sc_its, sc_rel = scipy_bicgstab(int(threads))
    print("| %s | %d | %.3f | %d | %.3f | %d | %.3f | %.3f | %.3f | %d | %.1e | %.1e | %.2f |" % (
        spec, info.threads, cmd_s, cmd_its, py_s, info.iterations, py_s / cmd_s, py_s / inner,
        sc_s, sc_its, sc_rel, info.relres, sc_s / py_s))
PY
cat "$out/python.md"
