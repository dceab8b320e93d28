#!/usr/bin/env bash
# Installs what the packet-trace tests need, only what is missing, without questions: Debian's `tshark`
# and `tcptrace`, which read the pcap files `trace = "pcap"` writes (docs/scenario-format.md, Packet
# traces). tshark's package asks whether non-root users may capture; the answer is preseeded (no: these
# tests only read files). Not root, or no apt-get: says what is missing and exits 0 (the tests then
# report themselves as not run, with the reason). Called by tests/test_pcap.py.
set -euo pipefail

if [ "$(id -u)" -eq 0 ] && command -v debconf-set-selections >/dev/null; then
    echo "wireshark-common wireshark-common/install-setuid boolean false" | debconf-set-selections
fi

exec "$(dirname "$0")/../install-missing.sh" pcap-deps "the packet-trace tests" tshark tcptrace
