"""Building a scenario's network in namespaces: one namespace per node, a veth pair per link, a tbf
(rate) with a pfifo/bfifo child (DropTail buffer) at each link direction's sending end, static
least-delay routes, and the iptables rules that hand packets to the delay line.

Propagation delay: each flow's path delay is applied once per direction, at the end of the path (data
at the receiver's ingress, ACKs at the sender's), as the sum of the path's link delays. With one
congested link per path this is the same network (constant delays commute with a FIFO queue); it keeps
the delay line's load at two passes per packet pair however long the path is (docs/kernel.md).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from ..kernel.shell import run
from .cleanup import Cleanup, delete_netns
from .model import Direction
from .topology import Topology

L2_HEADER = 14
"""Ethernet header bytes veth adds; the qdiscs' size table subtracts them so rates count IP bytes."""

SYSCTLS = {
    "net.ipv4.ip_forward": "1",
    "net.ipv4.conf.all.rp_filter": "0",
    "net.ipv4.conf.default.rp_filter": "0",
    # SACK stays on (Linux's default). Without it Linux's NewReno re-arms the RTO on every partial ACK
    # and needs one RTT per packet lost in a slow-start overshoot (hundreds of RTTs), where the
    # simulator's NewReno times out and goes back N: with SACK both recover in a few RTTs.
    "net.ipv4.tcp_sack": "1",
    # No spurious-timeout detection and no ECN: the simulator has neither.
    "net.ipv4.tcp_frto": "0",
    "net.ipv4.tcp_ecn": "0",
    # Each run starts from a fresh namespace; never reuse a cached ssthresh.
    "net.ipv4.tcp_no_metrics_save": "1",
    # Let the windows grow well past any emulated bandwidth-delay product (<= 200 Mbps x 1 s).
    "net.ipv4.tcp_rmem": "4096 131072 67108864",
    "net.ipv4.tcp_wmem": "4096 131072 67108864",
}


@dataclass(frozen=True)
class DelayQueue:
    """One queue of the delay line: packets from src to dst entering dst's namespace wait delay_s."""

    ns: str
    queue: int
    src_addr: str
    dst_addr: str
    delay_s: float

    @property
    def arg(self) -> str:
        return f"{self.ns}:{self.queue}:{round(self.delay_s * 1e6)}"


def _ip_batch(ns: str, lines: list[str]) -> None:
    if lines:
        run(["ip", "-n", ns, "-batch", "-"], input="\n".join(lines) + "\n")


def _namespaces(topo: Topology, cleanup: Cleanup) -> None:
    for node in topo.scenario.nodes:
        ns = topo.ns(node)
        cleanup.push(f"namespace {ns}", functools.partial(delete_netns, ns))
        run(["ip", "netns", "add", ns])
        run(["ip", "netns", "exec", ns, "sysctl", "-q", "-w", *(f"{k}={v}" for k, v in SYSCTLS.items())])


def _links(topo: Topology) -> None:
    s = topo.scenario
    per_ns: dict[str, list[str]] = {topo.ns(n): ["link set lo up"] for n in s.nodes}
    for node in s.nodes:
        per_ns[topo.ns(node)].append(f"addr add {topo.node_addr(node)}/32 dev lo")
    for link in s.links:
        dev = topo.ifname(link.index)
        run(["ip", "-n", topo.ns(link.a), "link", "add", dev, "type", "veth", "peer", "name", dev,
             "netns", topo.ns(link.b)])  # fmt: skip
        for node, side_a in ((link.a, True), (link.b, False)):
            ns = topo.ns(node)
            per_ns[ns].append(f"link set {dev} mtu {s.packet_size} up")
            per_ns[ns].append(f"addr add {topo.link_addr(link.index, side_a)}/30 dev {dev}")
            # One packet per skb, as on a real link: no segmentation offload, no receive coalescing.
            run(["ip", "netns", "exec", ns, "ethtool", "-K", dev, "tso", "off", "gso", "off", "gro", "off"])
    for node in s.nodes:
        ns = topo.ns(node)
        options = f"initcwnd {s.initial_window}" + ("" if s.delayed_ack else " quickack 1")
        for dst, e in topo.next_hops(node).items():
            via = topo.link_addr(e.link, not e.forward)
            per_ns[ns].append(
                f"route add {topo.node_addr(dst)}/32 via {via} dev {topo.ifname(e.link)} "
                f"src {topo.node_addr(node)} {options}"
            )
    for ns, lines in per_ns.items():
        _ip_batch(ns, lines)


def _qdisc_lines(topo: Topology, e: Direction) -> list[str]:
    dev = topo.ifname(e.link)
    size = topo.scenario.packet_size
    rate = round(e.bandwidth_bps)
    child = f"bfifo limit {e.buffer_bytes}" if e.buffer_bytes is not None else f"pfifo limit {e.buffer_pkts}"
    return [
        # Token bucket of two packets: the link's rate with at most one extra packet after an idle spell.
        f"qdisc add dev {dev} root handle 1: stab overhead -{L2_HEADER} "
        f"tbf rate {rate}bit burst {2 * size} limit {2 * size}",
        f"qdisc add dev {dev} parent 1:1 handle 10: {child}",
    ]


def _qdiscs(topo: Topology) -> None:
    per_ns: dict[str, list[str]] = {}
    for link in topo.scenario.links:
        for e in (link.fwd, link.rev):
            per_ns.setdefault(topo.ns(e.a), []).extend(_qdisc_lines(topo, e))
    for ns, lines in per_ns.items():
        run(["tc", "-n", ns, "-batch", "-"], input="\n".join(lines) + "\n")


def delay_queues(topo: Topology) -> list[DelayQueue]:
    """Two queues per (source, destination) pair of flows: data at the receiver, ACKs at the sender."""
    queues: list[DelayQueue] = []
    pairs = dict.fromkeys((f.src, f.dst) for f in topo.scenario.flows)
    for src, dst in pairs:
        for a, b in ((src, dst), (dst, src)):
            delay = sum(e.delay_s for e in topo.path(a, b))
            if delay > 0:
                queues.append(
                    DelayQueue(topo.ns(b), len(queues), topo.node_addr(a), topo.node_addr(b), delay)
                )
    return queues


def _delay_rules(queues: list[DelayQueue]) -> None:
    per_ns: dict[str, list[str]] = {}
    for q in queues:
        per_ns.setdefault(q.ns, []).append(
            f"-A PREROUTING -s {q.src_addr}/32 -d {q.dst_addr}/32 -j NFQUEUE --queue-num {q.queue}"
        )
    for ns, rules in per_ns.items():
        text = "*mangle\n" + "\n".join(rules) + "\nCOMMIT\n"
        run(["ip", "netns", "exec", ns, "iptables-restore"], input=text)


def build(topo: Topology, cleanup: Cleanup) -> list[DelayQueue]:
    """Creates the network (registering its removal first) and returns the delay line's queues."""
    _namespaces(topo, cleanup)
    _links(topo)
    _qdiscs(topo)
    queues = delay_queues(topo)
    _delay_rules(queues)
    return queues
