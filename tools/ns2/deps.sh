#!/usr/bin/env bash
# Installs what the ns-2 referee tests need, only what is missing, without questions (`make ns2-deps`,
# which `make test` depends on): Debian's `ns2` package (ns-2.35 without the FAST module), and, when
# DELAYCC_NS2 names another ns-2 binary (one built by tools/ns2/build-fast.sh), the Debian libraries that
# binary links. Not root, or no apt-get: says what is missing and exits 0, so the rest of the suite still
# runs (the referee tests then report themselves as not run, with the reason).
set -euo pipefail

PACKAGES=(ns2)
# The libraries an ns-2.35 build links (ldd): Tcl, OTcl, TclCL, and protobuf for ns-2's Remy agent.
if [ -n "${DELAYCC_NS2:-}" ] && [ -f "$DELAYCC_NS2" ]; then
    PACKAGES+=(libtcl8.6 libotcl1 libtclcl1 libprotobuf32)
fi

exec "$(dirname "$0")/../install-missing.sh" ns2-deps "the ns-2 referee tests" "${PACKAGES[@]}"
