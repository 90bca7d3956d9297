#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# python_tests.sh: builds the Python package (python/) into a fresh virtualenv
# with warnings as errors, checks that it names and ships its licence, and runs
# its pytest suite (python/tests).
# Usage: scripts/python_tests.sh [VENV_DIR]   (default build-pyvenv; PYTHON=python3.x to choose)
# The real matrices of HPLS_DATA_DIR (default ../shared/data) are used where present.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh --python
venv=${1:-build-pyvenv}
rm -rf "$venv"
"${PYTHON:-/usr/bin/python3}" -m venv "$venv"
"$venv/bin/pip" install -q --upgrade pip
"$venv/bin/pip" install -q -Ccmake.define.HPLS_WERROR=ON "./python[test]"
# the wheel names its licence (pip show's License-Expression; the text: test_solve.py)
# (captured first: grep -q closing the pipe early made pip fail with "Pipe to stdout was broken")
meta=$("$venv/bin/pip" show hpls)
grep -qx 'License-Expression: BSD-3-Clause' <<<"$meta" ||
    { echo "python_tests.sh: pip show hpls names no BSD-3-Clause licence:" >&2; echo "$meta" >&2; exit 1; }
export HPLS_DATA_DIR=${HPLS_DATA_DIR:-$(cd .. && pwd)/shared/data}
# from python/tests, so that `import hpls` is the installed package, not the source tree
cd python/tests && "../../$venv/bin/python" -m pytest -q -p no:cacheprovider .
