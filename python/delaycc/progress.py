"""A progress bar in simulated seconds, shown only on a terminal and only for runs longer than a moment.

Given the run's estimate (``workload.Estimate``), the bar advances by the share of the estimated events
done by the current simulated time rather than by simulated time itself, so its ETA holds when the work
is uneven over the run (flows joining late, a link speeding up): the remaining work divided by the rate
measured so far."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from tqdm import tqdm

from .workload import Estimate

# Runs shorter than this (wall-clock seconds) never show a bar.
SHOW_AFTER_S = 2.0

# The bar's length in steps when it counts the estimated work.
WORK_STEPS = 1000


def work_done(estimate: Estimate, t: float) -> int:
    """Steps of ``WORK_STEPS`` done by simulated time ``t``: the estimated events by then over all of
    them (simulated time over the duration when the estimate expects no events at all)."""
    total = estimate.events
    if total <= 0:
        end = estimate.profile[-1][0] if estimate.profile else 0.0
        return WORK_STEPS if end <= 0 else round(WORK_STEPS * min(1.0, max(0.0, t / end)))
    return round(WORK_STEPS * min(1.0, estimate.events_at(t) / total))


@contextmanager
def sim_progress(
    total_s: float, label: str, enabled: bool | None = None, estimate: Estimate | None = None
) -> Iterator[Callable[[float], Any]]:
    """Yields a callback for ``delaycc.run(progress=...)``. Disabled when stderr is not a terminal."""
    if enabled is None:
        enabled = sys.stderr.isatty()
    if not enabled:
        yield lambda _t: None
        return
    if estimate is None:
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

    else:
        # smoothing=0: the ETA divides the work left by the average rate so far; the work is already
        # spread by the estimate, so recent bursts say little about what remains.
        bar = tqdm(
            total=WORK_STEPS,
            desc=label,
            delay=SHOW_AFTER_S,
            leave=False,
            file=sys.stderr,
            smoothing=0,
            bar_format="{desc}: {percentage:3.0f}%|{bar}| [{elapsed}<{remaining}]",
        )
        width = len(f"{total_s:.1f}")

        def update(t: float) -> None:
            bar.set_description_str(f"{label} {t:{width}.1f}/{total_s:.1f} sim-s", refresh=False)
            bar.update(max(0, work_done(estimate, t) - bar.n))

    try:
        yield update
    finally:
        bar.close()
