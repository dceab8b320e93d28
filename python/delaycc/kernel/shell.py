"""Running the system commands the kernel side needs (bpftool, ip, tc, iptables), with their failures
turned into KernelError messages that say which command failed and what it printed."""

from __future__ import annotations

import json
import shutil
import subprocess
from typing import Any

from .errors import KernelError


def run(args: list[str], *, input: str | None = None, check: bool = True) -> str:
    """Runs a command and returns its standard output."""
    try:
        # Its own session: a terminal's Ctrl-C reaches only the harness, and an interrupt waits for the
        # command to finish, so nothing it creates (a BPF registration, a namespace) goes unrecorded.
        with subprocess.Popen(
            args,
            stdin=subprocess.PIPE if input is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        ) as p:
            try:
                out, err = p.communicate(input, timeout=60)
            except KeyboardInterrupt:
                p.communicate(timeout=60)
                raise
    except FileNotFoundError:
        raise KernelError(f"{args[0]} is not installed (run `make kernel-deps` as root)") from None
    except subprocess.TimeoutExpired:
        raise KernelError(f"`{' '.join(args)}` did not finish within 60 s") from None
    if check and p.returncode != 0:
        msg = (err or out).strip().splitlines()
        raise KernelError(f"`{' '.join(args)}` failed: {msg[-1] if msg else f'exit {p.returncode}'}")
    return out


def run_json(args: list[str]) -> Any:
    out = run(args)
    return json.loads(out) if out.strip() else []


def require(*commands: str) -> None:
    missing = [c for c in commands if shutil.which(c) is None]
    if missing:
        raise KernelError(f"missing {', '.join(missing)} (run `make kernel-deps` as root)")
