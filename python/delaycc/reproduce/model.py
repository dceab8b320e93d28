"""The pieces of a reproduction: experiments, runs, their results, and claims with verdicts."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

REPRODUCED = "reproduced"
NOT_REPRODUCED = "not reproduced"
NOT_COMPARABLE = "not comparable"

# Series kept from every run (the rest of the time series is dropped to keep results small).
KEPT_FLOW_METRICS = ("cwnd_pkts", "rate_bps", "rtt_s", "base_rtt_s", "srtt_s", "ipd_jitter_s")
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
    seeds: Sequence[int] = (1,)
    params: dict[str, dict[str, Any]] = field(default_factory=dict)
    streams: dict[str, int] = field(default_factory=dict)
    sweep: Sweep | None = None
    claims: Callable[[RunSet], list[Claim]] | None = None
    figures: Callable[[RunSet, Path], list[Path]] | None = None
    tables: Callable[[RunSet], list[Table]] | None = None


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
        return [r for r in self.runs if r.key.algorithm == algorithm and r.key.point == point]

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
    ns2_measured: str | None = None
    """With `--referee ns2`: the same claim measured on ns-2's runs (reproduce/referee.py)."""
    ns2_verdict: str | None = None
    ns2_note: str = ""


@dataclass
class Table:
    title: str
    columns: list[str]
    rows: list[list[str]]
