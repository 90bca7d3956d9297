# SPDX-License-Identifier: BSD-3-Clause
"""hpls: Hybrid Parallel Linear Solvers (HISA, g-Spike, DILU, Krylov methods) for
scipy.sparse matrices and numpy arrays.

    x = hpls.solve(A, b, solver="bicgstab", precond="dilu", tol=1e-10)
    s = hpls.Solver(A, solver="hisa"); x = s.solve(b); s.update_values(A2)
    M = hpls.Preconditioner(A, "dilu"); scipy.sparse.linalg.gmres(A, b, M=M)
    x = hpls.tridiag_solve(dl, d, du, b, method="gspike")

Options are hpls's (``hpls.help()`` lists them with their defaults), given as
keyword arguments: ``threads=2``, ``trisolve="levels"``, ``restart=50``.
"""

import re
import warnings

import numpy as np
import scipy.sparse as sp
from scipy.sparse.linalg import LinearOperator

from . import _core
from ._core import Error

__version__ = _core.version()

__all__ = [
    "solve",
    "Solver",
    "Preconditioner",
    "tridiag_solve",
    "generate",
    "Info",
    "Error",
    "NotConverged",
    "IllConditionedWarning",
    "solvers",
    "tridiag_methods",
    "preconditioners",
    "help",
]


class NotConverged(Error):
    """A solve stopped without converging (raised only with raise_on_fail=True);
    ``.info`` holds the outcome and ``.x`` the last iterate."""

    def __init__(self, message, info, x):
        super().__init__(message)
        self.info = info
        self.x = x


class IllConditionedWarning(UserWarning):
    """A direct method (thomas, cr, gspike, lapack) solved an ill-conditioned
    matrix: its reciprocal condition estimate is below the machine epsilon, so x
    has a small backward error but may have no correct digit (scipy warns alike
    with LinAlgWarning).  An exactly singular matrix raises instead."""


class Info:
    """Outcome of a solve: iterations, converged, reason (hpls's name of the
    stopping reason), relres and resnorm (the true residual ||b - A x||,
    recomputed, relative to ||b|| and absolute), history (the relative residual
    the iteration tested, one per iteration; history_iterations and
    history_seconds beside it), setup_s and solve_s (seconds), threads; for the
    direct methods rcond, an estimate of 1 / cond_1(A) (hpls_tridiag_rcond: a
    diagonal dominance bound or LAPACK dgtcon's; 0 for the iterative methods), and ill_conditioned, True when 0 < rcond < the machine
    epsilon (:class:`IllConditionedWarning` is then issued)."""

    __slots__ = (
        "reason",
        "converged",
        "iterations",
        "relres",
        "resnorm",
        "setup_s",
        "solve_s",
        "precond_norm",
        "threads",
        "rcond",
        "ill_conditioned",
        "history",
        "history_iterations",
        "history_seconds",
    )

    def __init__(self, t, history=None):
        (_, self.reason, conv, self.iterations, self.relres, self.resnorm, self.setup_s,
         self.solve_s, self.precond_norm, self.threads, self.rcond, ill) = t
        self.converged = bool(conv)
        self.ill_conditioned = bool(ill)
        its, rel, sec = history if history is not None else ([], [], [])
        self.history_iterations = np.asarray(its, dtype=np.int64)
        self.history = np.asarray(rel, dtype=np.float64)
        self.history_seconds = np.asarray(sec, dtype=np.float64)

    def __repr__(self):
        return ("Info(converged=%s, reason=%r, iterations=%d, relres=%.3e, setup_s=%.3g, "
                "solve_s=%.3g, threads=%d)" % (self.converged, self.reason, self.iterations,
                                               self.relres, self.setup_s, self.solve_s,
                                               self.threads))


def help():
    """hpls's help: every option with its default, every solver and preconditioner."""
    return _core.help()


