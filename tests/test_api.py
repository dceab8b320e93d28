"""The Python API: run(), Result, ScenarioError, algorithms()."""

from __future__ import annotations

import math
import tomllib
from pathlib import Path

import pandas as pd
import pytest

import delaycc

from conftest import SCENARIOS

DUMBBELL = SCENARIOS / "dumbbell-newreno.toml"

FLOW_FIELDS = {
    "id", "algorithm", "throughput_bps", "goodput_bps", "retransmits", "timeouts",
    "mean_rtt_s", "min_rtt_s", "final_base_rtt_s", "mean_cwnd_pkts",
}  # fmt: skip
LINK_FIELDS = {"id", "direction", "utilization", "mean_queue_pkts", "max_queue_pkts", "drops"}
TOP_FIELDS = {
    "scenario", "seed", "duration_s", "wall_s", "events", "delaycc_version", "flows", "links",
    "fairness_jain",
}  # fmt: skip


@pytest.fixture(scope="module")
def dumbbell() -> delaycc.Result:
    return delaycc.run(DUMBBELL)


def test_summary_has_every_field_of_the_contract(dumbbell: delaycc.Result) -> None:
    s = dumbbell.summary
    assert s.keys() >= TOP_FIELDS
    assert s["scenario"] == "dumbbell-newreno"
    assert s["duration_s"] == 60.0
    for f in s["flows"]:
        assert f.keys() >= FLOW_FIELDS
    for link in s["links"]:
        assert link.keys() >= LINK_FIELDS
        assert link["direction"] in ("a->b", "b->a")
    assert 0 < s["fairness_jain"] <= 1


def test_dataframes(dumbbell: delaycc.Result) -> None:
    assert isinstance(dumbbell.flows, pd.DataFrame)
    assert list(dumbbell.flows["id"]) == ["f1", "f2", "f3"]
    assert (dumbbell.flows["throughput_bps"] > 1e6).all()
    # Goodput counts payload only (960 of 1000 bytes), throughput the whole packets and retransmissions.
    assert (dumbbell.flows["goodput_bps"] < dumbbell.flows["throughput_bps"]).all()
    ts = dumbbell.timeseries
    assert list(ts.columns) == ["time_s", "kind", "id", "metric", "value"]
    flow_metrics = set(ts.loc[ts["kind"] == "flow", "metric"])
    assert {"cwnd_pkts", "rtt_s", "srtt_s", "base_rtt_s", "rate_bps", "inflight_pkts"} <= flow_metrics
    link_metrics = set(ts.loc[ts["kind"] == "link", "metric"])
    assert {"queue_pkts", "throughput_bps", "drops"} <= link_metrics
    # Default sampling: duration / 2000 = 30 ms.
    times = ts.loc[(ts["id"] == "f1") & (ts["metric"] == "cwnd_pkts"), "time_s"].to_numpy()
    assert len(times) == 2000
    assert math.isclose(times[1] - times[0], 0.03)


def test_bottleneck_is_busy_and_its_queue_bounded(dumbbell: delaycc.Result) -> None:
    links = dumbbell.links.set_index(["id", "direction"])
    bn = links.loc[("bottleneck", "a->b")]
    assert bn["utilization"] > 0.95
    assert bn["max_queue_pkts"] <= 50
    q = dumbbell.series("link", "bottleneck:a->b", "queue_pkts")
    assert q.max() <= 50


def test_packets_are_conserved_in_every_shipped_scenario() -> None:
    for path in sorted(SCENARIOS.glob("*.toml")):
        p = delaycc.run(path).summary["packets"]
        assert p["sent"] == p["delivered"] + p["dropped"] + p["in_flight"], path.name


def test_a_dict_runs_like_the_file() -> None:
    as_dict = tomllib.loads(DUMBBELL.read_text())
    a = delaycc.run(DUMBBELL).summary
    b = delaycc.run(as_dict).summary
    for s in (a, b):
        s.pop("wall_s")
    assert a == b


def test_seed_override_changes_random_loss() -> None:
    path = SCENARIOS / "reno-vs-newreno-loss.toml"
    a = delaycc.run(path, seed=1).summary
    b = delaycc.run(path, seed=2).summary
    assert a["seed"] == 1 and b["seed"] == 2
    assert a["flows"][0]["retransmits"] != b["flows"][0]["retransmits"]


def test_invalid_input_raises_scenario_error_with_every_problem() -> None:
    bad = {
        "name": "x",
        "duration": "10 parsecs",
        "links": [{"a": "s", "b": "d", "bandwidth": "100Mbs", "delay": "1ms"}],
        "flows": [{"algorithm": "newreno", "src": "s", "dst": "d"}],
    }
    with pytest.raises(delaycc.ScenarioError) as e:
        delaycc.run(bad)
    assert isinstance(e.value, ValueError)
    assert e.value.errors == [
        "<dict>: duration: '10 parsecs' is not a duration; use e.g. '20ms' or '1.5s'",
        "<dict>: links[0].bandwidth: '100Mbs' is not a rate; use e.g. '100Mbps'",
    ]


