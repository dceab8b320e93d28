"""The pieces of a reproduction: experiments, runs, their results, and claims with verdicts."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

REPRODUCED = "reproduced"
NOT_REPRODUCED = "not reproduced"
NOT_COMPARABLE = "not comparable"
SETUP = "set-up"
"""A property of the scenario the paper describes (losses when N x alpha exceeds the buffer): not evidence."""
BY_CONSTRUCTION = "by construction"
"""Holds because of how an algorithm is built (MFAST is FAST's controller unchanged): not evidence."""
SUPPORTED = "supported"
"""Our own hypothesis (an experiment beyond the papers, reproduce/beyond.py) held by its criterion."""
NOT_SUPPORTED = "not supported"
"""Our own hypothesis failed its criterion: reported as measured, never tuned away."""
VERDICTS = (REPRODUCED, NOT_REPRODUCED, SETUP, BY_CONSTRUCTION, NOT_COMPARABLE, SUPPORTED, NOT_SUPPORTED)

PART_BEYOND = "Beyond the papers"
"""The report part of the experiments that test our own hypotheses rather than a paper's claims."""

ENSEMBLE_SEEDS = (1, 2, 3, 4, 5)
"""Runs per experiment: five, as P003's "average of five tests"; they differ by seed where anything is
random and by each flow's start time (`START_JITTER_S`) where nothing is."""
START_JITTER_S = 0.005
"""Each flow of an ensemble run starts up to this much later than the scenario says, drawn per run and
flow: a few milliseconds, far below any effect a paper reports, enough to make deterministic runs differ."""

# Series kept from every run (the rest of the time series is dropped to keep results small).
KEPT_FLOW_METRICS = (
    "cwnd_pkts",
    "rate_bps",
    "rtt_s",
    "base_rtt_s",
    "srtt_s",
    "ipd_jitter_s",
    "btl_bw_bps",
    "copa_mode",
    "target_delay_s",
)
"""`btl_bw_bps` (BBR's bandwidth estimate), `copa_mode` (1 in Copa's competitive mode) and `target_delay_s`
(Swift's target) are read by the experiments beyond the papers; no paper runs those algorithms, so the
papers' runs keep what they kept."""
KEPT_LINK_METRICS = ("queue_pkts", "throughput_bps")


@dataclass(frozen=True)
class Sweep:
    """One scenario key varied over values; `labels` are what the paper's x axis shows."""

    key: str
    values: Sequence[Any]
    labels: Sequence[float]
    name: str


@dataclass
class Experiment:
    id: str
    paper: str
    title: str
    scenario: Path
    compare: Sequence[str]
    flows: Sequence[str]
    seeds: Sequence[int] = ENSEMBLE_SEEDS
    jitter_s: float = START_JITTER_S
    vary: Callable[[dict[str, Any], RunKey, random.Random], None] | None = None
    """What else differs between an ensemble's runs, for an experiment where start times change nothing
    (P003's single flow: the time of its induced loss). Called with the run's scenario, its key and a
    generator seeded by the run's seed and sweep point (the same for every algorithm, so runs pair)."""
    params: dict[str, dict[str, Any]] = field(default_factory=dict)
    streams: dict[str, int] = field(default_factory=dict)
    sweep: Sweep | None = None
    claims: Callable[[RunSet], list[Claim]] | None = None
    figures: Callable[[RunSet, Path], list[Path]] | None = None
    tables: Callable[[RunSet], list[Table]] | None = None
    part: str = ""
    """The part of the report the experiment's section goes under: "" for the papers' experiments, `PART`
    ("Beyond the papers") for our own hypotheses."""


@dataclass(frozen=True)
class RunKey:
    experiment: str
    algorithm: str
    point: float | None
    seed: int


@dataclass
class RunResult:
    key: RunKey
    summary: dict[str, Any]
    times: np.ndarray
    series: dict[tuple[str, str, str], np.ndarray]

    def flow(self, fid: str) -> dict[str, Any]:
        for f in self.summary["flows"]:
            if f["id"] == fid:
                return f  # type: ignore[no-any-return]
        raise KeyError(fid)

    def link(self, lid: str, direction: str = "a->b") -> dict[str, Any]:
        for lk in self.summary["links"]:
            if lk["id"] == lid and lk["direction"] == direction:
                return lk  # type: ignore[no-any-return]
        raise KeyError(f"{lid}:{direction}")

    def s(self, kind: str, oid: str, metric: str) -> np.ndarray:
        return self.series[(kind, oid, metric)]

    def window(self, kind: str, oid: str, metric: str, t0: float, t1: float) -> np.ndarray:
        mask = (self.times >= t0) & (self.times < t1)
        values = self.s(kind, oid, metric)[mask]
        return np.asarray(values[np.isfinite(values)])


class RunSet:
    """All runs of one experiment."""

    def __init__(self, experiment: Experiment, runs: list[RunResult]) -> None:
        self.experiment = experiment
        self.runs = runs

    def get(self, algorithm: str, point: float | None = None, seed: int | None = None) -> RunResult:
        for r in self.runs:
            if r.key.algorithm == algorithm and r.key.point == point and (seed is None or r.key.seed == seed):
                return r
        raise KeyError(f"{self.experiment.id}: no run for {algorithm} at {point} seed {seed}")

    def seeds(self, algorithm: str, point: float | None = None) -> list[RunResult]:
        """The ensemble's runs of one algorithm (at one sweep point), in seed order."""
        return sorted(
            (r for r in self.runs if r.key.algorithm == algorithm and r.key.point == point),
            key=lambda r: r.key.seed,
        )

    def each(
        self, algorithm: str, value: Callable[[RunResult], float], point: float | None = None
    ) -> list[float]:
        """One figure from each of the ensemble's runs."""
        return [float(value(r)) for r in self.seeds(algorithm, point)]

    def mean(self, algorithm: str, value: Callable[[RunResult], float], point: float | None = None) -> float:
        return float(np.mean([value(r) for r in self.seeds(algorithm, point)]))


@dataclass
class Claim:
    experiment: str
    text: str
    paper: str
    measured: str
    verdict: str
    note: str = ""
    rel_diff: float | None = None
    criterion: str = ""
    """What decides the verdict, with its tolerance and where that comes from."""
    held: str = ""
    """In how many of the ensemble's runs the criterion held on its own ("4/5")."""
    check: object | None = None
    """The criterion object (criteria.Near, Bound or Order), so a test can show it can fail."""
    reads: tuple[str, ...] = ()
    """The algorithms whose runs the claim reads (the referee gives an ns-2 verdict only when ns-2 ran
    them all); empty for claims not yet declared, which the referee then tests by perturbation."""
    ns2_measured: str | None = None
    """With `--referee ns2`: the same claim measured on ns-2's runs (reproduce/referee.py)."""
    ns2_verdict: str | None = None
    ns2_note: str = ""


@dataclass
class Table:
    title: str
    columns: list[str]
    rows: list[list[str]]
