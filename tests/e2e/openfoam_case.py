# SPDX-License-Identifier: BSD-3-Clause
"""openfoam_case.py: the case handling of tests/e2e/openfoam.sh.

  setup CASE MODE ENDTIME [LIB]   system/ of a copied tutorial: MODE foam (DIC-PCG for p,
                                  DILU-PBiCGStab for the rest: OpenFOAM's own) or hpls
                                  (cg + dic, bicgstab + dilu, dilu_order faces, LIB
                                  loaded); endTime and one write at the end
  compare A B FIELD TOL           max |a - b| / max |b| over FIELD's internal values at
                                  the last time of cases A and B; exit 1 above TOL
  iterations LOG                  per field: solves and linear-solver iterations
  solves LOG                      each solve in order: field and iterations
  decompose CASE NP               system/decomposeParDict: NP ranks, simple, cut along x
                                  (Debian's decomposePar has no scotch: its stub refuses)
  cyclic CASE                     the cavity's frontAndBack (empty) made a cyclic pair,
                                  front and back, coupling each cell with itself across z
"""
import os
import re
import sys

HPLS = {"p": "solver cg; precond dic; dilu_order faces;",
        "other": "solver bicgstab; precond dilu; dilu_order faces;"}
FOAM = {"p": "solver PCG; preconditioner DIC;",
        "other": "solver PBiCGStab; preconditioner DILU;"}


def solvers_block(mode, text):
    """The tutorial's solvers dictionary, each field's solver replaced (tolerances kept)."""
    def field(m):
        name, body = m.group(1), m.group(2)
        if "$" in body:  # pFinal { $p; relTol 0; }: inherits
            return m.group(0)
        kind = "p" if name.strip('"').startswith("p") else "other"
        tol = re.search(r"tolerance\s+([^;]+);", body).group(1)
        rel = re.search(r"relTol\s+([^;]+);", body).group(1)
        how = ("solver hpls; hpls { %s }" % HPLS[kind] if mode == "hpls" else FOAM[kind])
        return "    %s\n    {\n        %s\n        tolerance %s;\n        relTol %s;\n    }\n" % (
            name, how, tol, rel)
    return re.sub(r"    (\S+)\n    \{\n(.*?)\n    \}\n", field, text, flags=re.S)


def setup(case, mode, end_time, lib=None):
    path = os.path.join(case, "system", "fvSolution")
    text = open(path).read()
    start = text.index("solvers")
    stop = re.search(r"\n\}\n", text[start:]).end() + start
    text = text[:start] + solvers_block(mode, text[start:stop]) + text[stop:]
    open(path, "w").write(text)
    path = os.path.join(case, "system", "controlDict")
    text = open(path).read()
    text = re.sub(r"\nendTime\s+[^;]+;", "\nendTime         %s;" % end_time, text)
    text = re.sub(r"\nwriteControl\s+[^;]+;", "\nwriteControl    runTime;", text)
    text = re.sub(r"\nwriteInterval\s+[^;]+;", "\nwriteInterval   %s;" % end_time, text)
    text = re.sub(r"\nfunctions\s*\{.*?\n\}", "", text, flags=re.S)  # streamlines: not ours
    if lib:  # its debug switch logs each pattern built and each solver set up
        text += '\nlibs ("%s");\nDebugSwitches { hpls 1; }\n' % lib
    open(path, "w").write(text)


def decompose(case, nprocs):
    open(os.path.join(case, "system", "decomposeParDict"), "w").write(
        "FoamFile { version 2.0; format ascii; class dictionary; object decomposeParDict; }\n"
        "numberOfSubdomains %d;\nmethod simple;\ncoeffs { n (%d 1 1); }\n" % (
            int(nprocs), int(nprocs)))


def cyclic(case):
    path = os.path.join(case, "system", "blockMeshDict")
    text = open(path).read()
    pair = ("    front { type cyclic; neighbourPatch back; faces ((4 5 6 7)); }\n"
            "    back { type cyclic; neighbourPatch front; faces ((0 3 2 1)); }\n")
    text, n = re.subn(r"    frontAndBack\n    \{.*?\n    \}\n", pair, text, flags=re.S)
    if n != 1:
        sys.exit("%s: no frontAndBack patch" % path)
    open(path, "w").write(text)
    for field in ("U", "p"):
        path = os.path.join(case, "0", field)
        text = open(path).read()
        text = re.sub(r"frontAndBack\s*\{[^}]*\}", '"(front|back)" { type cyclic; }', text)
        open(path, "w").write(text)


def last_time(case):
    times = [d for d in os.listdir(case) if re.fullmatch(r"[0-9.e+-]+", d) and d != "0"]
    return max(times, key=float)


def internal_values(path):
    text = open(path).read()
    m = re.search(r"internalField\s+nonuniform\s+List<(\w+)>\s*(\d+)\s*\(", text)
    n, body = int(m.group(2)), text[m.end():]
    body = body[:body.index("\n)")]
    if m.group(1) == "scalar":
        values = [float(v) for v in body.split()]
    else:
        values = [float(v) for t in re.findall(r"\(([^()]*)\)", body) for v in t.split()]
    if len(values) < n:
        sys.exit("%s: %d values, expected at least %d" % (path, len(values), n))
    return values


def compare(a, b, field, tol):
    ta, tb = last_time(a), last_time(b)
    if ta != tb:
        print("%s: last times differ, %s and %s" % (field, ta, tb))
        return 1
    x = internal_values(os.path.join(a, ta, field))
    y = internal_values(os.path.join(b, tb, field))
    scale = max(abs(v) for v in y) or 1.0
    diff = max(abs(u - v) for u, v in zip(x, y)) / scale
    print("  %-8s time %s: max |hpls - openfoam| / max |openfoam| = %.2e (tolerance %g)" % (
        field, ta, diff, tol))
    return 0 if diff <= tol else 1


def iterations(log):
    solves, its = {}, {}
    for m in re.finditer(r"Solving for (\w+), .*No Iterations (\d+)", open(log).read()):
        solves[m.group(1)] = solves.get(m.group(1), 0) + 1
        its[m.group(1)] = its.get(m.group(1), 0) + int(m.group(2))
    for f in sorted(its):
        print("%s %d %d" % (f, solves[f], its[f]))


def solves(log):
    for m in re.finditer(r"Solving for (\w+), .*No Iterations (\d+)", open(log).read()):
        print(m.group(1), m.group(2))


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "setup":
        setup(*sys.argv[2:6])
    elif cmd == "compare":
        sys.exit(compare(sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5])))
    elif cmd == "iterations":
        iterations(sys.argv[2])
    elif cmd == "solves":
        solves(sys.argv[2])
    elif cmd == "decompose":
        decompose(sys.argv[2], sys.argv[3])
    elif cmd == "cyclic":
        cyclic(sys.argv[2])
    else:
        sys.exit(__doc__)
