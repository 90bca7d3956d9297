#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""gpu_model.py: a GPU performance model of hpls's methods, checked on the CPU.

    gpu_model.py run BUILD_DIR
        prints the Markdown of bench/results/gpu_model.md (bench/gpu_model.sh):
        bytes and launches per iteration and per setup of every method, from the
        passes hpls's code makes (formulas below), the time they predict on an H100
        and an A100, the papers' reported speed-ups beside the model's, and the
        byte counts checked on this CPU: time per iteration at n = 1e6 predicted
        from the same counts and the triad of the same run, against the measured.
    gpu_model.py measure BUILD_DIR --backend cuda|opencl --device NAME [--bw GB/s] [--smoke]
        the same counts beside the time per iteration and setup measured on a GPU
        (bench/gpu_measured.sh, `make bench-gpu`, which refuses to run without one).
    gpu_model.py doc [--results DIR] [--doc FILE] (--write | --check)
        the generated section of docs/gpu_model.md: the tables of DIR/gpu_model.csv
        rendered as bench/tables.py renders them (the ctest docs_gpu_model checks
        that the doc is that rendering).

run and doc use no GPU: every GPU figure there is a prediction.  Python 3 stdlib only.
"""
import argparse
import json
import math
import os
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree (the ctest runs this)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tables  # noqa: E402  (bench/tables.py: the CSV -> Markdown rendering)

# ---- the devices ------------------------------------------------------------
# Peak HBM bandwidth from NVIDIA's datasheets: H100 SXM5 80 GB 3.35 TB/s; A100
# SXM4 40 GB 1.555 TB/s (the 80 GB SKU has 2.039 TB/s).  Peak, not achieved:
# stream kernels reach about 90 % of it, so the predictions are lower bounds.
GPUS = [("H100", 3.35e12), ("A100", 1.555e12)]
LAUNCH = 3e-6  # s: one kernel launch, or one read back of a reduction to the host
DEP = 0.5e-6  # s: one link of a synchronization-free dependency chain (an assumption)
# Rows a sync-free launch keeps in flight: its work-groups, one row each
# (kernels/cuda/cuda.c: SMs x resident block slots; the A100's 108 x 32, the
# smaller of the two GPUs').  A chain link passes at most this many rows.
SYNCFREE_GROUPS = 108 * 32
PSIZE = 65536  # rows per PJG block on a GPU: enough work-groups to fill the device
BLOCK = 64  # rows per BHISA block (the paper's choice on the K20c, Sec. 6.1)
GSPIKE_ROWS = 32  # rows per partition of g-Spike on a device, every level (HPLS_DEVICE_GSPIKE_ROWS)
PCIE = 25e9  # B/s: a host-device copy (PCIe 4.0 x16 in practice; an assumption)
TOL = "1e-8"
MAXIT = 500  # cap of the CPU runs (stationary methods on poisson3d do not converge)


def spmv(n, z):
    """CSR SpMV: values 8 + column index 4 per entry, row pointer 8 per row, x read
    once, y written once."""
    return 12 * z + 8 * (n + 1) + 16 * n


def red(k):
    """k reductions: each a second-stage launch and a read back to the host."""
    return 2 * k


class Cost:
    """Per iteration: bytes, latencies (launches + read backs), the length of a
    dependency chain and host-device copies (x bytes at PCIE); the same for the
    setup."""

    def __init__(self, b, lat, chain=0, sb=0, slat=0, schain=0, sx=0, x=0):
        self.b, self.lat, self.chain, self.x = b, lat, chain, x
        self.sb, self.slat, self.schain, self.sx = sb, slat, schain, sx

    def t(self, bw):
        return self.b / bw + self.lat * LAUNCH + self.chain * DEP + self.x / PCIE

    def ts(self, bw):
        return self.sb / bw + self.slat * LAUNCH + self.schain * DEP + self.sx / PCIE


def syncfree_chain(n, levels):
    """Links of one sync-free pass: the levels, or n rows through SYNCFREE_GROUPS
    rows in flight when the level sets are wider than that."""
    return max(levels, -(-n // SYNCFREE_GROUPS))


def levels_setup(n, z, levels):
    """Level sets on the device (Wang-Liu Alg. 7, sync-free colouring: one launch,
    a chain as long as the levels) and rows sorted by level (radix sort of n
    32-bit keys with 32-bit values: 4 passes reading and writing 16 bytes a row)."""
    zl = (z - n) // 2
    return 4 * zl + 8 * (n + 1) + 4 * n + 4 * 16 * n, 1 + 4 * 3, syncfree_chain(n, levels)


def sweeps(n, z):
    """A forward and a backward sweep over the split, scaled copies of L and U
    (12 bytes an entry, 8 a row each), rD, r read, y written and read, z written."""
    return 12 * (z - n) + 16 * (n + 1) + 5 * 8 * n


# ---- the methods: what one iteration and the setup move ----------------------
# m: n, z (nnz), levels (of A's lower triangle), zs (nnz of S = A - T), dense.
def bicgstab(m):
    """hpls's BiCGSTAB (src/iter/bicgstab.c): 2 SpMV + 18 vectors; kernels p,
    2 SpMV, dot, waxpy, dot3, xr (fused update + 2 norms): 7 + 3 reductions."""
    return Cost(2 * spmv(m["n"], m["z"]) + 18 * 8 * m["n"], 7 + red(3))


def cusparse_bicgstab(m):
    """BiCGSTAB as NVIDIA's cuSPARSE + cuBLAS sample writes it: 2 SpMV, 9 axpy /
    scal / copy kernels, 5 dot / nrm2 (each read back): 32 vectors."""
    return Cost(2 * spmv(m["n"], m["z"]) + 32 * 8 * m["n"], 2 + 9 + 5 + red(5))


def dilu_bicgstab(m, sync_free):
    """BiCGSTAB + 2 DILU applications (+1 vector: shat != s).  Setup: level sets
    and sort, then one pass over A (mirror A_ji found by binary search: ~4 index
    reads a lower entry) writing L, U scaled by rD, and rD: a launch per level
    (or one, sync-free)."""
    n, z, lv = m["n"], m["z"], m["levels"]
    base = bicgstab(m)
    lb, llat, lch = levels_setup(n, z, lv)
    sb = lb + 12 * z + 8 * (n + 1) + 16 * (z - n) // 2 + 12 * (z - n) + 16 * (n + 1) + 8 * n
    if sync_free:
        ch = syncfree_chain(n, lv)
        return Cost(base.b + 2 * sweeps(n, z) + 8 * n, base.lat + 4, 4 * ch, sb - lb, 1, ch)
    return Cost(base.b + 2 * sweeps(n, z) + 8 * n, base.lat + 4 * lv, 0, sb, llat + lv, lch)


def ilu0_setup(m):
    """cuSPARSE csrilu02 by levels: the analysis (level sets) and, per lower entry
    A_ik, row k's upper part read (12 bytes an entry) to update row i; values
    read and written (16 bytes an entry): a launch per level."""
    n, z, lv = m["n"], m["z"], m["levels"]
    lb, llat, lch = levels_setup(n, z, lv)
    zl = (z - n) / 2
    return lb + 12 * z + 8 * (n + 1) + 8 * z + 12 * zl * (zl / n), llat + lv, lch


def cusparse_ilu_bicgstab(m):
    """cuSPARSE ILU(0) + BiCGSTAB: the cuBLAS BiCGSTAB and per application two
    csrsv2 solves by levels (L, then U), bytes as DILU's sweeps without rD."""
    n, z, lv = m["n"], m["z"], m["levels"]
    base = cusparse_bicgstab(m)
    sb, slat, sch = ilu0_setup(m)
    return Cost(base.b + 2 * (sweeps(n, z) - 8 * n), base.lat + 4 * lv, 0, sb, slat, sch)


