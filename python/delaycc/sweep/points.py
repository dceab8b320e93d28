"""Expanding a sweep into points: each point is a resolved scenario, named by a hash of its content."""

from __future__ import annotations

import copy
import hashlib
import itertools
import json
from dataclasses import dataclass
from typing import Any

from ..keypath import set_path
from .spec import SweepSpec


@dataclass(frozen=True)
class Point:
    index: int
    values: dict[str, Any]
    """Axis key -> value of this point."""
    scenario: dict[str, Any] | None
    """The resolved scenario, or None if an axis could not be applied (see `error`)."""
    error: str | None
    run_id: str


def run_id(scenario: dict[str, Any]) -> str:
    canonical = json.dumps(scenario, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()[:16]


def expand(spec: SweepSpec, where: str = "<sweep>") -> list[Point]:
    keys = list(spec.axes)
    combos = (
        zip(*spec.axes.values(), strict=True)
        if spec.mode == "zip"
        else itertools.product(*spec.axes.values())
    )
    points = []
    for i, combo in enumerate(combos):
        values = dict(zip(keys, combo, strict=True))
        doc = copy.deepcopy(spec.base)
        error = None
        for key, value in values.items():
            try:
                set_path(doc, key, value)
            except KeyError as e:
                error = f"{where}: axes.{e.args[0]}"
                break
        if error is None:
            doc["name"] = f"{spec.name}-{i}"
            points.append(Point(i, values, doc, None, run_id(doc)))
        else:
            points.append(Point(i, values, None, error, run_id({"error": error, **values})))
    return points