def generate(spec):
    """hpls's test matrices (the command's --gen): ``A, b = hpls.generate("gas:n=1e5")``
    gives A as a scipy CSR matrix and the generator's right-hand side b.  Names:
    gas, poisson2d, poisson3d, convdiff3d, dense-dd, tridiag."""
    nrows, ncols, rowptr, colind, val, b = _core.gen_csr(spec)
    A = sp.csr_matrix((np.frombuffer(val, dtype=np.float64), np.frombuffer(colind, dtype=np.int32),
                       np.frombuffer(rowptr, dtype=np.int64)), shape=(nrows, ncols))
    return A, np.frombuffer(b, dtype=np.float64)


def _help_list(title, says=""):
    """The names listed under a section of hpls's own help (its registry), those
    whose help line holds `says`."""
    text = _core.help()
    start = text.index(title)
    block = text[start:].split("\n\n", 1)[0].splitlines()[1:]
    return [m.group(1) for m in (re.match(r"  (\S+)\s+(.*)", line) for line in block)
            if m and says in m.group(2)]


def solvers():
    """Names of every solver of this hpls build (from the library's registry)."""
    return _help_list("Solvers (")


def tridiag_methods():
    """Names of the tridiagonal direct methods (for :func:`tridiag_solve`, and solvers)."""
    return _help_list("Solvers (", "tridiagonal A, direct")


def preconditioners():
    """Names of every preconditioner of this hpls build (from the library's registry)."""
    return _help_list("Preconditioners (")


def _options(**kw):
    """hpls's option string from keyword arguments (None: hpls's default)."""
    parts = []
    for key, value in kw.items():
        if value is None:
            continue
        if isinstance(value, bool):
            value = int(value)
        text = repr(value) if isinstance(value, float) else str(value)
        if re.search(r"[\s,=]", text) or not text:
            raise ValueError("option %s=%r: a value may not be empty nor hold spaces, "
                             "commas or '='" % (key, value))
        parts.append("%s=%s" % (key, text))
    return " ".join(parts)


class _Matrix:
    """A in the layout hpls reads, converted once: CSR (indptr int64, indices
    int32, data float64; scipy's arrays used as they are when their dtypes
    match) or a dense row-major float64 array."""

    def __init__(self, A):
        if sp.issparse(A):
            if A.ndim != 2:
                raise ValueError("A must be 2-D, got shape %s" % (A.shape,))
            if np.issubdtype(A.dtype, np.complexfloating):
                raise ValueError("A is complex: hpls solves real systems")
            csr = A if A.format == "csr" else A.tocsr()
            if not csr.has_canonical_format:  # hpls wants sorted columns, no duplicates
                csr = csr.copy()
                csr.sum_duplicates()
            self.dense = None
            self.shape = csr.shape
            self.indptr = np.ascontiguousarray(csr.indptr, dtype=np.int64)
            if csr.indices.dtype != np.int32 and csr.shape[1] > np.iinfo(np.int32).max:
                raise ValueError("A has %d columns: hpls's column indices are 32-bit"
                                 % csr.shape[1])
            self.indices = np.ascontiguousarray(csr.indices, dtype=np.int32)
            self.data = np.ascontiguousarray(csr.data, dtype=np.float64)
        else:
            if isinstance(A, LinearOperator):
                raise ValueError("this needs the entries of A (a scipy.sparse matrix), not "
                                 "a LinearOperator")
            a = np.asarray(A)
            if a.ndim != 2:
                raise ValueError("A must be 2-D, got shape %s" % (a.shape,))
            if np.iscomplexobj(a):
                raise ValueError("A is complex: hpls solves real systems")
            self.dense = np.ascontiguousarray(a, dtype=np.float64)
            self.shape = a.shape

    def csr_arrays(self):
        if self.dense is not None:
            raise ValueError("this needs a sparse matrix (scipy.sparse); A is dense")
        return self.indptr, self.indices, self.data


