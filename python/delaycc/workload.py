"""How long a run will take, estimated before it starts: the engine's estimate of its packets, events and
memory (``_core.estimate_json``, crates/sim/src/sim/estimate.rs) turned into wall-clock time at a fixed
rate of events per second, and the line and warning ``delaycc run`` prints.

The rate, ``EVENTS_PER_S``, is the engine's speed on the machine the project is measured on (see
docs/performance.md, "Estimating a run"); ``DELAYCC_EVENTS_PER_S`` replaces it for another machine, e.g.
with the events per second ``make bench`` prints there."""

from __future__ import annotations

import json
import os
from bisect import bisect_right
from dataclasses import dataclass

EVENTS_PER_S = 5e6
"""Events the engine processes per wall-clock second: the reference bench line (10 NewReno flows, 1 Gb/s,
20 ms, 10 ms sampling) measured 5.6 M/s and its 1000-flow variant 4.0 M/s on the project's shared
2-core virtual machine (docs/performance.md). A rounded figure between the two: an estimate, not a
promise."""

EVENTS_PER_S_VARIABLE = "DELAYCC_EVENTS_PER_S"

LONG_RUN_S = 600.0
"""Runs estimated to take longer than this (10 minutes) are warned about before they start."""


def events_per_s() -> float:
    """``EVENTS_PER_S``, or ``$DELAYCC_EVENTS_PER_S`` when it holds a positive number."""
    text = os.environ.get(EVENTS_PER_S_VARIABLE, "")
    try:
        value = float(text)
    except ValueError:
        return EVENTS_PER_S
    return value if value > 0 and value != float("inf") else EVENTS_PER_S


@dataclass(frozen=True)
class Estimate:
    """What a run will take. ``profile`` holds (simulated seconds, cumulative events) points, linear in
    between: where in simulated time the work lies."""

    data_packets: int
    acks: int
    datagrams: int
    packets: int
    events: int
    memory_bytes: int
    profile: tuple[tuple[float, float], ...]
    events_per_s: float
    max_events: int | None = None
    """The run's event budget, which stops it there (``[limits] max_events`` or the caller's)."""

    @classmethod
    def from_json(cls, text: str, rate: float | None = None, max_events: int | None = None) -> Estimate:
        """The engine's estimate; ``max_events`` replaces the scenario's budget, as ``run()``'s does."""
        d = json.loads(text)
        budget = max_events if max_events is not None else d.get("max_events")
        return cls(
            data_packets=int(d["data_packets"]),
            acks=int(d["acks"]),
            datagrams=int(d["datagrams"]),
            packets=int(d["packets"]),
            events=int(d["events"]),
            memory_bytes=int(d["memory_bytes"]),
            profile=tuple((float(t), float(e)) for t, e in d["profile"]),
            events_per_s=rate if rate is not None else events_per_s(),
            max_events=None if budget is None else int(budget),
        )

    @property
    def events_run(self) -> int:
        """The events the run will process: all of them, or its budget if that is smaller."""
        return self.events if self.max_events is None else min(self.events, self.max_events)

    @property
    def wall_s(self) -> float:
        """Estimated wall-clock seconds of the simulation (writing outputs and figures not included)."""
        return self.events_run / self.events_per_s

    @property
    def long(self) -> bool:
        return self.wall_s > LONG_RUN_S

    def events_at(self, t: float) -> float:
        """Events expected by simulated time ``t`` (seconds)."""
        pts = self.profile
        if not pts or t <= pts[0][0]:
            return 0.0
        if t >= pts[-1][0]:
            return pts[-1][1]
        i = bisect_right([p[0] for p in pts], t)
        (t0, e0), (t1, e1) = pts[i - 1], pts[i]
        return e0 + (e1 - e0) * (t - t0) / (t1 - t0) if t1 > t0 else e1

    def line(self, name: str) -> str:
        """One line: the run's size and its estimated time."""
        stop = self.events_run
        budget = f" (max_events stops it at {count(stop)})" if stop < self.events else ""
        return (
            f"delaycc: {name}: estimated {count(self.packets)} packets, {count(self.events)} events{budget}, "
            f"{size(self.memory_bytes)} of memory; {about(self.wall_s)} at {count(self.events_per_s)} "
            "events/s"
        )

    def warning(self, name: str) -> str | None:
        """A line for runs estimated to take more than ``LONG_RUN_S``; None for the others."""
        if not self.long:
            return None
        return (
            f"delaycc: warning: {name} is estimated to take {duration(self.wall_s)}, more than "
            f"{duration(LONG_RUN_S)}; a shorter duration or --max-events N bounds it"
        )


def sweep_line(name: str, runs: int, events: float, parallel: int | None) -> tuple[str, str | None]:
    """What a sweep says before it starts, and its warning (None unless it is estimated to take more than
    ``LONG_RUN_S``): ``runs`` runs left to do with ``events`` events in all, on ``parallel`` local
    workers, or on a Dask cluster (None: its size is not known here, so the time is one worker's and
    there is no warning)."""
    one = events / events_per_s()
    if parallel is None:
        where = f"{about(one)} of one worker's time"
        wall = 0.0
    else:
        wall = one / max(1, parallel)
        where = f"{about(wall)} on {parallel} worker{'s' if parallel != 1 else ''}"
    line = f"delaycc: sweep {name}: {runs} runs to do, estimated {count(events)} events; {where}"
    if wall <= LONG_RUN_S:
        return line, None
    return line, (
        f"delaycc: warning: sweep {name} is estimated to take {duration(wall)}, more than "
        f"{duration(LONG_RUN_S)}; it resumes where it stopped if interrupted (run the same command again)"
    )


def _digits(v: float) -> str:
    """Three significant digits, without an exponent."""
    return f"{v:.3g}" if v < 999.5 else f"{v:.0f}"


def count(n: float) -> str:
    """1234567 -> '1.23 M'."""
    for factor, prefix in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if n >= factor:
            return f"{_digits(n / factor)} {prefix}"
    return f"{n:.0f}"


def size(n: float) -> str:
    """Bytes with binary prefixes: 1572864 -> '1.5 MiB'."""
    for factor, prefix in ((2**40, "TiB"), (2**30, "GiB"), (2**20, "MiB"), (2**10, "KiB")):
        if n >= factor:
            return f"{_digits(n / factor)} {prefix}"
    return f"{n:.0f} B"


def about(s: float) -> str:
    """'about 12 min', or 'under 1 s'."""
    d = duration(s)
    return d if d.startswith("under") else f"about {d}"


def duration(s: float) -> str:
    """Seconds for a person: 'under 1 s', '42 s', '12 min', '3.5 h', '2.1 days'."""
    if s < 1:
        return "under 1 s"
    if s < 120:
        return f"{s:.0f} s"
    if s < 7200:
        return f"{s / 60:.0f} min"
    if s < 172800:
        return f"{s / 3600:.1f} h"
    return f"{s / 86400:.1f} days"
