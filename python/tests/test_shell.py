# SPDX-License-Identifier: BSD-3-Clause
"""Matrix-free A and the user's M^-1 as scipy LinearOperators (hpls's shell
operator and shell preconditioner, called back under the GIL)."""

import numpy as np
import pytest
import scipy.sparse.linalg as sla

import hpls
from conftest import nonsymmetric, relerr, relres, x_true


@pytest.mark.parametrize("solver", ["bicgstab", "gmres", "cgs", "tfqmr", "bicg", "qmr"])
def test_linear_operator_a_matches_the_matrix(solver):
    A = nonsymmetric()
    b = A @ x_true(A.shape[0])
    x, info = hpls.solve(sla.aslinearoperator(A), b, solver=solver, tol=1e-11,
                         return_info=True)
    _, own = hpls.solve(A, b, solver=solver, tol=1e-11, return_info=True)
    assert info.converged and abs(info.iterations - own.iterations) <= 1
    assert relres(A, x, b) <= 1e-10 and relerr(x, x_true(A.shape[0])) <= 1e-9


def test_scipy_preconditioner_inside_hpls():
    A = nonsymmetric(1000)
    b = A @ x_true(1000)
    ilu = sla.spilu(A.tocsc(), drop_tol=1e-3)
    M = sla.LinearOperator(A.shape, matvec=ilu.solve, dtype=np.float64)
    x, info = hpls.solve(A, b, solver="gmres", precond=M, tol=1e-11, return_info=True)
    _, plain = hpls.solve(A, b, solver="gmres", tol=1e-11, return_info=True)
    assert info.converged and info.iterations < plain.iterations
    assert relerr(x, x_true(1000)) <= 1e-9
    # matrix-free A with that M
    x2 = hpls.solve(sla.aslinearoperator(A), b, solver="bicgstab", precond=M, tol=1e-11)
    assert relerr(x2, x_true(1000)) <= 1e-9


def test_an_exception_in_the_operator_reaches_the_caller():
    A = nonsymmetric()
    calls = [0]

    def matvec(x):
        calls[0] += 1
        if calls[0] == 5:
            raise ZeroDivisionError("the user's operator failed")
        return A @ x

    op = sla.LinearOperator(A.shape, matvec=matvec, dtype=np.float64)
    s = hpls.Solver(op, solver="bicgstab", tol=1e-12)
    with pytest.raises(ZeroDivisionError, match="user's operator"):
        s.solve(np.ones(A.shape[0]))
    x = s.solve(A @ x_true(A.shape[0]))  # the solver is still usable
    assert relerr(x, x_true(A.shape[0])) <= 1e-8


def test_operator_without_transpose_for_bicg():
    A = nonsymmetric()
    op = sla.LinearOperator(A.shape, matvec=lambda x: A @ x, dtype=np.float64)
    with pytest.raises(NotImplementedError):
        hpls.solve(op, np.ones(A.shape[0]), solver="bicg")


def test_a_name_as_preconditioner_of_a_shell_is_refused():
    A = nonsymmetric()
    with pytest.raises(ValueError, match="precond|preconditioner"):
        hpls.solve(sla.aslinearoperator(A), np.ones(A.shape[0]), precond="dilu")