def jacobi(m):
    """src/iter/jacobi.c: one SpMV fused with the update, x, b, r twice, D^-1:
    SpMV + 4 vectors; one kernel and its norm.  Dense (PJG's paper): 8 n^2."""
    n = m["n"]
    a = 8 * n * n + 16 * n if m.get("dense") else spmv(n, m["z"])
    return Cost(a + 4 * 8 * n, 1 + red(1))


RELAX_AUTO_ROWS = 32  # kernels/device/relax.c: auto is serial below this many rows a level


def relax_strategy(m):
    """trisolve=auto for gs, sor, ssor on a GPU (kernels/device/relax.c): serial when
    the level sets average fewer than RELAX_AUTO_ROWS rows (a chain, as gas's n
    levels), else sync-free."""
    return "serial" if m["n"] < RELAX_AUTO_ROWS * m["levels"] else "syncfree"


def sweep_lat(m, strategy):
    """Launches and dependency chain of one sweep: by levels a launch a level (U's
    levels taken as L's); sync-free one launch and a chain as long as the levels
    (syncfree_chain); serial one launch and a chain of n rows (one work-item)."""
    return {"levels": (m["levels"], 0), "syncfree": (1, syncfree_chain(m["n"], m["levels"])),
            "serial": (1, m["n"])}[strategy]


def relax_sweep(n, z, strategy):
    """One sweep of kernels/device/relax.cl: A once, the diagonal positions, b,
    D^-1, x read and written, its old copy read (+ the level order by levels)."""
    return 12 * z + 8 * (n + 1) + 6 * 8 * n + (8 * n if strategy == "levels" else 0)


def relax_residual(n, z):
    """relax_residual_part: A's upper (or lower) half, the diagonal positions and
    values, x_old and x, r written."""
    return 12 * (z - n) // 2 + 8 * (n + 1) + 5 * 8 * n


def gs(m, strategy=None):
    """src/iter/gs.c (and sor.c: the same passes) on a device: x copied to dx (the old
    values a row reads), a forward sweep (trisolve=auto), the residual
    (U + (1 - 1/w) D)(dx - x) and its norm."""
    n, z = m["n"], m["z"]
    s = strategy or relax_strategy(m)
    lat, chain = sweep_lat(m, s)
    return Cost(16 * n + relax_sweep(n, z, s) + relax_residual(n, z), 1 + lat + 1 + red(1), chain)


def ssor(m):
    """src/iter/ssor.c on a device: copy + forward sweep, copy + backward sweep, the
    residual from A's lower half and its norm."""
    n, z = m["n"], m["z"]
    s = relax_strategy(m)
    lat, chain = sweep_lat(m, s)
    b = 2 * (16 * n + relax_sweep(n, z, s)) + relax_residual(n, z)
    return Cost(b, 2 * (1 + lat) + 1 + red(1), 2 * chain)


def ssor_apply(m):
    """precond ssor on a device: (D + wL) y = r and (D + wU) z = D y, each reading
    its half of A, the diagonal positions and values, b and z; then z *= w (2 - w)."""
    n, z = m["n"], m["z"]
    s = relax_strategy(m)
    lat, chain = sweep_lat(m, s)
    half = 12 * (z - n) // 2 + 8 * (n + 1) + 4 * 8 * n + (8 * n if s == "levels" else 0)
    return Cost(2 * half + 16 * n, 2 * lat + 1, 2 * chain)


def ssor_bicgstab(m):
    """BiCGSTAB + 2 precond ssor applications an iteration."""
    base, a = bicgstab(m), ssor_apply(m)
    return Cost(base.b + 2 * a.b, base.lat + 2 * a.lat, 2 * a.chain)


