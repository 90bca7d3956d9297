# SPDX-License-Identifier: BSD-3-Clause
"""Matrices of the hpls Python tests: generated ones (seeded) and the real ones
of HPLS_DATA_DIR/matrices (skipped cleanly when absent)."""

import os

import numpy as np
import pytest
import scipy.sparse as sp


def nonsymmetric(n=400, seed=1):
    """Convection-diffusion-like, strictly diagonally dominant by rows and
    columns (every stationary method and HISA converge on it): a strong
    nonsymmetric tridiagonal band plus a weak random band at distance 9."""
    rng = np.random.default_rng(seed)
    lower = -1.0 - 0.3 * rng.random(n - 1)
    upper = -1.0 + 0.3 * rng.random(n - 1)
    far = 0.2 * rng.random(n - 9)
    A = sp.diags([far, lower, np.full(n, 4.0), upper, -far], [-9, -1, 0, 1, 9],
                 format="csr", dtype=np.float64)
    return A


def spd(n=400):
    """Symmetric positive definite, strictly diagonally dominant: the 1-D
    Laplacian plus a symmetric band at distance 9."""
    A = sp.diags([-0.5, -1.0, 4.0, -1.0, -0.5], [-9, -1, 0, 1, 9], shape=(n, n),
                 format="csr", dtype=np.float64)
    return A


def tridiagonal(n=400, seed=2):
    """Nonsymmetric tridiagonal, diagonally dominant."""
    rng = np.random.default_rng(seed)
    return sp.diags([-1.0 - rng.random(n - 1), 4.0 + rng.random(n), -1.0 + 0.5 * rng.random(n - 1)],
                    [-1, 0, 1], format="csr", dtype=np.float64)


def x_true(n):
    return np.sin(np.arange(1, n + 1, dtype=np.float64))


def relres(A, x, b):
    """The true relative residual, recomputed here (not hpls's figure)."""
    return np.linalg.norm(b - A @ x) / np.linalg.norm(b)


def relerr(x, ref):
    return np.linalg.norm(x - ref) / np.linalg.norm(ref)


def data_matrix(name):
    """A matrix of HPLS_DATA_DIR/matrices as CSR, or a clean skip."""
    import scipy.io

    root = os.environ.get("HPLS_DATA_DIR",
                          os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared",
                                       "data"))
    path = os.path.join(root, "matrices", name)
    if not os.path.exists(path):
        pytest.skip("%s absent (HPLS_DATA_DIR=%s)" % (name, root))
    return sp.csr_matrix(scipy.io.mmread(path))