def _same_pattern(m, old):
    """update_values: the new matrix must have the setup's pattern (hpls keeps the
    level sets and orderings made from it)."""
    if (m.shape != old.shape or m.indices.shape != old.indices.shape
            or not np.array_equal(m.indptr, old.indptr)
            or not np.array_equal(m.indices, old.indices)):
        raise ValueError("update_values: A (shape %s, %d entries) does not have the pattern "
                         "of the setup's matrix (shape %s, %d entries)"
                         % (m.shape, m.data.size, old.shape, old.data.size))


def _vector(b, n, what="b"):
    v = np.asarray(b)
    if np.iscomplexobj(v):
        raise ValueError("%s is complex: hpls solves real systems" % what)
    if v.ndim not in (1, 2) or v.shape[0] != n:
        raise ValueError("%s has shape %s; A has %d rows" % (what, v.shape, n))
    return v


def _shell(op, what):
    """(n, apply, apply_t) for a scipy LinearOperator: Python callables f(x, y) that
    hpls calls with memoryviews of n values (y = op x, y = op^T x)."""
    if len(op.shape) != 2 or op.shape[0] != op.shape[1]:
        raise ValueError("%s: a square LinearOperator is needed, got shape %s" % (what, op.shape))
    if op.dtype is not None and np.issubdtype(op.dtype, np.complexfloating):
        raise ValueError("%s is complex: hpls solves real systems" % what)

    def wrap(f):
        def call(x, y):
            # a copy of x: the memoryview is hpls's vector, valid during this call only
            out = f(np.frombuffer(x, dtype=np.float64).copy())
            np.frombuffer(y, dtype=np.float64)[:] = np.asarray(out, dtype=np.float64).reshape(-1)
        return call

    return op.shape[0], wrap(op.matvec), wrap(op.rmatvec)


