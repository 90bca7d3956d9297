#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""mpi_model.py: a weak-scaling model of hpls under MPI, to 1024 ranks.

    mpi_model.py run BUILD_DIR
        prints the Markdown of bench/results/mpi_model.md (bench/mpi_model.sh): for
        every method, the time per iteration of one rank at a fixed size per rank
        (measured here), the counts of the same solve on 2 and 4 ranks from the
        JSON of `hpls solve` (reductions per iteration and their bytes, halo
        exchanges, neighbours and bytes), this machine's MPI ping-pong and
        allreduce times (bench/peers/mpi_pingpong.c), the model checked against
        the measured time on 2 ranks here, and the time per iteration it predicts
        on p = 1 .. 1024 ranks over InfiniBand HDR.
    mpi_model.py doc [--results DIR] [--doc FILE] (--write | --check)
        the generated section of docs/mpi_model.md: DIR/mpi_model.csv rendered as
        bench/tables.py renders it, or a line saying it is not measured yet when
        DIR has no mpi_model.csv (the ctest docs_mpi_model checks the doc is that).
    mpi_model.py plot [--results DIR] [--out PNG]
        the predicted ms per iteration against the ranks (the medians of
        DIR/mpi_model.csv), into DIR/mpi_model.png by default (matplotlib).

The model (docs/mpi_model.md says why and where it stops holding): weak scaling,
the same rows on every rank, each rank's local work its 1-rank time t_local, and

    t(p) = t_local + R ceil(log2 p) (alpha + beta m) + E (nb(p) alpha + beta B(p))

R reductions per iteration of m bytes each (a recursive-doubling allreduce:
ceil(log2 p) rounds of one message), E halo exchanges per iteration, in each a
rank sends B(p) bytes in nb(p) messages.  Python 3 standard library (matplotlib
for plot only).
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree (the ctest runs this)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tables  # noqa: E402  (bench/tables.py: the CSV -> Markdown rendering)

# ---- the interconnect ---------------------------------------------------------
# NVIDIA ConnectX-6 adapter cards user manual, "Introduction"
# (docs.nvidia.com/networking/display/ConnectX6EN/Introduction): "up to two ports
# of 200Gb/s for InfiniBand and Ethernet connectivity, sub-600ns latency"; also
# Lenovo Press LP1195 (ConnectX-6 HDR VPI adapters).  200 Gb/s is 25 GB/s per
# direction.  The adapter's latency leaves out the MPI library and the switch
# hops, so alpha is a lower bound and so are the predicted times.
NET = "InfiniBand HDR (NVIDIA ConnectX-6: 200 Gb/s, sub-600 ns latency)"
ALPHA = 0.6e-6  # s per message
BETA = 1 / 25e9  # s per byte
FLAG = 8  # bytes: the failure flag every hpls reduction carries
RANKS = [2**k for k in range(11)]  # 1 .. 1024

# (name, matrix family, the method's options): the families grow with the
# ranks (weak scaling): poisson3d a slab of 100 x 100 x 100 points per rank
# (two neighbours), gas and tridiag 1e6 rows per rank (gas's random couplings
# reach every rank).
METHODS = [
    ("CG", "poisson3d", ["--solver", "cg"]),
    ("BiCGSTAB", "poisson3d", ["--solver", "bicgstab"]),
    ("BiCGSTAB reproducible=1", "poisson3d", ["--solver", "bicgstab", "--reproducible", "1"]),
    ("GMRES(30)", "poisson3d", ["--solver", "gmres"]),
    ("GMRES(30) reproducible=1", "poisson3d", ["--solver", "gmres", "--reproducible", "1"]),
    ("Jacobi", "poisson3d", ["--solver", "jacobi"]),
    ("GS", "poisson3d", ["--solver", "gs"]),
    ("SOR omega=1.5", "poisson3d", ["--solver", "sor", "--omega", "1.5"]),
    ("BiCGSTAB + DILU", "poisson3d", ["--solver", "bicgstab", "--precond", "dilu"]),
    ("BiCGSTAB + ILU(0)", "poisson3d", ["--solver", "bicgstab", "--precond", "ilu0"]),
    ("PJG", "poisson3d", ["--solver", "pjg"]),
    ("HISA", "gas", ["--solver", "hisa"]),
    ("BHISA", "gas", ["--solver", "bhisa"]),
    ("g-Spike", "tridiag", ["--solver", "gspike"]),
]


