"""A run's estimate before it starts (crates/sim/src/sim/estimate.rs, delaycc.workload): close to the
events the run then processes, where the work lies in simulated time (the progress bar's ETA), the line
and the long-run warning of ``delaycc run`` and ``delaycc sweep``, and ``--quiet``. Nothing here is timed:
the estimate is compared with event counts, and "long" runs are made long by a low events-per-second
rate (``DELAYCC_EVENTS_PER_S``), not by running them."""

from __future__ import annotations

import fcntl
import os
import pty
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

import delaycc
from delaycc.progress import WORK_STEPS, work_done
from delaycc.sweep import estimate as sweep_estimate
from delaycc.workload import EVENTS_PER_S_VARIABLE, LONG_RUN_S, duration, events_per_s

from conftest import ROOT, SCENARIOS, read_pty, run_cli

FACTOR = 1.5
"""The estimate of each scenario below is within this factor of the run's events (docs/performance.md,
"Estimating a run", lists the estimate against the run for every scenario of the repository)."""

CHECKED = [
    "dumbbell-newreno.toml",  # one bottleneck, loss-based flows
    "fast-staggered.toml",  # flows joining and leaving
    "cbr-overload.toml",  # a source over capacity starving a flow for a while
    "reroute-and-link-change.toml",  # scenario events: a reroute and a bandwidth change
    "crosscheck/parking-lot.toml",  # several bottlenecks, max-min sharing
    "crosscheck/asymmetric.toml",  # Vegas held back by its ACKs on a thin reverse path
    "papers/alt-asym-k.toml",  # Vegas-ALT on the same path, not held back
]

# A dumbbell whose numbers are easy to check by hand: 10 Mb/s for 20 s in 1000-byte packets is 25 000
# data packets; three hops each way, one event per packet and hop, an ACK per packet: 150 000 events.
DUMBBELL = """name = "known"
duration = "20s"
packet_size = 1000
sample_interval = "100ms"
[[links]]
a = "s"
b = "r1"
bandwidth = "100Mbps"
delay = "1ms"
[[links]]
id = "bottleneck"
a = "r1"
b = "r2"
bandwidth = "10Mbps"
delay = "20ms"
buffer = 100
[[links]]
a = "r2"
b = "d"
bandwidth = "100Mbps"
delay = "1ms"
{flows}"""


def flows(n: int, algorithm: str = "newreno", second_start: str = "0s") -> str:
    out = ""
    for i in range(n):
        start = second_start if i else "0s"
        out += f'[[flows]]\nalgorithm = "{algorithm}"\nsrc = "s"\ndst = "d"\nstart = "{start}"\n'
    return out


def within(estimated: float, actual: float, factor: float = FACTOR) -> bool:
    return actual / factor <= estimated <= actual * factor


@pytest.mark.parametrize("name", CHECKED)
def test_the_estimate_is_within_a_factor_of_the_run(name: str) -> None:
    path = SCENARIOS / name
    est = delaycc.estimate(path)
    summary = delaycc.run(path).summary
    assert within(est.events, summary["events"]), f"{name}: estimated {est.events}, ran {summary['events']}"
    sent = sum(f["sent_pkts"] for f in summary["flows"])
    assert within(est.data_packets, sent), f"{name}: estimated {est.data_packets} data packets, sent {sent}"


@pytest.mark.parametrize(("n", "algorithm"), [(1, "newreno"), (4, "newreno"), (3, "fast"), (2, "vegas")])
def test_a_known_dumbbell(n: int, algorithm: str) -> None:
    text = DUMBBELL.format(flows=flows(n, algorithm))
    est = delaycc.estimate(text)
    assert abs(est.data_packets - 25_000) < 1 and abs(est.acks - 25_000) < 1
    # Beyond the hops: 200 samples and each flow's start, retransmission timer and ticks.
    assert 150_000 <= est.events <= 150_000 + 200 + n * 200
    summary = delaycc.run(text).summary
    assert within(est.events, summary["events"], 1.2), (est.events, summary["events"])


def test_the_work_lies_where_the_flows_are_and_the_bar_follows_it() -> None:
    # One flow alone for 15 s, then two: the bottleneck is as busy throughout, so the work is even; a flow
    # starting only at 15 s leaves the first three quarters of simulated time nearly empty.
    even = delaycc.estimate(DUMBBELL.format(flows=flows(2, second_start="15s")))
    assert abs(work_done(even, 10.0) - WORK_STEPS / 2) <= 2
    late = DUMBBELL.format(flows=flows(1)).replace('start = "0s"', 'start = "15s"')
    est = delaycc.estimate(late)
    assert [t for t, _ in est.profile] == [0.0, 15.0, 20.0]
    assert work_done(est, 15.0) < WORK_STEPS * 0.01
    assert work_done(est, 17.5) == pytest.approx(WORK_STEPS / 2, abs=WORK_STEPS * 0.01)
    assert work_done(est, 20.0) == WORK_STEPS
    assert est.events_at(17.5) == pytest.approx(est.events / 2, rel=0.01)


