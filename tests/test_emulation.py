"""Acceptance of the emulation (issue #10), on real kernel TCP in namespaces; needs root.

Each (scenario, algorithm) pair is simulated and emulated once per module (15 s of emulated time each)
and shared by the tests that look at it, so the whole file takes about three minutes.
"""

from __future__ import annotations

import numbers
import os
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest
from kernel_support import (
    DUMBBELL,
    LONG_RTT,
    our_namespaces,
    our_processes,
    registered_ours,
    requires_root,
    variant,
)

import delaycc
from delaycc.compare import RTT_TOLERANCE, THROUGHPUT_TOLERANCE, diff
from delaycc.emulate import emulate
from delaycc.result import Result

pytestmark = requires_root

ALPHA = 20
"""FAST-family alpha of the reference scenarios: 20 packets, 8 ms of queueing at 20 Mbps."""
RATE_PPS = 20e6 / 8000
BUFFER = 200
PRE_REGISTERED = set(registered_ours())


@cache
def _tmp() -> Path:
    import tempfile

    return Path(tempfile.mkdtemp(prefix="delaycc-test-emulation-"))


PARAMS = {"fast": f"alpha = {ALPHA}", "vfast": f"alpha = {ALPHA}", "rrfast": f"alpha = {ALPHA}"}
PARAMS["cubic"] = "hystart = true"  # what Linux's cubic does (docs/kernel.md)


def _duration(algorithm: str) -> str:
    # Vegas leaves slow start one doubling late (both versions) and needs ~10 s to drain that queue.
    return "20s" if algorithm == "vegas" else "15s"


@cache
def pair(base: Path, algorithm: str) -> tuple[Result, Result]:
    """(simulated, emulated) results of the base scenario with the given algorithm."""
    path = variant(base, _tmp(), algorithm, PARAMS.get(algorithm, ""), _duration(algorithm))
    return delaycc.run(str(path)), emulate(path)


def checked(base: Path, algorithm: str, check: Callable[[Result, Result], None]) -> None:
    """Runs `check(simulated, emulated)`; if it fails, once more on a fresh emulation, which decides.

    The delay line is a user-space process on a shared two-core machine: now and then something holds it
    up for milliseconds, which delay-based algorithms read as queueing (seen: kernel FAST at 17.1 instead
    of 19.5 Mb/s, Vegas's backlog at 9 instead of 3). Both outcomes are printed (docs/kernel.md).
    """
    sim, k = pair(base, algorithm)
    try:
        check(sim, k)
    except AssertionError as first:
        print(f"{base.stem} {algorithm}: first emulation failed ({first}); emulating again")
        check(sim, emulate(variant(base, _tmp(), algorithm, PARAMS.get(algorithm, ""), _duration(algorithm))))


def _bottleneck(r: Result) -> dict[str, float]:
    rows = r.links[(r.links["id"] == "bottleneck") & (r.links["direction"] == "a->b")]
    return {str(k): float(v) for k, v in rows.iloc[0].items() if isinstance(v, numbers.Number)}


def _steady(r: Result, metric: str, kind: str, name: str, after_s: float) -> float:
    s = r.series(kind, name, metric)
    return float(s[s.index > after_s].mean())


@pytest.mark.parametrize("algorithm", ["fast", "vfast", "rrfast"])
def test_fast_family_holds_alpha_over_rate_of_queueing(algorithm: str) -> None:
    def check(_: Result, k: Result) -> None:
        queue = _steady(k, "queue_pkts", "link", "bottleneck:a->b", 7.0)
        flow = k.summary["flows"][0]
        queueing_s = flow["mean_rtt_s"] - flow["min_rtt_s"]
        print(f"{algorithm}: steady queue {queue:.1f} pkts, queueing {queueing_s * 1e3:.1f} ms")
        assert 0.5 * ALPHA <= queue <= 1.5 * ALPHA, queue
        assert 0.5 * ALPHA / RATE_PPS <= queueing_s <= 1.5 * ALPHA / RATE_PPS, queueing_s
        assert _bottleneck(k)["drops"] == 0
        assert flow["throughput_bps"] > 0.9 * 20e6, flow["throughput_bps"]

    checked(DUMBBELL, algorithm, check)


def test_vegas_keeps_its_backlog_between_alpha_and_beta() -> None:
    def check(_: Result, k: Result) -> None:
        queue = _steady(k, "queue_pkts", "link", "bottleneck:a->b", 15.0)
        print(f"vegas: steady queue {queue:.1f} pkts")
        # alpha = 1, beta = 3 (ns-2's defaults). The tbf queue also holds the packet being sent (it waits
        # there for its tokens), hence up to beta + 1; half a packet below alpha for the sampling.
        assert 0.5 <= queue <= 4.0, queue

    checked(DUMBBELL, "vegas", check)


@pytest.mark.parametrize("algorithm", ["reno", "cubic"])
def test_loss_based_algorithms_fill_the_buffer(algorithm: str) -> None:
    def check(_: Result, k: Result) -> None:
        link = _bottleneck(k)
        print(f"{algorithm}: mean queue {link['mean_queue_pkts']:.1f}, max {link['max_queue_pkts']:.0f}")
        assert link["max_queue_pkts"] >= 0.9 * BUFFER
        assert link["drops"] > 0
        assert link["mean_queue_pkts"] > 2 * ALPHA

    checked(DUMBBELL, algorithm, check)


@pytest.mark.parametrize("base", [DUMBBELL, LONG_RTT], ids=["20mbps-40ms", "10mbps-80ms"])
@pytest.mark.parametrize("algorithm", ["reno", "cubic", "vegas", "fast"])
def test_simulator_and_kernel_agree(base: Path, algorithm: str) -> None:
    def check(sim: Result, k: Result) -> None:
        flow = diff(sim, k).flows[0]
        print(
            f"{base.stem} {algorithm}: throughput {flow['throughput_diff']:+.1%} "
            f"RTT {flow['mean_rtt_diff']:+.1%}"
        )
        assert abs(flow["throughput_diff"]) <= THROUGHPUT_TOLERANCE, flow
        assert abs(flow["mean_rtt_diff"]) <= RTT_TOLERANCE, flow

    checked(base, algorithm, check)


def test_nothing_is_left_after_the_runs() -> None:
    pair(DUMBBELL, "fast")
    prefix = f"dcck{os.getpid()}n"
    assert [n for n in our_namespaces() if n.startswith(prefix)] == []
    assert our_processes() == []
    assert set(registered_ours()) <= PRE_REGISTERED