def smoke():
    return os.environ.get("HPLS_BENCH_SMOKE") == "1"


def spec(family, p):
    side = 20 if smoke() else 100
    rows = 20000 if smoke() else 10**6
    if family == "poisson3d":
        return f"poisson3d:nx={side},ny={side},nz={side * p}"
    if family == "gas":
        return f"gas:n={rows * p},k=2"
    return f"tridiag:n={rows * p}"


# ---- measuring ------------------------------------------------------------------
def mpiexec(np, cmd):
    """cmd on np ranks, one thread each, unbound (bench/mpi.sh says why)."""
    env = {k: v for k, v in os.environ.items() if k not in ("OMP_PROC_BIND", "OMP_PLACES")}
    env["OMP_NUM_THREADS"] = "1"
    return subprocess.run(["mpiexec", "--allow-run-as-root", "--oversubscribe", "--bind-to", "none",
                           "-n", str(np)] + cmd, capture_output=True, text=True, env=env)


def solve(build, np, family, args, iterations):
    """The JSON of `hpls solve` on np ranks (a fixed count of iterations: tol 0),
    or None when the method is refused there (not distributed in this build)."""
    cmd = [os.path.join(build, "bin", "hpls"), "solve", "--gen", spec(family, np), *args,
           "--threads", "1", "--tol", "0", "--maxiter", str(iterations), "--stag-window", "0",
           "--json"]
    p = mpiexec(np, cmd)
    if p.returncode == 2 and np > 1:
        return None
    if p.returncode not in (0, 1):
        raise SystemExit(f"mpi_model.py: {' '.join(cmd)} on {np} ranks: exit {p.returncode}: "
                         f"{p.stderr.strip()}")
    return json.loads(p.stdout.strip().splitlines()[-1])


def ms_per_it(r):
    return 1e3 * r["solve_s"] / max(r["iterations"], 1)


def pingpong(build):
    """{(kind, ranks, bytes): microseconds} from bench/peers/mpi_pingpong.c on 2 and 4 ranks."""
    out = {}
    for np in (2, 4):
        p = mpiexec(np, [os.path.join(build, "bench", "mpi_pingpong")])
        if p.returncode != 0:
            raise SystemExit(f"mpi_model.py: mpi_pingpong on {np} ranks: {p.stderr.strip()}")
        for line in p.stdout.splitlines():
            f = dict(w.split("=") for w in line.split()[1:])
            out[(line.split()[0], int(f.get("ranks", 2)), int(f["bytes"]))] = float(f["us"])
    return out


def fit(points):
    """alpha (s), beta (s/byte) from (bytes, us) ping-pong points, Hockney's way:
    alpha the smallest message's time, beta the slope up to the largest (a
    least-squares line would let the large messages pull alpha below zero)."""
    (b0, t0), (b1, t1) = min(points), max(points)
    return t0 * 1e-6, max(t1 - t0, 0.0) / (b1 - b0) * 1e-6


# ---- the model ------------------------------------------------------------------
def neighbours(c, p):
    """Messages per exchange at p ranks: every other rank when every other rank was
    a neighbour at 4 (gas's random couplings), else 4 ranks' count (a stencil)."""
    return p - 1 if c["nb"] >= 3 else min(p - 1, c["nb"])


def predict(c, p, alpha, beta):
    """ms per iteration on p ranks (c: a method's measured inputs)."""
    if p == 1:
        return c["t1"]
    nb = neighbours(c, p)
    sent = c["B"] if c["nb"] >= 3 else c["B"] * nb / max(c["nb"], 1)  # bytes per exchange
    red = c["R"] * math.ceil(math.log2(p)) * (alpha + beta * c["m"])
    halo = c["E"] * (nb * alpha + beta * sent)
    return c["t1"] + 1e3 * (red + halo)


