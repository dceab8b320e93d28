"""Durations, rates and sizes of scenario files, read the way the simulator reads them (the engine has
already validated the file, so these only convert)."""

from __future__ import annotations

import re

_NUM = r"([0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?)"
_DURATION = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
_RATE = {"bps": 1.0, "kbps": 1e3, "mbps": 1e6, "gbps": 1e9}
_SIZE = {"b": 1.0, "kb": 1e3, "mb": 1e6, "kib": 1024.0, "mib": 1024.0**2}


def _parse(value: object, units: dict[str, float], what: str) -> float:
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not a {what}")
    if isinstance(value, int | float):
        return float(value)
    m = re.fullmatch(rf"\s*{_NUM}\s*([A-Za-z]+)\s*", str(value))
    if not m or m.group(2).lower() not in units:
        raise ValueError(f"{value!r} is not a {what}")
    return float(m.group(1)) * units[m.group(2).lower()]


def duration_s(value: object) -> float:
    return _parse(value, _DURATION, "duration")


def rate_bps(value: object) -> float:
    return _parse(value, _RATE, "rate")


def size_bytes(value: object) -> float:
    return _parse(value, _SIZE, "size")
