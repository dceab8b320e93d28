#!/usr/bin/env bash
# build-fast.sh: build ns-2.35 with the CUBIN FAST TCP module (Agent/TCP/Fast,
# tcp/tcp-fast.cc) on Debian 12 (bookworm, x86-64, g++ 12).
#
#   tools/ns2/build-fast.sh SRC_DIR [OUT_BINARY]     (OUT_BINARY defaults to SRC_DIR/ns)
#
# SRC_DIR is a checkout of the public repository github.com/hbatmit/ns2.35 at
# commit f8f8c6f33f9ff88fe0ba004e27294938840fe984 (2013-07-01), which carries
# tcp/tcp-fast.cc:
#   git clone https://github.com/hbatmit/ns2.35 && git -C ns2.35 checkout f8f8c6f3
#
# What it does, in order:
#   1. Installs the missing Debian build dependencies (as root), or lists them and
#      stops (as another user).
#   2. Edits three source files so that g++ 12 and Debian's libtclcl accept them.
#      The edits are idempotent and touch no simulation code (no agent, queue or
#      link logic):
#        - common/distribution.cc: add #include <cstdio> (fprintf/stderr).
#        - tools/queue-monitor.h: Debian's libtclcl is built without HAVE_INT64,
#          so TclObject::bind(const char*, int64_t*) is missing at link time; the
#          Tcl-bound counters parrivals_, barrivals_, pdepartures_, bdepartures_
#          are stored as double (exact for counts up to 2^53) instead of int64_t.
#        - packmime/packmime_OL.h: same for maxpkts_.
#   3. Makes SRC_DIR/.debian-prefix, a tree of symlinks laid out the way ns-2's
#      configure looks for tcl/tk/otcl/tclcl (it wants tclInt.h, init.tcl and
#      tk.tcl next to the headers and libraries), and configures against it.
#   4. Generates tcp/remy/dna.pb.h (the ns target does not), builds ns, strips it
#      and copies it to OUT_BINARY.
#   5. Checks that OUT_BINARY's shared libraries resolve and that it can create
#      an Agent/TCP/Fast.
#
# Time: about 65 s on 2 cores for a fresh tree (about 105 s of CPU), plus the
# package installation on the first run; a second run on a built tree takes a second.
# Logs of configure and make go to SRC_DIR/.debian-prefix/build.log.

set -euo pipefail

prog=build-fast.sh

usage() {
    echo "usage: $0 SRC_DIR [OUT_BINARY]" >&2
    exit 2
}

die() {
    echo "$prog: error: $*" >&2
    exit 1
}