def counts(r1, r):
    """The model's inputs: r1 the 1-rank run, r the run on 4 ranks (or None)."""
    its = max((r or r1)["iterations"], 1)
    src = r or r1
    reds = max(src["reductions"], 1)
    return {"t1": ms_per_it(r1), "R": src["reductions"] / its,
            "m": src["reduction_bytes"] / reds + FLAG,
            "E": (src["halo_exchanges"] / its) if r else 0.0,
            "nb": src["halo_neighbours_max"] if r else 0,
            "B": src["halo_exchange_bytes_max"] if r else 0}


def run(build):
    its = 10 if smoke() else 50
    cost = pingpong(build)
    alpha_h, beta_h = fit([(b, t) for (k, _, b), t in cost.items() if k == "pingpong"])
    rows = []
    for name, family, args in METHODS:
        r1 = solve(build, 1, family, args, its)
        r2 = solve(build, 2, family, args, its)
        r4 = solve(build, 4, family, args, max(its // 5, 2))  # counts only: 4 ranks share 2 cores
        rows.append((name, family, r1, r2, r4, counts(r1, r4)))
    w = print
    w("# Weak-scaling model of hpls under MPI, to 1024 ranks")
    w("")
    w(f"Weak scaling: every rank holds the same rows ({spec('poisson3d', 1).split(':')[1]} per rank "
      f"for poisson3d, nz growing with the ranks; {spec('gas', 1).split(':')[1]} per rank for gas "
      f"and tridiag), one thread per rank, b = A 1, {its} iterations (tol 0).  Model: t(p) = "
      "t_local + R ceil(log2 p) (alpha + beta m) + E (nb(p) alpha + beta B(p)); t_local the "
      "1-rank time per iteration here, R reductions per iteration of m bytes (the flag included), "
      "E halo exchanges per iteration, a rank sending B bytes in nb messages each (counted by hpls "
      "on 4 ranks, the JSON's reduction_bytes, halo_exchanges, halo_neighbours_max and "
      "halo_exchange_bytes_max; nb(p) = p - 1 where all 3 other ranks were neighbours at 4, else "
      f"at most 4 ranks' count, B per neighbour constant).  Interconnect: {NET}, alpha = "
      f"{ALPHA * 1e6:.1f} µs, beta = 1 / {1 / BETA / 1e9:.0f} GB/s (docs/mpi_model.md: the "
      "source, and what the model leaves out: the halo's overlap with the local product, the "
      "memory bandwidth ranks on one node share, the MPI library's software latency, switch "
      "hops).  This machine's shared-memory MPI (bench/peers/mpi_pingpong.c; alpha the 8-byte "
      "ping-pong, beta its slope to 1 MiB): alpha = "
      f"{alpha_h * 1e6:.2f} µs, beta = 1 / {1 / beta_h / 1e9 if beta_h > 0 else float('inf'):.2f} "
      "GB/s.")
    w("")
    w("## Measured here")
    w("")
    w("| method | matrix (1 rank) | 1 rank ms/it | reductions / it | bytes / reduction | "
      "halo exchanges / it | neighbours (4 ranks) | bytes / exchange (4 ranks) | 2 ranks ms/it "
      "| model, this machine's MPI | measured / model |")
    w("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, family, r1, r2, r4, c in rows:
        if r2 is None or r4 is None:
            w(f"| {name} | {spec(family, 1)} | {c['t1']:.3f} | {c['R']:.2f} | {c['m']:.0f} | — | — "
              "| — | not distributed in this build | — | — |")
            continue
        c2 = dict(counts(r1, r2), t1=c["t1"])  # the 2-rank run's own counts
        model2 = predict(c2, 2, alpha_h, beta_h)
        t2 = ms_per_it(r2)
        w(f"| {name} | {spec(family, 1)} | {c['t1']:.3f} | {c['R']:.2f} | {c['m']:.0f} | "
          f"{c['E']:.2f} | {c['nb']} | {c['B']} | {t2:.3f} | {model2:.3f} | {t2 / model2:.2f} |")
    w("")
    w("## MPI costs here (shared memory, 2 cores)")
    w("")
    w("| operation | ranks | bytes | µs measured | µs model (ceil(log2 p) (alpha + beta m), this "
      "machine's fit) |")
    w("|---|---:|---:|---:|---:|")
    for (kind, np, b), t in sorted(cost.items()):
        steps = 1 if kind == "pingpong" else math.ceil(math.log2(np))
        w(f"| {kind} | {np} | {b} | {t:.2f} | {1e6 * steps * (alpha_h + beta_h * b):.2f} |")
    w("")
    w("## Predicted ms per iteration, InfiniBand HDR")
    w("")
    w("| method | " + " | ".join(f"{p} ranks" if p > 1 else "1 rank" for p in RANKS)
      + " | efficiency at 1024 | communication at 1024 |")
    w("|---|" + "---:|" * (len(RANKS) + 2))
    for name, _, _, r2, r4, c in rows:
        if r2 is None or r4 is None:
            w(f"| {name} | {c['t1']:.3f} | " + " | ".join("—" for _ in RANKS[1:]) + " | — | — |")
            continue
        t = [predict(c, p, ALPHA, BETA) for p in RANKS]
        w(f"| {name} | " + " | ".join(f"{v:.3f}" for v in t)
          + f" | {t[0] / t[-1]:.2f} | {(t[-1] - t[0]) / t[-1]:.2f} |")


# ---- docs/mpi_model.md ----------------------------------------------------------------
BEGIN = "<!-- mpi_model:begin: generated by bench/mpi_model.py doc from bench/results/mpi_model.csv; do not edit -->"
END = "<!-- mpi_model:end -->"
NOT_YET = ("Not measured yet: `bench/run_all.sh build mpi_model` (on a quiet machine) publishes "
           "bench/results/mpi_model.csv, then this section and bench/results/mpi_model.png are made "
           "from it.")


def rendered(results):
    """results/mpi_model.csv rendered by bench/tables.py: its lines."""
    with tempfile.TemporaryDirectory() as tmp:
        md = os.path.join(tmp, "mpi_model.md")
        tables.render(os.path.join(results, "mpi_model.csv"), md)
        with open(md, encoding="utf-8") as f:
            return f.read().split("\n")


def doc(results, path, check):
    """docs/mpi_model.md's section: the run's date, commit, CPU and load, its prose,
    then its tables (a line saying it is not measured while there is no CSV)."""
    section = tables.doc_section(os.path.join(results, "mpi_model.csv"), BEGIN, END, NOT_YET)
    tables.doc_update(path, section, BEGIN, END, check, "mpi_model.py")


def plot(results, out):
    """ms per iteration against the ranks: the medians of the prediction table."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise SystemExit("mpi_model.py: plot needs matplotlib (scripts/deps.sh --bench)")
    lines = rendered(results)
    start = next(k for k, line in enumerate(lines) if line.startswith("## Predicted"))
    fig, ax = plt.subplots(figsize=(8, 5))
    for line in lines[start:]:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not line.startswith("|") or cells[0] in ("method", "") or cells[0].startswith("-"):
            continue
        vals = [re.match(r"[-+0-9.eE]+", c) for c in cells[1:1 + len(RANKS)]]
        if all(vals):
            ax.plot(RANKS, [float(v.group(0)) for v in vals], marker="o", label=cells[0])
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("ranks (weak scaling: the same rows on each)")
    ax.set_ylabel("ms per iteration (predicted)")
    ax.set_title(f"hpls, {NET.split(' (')[0]}: alpha {ALPHA * 1e6:.1f} µs, 25 GB/s (lower bounds)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    print(f"wrote {out}")


def main():
    ap = argparse.ArgumentParser(description="the weak-scaling MPI model (bench/README.md)")
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("run", help="one run of the table, Markdown on stdout").add_argument("build")
    tables.add_doc_command(sub, "mpi_model.md")
    pl = sub.add_parser("plot", help="the predicted time per iteration against the ranks (PNG)")
    pl.add_argument("--results", default="bench/results")
    pl.add_argument("--out")
    a = ap.parse_args()
    if a.cmd == "run":
        run(a.build)
    elif a.cmd == "doc":
        doc(a.results, a.doc, a.check)
    else:
        plot(a.results, a.out or os.path.join(a.results, "mpi_model.png"))


if __name__ == "__main__":
    main()
