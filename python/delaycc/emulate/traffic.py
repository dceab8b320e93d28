"""Running the flows: the delay line and the queue monitor first, then one receiver and one sender per
flow. Every process shares one time origin t0 (CLOCK_MONOTONIC, the clock time.monotonic_ns reads), so
senders start and stop on the scenario's clock and every sample falls on t0 + k·interval."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from ..kernel.algorithms import kernel_algorithm
from ..kernel.tools import tool
from . import fidelity
from .cleanup import Cleanup
from .errors import EmulationError
from .network import DelayQueue
from .procs import Proc
from .topology import Topology

LEAD_S = 1.0
"""Time between starting the processes and the scenario's t = 0: every receiver is listening by then."""

BASE_PORT = 5001


@dataclass
class RawRun:
    """What the processes printed: per flow the sender's and receiver's lines, and the queue samples."""

    t0_ns: int
    senders: dict[str, list[str]]
    receivers: dict[str, list[str]]
    queues: list[str]
    wall_s: float
    delay_report: list[str]
    cpu_steal_fraction: float | None
    cpu_steal_worst_second: float | None


def _us(seconds: float) -> int:
    return round(seconds * 1e6)


def run(topo: Topology, queues: list[DelayQueue], workdir: Path, cleanup: Cleanup) -> RawRun:
    s = topo.scenario
    wall0 = time.monotonic()
    delay: Proc | None = None
    if queues:
        delay = Proc("delay", [tool("dcc-delay"), *(q.arg for q in queues)], workdir, cleanup)
        delay.wait_ready()
    receivers: dict[str, Proc] = {}
    for f in s.flows:
        port = str(BASE_PORT + f.index)
        args = [
            "ip",
            "netns",
            "exec",
            topo.ns(f.dst),
            tool("dcc-flow"),
            "server",
            topo.node_addr(f.dst),
            port,
        ]
        receivers[f.id] = Proc(f"recv-{f.index}", args, workdir, cleanup)
    for r in receivers.values():
        r.wait_ready()
    t0 = time.monotonic_ns() + int(LEAD_S * 1e9)
    interval_us = _us(s.sample_interval_s)
    targets = [f"{topo.ns(e.a)}:{topo.ifname(e.link)}" for link in s.links for e in (link.fwd, link.rev)]
    qmon = Proc(
        "qmon",
        [tool("dcc-qmon"), str(t0), str(interval_us), str(_us(s.duration_s)), *targets],
        workdir,
        cleanup,
    )
    qmon.wait_ready()
    steal = fidelity.StealMonitor().start()
    cleanup.push("steal monitor", steal.stop)
    senders: dict[str, Proc] = {}
    for f in s.flows:
        args = [
            "ip", "netns", "exec", topo.ns(f.src), tool("dcc-flow"), "client",
            topo.node_addr(f.src), topo.node_addr(f.dst), str(BASE_PORT + f.index),
            kernel_algorithm(f.algorithm).kernel_name, str(t0), str(_us(f.start_s)), str(_us(f.stop_s)),
            str(interval_us),
        ]  # fmt: skip
        senders[f.id] = Proc(f"send-{f.index}", args, workdir, cleanup)
    end = t0 / 1e9 + s.duration_s + 5.0
    for f in s.flows:
        code = senders[f.id].wait(end - time.monotonic())
        if code is None:
            raise EmulationError(f"flow {f.id}: the sender did not finish")
        if code != 0:
            raise EmulationError(f"flow {f.id}: the sender failed: {senders[f.id].error_text()}")
    whole_steal, worst_steal = steal.stop()
    for f in s.flows:
        if receivers[f.id].wait(5.0) is None:
            raise EmulationError(f"flow {f.id}: the receiver did not see the end of the transfer")
    qmon.wait(max(t0 / 1e9 + s.duration_s + 1.0 - time.monotonic(), 0.0))
    if delay is not None:
        delay.stop()  # it prints its lateness report on the way out
    return RawRun(
        t0_ns=t0,
        senders={f.id: senders[f.id].lines() for f in s.flows},
        receivers={f.id: receivers[f.id].lines() for f in s.flows},
        queues=qmon.lines(),
        wall_s=time.monotonic() - wall0,
        delay_report=delay.lines() if delay is not None else [],
        cpu_steal_fraction=whole_steal,
        cpu_steal_worst_second=worst_steal,
    )
