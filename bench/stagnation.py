#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""stagnation.py: the Markdown of stagnation.md from the runs bench/stagnation.sh made.

    stagnation.py RUNDIR MAXITER

RUNDIR holds, for every configuration KEY (matrix.solver.precond):
  KEY.off.json, KEY.off.csv  the solve with the stagnation test off (stag_window=0)
                             and its residual history: what the solve really does
  KEY.on.json                the same solve with the default rule
  KEY.rc                     nonzero when the setup failed (the configuration is skipped)
The rule before this change ("no new smallest residual in 500 iterations") is
replayed on the histories: it looked at nothing else, so the replay stops where
that code stopped.  Python 3 standard library only.
"""
import csv
import glob
import json
import math
import os
import re
import sys

OLD_WINDOW = 500


def load(path):
    """The solve's JSON object, or None (no output: the setup refused the matrix)."""
    with open(path, encoding="utf-8") as f:
        text = f.read().strip()
    # C's printf writes a NaN or infinite residual as nan / inf, which JSON lacks
    text = re.sub(r"(?<=:)-?(nan|inf)\b", "null", text)
    return json.loads(text) if text.startswith("{") else None


def old_rule_stop(its, res):
    """The iteration where 'no new minimum in OLD_WINDOW iterations' stopped, or None."""
    best, best_it = math.inf, 0
    for it, r in zip(its, res):
        if r < best:
            best, best_it = r, it
        if it - best_it >= OLD_WINDOW:
            return it
    return None


