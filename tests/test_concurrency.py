"""Runs from several threads at once are safe: the engine releases the GIL and shares no state between runs,
so concurrent runs give exactly the summaries of sequential ones."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import delaycc

from conftest import SCENARIOS

# Eight shipped scenarios, including random loss and on/off sources (their own seeded random streams).
EIGHT = sorted(SCENARIOS.glob("*.toml"))[:8]


def summary(path: Path) -> dict[str, Any]:
    s = delaycc.run(path).summary
    s.pop("wall_s")
    return s


def test_eight_scenarios_on_four_threads_match_sequential_runs() -> None:
    assert len(EIGHT) == 8
    sequential = [summary(p) for p in EIGHT]
    with ThreadPoolExecutor(max_workers=4) as pool:
        concurrent = list(pool.map(summary, EIGHT))
    for path, a, b in zip(EIGHT, sequential, concurrent, strict=True):
        assert a == b, path.name


def test_the_same_scenario_on_four_threads_at_once() -> None:
    path = SCENARIOS / "asymmetric-onoff.toml"
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(summary, [path] * 4))
    assert all(r == results[0] for r in results)


def test_python_threads_keep_running_while_the_engine_works() -> None:
    """If a run held the GIL, this thread could not count at all until it finished."""
    done = threading.Event()

    def work() -> None:
        delaycc.run(SCENARIOS / "rrfast-reroute.toml")
        done.set()

    worker = threading.Thread(target=work)
    worker.start()
    spins = 0
    while not done.is_set():
        spins += 1
    worker.join()
    assert spins > 10_000
