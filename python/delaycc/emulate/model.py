"""The part of a scenario the emulation builds: nodes, duplex links, bulk flows."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Direction:
    """One direction of a link: a -> b."""

    link: int  # index of the link
    link_id: str
    a: str
    b: str
    bandwidth_bps: float
    delay_s: float
    buffer_pkts: int | None
    buffer_bytes: int | None

    @property
    def label(self) -> str:
        return "a->b" if self.forward else "b->a"

    forward: bool = True


@dataclass(frozen=True)
class Link:
    index: int
    id: str
    a: str
    b: str
    fwd: Direction
    rev: Direction


@dataclass(frozen=True)
class Flow:
    index: int
    id: str
    algorithm: str
    src: str
    dst: str
    start_s: float
    stop_s: float
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Scenario:
    name: str
    seed: int
    duration_s: float
    packet_size: int
    sample_interval_s: float
    initial_window: int
    delayed_ack: bool
    nodes: tuple[str, ...]
    links: tuple[Link, ...]
    flows: tuple[Flow, ...]
    source: str

    def direction(self, a: str, b: str) -> Direction:
        for link in self.links:
            if (link.a, link.b) == (a, b):
                return link.fwd
            if (link.b, link.a) == (a, b):
                return link.rev
        raise KeyError((a, b))
