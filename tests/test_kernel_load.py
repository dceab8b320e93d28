"""Each BPF algorithm registers, is selectable (per socket and as a namespace's default) and goes away."""

from __future__ import annotations

import socket
import subprocess

import pytest
from kernel_support import registered_ours, requires_root

from delaycc.kernel import loader
from delaycc.kernel.algorithms import KERNEL_ALGORITHMS, default_params

TCP_CONGESTION = 13
BPF = [a.name for a in KERNEL_ALGORITHMS.values() if a.is_bpf]


@requires_root
@pytest.mark.parametrize("name", BPF)
def test_loads_is_selectable_and_unloads(name: str) -> None:
    alg = KERNEL_ALGORITHMS[name]
    was_loaded = loader.is_registered(name)
    ns = f"dcckt{name}"
    try:
        loader.load(name)
        assert alg.kernel_name in loader.available()
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            s.setsockopt(socket.IPPROTO_TCP, TCP_CONGESTION, alg.kernel_name.encode())
            assert (
                s.getsockopt(socket.IPPROTO_TCP, TCP_CONGESTION, 16).rstrip(b"\0").decode() == alg.kernel_name
            )
        # A namespace may make it its default only because the struct_ops says TCP_CONG_NON_RESTRICTED.
        subprocess.run(["ip", "netns", "add", ns], check=True)
        subprocess.run(
            [
                "ip",
                "netns",
                "exec",
                ns,
                "sysctl",
                "-q",
                "-w",
                f"net.ipv4.tcp_congestion_control={alg.kernel_name}",
            ],
            check=True,
        )
        implemented = {f.name for f in alg.fields}
        params = {**{k: v for k, v in default_params(name).items() if k in implemented}, "alpha": 7}
        loader.set_params(name, params)
        assert loader.get_params(name) == pytest.approx(params)
    finally:
        subprocess.run(["ip", "netns", "delete", ns], check=False, capture_output=True)
        if not was_loaded:
            loader.unload(name)
    if not was_loaded:
        assert alg.kernel_name not in registered_ours()
