"""The kernel side without root: parameter layouts, scenario checks, routes, output building."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import delaycc
from delaycc.emulate import EmulationUnsupported, fidelity, results, scenario
from delaycc.emulate.model import Scenario
from delaycc.emulate.topology import Topology
from delaycc.emulate.traffic import RawRun
from delaycc.kernel.algorithms import KERNEL_ALGORITHMS, default_params

ROOT = Path(__file__).resolve().parent.parent
DUMBBELL = ROOT / "scenarios" / "kernel" / "dumbbell-20mbps.toml"


def test_every_bpf_parameter_is_a_simulator_parameter_with_its_default() -> None:
    """The BPF algorithms take exactly the simulator's parameters (names, defaults and sources)."""
    for alg in KERNEL_ALGORITHMS.values():
        if not alg.is_bpf:
            continue
        defaults = default_params(alg.name)
        required = {k for k, _ in alg.required}
        assert {f.name for f in alg.fields} | set(alg.unsupported) | required == set(defaults), alg.name
        implemented = {k: v for k, v in defaults.items() if k not in alg.unsupported and k not in required}
        assert alg.decode(alg.encode(defaults)) == pytest.approx(implemented)


def test_unsupported_features_are_refused_by_key(tmp_path: Path) -> None:
    text = DUMBBELL.read_text() + '\n[[traffic]]\nkind = "cbr"\nsrc = "s1"\ndst = "d1"\nrate = "1Mbps"\n'
    text = text.replace('algorithm = "fast"', 'algorithm = "emfast"').replace(
        "buffer = 200", "buffer = 200\nloss = 0.01"
    )
    f = tmp_path / "x.toml"
    f.write_text(text)
    with pytest.raises(EmulationUnsupported) as e:
        scenario.load(f)
    joined = "\n".join(e.value.errors)
    assert "scenario.traffic" in joined
    assert "links[1].loss" in joined
    assert "flows[0].algorithm: 'emfast' has no kernel version" in joined


def test_simulator_only_parameters_are_refused_unless_default(tmp_path: Path) -> None:
    text = DUMBBELL.read_text()
    assert "alpha = 20" in text
    f = tmp_path / "paced.toml"
    f.write_text(text.replace("alpha = 20", "alpha = 20\npacing = true"))
    with pytest.raises(EmulationUnsupported) as e:
        scenario.load(f)
    refusal = "flows[0].params: pacing: the kernel version of fast does not implement it"
    assert e.value.errors == [f"{f}: {refusal}"]
    f.write_text(text.replace("alpha = 20", "alpha = 20\npacing = false"))
    assert scenario.load(f).flows[0].params["pacing"] is False


def test_invalid_scenarios_get_the_simulator_errors(tmp_path: Path) -> None:
    f = tmp_path / "bad.toml"
    f.write_text(DUMBBELL.read_text().replace('bandwidth = "20Mbps"', 'bandwidth = "20Mbs"'))
    with pytest.raises(delaycc.ScenarioError):
        scenario.load(f)


def test_not_root_is_refused_before_anything_is_created(monkeypatch: pytest.MonkeyPatch) -> None:
    from delaycc.emulate import EmulationError, preflight

    monkeypatch.setattr("os.geteuid", lambda: 1000)
    with pytest.raises(EmulationError, match="needs root"):
        preflight.check(scenario.load(DUMBBELL))


def _dumbbell() -> Scenario:
    return scenario.load(DUMBBELL)


def test_routes_follow_the_least_delay_path_and_delays_sum_per_direction() -> None:
    topo = Topology(_dumbbell(), "dcck0n")
    path = topo.path("s1", "d1")
    assert [(e.a, e.b) for e in path] == [("s1", "r1"), ("r1", "r2"), ("r2", "d1")]
    assert sum(e.delay_s for e in path) == pytest.approx(0.020)
    assert topo.ns("r2") == "dcck0n2"
    assert topo.node_addr("d1") == "10.203.0.3"


