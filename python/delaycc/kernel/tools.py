"""Where the kernel side's sources and build products are, and building them on first use."""

from __future__ import annotations

import os
from pathlib import Path

from .errors import KernelError
from .shell import require, run

TOOLS = ("dcc-delay", "dcc-flow", "dcc-qmon")


def kernel_dir() -> Path:
    """The repository's kernel/ directory (DELAYCC_KERNEL_DIR overrides it)."""
    env = os.environ.get("DELAYCC_KERNEL_DIR")
    d = Path(env) if env else Path(__file__).resolve().parents[3] / "kernel"
    if not (d / "Makefile").is_file():
        raise KernelError(f"{d}: no kernel/Makefile here; set DELAYCC_KERNEL_DIR to the repository's kernel/")
    return d


def build_dir() -> Path:
    return kernel_dir() / "build"


def ensure_built() -> Path:
    """Runs `make -C kernel` (a no-op when everything is up to date) and returns the build directory."""
    require("make", "clang", "bpftool", "gcc")
    if not Path("/sys/kernel/btf/vmlinux").is_file():
        raise KernelError(
            "this kernel exports no BTF (/sys/kernel/btf/vmlinux): BPF congestion control needs it"
        )
    run(["make", "-s", "-C", str(kernel_dir())])
    return build_dir()


def tool(name: str) -> str:
    path = build_dir() / name
    if not path.is_file():
        raise KernelError(f"{path} is missing; run `make -C kernel`")
    return str(path)
