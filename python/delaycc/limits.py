"""The budgets a caller may give a run (``max_events``, ``max_memory``): checked here, so a bad value is a
clean ``TypeError``/``ValueError`` naming the argument before anything runs."""

from __future__ import annotations

from . import _core

MAX_EVENTS_MAX = 2**63 - 1
"""Largest event budget, as in scenario files (TOML integers are signed 64-bit)."""


def max_events_arg(value: object) -> int | None:
    """``max_events``: None (the scenario's, else no limit) or a positive integer."""
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"max_events must be an integer, not {type(value).__name__} ({value!r})")
    if not 1 <= value <= MAX_EVENTS_MAX:
        raise ValueError(f"max_events must be in [1, 2**63 - 1], not {value}")
    return value


def max_memory_arg(value: object) -> int | None:
    """``max_memory``: None (the scenario's, else half the machine's memory), a number of bytes or a size
    with units as in scenario files ("2GiB", "512MB")."""
    if value is None:
        return None
    if isinstance(value, str):
        try:
            return _core.parse_size(value)
        except ValueError as e:
            raise ValueError(f"max_memory: {e}") from None
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"max_memory must be a number of bytes or a size such as '2GiB', not {value!r}")
    if not 1 <= value <= 2**60:
        raise ValueError(f"max_memory must be in [1, 2**60] bytes, not {value}")
    return value


def default_max_memory() -> int:
    """The memory budget of a run that sets none: half of the machine's (or its cgroup's) memory."""
    return _core.default_max_memory()
