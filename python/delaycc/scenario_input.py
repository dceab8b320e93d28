"""Turns what a user passes to ``run``/``validate`` (a path, TOML text or a dict) into text for the engine."""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import ScenarioError

ScenarioLike = str | os.PathLike[str] | Mapping[str, Any]


@dataclass(frozen=True)
class ScenarioSource:
    text: str
    name: str
    """Shown in error messages: the file path, or ``<dict>``."""
    format: str
    """``toml`` or ``json``."""


def _check_json_values(value: Any, path: str) -> list[str]:
    """JSON has no NaN/infinity and no None in TOML terms: report them by key path before encoding."""
    problems: list[str] = []
    if value is None:
        problems.append(f"<dict>: {path}: None is not a valid value")
    elif isinstance(value, float) and not math.isfinite(value):
        problems.append(f"<dict>: {path}: must be a finite number")
    elif isinstance(value, Mapping):
        for k, v in value.items():
            if not isinstance(k, str):
                problems.append(f"<dict>: {path}: keys must be strings, not {type(k).__name__}")
                continue
            problems.extend(_check_json_values(v, f"{path}.{k}" if path else k))
    elif isinstance(value, list | tuple):
        for i, v in enumerate(value):
            problems.extend(_check_json_values(v, f"{path}[{i}]"))
    elif not isinstance(value, str | int | float | bool):
        problems.append(f"<dict>: {path}: {type(value).__name__} is not a valid value")
    return problems


def resolve(scenario: ScenarioLike) -> ScenarioSource:
    if isinstance(scenario, Mapping):
        problems = _check_json_values(scenario, "")
        if problems:
            raise ScenarioError(problems)
        return ScenarioSource(json.dumps(scenario), "<dict>", "json")
    if isinstance(scenario, str | os.PathLike):
        raw = os.fspath(scenario)
        if isinstance(scenario, str) and "\n" in raw and "=" in raw:
            return ScenarioSource(raw, "<string>", "toml")
        path = Path(raw)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            raise ScenarioError([f"{raw}: no such file"]) from None
        except IsADirectoryError:
            raise ScenarioError([f"{raw}: is a directory, not a scenario file"]) from None
        except OSError as e:
            raise ScenarioError([f"{raw}: cannot be read: {e.strerror}"]) from None
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise ScenarioError([f"{raw}: is not UTF-8 text (byte {e.start})"]) from None
        return ScenarioSource(text, raw, "toml")
    raise TypeError(f"scenario must be a path, TOML text or a dict, not {type(scenario).__name__}")
