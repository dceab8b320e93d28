"""Every experiment of the papers (p000..p004), by id, the experiments beyond them (beyond.py), and choosing
them by target: all (the papers), demo, beyond, a paper or one experiment. Worker processes look
experiments up here by id (`REGISTRY`; experiments hold functions, which do not pickle)."""

from __future__ import annotations

import dataclasses

from . import beyond, family, p000, p001, p002, p003, p004
from .model import Experiment

EXPERIMENTS: dict[str, Experiment] = {e.id: e for m in (p000, p001, p002, p003, p004) for e in m.EXPERIMENTS}
PAPERS = sorted({e.paper for e in EXPERIMENTS.values()})
# Our own hypotheses beyond the papers (docs/beyond.md). `all` leaves them out: it is the papers'
# reproduction, whose report, verdict counts and run time stay as they were; `beyond` runs them.
BEYOND: dict[str, Experiment] = {e.id: e for m in (beyond, family) for e in m.EXPERIMENTS}
REGISTRY: dict[str, Experiment] = {**EXPERIMENTS, **BEYOND}
# A quick subset for `make demo`: one experiment of each paper, the quick ones, with ensembles of two runs
# (enough to show the spread and the runs held, and `make demo` takes no longer than with one run each).
DEMO = ("vfast-I", "rttbased-simple", "rttbased-parkinglot", "emfast-single", "alt-asym-k")
DEMO_ENSEMBLE = 2


def select(target: str) -> list[Experiment]:
    """'all' (the papers), 'demo', 'beyond', a paper tag (P000..P004) or an experiment id."""
    if target == "all":
        return list(EXPERIMENTS.values())
    if target == "demo":
        return [dataclasses.replace(EXPERIMENTS[i], seeds=EXPERIMENTS[i].seeds[:DEMO_ENSEMBLE]) for i in DEMO]
    if target == "beyond":
        return list(BEYOND.values())
    if target.upper() in PAPERS:
        return [e for e in EXPERIMENTS.values() if e.paper == target.upper()]
    if target in REGISTRY:
        return [REGISTRY[target]]
    known = ", ".join(["all", "demo", "beyond", *PAPERS, *REGISTRY])
    raise ValueError(f"unknown experiment or paper '{target}'; choose one of: {known}")
