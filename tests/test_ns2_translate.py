"""The ns-2 translation without running ns-2: what each key becomes, and what is refused (one line per key,
naming the file)."""

from __future__ import annotations

from pathlib import Path

import pytest

from delaycc.errors import ScenarioError
from delaycc.ns2 import Ns2Unsupported
from delaycc.ns2.scenario import load
from delaycc.ns2.translate import ns2_seed, translate

DUMBBELL = """
name = "t"
duration = "2s"
sample_interval = "10ms"
packet_size = 1000
[[links]]
a = "s1"
b = "r1"
bandwidth = "1Gbps"
delay = "1ms"
[[links]]
id = "bn"
a = "r1"
b = "d1"
bandwidth = "10Mbps"
delay = "20ms"
buffer = 30
reverse_bandwidth = "2Mbps"
reverse_buffer_bytes = "5000B"
loss = 0.01
"""


def write(tmp_path: Path, text: str, name: str = "s.toml") -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


def flow(alg: str, params: str = "", extra: str = "") -> str:
    return f'[[flows]]\nid = "f1"\nalgorithm = "{alg}"\nsrc = "s1"\ndst = "d1"\n{extra}\n' + (
        f"[flows.params]\n{params}\n" if params else ""
    )


def test_sizes_buffers_loss_and_agents_are_translated(tmp_path: Path) -> None:
    s, diffs = load(write(tmp_path, DUMBBELL + flow("fast", "alpha = 40", 'stop = "1.5s"')))
    tcl = translate(s)
    assert "Agent/TCP set packetSize_ 960" in tcl  # 1000 on the wire, 40 of them header
    assert "Agent/TCPSink set packetSize_ 40" in tcl
    # buffer counts waiting packets; ns-2's queue-limit counts the one being sent too
    assert "$ns queue-limit $dcc_node(1) $dcc_node(2) 31" in tcl
    assert "queue_in_bytes_ true" in tcl and "$ns queue-limit $dcc_node(2) $dcc_node(1) 5001" in tcl
    assert "$ns simplex-link $dcc_node(2) $dcc_node(1) 2000000 0.02 DropTail" in tcl
    assert "set rate_ 0.01" in tcl and "link-lossmodel" in tcl
    assert "new Agent/TCP/Fast" in tcl and "new Agent/TCPSink/Sack1" in tcl
    assert "set alpha_ 40" in tcl and "set gamma_ 0.5" in tcl
    assert "set windowInit_ 2" in tcl and "set minrto_ 0.2" in tcl and "set rtxcur_init_ 3" in tcl
    assert "set tcpTick_ 0.01" in tcl and "set singledup_ 1" in tcl and "set partial_ack_ 0" in tcl
    assert '"dcc_stop 0"' in tcl
    assert f"$defaultRNG seed {ns2_seed(1)}" in tcl
    # the route is installed hop by hop towards the destination, and back for the ACKs
    assert "$dcc_node(0) add-route [$dcc_node(2) id]" in tcl
    assert "$dcc_node(2) add-route [$dcc_node(0) id]" in tcl
    # FAST's defaults are the module's: every parameter is a Tcl variable or what the module always does
    assert "set cwnd_update_period_ 0.01" in tcl and "set high_accuracy_cwnd_ 2" in tcl
    assert "set beta_ 0" in tcl
    assert not any(d.startswith("fast.") for d in diffs), diffs


def test_transport_and_vegas_parameters(tmp_path: Path) -> None:
    text = DUMBBELL + '[transport]\ninitial_window = 2\ndelayed_ack = true\nmin_rto = "1s"\n'
    s, _ = load(write(tmp_path, text + flow("vegas", "alpha = 2\nbeta = 4")))
    tcl = translate(s)
    assert "new Agent/TCP/Vegas" in tcl and "new Agent/TCPSink/DelAck" in tcl
    assert "set v_alpha_ 2" in tcl and "set v_beta_ 4" in tcl and "set v_gamma_ 1" in tcl
    assert "set windowInit_ 2" in tcl and "set minrto_ 1" in tcl and "set interval_ 0.1" in tcl