class Solver:
    """hpls_solver set up once for A, then ``.solve(b)`` as often as needed.

    solver, precond: hpls's names (``hpls.solvers()``, ``hpls.preconditioners()``);
    precond may also be a :class:`Preconditioner` (shared, not copied), or any
    scipy LinearOperator applying M^-1 (called from hpls under the GIL).
    tol, maxiter and every other hpls option as keyword arguments.  A: any
    scipy.sparse matrix (converted to CSR once), a dense numpy array for the
    methods that take one (jacobi, gs, sor, ssor, pjg, the Krylov methods
    without A^T, unpreconditioned), or a scipy LinearOperator (matrix-free, the
    Krylov methods; a preconditioner must then be an object, not a name).
    Give ``initial_guess="given"`` to pass x0 to ``solve``.  The GIL is released
    during setup and solve.
    """

    def __init__(self, A, solver="bicgstab", precond=None, tol=None, maxiter=None, **options):
        pc_object = None
        if isinstance(precond, Preconditioner):
            pc_object = precond._p
        elif isinstance(precond, LinearOperator):  # the user's M^-1, e.g. from spilu
            pc_object = _core.Precond()
            pc_object.setup_shell(*_shell(precond, "precond"))
        if pc_object is not None:
            precond = None
        self._s = _core.Solver(_options(solver=solver, precond=precond, tol=tol,
                                        maxiter=maxiter, **options))
        if pc_object is not None:
            self._s.set_precond(pc_object)
        self._given = self._s.get_option("initial_guess") == "given"
        self._setup(A)

    def _setup(self, A):
        if isinstance(A, LinearOperator):  # matrix-free: the Krylov methods only
            n, apply, apply_t = _shell(A, "A")
            self._s.setup_shell(n, apply, apply_t)
            self.shape = (n, n)
            self._matrix = None
            return
        m = _Matrix(A)
        if m.dense is not None:
            self._s.setup_dense(m.dense, m.shape[0], m.shape[1])
        else:
            self._s.setup(m.indptr, m.indices, m.data, m.shape[0], m.shape[1])
        self.shape = m.shape
        self._matrix = m

    def update_values(self, A):
        """A's values changed, not its pattern: redoes only the numeric part of the
        setup (hpls_solver_update_values)."""
        m = _Matrix(A)
        old = self._matrix
        if old is None or m.dense is not None or old.dense is not None:
            raise ValueError("update_values needs the sparse matrix of the setup")
        _same_pattern(m, old)
        self._s.update_values(m.indptr, m.indices, m.data)
        self._matrix = m

    def option(self, key):
        """The value of an option in use (hpls's name, lower case)."""
        return self._s.get_option(key)

    def info(self):
        """:class:`Info` of the last solve."""
        return Info(self._s.info(), self._s.history())

    def solve(self, b, x0=None, return_info=False, raise_on_fail=False):
        """x with A x = b; b of shape (n,) or (n, k) (k right-hand sides, solved
        by hpls_solver_solve_many).  return_info: also the :class:`Info` (a list
        of k for a 2-D b); raise_on_fail: :class:`NotConverged` if a solve does
        not converge."""
        n = self.shape[0]
        b = _vector(b, n)
        if x0 is not None and not self._given:
            raise ValueError("x0 needs a Solver created with initial_guess='given'")
        if b.ndim == 1:
            bb = np.ascontiguousarray(b, dtype=np.float64)
            if x0 is not None:
                x = np.array(_vector(x0, n, "x0"), dtype=np.float64, order="C")
                if x.shape != b.shape:
                    raise ValueError("x0 has shape %s, b %s" % (x.shape, b.shape))
            else:
                x = np.zeros(self.shape[1])
            self._s.solve(bb, x)
            infos = [Info(self._s.info(), self._s.history())]
        else:
            k = b.shape[1]
            bt = np.ascontiguousarray(b.T, dtype=np.float64)  # k x n: column-major n x k
            if x0 is not None:
                x0 = _vector(x0, n, "x0")
                if x0.shape != b.shape:
                    raise ValueError("x0 has shape %s, b %s" % (x0.shape, b.shape))
                xt = np.array(x0.T, dtype=np.float64, order="C")
            else:
                xt = np.zeros((k, self.shape[1]))
            infos = [Info(t) for t in self._s.solve_many(bt, xt, k)]
            x = xt.T
        for j, info in enumerate(infos):
            if info.ill_conditioned:
                warnings.warn("ill-conditioned matrix%s: %s's reciprocal condition estimate "
                              "is %.3g, below the machine epsilon; x has a small backward "
                              "error but may have no correct digit"
                              % ("" if len(infos) == 1 else " (column %d)" % j,
                                 self.option("solver"), info.rcond),
                              IllConditionedWarning, stacklevel=2)
                break
        if raise_on_fail:
            for j, info in enumerate(infos):
                if not info.converged:
                    raise NotConverged("%s did not converge%s: %s after %d iterations, "
                                       "relres %.3e" % (self.option("solver"),
                                                        "" if len(infos) == 1 else
                                                        " (column %d)" % j, info.reason,
                                                        info.iterations, info.relres),
                                       info if len(infos) == 1 else infos, x)
        if return_info:
            return x, infos[0] if b.ndim == 1 else infos
        return x


def solve(A, b, solver="bicgstab", precond=None, tol=1e-8, maxiter=None, x0=None,
          return_info=False, raise_on_fail=False, **options):
    """Solves A x = b with hpls (see :class:`Solver`); b may be 2-D (many
    right-hand sides).  Returns x, or (x, info) with return_info=True."""
    if x0 is not None:
        options["initial_guess"] = "given"
    s = Solver(A, solver=solver, precond=precond, tol=tol, maxiter=maxiter, **options)
    return s.solve(b, x0=x0, return_info=return_info, raise_on_fail=raise_on_fail)


