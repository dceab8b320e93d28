"""Names, addresses and routes of the emulated network.

Every scenario node is a network namespace `dcck<pid>n<i>`; link L is a veth pair named `l<L>` at both
ends (created straight into the two namespaces, so nothing ever appears in the machine's own namespace),
with 10.200.0.0/16 split into /30s (4·L+1 at a, 4·L+2 at b). Node i's own address is 10.203.i/32 on its
loopback; every namespace routes every node address along the least-delay path (ties: fewer hops), the
simulator's default route.
"""

from __future__ import annotations

import heapq
import os
from dataclasses import dataclass
from ipaddress import IPv4Address

from .model import Direction, Scenario

PREFIX = "dcck"
MAX_LINKS = 16384
MAX_NODES = 65536


def run_prefix(pid: int | None = None) -> str:
    """The prefix of every namespace one run creates: stale ones are recognised by a dead pid."""
    return f"{PREFIX}{os.getpid() if pid is None else pid}n"


@dataclass(frozen=True)
class Topology:
    scenario: Scenario
    prefix: str

    def ns(self, node: str) -> str:
        return f"{self.prefix}{self.scenario.nodes.index(node)}"

    def node_addr(self, node: str) -> str:
        i = self.scenario.nodes.index(node)
        return str(IPv4Address("10.203.0.0") + i)

    def link_addr(self, link: int, side_a: bool) -> str:
        return str(IPv4Address("10.200.0.0") + 4 * link + (1 if side_a else 2))

    @staticmethod
    def ifname(link: int) -> str:
        return f"l{link}"

    def neighbours(self, node: str) -> list[Direction]:
        out: list[Direction] = []
        for link in self.scenario.links:
            if link.a == node:
                out.append(link.fwd)
            elif link.b == node:
                out.append(link.rev)
        return out

    def next_hops(self, src: str) -> dict[str, Direction]:
        """For every node reachable from src: the first link direction of the least-delay path."""
        best: dict[str, tuple[float, int]] = {src: (0.0, 0)}
        first: dict[str, Direction] = {}
        heap: list[tuple[float, int, str]] = [(0.0, 0, src)]
        while heap:
            d, hops, u = heapq.heappop(heap)
            if best.get(u, (float("inf"), 0)) < (d, hops):
                continue
            for e in self.neighbours(u):
                cand = (d + e.delay_s, hops + 1)
                if cand < best.get(e.b, (float("inf"), 0)):
                    best[e.b] = cand
                    first[e.b] = first[u] if u != src else e
                    heapq.heappush(heap, (cand[0], cand[1], e.b))
        return first

    def path(self, src: str, dst: str) -> list[Direction]:
        """The link directions from src to dst, as the routes send packets."""
        hops: list[Direction] = []
        node = src
        while node != dst:
            e = self.next_hops(node)[dst]
            hops.append(e)
            node = e.b
        return hops
