# SPDX-License-Identifier: BSD-3-Clause
"""hpls.tridiag_solve against scipy.linalg.solve_banded (LAPACK gbsv): every
method hpls lists, one and many right-hand sides, LAPACK's n-1 layout."""

import warnings

import numpy as np
import pytest
import scipy.linalg

import hpls
from conftest import relerr


def system(n=1000, seed=4):
    rng = np.random.default_rng(seed)
    dl = np.concatenate(([0.0], -1.0 - rng.random(n - 1)))
    du = np.concatenate((-1.0 + 0.5 * rng.random(n - 1), [0.0]))
    d = 4.0 + rng.random(n)
    ab = np.vstack([np.concatenate(([0.0], du[:-1])), d, np.concatenate((dl[1:], [0.0]))])
    return dl, d, du, ab


@pytest.mark.parametrize("method", hpls.tridiag_methods())
def test_every_method_matches_solve_banded(method):
    dl, d, du, ab = system()
    b = np.cos(np.arange(d.size))
    x = hpls.tridiag_solve(dl, d, du, b, method=method)
    assert relerr(x, scipy.linalg.solve_banded((1, 1), ab, b)) <= 1e-13


@pytest.mark.parametrize("method", hpls.tridiag_methods())
def test_batched_right_hand_sides(method):
    dl, d, du, ab = system(777)
    B = np.random.default_rng(1).standard_normal((777, 5))
    X = hpls.tridiag_solve(dl, d, du, B, method=method, threads=2)
    assert X.shape == B.shape
    assert relerr(X, scipy.linalg.solve_banded((1, 1), ab, B)) <= 1e-13


def test_lapack_layout_and_gspike_partitions():
    dl, d, du, ab = system(500)
    b = np.ones(500)
    ref = scipy.linalg.solve_banded((1, 1), ab, b)
    assert relerr(hpls.tridiag_solve(dl[1:], d, du[:-1], b), ref) <= 1e-13
    assert relerr(hpls.tridiag_solve(dl, d, du, b, partitions=8), ref) <= 1e-13


def test_errors():
    dl, d, du, _ = system(10)
    with pytest.raises(ValueError, match="method"):
        hpls.tridiag_solve(dl, d, du, np.ones(10), method="nope")
    with pytest.raises(ValueError, match="rows"):
        hpls.tridiag_solve(dl, d, du, np.ones(9))
    with pytest.raises(ValueError, match="singular|pivot"):
        hpls.tridiag_solve(dl * 0, d * 0, du * 0, np.ones(10), method="thomas")


def backward_error(A, x, b):
    """normwise: ||b - A x||_inf / (||A||_inf ||x||_inf + ||b||_inf)"""
    a_inf = abs(A).sum(axis=1).max()
    return np.abs(b - A @ x).max() / (a_inf * np.abs(x).max() + np.abs(b).max())


@pytest.mark.parametrize("method", ["gspike", "lapack"])
def test_ill_conditioned_is_solved_with_a_warning(method):
    """gallery('dorr', 512, 1e-4), the g-Spike paper's matrix 13: rcond about 1e-20.
    x comes with a backward error within 100x of LAPACK gbsv's (scipy), Info says
    so, and IllConditionedWarning is issued, as scipy's LinAlgWarning is."""
    A, b = hpls.generate("tridiag:id=13,n=512")
    with pytest.warns(hpls.IllConditionedWarning, match="ill-conditioned"):
        x, info = hpls.solve(A, b, solver=method, return_info=True)
    assert info.ill_conditioned and 0 < info.rcond < np.finfo(float).eps
    dia = A.todia()
    ab = np.zeros((3, A.shape[0]))
    for off, row in zip(dia.offsets, dia.data):
        ab[1 - off] = row
    ref = scipy.linalg.solve_banded((1, 1), ab, b, check_finite=False)
    assert backward_error(A, x, b) <= max(100 * backward_error(A, ref, b), 1e-15)


def test_well_conditioned_has_no_warning():
    A, b = hpls.generate("tridiag:n=512")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        x, info = hpls.solve(A, b, solver="gspike", return_info=True)
    assert not info.ill_conditioned and info.rcond > 0.01
    x, info = hpls.solve(A, b, solver="bicgstab", return_info=True)
    assert info.rcond == 0 and not info.ill_conditioned


def test_tridiag_solve_checks_singular_and_ill_conditioned():
    """hpls.tridiag_solve runs the direct methods' test first (hpls_tridiag_rcond):
    the Neumann matrix raises "singular" whatever the method, dorr warns."""
    n = 1000
    dl, du = -np.ones(n), -np.ones(n)
    d = np.full(n, 2.0)
    d[0] = d[-1] = 1.0
    for method in hpls.tridiag_methods():
        with pytest.raises(ValueError, match="exactly zero: the matrix is singular"):
            hpls.tridiag_solve(dl, d, du, np.zeros(n), method=method)
    A, b = hpls.generate("tridiag:id=13,n=512")
    dia = A.todia()
    diag = {off: row for off, row in zip(dia.offsets, dia.data)}
    dl13 = np.concatenate(([0.0], diag[-1][:-1]))  # A[i, i-1] sits at column i-1
    du13 = np.concatenate((diag[1][1:], [0.0]))    # A[i, i+1] at column i+1
    with pytest.warns(hpls.IllConditionedWarning, match="ill-conditioned"):
        x = hpls.tridiag_solve(dl13, diag[0], du13, b, method="lapack")
    assert backward_error(A, x, b) < 1e-14
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        hpls.tridiag_solve(dl13, diag[0], du13, b, method="lapack", check=False)
