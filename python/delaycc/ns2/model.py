"""The part of a scenario ns-2 runs: simplex link directions, TCP flows with their ns-2 agents, UDP sources
and timed changes, with every value already in ns-2's units (seconds, bits per second, bytes)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class RedQueue:
    """A direction's RED queue as ns-2's Queue/RED: its class variables (set before the link is made, so
    that the automatic settings ns-2 computes when the queue meets its link see them) and its limit."""

    tcl_vars: tuple[tuple[str, float | bool], ...]
    limit: int  # ns-2's queue-limit: packets, or packets of mean_pktsize_ bytes in byte mode
    limit_bytes: int | None = None  # in byte mode, the bytes that limit is


@dataclass(frozen=True)
class Direction:
    """One direction a -> b of a scenario link, as an ns-2 simplex link."""

    link_index: int
    link_id: str
    label: str  # "a->b" or "b->a", as summary.json names directions
    a: str
    b: str
    bandwidth_bps: float
    delay_s: float
    buffer_pkts: int | None  # waiting packets (delaycc's meaning); ns-2's queue-limit is one more
    buffer_bytes: int | None
    loss: float
    drop_seqs: tuple[tuple[str, int], ...] = ()  # (flow id, data sequence number from 0)
    red: RedQueue | None = None  # None: DropTail

    @property
    def key(self) -> str:
        """The id the time series use for a link direction."""
        return f"{self.link_id}:{self.label}"


@dataclass(frozen=True)
class Transport:
    initial_window: float
    min_rto_s: float
    max_rto_s: float
    initial_rto_s: float
    delayed_ack: bool
    delayed_ack_timeout_s: float
    receiver_window: float
    dupack_threshold: int
    syn: bool = True
    rtt_tick_s: float = 0.01
    limited_transmit: bool = True
    newreno_first_partial: bool = True
    partial_ack: bool = False
    sack: bool = False


@dataclass(frozen=True)
class Flow:
    index: int
    id: str
    algorithm: str
    agent: str  # the ns-2 class under Agent/TCP ("Fast", "Vegas", "Newreno", "Reno", "Sack1")
    sink: str  # "TCPSink" or "TCPSink/Sack1" (DelAck added from the transport)
    src: str
    dst: str
    start_s: float
    stop_s: float
    bytes: int | None
    path: tuple[str, ...]
    reverse_path: tuple[str, ...]
    wire_bytes: int = 0
    """A data packet on the wire in ns-2: packetSize_ plus the header for agents that add it (not Vegas)."""
    syn: bool = True
    """Whether the agent opens with a header-only SYN as sequence number 0 (ns-2's syn_; Vegas ignores it)."""
    agent_vars: dict[str, float] = field(default_factory=dict)
    """Tcl variables of the agent the scenario sets (alpha_, v_beta_, ...); the rest keep ns-2's defaults."""
    transport: Transport | None = None


@dataclass(frozen=True)
class Traffic:
    index: int
    id: str
    kind: str  # "cbr" or "onoff"
    src: str
    dst: str
    rate_bps: float
    packet_size: int
    start_s: float
    stop_s: float
    path: tuple[str, ...]
    mean_on_s: float = 0.0
    mean_off_s: float = 0.0


@dataclass(frozen=True)
class LinkChange:
    at_s: float
    directions: tuple[Direction, ...]
    bandwidth_bps: float | None
    delay_s: float | None
    loss: float | None
    up: bool | None


@dataclass(frozen=True)
class Reroute:
    index: int  # in the scenario's events
    at_s: float
    flow: str
    path: tuple[str, ...] | None
    reverse_path: tuple[str, ...] | None


@dataclass(frozen=True)
class Scenario:
    name: str
    source: str
    seed: int
    duration_s: float
    sample_interval_s: float
    packet_size: int  # delaycc's: a data packet's bytes on the wire
    header_size: int
    ack_size: int
    nodes: tuple[str, ...]
    directions: tuple[Direction, ...]
    flows: tuple[Flow, ...]
    traffic: tuple[Traffic, ...]
    link_changes: tuple[LinkChange, ...]
    reroutes: tuple[Reroute, ...]

    @property
    def payload(self) -> int:
        """ns-2's packetSize_: the payload of a data packet (ns-2 adds the header on the wire)."""
        return self.packet_size - self.header_size

    def direction(self, a: str, b: str) -> Direction:
        for d in self.directions:
            if (d.a, d.b) == (a, b):
                return d
        raise KeyError((a, b))
