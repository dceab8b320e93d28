"""Refusing clearly, before anything is created, when this machine cannot emulate: not root, missing
commands, no BTF for the BPF algorithms, no network namespaces."""

from __future__ import annotations

import os
from pathlib import Path

from ..kernel.algorithms import kernel_algorithm
from ..kernel.loader import available
from ..kernel.shell import require
from .errors import EmulationError
from .model import Scenario


def check(scenario: Scenario) -> None:
    if os.geteuid() != 0:
        raise EmulationError(
            "delaycc emulate needs root: it creates network namespaces, qdiscs and iptables rules and "
            "registers BPF congestion control (run it with sudo)"
        )
    if not Path("/proc/self/ns/net").exists():
        raise EmulationError("this kernel has no network namespaces (/proc/self/ns/net is missing)")
    require("ip", "tc", "iptables-restore", "ethtool", "sysctl")
    algs = {kernel_algorithm(f.algorithm) for f in scenario.flows}
    if any(a.is_bpf for a in algs):
        require("bpftool", "clang")
        if not Path("/sys/kernel/btf/vmlinux").is_file():
            raise EmulationError(
                "this kernel exports no BTF (/sys/kernel/btf/vmlinux): BPF algorithms cannot load"
            )
    offered = set(available())
    missing = sorted(a.kernel_name for a in algs if not a.is_bpf and a.kernel_name not in offered)
    if missing:
        raise EmulationError(
            f"this kernel does not offer {', '.join(missing)} (see {', '.join(sorted(offered))})"
        )
