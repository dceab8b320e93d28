"""Durations, rates and sizes of scenario files, read by the engine's own parser (the Rust ``units``
module, through ``_core``), so Python and the simulator can never read a value differently.

Each takes what a scenario holds: a string with a unit ("20ms", "100Mbps", "64KiB") or a bare number
(seconds, bits per second, bytes). The readers that call these run on scenarios the engine has already
validated, whose bad values it reports as ``file[:line]: key: reason``; a value that was not validated
raises ValueError with the engine's one-line reason."""

from __future__ import annotations

from . import _core


def duration_s(value: str | float) -> float:
    """Seconds, rounded to the engine's nanoseconds."""
    return _core.parse_duration(value)


def rate_bps(value: str | float) -> float:
    """Bits per second (decimal prefixes: kbps, Mbps, Gbps)."""
    return _core.parse_rate(value)


def size_bytes(value: str | float) -> float:
    """Bytes (B, KB, MB, GB, KiB, MiB, GiB); fractions and zero as the engine reads them."""
    return _core.parse_bytes(value)
