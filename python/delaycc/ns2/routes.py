"""Routes as delaycc computes them (least total one-way delay in the direction of travel, ties broken by hop
count, then by node order), so that ns-2 can be told each flow's exact path."""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Sequence

from .model import Direction


def least_delay(nodes: Sequence[str], directions: Sequence[Direction], src: str, dst: str) -> tuple[str, ...]:
    """The default route from src to dst (the scenario was validated, so one exists)."""
    order = {n: i for i, n in enumerate(nodes)}
    adj: dict[str, list[tuple[int, str, int]]] = {n: [] for n in nodes}
    for d in directions:
        adj[d.a].append((order[d.b], d.b, round(d.delay_s * 1e9)))
    for n in adj:
        adj[n].sort()
    best: dict[str, tuple[int, int]] = {src: (0, 0)}
    prev: dict[str, str] = {}
    heap = [(0, 0, order[src], src)]
    while heap:
        dist, hops, _, u = heapq.heappop(heap)
        if best.get(u) != (dist, hops):
            continue
        for _, v, delay in adj[u]:
            cand = (dist + delay, hops + 1)
            if v not in best or cand < best[v]:
                best[v] = cand
                prev[v] = u
                heapq.heappush(heap, (cand[0], cand[1], order[v], v))
    path = [dst]
    while path[-1] != src:
        path.append(prev[path[-1]])
    return tuple(reversed(path))


def hops(path: Sequence[str]) -> list[tuple[str, str]]:
    return list(itertools.pairwise(path))
