"""A link's queue discipline and capacity in the ns-2 translation: RED becomes Queue/RED with the same
settings and a limit that holds the same packets; every other discipline and a varying capacity are refused
by key, one line each."""

from __future__ import annotations

import math
import subprocess
import tomllib
from pathlib import Path

import pytest

from delaycc import api
from delaycc.ns2 import Ns2Error, Ns2Unsupported, locate
from delaycc.ns2.scenario import from_doc, load
from delaycc.ns2.translate import translate

BASE = """
name = "q"
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
"""
FLOW = '[[flows]]\nid = "f1"\nalgorithm = "newreno"\nsrc = "s1"\ndst = "d1"\n'


def write(tmp_path: Path, links: str) -> Path:
    p = tmp_path / "s.toml"
    p.write_text(BASE + links + "\n" + FLOW)
    return p


def red_block(tcl: str, link: str) -> list[str]:
    """The Queue/RED lines the script sets just before it makes ``link`` (a simplex-link line's start)."""
    lines = tcl.splitlines()
    end = next(i for i, line in enumerate(lines) if line.startswith(link))
    start = end
    while start > 0 and lines[start - 1].startswith("Queue/RED set "):
        start -= 1
    return lines[start:end]


def refusals(path: Path) -> list[str]:
    with pytest.raises(Ns2Unsupported) as e:
        load(path)
    return e.value.errors


def test_red_becomes_queue_red_with_every_setting_set_before_the_link(tmp_path: Path) -> None:
    p = write(
        tmp_path,
        'buffer = 50\nqueue = "red"\n'
        'queue_params = { min_th = 8, max_p = 0.25, ecn = true, target_delay = "10ms", gentle = false }',
    )
    s, diffs = load(p)
    tcl = translate(s)
    forward = "$ns simplex-link $dcc_node(1) $dcc_node(2) 10000000 0.02 RED"
    block = red_block(tcl, forward)
    for line in (
        "thresh_ 8",
        "maxthresh_ 0",  # ns-2 computes 3 x thresh_, as delaycc does
        "q_weight_ -1",
        "linterm_ 4",
        "setbit_ true",
        "gentle_ false",
        "wait_ true",
        "targetdelay_ 0.01",
        "bytes_ true",
        "queue_in_bytes_ true",
        "mean_pktsize_ 500",
        "use_mark_p_ true",
        "mark_p_ 0.1",
    ):
        assert f"Queue/RED set {line}" in block, (line, block)
    # Byte mode: limit_ x mean_pktsize_ bytes, 100 x 500, hold exactly 50 packets of 1000 bytes.
    assert tcl.index(forward) < tcl.index("$ns queue-limit $dcc_node(1) $dcc_node(2) 100")
    # b->a takes a->b's discipline, as delaycc's parser does.
    assert "$ns simplex-link $dcc_node(2) $dcc_node(1) 10000000 0.02 RED" in tcl
    assert any("ns-2's byte-mode RED holds 50000 bytes" in d for d in diffs), diffs


def test_red_in_packets_holds_the_buffer_and_a_reverse_drop_tail_stays_drop_tail(tmp_path: Path) -> None:
    p = write(
        tmp_path,
        'buffer = 40\nqueue = "red"\nreverse_queue = "droptail"\n'
        "queue_params = { bytes = false, queue_in_bytes = false, min_th = 5, max_th = 15 }",
    )
    s, diffs = load(p)
    tcl = translate(s)
    # RED drops when the queue it finds has reached the limit: the limit is the buffer itself.
    assert "$ns queue-limit $dcc_node(1) $dcc_node(2) 40" in tcl
    assert "$ns simplex-link $dcc_node(2) $dcc_node(1) 10000000 0.02 DropTail" in tcl
    assert "$ns queue-limit $dcc_node(2) $dcc_node(1) 41" in tcl
    assert not diffs