# ---------------------------------------------------------------- arguments
if [[ $# -lt 1 || $# -gt 2 ]]; then
    usage
fi
if [[ ! -d $1 ]]; then
    echo "$prog: error: source directory $1 does not exist" >&2
    usage
fi
if [[ ! -f $1/tcp/tcp-fast.cc ]]; then
    echo "$prog: error: $1 has no tcp/tcp-fast.cc (not an ns-2.35 tree with the FAST module)" >&2
    usage
fi
src=$(cd "$1" && pwd)
out=${2:-$src/ns}
if [[ $out != /* ]]; then
    out=$PWD/$out
fi

start_time=$SECONDS
workdir=$(mktemp -d)
trap 'rm -rf "$workdir"' EXIT

# ---------------------------------------------------------------- dependencies
# build-essential: the compiler; tcl8.6-dev, tk8.6-dev: headers, libraries, tclsh;
# libotcl1-dev, libtclcl1-dev: OTcl and TclCL; tclcl: the tcl2c++ program that
# embeds ns-2's Tcl library; libx11-dev, libxt-dev: configure stops without
# X11/Intrinsic.h and libX11; protobuf-compiler, libprotobuf-dev: the Remy agent's
# dna.proto. autoconf is not needed: the tree ships a generated configure.
deps=(build-essential tcl8.6-dev tk8.6-dev libotcl1-dev libtclcl1-dev tclcl
      libx11-dev libxt-dev protobuf-compiler libprotobuf-dev)

command -v dpkg-query >/dev/null || die "dpkg-query not found: this script is for Debian 12"

missing=()
for pkg in "${deps[@]}"; do
    if [[ $(dpkg-query -W -f='${db:Status-Abbrev}' "$pkg" 2>/dev/null || true) != "ii " ]]; then
        missing+=("$pkg")
    fi
done

if [[ ${#missing[@]} -gt 0 ]]; then
    if [[ $EUID -ne 0 ]]; then
        echo "$prog: error: missing build dependencies: ${missing[*]}" >&2
        echo "$prog: install them with: sudo apt-get install ${missing[*]}   (or run this script as root)" >&2
        exit 1
    fi
    echo "$prog: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get -o DPkg::Lock::Timeout=600 update -q
    apt-get -o DPkg::Lock::Timeout=600 install -y -q --no-install-recommends "${missing[@]}"
fi

for tool in g++ make protoc tcl2c++ tclsh8.6 perl strip ldd; do
    command -v "$tool" >/dev/null || die "$tool not found after installing the dependencies"
done

# ---------------------------------------------------------------- source fixes
# Each fix: if the edited form is present, do nothing; otherwise the original form
# must be present, it is edited, and the result is checked.

fix_distribution() {
    local f=$src/common/distribution.cc
    [[ -f $f ]] || die "missing $f"
    if grep -q '^#include <cstdio>' "$f"; then
        return
    fi
    grep -q '^#include "distribution.hh"' "$f" \
        || die "$f: no '#include \"distribution.hh\"' line to add <cstdio> after"
    perl -0pi -e 's/^(#include "distribution\.hh"[^\n]*\n)/$1#include <cstdio>\n/m' "$f"
    grep -q '^#include <cstdio>' "$f" || die "$f: adding #include <cstdio> failed"
    echo "$prog: fixed $f (#include <cstdio>)"
}

# count_decl FILE TYPE NAME: how many lines of FILE declare "TYPE NAME;".
count_decl() {
    grep -cE "^[[:space:]]*$2[[:space:]]+$3;" "$1" || true
}

# int64_t_to_double FILE NAME...: in FILE, turn each member declaration
# "int64_t NAME;" into "double NAME;". Every NAME must have exactly one
# declaration, either still int64_t or already double; nothing is edited otherwise.
int64_t_to_double() {
    local f=$1 name todo=()
    shift
    [[ -f $f ]] || die "missing $f"
    for name in "$@"; do
        local orig_n done_n
        orig_n=$(count_decl "$f" int64_t "$name")
        done_n=$(count_decl "$f" double "$name")
        if [[ $orig_n -eq 0 && $done_n -eq 1 ]]; then
            continue
        fi
        [[ $orig_n -eq 1 && $done_n -eq 0 ]] \
            || die "$f: expected one 'int64_t $name;' declaration, found $orig_n (and $done_n 'double $name;')"
        todo+=("$name")
    done
    for name in "${todo[@]}"; do
        NAME=$name perl -pi -e \
            's{^(\s*)int64_t(\s+)\Q$ENV{NAME}\E;}{$1double$2$ENV{NAME}; /* build-fast.sh: was int64_t, Debian libtclcl has no bind(int64_t*) */}' \
            "$f"
        [[ $(count_decl "$f" int64_t "$name") -eq 0 && $(count_decl "$f" double "$name") -eq 1 ]] \
            || die "$f: changing $name to double failed"
        echo "$prog: fixed $f ($name stored as double)"
    done
}

fix_distribution
int64_t_to_double "$src/tools/queue-monitor.h" parrivals_ barrivals_ pdepartures_ bdepartures_
int64_t_to_double "$src/packmime/packmime_OL.h" maxpkts_

# ---------------------------------------------------------------- private prefix
prefix=$src/.debian-prefix
log=$prefix/build.log
multiarch=$(gcc -print-multiarch)
libdir=/usr/lib/$multiarch
tclinc=/usr/include/tcl8.6

# link_all DIR FILE...: symlink each FILE into DIR unless DIR already has that name.
link_all() {
    local dir=$1 f
    shift
    for f in "$@"; do
        [[ -e $f ]] || die "missing $f (is its -dev package installed?)"
        [[ -e $dir/${f##*/} ]] || ln -s "$f" "$dir/${f##*/}"
    done
}

mkdir -p "$prefix"
rm -rf "${prefix:?}/include" "${prefix:?}/lib" "${prefix:?}/bin"
mkdir -p "$prefix/include" "$prefix/lib" "$prefix/bin"
shopt -s nullglob
link_all "$prefix/include" "$tclinc"/*.h "$tclinc"/tcl-private/generic/*.h \
    "$tclinc"/tcl-private/unix/*.h /usr/include/otcl.h /usr/include/tclcl/*.h
shopt -u nullglob
link_all "$prefix/include" "$tclinc/tcl-private/generic/tclInt.h" "$tclinc/tk.h" \
    /usr/include/tclcl/tclcl.h
link_all "$prefix/lib" "$libdir/libtcl8.6.so" "$libdir/libtk8.6.so" \
    "$libdir/libotcl.so" "$libdir/libtclcl.so"
ln -s /usr/share/tcltk/tcl8.6 "$prefix/lib/tcl8.6"
ln -s /usr/share/tcltk/tk8.6 "$prefix/lib/tk8.6"
link_all "$prefix/lib/tcl8.6" /usr/share/tcltk/tcl8.6/init.tcl
link_all "$prefix/lib/tk8.6" /usr/share/tcltk/tk8.6/tk.tcl
link_all "$prefix/bin" "$(command -v tcl2c++)"

# logged CMD...: run CMD with its output appended to the log; on failure show the
# end of the log and stop.
logged() {
    echo "== $(date '+%F %T') $*" >>"$log"
    if ! "$@" >>"$log" 2>&1; then
        echo "$prog: error: '$*' failed in $src; last lines of $log:" >&2
        tail -n 40 "$log" >&2
        exit 1
    fi
}

# ---------------------------------------------------------------- configure
cd "$src"
configure_args=(--with-tcl="$prefix" --with-tcl-ver=8.6 --with-tk="$prefix" --with-tk-ver=8.6
                --with-otcl="$prefix" --with-tclcl="$prefix")
stamp=$prefix/configure.args
if [[ -f Makefile && -f $stamp && $(cat "$stamp") == "${configure_args[*]}" ]]; then
    echo "$prog: already configured with the same arguments"
else
    echo "$prog: configuring (log: $log)"
    rm -f "$stamp"
    logged ./configure "${configure_args[@]}"
    [[ -f Makefile ]] || die "configure did not write a Makefile (see $log)"
    printf '%s\n' "${configure_args[*]}" >"$stamp"
fi

# ---------------------------------------------------------------- build
jobs=$(nproc)
ccopt="-O2 -fpermissive -Wno-narrowing -w -DUSE_INTERP_RESULT -DUSE_INTERP_ERRORLINE"
echo "$prog: building ns with make -j$jobs (log: $log)"
logged make tcp/remy/dna.pb.h
logged make -j"$jobs" CCOPT="$ccopt" ns
[[ -x $src/ns ]] || die "make finished but $src/ns is missing"

if [[ $out -ef $src/ns ]]; then
    strip "$src/ns"
else
    mkdir -p "$(dirname "$out")"
    cp "$src/ns" "$workdir/ns"
    strip "$workdir/ns"
    chmod 0755 "$workdir/ns"
    cp -f "$workdir/ns" "$out"
fi

# ---------------------------------------------------------------- proof
if unresolved=$(ldd "$out" | grep 'not found'); then
    echo "$prog: error: $out has unresolved shared libraries:" >&2
    echo "$unresolved" >&2
    exit 1
fi

cat >"$workdir/fast.tcl" <<'EOF'
set ns [new Simulator]
set t [new Agent/TCP/Fast]
puts ok
EOF
if ! result=$(cd "$workdir" && "$out" fast.tcl 2>&1) || [[ $result != ok ]]; then
    echo "$prog: error: $out could not create an Agent/TCP/Fast; it printed:" >&2
    echo "$result" >&2
    exit 1
fi

echo "$prog: build took $((SECONDS - start_time)) s"
echo "$prog: $out has Agent/TCP/Fast"
