"""Registering the BPF congestion controllers in the running kernel (`bpftool struct_ops register`) and
removing them, setting their parameters and reporting what is loaded.

A registered struct_ops stays in the kernel after bpftool exits, until it is unregistered; sockets
already using it keep it alive until they close. Parameters live in the object's `.data.dcc*` section,
an array map that the programs read on every call, so they are rewritten in place after registration.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .algorithms import KERNEL_ALGORITHMS, KernelAlgorithm, kernel_algorithm
from .errors import KernelError
from .shell import require, run, run_json
from .tools import build_dir, ensure_built

AVAILABLE = Path("/proc/sys/net/ipv4/tcp_available_congestion_control")
BPF_OBJ_NAME_LEN = 15  # the kernel truncates program and map names to this


def available() -> list[str]:
    """Congestion controls the kernel offers now (built-in and registered)."""
    return AVAILABLE.read_text().split()


def registered() -> dict[str, int]:
    """Our algorithms the kernel offers now: kernel name -> struct_ops map id (0 if not listed). The
    kernel's list is the truth: an unregistered map can linger while sockets still hold it."""
    require("bpftool")
    offered = [n for n in available() if n.startswith("dcc_")]
    ids: dict[str, int] = {}
    for m in run_json(["bpftool", "-j", "struct_ops", "show"]):
        # The newest map of a name is the registered one; older ones are being freed.
        ids[m["name"]] = max(ids.get(m["name"], 0), int(m["id"]))
    return {n: ids.get(n, 0) for n in offered}


def is_registered(name: str) -> bool:
    alg = kernel_algorithm(name)
    return alg.is_bpf and alg.kernel_name in registered()


def _check_root() -> None:
    import os

    if os.geteuid() != 0:
        raise KernelError("loading BPF congestion control needs root (CAP_BPF and CAP_NET_ADMIN)")


def load(name: str) -> bool:
    """Registers a BPF algorithm; returns False if it was already registered (nothing done)."""
    alg = kernel_algorithm(name)
    if not alg.is_bpf:
        return False
    _check_root()
    if alg.kernel_name in registered():
        return False
    assert alg.bpf_object is not None
    obj = ensure_built() / alg.bpf_object
    run(["bpftool", "struct_ops", "register", str(obj)])
    if alg.kernel_name not in available():
        raise KernelError(f"{alg.kernel_name} registered but not in {AVAILABLE}")
    return True


def unload(name: str) -> bool:
    """Unregisters a BPF algorithm; returns False if it was not registered."""
    alg = kernel_algorithm(name)
    if not alg.is_bpf:
        return False
    _check_root()
    map_id = registered().get(alg.kernel_name)
    if map_id is None:
        return False
    # By id: a map of the same name still being freed would make `unregister name` fail.
    run(["bpftool", "struct_ops", "unregister", "id", str(map_id)])
    return True


def _params_map_id(alg: KernelAlgorithm) -> int:
    """The id of the registered object's parameter map: the newest map named after its parameter section
    (an unregistered copy may still be being freed; it has a smaller id)."""
    section = f".data.{alg.kernel_name.replace('_', '')}"[:BPF_OBJ_NAME_LEN]
    maps = [m for m in run_json(["bpftool", "-j", "map", "show"]) if m.get("name") == section]
    if not maps:
        raise KernelError(f"{alg.kernel_name} is not loaded (no map {section})")
    return max(int(m["id"]) for m in maps)


def set_params(name: str, params: dict[str, Any]) -> None:
    """Writes an algorithm's parameters (every field of its layout) into the registered object."""
    alg = kernel_algorithm(name)
    if not alg.is_bpf:
        return
    raw = alg.encode(params)
    value = [str(b) for b in raw]
    run(
        [
            "bpftool",
            "map",
            "update",
            "id",
            str(_params_map_id(alg)),
            "key",
            "0",
            "0",
            "0",
            "0",
            "value",
            *value,
        ]
    )


def get_params(name: str) -> dict[str, Any]:
    alg = kernel_algorithm(name)
    entry = run_json(
        ["bpftool", "-j", "map", "lookup", "id", str(_params_map_id(alg)), "key", "0", "0", "0", "0"]
    )
    raw = bytes(int(x, 16) for x in entry["value"]) if isinstance(entry, dict) else b""
    return alg.decode(raw)


def status() -> list[dict[str, Any]]:
    """One row per kernel algorithm: whether the kernel offers it now and, for ours, its parameters."""
    offered = set(available())
    regs = registered() if any(a.is_bpf for a in KERNEL_ALGORITHMS.values()) else {}
    rows: list[dict[str, Any]] = []
    for a in KERNEL_ALGORITHMS.values():
        row: dict[str, Any] = {
            "algorithm": a.name,
            "kernel_name": a.kernel_name,
            "kind": "bpf" if a.is_bpf else "built-in",
            "available": a.kernel_name in offered,
        }
        if a.is_bpf and a.kernel_name in regs:
            row["struct_ops_id"] = regs[a.kernel_name]
            row["params"] = get_params(a.name)
        rows.append(row)
    return rows


def object_path(name: str) -> Path:
    alg = kernel_algorithm(name)
    if alg.bpf_object is None:
        raise KernelError(f"{name} is built into the kernel")
    return build_dir() / alg.bpf_object
