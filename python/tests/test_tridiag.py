# SPDX-License-Identifier: BSD-3-Clause
"""hpls.tridiag_solve against scipy.linalg.solve_banded (LAPACK gbsv): every
method hpls lists, one and many right-hand sides, LAPACK's n-1 layout."""

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
