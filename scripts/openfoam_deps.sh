#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# openfoam_deps.sh [CACHE_DIR]: Debian's openfoam (v1912: solvers and libOpenFOAM, but
# no headers and no wmake) and openfoam-examples (the tutorials), plus the matching
# headers from Debian's source package, with the lnInclude folders that OpenFOAM's
# includes expect (made by the source's own wmake/wmakeLnInclude).  Everything beyond
# the .deb install goes under CACHE_DIR (default ~/.cache/hpls-openfoam), never into
# the repository.  Idempotent: each step is skipped when its result is there.  Prints
# the source tree's path (the FOAM_SRC of integrations/openfoam) on its last line.
# The system's apt configuration is left alone: the deb-src line lives in a private
# sources list, with its own package lists, under CACHE_DIR.
set -euo pipefail
cache=${1:-${HPLS_OPENFOAM_CACHE:-$HOME/.cache/hpls-openfoam}}
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)
say() { echo "openfoam_deps: $*" >&2; }

if ! dpkg -s openfoam openfoam-examples >/dev/null 2>&1; then
    [ "$(id -u)" = 0 ] || { say "openfoam is not installed and this is not root: apt-get install openfoam openfoam-examples"; exit 1; }
    say "installing Debian's openfoam and openfoam-examples (about 490 MB with dependencies)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        openfoam openfoam-examples >&2
else
    say "openfoam $(dpkg-query -W -f='${Version}' openfoam) is installed"
fi
version=$(dpkg-query -W -f='${source:Version}' openfoam)
upstream=${version#*:}
upstream=${upstream%-*}

src=$(find "$cache" -maxdepth 1 -type d -name "openfoam-${upstream}*" | head -n 1)
if [ -z "$src" ] || [ ! -d "$src/src/OpenFOAM" ]; then
    # deb-src for the same suites as the system's deb lines, in a private list
    apt_dir=$cache/apt
    mkdir -p "$apt_dir/lists/partial"
    {
        grep -h '^URIs:\|^Suites:\|^Components:\|^Signed-By:' /etc/apt/sources.list.d/debian.sources 2>/dev/null \
            | awk 'BEGIN { print "Types: deb-src" } /^URIs:/ && n++ { print ""; print "Types: deb-src" } { print }'
    } > "$apt_dir/debian-src.sources"
    [ -s "$apt_dir/debian-src.sources" ] || {
        say "no /etc/apt/sources.list.d/debian.sources to copy a deb-src line from"; exit 1; }
    # an empty sources.list so that apt reads the private one only
    : > "$apt_dir/sources.list"
    apt_opts=(-o APT::Sandbox::User=root
              -o "Dir::Etc::SourceList=$apt_dir/sources.list"
              -o "Dir::Etc::SourceParts=$apt_dir"
              -o "Dir::State::Lists=$apt_dir/lists")
    say "fetching the source package openfoam=$version into $cache"
    apt-get "${apt_opts[@]}" update -qq
    command -v dpkg-source >/dev/null 2>&1 || {
        say "installing dpkg-dev (dpkg-source unpacks the source package)"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends dpkg-dev >&2; }
    (cd "$cache" && apt-get "${apt_opts[@]}" source -qq "openfoam=$version" >&2)
    src=$(find "$cache" -maxdepth 1 -type d -name "openfoam-${upstream}*" | head -n 1)
else
    say "source tree $src is there"
fi

for dir in src/OpenFOAM src/OSspecific/POSIX; do
    if [ -z "$(ls -A "$src/$dir/lnInclude" 2>/dev/null)" ]; then
        say "making $dir/lnInclude (wmake/wmakeLnInclude)"
        (cd "$src" && WM_PROJECT_DIR=$src wmake/wmakeLnInclude -u "$dir" >&2)
    else
        say "$dir/lnInclude is there"
    fi
done
echo "$src"
