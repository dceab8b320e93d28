"""A progress bar in simulated seconds, shown only on a terminal and only for runs longer than a moment."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from tqdm import tqdm

# Runs shorter than this (wall-clock seconds) never show a bar.
SHOW_AFTER_S = 2.0


@contextmanager
def sim_progress(total_s: float, label: str, enabled: bool | None = None) -> Iterator[Callable[[float], Any]]:
    """Yields a callback for ``delaycc.run(progress=...)``. Disabled when stderr is not a terminal."""
    if enabled is None:
        enabled = sys.stderr.isatty()
    if not enabled:
        yield lambda _t: None
        return
    bar = tqdm(
        total=round(total_s, 3),
        desc=label,
        unit="sim-s",
        delay=SHOW_AFTER_S,
        leave=False,
        file=sys.stderr,
        bar_format="{desc}: {percentage:3.0f}%|{bar}| {n:.1f}/{total:.1f} sim-s [{elapsed}<{remaining}]",
    )

    def update(t: float) -> None:
        bar.update(max(0.0, round(t, 3) - bar.n))

    try:
        yield update
    finally:
        bar.close()
