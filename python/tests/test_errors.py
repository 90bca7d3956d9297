# SPDX-License-Identifier: BSD-3-Clause
"""Bad input raises ValueError carrying hpls's message; nothing crashes."""

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse.linalg import LinearOperator, aslinearoperator

import hpls
from conftest import nonsymmetric, x_true


def rhs(A):
    return A @ x_true(A.shape[0])


def test_nan_in_a_is_an_error():
    A = nonsymmetric()
    A.data[7] = np.nan
    with pytest.raises(ValueError, match="NaN|finite|nan"):
        hpls.solve(A, np.ones(A.shape[0]))
    with pytest.raises(ValueError, match="NaN|finite|nan"):
        hpls.Preconditioner(A, "dilu")
    D = A.toarray()
    with pytest.raises(ValueError, match="NaN|nan"):
        hpls.solve(D, np.ones(A.shape[0]), solver="jacobi")


def test_nan_in_b_is_an_error():
    A = nonsymmetric()
    b = rhs(A)
    b[3] = np.inf
    with pytest.raises(ValueError, match="b"):
        hpls.solve(A, b)


def test_unknown_solver_precond_option():
    A = nonsymmetric()
    b = rhs(A)
    with pytest.raises(ValueError, match="nosuch"):
        hpls.solve(A, b, solver="nosuch")
    with pytest.raises(ValueError, match="nosuch"):
        hpls.solve(A, b, precond="nosuch")
    with pytest.raises(ValueError, match="colour"):
        hpls.solve(A, b, colour=3)
    with pytest.raises(ValueError, match="tol"):
        hpls.solve(A, b, tol="abc")
    with pytest.raises(ValueError, match="spaces"):
        hpls.solve(A, b, trisolve="levels syncfree")


def test_sizes():
    A = nonsymmetric()
    with pytest.raises(ValueError, match="rows"):
        hpls.solve(A, np.ones(A.shape[0] + 1))
    with pytest.raises(ValueError):
        hpls.solve(sp.random(30, 40, density=0.2, format="csr") + sp.eye(30, 40), np.ones(30))
    with pytest.raises(ValueError, match="2-D"):
        hpls.solve(np.ones(5), np.ones(5))
    with pytest.raises(ValueError, match="shape"):
        hpls.Solver(A, initial_guess="given").solve(np.ones(A.shape[0]), x0=np.ones(3))


def test_zero_diagonal_names_the_row():
    A = nonsymmetric().tolil()
    A[5, 5] = 0.0
    A = A.tocsr()
    A.eliminate_zeros()
    with pytest.raises(ValueError, match="6|row"):
        hpls.solve(A, np.ones(A.shape[0]), solver="jacobi")


def test_complex_and_operators_refused():
    A = nonsymmetric()
    with pytest.raises(ValueError, match="complex"):
        hpls.solve(A.astype(complex), np.ones(A.shape[0]))
    with pytest.raises(ValueError, match="complex"):
        hpls.solve(A, np.ones(A.shape[0]) * 1j)
    with pytest.raises(ValueError, match="LinearOperator"):
        hpls.Preconditioner(aslinearoperator(A), "dilu")
    with pytest.raises(ValueError, match="square"):
        hpls.solve(aslinearoperator(sp.random(4, 5, density=1.0)), np.ones(4))
    assert isinstance(hpls.Preconditioner(A, "jacobi"), LinearOperator)


def test_dense_matrix_where_a_sparse_one_is_needed():
    with pytest.raises(ValueError, match="sparse"):
        hpls.Preconditioner(np.eye(4), "dilu")
    with pytest.raises(ValueError, match="dense|bicg"):
        hpls.solve(np.eye(4) * 2, np.ones(4), solver="bicg")


def test_update_values_with_another_pattern():
    A = nonsymmetric()
    s = hpls.Solver(A, precond="dilu")
    with pytest.raises(ValueError, match="pattern"):
        s.update_values(nonsymmetric() + sp.eye(A.shape[0], k=3))
    moved = A.copy()
    moved.indices = moved.indices.copy()
    row = slice(moved.indptr[5], moved.indptr[6])
    moved.indices[row] = np.sort((moved.indices[row] + 20) % A.shape[1])  # same count, other columns
    with pytest.raises(ValueError, match="pattern"):
        s.update_values(moved)
    with pytest.raises(ValueError, match="pattern"):
        hpls.Preconditioner(A, "dilu").update_values(moved)
    B = A.copy()
    B.data[0] = np.nan
    with pytest.raises(ValueError):
        s.update_values(B)
    b = rhs(A)
    assert np.allclose(s.solve(b), x_true(A.shape[0]))  # still usable


def test_x0_needs_initial_guess_given():
    A = nonsymmetric()
    with pytest.raises(ValueError, match="initial_guess"):
        hpls.Solver(A).solve(rhs(A), x0=np.zeros(A.shape[0]))


def test_singular_ilu_names_the_problem():
    A = sp.csr_matrix(np.array([[0.0, 1.0], [1.0, 0.0]]))
    with pytest.raises(ValueError, match="diagonal"):
        hpls.solve(A, np.ones(2), precond="ilu0")