def test_deterministic_drops_become_a_drop_list_on_a_private_link(tmp_path: Path) -> None:
    text = DUMBBELL.replace('delay = "1ms"', 'delay = "1ms"\ndrop_packets = [{ flow = "f1", seq = 99 }]')
    s, _ = load(write(tmp_path, text + flow("newreno")))
    tcl = translate(s)
    assert "droplist {100}" in tcl  # the SYN is ns-2's packet 0


def test_events_change_links_and_routes(tmp_path: Path) -> None:
    text = (
        DUMBBELL
        + flow("newreno")
        + (
            '[[events]]\nat = "1s"\nkind = "link"\nlink = "bn"\ndirection = "a->b"\n'
            'bandwidth = "5Mbps"\nup = false\n'
        )
    )
    s, _ = load(write(tmp_path, text))
    tcl = translate(s)
    assert "set bandwidth_ 5000000" in tcl and "set dcc_up(2) 0" in tcl and '$ns at 1 "dcc_change_0"' in tcl


@pytest.mark.parametrize(
    ("body", "key", "reason"),
    [
        (flow("vfast"), "flows[0].algorithm", "'vfast' has no ns-2 agent"),
        (flow("sctp"), "flows[0].algorithm", "Agent/SCTP counts no data delivered at its receiver"),
        (flow("fast", extra="streams = 4"), "flows[0].streams", "one stream per connection"),
        (flow("fast", "cap_2w = true"), "flows[0].params.cap_2w", "always behaves as cap_2w = false"),
        (flow("vegas", 'rtt_statistic = "min"'), "flows[0].params.rtt_statistic", "always behaves as"),
        (flow("fast", "pacing = true"), "flows[0].params.pacing", "no such setting"),
        (flow("newreno") + "[flows.transport]\necn = true\n", "flows[0].transport.ecn", "does not carry ECN"),
    ],
)
def test_what_ns2_cannot_express_is_refused_by_key(tmp_path: Path, body: str, key: str, reason: str) -> None:
    path = write(tmp_path, DUMBBELL + body)
    with pytest.raises(Ns2Unsupported) as e:
        load(path)
    assert len(e.value.errors) == 1
    line = e.value.errors[0]
    assert line.startswith(f"{path}: {key}: ") and reason in line and "\n" not in line


def test_drops_on_a_shared_link_are_refused(tmp_path: Path) -> None:
    text = DUMBBELL.replace("buffer = 30", 'buffer = 30\ndrop_packets = [{ flow = "f1", seq = 5 }]')
    text += flow("newreno") + '[[flows]]\nid = "f2"\nalgorithm = "reno"\nsrc = "s1"\ndst = "d1"\n'
    path = write(tmp_path, text)
    with pytest.raises(Ns2Unsupported) as e:
        load(path)
    assert e.value.errors == [
        f"{path}: links[1].drop_packets: ns-2 drops the n-th packet crossing a link direction; a flow's "
        "sequence number is that index only when that flow's data alone crosses it (here: f1, f2)"
    ]


def test_paths_that_disagree_towards_one_destination_are_refused(tmp_path: Path) -> None:
    text = """
name = "diamond"
duration = "1s"
[[links]]
a = "s"
b = "x"
bandwidth = "10Mbps"
delay = "1ms"
[[links]]
a = "s"
b = "y"
bandwidth = "10Mbps"
delay = "1ms"
[[links]]
a = "x"
b = "d"
bandwidth = "10Mbps"
delay = "1ms"
[[links]]
a = "y"
b = "d"
bandwidth = "10Mbps"
delay = "1ms"
[[flows]]
id = "a"
algorithm = "newreno"
src = "s"
dst = "d"
path = ["s", "x", "d"]
[[flows]]
id = "b"
algorithm = "newreno"
src = "s"
dst = "d"
path = ["s", "y", "d"]
"""
    path = write(tmp_path, text)
    with pytest.raises(Ns2Unsupported) as e:
        load(path)
    assert "flows[1].path: ns-2 routes by destination: at s towards d" in e.value.errors[0]


def test_an_invalid_scenario_is_the_simulators_error(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError):
        load(write(tmp_path, DUMBBELL.replace('"10Mbps"', '"10Mbs"') + flow("fast")))


def test_every_crosscheck_scenario_translates() -> None:
    root = Path(__file__).resolve().parent.parent / "scenarios" / "crosscheck"
    files = sorted(root.glob("*.toml"))
    assert len([f for f in files if f.name != "suite.toml"]) >= 12
    for f in files:
        if f.name != "suite.toml":
            s, _ = load(f)
            assert "dcc_start" in translate(s)


