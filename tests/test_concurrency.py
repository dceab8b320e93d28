"""Runs from several threads at once are safe: the engine releases the GIL and shares no state between runs,
so concurrent runs give exactly the summaries of sequential ones."""

from __future__ import annotations

import threading
import time
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


def everything(path: Path) -> tuple[dict[str, Any], list[tuple[str, str, str]], bytes]:
    """A run's summary (without its wall time), series names and every time-series value, bit for bit."""
    r = delaycc.run(path)
    s = dict(r.summary)
    s.pop("wall_s")
    return s, list(r._series), r._values.tobytes()


def test_four_runs_started_together_on_four_threads_match_sequential_runs() -> None:
    paths = EIGHT[:4]
    sequential = [everything(p) for p in paths]
    start = threading.Barrier(4)

    def at_once(path: Path) -> tuple[dict[str, Any], list[tuple[str, str, str]], bytes]:
        start.wait(timeout=60)
        return everything(path)

    with ThreadPoolExecutor(max_workers=4) as pool:
        concurrent = list(pool.map(at_once, paths))
    for path, a, b in zip(paths, sequential, concurrent, strict=True):
        assert a == b, path.name


def test_two_runs_are_inside_the_engine_at_the_same_time() -> None:
    """Two runs started together overlap in time, and Python code keeps running during the overlap. Without
    a progress callback a run executes no Python code, so if it held the GIL while simulating, the other
    thread could not even start its run until the first returned, and the counting loop here would stand
    still. (Timing is not asserted: on a busy machine the overlap may be short; it must exist.)"""
    heavy = {
        "name": "heavy",
        "duration": 20,
        "links": [{"a": "s", "b": "d", "bandwidth": "1Gbps", "delay": "10ms"}],
        "flows": [{"algorithm": "newreno", "src": "s", "dst": "d"} for _ in range(4)],
    }
    spans: dict[int, tuple[float, float]] = {}
    start = threading.Barrier(3)

    def work(i: int) -> None:
        start.wait(timeout=60)
        t0 = time.perf_counter()
        delaycc.run(heavy)
        spans[i] = (t0, time.perf_counter())

    threads = [threading.Thread(target=work, args=(i,)) for i in (0, 1)]
    for t in threads:
        t.start()
    start.wait(timeout=60)
    ticks: list[float] = []
    while any(t.is_alive() for t in threads):
        ticks.append(time.perf_counter())
    for t in threads:
        t.join()
    begin, end = max(s[0] for s in spans.values()), min(s[1] for s in spans.values())
    assert begin < end, f"the runs did not overlap: {spans}"
    during = sum(begin < t < end for t in ticks)
    assert during > 1000, f"Python ran {during} loop iterations while both runs were in the engine"
