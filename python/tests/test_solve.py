# SPDX-License-Identifier: BSD-3-Clause
"""hpls.solve and hpls.Solver against scipy (spsolve, bicgstab, gmres) on
generated and real matrices: every solver and preconditioner hpls lists."""

import importlib.metadata

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.linalg as sla

import hpls
from conftest import data_matrix, nonsymmetric, relerr, relres, spd, tridiagonal, x_true

# Which matrix each kind of method needs (the names themselves come from hpls).
SPD_ONLY = {"cg", "minres"}
DIRECT = set(hpls.tridiag_methods())


def test_version_is_the_library_s():
    assert hpls.__version__ == importlib.metadata.version("hpls")
    assert hpls.__version__.count(".") == 2


def test_licence_is_in_the_metadata():
    meta = importlib.metadata.metadata("hpls")
    assert meta["License-Expression"] == "BSD-3-Clause"
    files = importlib.metadata.files("hpls")
    text = next(f for f in files if f.name == "LICENSE").read_text()
    assert text.startswith("BSD 3-Clause License")


def test_lists_come_from_the_library():
    assert "bicgstab" in hpls.solvers() and "hisa" in hpls.solvers()
    assert "dilu" in hpls.preconditioners() and "none" in hpls.preconditioners()
    assert {"thomas", "gspike"} <= DIRECT
    for name in hpls.solvers() + hpls.preconditioners():
        assert name in hpls.help()


def matrix_for(solver):
    if solver in DIRECT:
        return tridiagonal()
    return spd() if solver in SPD_ONLY else nonsymmetric()


@pytest.mark.parametrize("solver", hpls.solvers())
def test_every_solver_matches_spsolve(solver):
    A = matrix_for(solver)
    b = A @ x_true(A.shape[0])
    ref = sla.spsolve(A.tocsc(), b)
    x, info = hpls.solve(A, b, solver=solver, tol=1e-10, maxiter=20000, return_info=True)
    assert info.converged, info
    assert relres(A, x, b) <= 1e-9
    assert relerr(x, ref) <= 1e-8
    assert abs(info.relres - relres(A, x, b)) <= 1e-12 + 1e-6 * info.relres


@pytest.mark.parametrize("precond", hpls.preconditioners())
def test_every_preconditioner_in_a_solve(precond):
    solver = "cg" if precond == "dic" else "bicgstab"
    A = spd() if precond == "dic" else nonsymmetric()
    b = A @ x_true(A.shape[0])
    x, info = hpls.solve(A, b, solver=solver, precond=precond, tol=1e-10, return_info=True)
    assert info.converged, info
    assert relres(A, x, b) <= 1e-9
    assert relerr(x, sla.spsolve(A.tocsc(), b)) <= 1e-8
    assert hpls.Solver(A, solver=solver, precond=precond).option("precond") == precond


def test_preconditioner_cuts_iterations():
    A = nonsymmetric(2000)
    b = A @ x_true(2000)
    _, plain = hpls.solve(A, b, tol=1e-10, return_info=True)
    _, dilu = hpls.solve(A, b, precond="dilu", tol=1e-10, return_info=True)
    assert dilu.iterations < plain.iterations


def test_bicgstab_matches_scipy_bicgstab_and_gmres():
    A = nonsymmetric(3000, seed=5)
    b = A @ x_true(3000)
    x = hpls.solve(A, b, solver="bicgstab", tol=1e-12)
    for scipy_solver in (sla.bicgstab, sla.gmres):
        try:
            xs, code = scipy_solver(A, b, rtol=1e-12, atol=0.0, maxiter=5000)
        except TypeError:  # scipy < 1.12 says tol
            xs, code = scipy_solver(A, b, tol=1e-12, atol=0.0, maxiter=5000)
        assert code == 0
        assert relerr(x, xs) <= 1e-9


