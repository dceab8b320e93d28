#!/usr/bin/env bash
# install-missing.sh LABEL PURPOSE PACKAGE...: installs, with apt-get and without questions, those of the
# Debian packages that are not installed. Not root, or no apt-get: says what is missing and what for, and
# exits 0, so that the rest of `make test` still runs (the tests that need them report the reason).
# Used by kernel/deps.sh, tools/ns2/deps.sh and the Makefile's browser-deps.
set -euo pipefail

label=$1 purpose=$2
shift 2
missing=()
for p in "$@"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
    echo "$label: missing ${missing[*]}; install them as root (apt-get install) to run $purpose" >&2
    exit 0
fi

echo "$label: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# Other package operations may hold the dpkg lock for a while: wait for it instead of failing.
apt_get() { apt-get -o DPkg::Lock::Timeout=600 -y -q "$@"; }
if ! apt_get install --no-install-recommends "${missing[@]}"; then
    apt_get update
    apt_get install --no-install-recommends "${missing[@]}"
fi
