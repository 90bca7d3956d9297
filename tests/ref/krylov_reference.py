#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Reference iteration counts from scipy (Debian python3-scipy) for the Krylov
methods bicg, cgs, qmr, tfqmr, gmres(m) and minres (tests/unit/test_krylov.c and
the lead's gmres/minres tests read the same file).

Run once, from the repository root, after building:
    /usr/bin/python3 tests/ref/krylov_reference.py build/bin/hpls > tests/ref/krylov_iterations.txt
Line format (as tests/ref/scipy_iterations.txt): `spec solver precond tol iterations`,
where solver may carry options after a colon, e.g. `gmres:restart=5` (the test turns
them into key=value options).  Each problem is written by `hpls gen`, so scipy sees
exactly hpls's matrix; b = A*1, x0 = 0, tol relative to ||b||, atol = 0.

How the iterations are counted (callbacks):
- bicg, cgs, qmr: one callback per iteration; scipy's own stopping test (recursive
  residual <= tol ||b||).  Preconditioner jacobi: M = D (bicg also M^-T = D^-1);
  qmr uses M1 = identity, M2 = jacobi (right preconditioning).
- tfqmr: one callback per half-step (one SpMV), as hpls counts; scipy stops when
  its bound tau sqrt(m) < tol ||r0|| (hpls uses tau sqrt(m+1) <= tol ||b||, so a
  count may differ by one).  Only precond none: scipy 1.10's preconditioned tfqmr
  mixes M A (in the recurrences) with x += M d, which is neither left nor right
  preconditioning, so its counts are not a reference for a right-preconditioned TFQMR.
  A case where scipy's bound passed but its true residual did not is written as a
  comment (hpls confirms on the true residual and goes on).
- gmres: restarted GMRES(m); counted in inner (Arnoldi) iterations = SpMVs of the
  Krylov basis, total over all cycles, with callback_type='pr_norm' (one callback
  per inner iteration).  scipy is asked for a tolerance it cannot reach, so every
  cycle runs its full m steps as in textbook GMRES(m), and the count is the first
  inner iteration whose residual estimate ||r||/||b|| <= tol (without preconditioner
  the estimate is the true residual in exact arithmetic).  Only precond none:
  scipy 1.10 preconditions gmres on the left, hpls on the right.
- minres: scipy's own test is on a different quantity, so the count is the first
  iteration whose true residual ||b - A x|| / ||b|| <= tol (callback(x) each
  iteration).  Symmetric positive definite (poisson) and a symmetric indefinite
  Toeplitz tridiagonal (-1, 0.5, -1).
"""
import subprocess
import sys
import tempfile

import numpy as np
import scipy
import scipy.io
import scipy.sparse.linalg as sla

PROBLEMS = [
    "gas:n=20000,k=1",
    "gas:n=20000,k=2",
    "gas:n=20000,k=3",
    "convdiff3d:nx=20,pe=10",
    "convdiff3d:nx=20,pe=100",
    "poisson2d:nx=64",
    "poisson3d:nx=20",
]
TOL = 1e-8

CASES = []
for spec in PROBLEMS:
    for solver in ("bicg", "cgs", "qmr"):
        for precond in ("none", "jacobi"):
            CASES.append((spec, solver, precond))
    CASES.append((spec, "tfqmr", "none"))
    for restart in (30, 5):
        CASES.append((spec, f"gmres:restart={restart}", "none"))
for spec in ("poisson2d:nx=64", "poisson3d:nx=20", "tridiag:type=toeplitz,n=400,lower=-1,diag=0.5,upper=-1"):
    CASES.append((spec, "minres", "none"))


class Reached(Exception):
    """Raised from a callback when the counted criterion is met."""


def jacobi(A):
    dinv = 1.0 / A.diagonal()
    apply = lambda v: dinv * v.ravel()
    return sla.LinearOperator(A.shape, matvec=apply, rmatvec=apply)


def solve(A, b, solver, precond, tol):
    """Returns (iterations, true relres of the final x) or None if scipy failed."""
    bnorm = np.linalg.norm(b)
    count = [0]
    state = {"x": None}

    def cb(_):
        count[0] += 1

    M = jacobi(A) if precond == "jacobi" else None
    x0 = np.zeros_like(b)
    name, _, opt = solver.partition(":")
    if name in ("bicg", "cgs"):
        fn = {"bicg": sla.bicg, "cgs": sla.cgs}[name]
        x, info = fn(A, b, x0=x0, tol=tol, atol=0.0, maxiter=100000, M=M, callback=cb)
    elif name == "qmr":
        eye = sla.LinearOperator(A.shape, matvec=lambda v: v.ravel(), rmatvec=lambda v: v.ravel())
        M2 = M if M is not None else eye
        x, info = sla.qmr(A, b, x0=x0, tol=tol, atol=0.0, maxiter=100000, M1=eye, M2=M2, callback=cb)
    elif name == "tfqmr":
        x, info = sla.tfqmr(A, b, x0=x0, tol=tol, atol=0.0, maxiter=100000, callback=cb)
    elif name == "gmres":
        restart = int(opt.split("=")[1])

        def cb_pr(prnorm):
            count[0] += 1
            if prnorm <= tol:
                raise Reached

        try:
            sla.gmres(A, b, x0=x0, tol=1e-300, atol=0.0, restart=restart, maxiter=100000,
                      callback=cb_pr, callback_type="pr_norm")
            return None
        except Reached:
            return count[0], None
    elif name == "minres":
        def cb_x(xk):
            count[0] += 1
            if np.linalg.norm(b - A @ xk) <= tol * bnorm:
                state["x"] = xk.copy()
                raise Reached

        try:
            sla.minres(A, b, x0=x0, tol=1e-300, maxiter=100000, callback=cb_x)
            return None
        except Reached:
            x, info = state["x"], 0
    else:
        raise SystemExit(f"unknown solver {solver}")
    if info != 0:
        return None
    return count[0], np.linalg.norm(b - A @ x) / bnorm


def main():
    hpls = sys.argv[1]
    print(f"# scipy {scipy.__version__} iteration counts; made by tests/ref/krylov_reference.py")
    print("# spec solver precond tol iterations   (true relres of scipy's x in the comment;")
    print("# gmres: inner iterations, see the script)")
    with tempfile.TemporaryDirectory() as tmp:
        for spec, solver, precond in CASES:
            path = f"{tmp}/A.mtx"
            subprocess.run([hpls, "gen", spec, "-o", path], check=True)
            A = scipy.io.mmread(path).tocsr()
            b = A @ np.ones(A.shape[0])
            got = solve(A, b, solver, precond, TOL)
            if got is None:
                print(f"# {spec} {solver} {precond} {TOL:g}: scipy did not converge")
                continue
            its, relres = got
            if relres is None:
                print(f"{spec} {solver} {precond} {TOL:g} {its}   # residual estimate")
            elif relres > TOL:
                print(f"# {spec} {solver} {precond} {TOL:g}: scipy stopped after {its} with a "
                      f"true relres {relres:.2e} > tol")
            else:
                print(f"{spec} {solver} {precond} {TOL:g} {its}   # relres {relres:.2e}")


if __name__ == "__main__":
    main()
