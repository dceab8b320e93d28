"""Turns what a user passes to ``run``/``validate`` (a path, TOML text or a dict) into text for the engine.

Everything a user can get wrong here becomes a ScenarioError whose lines read like the engine's
(``name[:line]: key.path: reason``), or a TypeError when the argument is not a scenario at all.
"""

from __future__ import annotations

import json
import math
import numbers
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import ScenarioError

ScenarioLike = str | os.PathLike[str] | Mapping[str, Any]

DICT = "<dict>"
STRING = "<string>"
# Scenarios are a few levels deep; anything deeper is a mistake, and Python's recursion limit is not far.
MAX_DEPTH = 64
INT_MIN, INT_MAX = -(2**63), 2**63 - 1


@dataclass(frozen=True)
class ScenarioSource:
    text: str
    name: str
    """Shown in error messages: the file path, ``<string>`` or ``<dict>``."""
    format: str
    """``toml`` or ``json``."""


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _bad_unicode(s: str) -> int | None:
    """Index of the first character that UTF-8 cannot encode (a lone surrogate), if any."""
    try:
        s.encode("utf-8")
    except UnicodeEncodeError as e:
        return e.start
    return None


class _JsonTree:
    """Converts a dict to plain JSON values, collecting one message per value JSON or TOML cannot hold."""

    def __init__(self) -> None:
        self.problems: list[str] = []

    def problem(self, path: str, reason: str) -> None:
        self.problems.append(f"{DICT}: {path}: {reason}" if path else f"{DICT}: {reason}")

    def convert(self, value: Any, path: str, depth: int) -> Any:
        if depth > MAX_DEPTH:
            self.problem(path, f"is nested more than {MAX_DEPTH} levels deep")
            return None
        if value is None:
            self.problem(path, "None is not a valid value")
        elif isinstance(value, bool):
            return value
        elif isinstance(value, numbers.Integral):
            n = int(value)
            if INT_MIN <= n <= INT_MAX:
                return n
            self.problem(path, "integer does not fit in 64 bits")
        elif isinstance(value, numbers.Real):
            x = float(value)
            if math.isfinite(x):
                return x
            self.problem(path, "must be a finite number")
        elif isinstance(value, str):
            bad = _bad_unicode(value)
            if bad is None:
                return value
            self.problem(path, f"character {bad} of the string is not valid Unicode (a lone surrogate)")
        elif isinstance(value, Mapping):
            out: dict[str, Any] = {}
            for k, v in value.items():
                if not isinstance(k, str):
                    self.problem(_join(path, repr(k)), f"keys must be strings, not {type(k).__name__}")
                    continue
                out[k] = self.convert(v, _join(path, k), depth + 1)
            return out
        elif isinstance(value, list | tuple):
            return [self.convert(v, f"{path}[{i}]", depth + 1) for i, v in enumerate(value)]
        else:
            self.problem(path, f"{type(value).__name__} is not a valid value")
        return None


def _from_dict(scenario: Mapping[str, Any]) -> ScenarioSource:
    tree = _JsonTree()
    plain = tree.convert(scenario, "", 0)
    if tree.problems:
        raise ScenarioError(tree.problems)
    return ScenarioSource(json.dumps(plain), DICT, "json")


def _read_file(raw: str) -> ScenarioSource:
    try:
        data = Path(raw).read_bytes()
    except FileNotFoundError:
        raise ScenarioError([f"{raw}: no such file"]) from None
    except IsADirectoryError:
        raise ScenarioError([f"{raw}: is a directory, not a scenario file"]) from None
    except ValueError:  # a NUL character in the path
        shown = raw.replace("\0", "\\0")
        raise ScenarioError([f"{shown}: is not a valid path (it contains a NUL character)"]) from None
    except OSError as e:
        raise ScenarioError([f"{raw}: cannot be read: {e.strerror or e}"]) from None
    try:
        # utf-8-sig: a byte-order mark (as some Windows editors write) is not part of the scenario.
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        byte = data[e.start]
        reason = f"byte {e.start} (0x{byte:02x}) cannot be decoded; save the file as UTF-8"
        raise ScenarioError([f"{raw}:{line}: not UTF-8 text: {reason}"]) from None
    # A file name the OS gave as undecodable bytes (surrogate escapes) is shown with backslash escapes.
    name = raw.encode("utf-8", "backslashreplace").decode("utf-8")
    return ScenarioSource(text, name, "toml")


def resolve(scenario: ScenarioLike) -> ScenarioSource:
    if isinstance(scenario, Mapping):
        return _from_dict(scenario)
    if isinstance(scenario, str | os.PathLike):
        raw = os.fspath(scenario)
        if not isinstance(raw, str):
            raise TypeError(f"scenario path must be text, not {type(raw).__name__}")
        if isinstance(scenario, str):
            if not raw.strip():
                raise ScenarioError([f"{STRING}: is empty; pass a file path, TOML text or a dict"])
            if "\n" in raw and "=" in raw:
                bad = _bad_unicode(raw)
                if bad is not None:
                    reason = f"character {bad} is not valid Unicode (a lone surrogate)"
                    raise ScenarioError([f"{STRING}: {reason}"])
                return ScenarioSource(raw, STRING, "toml")
        return _read_file(raw)
    hint = "; decode bytes to str first" if isinstance(scenario, bytes | bytearray) else ""
    raise TypeError(f"scenario must be a path, TOML text or a dict, not {type(scenario).__name__}{hint}")