class Preconditioner(LinearOperator):
    """An hpls preconditioner as a scipy LinearOperator: ``matvec(r)`` is
    M^-1 r, so ``scipy.sparse.linalg.gmres(A, b, M=hpls.Preconditioner(A,
    "dilu"))`` works.  transpose=True also builds M^-T (``rmatvec``).  Options
    are hpls's (``trisolve="levels"``, ``threads=2`` ...).  Also accepted as
    ``precond=`` of :class:`Solver` and :func:`solve`."""

    def __init__(self, A, precond="dilu", transpose=False, **options):
        m = _Matrix(A)
        indptr, indices, data = m.csr_arrays()
        self._p = _core.Precond(_options(precond=precond, **options))
        self._p.setup(indptr, indices, data, m.shape[0],
                      _core.PRECOND_TRANSPOSE if transpose else 0)
        self._matrix = m
        super().__init__(dtype=np.dtype(np.float64), shape=m.shape)

    def update_values(self, A):
        """A's values changed, not its pattern: redoes only the numeric setup."""
        m = _Matrix(A)
        m.csr_arrays()
        _same_pattern(m, self._matrix)
        self._p.update_values(*m.csr_arrays())
        self._matrix = m

    def option(self, key):
        return self._p.get_option(key)

    @property
    def setup_s(self):
        """Seconds of the last setup."""
        return self._p.info()[0]

    @property
    def trisolve(self):
        """The triangular-solve strategy of dilu / dic / ilu0 (None for the others)."""
        return self._p.info()[1]

    def _apply(self, r, transpose):
        r = np.ascontiguousarray(r, dtype=np.float64).reshape(-1)
        z = np.empty_like(r)
        (self._p.apply_transpose if transpose else self._p.apply)(r, z)
        return z

    def _matvec(self, r):
        return self._apply(r, False)

    def _rmatvec(self, r):
        return self._apply(r, True)

    def _matmat(self, R):
        return np.column_stack([self._apply(R[:, j], False) for j in range(R.shape[1])])


def tridiag_solve(dl, d, du, b, method="gspike", partitions=0, delta=1e-6, threads=0,
                  check=True):
    """x with T x = b for the tridiagonal T of rows dl[i] x[i-1] + d[i] x[i] +
    du[i] x[i+1]: dl, du of n values (dl[0], du[-1] unused) or of n-1 (LAPACK
    gtsv's layout); b of shape (n,) or
    (n, k), all k columns solved with one factorization.  method: thomas, cr,
    gspike or lapack; partitions, delta: g-Spike's p (0: from n and the threads)
    and singularity threshold; threads: 0 for OpenMP's default.  check: first
    the direct methods' singularity and condition test (hpls_tridiag_rcond, an
    LU of T: about the cost of one dgtsv): a singular T raises ValueError, an
    ill-conditioned one is solved with an :class:`IllConditionedWarning`;
    check=False skips it."""
    arrays = [np.ascontiguousarray(v, dtype=np.float64) for v in (dl, d, du)]
    n = arrays[1].size
    if arrays[0].size == n - 1 and arrays[2].size == n - 1:  # LAPACK's n-1 off-diagonals
        arrays[0] = np.concatenate(([0.0], arrays[0]))
        arrays[2] = np.concatenate((arrays[2], [0.0]))
    for name, v in zip(("dl", "d", "du"), arrays):
        if v.ndim != 1 or v.size != n:
            raise ValueError("%s has shape %s; d has %d values" % (name, v.shape, n))
    b = _vector(b, n)
    x = np.array(b.T, dtype=np.float64, order="C")  # k x n: one system after another
    k = 1 if b.ndim == 1 else b.shape[1]
    rcond = _core.tridiag_solve(method, arrays[0], arrays[1], arrays[2], x, k, partitions,
                                delta, threads, bool(check))
    if rcond is not None and rcond < np.finfo(np.float64).eps:
        warnings.warn("ill-conditioned matrix: its reciprocal condition estimate is %.3g, below "
                      "the machine epsilon; x has a small backward error but may have no "
                      "correct digit" % rcond, IllConditionedWarning, stacklevel=2)
    return x if b.ndim == 1 else x.T
