# SPDX-License-Identifier: BSD-3-Clause
"""Residual histories of hpls's HISA, hpls's BiCGSTAB + DILU and scipy's own
BiCGSTAB on one matrix, plotted to a PNG.

    python residual_histories.py [out.png] [nx]

The matrix: 2-D convection-diffusion on an nx x nx grid (upwind, Peclet 0.5
per cell), five-point stencil, built with scipy.sparse; b = A * ones.  Needs
matplotlib (pip install "./python[examples]").
"""

import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import scipy.sparse as sp  # noqa: E402
import scipy.sparse.linalg as sla  # noqa: E402

import hpls  # noqa: E402


def convection_diffusion(nx, peclet=0.5):
    """-u'' + c u' in each direction, upwind: rows sum to zero except at the boundary."""
    one_d = sp.diags([-1.0 - peclet, 2.0 + peclet, -1.0], [-1, 0, 1], shape=(nx, nx))
    eye = sp.identity(nx)
    return (sp.kron(eye, one_d) + sp.kron(one_d, eye)).tocsr()


def scipy_history(A, b, tol, maxiter):
    """scipy's bicgstab, with the true relative residual after each iteration."""
    bnorm = np.linalg.norm(b)
    hist = [1.0]
    callback = lambda xk: hist.append(np.linalg.norm(b - A @ xk) / bnorm)  # noqa: E731
    try:
        sla.bicgstab(A, b, rtol=tol, atol=0.0, maxiter=maxiter, callback=callback)
    except TypeError:  # scipy < 1.12 says tol
        sla.bicgstab(A, b, tol=tol, atol=0.0, maxiter=maxiter, callback=callback)
    return np.arange(len(hist)), np.array(hist)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "residual_histories.png"
    nx = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    A = convection_diffusion(nx)
    b = A @ np.ones(A.shape[0])
    tol, maxiter = 1e-10, 5000
    runs = {}
    for label, kw in (("hpls hisa", dict(solver="hisa")),
                      ("hpls bicgstab + dilu", dict(solver="bicgstab", precond="dilu"))):
        x, info = hpls.solve(A, b, tol=tol, maxiter=maxiter, return_info=True, **kw)
        runs[label] = (info.history_iterations, info.history)
        print("%-22s %5d iterations, relres %.2e, %.3f s" % (label, info.iterations,
                                                             info.relres, info.solve_s))
    runs["scipy bicgstab"] = scipy_history(A, b, tol, maxiter)
    print("%-22s %5d iterations" % ("scipy bicgstab", runs["scipy bicgstab"][0][-1]))

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for label, (its, rel) in runs.items():
        ax.semilogy(its, rel, label=label)
    ax.axhline(tol, color="grey", linestyle=":", linewidth=1)
    ax.set_xlabel("iteration")
    ax.set_ylabel("relative residual")
    ax.set_title("2-D convection-diffusion, n = %d" % A.shape[0])
    ax.legend()
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    print("wrote", out)


if __name__ == "__main__":
    main()