def test_results_have_the_contract_fields() -> None:
    s = _dumbbell()
    topo = Topology(s, "dcck0n")
    iv = int(s.sample_interval_s * 1e6)
    sender = [
        f"s,{k * iv},{100 + k % 3},{45000 + k},{40100},{k * 948 * 100},0,0,100,2147483647,948"
        for k in range(1, 401)
    ]
    queues = [f"q,{k * iv},2,{k % 20},{(k % 20) * 1000},0,{k * 100000},{k * 100}" for k in range(1, 401)]
    delay = ["ready", "late 0 8000 0 35.5 20 900 4000", "late 1 7990 0 12.0 10 100 2500"]
    raw = RawRun(
        0, {"f1": [*sender, "timeouts 0", "done"]}, {"f1": ["received 1"]}, queues, 20.0, delay, 0.01, None
    )
    r = results.build(topo, raw)
    fidelity = r.summary["emulation"]["fidelity"]
    assert fidelity["delay_line_packets"] == 15990
    assert fidelity["delay_line_late_p99_s"] == pytest.approx(900e-6)
    assert fidelity["delay_line_late_max_s"] == pytest.approx(4e-3)
    assert fidelity["delay_line_late_mean_s"] == pytest.approx((35.5 * 8000 + 12.0 * 7990) / 15990 * 1e-6)
    assert fidelity["cpu_steal_fraction"] == 0.01 and fidelity["disturbed"] is False
    flow = r.summary["flows"][0]
    for key in ("throughput_bps", "goodput_bps", "retransmits", "timeouts", "mean_rtt_s", "min_rtt_s",
                "final_base_rtt_s", "mean_cwnd_pkts"):  # fmt: skip
        assert key in flow
    assert flow["min_rtt_s"] == pytest.approx(0.0401)
    assert [ln["id"] for ln in r.summary["links"]] == ["bottleneck"]
    assert set(r.timeseries["metric"]) >= {
        "cwnd_pkts",
        "rtt_s",
        "srtt_s",
        "base_rtt_s",
        "rate_bps",
        "queue_pkts",
    }
    assert np.isnan(r.series("flow", "f1", "ssthresh_pkts")).all()


def test_fidelity_flags_stolen_cpu_late_releases_and_delay_line_drops() -> None:
    quiet = fidelity.lateness(["late 0 100 0 5.0 10 50 80"])
    assert fidelity.assess(0.0, quiet)["disturbed"] is False
    stolen = fidelity.assess(0.3, quiet)
    assert stolen["disturbed"] and stolen["disturbances"] == [
        "30% of CPU time stolen by the hypervisor (limit 5%)"
    ]
    late = fidelity.assess(0.0, fidelity.lateness(["late 0 100 0 900.0 10 3000 9000"]))
    assert late["disturbances"] == ["delay line 99th-percentile lateness 3.0 ms (limit 2 ms)"]
    dropped = fidelity.assess(None, fidelity.lateness(["late 0 100 7 5.0 10 50 80"]))
    assert dropped["disturbances"] == ["7 packets dropped by a full delay line"]
    assert fidelity.assess(None, [])["delay_line_late_p99_s"] is None


def test_steal_is_the_share_of_cpu_time_between_two_readings(tmp_path: Path) -> None:
    stat = tmp_path / "stat"
    stat.write_text("cpu  100 0 50 800 0 0 0 50 0 0\ncpu0 1 2 3\n")
    before = fidelity.cpu_times(stat)
    stat.write_text("cpu  200 0 100 1500 0 0 0 200 0 0\n")
    after = fidelity.cpu_times(stat)
    assert before == fidelity.CpuTimes(total=1000, steal=50)
    assert fidelity.steal_fraction(before, after) == pytest.approx(150 / 1000)
    assert fidelity.steal_fraction(after, before) is None
    assert fidelity.cpu_times(tmp_path / "missing") is None


def test_the_worst_second_of_steal_shows_a_burst_the_average_hides() -> None:
    ticks = [fidelity.CpuTimes(total=100 * i, steal=0) for i in range(9)]
    burst = [*ticks[:4], *(fidelity.CpuTimes(t.total, t.steal + 60) for t in ticks[4:])]
    assert fidelity.worst_window_steal(ticks, 4) == 0.0
    assert fidelity.worst_window_steal(burst, 4) == pytest.approx(60 / 400)
    assert fidelity.steal_fraction(burst[0], burst[-1]) == pytest.approx(60 / 800)
    assert fidelity.worst_window_steal(burst[:3], 4) is None
    stolen = fidelity.assess(0.03, [], worst_steal=0.4)
    assert stolen["disturbances"] == ["40% of CPU time stolen in the worst second (limit 25%)"]


def test_the_steal_monitor_reads_until_stopped() -> None:
    import time

    monitor = fidelity.StealMonitor().start()
    time.sleep(0.3)
    whole, _ = monitor.stop()
    assert len(monitor.readings) >= 2
    assert whole is None or 0.0 <= whole <= 1.0
    assert monitor.stop() == (whole, _)


def test_queue_disciplines_and_varying_capacity_are_refused(tmp_path: Path) -> None:
    """netem's delay line has no AQM and no trace player: such links are refused, naming the key."""
    text = DUMBBELL.read_text()
    traces = ROOT / "scenarios" / "traces" / "Verizon-LTE-short.down"
    f = tmp_path / "managed.toml"
    f.write_text(
        text.replace('bandwidth = "20Mbps"', f'bandwidth_trace = "{traces}"', 1).replace(
            'delay = "', 'queue = "droptail"\ndelay = "', 1
        )
    )
    with pytest.raises(EmulationUnsupported) as e:
        scenario.load(f)
    joined = "\n".join(e.value.errors)
    assert ".bandwidth_trace: not supported by the emulation" in joined
    assert ".queue: not supported by the emulation" in joined
