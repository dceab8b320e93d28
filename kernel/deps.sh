#!/usr/bin/env bash
# Installs the Debian packages the kernel emulation needs, only those missing, without questions.
# Called by `make kernel-deps` (which `make test` depends on). Not root, or no apt-get: says so and
# exits 0, so the rest of the suite still runs (the kernel tests then skip with the reason).
set -euo pipefail

PACKAGES=(clang llvm libbpf-dev bpftool libelf-dev zlib1g-dev iptables libnetfilter-queue-dev
          iproute2 ethtool pkg-config make gcc)

exec "$(dirname "$0")/../tools/install-missing.sh" kernel-deps "the kernel tests" "${PACKAGES[@]}"