def test_fast_has_no_dead_band_and_routes_come_before_any_agent(tmp_path: Path) -> None:
    s, _ = load(write(tmp_path, DUMBBELL + flow("fast", "alpha = 20")))
    tcl = translate(s)
    # ns-2's module holds the window while alpha_ <= backlog < beta_; delaycc's beta 0 means no band
    assert "set alpha_ 20" in tcl and "set beta_ 0" in tcl
    s, _ = load(write(tmp_path, DUMBBELL + flow("fast", "alpha = 20\nbeta = 30"), "band.toml"))
    assert "set beta_ 30" in translate(s)
    assert tcl.index('$ns at 0 "dcc_routes"') < tcl.index("new Agent/TCP/Fast")


def test_a_link_going_down_also_refuses_arrivals(tmp_path: Path) -> None:
    text = DUMBBELL + flow("newreno") + '[[events]]\nat = "1s"\nkind = "link"\nlink = "bn"\nup = false\n'
    s, _ = load(write(tmp_path, text))
    tcl = translate(s)
    assert "set dcc_head(2) [new ErrorModel]" in tcl and "$ns lossmodel $dcc_head(2)" in tcl
    assert "$dcc_head(2) set rate_ [expr {$dcc_up(2) ? 0.0 : 1.0}]" in tcl


@pytest.mark.parametrize(
    ("extra", "key", "reason"),
    [
        ("", "flows[0].params.alpha", "holds it as an integer"),
        ("[transport]\nreceiver_window = 2000000\n", "flows[0].transport.receiver_window", "at most 1000000"),
    ],
)
def test_what_ns2_would_silently_change_is_refused(tmp_path: Path, extra: str, key: str, reason: str) -> None:
    body = flow("fast", "alpha = 10.5") if not extra else flow("vegas")
    path = write(tmp_path, DUMBBELL + extra + body)
    with pytest.raises(Ns2Unsupported) as e:
        load(path)
    assert any(line.startswith(f"{path}: {key}: ") and reason in line for line in e.value.errors), (
        e.value.errors
    )


def test_a_byte_buffer_smaller_than_a_packet_is_refused(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        DUMBBELL.replace('reverse_buffer_bytes = "5000B"', 'reverse_buffer_bytes = "500B"') + flow("newreno"),
    )
    with pytest.raises(Ns2Unsupported) as e:
        load(path)
    assert "links[1].reverse_buffer_bytes: ns-2's byte-mode DropTail drops every packet" in e.value.errors[0]


def test_a_reroute_that_would_move_another_flow_is_refused(tmp_path: Path) -> None:
    text = """
name = "two-to-one"
duration = "2s"
[[links]]
a = "s"
b = "r1"
bandwidth = "10Mbps"
delay = "1ms"
[[links]]
a = "r1"
b = "r2"
bandwidth = "10Mbps"
delay = "5ms"
[[links]]
a = "r1"
b = "r3"
bandwidth = "10Mbps"
delay = "5ms"
[[links]]
a = "r3"
b = "r2"
bandwidth = "10Mbps"
delay = "5ms"
[[links]]
a = "r2"
b = "d"
bandwidth = "10Mbps"
delay = "1ms"
[[flows]]
id = "a"
algorithm = "newreno"
src = "s"
dst = "d"
[[flows]]
id = "b"
algorithm = "newreno"
src = "s"
dst = "d"
[[events]]
at = "1s"
kind = "reroute"
flow = "a"
path = ["s", "r1", "r3", "r2", "d"]
"""
    path = write(tmp_path, text)
    with pytest.raises(Ns2Unsupported) as e:
        load(path)
    assert e.value.errors == [
        f"{path}: events[0].path: ns-2 routes by destination: at r1 towards d this path goes to r3 but "
        "flows[1].path to r2"
    ]


def test_sampling_follows_delayccs_resolution_halving(tmp_path: Path) -> None:
    text = DUMBBELL.replace('duration = "2s"', 'duration = "10s"').replace('"10ms"', '"1ms"', 1)
    s, _ = load(write(tmp_path, text + flow("newreno")))
    assert s.sample_interval_s == pytest.approx(0.004)  # 10 000 samples > 4000: 2 ms, then 4 ms
