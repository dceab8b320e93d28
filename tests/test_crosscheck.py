"""The ns-2 referee on a real ns-2 (docs/crosscheck.md): the reference suite, each case against the outcome
its manifest records, the outputs, determinism, and the reproduce report's ns-2 column.

`make test` installs Debian's ns2 (no FAST module) when root and `.ci/run` points DELAYCC_NS2 at a
FAST-enabled build where the machine has one. Cases that need FAST are reported as not run (with the
reason, `pytest -rs`) when the binary has no Agent/TCP/Fast; nothing passes silently.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from delaycc import api
from delaycc.crosscheck import crosscheck
from delaycc.crosscheck.suite import AGREE, DIFFER, load_manifest, needs_fast, run_case
from delaycc.ns2 import Ns2, Ns2Error, locate, runner
from delaycc.ns2.model import Scenario
from delaycc.ns2.scenario import load
from delaycc.ns2.translate import translate

from conftest import ROOT, run_cli

MANIFEST = ROOT / "scenarios" / "crosscheck" / "suite.toml"
CASES = load_manifest(MANIFEST)


def _binary() -> Ns2 | None:
    try:
        return locate()
    except Ns2Error:
        return None


NS2 = _binary()
requires_ns2 = pytest.mark.skipif(
    NS2 is None, reason="not run: no ns-2 (apt-get install ns2 as root, or set DELAYCC_NS2)"
)
FAST_MISSING = "not run: ns-2 without Agent/TCP/Fast (set DELAYCC_NS2 to a build of tools/ns2/build-fast.sh)"


def _need(case_needs_fast: bool) -> None:
    assert NS2 is not None
    if case_needs_fast and not NS2.has_fast:
        pytest.skip(FAST_MISSING)


@requires_ns2
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_suite_case_has_its_recorded_outcome(case, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    _need(needs_fast(case))
    r = run_case(case, tmp_path, None, 600.0)
    assert r.status in (AGREE, DIFFER), r.message
    beyond = "; ".join(
        f"{row['id']} {row['metric']}: delaycc {row['delaycc']} ns-2 {row['ns2']}" for row in r.failures
    )
    # The manifest records what the suite measured (docs/crosscheck.md); a change either way is news.
    assert r.status == case.expect, f"{case.name}: {r.status} (recorded: {case.expect}); {beyond}"
    assert r.overhead_s is not None and r.ns2_wall_s is not None


def test_the_suite_covers_what_the_referee_must() -> None:
    names = {c.name for c in CASES}
    assert len(CASES) >= 12
    for needed in ("fast-single", "fast-one-loss", "fast-small-buffer", "vegas-single", "vegas-multi"):
        assert needed in names
    sack1 = [
        c.name
        for c in CASES
        if any(t["sack"] and t["recovery"] != "FastModule" for t in api.transports(c.file))
    ]
    assert sack1, "a case runs SACK recovery in both (ns-2's Agent/TCP/Sack1)"
    assert sum(not needs_fast(c) for c in CASES) >= 6, "Debian's ns-2 alone referees a good part"
    red = [c.name for c in CASES if '"red"' in c.file.read_text()]
    assert len(red) >= 2 and any(not needs_fast(c) for c in CASES if c.name in red), "RED against Queue/RED"
    for c in CASES:
        assert c.tolerance and len(c.why) > 20, c.name


@requires_ns2
def test_outputs_and_determinism(tmp_path: Path) -> None:
    case = next(c for c in CASES if not needs_fast(c) and c.name == "newreno-droptail")
    a = crosscheck(case.file, tmp_path / "a", tolerances=case.tolerance)
    b = crosscheck(case.file, tmp_path / "b", tolerances=case.tolerance, figures_too=False)
    for d in ("delaycc", "ns2"):
        assert (tmp_path / "a" / d / "summary.json").exists() and (
            tmp_path / "a" / d / "timeseries.csv"
        ).exists()
    assert (tmp_path / "a" / "ns2" / "raw" / "scenario.tcl").exists()
    assert {p.name for p in (tmp_path / "a" / "figures").iterdir()} >= {"cwnd.png", "rate.png", "queue.png"}
    comparison = json.loads((tmp_path / "a" / "comparison.json").read_text())
    assert comparison["rows"] and (tmp_path / "a" / "comparison.csv").read_text().startswith("kind,id,metric")

    def stable(summary: dict) -> dict:  # type: ignore[type-arg]
        ref = {k: v for k, v in summary["referee"].items() if k not in ("translate_s",)}
        return {**summary, "wall_s": None, "referee": ref}

    assert stable(a.ns2.summary) == stable(b.ns2.summary)
    assert a.comparison.as_dict() == b.comparison.as_dict()
    # What is read back is consistent with itself: the flows' data crossed the bottleneck.
    s = a.ns2.summary
    link = next(ln for ln in s["links"] if ln["id"] == "bottleneck" and ln["direction"] == "a->b")
    packet_bits, payload = 8000, 960  # the scenario's 1000-byte packets carry 960 bytes of data
    delivered = sum(f["delivered_bytes"] for f in s["flows"]) / payload * packet_bits
    carried = link["utilization"] * link["bandwidth_bps"] * s["duration_s"]
    # The bottleneck also carried the retransmissions and what was still in flight at the end.
    slack = (sum(f["retransmits"] for f in s["flows"]) + 200) * packet_bits
    assert delivered <= carried <= delivered + slack


@requires_ns2
def test_cli_suite_prints_one_table(tmp_path: Path) -> None:
    chosen = [c for c in CASES if not needs_fast(c)][:2]
    manifest = tmp_path / "suite.toml"
    lines = []
    for c in chosen:
        lines += [
            "[[cases]]",
            f'file = "{c.file.resolve()}"',
            'why = "a two-case suite for this test"',
            f'expect = "{c.expect}"',
            "tolerance = { goodput = 0.05 }",
        ]
    manifest.write_text("\n".join(lines) + "\n")
    p = run_cli("crosscheck", "--suite", "--manifest", str(manifest), "--out", str(tmp_path / "out"), "-q")
    assert p.returncode == 0, p.stderr
    assert "2 of 2 cases ran" in p.stdout
    rows = json.loads((tmp_path / "out" / "suite.json").read_text())
    assert [r["case"] for r in rows] == [c.name for c in chosen]


@requires_ns2
def test_reproduce_report_gains_an_ns2_column(tmp_path: Path) -> None:
    p = run_cli("reproduce", "alt-asym-k", "--referee", "ns2", "--out", str(tmp_path), "-q")
    assert p.returncode == 0, p.stderr
    md = (tmp_path / "report.md").read_text()
    assert "| ns-2 | ns-2 verdict |" in md
    assert "ns-2 could not run: vegas-alt: ns-2 has no agent for it" in md
    # Vegas's throughput over k rests on ns-2's Vegas runs alone: it has an ns-2 figure and verdict.
    row = next(line for line in md.splitlines() if line.startswith("| Vegas's throughput falls"))
    assert "| n/a |" not in row and "Mb/s" in row.split("|")[7]
    assert (tmp_path / "alt-asym-k" / "alt-asym-k-ns2-window.png").exists()
    # The paper's figures drawn again from ns-2's runs, captioned as such.
    assert list((tmp_path / "alt-asym-k" / "ns2").glob("*.png"))
    assert "![ns-2: " in md


def test_reproduce_referee_without_ns2_is_one_line(tmp_path: Path) -> None:
    p = run_cli(
        "reproduce",
        "alt-asym-k",
        "--referee",
        "ns2",
        "--ns2",
        str(tmp_path / "no-ns"),
        "--out",
        str(tmp_path),
    )
    assert p.returncode == 2
    assert len(p.stderr.strip().splitlines()) == 1 and "ns-2 not found" in p.stderr


@requires_ns2
def test_ns2_drops_split_into_queue_and_random_loss(tmp_path: Path) -> None:
    """Random loss after the queue is counted apart from queue drops, each once (a loss reaching the queue
    monitor made queues negative; writing to the monitor's variables while sampling inflated its drops)."""
    case = next(c for c in CASES if c.name == "bernoulli-loss")
    x = crosscheck(case.file, tmp_path, figures_too=False)
    link = next(ln for ln in x.ns2.summary["links"] if ln["id"] == "bottleneck" and ln["direction"] == "a->b")
    assert link["drops"] == link["queue_drops"] + link["loss_drops"]
    # Every packet that reached the queue left it, was dropped there, or is still waiting.
    assert 0 <= link["pkts_arrived"] - link["pkts_sent"] - link["queue_drops"] <= 200
    expected = 0.001 * link["pkts_sent"]  # the scenario's loss rate after the queue
    assert abs(link["loss_drops"] - expected) < 4 * expected**0.5
    queue = x.ns2.series("link", "bottleneck:a->b", "queue_pkts")
    assert queue.min() >= 0 and link["mean_queue_pkts"] >= 0
    assert x.ns2.series("link", "bottleneck:a->b", "drops").sum() == link["drops"]


def _trace(
    binary: Ns2, s: Scenario, direction: int, drops: dict[int, list[int]], work: Path
) -> list[list[str]]:
    work.mkdir(parents=True, exist_ok=True)
    runner._run_script(binary, s, work, translate(s, drops, (direction,)), 600.0)
    return [line.split() for line in (work / f"trace-{direction}.tr").read_text().splitlines()]


DROPS = """
name = "drops-after-retransmissions"
duration = "3s"
sample_interval = "10ms"
[[links]]
id = "acc"
a = "s"
b = "r1"
bandwidth = "1Gbps"
delay = "1ms"
[[links]]
id = "bn"
a = "r1"
b = "r2"
bandwidth = "10Mbps"
delay = "10ms"
buffer = 100
drop_packets = [{ flow = "f1", seq = 100 }, { flow = "f1", seq = 300 }]
[[links]]
id = "out"
a = "r2"
b = "d"
bandwidth = "1Gbps"
delay = "1ms"
[[flows]]
id = "f1"
algorithm = "newreno"
src = "s"
dst = "d"
"""


@requires_ns2
def test_deterministic_drops_hit_their_sequence_numbers_after_retransmissions(tmp_path: Path) -> None:
    """ErrorModel/List counts every packet entering the direction, retransmissions included: the indices
    are calibrated so that the first transmissions of data 100 and 300 (ns-2 seqno 101 and 301) go."""
    assert NS2 is not None
    path = tmp_path / "drops.toml"
    path.write_text(DROPS)
    s, _ = load(path)
    i = next(k for k, d in enumerate(s.directions) if d.drop_seqs)
    drops = runner.calibrate(NS2, s, tmp_path / "raw", 600.0)
    assert drops[i] != [101, 301], "the second drop comes after a retransmission; calibration must see it"
    lines = _trace(NS2, s, i, drops, tmp_path / "check")
    arrivals = [p for p in lines if p[0] == "+"]
    dropped = [int(arrivals[k][10]) for k in drops[i]]
    assert dropped == [101, 301]
    assert [int(p[10]) for p in arrivals].index(301) == drops[i][1]  # its first transmission


ROUTES = """
name = "routes"
duration = "2s"
[[links]]
id = "direct"
a = "s"
b = "d"
bandwidth = "10Mbps"
delay = "50ms"
[[links]]
id = "via1"
a = "s"
b = "r"
bandwidth = "10Mbps"
delay = "5ms"
[[links]]
id = "via2"
a = "r"
b = "d"
bandwidth = "10Mbps"
delay = "5ms"
[[flows]]
id = "f1"
algorithm = "vegas"
src = "s"
dst = "d"
[[traffic]]
kind = "cbr"
src = "s"
dst = "d"
rate = "1Mbps"
stop = "0.05s"
"""


@requires_ns2
def test_the_first_packets_already_follow_delayccs_routes(tmp_path: Path) -> None:
    """ns-2's own routes take the one-hop link; delaycc's least-delay route goes through r. Routes are
    installed before anything is sent at time 0, so not even the first packet takes the direct link."""
    assert NS2 is not None
    path = tmp_path / "routes.toml"
    path.write_text(ROUTES)
    s, _ = load(path)
    direct = next(k for k, d in enumerate(s.directions) if d.link_id == "direct" and d.label == "a->b")
    assert [p for p in _trace(NS2, s, direct, {}, tmp_path / "t") if p[0] == "+"] == []
    x = crosscheck(path, None)
    assert {(ln["id"], ln["direction"]) for ln in x.ns2.summary["links"]} == {
        ("via1", "a->b"),
        ("via1", "b->a"),
        ("via2", "a->b"),
        ("via2", "b->a"),
    }


@requires_ns2
def test_finite_transfers_end_when_their_last_byte_arrives(tmp_path: Path) -> None:
    text = DROPS.replace('drop_packets = [{ flow = "f1", seq = 100 }, { flow = "f1", seq = 300 }]\n', "")
    for alg in ("newreno", "vegas"):
        path = tmp_path / f"{alg}.toml"
        path.write_text(text.replace('algorithm = "newreno"', f'algorithm = "{alg}"\nbytes = "1MB"'))
        f = crosscheck(path, None).ns2.summary["flows"][0]
        assert f["delivered_bytes"] == 1_000_000, alg
        assert f["completion_time_s"] is not None and 0.8 < f["completion_time_s"] < 3.0, alg
        assert f["active_s"] == pytest.approx(f["completion_time_s"]), alg
        assert f["goodput_bps"] == pytest.approx(8e6 / f["active_s"]), alg
