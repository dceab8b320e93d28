"""Expanding an experiment into runs (algorithm x sweep point x seed), and running one."""

from __future__ import annotations

import copy
import random
import tomllib
from pathlib import Path
from typing import Any

import numpy as np

from .. import api
from ..keypath import set_path
from ..packaged import data_root
from ..result import Result
from ..units import duration_s
from .model import KEPT_FLOW_METRICS, KEPT_LINK_METRICS, Experiment, RunKey, RunResult


def scenario_for(exp: Experiment, key: RunKey, root: Path | None = None) -> dict[str, Any]:
    """The scenario of one run: the experiment's file with the algorithm, its parameters and streams put on
    the flows under test, the sweep value set, and the seed. ``exp.scenario`` is relative to ``root``
    (by default `packaged.data_root()`)."""
    root = data_root() if root is None else root
    doc = copy.deepcopy(tomllib.loads((root / exp.scenario).read_text()))
    _anchor_files(doc, (root / exp.scenario).parent)
    for flow in doc.get("flows", []):
        if flow.get("id") in exp.flows:
            flow["algorithm"] = key.algorithm
            flow["params"] = dict(exp.params.get(key.algorithm, {}))
            flow["streams"] = exp.streams.get(key.algorithm, 1)
    if exp.sweep is not None and key.point is not None:
        idx = list(exp.sweep.labels).index(key.point)
        value = exp.sweep.values[idx]
        if value is None:
            # The sweep's "no load" point: remove what the key belongs to.
            doc.pop(exp.sweep.key.split("[")[0], None)
        else:
            set_path(doc, exp.sweep.key, value)
    if exp.jitter_s > 0:
        # Each run of the ensemble starts every flow a little later, by an amount drawn from the run's seed
        # and the flow's id, the same for every algorithm, so that runs pair across algorithms (string
        # seeds make Python's generator reproducible across processes).
        for flow in doc.get("flows", []):
            rng = random.Random(f"{exp.id}/{key.point}/{key.seed}/{flow.get('id')}")
            flow["start"] = duration_s(flow.get("start", 0)) + rng.uniform(0, exp.jitter_s)
    if exp.vary is not None:
        exp.vary(doc, key, vary_generator(key))
    doc["seed"] = key.seed
    doc["name"] = f"{exp.id}-{key.algorithm}" + (f"-{key.point:g}" if key.point is not None else "")
    return doc


FILE_KEYS = ("bandwidth_trace", "reverse_bandwidth_trace")
"""Link keys that name a file relative to the scenario file's folder."""


def _anchor_files(doc: dict[str, Any], folder: Path) -> None:
    """Makes the files a link names absolute: the run gets the scenario as a dict, which has no folder of
    its own, so a relative path would be read from the working directory."""
    for link in doc.get("links", []):
        for key in FILE_KEYS:
            if isinstance(link.get(key), str) and not Path(link[key]).is_absolute():
                link[key] = str((folder / link[key]).resolve())


def vary_generator(key: RunKey) -> random.Random:
    """The generator `Experiment.vary` gets for a run: the same for every algorithm of a seed and sweep
    point, so runs pair; claims that need to know what was drawn call this again."""
    return random.Random(f"{key.experiment}/{key.point}/{key.seed}/vary")


def keys_for(exp: Experiment) -> list[RunKey]:
    points: list[float | None] = list(exp.sweep.labels) if exp.sweep else [None]
    return [RunKey(exp.id, alg, p, s) for alg in exp.compare for p in points for s in exp.seeds]


def run_one(exp: Experiment, key: RunKey, root: Path | None = None) -> RunResult:
    return kept(key, api.run(scenario_for(exp, key, root)))


def kept(key: RunKey, result: Result) -> RunResult:
    """The run's summary and the series claims and figures read (the rest is dropped to keep it small)."""
    n = len(result._times)
    kept: dict[tuple[str, str, str], np.ndarray] = {}
    for i, (kind, oid, metric) in enumerate(result._series):
        if (kind == "flow" and metric in KEPT_FLOW_METRICS) or (
            kind == "link" and metric in KEPT_LINK_METRICS
        ):
            kept[(kind, oid, metric)] = np.array(result._values[i * n : (i + 1) * n])
    return RunResult(key, result.summary, np.array(result._times), kept)
