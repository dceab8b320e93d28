"""The two fabrics: a k-ary fat tree (Al-Fares, Loukissas and Vahdat, SIGCOMM 2008) and a two-tier
leaf-spine. A topology is its hosts and its links (pairs of node names); rates, delays and buffers are
the same on every link and belong to the scenario (``scenario.FabricOptions``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import FabricError


@dataclass
class Topology:
    """Hosts (in order: the workloads number them) and links as (a, b) node names; ``switches`` by tier."""

    kind: str
    hosts: list[str] = field(default_factory=list)
    links: list[tuple[str, str]] = field(default_factory=list)
    switches: dict[str, list[str]] = field(default_factory=dict)

    @property
    def nodes(self) -> list[str]:
        return self.hosts + [s for tier in self.switches.values() for s in tier]


def fat_tree(k: int) -> Topology:
    """k pods of k/2 edge and k/2 aggregation switches; (k/2)^2 cores; k/2 hosts per edge switch.

    Edge switch ``e{p}_{i}`` of pod p links to every aggregation switch of its pod; aggregation switch
    ``a{p}_{j}`` links to cores ``c{j}_{m}`` for m < k/2, so core group j joins the j-th aggregation
    switch of every pod. Hosts ``h{n}`` are numbered pod by pod, edge by edge (k^3/4 of them)."""
    if k < 2 or k % 2:
        raise FabricError("--k", f"must be an even number of at least 2, not {k}")
    half = k // 2
    t = Topology("fat-tree")
    t.switches = {
        "edge": [f"e{p}_{i}" for p in range(k) for i in range(half)],
        "aggregation": [f"a{p}_{j}" for p in range(k) for j in range(half)],
        "core": [f"c{j}_{m}" for j in range(half) for m in range(half)],
    }
    for p in range(k):
        for i in range(half):
            for _ in range(half):
                host = f"h{len(t.hosts)}"
                t.hosts.append(host)
                t.links.append((host, f"e{p}_{i}"))
    for p in range(k):
        for i in range(half):
            for j in range(half):
                t.links.append((f"e{p}_{i}", f"a{p}_{j}"))
    for p in range(k):
        for j in range(half):
            for m in range(half):
                t.links.append((f"a{p}_{j}", f"c{j}_{m}"))
    return t


def leaf_spine(leaves: int, spines: int, hosts_per_leaf: int) -> Topology:
    """Every leaf ``l{i}`` links to every spine ``s{j}`` and to its own ``hosts_per_leaf`` hosts."""
    for option, value in (("--leaves", leaves), ("--spines", spines), ("--hosts-per-leaf", hosts_per_leaf)):
        if value < 1:
            raise FabricError(option, f"must be at least 1, not {value}")
    t = Topology("leaf-spine")
    t.switches = {"leaf": [f"l{i}" for i in range(leaves)], "spine": [f"s{j}" for j in range(spines)]}
    for i in range(leaves):
        for _ in range(hosts_per_leaf):
            host = f"h{len(t.hosts)}"
            t.hosts.append(host)
            t.links.append((host, f"l{i}"))
    for i in range(leaves):
        for j in range(spines):
            t.links.append((f"l{i}", f"s{j}"))
    return t