def pjg(m, psize=PSIZE):
    """src/iter/pjg.c on a device: A once, D^-1, b, x read (cur), new values read
    (nxt, finished columns) and written, r written; one launch per block of psize
    rows (a dense row: 16 work-items), blocks in order; the norm of r (a launch and
    a reduction)."""
    n = m["n"]
    a = 8 * n * n + 16 * n if m.get("dense") else spmv(n, m["z"])
    return Cost(a + 4 * 8 * n, -(-n // psize) + 1 + red(1))


def pjg_bicgstab(m):
    """BiCGSTAB + 2 precond pjg applications (1 sweep from z = 0: z set, the sweep
    without r, a copy back) an iteration."""
    base, sweep = bicgstab(m), pjg(m)
    a = Cost(sweep.b - 8 * m["n"] + 3 * 8 * m["n"], sweep.lat - 1 - red(1) + 2)
    return Cost(base.b + 2 * a.b, base.lat + 2 * a.lat)


BLOCK_COLS = 8  # kernels/device/block.cl: columns a launch reads A once for


def jacobi_block(m):
    """solve_many's jacobi on a device (kernels/device/block.c), per column: for 8
    columns A once, each column's X gathered, B read, R written (one launch), one
    reduction of the 8 norms, the update (D^-1, R read, X read and written)."""
    n, z, k = m["n"], m["z"], BLOCK_COLS
    b = spmv(n, z) - 16 * n + k * 3 * 8 * n + 8 * n + k * 3 * 8 * n
    return Cost(b / k, (1 + red(1) + 1) / k)


def bhisa(m):
    """src/iter/hisa.c, BHISA on a device: kernel 1 solves each block of T (64
    rows, local memory; reads b, y and T's 3 factored diagonals, writes x);
    kernel 2: y' = S x fused with r = y - y' and its norm.  Setup: split A into
    T and S (count + scan + fill: 3 launches) and T's coefficients reduced (Alg. 2)."""
    n, z, zs = m["n"], m["z"], m["zs"] + 2 * (m["n"] // BLOCK)
    it = 8 * n * 6 + spmv(n, zs) + 8 * n
    sb = spmv(n, z) + 8 * 3 * n + 12 * zs + 8 * (n + 1) + 8 * 3 * n + 8 * 3 * n
    return Cost(it, 2 + red(1), 0, sb, 4, 0)


def gspike_levels(n):
    """The rows of g-Spike's levels on a device: n, then 2 per partition boundary of
    partitions of GSPIKE_ROWS rows, while a level has 128 rows or more (gspike.c)."""
    sizes = [n]
    while sizes[-1] >= 128:
        sizes.append(2 * (sizes[-1] // GSPIKE_ROWS) - 2)
    return sizes


def gspike(m):
    """g-Spike on a device (kernels/device/gspike.c; T irreducible, well conditioned:
    no repair, no refinement).  A solve, per level of n_l rows with partitions:
    gs_solve1 reads b and the scales (row order), the rotations and R (5), writes g
    (an item's 32 rows stay in cache while its recurrences go over them); gs_solve2
    reads g and the spikes, writes x: 12 n_l values and 2 launches; the last level
    (under 128 rows) one item, 1 launch.  Setup per level: gs_factor reads T and the
    scales, writes rotations and R (9 n_l); gs_spikes reads those and writes the
    spikes and the reduced rows (11 n_l + 6 n_l / 32); 2 launches and 10 copies
    (scales, table up; table, stats, the reduced system back); the scales (n_l) and
    each reduced system (6 n_l / 32) cross PCIe.  Not counted: T's upload (gtsv2's
    input is on the device too) and the host's passes over each level (scales and
    pieces: 5 n_l values read, n_l written, on the CPU)."""
    sizes = gspike_levels(m["n"])
    part = sizes[:-1]
    b = sum(12 * 8 * s for s in part) + 8 * 8 * sizes[-1]
    sb = sum(8 * (20 * s + 6 * s // GSPIKE_ROWS) for s in part) + 9 * 8 * sizes[-1]
    sx = sum(8 * (s + 6 * s // GSPIKE_ROWS) for s in part)
    return Cost(b, 2 * len(part) + 1, 0, sb, 12 * len(part) + 3, 0, sx)


def gspike_oneshot(m):
    """g-Spike's setup and one solve in one call: what gtsv2 is."""
    c = gspike(m)
    return Cost(c.b + c.sb, c.lat + c.slat, x=c.sx)


def gtsv2(m):
    """cuSPARSE gtsv2 (recursive Spike with diagonal pivoting, the IMPACT code):
    dl, d, du, b read, x written, 8(n+3) temporary values written and read."""
    n = m["n"]
    depth = max(1, math.ceil(math.log(max(n / 128, 2)) / math.log(128)))
    return Cost(8 * (5 * n + 2 * 8 * (n + 3)), 4 * depth)


def qtbicgstab_cpu(m):
    """QTBiCGSTAB's SpMV stores a leaf's entry in 10 bytes (16-bit column offset +
    value) and 4 a leaf row (src/la/qtree.h), against CSR's 12 and 8."""
    n, z = m["n"], m["z"]
    return Cost(2 * (10 * z + 4 * n + 16 * n) + 18 * 8 * n, 7 + red(3))


METHODS = [
    # name, cost, matrices it applies to, hpls solver/precond for the CPU check
    ("BHISA", bhisa, {"gas"}, ("bhisa", "none")),
    ("BiCGSTAB (hpls, fused)", bicgstab, None, ("bicgstab", "none")),
    ("BiCGSTAB (cuSPARSE+cuBLAS)", cusparse_bicgstab, None, ("bicgstab", "none")),
    ("DILU-BiCGSTAB, levels", lambda m: dilu_bicgstab(m, False), None, ("bicgstab", "dilu")),
    ("DILU-BiCGSTAB, sync-free", lambda m: dilu_bicgstab(m, True), None, ("bicgstab", "dilu")),
    ("ILU(0)-BiCGSTAB (cuSPARSE)", cusparse_ilu_bicgstab, None, ("bicgstab", "ilu0")),
    ("PJG psize=65536", pjg, None, ("pjg", "none")),
    ("BiCGSTAB + PJG (1 sweep)", pjg_bicgstab, None, ("bicgstab", "pjg")),
    ("Jacobi", jacobi, None, ("jacobi", "none")),
    ("Jacobi, 8 right-hand sides (a column's share)", jacobi_block, None, ("jacobi", "none")),
    ("GS / SOR, auto", gs, None, ("gs", "none")),
    ("SSOR, auto", ssor, None, ("ssor", "none")),
    ("BiCGSTAB + SSOR, auto", ssor_bicgstab, None, ("bicgstab", "ssor")),
    ("g-Spike (T of A)", gspike, {"gas"}, None),
    ("gtsv2 (T of A)", gtsv2, {"gas"}, None),
]


def gen_matrix(kind, n):
    """n, nnz, levels of L (and for gas, the only quasi-tridiagonal one, nnz of S) of
    hpls's generated matrices (closed forms: src/gen/gas.c has 3 + k entries a row,
    k = 2; 7-point stencils on nx^3)."""
    if kind == "gas":
        return {"spec": f"gas:n={n},k=2", "n": n, "z": 5 * n - 2, "levels": n, "zs": 2 * n}
    nx = round(n ** (1 / 3))
    n = nx ** 3
    return {"spec": f"{kind}:nx={nx}", "n": n, "z": 7 * n - 6 * nx * nx, "levels": 3 * nx - 2}


def fmt_t(s):
    return f"{s * 1e6:.0f} µs" if s < 1e-3 else f"{s * 1e3:.2f} ms" if s < 1 else f"{s:.2f} s"


def mb(b):
    return f"{b / 1e6:.1f}"


# ---- the CPU check -----------------------------------------------------------
def hpls_run(build, spec, solver, precond):
    cmd = [os.path.join(build, "bin", "hpls"), "solve", "--gen", spec, "--solver", solver,
           "--precond", precond, "--threads", "1", "--tol", TOL, "--maxiter", str(MAXIT),
           "--stag-window", "0", "--json"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode not in (0, 1):
        raise SystemExit(f"gpu_model.py: {' '.join(cmd)}: exit {p.returncode}: {p.stderr.strip()}")
    return json.loads(p.stdout)


def triad(build):
    p = subprocess.run([os.path.join(build, "bin", "bench_hisa_tables"), "triad", "1"],
                       capture_output=True, text=True, check=True)
    for w in p.stdout.split():
        if w.startswith("triad_gbs="):
            return float(w.split("=")[1]) * 1e9
    raise SystemExit("gpu_model.py: bench_hisa_tables triad printed no triad_gbs")


def cpu_bytes(name, m):
    """Bytes the CPU code moves per iteration: the device formulas where the passes
    are the same; on the CPU the fused BiCGSTAB and hpls's own DILU / ILU(0) sweeps
    run (whose bytes are DILU's), and BHISA's blocks are Thomas solves of the
    same T."""
    n, z = m["n"], m["z"]
    if name.startswith(("DILU", "ILU")):
        return bicgstab(m).b + 2 * sweeps(n, z) + 8 * n
    host_sweep = spmv(n, z) + 12 * (z - n) // 2 + 3 * 8 * n  # sor_sweep.c + triangle residual
    pjg_sweep = spmv(n, z) + 3 * 8 * n  # pjg_sweep.c: x, xold, b, r
    ssor_solve = spmv(n, z) + 3 * 8 * n  # the host's ssor solve (sor_sweep.c): A once, r, z (3 passes)
    host = {"BHISA": lambda: bhisa(m).b, "PJG psize=65536": lambda: pjg_sweep,
            "Jacobi": lambda: jacobi(m).b,
            "Jacobi, 8 right-hand sides (a column's share)": lambda: jacobi_block(m).b,
            "GS / SOR, auto": lambda: host_sweep, "SSOR, auto": lambda: host_sweep + spmv(n, z),
            "BiCGSTAB + SSOR, auto": lambda: bicgstab(m).b + 2 * ssor_solve,
            "BiCGSTAB + PJG (1 sweep)": lambda: bicgstab(m).b + 2 * pjg_sweep}
    return host.get(name, lambda: bicgstab(m).b)()


def run(build):
    sizes = [10**6, 10**7, 10**8]
    kinds = ["gas", "poisson3d", "convdiff3d"]
    # Each solve is paired with the triads just before and after it: on a shared
    # machine the bandwidth a solve got is nearer theirs than a run-wide one's.
    measured = {}  # (kind, solver, precond) -> json at n = 1e6, its "bw" added
    before = triad(build)
    for kind in kinds:
        m = gen_matrix(kind, 10**6)
        for name, _, only, run_as in METHODS:
            if run_as is None or (only and kind not in only) or (kind, *run_as) in measured:
                continue
            r = hpls_run(build, m["spec"], *run_as)
            after = triad(build)
            r["bw"], before = (before + after) / 2, after
            measured[(kind, *run_as)] = r
    out = []
    w = out.append
    w("# GPU performance model (no GPU was used: every GPU figure is a prediction)")
    w("")
    w(f"Devices: H100 SXM5 80 GB, {GPUS[0][1] / 1e12:.3f} TB/s; A100 SXM4 40 GB, "
      f"{GPUS[1][1] / 1e12:.3f} TB/s (NVIDIA datasheets; peak, so times are lower bounds).  "
      f"Model: t = bytes / bandwidth + (launches + read-backs) x {LAUNCH * 1e6:.0f} µs + "
      f"chain x {DEP * 1e6:.1f} µs (docs/gpu_model.md).  Iterations: hpls's count at n = 1e6 "
      f"(tol {TOL}, 1 thread, this run; `*`: stopped at maxiter {MAXIT}), used at every n "
      "for gas (whose counts do not grow with n: hisa.md) and at 1e6 only for the stencils.")
    w("")
    w("## Per iteration and per setup")
    w("")
    w("| method | matrix | n | nnz | MB / it | launches + read-backs / it | chain / it | H100 / it "
      "| A100 / it | setup MB | setup launches | H100 setup | iterations | H100 solve | A100 solve |")
    w("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for kind in kinds:
        for n in sizes:
            m = gen_matrix(kind, n)
            for name, cost, only, run_as in METHODS:
                if only and kind not in only:
                    continue
                c = cost(m)
                its, solve = "—", ["—", "—"]
                if run_as and (kind == "gas" or n == 10**6):
                    r = measured[(kind, *run_as)]
                    k = r["iterations"]
                    its = f"{k}{'' if r['converged'] else '*'}"
                    solve = [fmt_t(c.ts(b) + k * c.t(b)) for _, b in GPUS]
                elif run_as is None:
                    its, solve = "direct", [fmt_t(c.t(b)) for _, b in GPUS]
                w(f"| {name} | {m['spec']} | {m['n']} | {m['z']} | {mb(c.b)} | {c.lat} | {c.chain} "
                  f"| {fmt_t(c.t(GPUS[0][1]))} | {fmt_t(c.t(GPUS[1][1]))} | {mb(c.sb) if c.sb else '—'} | {c.slat or '—'} "
                  f"| {fmt_t(c.ts(GPUS[0][1])) if c.sb else '—'} | {its} | {solve[0]} | {solve[1]} |")
    w("")
    w("QTBiCGSTAB has no device version: its quad-tree orders A's leaves so that a "
      "d-long piece of x stays in a CPU cache while a column of leaves is swept (Eq. 17 "
      "sizes d from the cache); a GPU streams A once per SpMV whatever the order and "
      "keeps x in its 40-50 MB L2 by itself, so the tree would only add launches.")
    w("")
    papers_matrices(w)
    w("")
    papers(w, measured)
    w("")
    w("## The byte counts checked on this CPU (n = 1e6, 1 thread)")
    w("")
    w("Triad: 1 thread, `bench_hisa_tables triad 1`, the mean of the one just before and "
      "the one just after each solve.  Predicted = the same bytes per iteration / that triad; "
      "ratio = measured / predicted (1: the byte count explains the time; above 1: latency "
      "or instructions the count does not see, e.g. the sequential sweeps).")
    w("")
    w("| kernel (hpls solve) | matrix | iterations | MB / it | triad GB/s | predicted ms / it "
      "| measured ms / it | ratio |")
    w("|---|---|---:|---:|---:|---:|---:|---:|")
    seen = set()
    for kind in kinds:
        m = gen_matrix(kind, 10**6)
        for name, _, only, run_as in METHODS:
            if run_as is None or (only and kind not in only) or (kind, *run_as) in seen:
                continue
            seen.add((kind, *run_as))
            r = measured[(kind, *run_as)]
            b, bw = cpu_bytes(name, m), r["bw"]
            t = r["solve_s"] / max(r["iterations"], 1)
            w(f"| {run_as[0]}+{run_as[1]} | {m['spec']} | {r['iterations']} | {mb(b)} | {bw / 1e9:.2f} "
              f"| {b / bw * 1e3:.2f} | {t * 1e3:.2f} | {t / (b / bw):.2f} |")
    print("\n".join(out))


# ---- the papers ----------------------------------------------------------------
HISA_T5 = [  # HISA paper, Table 5: name, n, NNZ, NNZ outside the tridiagonal
    ("Gas2000", 2000, 9989, 3991), ("Gas10000a", 10000, 49997, 19999),
    ("Gas10000b", 10000, 59989, 29991), ("Gas100000a", 100000, 499991, 199993),
    ("Gas100000b", 100000, 599976, 299978), ("Gas1000000a", 10**6, 3999997, 999999),
    ("Gas1000000b", 10**6, 4999972, 1999974), ("Gas10000000a", 10**7, 39999997, 9999999),
    ("Gas10000000b", 10**7, 49999707, 19999709), ("Gas10000000c", 10**7, 59999104, 29999106)]
DILU_T1 = [  # DILU paper, Table 1: name, n, NNZ
    ("apache2", 715176, 4817870), ("ASIC_320ks", 321671, 1316085), ("atmosmodd", 1270432, 8814880),
    ("cage13", 445315, 7479343), ("G3_circuit", 1585478, 7660826), ("parabolic_fem", 525825, 3674625)]
QT_T1 = [("DK01R", 903, 11766), ("GT01R", 7980, 430909), ("PR02R", 161070, 8185136),
         ("RM07R", 381689, 37464962)]  # QTBiCGSTAB paper, Table I


def papers_matrices(w):
    """Per iteration on the matrices the papers used (n and nnz from their tables;
    the matrices themselves are not in ../shared/data, so their level sets are not
    known: DILU's rows give the time without the level term and say what it adds)."""
    w("## Per iteration on the papers' matrices")
    w("")
    w("| paper (table) | matrix | n | nnz | method | MB / it | launches + read-backs / it | H100 / it "
      "| A100 / it |")
    w("|---|---|---:|---:|---|---:|---:|---:|---:|")

    def row(src, name, m, method, c, extra=""):
        w(f"| {src} | {name} | {m['n']} | {m['z']} | {method} | {mb(c.b)} | {c.lat}{extra} "
          f"| {fmt_t(c.t(GPUS[0][1]))}{extra and ' + lv term'} | {fmt_t(c.t(GPUS[1][1]))}{extra and ' + lv term'} |")
    for name, n, z, zs in HISA_T5:
        m = {"n": n, "z": z, "levels": n, "zs": zs}
        for method, cost in [("BHISA", bhisa), ("BiCGSTAB (cuSPARSE+cuBLAS)", cusparse_bicgstab),
                             ("GS, auto (serial: n levels)", gs)]:
            row("HISA (Table 5)", name, m, method, cost(m))
    for name, n, z in DILU_T1:
        m = {"n": n, "z": z, "levels": 0}
        row("DILU (Table 1)", name, m, "DILU-BiCGSTAB, levels", dilu_bicgstab(m, False), " + 4 lv")
        row("DILU (Table 1)", name, m, "DILU-BiCGSTAB, sync-free", dilu_bicgstab(m, True), " + chain 4 lv")
    for n in (10000, 20000, 30000, 40000):
        m = {"n": n, "dense": True}
        row("PJG (Tables 3-4)", "random dense", {"n": n, "z": n * n}, "PJG psize=3500", pjg(m, 3500))
        row("PJG (Tables 3-4)", "random dense", {"n": n, "z": n * n}, "Jacobi", jacobi(m))
    for name, n, z in QT_T1:
        m = {"n": n, "z": z}
        row("QTBiCGSTAB (Table I)", name, m, "BiCGSTAB (hpls, fused); no QTBiCGSTAB on a GPU", bicgstab(m))
    for e in (20, 22, 24):
        m = {"n": 2**e, "z": 3 * 2**e - 2}
        row("g-Spike (Figs. 7-8)", f"tridiagonal 2^{e}", m, "g-Spike, one solve (setup + solve)",
            gspike_oneshot(m))
        row("g-Spike (Figs. 7-8)", f"tridiagonal 2^{e}", m, "gtsv2, one solve", gtsv2(m))
    w("")
    w("lv: the level sets of the matrix's lower triangle, unknown here; by levels each "
      f"adds 4 launches an iteration ({4 * LAUNCH * 1e6:.0f} µs), sync-free 4 links of the "
      f"chain ({4 * DEP * 1e6:.0f} µs).")


def papers(w, measured):
    """The papers' speed-ups (table or figure named) beside the model's ratio for
    the same comparison, on H100 (the papers' GPUs are older; a ratio depends on
    the device only through bandwidth against launch latency)."""
    bw = GPUS[0][1]
    w("## Against the papers' speed-ups")
    w("")
    w("| comparison | paper's matrix (n) | paper: speed-up (source) | model on H100 | why they differ |")
    w("|---|---|---|---:|---|")

    def gas(n, z):
        return {"n": n, "z": z, "levels": n, "zs": z - (3 * n - 2)}

    # HISA paper: iterations from Table 6, times from Table 11 (K20c)
    k20c = 208e9  # the paper's K20c (Table 4: 320-bit bus at 2.6 GHz)
    for label, n, z, t_b, t_h, its_h, its_b in [("Gas2000", 2000, 9989, 0.034, 0.021, 11, 10),
                                                ("Gas10000a", 10000, 49997, 0.045, 0.031, 12, 10)]:
        m = gas(n, z)
        model_h = bhisa(m).ts(bw) + its_h * bhisa(m).t(bw)
        ratio = its_b * cusparse_bicgstab(m).t(bw) / model_h
        w(f"| BHISA over PARALUTION BiCGSTAB (GPU; iterations {its_h} and {its_b}, Table 6) | "
          f"{label} ({n}) | {t_b / t_h:.2f} (Table 11: {t_b} / {t_h} s) | {ratio:.2f} | both "
          "launch-bound at this size, the model counts launches (BHISA 4 an iteration, an "
          f"unfused BiCGSTAB 26); the paper's BHISA time is {t_h / model_h:.0f}x the model's: "
          "it holds transfers and setup the model does not |")
    for label, n, z, t_c, t_h in [("Gas1000000a", 10**6, 3999997, 7.831, 1.220),
                                  ("Gas10000000a", 10**7, 39999997, 78.811, 8.166)]:
        m = gas(n, z)
        ilu = cusparse_ilu_bicgstab(m)
        model_h = bhisa(m).ts(k20c) + 11 * bhisa(m).t(k20c)
        ratio = (ilu.ts(bw) + 3 * ilu.t(bw)) / (bhisa(m).ts(bw) + 11 * bhisa(m).t(bw))
        w(f"| BHISA over cuSPARSE (HYB with ILU; modelled as ILU(0)-BiCGSTAB by levels, 3 "
          f"iterations as PETSc's in hisa.md) | {label} ({n}) | {t_c / t_h:.2f} (Table 11: "
          f"{t_c} / {t_h} s) | {ratio:.0f} | a quasi-tridiagonal L has n levels, so by levels "
          "the model pays a launch a row; the paper's cuSPARSE time is "
          f"{t_c / (13 * n) * 1e6:.2f} µs a row and sweep (3 x 4 sweeps + the factorization): "
          "a sequential chain, not a launch a row; and its BHISA time is "
          f"{t_h / model_h:.0f}x the model's even at the K20c's 208 GB/s |")
    m = {"n": 2**20}
    w(f"| g-Spike over cuSPARSE gtsv (pivoting) | #1 random, #18 trid(-1,4,-1) (2^20) | "
      f"≈ 1 up to 2^20, g-Spike faster beyond with pivoting (Fig. 7, 8; values only in the "
      f"figures, missing from the text copy) | {gtsv2(m).t(bw) / gspike_oneshot(m).t(bw):.2f} "
      f"one-shot, {gtsv2(m).t(bw) / gspike(m).t(bw):.2f} a solve with the factors | "
      "the model sees bytes and launches only: it cannot see gtsv's warp divergence when "
      "pivoting, which the paper blames for its loss; hpls's setup pays a launch and "
      "copies to and from the host per level (its bookkeeping is on the host), and "
      "once factored each solve reads 12 values a row against gtsv2's 21 |")
    for kind in ["poisson3d", "convdiff3d"]:
        m = gen_matrix(kind, 10**6)
        d = dilu_bicgstab(m, False).ts(bw)
        i = ilu0_setup(m)
        ti = i[0] / bw + i[1] * LAUNCH + i[2] * DEP
        w(f"| DILU setup over cuSPARSE ILU(0) setup, both by levels | paper: apache2 .. "
          f"parabolic_fem (3.2e5-1.6e6), not in ../shared/data; model: {m['spec']} | "
          f"0.92-1.42 (Table 2, Use Levels: 96.57/74.16, 31.74/34.59, 125.10/87.83, "
          f"71.17/62.02, 163.40/134.92, 34.09/34.77 ms) | {ti / d:.2f} | both pay a "
          "launch per level and the levels' analysis; ILU(0) also reads row k's upper part "
          "per lower entry; the paper's 30-160 ms are well above both (K20m, CUDA 6.5) |")
    m = {"n": 10000, "dense": True}
    ratio = 27 * jacobi(m).t(bw) / (13 * pjg(m, 3500).t(bw))
    w(f"| PJG-3500 over Jacobi (GPU) | random dense (10000) | 1.06 (Table 4: 0.54 / 0.51 s; "
      f"13 and 27 iterations = time / time per iteration) | {ratio:.2f} | the model gives PJG "
      "Jacobi's bytes per sweep (A once), so its ratio is the iteration ratio; the paper's "
      "PJG iteration costs 2x Jacobi's (its Alg. 1 reads A twice, MATLAB indexing) |")
    m = gen_matrix("convdiff3d", 10**6)
    w(f"| QTBiCGSTAB over BiCGSTAB (CPU) | DK01R .. GT01R, not in ../shared/data; model: "
      f"{m['spec']} | 1.13-1.33 (Fig. 9, Sec. 4.1 text) | "
      f"{bicgstab(m).b / qtbicgstab_cpu(m).b:.2f} | the model counts the tree's smaller "
      "entries only; the paper's gain is x reused in cache, which a once-read model "
      "cannot see (bench/results/qtree.md measures it) |")


# ---- make bench-gpu: the same table measured on a GPU --------------------------
# What hpls runs on a device, as the model counts it: name, cost, matrices,
# `hpls solve` options (the model's rows for NVIDIA's libraries, cuSPARSE's
# BiCGSTAB and ILU(0), have no hpls counterpart on a device; g-Spike's, a
# direct solve on tridiagonal matrices, is timed by bench/gspike_device.sh).
MEASURED = [
    ("BHISA", bhisa, {"gas"}, ["--solver", "bhisa", "--block", str(BLOCK)]),
    ("BiCGSTAB (hpls, fused)", bicgstab, None, ["--solver", "bicgstab", "--precond", "none"]),
    ("DILU-BiCGSTAB, levels", lambda m: dilu_bicgstab(m, False), None,
     ["--solver", "bicgstab", "--precond", "dilu", "--trisolve", "levels"]),
    ("DILU-BiCGSTAB, sync-free", lambda m: dilu_bicgstab(m, True), None,
     ["--solver", "bicgstab", "--precond", "dilu", "--trisolve", "syncfree"]),
    ("PJG psize=65536", pjg, None, ["--solver", "pjg", "--psize", str(PSIZE)]),
    ("Jacobi", jacobi, None, ["--solver", "jacobi"]),
    ("GS, levels", gs, None, ["--solver", "gs", "--trisolve", "levels"]),
]
# Peak bandwidth of the devices whose datasheet figure is known, by a word of
# the device's name (the A100's 80 GB SKU and the H100's PCIe and NVL cards
# first: their memory differs from the name's first match).
KNOWN_BW = [("A100 80GB", 2.039e12), ("A100-SXM4-80GB", 2.039e12), ("H100 PCIe", 2.0e12),
            ("H100 NVL", 3.9e12), ("H100", 3.35e12), ("H200", 4.8e12), ("A100", 1.555e12)]
# The bandwidth that decides which rows --row-limit leaves out on a device not
# listed above: an A100's, below every current datacenter GPU's
ROW_LIMIT_BW = 1.555e12


def device_run(build, backend, spec, opts, its, timeout=None):
    """hpls solve on the device: exactly its iterations (tol 0).  Returns (json,
    None), or (None, why) when it did not run there: refused (not on the device),
    fell back to the host, failed or timed out."""
    cmd = [os.path.join(build, "bin", "hpls"), "solve", "--gen", spec, *opts, "--backend",
           backend, "--tol", "0", "--maxiter", str(its), "--stag-window", "0", "--json"]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, f"timed out after {timeout:g} s"
    try:
        r = json.loads(p.stdout)
    except ValueError:
        err = p.stderr.strip().splitlines()
        if p.returncode == 2 and err and "version" in err[-1]:
            return None, "not on the device"
        return None, f"failed: exit {p.returncode}" + (f", {err[-1][:160]}" if err else "")
    if r.get("backend") != backend:
        return None, f"failed: ran on {r.get('backend')}"
    return (r, None) if r.get("iterations") else (None, "failed: no iterations")


def measure(build, backend, device, bw, smoke, sizes=None, its=None, row_limit=None,
            row_timeout=None):
    """The model's table measured: per method and matrix, bytes and launches per
    iteration (the model's counts), the time per iteration and the setup
    predicted for this device's bandwidth and measured on it.  sizes and its
    replace the defaults; a row the model predicts over row_limit seconds (its
    iterations and the setup, on this device's bandwidth) is left out, and a run
    past row_timeout seconds is stopped (scripts/gpu_smoke.sh's budget)."""
    n0, its0 = (4000, 3) if smoke else (10**6, 200)  # smoke: PoCL's syncfree spins (docs/gpu.md)
    sizes = sizes or [n0]
    its = its or its0
    if bw is None:
        bw = next((b for word, b in KNOWN_BW if word in device), None)
    def w(line):  # row by row: a run stopped by a time limit keeps the rows done
        print(line, flush=True)

    w(f"# GPU performance model against a measurement: {backend} on {device}")
    w("")
    w(f"Measured: `hpls solve --backend {backend} --tol 0 --maxiter {its}` (so exactly {its} "
      "iterations), solve time / iterations and setup time, at n = "
      f"{', '.join(f'{n:g}' for n in sizes)}.  Predicted: bench/gpu_model.py's bytes and "
      "launches per iteration and setup, "
      f"t = bytes / bandwidth + (launches + read-backs) x {LAUNCH * 1e6:.0f} µs + chain x "
      f"{DEP * 1e6:.1f} µs, with the bandwidth "
      + (f"{bw / 1e12:.3f} TB/s (the datasheet's peak, or HPLS_BENCH_GPU_BW)." if bw else
         "unknown for this device: set HPLS_BENCH_GPU_BW (GB/s) for the predicted columns.")
      + "  Setup: the model builds the level sets on the device; hpls builds them on the "
      "host (the measured setup holds them, and A's upload).")
    if row_limit:
        w("")
        w(f"Left out: a row the model predicts over {row_limit:g} s ({its} iterations and the "
          "setup" + ("" if bw else f", at {ROW_LIMIT_BW / 1e12:.3f} TB/s") + ").")
    if smoke:
        w("")
        w("**A smoke run (HPLS_BENCH_SMOKE=1) of the machinery: small sizes; on a CPU "
          "device (PoCL) these times are not a GPU's and say nothing about one.**")
    w("")
    w("| method | matrix | n | MB / it | launches + read-backs / it | chain / it | predicted / it "
      "| measured / it | measured / predicted | predicted setup | measured setup |")
    w("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n in sizes:
        for kind in ["gas", "poisson3d", "convdiff3d"]:
            m = gen_matrix(kind, n)
            for name, cost, only, opts in MEASURED:
                if only and kind not in only:
                    continue
                c = cost(m)
                pred = fmt_t(c.t(bw)) if bw else "—"
                psetup = fmt_t(c.ts(bw)) if bw and c.sb else "—"
                ratio, msetup = "—", "—"
                lbw = bw or ROW_LIMIT_BW
                if row_limit and its * c.t(lbw) + c.ts(lbw) > row_limit:
                    meas = f"left out: {fmt_t(its * c.t(lbw) + c.ts(lbw))} predicted"
                else:
                    r, why = device_run(build, backend, m["spec"], opts, its, row_timeout)
                    if r is None:
                        meas = why
                    else:
                        t = r["solve_s"] / r["iterations"]
                        meas, msetup = fmt_t(t), fmt_t(r["setup_s"])
                        ratio = f"{t / c.t(bw):.2f}" if bw else "—"
                w(f"| {name} | {m['spec']} | {m['n']} | {mb(c.b)} | {c.lat} | {c.chain} "
                  f"| {pred} | {meas} | {ratio} | {psetup} | {msetup} |")


# ---- docs/gpu_model.md ---------------------------------------------------------------
BEGIN = "<!-- gpu_model:begin: generated by bench/gpu_model.py doc from bench/results/gpu_model.csv; do not edit -->"
END = "<!-- gpu_model:end -->"


def doc(results, path, check):
    """docs/gpu_model.md's section: the run's date, commit, CPU and load, the model's
    constants, then its tables (under docs/gpu_model.md's own '## The table')."""
    section = tables.doc_section(os.path.join(results, "gpu_model.csv"), BEGIN, END)
    tables.doc_update(path, section, BEGIN, END, check, "gpu_model.py")


def main():
    ap = argparse.ArgumentParser(description="the GPU performance model (bench/README.md)")
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("run", help="one run of the table, Markdown on stdout").add_argument("build")
    ms = sub.add_parser("measure", help="the table measured on a GPU (bench/gpu_measured.sh)")
    ms.add_argument("build")
    ms.add_argument("--backend", required=True, choices=["cuda", "opencl"])
    ms.add_argument("--device", required=True, help="the device's name (hpls info --devices)")
    ms.add_argument("--bw", type=float, help="its bandwidth in GB/s (default: the datasheet's)")
    ms.add_argument("--smoke", action="store_true", help="small sizes (HPLS_BENCH_SMOKE=1)")
    ms.add_argument("--sizes", help="comma-separated n (default: 1e6, or 4000 with --smoke)")
    ms.add_argument("--its", type=int, help="iterations a run (default: 200, or 3 with --smoke)")
    ms.add_argument("--row-limit", type=float, help="leave out rows predicted over this many s")
    ms.add_argument("--row-timeout", type=float, help="stop a run after this many s")
    tables.add_doc_command(sub, "gpu_model.md")
    a = ap.parse_args()
    if a.cmd == "run":
        run(a.build)
    elif a.cmd == "measure":
        sizes = [int(float(v)) for v in a.sizes.split(",")] if a.sizes else None
        measure(a.build, a.backend, a.device, a.bw * 1e9 if a.bw else None, a.smoke, sizes,
                a.its, a.row_limit, a.row_timeout)
    else:
        doc(a.results, a.doc, a.check)


if __name__ == "__main__":
    main()