def test_none_and_nan_in_dicts_are_named_by_key() -> None:
    with pytest.raises(delaycc.ScenarioError) as e:
        delaycc.validate({"name": None, "duration": float("nan")})
    assert e.value.errors == [
        "<dict>: name: None is not a valid value",
        "<dict>: duration: must be a finite number",
    ]


def test_missing_file_and_wrong_types(tmp_path: Path) -> None:
    with pytest.raises(delaycc.ScenarioError, match=r"no-such\.toml: no such file"):
        delaycc.run(tmp_path / "no-such.toml")
    with pytest.raises(delaycc.ScenarioError, match="is a directory"):
        delaycc.run(tmp_path)
    with pytest.raises(TypeError, match="not int"):
        delaycc.run(42)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="seed"):
        delaycc.run(DUMBBELL, seed=-1)


def test_algorithms_document_every_parameter() -> None:
    algs = {a["name"]: a for a in delaycc.algorithms()}
    assert {"reno", "newreno"} <= algs.keys()
    for a in algs.values():
        assert a["description"]
        for p in a["params"]:
            assert p["default"] is not None and p["source"] and p["description"]


def test_progress_callback_sees_simulated_time_advance() -> None:
    seen: list[float] = []
    delaycc.run(SCENARIOS / "reroute-and-link-change.toml", progress=seen.append)
    assert seen, "a run of a few hundred thousand events reports progress"
    assert seen == sorted(seen)
    assert 0 < seen[-1] <= 60


def test_an_exception_in_the_progress_callback_stops_the_run_cleanly() -> None:
    def interrupt(_t: float) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        delaycc.run(SCENARIOS / "reroute-and-link-change.toml", progress=interrupt)


def test_docs_describe_every_algorithm_and_parameter(root: Path) -> None:
    text = (root / "docs" / "algorithms.md").read_text()
    for a in delaycc.algorithms():
        assert f"## {a['name']}" in text or f", {a['name']}" in text, a["name"]
        for p in a["params"]:
            assert f"`{p['name']}`" in text, f"{a['name']}.{p['name']} is not documented"


def test_multistream_flows_report_streams_delivery_delay_and_convergence() -> None:
    scenario = tomllib.loads((SCENARIOS / "emfast-vs-fast-recovery.toml").read_text())
    r = delaycc.run(scenario)
    flows = r.flows.set_index("id")
    assert flows.loc["emfast", "streams"] == 4 and flows.loc["fast", "streams"] == 1
    assert flows.loc["emfast", "mean_delivery_delay_s"] > 0
    streams = r.streams
    assert list(streams["stream"]) == [0, 1, 2, 3]
    assert (streams["flow"] == "emfast").all()
    # The four streams share the flow's goodput.
    assert streams["goodput_bps"].sum() == pytest.approx(flows.loc["emfast", "goodput_bps"], rel=1e-9)
    conv = r.convergence.set_index("flow")
    # One row per flow and recovery episode. After the scripted loss EMFAST refills first; with the FAST
    # module's frozen old_cwnd its per-ACK updates then overflow the buffer again (docs/reproduce.md).
    assert {"emfast", "fast"} <= set(conv.index) and (conv["loss_at_s"] > 0).all()
    assert conv.loc[["emfast"], "time_s"].iloc[0] < conv.loc[["fast"], "time_s"].iloc[0]
    ts = r.timeseries
    assert {"ipd_s", "ipd_jitter_s", "afr_mode"} <= set(ts["metric"])


def test_transports_resolve_profile_and_algorithm_defaults() -> None:
    def doc(profile: str | None) -> dict[str, object]:
        d: dict[str, object] = {
            "name": "t",
            "duration": 1,
            "links": [{"a": "s", "b": "d", "bandwidth": "10Mbps", "delay": "10ms"}],
            "flows": [
                {"id": "f", "algorithm": "fast", "src": "s", "dst": "d"},
                {"id": "v", "algorithm": "vegas", "src": "s", "dst": "d"},
                {"id": "n", "algorithm": "newreno", "src": "s", "dst": "d", "transport": {"sack": True}},
            ],
        }
        if profile:
            d["profile"] = profile
        return d

    f, v, n = delaycc.transports(doc(None))
    assert (f["profile"], f["initial_window"], f["rto"], f["rtt_tick"]) == ("ns2", 2.0, "ns2", 0.01)
    assert f["syn"] and f["sack"] and f["recovery"] == "FastModule"
    assert not v["syn"] and not v["sack"], "ns-2's Vegas sends no SYN and has no SACK"
    assert n["sack"] and n["recovery"] == "NewReno"
    f, v, n = delaycc.transports(doc("linux"))
    assert (f["initial_window"], f["syn"], f["rto"]) == (10.0, False, "rfc6298")
    with pytest.raises(delaycc.ScenarioError):
        delaycc.transports({"name": "bad"})
