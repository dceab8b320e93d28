"""What a claim is judged by, over an experiment's ensemble of runs.

A number the paper reports is compared on the scale where it can differ (relative, in points of its own
unit, as a ratio on a log scale, or as 1 - x for a quantity near 1), with a tolerance derived from how
precisely the paper states it. An ordering ("A above B") holds when the ensemble's mean paired difference
is on the stated side and its 95 % interval excludes zero; a bound ("unfair": Jain's index below 0.95)
when the ensemble mean and its interval are on the stated side. Every criterion can say which values it
accepts and which it does not (`inside`, `outside`), so a test can show that each one can fail.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

# Two-sided 95 % Student t quantiles by degrees of freedom (an ensemble has 5 to 20 runs; beyond 30 the
# normal 1.96 is within 4 %).
_T95 = {
    1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228,
    11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131, 16: 2.120, 17: 2.110, 18: 2.101, 19: 2.093,
    20: 2.086, 21: 2.080, 22: 2.074, 23: 2.069, 24: 2.064, 25: 2.060, 26: 2.056, 27: 2.052, 28: 2.048,
    29: 2.045, 30: 2.042,
}  # fmt: skip

RELATIVE, POINTS, LOG, ONE_MINUS = "relative", "points", "log", "1-x"


@dataclass(frozen=True)
class Stats:
    """One figure over the ensemble's runs."""

    values: tuple[float, ...]

    @property
    def n(self) -> int:
        return len(self.values)

    @property
    def mean(self) -> float:
        return float(np.mean(self.values)) if self.values else float("nan")

    @property
    def half_width(self) -> float:
        """Half the 95 % interval of the mean (0 for a single run). 0 also when a run could not measure the
        figure: the mean is then NaN and fails every criterion, and a NaN here would instead leave the
        tolerances derived from it undefined."""
        if self.n < 2 or not all(math.isfinite(v) for v in self.values):
            return 0.0
        t = _T95.get(self.n - 1, 1.96)
        return float(t * np.std(self.values, ddof=1) / math.sqrt(self.n))

    def show(self, fmt: str = ".4g", unit: str = "") -> str:
        if self.n < 2:
            return f"{self.mean:{fmt}}{unit}"
        return f"{self.mean:{fmt}} ± {self.half_width:{fmt}}{unit}"


def stats(values: Sequence[float]) -> Stats:
    return Stats(tuple(float(v) for v in values))


@dataclass(frozen=True)
class Near:
    """Ours within a tolerance of the paper's number, on the given scale."""

    paper: float
    scale: str
    tolerance: float
    why: str
    """How the tolerance follows from the paper's precision."""

    def distance(self, x: float) -> float:
        if self.scale == RELATIVE:
            return abs(x - self.paper) / abs(self.paper)
        if self.scale == POINTS:
            return abs(x - self.paper)
        if self.scale == LOG:
            return abs(math.log(x / self.paper)) if x > 0 and self.paper > 0 else math.inf
        if self.scale == ONE_MINUS:
            return abs((1 - x) - (1 - self.paper)) / abs(1 - self.paper)
        raise ValueError(f"unknown scale {self.scale}")

    def bound(self) -> float:
        return math.log(1 + self.tolerance) if self.scale == LOG else self.tolerance

    def holds(self, x: float) -> bool:
        return bool(np.isfinite(x)) and self.distance(x) <= self.bound() + 1e-12

    def text(self) -> str:
        if self.scale == RELATIVE:
            rule = f"within ±{self.tolerance:.0%} of {self.paper:g}"
        elif self.scale == POINTS:
            rule = f"within ±{self.tolerance:.3g} (points) of {self.paper:g}"
        elif self.scale == LOG:
            rule = f"within a factor {1 + self.tolerance:.3g} of {self.paper:g}"
        else:
            rule = f"1 - x within ±{self.tolerance:.0%} of {1 - self.paper:.3g}"
        return f"{rule} ({self.why})"

    def inside(self) -> float:
        return self.paper

    def outside(self) -> float:
        if self.scale == RELATIVE:
            return self.paper * (1 + 2 * self.tolerance) if self.paper else 2 * self.tolerance
        if self.scale == POINTS:
            return self.paper + 2 * self.tolerance
        if self.scale == LOG:
            return self.paper * (1 + self.tolerance) ** 2
        return 1 - (1 - self.paper) * (1 + 2 * self.tolerance)


@dataclass(frozen=True)
class Bound:
    """The ensemble mean on one side of a threshold, with its 95 % interval on that side too."""

    relation: str  # "<" or ">"
    threshold: float
    why: str

    def holds_run(self, x: float) -> bool:
        return bool(x < self.threshold) if self.relation == "<" else bool(x > self.threshold)

    def holds(self, s: Stats) -> bool:
        edge = s.mean + s.half_width if self.relation == "<" else s.mean - s.half_width
        return bool(np.isfinite(s.mean)) and self.holds_run(edge)

    def text(self) -> str:
        return f"ensemble mean and its 95 % interval {self.relation} {self.threshold:g} ({self.why})"

    def inside(self) -> float:
        return self.threshold - 1 if self.relation == "<" else self.threshold + 1

    def outside(self) -> float:
        return self.threshold + 1 if self.relation == "<" else self.threshold - 1


@dataclass(frozen=True)
class Order:
    """A above (">") or below ("<") B: the mean paired difference A - B on that side, its 95 % interval
    excluding zero."""

    relation: str
    a: str
    b: str
    min_effect: float = 0.0
    """The smallest difference that counts, as a fraction of B's mean (deterministic runs made to differ
    by jitter have tiny spreads, so a difference of a fraction of a packet would otherwise be
    'significant'); derive it from the paper's words ("slightly", "much") and say how in `why`."""
    why: str = ""

    def _margin(self, b: float) -> float:
        return self.min_effect * abs(b)

    def holds_run(self, a: float, b: float) -> bool:
        m = self._margin(b)
        return bool(a > b + m) if self.relation == ">" else bool(a < b - m)

    def holds(self, a: Stats, b: Stats) -> bool:
        d = stats([x - y for x, y in zip(a.values, b.values, strict=True)])
        m = self._margin(b.mean)
        return Bound(self.relation, m if self.relation == ">" else -m, "").holds(d)

    def text(self) -> str:
        side = "above" if self.relation == ">" else "below"
        effect = f" by more than {self.min_effect * 100:.2g} %" if self.min_effect else ""
        why = f" ({self.why})" if self.why else ""
        return (
            f"{self.a} {side} {self.b}{effect} in the mean of paired runs, the 95 % interval clear of it{why}"
        )