def test_info_history_and_times():
    A = nonsymmetric()
    b = A @ x_true(A.shape[0])
    x, info = hpls.solve(A, b, solver="gmres", tol=1e-10, return_info=True)
    assert info.converged and info.reason.startswith("converged")
    assert info.iterations == len(info.history) - (info.history_iterations[0] == 0)
    assert info.history[-1] <= 1e-10 < info.history[0]
    assert np.all(np.diff(info.history_seconds) >= 0)
    assert info.setup_s >= 0 and info.solve_s > 0
    assert "iterations=%d" % info.iterations in repr(info)


def test_not_converged_is_a_reason_unless_raise_on_fail():
    A = nonsymmetric()
    b = A @ x_true(A.shape[0])
    x, info = hpls.solve(A, b, tol=1e-12, maxiter=2, return_info=True)
    assert not info.converged and info.iterations == 2 and "maximum iterations" in info.reason
    with pytest.raises(hpls.NotConverged, match="maximum iterations") as e:
        hpls.solve(A, b, tol=1e-12, maxiter=2, raise_on_fail=True)
    assert e.value.info.iterations == 2 and e.value.x.shape == b.shape
    assert isinstance(e.value, hpls.Error)
    hpls.solve(A, b, tol=1e-6, raise_on_fail=True)  # converges: no exception


def test_x0_is_the_initial_guess():
    A = nonsymmetric()
    xt = x_true(A.shape[0])
    b = A @ xt
    x, info = hpls.solve(A, b, solver="jacobi", x0=xt, tol=1e-10, return_info=True)
    assert info.iterations <= 1 and relerr(x, xt) <= 1e-12
    _, cold = hpls.solve(A, b, solver="jacobi", tol=1e-10, return_info=True)
    assert cold.iterations > 10


@pytest.mark.parametrize("solver", ["jacobi", "bicgstab", "gspike"])
def test_many_right_hand_sides(solver):
    A = tridiagonal() if solver == "gspike" else nonsymmetric()
    n, k = A.shape[0], 7
    rng = np.random.default_rng(3)
    X_true = rng.standard_normal((n, k))
    B = A @ X_true
    s = hpls.Solver(A, solver=solver, tol=1e-11)
    X, infos = s.solve(B, return_info=True)
    assert X.shape == (n, k) and len(infos) == k
    for j in range(k):
        assert infos[j].converged
        assert relres(A, X[:, j], B[:, j]) <= 1e-10
        assert relerr(X[:, j], X_true[:, j]) <= 1e-9
    # one column alone gives the same answer
    assert relerr(s.solve(B[:, 3]), X[:, 3]) <= 1e-10
    # and a Fortran-ordered B (each column contiguous) is read without a copy
    assert relerr(s.solve(np.asfortranarray(B)), X) <= 1e-12


def test_many_right_hand_sides_with_guesses():
    A = nonsymmetric()
    X_true = np.column_stack([x_true(A.shape[0]), np.cos(np.arange(A.shape[0]))])
    s = hpls.Solver(A, solver="bicgstab", tol=1e-10, initial_guess="given")
    X, infos = s.solve(A @ X_true, x0=X_true, return_info=True)
    assert all(i.iterations == 0 for i in infos)
    assert relerr(X, X_true) <= 1e-14


def test_solver_reuses_its_setup_and_updates_values():
    A = nonsymmetric()
    b = A @ x_true(A.shape[0])
    s = hpls.Solver(A, solver="bicgstab", precond="ilu0", tol=1e-11)
    x1 = s.solve(b)
    A2 = A.copy()
    A2.data *= 2.0
    s.update_values(A2)
    x2 = s.solve(b)
    assert relerr(x2, x1 / 2) <= 1e-9
    assert relerr(x2, sla.spsolve(A2.tocsc(), b)) <= 1e-9


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "lil", "dok", "bsr"])
def test_any_scipy_format(fmt):
    A = nonsymmetric()
    b = A @ x_true(A.shape[0])
    x = hpls.solve(A.asformat(fmt), b, tol=1e-10)
    assert relerr(x, x_true(A.shape[0])) <= 1e-8


