#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# bad_inputs.sh: runs every case of tests/bad_inputs/cases.tsv against the built hpls
# (and powerflow, built next to it): the exit status and a piece of the stderr message
# as the manifest says, no input file changed, no output or temporary file left
# behind, no hang (each case under `timeout`), and no large allocation (each case
# capped at 2 GB); an hpls usage error (exit 2) prints its one line on stderr and
# nothing on stdout, so it stopped there and did not go on with the work.  Then checks that docs/bad_inputs.md is the table the manifest
# makes.  Prints one line per case.
# Usage: bad_inputs.sh PATH/TO/hpls
set -u
HPLS=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") # cases run in their own directories
PF="$(dirname "$HPLS")/powerflow"
SRC=$(cd "$(dirname "$0")/../.." && pwd)
DIR="$SRC/tests/bad_inputs"
T=$(mktemp -d "${HPLS_TMP:-/tmp}/e2e_bad.XXXXXX")
trap 'rm -rf "$T"' EXIT
pass=0 fail=0 skip=0
LIMIT_SECONDS=20

# A case declaring a huge size must fail before allocating it: cap the memory.  An
# ASan build reserves terabytes of address space, so there the allocator is capped.
if grep -q __asan_init "$HPLS"; then
  export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}allocator_may_return_null=1:max_allocation_size_mb=2048"
  MEMCAP=unlimited
else
  MEMCAP=2097152 # KiB of address space
fi

# state DIR: every entry (name, type) and the checksum of every regular file
state() {
  (cd "$1" && find . -printf '%p %y\n' | sort && find . -type f -exec cksum {} + | sort)
}

while IFS=$'\t' read -r id class files setup cmd want msg; do
  [ "$id" = "id" ] && continue # the header
  read -ra words <<<"$cmd"
  case ${words[0]} in
  hpls) words[0]=$HPLS ;;
  powerflow)
    if [ ! -x "$PF" ]; then
      echo "skip $id (no $PF)"; skip=$((skip + 1)); continue
    fi
    words[0]=$PF ;;
  *) echo "FAIL $id: the command must start with hpls or powerflow: $cmd"; fail=$((fail + 1)); continue ;;
  esac
  W="$T/$id"
  mkdir -p "$W"
  if [ "$files" != "-" ]; then
    IFS=, read -ra list <<<"$files"
    for f in "${list[@]}"; do
      cp "$DIR/$f" "$W/" || { echo "FAIL $id: no file $f"; fail=$((fail + 1)); continue 2; }
    done
  fi
  if [ "$setup" != "-" ] && ! (cd "$W" && bash -c "$setup"); then
    echo "FAIL $id: setup failed: $setup"; fail=$((fail + 1)); continue
  fi
  before=$(state "$W")
  (cd "$W" && ulimit -v "$MEMCAP" && exec timeout "$LIMIT_SECONDS" "${words[@]}") \
    >"$T/$id.out" 2>"$T/$id.err" </dev/null
  rc=$?
  after=$(state "$W")
  why=
  if [ "$rc" -eq 124 ]; then
    why="timed out after $LIMIT_SECONDS s"
  elif [ "$rc" -ne "$want" ]; then
    why="exit $rc, expected $want"
  elif [ "$msg" != "-" ] && ! grep -qF -- "$msg" "$T/$id.err"; then
    why="stderr lacks \"$msg\""
  elif [ "${words[0]}" = "$HPLS" ] && [ "$want" -eq 2 ] &&
    { [ -s "$T/$id.out" ] || [ "$(wc -l <"$T/$id.err")" -ne 1 ]; }; then
    why="a usage error must stop at its first message: $(wc -l <"$T/$id.out") lines on stdout, $(wc -l <"$T/$id.err") on stderr (expected 0 and 1)"
  elif [ "$before" != "$after" ]; then
    why="files changed: $(diff <(echo "$before") <(echo "$after") | grep '^[<>]' | tr '\n' ' ')"
  fi
  if [ -n "$why" ]; then
    echo "FAIL $id ($class): $why"
    echo "     command: $cmd"
    sed 's/^/     stderr: /' "$T/$id.err" | head -3
    fail=$((fail + 1))
  else
    echo "ok   $id"
    pass=$((pass + 1))
  fi
done <"$DIR/cases.tsv"

# every file of the catalogue belongs to a case
for f in "$DIR"/*; do
  name=$(basename "$f")
  case $name in cases.tsv | table.sh) continue ;; esac
  if cut -f3 "$DIR/cases.tsv" | tr ',' '\n' | grep -qxF -- "$name"; then
    pass=$((pass + 1))
  else
    echo "FAIL tests/bad_inputs/$name is in no case of cases.tsv"
    fail=$((fail + 1))
  fi
done

# the documentation is the manifest's table, regenerated
if bash "$DIR/table.sh" | cmp -s - "$SRC/docs/bad_inputs.md"; then
  echo "ok   docs/bad_inputs.md is up to date"
  pass=$((pass + 1))
else
  echo "FAIL docs/bad_inputs.md differs from the table of cases.tsv: run tests/bad_inputs/table.sh >docs/bad_inputs.md"
  fail=$((fail + 1))
fi

echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
