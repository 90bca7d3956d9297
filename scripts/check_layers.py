#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""check_layers.py [SRC]: the layers of DESIGN.md ("data flows down, never up")
and the size of a file, checked on every file under SRC (default: src/).

  layers  a file may include a header of its own layer or of a lower one:
          core < la (io, gen) < direct < backend (kernels) < precond
          < methods (iter) < solver < mpi; include/'s public headers from anywhere.
          No exception (issue 30 removed the last ones).
  size    a file over MAX_LINES lines fails, over WARN_LINES is a warning; a
          function over MAX_FUNC lines (from its "{" to its "}", both at the
          start of a line, as clang-format and OpenFOAM's style put them) fails,
          in src/ and in tools/ and integrations/ beside it (issue 30).

Exit 1 naming file:line and the rule broken, else 0."""
import os
import re
import sys

MAX_LINES, WARN_LINES, MAX_FUNC = 800, 750, 120
SOURCE = (".c", ".C", ".cpp")
ORDER = ["core", "la", "direct", "backend", "precond", "methods", "solver", "mpi"]

# The layer of each directory of src/, and of the driver's files that still sit
# at src/'s top (solver.h: the driver's header; methods see iter/method.h,
# preconditioners precond/pc.h).
LAYER_OF = {
    "core": "core",
    "la": "la",
    "io": "la",
    "gen": "la",
    "direct": "direct",
    "backend": "backend",
    "kernels": "backend",  # the backends' implementations (DESIGN.md: src/backend/cpu, ...)
    "precond": "precond",
    "iter": "methods",
    "solver": "solver",
    "mpi": "mpi",
    "solver.h": "solver",
    "registry.c": "solver",
    "options.c": "solver",
    "options.h": "solver",
    "operator.c": "solver",
    "advice.c": "solver",
    "advice.h": "solver",
}

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
PUBLIC = "include/"


def layer(rel):
    """The layer of a path relative to src/, or None when LAYER_OF has none."""
    return LAYER_OF.get(rel.split("/")[0])


def resolve(src, rel_dir, name):
    """Where the compiler finds "name" from a file in rel_dir: the including
    file's directory, then src/ (relative to src/), then include/ (PUBLIC + name)."""
    for cand in (os.path.join(rel_dir, name), name):
        if os.path.isfile(os.path.join(src, cand)):
            return os.path.normpath(cand)
    if os.path.isfile(os.path.join(os.path.dirname(src), PUBLIC, name)):
        return PUBLIC + name
    return None


def check_functions(lines, shown, errors):
    start = None
    for no, line in enumerate(lines, 1):
        if line == "{":
            start = no
        elif line == "}" and start is not None:
            if no - start + 1 > MAX_FUNC:
                errors.append(f"{shown}:{start}: a function of {no - start + 1} lines, over "
                              f"{MAX_FUNC} (split it)")
            start = None


def read_lines(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def check_file(src, rel, shown, errors, warnings):
    lines = read_lines(os.path.join(src, rel))
    if rel.endswith(SOURCE):
        check_functions(lines, shown, errors)
    if len(lines) > MAX_LINES:
        errors.append(f"{shown}: {len(lines)} lines, over {MAX_LINES} (split it)")
    elif len(lines) > WARN_LINES:
        warnings.append(f"{shown}: {len(lines)} lines, over {WARN_LINES}")
    mine = layer(rel)
    if mine is None:
        errors.append(f"{shown}: in no layer (add its directory to LAYER_OF)")
        return
    for no, line in enumerate(lines, 1):
        m = INCLUDE.match(line)
        if not m:
            continue
        header = resolve(src, os.path.dirname(rel), m.group(1))
        if header is None:
            errors.append(f'{shown}:{no}: "{m.group(1)}" is not a header of src/ or include/')
        elif header.startswith(PUBLIC) or layer(header) is None:
            continue  # the public API, or a header that is itself reported as in no layer
        elif ORDER.index(layer(header)) > ORDER.index(mine):
            errors.append(f"{shown}:{no}: includes {header}: layer {mine} may not include "
                          f"layer {layer(header)} (DESIGN.md, Layers: data flows down)")


def main():
    src = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                          os.path.join(os.path.dirname(__file__), "..", "src"))
    errors, warnings = [], []
    for top, dirs, names in os.walk(src):
        dirs.sort()
        for name in sorted(names):
            rel = os.path.relpath(os.path.join(top, name), src)
            shown = os.path.join(os.path.basename(src), rel)
            check_file(src, rel, shown, errors, warnings)
    for other in ("tools", "integrations"):  # the function sizes of src/'s neighbours
        for top, dirs, names in os.walk(os.path.join(src, "..", other)):
            dirs.sort()
            for name in sorted(n for n in names if n.endswith(SOURCE)):
                path = os.path.join(top, name)
                check_functions(read_lines(path), os.path.relpath(path, os.path.join(src, "..")),
                                errors)
    for w in warnings:
        print("warning:", w)
    for e in errors:
        print("error:", e)
    print(f"check_layers: {len(errors)} error(s), {len(warnings)} warning(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
