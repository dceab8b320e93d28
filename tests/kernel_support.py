"""Shared by the kernel tests that need root: skip reasons, scenario variants, leftover checks."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DUMBBELL = ROOT / "scenarios" / "kernel" / "dumbbell-20mbps.toml"
LONG_RTT = ROOT / "scenarios" / "kernel" / "dumbbell-10mbps-80ms.toml"
BUILD = ROOT / "kernel" / "build"


def skip_reason() -> str | None:
    """Why this machine cannot run kernel tests, or None."""
    if os.geteuid() != 0:
        return "needs root (network namespaces, qdiscs, BPF)"
    for tool in ("clang", "bpftool", "ip", "tc", "iptables-restore", "ethtool"):
        if shutil.which(tool) is None:
            return f"{tool} missing (make kernel-deps)"
    if not Path("/sys/kernel/btf/vmlinux").is_file():
        return "kernel without BTF"
    return None


requires_root = pytest.mark.skipif(skip_reason() is not None, reason=skip_reason() or "")


def variant(base: Path, tmp: Path, algorithm: str, params: str = "", duration: str = "15s") -> Path:
    """The scenario with its flow's algorithm (and parameters) replaced, written to tmp."""
    text = base.read_text()
    text = text.split("[flows.params]")[0].replace('algorithm = "fast"', f'algorithm = "{algorithm}"')
    text = text.replace('duration = "20s"', f'duration = "{duration}"')
    if params:
        text += f"\n[flows.params]\n{params}\n"
    path = tmp / f"{base.stem}-{algorithm}.toml"
    path.write_text(text)
    return path


def our_namespaces() -> list[str]:
    d = Path("/var/run/netns")
    return sorted(p.name for p in d.iterdir() if p.name.startswith("dcck")) if d.is_dir() else []


def our_processes() -> list[int]:
    """Processes running one of the emulation tools."""
    pids = []
    for p in Path("/proc").iterdir():
        if p.name.isdigit():
            try:
                exe = os.readlink(p / "exe")
            except OSError:
                continue
            if exe.startswith(str(BUILD)):
                pids.append(int(p.name))
    return pids


def registered_ours() -> list[str]:
    return [
        n
        for n in Path("/proc/sys/net/ipv4/tcp_available_congestion_control").read_text().split()
        if n.startswith("dcc_")
    ]
