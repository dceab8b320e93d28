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
    tcl = translate(s, "/out")
    assert "Agent/TCP set packetSize_ 960" in tcl  # 1000 on the wire, 40 of them header
    assert "Agent/TCPSink set packetSize_ 40" in tcl
    # buffer counts waiting packets; ns-2's queue-limit counts the one being sent too
    assert "$ns queue-limit $dcc_node(1) $dcc_node(2) 31" in tcl
    assert "queue_in_bytes_ true" in tcl and "$ns queue-limit $dcc_node(2) $dcc_node(1) 5001" in tcl
    assert "$ns simplex-link $dcc_node(2) $dcc_node(1) 2000000 0.02 DropTail" in tcl
    assert "set rate_ 0.01" in tcl and "link-lossmodel" in tcl
    assert "new Agent/TCP/Fast" in tcl and "new Agent/TCPSink/Sack1" in tcl
    assert "set alpha_ 40" in tcl and "set gamma_ 0.5" in tcl
    assert "set windowInit_ 1" in tcl and "set minrto_ 0.2" in tcl and "set rtxcur_init_ 1" in tcl
    assert '"dcc_stop 0"' in tcl
    assert f"$defaultRNG seed {ns2_seed(1)}" in tcl
    # the route is installed hop by hop towards the destination, and back for the ACKs
    assert "$dcc_node(0) add-route [$dcc_node(2) id]" in tcl
    assert "$dcc_node(2) add-route [$dcc_node(0) id]" in tcl
    assert any("cap_2w" in d for d in diffs) and any("min_update_interval" in d for d in diffs)


def test_transport_and_vegas_parameters(tmp_path: Path) -> None:
    text = DUMBBELL + '[transport]\ninitial_window = 2\ndelayed_ack = true\nmin_rto = "1s"\n'
    s, _ = load(write(tmp_path, text + flow("vegas", "alpha = 2\nbeta = 4")))
    tcl = translate(s, "/out")
    assert "new Agent/TCP/Vegas" in tcl and "new Agent/TCPSink/DelAck" in tcl
    assert "set v_alpha_ 2" in tcl and "set v_beta_ 4" in tcl and "set v_gamma_ 1" in tcl
    assert "set windowInit_ 2" in tcl and "set minrto_ 1" in tcl and "set interval_ 0.1" in tcl


def test_deterministic_drops_become_a_drop_list_on_a_private_link(tmp_path: Path) -> None:
    text = DUMBBELL.replace('delay = "1ms"', 'delay = "1ms"\ndrop_packets = [{ flow = "f1", seq = 99 }]')
    s, _ = load(write(tmp_path, text + flow("newreno")))
    tcl = translate(s, "/out")
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
    tcl = translate(s, "/out")
    assert "set bandwidth_ 5000000" in tcl and "set dcc_up(2) 0" in tcl and '$ns at 1 "dcc_change_0"' in tcl


@pytest.mark.parametrize(
    ("body", "key", "reason"),
    [
        (flow("vfast"), "flows[0].algorithm", "'vfast' has no ns-2 agent"),
        (flow("fast", extra="streams = 4"), "flows[0].streams", "one stream per connection"),
        (flow("fast", "cap_2w = true"), "flows[0].params.cap_2w", "always behaves as cap_2w = false"),
        (flow("vegas", 'rtt_statistic = "min"'), "flows[0].params.rtt_statistic", "always behaves as"),
        (flow("fast", "pacing = true"), "flows[0].params.pacing", "no such setting"),
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
            assert "dcc_start" in translate(s, "/out")
