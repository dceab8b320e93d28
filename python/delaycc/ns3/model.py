"""The dumbbells both simulators run (docs/crosscheck.md, "ns-3: LEDBAT and TCP-LP"): one LEDBAT or TCP-LP
flow, alone or beside one NewReno flow, on a drop-tail bottleneck of the same size in packets."""

from __future__ import annotations

from dataclasses import dataclass, field

NS3_TYPE = {"ledbat": "ns3::TcpLedbat", "tcp-lp": "ns3::TcpLp", "newreno": "ns3::TcpNewReno"}
"""delaycc's algorithm name to the ns-3 congestion control it is compared with."""


@dataclass(frozen=True)
class Dumbbell:
    name: str
    algorithms: tuple[str, ...]
    starts_s: tuple[float, ...]
    bandwidth_bps: float = 10e6
    delay_s: float = 0.020
    access_bps: float = 1e9
    access_delay_s: float = 0.001
    buffer_pkts: int = 500
    """Waiting packets: delaycc's `buffer`, ns-3's DropTailQueue MaxSize (the packet being sent is out)."""
    packet_size: int = 1000
    """IP packet bytes on both sides (delaycc's `packet_size`; ns-3's segment plus 52 header bytes)."""
    duration_s: float = 60.0
    sample_s: float = 0.01
    seed: int = 1

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(f"{a}{i}" for i, a in enumerate(self.algorithms))


NS3_HEADER_BYTES = 52
"""IPv4 20 + TCP 20 + the timestamp option padded to 12: ns-3's TcpLedbat and TcpLp read one-way delays
from timestamps, so they are on, and the segment is the packet less these bytes."""


@dataclass(frozen=True)
class Transport:
    """delaycc's `ns2` transport profile, as far as ns-3's TcpSocketBase can take it."""

    initial_window: int = 2
    min_rto_s: float = 0.2
    initial_rto_s: float = 3.0
    clock_granularity_s: float = 0.01
    ledbat_slow_start: bool = False
    tcp_lp_range_reset: str = "one-way"
    """delaycc's TCP-LP `range_reset`; ns-3's TcpLp always resets as `linux` does."""


@dataclass
class FlowFigures:
    id: str
    algorithm: str
    goodput_bps: float
    mean_rtt_s: float | None
    mean_cwnd_pkts: float | None
    timeouts: int


@dataclass
class RunFigures:
    simulator: str
    flows: list[FlowFigures] = field(default_factory=list)
    mean_queue_pkts: float = 0.0
    max_queue_pkts: float = 0.0
    drops: int = 0
    bandwidth_bps: float = 0.0
    packet_size: int = 0

    @property
    def mean_queue_delay_s(self) -> float:
        """The mean queue in packets times one packet's time on the bottleneck."""
        return self.mean_queue_pkts * self.packet_size * 8 / self.bandwidth_bps


CASES: tuple[Dumbbell, ...] = (
    Dumbbell("ledbat-alone", ("ledbat",), (0.0,)),
    Dumbbell("ledbat-newreno", ("ledbat", "newreno"), (0.0, 20.0)),
    Dumbbell("tcp-lp-alone", ("tcp-lp",), (0.0,)),
    Dumbbell("tcp-lp-newreno", ("tcp-lp", "newreno"), (0.0, 20.0)),
)
"""10 Mbps, 20 ms bottleneck (44 ms base RTT), 500 packets (400 ms, four TARGETs), 60 s; the NewReno flow
joins at 20 s, after the scavenger has settled, as in scenarios/beyond/ledbat-scavenger.toml."""