def main(rundir, maxiter):
    runs, skipped = [], 0
    for off in sorted(glob.glob(os.path.join(rundir, "*.off.json"))):
        key = os.path.basename(off)[: -len(".off.json")]
        truth, after = load(off), load(os.path.join(rundir, key + ".on.json"))
        hist = os.path.join(rundir, key + ".off.csv")
        if truth is None or after is None or not os.path.exists(hist):
            skipped += 1
            continue
        with open(hist, encoding="utf-8") as f:
            rows = list(csv.reader(f))[1:]
        its, res = [int(r[0]) for r in rows], [float(r[1]) for r in rows]
        runs.append((key, truth, after, its, res))

    def count(sel):
        return sum(1 for _ in sel)

    conv = [r for r in runs if r[1]["converged"]]
    unconv = [r for r in runs if r[1]["status"].startswith("not converged (maximum")]
    # a plateau: at maxiter, and the smallest residual of the second half is within
    # 1% of the smallest of the first half; else a slow (still improving) run
    plateau = [r for r in unconv if min(r[4][: len(r[4]) // 2 + 1]) / min(r[4]) < 1.01]
    slow = [r for r in unconv if r not in plateau]
    other = len(runs) - len(conv) - len(unconv)

    def before_stop(r):
        return old_rule_stop(r[3], r[4])

    def after_stop(r):
        return None if r[2]["converged"] or r[2]["iterations"] >= maxiter else r[2]["iterations"]

    rows = []
    for name, stop in (("before: no new smallest residual in 500 iterations (replayed on the "
                        "histories)", before_stop),
                       ("after: the residual stayed within 0.01% of one value for "
                        "1000 iterations (run)", after_stop)):
        false = [r for r in conv if (stop(r) is not None and stop(r) < r[1]["iterations"])]
        caught = [r for r in plateau if stop(r) is not None]
        slowstop = [r for r in slow if stop(r) is not None]
        saved = sum(maxiter - stop(r) for r in unconv if stop(r) is not None)
        rows.append((name, len(false), len(caught), len(slowstop), saved))

    print("# Stagnation: converging solves stopped, plateaus caught")
    print()
    print(f"Every solver x preconditioner (Krylov methods x none, jacobi, ilu0; the stationary "
          f"methods alone) x every matrix of ../shared/data/matrices, solved by `hpls solve A "
          f"--threads 1 --tol 1e-8 --maxiter {maxiter}` (b = A 1, x0 = 0) once with "
          f"`--stag-window 0` (what the solve really does, with its residual history) and once "
          f"with the default stagnation test.  {len(runs)} solves ran; {skipped} configurations "
          f"whose setup failed (zero diagonal, not SPD ...) are skipped.  Of the solves, "
          f"{len(conv)} converge within maxiter, {len(unconv)} reach maxiter ({len(plateau)} "
          f"plateaus: the smallest residual of the second half within 1% of the first half's; "
          f"{len(slow)} slow: still improving), {other} stop otherwise (growth, breakdown, "
          f"indefinite).  Counts, deterministic at 1 thread: one repetition "
          f"(HPLS_BENCH_REPS=1) tells all.")
    print()
    print("| rule | converging solves stopped (false stops) | plateaus caught | slow runs "
          "stopped | iterations saved on runs that reach maxiter |")
    print("|---|---:|---:|---:|---:|")
    for name, f, c, s, sv in rows:
        print(f"| {name} | {f} of {len(conv)} | {c} of {len(plateau)} | {s} of {len(slow)} | {sv} |")
    print()
    print("## The converging solves the rule before stopped")
    print()
    print("| matrix | solver | precond | stopped at (before) | converges at | after |")
    print("|---|---|---|---:|---:|---|")
    for r in conv:
        s = before_stop(r)
        if s is not None and s < r[1]["iterations"]:
            m, sol, pc = r[0].rsplit(".", 2)
            print(f"| {m} | {sol} | {pc} | {s} | {r[1]['iterations']} | {r[2]['status']} at "
                  f"{r[2]['iterations']} |")
    print()
    print("## The margin: longest stretch of a converging solve within 0.01% of one value")
    print()
    print("| matrix | solver | precond | iterations in the band | ending at | converges at |")
    print("|---|---|---|---:|---:|---:|")
    spans = []
    for r in conv:
        band, band_it, longest = None, 0, (0, 0)
        for it, x in zip(r[3], r[4]):
            if band is None or not (x <= band * 1.0001 and x * 1.0001 >= band):
                band, band_it = x, it
            longest = max(longest, (it - band_it, it))
        spans.append((longest, r))
    spans.sort(key=lambda t: t[0], reverse=True)
    for (span, end), r in spans[:5]:
        m, sol, pc = r[0].rsplit(".", 2)
        print(f"| {m} | {sol} | {pc} | {span} | {end} | {r[1]['iterations']} |")
    t2 = os.path.join(rundir, "threads2")
    if os.path.isdir(t2):
        print()
        print("## At 2 threads: the case of issue 15")
        print()
        print("Rounding differs from 1 thread, and so do the plateaus: memplus with "
              "bicgstab + jacobi, stopped at 850 by the rule before in the issue.")
        print()
        print("| matrix | solver | precond | converges at (test off) | before: stopped at | "
              "after |")
        print("|---|---|---|---:|---:|---|")
        for off in sorted(glob.glob(os.path.join(t2, "*.off.json"))):
            key = os.path.basename(off)[: -len(".off.json")]
            truth, after = load(off), load(os.path.join(t2, key + ".on.json"))
            with open(os.path.join(t2, key + ".off.csv"), encoding="utf-8") as f:
                rows = list(csv.reader(f))[1:]
            s = old_rule_stop([int(r[0]) for r in rows], [float(r[1]) for r in rows])
            m, sol, pc = key.rsplit(".", 2)
            print(f"| {m} | {sol} | {pc} | {truth['iterations'] if truth['converged'] else '-'} | "
                  f"{s if s is not None else '-'} | {after['status']} at {after['iterations']} |")
    print()
    print("The rule before stopped converging solves whose residual rose and fell for hundreds "
          "of iterations (CG, BiCG, CGS, TFQMR, BiCGSTAB without a good preconditioner) before "
          "going down; a stalled solve instead leaves a flat residual (restarted GMRES, QMR at "
          "its limit, a stationary method at its fixed point).  The band test waits for 1000 "
          "flat iterations, about 2.5 times the longest flat stretch of a converging solve "
          "above (with a band of 0.1% instead, watt_2 + bicgstab stays flat for 1446 "
          "iterations and converges at 4413).  Plateaus it misses oscillate (TFQMR's "
          "half-steps, BiCG) or drift by more than 0.01% in 1000 iterations: they run to "
          "maxiter, as every solve did with the test off.")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: stagnation.py RUNDIR MAXITER")
    main(sys.argv[1], int(sys.argv[2]))
