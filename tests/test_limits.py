"""Budgets (docs/scenario-format.md, Budgets): a run over its event or memory budget stops with its results
so far, marked partial; the API raises BudgetExceeded carrying them, the CLI writes them and exits 3."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import delaycc
from delaycc.limits import default_max_memory

from conftest import SCENARIOS, run_cli

SCENARIO = SCENARIOS / "dumbbell-newreno.toml"


def bulk(duration: float = 10, limits: dict[str, Any] | None = None) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "name": "bulk",
        "duration": duration,
        "links": [{"a": "s", "b": "d", "bandwidth": "10Mbps", "delay": "5ms"}],
        "flows": [{"algorithm": "newreno", "src": "s", "dst": "d"}],
    }
    if limits is not None:
        doc["limits"] = limits
    return doc


# A CBR source 10 000 times faster than its link into a buffer that never fills: the queue grows by
# about 1.25 million packets (over 100 MB) per simulated second.
FLOOD: dict[str, Any] = {
    "name": "flood",
    "duration": 10,
    "links": [{"a": "s", "b": "d", "bandwidth": "1Mbps", "delay": 0, "buffer": 10**9}],
    "traffic": [{"kind": "cbr", "src": "s", "dst": "d", "rate": "10Gbps"}],
}


def test_an_event_budget_raises_with_the_partial_results() -> None:
    with pytest.raises(delaycc.BudgetExceeded) as e:
        delaycc.run(bulk(), max_events=5000)
    err = e.value
    assert err.budget == "max_events" and isinstance(err, RuntimeError)
    assert str(err).startswith("stopped by max_events: the budget of 5000 events was spent at ")
    assert "\n" not in str(err)
    r = err.result
    assert r.partial and r.summary["partial"] is True and r.summary["complete"] is False
    assert r.summary["stop_reason"] == "max_events" and r.summary["events"] == 5000
    simulated = r.summary["simulated_s"]
    assert 0 < simulated < 10
    times = r.timeseries["time_s"].to_numpy()
    assert len(times) > 0 and times.max() <= simulated
    assert r.flows.loc[0, "received_pkts"] > 0


def test_the_scenarios_limits_table_applies_and_an_argument_replaces_it() -> None:
    with pytest.raises(delaycc.BudgetExceeded):
        delaycc.run(bulk(limits={"max_events": 5000}))
    r = delaycc.run(bulk(limits={"max_events": 5000}), max_events=10**12)
    assert not r.partial and r.summary["stop_reason"] is None and r.summary["stop_message"] is None


def test_a_memory_budget_stops_a_growing_queue() -> None:
    with pytest.raises(delaycc.BudgetExceeded) as e:
        delaycc.run(FLOOD, max_memory="16MiB")
    assert e.value.budget == "max_memory"
    assert "budget of 16.0 MiB" in str(e.value)
    s = e.value.result.summary
    assert s["memory_estimate_bytes"] > 16 * 2**20 and s["simulated_s"] < 10
    # Same with a number of bytes, and deterministic: the same event, the same results.
    with pytest.raises(delaycc.BudgetExceeded) as again:
        delaycc.run(FLOOD, max_memory=16 * 2**20)
    a, b = dict(s), dict(again.value.result.summary)
    a.pop("wall_s"), b.pop("wall_s")
    assert a == b


def test_a_run_within_its_budgets_is_complete_and_unchanged() -> None:
    plain = delaycc.run(SCENARIO)
    limited = delaycc.run(SCENARIO, max_events=plain.summary["events"], max_memory="1GiB")
    a, b = dict(plain.summary), dict(limited.summary)
    a.pop("wall_s"), b.pop("wall_s")
    assert a == b and a["partial"] is False
    assert np.array_equal(plain.timeseries["value"], limited.timeseries["value"], equal_nan=True)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"max_events": 0}, ValueError, r"max_events must be in \[1, 2\*\*63 - 1\], not 0"),
        ({"max_events": 2**63}, ValueError, "max_events must be in"),
        ({"max_events": 1.5}, TypeError, r"max_events must be an integer, not float \(1.5\)"),
        ({"max_events": True}, TypeError, "max_events must be an integer, not bool"),
        ({"max_events": "100"}, TypeError, "max_events must be an integer, not str"),
        ({"max_memory": "2Gib"}, ValueError, "max_memory: '2Gib' is not a size; use e.g."),
        ({"max_memory": "-1GiB"}, ValueError, "max_memory: must not be negative"),
        ({"max_memory": "0.5B"}, ValueError, "max_memory: '0.5B' is not a whole number of bytes"),
        ({"max_memory": 0}, ValueError, r"max_memory must be in \[1, 2\*\*60\] bytes, not 0"),
        ({"max_memory": 2.0e9}, TypeError, "max_memory must be a number of bytes or a size"),
        ({"max_memory": [1]}, TypeError, "max_memory must be a number of bytes or a size"),
    ],
)
def test_bad_budgets_are_clean_errors_before_anything_runs(
    kwargs: dict[str, Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        delaycc.run(SCENARIO, **kwargs)


def test_the_default_memory_budget_is_half_the_machine() -> None:
    lines = Path("/proc/meminfo").read_text().splitlines()
    total = next(int(line.split()[1]) * 1024 for line in lines if line.startswith("MemTotal:"))
    assert 0 < default_max_memory() <= total // 2


def test_the_cli_writes_partial_results_and_exits_3(tmp_path: Path) -> None:
    out = tmp_path / "out"
    p = run_cli("run", str(SCENARIO), "--max-events", "20000", "--out", str(out), "--no-figures", "-q")
    assert p.returncode == 3, p.stderr
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in p.stderr
    assert lines[0].startswith(f"delaycc: {SCENARIO}: stopped by max_events: the budget of 20000 events")
    assert lines[0].endswith(f"partial results written to {out}/")
    summary = json.loads((out / "summary.json").read_text())
    assert summary["partial"] is True and summary["stop_reason"] == "max_events"
    assert summary["events"] == 20000
    assert sorted(f.name for f in out.iterdir()) in (
        ["summary.json", "timeseries.csv"],
        ["summary.json", "timeseries.csv", "timeseries.parquet"],
    ), "no temporary files left"


def test_the_cli_memory_budget(tmp_path: Path) -> None:
    path = tmp_path / "flood.toml"
    path.write_text(
        'name = "flood"\nduration = 10\n[[links]]\na = "s"\nb = "d"\nbandwidth = "1Mbps"\ndelay = 0\n'
        'buffer = 1000000000\n[[traffic]]\nkind = "cbr"\nsrc = "s"\ndst = "d"\nrate = "10Gbps"\n'
        '[limits]\nmax_memory = "1GiB"\n'
    )
    p = run_cli("run", str(path), "--max-memory", "8MiB", "-q")
    assert p.returncode == 3, p.stderr
    assert p.stderr.count("\n") == 1 and "stopped by max_memory" in p.stderr
    assert "budget of 8.00 MiB" in p.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--max-events", "0"], "argument --max-events: 0 is not in [1, 2**63 - 1]"),
        (["--max-events", "lots"], "argument --max-events: 'lots' is not an integer"),
        (["--max-memory", "2Gib"], "argument --max-memory: '2Gib' is not a size"),
    ],
)
def test_bad_budget_options_are_usage_errors(args: list[str], message: str) -> None:
    p = run_cli("run", str(SCENARIO), *args)
    assert p.returncode == 2 and message in p.stderr and "Traceback" not in p.stderr
