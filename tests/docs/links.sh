#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# links.sh SOURCE_DIR: every relative Markdown link in README.md and docs/*.md
# points at a file or folder that exists (the README's sections moved to docs/:
# a link left behind must fail here).  First proves it finds a broken one.
set -u
src=$1
tmp=$(mktemp -d "${HPLS_TMP:-${TMPDIR:-/tmp}}/links.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
# broken FILE...: prints each link of the files whose target is missing
broken() {
    local f link target
    for f in "$@"; do
        grep -o '\](\([^)#]*\)\(#[^)]*\)\?)' "$f" | sed 's/^](\([^)#]*\).*/\1/' | while read -r link; do
            case "$link" in http://* | https://* | mailto:* | "") continue ;; esac
            target=$(dirname "$f")/$link
            [ -e "$target" ] || echo "$f: $link"
        done
    done
}
printf '# t\n[gone](no/such/file.md)\n' >"$tmp/probe.md"
[ -n "$(broken "$tmp/probe.md")" ] || { echo "FAIL the check missed a broken link"; exit 1; }
bad=$(broken "$src/README.md" "$src"/docs/*.md)
if [ -n "$bad" ]; then
    echo "FAIL links to nothing:"
    echo "$bad"
    exit 1
fi
echo "ok   every relative link of README.md and docs/*.md resolves"
