#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Reference iteration counts from scipy (Debian python3-scipy) for test_solver.

Run once, from the repository root, after building:
    /usr/bin/python3 tests/ref/scipy_iterations.py build/bin/hpls > tests/ref/scipy_iterations.txt
Solvers written NAME:restart=M pass that restart (scipy counts gmres inner
iterations with callback_type="pr_norm", one per product with A).
Each problem is written by `hpls gen`, so scipy sees exactly hpls's matrix; b = A*1,
x0 = 0, stop when ||b - A x|| <= tol ||b|| (atol = 0); iterations counted by callback.
"""
import inspect
import subprocess
import sys
import tempfile

import numpy as np
import scipy
import scipy.io
import scipy.sparse.linalg as sla

CASES = [
    ("gas:n=20000,k=1", "bicgstab", "none", 1e-8),
    ("gas:n=20000,k=2", "bicgstab", "none", 1e-8),
    ("gas:n=20000,k=3", "bicgstab", "none", 1e-8),
    ("gas:n=20000,k=2", "bicgstab", "jacobi", 1e-8),
    ("convdiff3d:nx=20,pe=10", "bicgstab", "none", 1e-8),
    ("convdiff3d:nx=20,pe=100", "bicgstab", "jacobi", 1e-8),
    ("poisson2d:nx=64", "cg", "none", 1e-8),
    ("poisson2d:nx=64", "cg", "jacobi", 1e-8),
    ("poisson3d:nx=20", "cg", "none", 1e-10),
    ("poisson3d:nx=20", "bicgstab", "none", 1e-8),
    ("poisson3d:nx=20", "cg", "jacobi", 1e-8),
    ("gas:n=20000,k=1", "gmres", "none", 1e-8),
    ("gas:n=20000,k=2", "gmres:restart=5", "none", 1e-7),
    ("gas:n=20000,k=3", "gmres:restart=5", "jacobi", 1e-8),
    ("convdiff3d:nx=20,pe=10", "gmres", "jacobi", 1e-8),
    ("convdiff3d:nx=20,pe=100", "gmres:restart=10", "none", 1e-8),
    ("poisson2d:nx=64", "gmres:restart=50", "none", 1e-8),
]


def solve(A, b, solver, precond, tol):
    count = [0]

    def cb(_):
        count[0] += 1

    M = None
    if precond == "jacobi":
        dinv = 1.0 / A.diagonal()
        M = sla.LinearOperator(A.shape, matvec=lambda v: dinv * v.ravel())
    name, _, opt = solver.partition(":")
    extra = {}
    if name == "gmres":
        # one callback per inner iteration (one product with A), as hpls counts
        extra = {"restart": int(opt.split("=")[1]) if opt else 30, "callback_type": "pr_norm"}
    fn = {"cg": sla.cg, "bicgstab": sla.bicgstab, "gmres": sla.gmres}[name]
    # scipy 1.12 renamed tol to rtol (and 1.14 removed tol)
    extra["rtol" if "rtol" in inspect.signature(fn).parameters else "tol"] = tol
    x, info = fn(A, b, x0=np.zeros_like(b), atol=0.0, maxiter=100000, M=M, callback=cb, **extra)
    relres = np.linalg.norm(b - A @ x) / np.linalg.norm(b)
    if info != 0:
        raise SystemExit(f"scipy {solver} did not converge (info {info})")
    return count[0], relres


def main():
    hpls = sys.argv[1]
    print(f"# scipy {scipy.__version__} iteration counts; made by tests/ref/scipy_iterations.py")
    print("# spec solver precond tol iterations   (true relres of scipy's x in the comment)")
    with tempfile.TemporaryDirectory() as tmp:
        for spec, solver, precond, tol in CASES:
            path = f"{tmp}/A.mtx"
            subprocess.run([hpls, "gen", spec, "-o", path], check=True)
            A = scipy.io.mmread(path).tocsr()
            b = A @ np.ones(A.shape[0])
            its, relres = solve(A, b, solver, precond, tol)
            print(f"{spec} {solver} {precond} {tol:g} {its}   # relres {relres:.2e}")


if __name__ == "__main__":
    main()
