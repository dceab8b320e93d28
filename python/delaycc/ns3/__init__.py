"""ns-3 as a peer for LEDBAT and TCP-LP: the same dumbbells in ns-3's TcpLedbat and TcpLp (the optional
`ns3` wheel, run in a child process) and in delaycc, side by side (docs/crosscheck.md, "ns-3: LEDBAT and
TCP-LP"). Not a dependency: `available()` says whether the wheel is installed."""

from __future__ import annotations

from .compare import run_delaycc, scenario, table
from .model import CASES, Dumbbell, FlowFigures, RunFigures, Transport
from .runner import INSTALL_HINT, Ns3Error, Ns3Unavailable, available
from .runner import run as run_ns3

__all__ = [
    "CASES",
    "INSTALL_HINT",
    "Dumbbell",
    "FlowFigures",
    "Ns3Error",
    "Ns3Unavailable",
    "RunFigures",
    "Transport",
    "available",
    "run_delaycc",
    "run_ns3",
    "scenario",
    "table",
]
