# SPDX-License-Identifier: BSD-3-Clause
"""Runtime behaviour: the GIL released during solves, Ctrl-C stopping a solve
(KeyboardInterrupt, the solver still usable), no memory growth over 1000 solves,
reference counts back where they were."""

import gc
import os
import signal
import sys
import threading
import time
import tracemalloc

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse.linalg import LinearOperator, aslinearoperator

import hpls
from conftest import nonsymmetric, relerr, x_true


def long_problem(n=20000):
    """A solve that runs for a long time: tol=0 makes jacobi run to maxiter."""
    A = sp.diags([-1.0, 2.5, -1.0], [-1, 0, 1], shape=(n, n), format="csr")
    return A, np.ones(n)


def test_gil_is_released_during_a_solve():
    A, b = long_problem()
    s = hpls.Solver(A, solver="jacobi", tol=0, maxiter=20000, threads=1)
    t = threading.Thread(target=s.solve, args=(b,))
    t.start()
    time.sleep(0.02)  # the thread is inside hpls now
    ticks = 0
    while t.is_alive():  # runs only if the solve left the GIL
        ticks += 1
        time.sleep(0)
    t.join()
    assert s.info().iterations == 20000
    assert ticks > 10


def test_a_solver_in_use_refuses_a_second_thread():
    A, b = long_problem()
    s = hpls.Solver(A, solver="jacobi", tol=0, maxiter=3000, threads=1)
    t = threading.Thread(target=s.solve, args=(b,))
    t.start()
    time.sleep(0.02)
    refused = False
    while t.is_alive():
        try:
            s.solve(b)
        except hpls.Error as e:
            refused = "in use" in str(e)
            break
    t.join()
    assert refused or s.info().iterations == 3000


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_stops_a_solve():
    A, b = long_problem()
    maxiter = 10**6  # many seconds without the interrupt (then the reason check fails)
    s = hpls.Solver(A, solver="jacobi", tol=0, maxiter=maxiter, threads=1)
    # a process started in the background by a shell inherits SIGINT ignored, and
    # Python then installs no handler: install the one a terminal's Python has
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            s.solve(b)
    finally:
        timer.join()
        signal.signal(signal.SIGINT, old)
    info = s.info()
    assert info.reason == "stopped by the monitor" and 0 < info.iterations < maxiter
    # the solver is still usable
    A2, _ = long_problem(200)
    s2 = hpls.Solver(A2, solver="bicgstab", tol=1e-10)
    assert relerr(s2.solve(A2 @ x_true(200)), x_true(200)) <= 1e-8


def rss_kib():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="Linux /proc")
def test_no_memory_growth_over_1000_solves():
    A = nonsymmetric(300)
    b = A @ x_true(300)
    s = hpls.Solver(A, precond="dilu", tol=1e-10)
    op = aslinearoperator(A)
    M = LinearOperator(A.shape, matvec=lambda r: r / A.diagonal(), dtype=np.float64)

    def work(i):
        s.solve(b)
        hpls.solve(A, b, solver="gmres", precond="ilu0", return_info=True)
        if i % 10 == 0:
            hpls.Preconditioner(A, "dilu") @ b
            hpls.tridiag_solve(A.diagonal(-1), A.diagonal(), A.diagonal(1), b)
            hpls.solve(op, b, solver="bicgstab", precond=M)  # callbacks under the GIL

    for i in range(100):  # warm up: allocator pools, caches
        work(i)
    gc.collect()
    tracemalloc.start()
    rss0 = rss_kib()
    snap0 = tracemalloc.take_snapshot()
    for i in range(1000):
        work(i)
    gc.collect()
    snap1 = tracemalloc.take_snapshot()
    rss1 = rss_kib()
    tracemalloc.stop()
    grown = sum(st.size_diff for st in snap1.compare_to(snap0, "filename"))
    assert grown < 64 * 1024, grown  # Python objects: bytes, not 1000 leaked arrays
    assert rss1 - rss0 < 4096, (rss0, rss1)  # C side: one leaked solver each time would be MBs


def test_reference_counts():
    # counts taken outside the asserts: pytest's rewriting of an assert holds its own
    A = nonsymmetric()
    b = A @ x_true(A.shape[0])

    def counts():
        return sys.getrefcount(A.data), sys.getrefcount(A.indices), sys.getrefcount(b)

    before = counts()
    s = hpls.Solver(A)
    held = counts()
    assert held[0] > before[0]  # A's arrays held while the solver may read them
    for _ in range(10):
        x = s.solve(b)
        info = s.info()
    assert counts() == held
    del s, x, info
    gc.collect()
    assert counts() == before
    M = hpls.Preconditioner(A, "dilu")
    s = hpls.Solver(A, precond=M)
    del M
    gc.collect()
    x = s.solve(b)
    assert relerr(x, x_true(A.shape[0])) <= 1e-7  # the solver keeps M alive
    del s, x
    gc.collect()
    assert counts() == before
    for _ in range(5):
        with pytest.raises(ValueError):
            hpls.solve(A, np.ones(3))
        with pytest.raises(ValueError):
            hpls.solve(A, b, solver="nosuch")
    gc.collect()
    assert counts() == before