@pytest.mark.parametrize(
    ("links", "key", "reason"),
    [
        (
            'bandwidth_states = { good = "20Mbps", bad = "2Mbps", mean_good = "1s", mean_bad = "200ms" }',
            "links[1].bandwidth_states",
            "ns-2's links send at a fixed rate",
        ),
        (
            'reverse_bandwidth_states = { good = "20Mbps", bad = "2Mbps", mean_good = "1s", '
            'mean_bad = "200ms" }',
            "links[1].reverse_bandwidth_states",
            "a varying capacity has no counterpart",
        ),
        (
            'buffer_bytes = "50KB"\nqueue = "red"\nqueue_params = { queue_in_bytes = false, bytes = false }',
            "links[1].buffer_bytes",
            "limits packets; give buffer in packets",
        ),
        (
            'buffer = 10\nqueue = "red"\nqueue_params = { mean_pktsize = 1500 }',
            "links[1].buffer",
            "none holds exactly 10 packets of 1000 bytes",
        ),
        (
            'reverse_buffer = 10\nqueue = "red"\nreverse_queue_params = { mean_pktsize = 1500 }',
            "links[1].reverse_buffer",
            "multiple of mean_pktsize (1500 bytes)",
        ),
    ],
)
def test_what_ns2_cannot_hold_is_refused_by_key(tmp_path: Path, links: str, key: str, reason: str) -> None:
    p = write(tmp_path, links)
    if links.startswith("bandwidth_states"):  # instead of the bottleneck's fixed rate
        p.write_text(p.read_text().replace('bandwidth = "10Mbps"\ndelay = "20ms"', 'delay = "20ms"'))
    errors = refusals(p)
    assert len(errors) == 1, errors
    assert errors[0].startswith(f"{p}: {key}: ") and reason in errors[0] and "\n" not in errors[0]


def test_another_discipline_is_refused_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # A validated scenario naming another discipline (codel, pie, ... on other branches) reaches the reader
    # as these documents do; the simulator here knows only droptail and red, so the transports it would
    # resolve for them are taken from the same scenario without the queue.
    resolved = api.transports(tomllib.loads(BASE + FLOW))
    monkeypatch.setattr(api, "transports", lambda _doc: resolved)
    doc = tomllib.loads(BASE + 'queue = "codel"\n' + FLOW)
    with pytest.raises(Ns2Unsupported) as e:
        from_doc(doc, "s.toml", {})
    assert e.value.errors == [
        "s.toml: links[1].queue: ns-2's referee translates only droptail and red queues, not 'codel'"
    ]
    doc = tomllib.loads(BASE + 'reverse_queue = "pie"\n' + FLOW)
    with pytest.raises(Ns2Unsupported) as e:
        from_doc(doc, "s.toml", {})
    assert e.value.errors == [
        "s.toml: links[1].reverse_queue: ns-2's referee translates only droptail and red queues, not 'pie'"
    ]


def _ns2() -> str | None:
    try:
        return str(locate().path)
    except Ns2Error:
        return None


NS2 = _ns2()


@pytest.mark.skipif(NS2 is None, reason="not run: no ns-2 (apt-get install ns2 as root, or set DELAYCC_NS2)")
def test_ns2_computes_the_automatic_settings_delaycc_does(tmp_path: Path) -> None:
    """The settings reach the queue before ns-2 derives its automatic thresholds and weight from the link:
    with mean_pktsize 1000 and target_delay 40 ms on 10 Mb/s, min_th is 0.04 x 1250 / 2 = 25, not what
    ns-2's defaults (500 bytes, 5 ms) would give."""
    p = write(
        tmp_path,
        'buffer = 300\nqueue = "red"\nqueue_params = { mean_pktsize = 1000, target_delay = "40ms" }',
    )
    s, _ = load(p)
    tcl = translate(s)
    cut = tcl.index("$ns queue-limit $dcc_node(1) $dcc_node(2)")
    probe = tcl[:cut] + (
        "set q [[$ns link $dcc_node(1) $dcc_node(2)] queue]\n"
        'puts "[$q set thresh_] [$q set maxthresh_] [$q set q_weight_]"\n'
    )
    script = tmp_path / "probe.tcl"
    script.write_text(probe)
    out = subprocess.run([NS2 or "ns", str(script)], capture_output=True, text=True, timeout=60, check=True)
    thresh, maxthresh, q_w = (float(x) for x in out.stdout.split())
    ptc = 10e6 / (8 * 1000)
    assert (thresh, maxthresh) == (25.0, 75.0)
    assert math.isclose(q_w, 1 - math.exp(-1 / (10 * 0.1 * ptc)), rel_tol=1e-12)
