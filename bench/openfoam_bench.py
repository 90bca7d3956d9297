# SPDX-License-Identifier: BSD-3-Clause
"""openfoam_bench.py: the case handling of bench/openfoam.sh (on top of
tests/e2e/openfoam_case.py, whose setup and iteration count it reuses).

  prepare CASE MODE STEPS REFINE [LIB]   MODE foam (DIC-PCG for p, DILU-PBiCGStab
                                         for the rest), hpls (cg + dic, bicgstab + dilu,
                                         LIB loaded) or gamg (foam with GAMG for p, the
                                         tutorial's own p solver); STEPS steps; every
                                         block's cell counts times REFINE in x and y;
                                         OpenFOAM's profiling switched on
  decompose CASE RANKS                   system/decomposeParDict: RANKS slabs in x
  profile CASE                           per field, the seconds in its linear solver
                                         (profiling's lduMatrix::solver.FIELD; on ranks
                                         the slowest rank's) and `main` for the whole run
"""
import glob
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "e2e"))
import openfoam_case  # noqa: E402

GAMG = "solver GAMG; smoother GaussSeidel;"


def prepare(case, mode, steps, refine, lib=None):
    openfoam_case.setup(case, "foam" if mode == "gamg" else mode, steps, lib)
    if mode == "gamg":  # p alone: the tutorial's GAMG, the other fields as foam
        path = os.path.join(case, "system", "fvSolution")
        text = open(path).read()
        text = re.sub(r"(\n    p\n    \{\n\s*)solver PCG; preconditioner DIC;", r"\1" + GAMG, text)
        if GAMG not in text:
            sys.exit("%s: no p { solver PCG; ... } to replace by GAMG" % path)
        open(path, "w").write(text)
    with open(os.path.join(case, "system", "controlDict"), "a") as f:
        f.write("\nprofiling { active true; cpuInfo false; memInfo false; sysInfo false; }\n")
    r = int(refine)
    if r > 1:
        path = os.path.join(case, "system", "blockMeshDict")
        text = open(path).read()
        count = r"(hex \([0-9 ]+\)\s*\()(\d+) (\d+) (\d+)\)"
        text, n = re.subn(count, lambda m: "%s%d %d %s)" % (
            m.group(1), r * int(m.group(2)), r * int(m.group(3)), m.group(4)), text)
        if n == 0:
            sys.exit("%s: no hex block's cell counts to refine" % path)
        open(path, "w").write(text)


def decompose(case, ranks):
    with open(os.path.join(case, "system", "decomposeParDict"), "w") as f:
        f.write("FoamFile { version 2.0; format ascii; class dictionary; "
                "object decomposeParDict; }\n"
                "numberOfSubdomains %d;\nmethod simple;\n"
                "coeffs { n (%d 1 1); delta 0.001; }\n" % (int(ranks), int(ranks)))


def profile(case):
    """seconds per field (the slowest rank's), and main's"""
    files = glob.glob(os.path.join(case, "processor*")) or [case]
    worst = {}
    for where in files:
        times = [d for d in os.listdir(where) if re.fullmatch(r"[0-9.e+-]+", d) and d != "0"]
        path = os.path.join(where, max(times, key=float), "uniform", "profiling")
        text = open(path).read()
        for m in re.finditer(r'description\s+"([^"]+)";\s*calls\s+\d+;\s*totalTime\s+([0-9.e+-]+);',
                             text):
            what, secs = m.group(1), float(m.group(2))
            key = ("main" if what == "application::main" else
                   what.split(".", 1)[1] if what.startswith("lduMatrix::solver.") else None)
            if key:
                worst[key] = max(worst.get(key, 0.0), secs)
    for key in sorted(worst):
        print("%s %.6f" % (key, worst[key]))


if __name__ == "__main__":
    cmd = sys.argv[1] if len(sys.argv) > 1 else ""
    if cmd == "prepare" and len(sys.argv) in (6, 7):
        prepare(*sys.argv[2:])
    elif cmd == "decompose" and len(sys.argv) == 4:
        decompose(sys.argv[2], sys.argv[3])
    elif cmd == "profile" and len(sys.argv) == 3:
        profile(sys.argv[2])
    else:
        sys.exit(__doc__)
