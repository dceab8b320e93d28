#!/usr/bin/env bash
# Installs the Debian packages the kernel emulation needs, only those missing, without questions.
# Called by `make kernel-deps` (which `make test` depends on). Not root, or no apt-get: says so and
# exits 0, so the rest of the suite still runs (the kernel tests then skip with the reason).
set -euo pipefail

PACKAGES=(clang llvm libbpf-dev bpftool libelf-dev zlib1g-dev iptables libnetfilter-queue-dev
          iproute2 ethtool pkg-config make gcc)

missing=()
for p in "${PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
    echo "kernel-deps: missing ${missing[*]}; install them as root (apt-get install) to run the kernel tests" >&2
    exit 0
fi

echo "kernel-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# Other package operations may hold the dpkg lock for a while: wait for it instead of failing.
apt_get() { apt-get -o DPkg::Lock::Timeout=600 -y -q "$@"; }
if ! apt_get install --no-install-recommends "${missing[@]}"; then
    apt_get update
    apt_get install --no-install-recommends "${missing[@]}"
fi
