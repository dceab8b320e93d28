"""Units of scenario values, read in Python through the engine's own parser (delaycc.units -> _core)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from delaycc import units


@pytest.mark.parametrize(
    ("value", "seconds"),
    [("20ms", 0.02), ("1.5s", 1.5), ("3 us", 3e-6), ("7ns", 7e-9), ("2", 2.0), (5, 5.0), (0.25, 0.25)],
)
def test_durations_read_as_the_engine_reads_them(value: str | float, seconds: float) -> None:
    assert units.duration_s(value) == seconds


def test_durations_are_the_engines_nanoseconds() -> None:
    # 18 * 1e-3 is 0.018000000000000002 in floating point; the engine holds 18 000 000 ns.
    assert units.duration_s("18ms") == 0.018


@pytest.mark.parametrize(
    ("value", "bps"), [("100Mbps", 100e6), ("160kbps", 160e3), ("1.5Gbps", 1.5e9), (1000, 1000.0)]
)
def test_rates(value: str | float, bps: float) -> None:
    assert units.rate_bps(value) == bps


@pytest.mark.parametrize(
    ("value", "size"), [("1MB", 1e6), ("64KiB", 65536.0), ("1GiB", 2.0**30), ("1500", 1500.0), (40, 40.0)]
)
def test_sizes(value: str | float, size: float) -> None:
    assert units.size_bytes(value) == size


@pytest.mark.parametrize(
    ("parse", "value", "message"),
    [
        (units.duration_s, "20 msec", "'20 msec' is not a duration; use e.g. '20ms' or '1.5s'"),
        (units.duration_s, -1, "must not be negative"),
        (units.duration_s, True, "must be a duration such as '20ms', not boolean"),
        (units.rate_bps, "100Mbs", "'100Mbs' is not a rate; use e.g. '100Mbps'"),
        (units.rate_bps, float("inf"), "must be a finite number"),
        (units.size_bytes, "1 parsec", "'1 parsec' is not a size; use e.g. '1500B', '64KB' or '1MiB'"),
        (units.size_bytes, None, "must be a size such as '1500B', not NoneType"),
    ],
)
def test_bad_values_give_the_engines_one_line_reason(
    parse: Callable[[Any], float], value: object, message: str
) -> None:
    with pytest.raises(ValueError) as e:
        parse(value)
    assert str(e.value) == message
