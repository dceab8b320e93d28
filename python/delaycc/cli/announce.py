"""What ``run`` and ``sweep`` say before they start: the estimated work and time on a terminal, a warning
for anything estimated to take longer than ten minutes (terminal or not), nothing with --quiet; and
``run --estimate``, which says it and stops."""

from __future__ import annotations

import sys

from ..workload import Estimate, sweep_line


def before_run(estimate: Estimate, name: str, quiet: bool) -> None:
    """On stderr: the estimate's line when stderr is a terminal, its warning whenever there is one."""
    if quiet:
        return
    if sys.stderr.isatty():
        print(estimate.line(name), file=sys.stderr)
    warning = estimate.warning(name)
    if warning:
        print(warning, file=sys.stderr)


def before_sweep(name: str, runs: int, events: float, parallel: int | None, quiet: bool) -> None:
    """As ``before_run``, for the runs a sweep has left to do."""
    if quiet or runs == 0:
        return
    line, warning = sweep_line(name, runs, events, parallel)
    if sys.stderr.isatty():
        print(line, file=sys.stderr)
    if warning:
        print(warning, file=sys.stderr)


def estimate_only(estimate: Estimate, name: str) -> int:
    """``run --estimate``: the line on stdout, the warning on stderr; the run is not started."""
    print(estimate.line(name))
    warning = estimate.warning(name)
    if warning:
        print(warning, file=sys.stderr)
    return 0
