# SPDX-License-Identifier: BSD-3-Clause
"""hpls.Preconditioner as a scipy LinearOperator: M^-1 r checked exactly where
M is known (tridiagonal A: DILU, ILU(0), DIC and the tridiagonal band are exact
factorizations; jacobi is r / diag(A); none is r), and inside scipy's solvers."""

import numpy as np
import pytest
import scipy.sparse.linalg as sla

import hpls
from conftest import nonsymmetric, relerr, spd, tridiagonal, x_true

EXACT_ON_TRIDIAGONAL = {"dilu", "ilu0", "tridiag", "dic"}


@pytest.mark.parametrize("precond", hpls.preconditioners())
def test_every_preconditioner_applies(precond):
    symmetric = precond == "dic"
    A = tridiagonal()
    if symmetric:
        A = ((A + A.T) / 2).tocsr()
    r = x_true(A.shape[0])
    M = hpls.Preconditioner(A, precond)
    assert isinstance(M, sla.LinearOperator) and M.shape == A.shape
    z = M @ r
    if precond in EXACT_ON_TRIDIAGONAL:
        assert relerr(z, sla.spsolve(A.tocsc(), r)) <= 1e-12
    elif precond == "jacobi":
        assert relerr(z, r / A.diagonal()) <= 1e-15
    elif precond == "none":
        assert np.array_equal(z, r)
    assert np.all(np.isfinite(z))  # the others: checked inside gmres below


@pytest.mark.parametrize("precond", hpls.preconditioners())
def test_every_preconditioner_inside_scipy_gmres(precond):
    A = spd() if precond == "dic" else nonsymmetric()
    b = A @ x_true(A.shape[0])
    try:
        x, code = sla.gmres(A, b, M=hpls.Preconditioner(A, precond), rtol=1e-11, atol=0.0)
    except TypeError:
        x, code = sla.gmres(A, b, M=hpls.Preconditioner(A, precond), tol=1e-11, atol=0.0)
    assert code == 0
    assert relerr(x, sla.spsolve(A.tocsc(), b)) <= 1e-8


def test_transpose_and_matmat():
    A = tridiagonal()
    M = hpls.Preconditioner(A, "ilu0", transpose=True)
    r = x_true(A.shape[0])
    assert relerr(M.rmatvec(r), sla.spsolve(A.T.tocsc(), r)) <= 1e-12
    R = np.column_stack([r, 2 * r])
    Z = M @ R
    assert Z.shape == R.shape and relerr(Z[:, 1], 2 * Z[:, 0]) <= 1e-15


def test_options_update_values_and_info():
    A = tridiagonal()
    M = hpls.Preconditioner(A, "dilu", trisolve="levels", threads=1)
    assert M.option("trisolve") == "levels" and M.trisolve.startswith("levels")
    assert M.setup_s >= 0
    A2 = A.copy()
    A2.data *= 4.0
    M.update_values(A2)
    r = x_true(A.shape[0])
    assert relerr(M @ r, sla.spsolve(A.tocsc(), r) / 4) <= 1e-12


def test_a_preconditioner_object_inside_an_hpls_solver():
    A = nonsymmetric()
    b = A @ x_true(A.shape[0])
    M = hpls.Preconditioner(A, "ilu0")
    x, info = hpls.solve(A, b, solver="gmres", precond=M, tol=1e-11, return_info=True)
    _, own = hpls.solve(A, b, solver="gmres", precond="ilu0", tol=1e-11, return_info=True)
    assert info.converged and info.iterations == own.iterations
    assert relerr(x, x_true(A.shape[0])) <= 1e-9
