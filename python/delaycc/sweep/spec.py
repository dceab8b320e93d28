"""The sweep file: a base scenario, axes to vary, how to combine them, which metrics to keep.

base = "../scenarios/dumbbell-newreno.toml"   # relative to the sweep file (or an inline [base] table)
mode = "grid"                                  # grid (every combination, default) or zip (i-th with i-th)
metrics = ["flow.*.throughput_bps", "fairness_jain"]   # column patterns to keep (default: all)
[axes]
"flows[*].algorithm" = ["fast", "vfast"]
"flows[0].params.alpha" = [2, 10, 50, 200]
seed = "1..10"                                 # a range, inclusive, or a list
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import ScenarioError
from ..keypath import parse

KEYS = {"base", "mode", "metrics", "axes", "name"}


@dataclass
class SweepSpec:
    name: str
    base: dict[str, Any]
    axes: dict[str, list[Any]]
    mode: str = "grid"
    metrics: list[str] = field(default_factory=list)


def _range(text: str) -> list[int] | None:
    lo, sep, hi = text.partition("..")
    if not sep or not lo.strip().lstrip("-").isdigit() or not hi.strip().lstrip("-").isdigit():
        return None
    a, b = int(lo), int(hi)
    return list(range(a, b + 1)) if b >= a else None


def load(path: Path) -> SweepSpec:
    """Reads and checks a sweep file; every problem is one line naming the file and key."""
    where = str(path)
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ScenarioError([f"{where}: no such file"]) from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise ScenarioError([f"{where}: invalid TOML: {e}"]) from None
    errors = [
        f"{where}: {k}: unknown key; allowed keys: {', '.join(sorted(KEYS))}" for k in doc if k not in KEYS
    ]
    base_raw = doc.get("base")
    base: dict[str, Any] = {}
    if isinstance(base_raw, str):
        base_path = (path.parent / base_raw).resolve()
        try:
            base = tomllib.loads(base_path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            errors.append(f"{where}: base: no such file '{base_raw}' (relative to the sweep file)")
        except tomllib.TOMLDecodeError as e:
            errors.append(f"{where}: base: '{base_raw}' is not valid TOML: {e}")
    elif isinstance(base_raw, dict):
        base = base_raw
    else:
        errors.append(f"{where}: base: required, a scenario file path or an inline table")
    mode = doc.get("mode", "grid")
    if mode not in ("grid", "zip"):
        errors.append(f"{where}: mode: '{mode}' is not 'grid' or 'zip'")
    metrics = doc.get("metrics", [])
    if not isinstance(metrics, list) or not all(isinstance(m, str) for m in metrics):
        errors.append(f"{where}: metrics: must be a list of column names or patterns")
        metrics = []
    axes: dict[str, list[Any]] = {}
    raw_axes = doc.get("axes", {})
    if not isinstance(raw_axes, dict) or not raw_axes:
        errors.append(f"{where}: axes: required, a table of key path = list of values")
        raw_axes = {}
    for key, values in raw_axes.items():
        try:
            parse(key)
        except ValueError as e:
            errors.append(f"{where}: axes.{key}: {e}")
            continue
        if isinstance(values, str) and (r := _range(values)) is not None:
            values = r
        if not isinstance(values, list) or not values:
            errors.append(
                f"{where}: axes.{key}: must be a non-empty list of values or a range such as '1..10'"
            )
            continue
        axes[key] = values
    if mode == "zip" and len({len(v) for v in axes.values()}) > 1:
        lengths = ", ".join(f"{k}: {len(v)}" for k, v in axes.items())
        errors.append(f"{where}: axes: zip mode needs axes of equal length ({lengths})")
    if errors:
        raise ScenarioError(errors)
    return SweepSpec(doc.get("name", path.stem), base, axes, mode, metrics)
