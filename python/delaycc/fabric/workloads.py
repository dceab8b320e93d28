"""Who sends what to whom on a fabric, and when. Every random choice comes from one ``random.Random``
seeded by the scenario's seed, so the same options give the same file.

- ``incast``: N senders, one receiver, all starting at once (the partition-aggregate pattern);
- ``permutation``: every host sends to exactly one other and receives from exactly one (a random
  derangement of the hosts);
- ``cdf_flows``: flow sizes drawn from a CDF file, arrivals a Poisson process whose rate puts the hosts'
  links at the given load, sources and destinations uniform over distinct hosts."""

from __future__ import annotations

import bisect
import itertools
import random
from dataclasses import dataclass
from pathlib import Path

from .errors import FabricError


@dataclass(frozen=True)
class FabricFlow:
    """One flow: host names, size in bytes (None: unlimited) and start time in nanoseconds."""

    src: str
    dst: str
    bytes: int | None
    start_ns: int = 0


@dataclass(frozen=True)
class Cdf:
    """A piecewise-linear CDF of flow sizes: sizes (bytes, strictly increasing) and probabilities."""

    sizes: tuple[float, ...]
    probs: tuple[float, ...]

    def sample(self, u: float) -> int:
        """The size at probability ``u`` in [0, 1) (inverse transform, linear between points), >= 1 byte."""
        i = bisect.bisect_right(self.probs, u)
        if i >= len(self.probs):
            return max(1, round(self.sizes[-1]))
        if i == 0:
            return max(1, round(self.sizes[0]))
        p0, p1 = self.probs[i - 1], self.probs[i]
        s0, s1 = self.sizes[i - 1], self.sizes[i]
        x = s0 if p1 == p0 else s0 + (s1 - s0) * (u - p0) / (p1 - p0)
        return max(1, round(x))

    def mean(self) -> float:
        """Mean size in bytes under linear interpolation (the sampler's own mean)."""
        pts = list(zip(self.sizes, self.probs, strict=True))
        return sum((p1 - p0) * (s0 + s1) / 2 for (s0, p0), (s1, p1) in itertools.pairwise(pts))


def read_cdf(path: Path, option: str = "--cdf") -> Cdf:
    """Reads a ``.cdf`` file (scenarios/fabric/cdf/README.md); any problem is a FabricError naming
    ``option``, the file and the line."""
    try:
        text = path.read_text()
    except OSError as e:
        raise FabricError(option, f"{path}: cannot be read: {e.strerror or e}") from None
    sizes: list[float] = []
    probs: list[float] = []
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        where = f"{path}:{n}"
        parts = line.split()
        try:
            size, prob = (float(x) for x in parts) if len(parts) == 2 else (None, None)
        except ValueError:
            size = prob = None
        if size is None or prob is None:
            raise FabricError(option, f"{where}: expected 'size_bytes probability', got {line!r}")
        if not 0.0 <= prob <= 1.0 or size < 0 or size != size or prob != prob:
            raise FabricError(option, f"{where}: probability {prob} must be in [0, 1] and size {size} >= 0")
        if sizes and (size <= sizes[-1] or prob < probs[-1]):
            raise FabricError(
                option,
                f"{where}: the CDF is not monotone ({sizes[-1]:g} {probs[-1]:g}, then {size:g} {prob:g})",
            )
        sizes.append(size)
        probs.append(prob)
    if len(sizes) < 2:
        raise FabricError(option, f"{path}: a CDF needs at least two points, found {len(sizes)}")
    if probs[-1] != 1.0:
        raise FabricError(option, f"{path}: the CDF ends at {probs[-1]:g}, not at 1")
    return Cdf(tuple(sizes), tuple(probs))


def incast(hosts: list[str], senders: int, size: int | None, receiver: int = 0) -> list[FabricFlow]:
    """``senders`` hosts, the ones after ``receiver`` in host order, each sending ``size`` to it at once."""
    if senders < 1:
        raise FabricError("--senders", f"must be at least 1, not {senders}")
    if senders > len(hosts) - 1:
        raise FabricError(
            "--senders", f"{senders} senders and a receiver need {senders + 1} hosts; there are {len(hosts)}"
        )
    n = len(hosts)
    return [FabricFlow(hosts[(receiver + 1 + i) % n], hosts[receiver], size) for i in range(senders)]


def permutation(hosts: list[str], size: int | None, rng: random.Random) -> list[FabricFlow]:
    """Host i sends to host d[i], where d is a uniformly random derangement (shuffles until none is fixed)."""
    if len(hosts) < 2:
        raise FabricError("--workload", "a permutation needs at least two hosts")
    order = list(range(len(hosts)))
    while True:
        rng.shuffle(order)
        if all(i != d for i, d in enumerate(order)):
            break
    return [FabricFlow(hosts[i], hosts[d], size) for i, d in enumerate(order)]


def cdf_flows(
    hosts: list[str],
    cdf: Cdf,
    load: float,
    host_rate_bps: float,
    flows: int,
    until_ns: int,
    rng: random.Random,
) -> list[FabricFlow]:
    """Poisson arrivals at the rate that offers ``load`` of every host's link on average:
    lambda = load x host rate x hosts / (8 x mean size). Stops after ``flows`` flows or at ``until_ns``."""
    if not 0.0 < load <= 1.0:
        raise FabricError("--load", f"must be in (0, 1], not {load}")
    if flows < 1:
        raise FabricError("--flows", f"must be at least 1, not {flows}")
    if len(hosts) < 2:
        raise FabricError("--workload", "cdf traffic needs at least two hosts")
    rate_per_s = load * host_rate_bps * len(hosts) / (8.0 * cdf.mean())
    out: list[FabricFlow] = []
    t = 0.0
    while len(out) < flows:
        t += rng.expovariate(rate_per_s)
        start_ns = round(t * 1e9)
        if start_ns >= until_ns:
            break
        src = rng.randrange(len(hosts))
        dst = rng.randrange(len(hosts) - 1)
        dst += dst >= src
        out.append(FabricFlow(hosts[src], hosts[dst], cdf.sample(rng.random()), start_ns))
    return out