def test_a_budget_bounds_the_estimated_time(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(EVENTS_PER_S_VARIABLE, "100")
    text = DUMBBELL.format(flows=flows(1))
    est = delaycc.estimate(text)
    assert est.long and est.wall_s == est.events / 100
    bounded = delaycc.estimate(text, max_events=10_000)
    assert bounded.events == est.events and bounded.events_run == 10_000
    assert not bounded.long and bounded.wall_s == 100.0
    in_file = delaycc.estimate(text + "[limits]\nmax_events = 20000\n")
    assert in_file.events_run == 20_000


def test_the_rate_comes_from_the_environment_when_it_is_a_positive_number(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for text, rate in (("2e6", 2e6), ("0", None), ("-5", None), ("fast", None), ("inf", None)):
        monkeypatch.setenv(EVENTS_PER_S_VARIABLE, text)
        assert events_per_s() == (rate or delaycc.workload.EVENTS_PER_S)
    assert duration(LONG_RUN_S) == "10 min" and duration(0.2) == "under 1 s"
    assert duration(5400) == "90 min" and duration(9000) == "2.5 h"


def test_an_invalid_scenario_has_no_estimate() -> None:
    with pytest.raises(delaycc.ScenarioError) as e:
        delaycc.estimate(DUMBBELL.format(flows=flows(1)).replace("10Mbps", "10Mbs"))
    assert "'10Mbs' is not a rate" in e.value.errors[0]


def cli(*args: str, rate: str | None = None) -> subprocess.CompletedProcess[str]:
    """The command with the machine's speed for the estimate fixed at ``rate`` events/s, or measured."""
    return run_cli(*args, env_changes={EVENTS_PER_S_VARIABLE: rate})


def test_estimate_only_warns_about_a_long_run_without_running_it(tmp_path: Path) -> None:
    # Three hours at 10 Gb/s: tens of billions of events, hours at any rate this engine reaches.
    big = tmp_path / "big.toml"
    big.write_text(
        'name = "big"\nduration = "10800s"\n[[links]]\na = "s"\nb = "d"\nbandwidth = "10Gbps"\n'
        'delay = "10ms"\n[[flows]]\nalgorithm = "newreno"\nsrc = "s"\ndst = "d"\n'
    )
    out = tmp_path / "out"
    p = cli("run", str(big), "--estimate", "--out", str(out))
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith(f"delaycc: {big}: estimated 27 G packets, 27 G events")
    assert p.stderr.startswith(f"delaycc: warning: {big} is estimated to take ")
    assert "more than 10 min" in p.stderr and len(p.stderr.splitlines()) == 1
    assert not out.exists(), "--estimate does not run"
    bounded = cli("run", str(big), "--estimate", "--max-events", "1000000")
    assert bounded.returncode == 0 and "max_events stops it at 1 M" in bounded.stdout
    assert bounded.stderr == ""


def test_quiet_silences_the_warning_and_a_run_warns_without_it(tmp_path: Path) -> None:
    scenario = tmp_path / "known.toml"
    scenario.write_text(DUMBBELL.format(flows=flows(1)))
    # At 100 events per second these 150 000 events are "25 min": a warning, though the run takes a moment.
    loud = cli("run", str(scenario), "--no-figures", rate="100")
    assert loud.returncode == 0, loud.stderr
    assert loud.stderr.startswith(f"delaycc: warning: {scenario} is estimated to take 25 min")
    assert len(loud.stderr.splitlines()) == 1, "no estimate line nor bar when stderr is not a terminal"
    quiet = cli("run", str(scenario), "--no-figures", "-q", rate="100")
    assert quiet.returncode == 0 and quiet.stderr == "" and quiet.stdout == ""
    normal = cli("run", str(scenario), "--no-figures")
    assert normal.returncode == 0 and normal.stderr == ""


def test_a_sweep_warns_about_the_runs_it_has_left(tmp_path: Path) -> None:
    (tmp_path / "base.toml").write_text(DUMBBELL.format(flows=flows(1)).replace('"20s"', '"2s"'))
    sweep = tmp_path / "sweep.toml"
    sweep.write_text('name = "w"\nbase = "base.toml"\n[axes]\nseed = [1, 2]\n')
    out = tmp_path / "out"
    # Two runs of about 15 000 events on one worker at 20 events/s: 25 min.
    p = cli("sweep", str(sweep), "--out", str(out), "--workers", "1", rate="20")
    assert p.returncode == 0, p.stderr
    assert "delaycc: warning: sweep w is estimated to take 25 min" in p.stderr
    again = cli("sweep", str(sweep), "--out", str(out), "--workers", "1", rate="20")
    assert again.returncode == 0 and again.stderr == "", "nothing left to do, nothing to warn about"
    assert sweep_estimate(sweep, out) == ("w", 0, 0)


def test_on_a_terminal_the_run_shows_its_estimate_first() -> None:
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    env = dict(os.environ, PYTHONWARNINGS="ignore")
    env.pop(EVENTS_PER_S_VARIABLE, None)
    scenario = SCENARIOS / "dumbbell-newreno.toml"
    proc = subprocess.Popen(
        [sys.executable, "-m", "delaycc", "run", str(scenario), "--no-figures"],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=slave,
        env=env,
    )
    os.close(slave)
    try:
        shown = read_pty(master, timeout_s=120).decode(errors="replace")
        assert proc.wait(timeout=120) == 0, shown
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    # The line comes first; a bar (if the machine is slow enough for one) would follow and clear itself.
    lines = shown.strip().splitlines()
    assert lines[0].startswith(f"delaycc: {scenario}: estimated 150 k packets, 453 k events")
    assert lines[0].endswith("under 1 s at 5 M events/s")
