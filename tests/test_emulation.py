"""Acceptance of the emulation (issue #10), on real kernel TCP in namespaces; needs root.

Each (scenario, algorithm) pair is simulated and emulated once per module (15 or 20 s of emulated time
each, `_duration`) and shared by the tests that look at it, so the whole file takes about four minutes.
"""

from __future__ import annotations

import numbers
import os
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

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
from delaycc.emulate import emulate
from delaycc.emulate.compare import RTT_TOLERANCE, THROUGHPUT_TOLERANCE, diff
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


# The kernel's BPF FAST family updates once per (other) round: the simulator runs that cadence too.
PARAMS = {a: f'alpha = {ALPHA}\ncadence = "round"' for a in ("fast", "vfast", "rrfast")}
PARAMS["cubic"] = "hystart = true"  # what Linux's cubic does (docs/kernel.md)


LONG_RUNS = {"vegas", "reno", "cubic"}
"""Emulated for the scenarios' own 20 s, the others for 15 s. Vegas leaves slow start one doubling late
(both versions) and needs ~10 s to drain that queue. Reno's and cubic's sawtooth lasts about 13 s on both
reference dumbbells, and a 15 s window ends at the simulator's first loss after slow start: the kernel, with
SACK instead of a timeout and its first loss a little earlier, is by then in its next cycle, at the lowest
RTTs, so reno's 15 s mean RTT came out 1 % to 19 % below the simulator's on faithful runs, as that loss fell
1 to 3 s earlier. Over 20 s, which holds that loss in both, it was within 8 % in all 14 runs, faithful or
not, and cubic's within 11 % (docs/kernel.md)."""


def _duration(algorithm: str) -> str:
    return "20s" if algorithm in LONG_RUNS else "15s"


@cache
def pair(base: Path, algorithm: str) -> tuple[Result, Result]:
    """(simulated, emulated) results of the base scenario with the given algorithm."""
    path = variant(base, _tmp(), algorithm, PARAMS.get(algorithm, ""), _duration(algorithm))
    return delaycc.run(str(path)), emulate(path)


DISTURBED_STREAK_LIMIT = 4
"""After this many disturbed emulations in a row the machine is taken as disturbed for now: a failing check
is then not emulated again, to keep the module's time bounded."""
_streak = [0]


def _emulate_again(base: Path, algorithm: str) -> Result:
    return emulate(variant(base, _tmp(), algorithm, PARAMS.get(algorithm, ""), _duration(algorithm)))


def _fidelity(k: Result) -> dict[str, Any]:
    fidelity: dict[str, Any] = k.summary["emulation"]["fidelity"]
    _streak[0] = _streak[0] + 1 if fidelity["disturbed"] else 0
    return fidelity


def checked(base: Path, algorithm: str, check: Callable[[Result, Result], None]) -> None:
    """Runs `check(simulated, emulated)`; if it fails, once more on a fresh emulation, which decides.

    Two things vary between emulations of one scenario. Kernel TCP itself: on faithful 20 s runs, reno's
    and cubic's mean RTT came out up to 7 % and 11 % below the simulator's, as their start-up and loss
    recovery played out differently (`LONG_RUNS`). And the machine: an emulation whose timing it disturbed
    (summary.json's `emulation.fidelity`, docs/kernel.md: the hypervisor stealing CPU time, a late delay
    line) cannot decide at all. So the fresh emulation decides if it was faithful; a failure on a faithful
    first one stands if the fresh one was disturbed; when both were disturbed the test is skipped with the
    measured disturbances, never passed."""
    sim, k = pair(base, algorithm)
    disturbances: list[str] = []
    faithful_failure: AssertionError | None = None
    for attempt in range(2):
        if attempt:
            k = _emulate_again(base, algorithm)
        fidelity = _fidelity(k)
        try:
            check(sim, k)
            return
        except AssertionError as e:
            print(f"{base.stem} {algorithm}: attempt {attempt + 1} failed ({e}): {fidelity}")
            if not fidelity["disturbed"]:
                faithful_failure = AssertionError(f"{e}\non a faithful emulation: {fidelity}")
            else:
                disturbances.append("; ".join(fidelity["disturbances"]))
        if _streak[0] >= DISTURBED_STREAK_LIMIT and faithful_failure is None:
            break
    if faithful_failure is not None:
        raise faithful_failure
    pytest.skip(f"{base.stem} {algorithm}: undecidable, the machine disturbed the emulation's timing: "
                + " | ".join(disturbances))  # fmt: skip


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
        # alpha = 1, beta = 3 (ns-2's defaults); the simulator holds 3.0. The tbf queue also holds the packet
        # being sent (it waits there for its tokens), hence up to beta + 1; and Vegas reads its backlog
        # from the round's *minimum* RTT, so the mean queue over the round is above what it sees (faithful
        # runs: 3.7 to 4.6), hence one more. Half a packet below alpha for the sampling.
        assert 0.5 <= queue <= 5.0, queue

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


def test_every_emulation_reports_its_timing_fidelity() -> None:
    """The delay line accounts for every packet that crossed the bottleneck (data one way, ACKs back) and
    reports how late it released them; the CPU steal is a share of the run's CPU time."""
    _, k = pair(DUMBBELL, "reno")
    f = k.summary["emulation"]["fidelity"]
    crossed = sum(ln["pkts_sent"] for ln in k.summary["links"] if ln["id"] == "bottleneck")
    assert abs(f["delay_line_packets"] - crossed) <= 0.01 * crossed, (f, crossed)
    assert 0 <= f["delay_line_late_p50_s"] <= f["delay_line_late_p99_s"] <= f["delay_line_late_max_s"] + 1e-5
    assert 0 <= f["delay_line_late_mean_s"] <= f["delay_line_late_max_s"]
    assert f["cpu_steal_fraction"] is None or 0 <= f["cpu_steal_fraction"] <= 1
    assert f["disturbed"] == bool(f["disturbances"])