def test_sparse_array_and_other_dtypes():
    A = nonsymmetric()
    b = A @ x_true(A.shape[0])
    A32 = sp.csr_array(A).astype(np.float32)
    x = hpls.solve(A32, b.astype(np.float32), tol=1e-10)
    assert relerr(x, sla.spsolve(A32.astype(np.float64).tocsc(), b.astype(np.float32))) <= 1e-8
    A64 = A.copy()
    A64.indices = A64.indices.astype(np.int64)
    A64.indptr = A64.indptr.astype(np.int64)
    assert relerr(hpls.solve(A64, b, tol=1e-10), x_true(A.shape[0])) <= 1e-8


def test_duplicates_and_unsorted_columns_are_summed():
    A = nonsymmetric(50).tocoo()
    rows = np.concatenate([A.row, A.row])[::-1]
    cols = np.concatenate([A.col, A.col])[::-1]
    vals = np.concatenate([A.data, A.data])[::-1] / 2
    dup = sp.csr_matrix((vals, (rows, cols)), shape=A.shape)  # scipy sums later
    dup = sp.csr_matrix((dup.data, dup.indices, dup.indptr), shape=A.shape)
    b = A @ x_true(50)
    assert relerr(hpls.solve(dup, b, tol=1e-12), x_true(50)) <= 1e-10


def test_csr_with_matching_dtypes_is_not_copied():
    A = nonsymmetric()
    s = hpls.Solver(A)
    assert np.shares_memory(s._matrix.data, A.data)
    assert np.shares_memory(s._matrix.indices, A.indices)


@pytest.mark.parametrize("solver", ["jacobi", "gs", "pjg", "gmres", "bicgstab"])
def test_dense_matrix(solver):
    A = nonsymmetric(120).toarray()
    b = A @ x_true(120)
    x = hpls.solve(A, b, solver=solver, tol=1e-11)
    assert relerr(x, np.linalg.solve(A, b)) <= 1e-9


def test_threads_option_is_respected():
    A = nonsymmetric()
    b = A @ x_true(A.shape[0])
    for t in (1, 2):
        x, info = hpls.solve(A, b, threads=t, tol=1e-10, return_info=True)
        assert info.threads == t and relerr(x, x_true(A.shape[0])) <= 1e-8


@pytest.mark.parametrize("name", ["sherman1.mtx", "orsirr_1.mtx", "orsreg_1.mtx", "jpwh_991.mtx",
                                  "cdde1.mtx", "gr_30_30.mtx", "sherman5.mtx"])
def test_real_matrices_against_scipy(name):
    A = data_matrix(name)
    n = A.shape[0]
    b = A @ x_true(n)
    ref = sla.spsolve(A.tocsc(), b)
    x = hpls.solve(A, b, solver="bicgstab", precond="ilu0", tol=1e-11, maxiter=5000,
                   raise_on_fail=True)
    assert relres(A, x, b) <= 1e-10
    assert relerr(x, ref) <= 1e-5
    # hpls's ILU(0) inside scipy's gmres and bicgstab
    M = hpls.Preconditioner(A, "ilu0")
    for scipy_solver in (sla.gmres, sla.bicgstab):
        try:
            xs, code = scipy_solver(A, b, M=M, rtol=1e-11, atol=0.0, maxiter=5000)
        except TypeError:
            xs, code = scipy_solver(A, b, M=M, tol=1e-11, atol=0.0, maxiter=5000)
        assert code == 0, scipy_solver.__name__
        assert relerr(xs, ref) <= 1e-4


def test_generate_is_hpls_s_generator():
    A, b = hpls.generate("poisson2d:nx=20")
    assert A.shape == (400, 400) and A.nnz == 5 * 400 - 4 * 20
    assert np.allclose(A.diagonal(), 4.0) and np.allclose(A @ np.ones(400), b)  # b = A 1
    x = hpls.solve(A, b, solver="cg", tol=1e-12)
    assert relerr(x, np.ones(400)) <= 1e-10
    with pytest.raises(ValueError, match="nosuch"):
        hpls.generate("nosuch:n=3")
