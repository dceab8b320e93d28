"""`delaycc reproduce`: run expansion, the claim checker itself, and a complete small report."""

from __future__ import annotations

import base64
import re
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest

import delaycc
from delaycc.keypath import set_path
from delaycc.reproduce import EXPERIMENTS, p001, reproduce, select
from delaycc.reproduce.claims import numeric
from delaycc.reproduce.model import NOT_REPRODUCED, REPRODUCED, RunKey, RunResult, RunSet
from delaycc.reproduce.runs import keys_for, scenario_for

from conftest import ROOT, run_cli


def test_catalogue_covers_every_experiment_of_the_spec() -> None:
    expected = {"vfast-I", "vfast-II", "vfast-III", "vfast-IV", "rttbased-simple", "rttbased-parkinglot"}
    expected |= {"rrfast-longer", "rrfast-shorter", "emfast-single", "emfast-competing", "alt-asym-k"}
    expected |= {"alt-backward-load"}
    assert set(EXPERIMENTS) == expected
    for e in EXPERIMENTS.values():
        assert (ROOT / e.scenario).exists(), e.id
        assert e.claims is not None and e.figures is not None


def test_every_run_of_every_experiment_is_a_valid_scenario() -> None:
    for e in EXPERIMENTS.values():
        for key in keys_for(e):
            doc = scenario_for(e, key, ROOT)
            delaycc.validate(doc)
            tested = [f for f in doc["flows"] if f["id"] in e.flows]
            assert tested and all(f["algorithm"] == key.algorithm for f in tested)


def test_targets() -> None:
    assert [e.id for e in select("P001")] == ["rttbased-simple", "rttbased-parkinglot"]
    assert [e.id for e in select("alt-asym-k")] == ["alt-asym-k"]
    assert len(select("all")) == 12
    with pytest.raises(ValueError, match="unknown experiment or paper 'P009'"):
        select("P009")


def test_set_path_reaches_into_arrays_and_tables() -> None:
    doc: dict[str, object] = {"links": [{"a": "x"}, {"a": "y"}], "traffic": [{"rate": 1}]}
    set_path(doc, "links[1].reverse_bandwidth", "20kbps")
    set_path(doc, "traffic[0].mean_off", "1s")
    assert doc == {
        "links": [{"a": "x"}, {"a": "y", "reverse_bandwidth": "20kbps"}],
        "traffic": [{"rate": 1, "mean_off": "1s"}],
    }


def test_numeric_claims_use_the_tolerance() -> None:
    assert numeric("x", "t", 100.0, 110.0).verdict == REPRODUCED
    bad = numeric("x", "t", 100.0, 120.0)
    assert bad.verdict == NOT_REPRODUCED
    assert bad.rel_diff == pytest.approx(0.2)
    assert "+20.0%" in bad.note


def _fake(alg: str, queue: list[float], cwnd: list[float]) -> RunResult:
    times = np.arange(len(queue)) * 0.25
    series = {
        ("link", "bottleneck:a->b", "queue_pkts"): np.array(queue, dtype=float),
        ("flow", "tcp", "cwnd_pkts"): np.array(cwnd, dtype=float),
    }
    summary = {
        "links": [{"id": "bottleneck", "direction": "a->b", "drops": 0, "bandwidth_bps": 40e6}],
        "flows": [{"id": "tcp", "min_rtt_s": 0.02}],
    }
    return RunResult(RunKey("rttbased-simple", alg, None, 1), summary, times, series)


def test_a_claim_that_should_fail_does_fail_on_a_crafted_result() -> None:
    exp = EXPERIMENTS["rttbased-simple"]
    # Samples at t = 0, 0.25, ..., 4.5 s (a 40 Mb/s, 20 ms path: the burst leaves room for 50 + 3 segments).
    # A window that drops to that within 0.25 s of the burst and regains its 100 segments 0.25 s after it,
    # over a small queue, versus one that never comes down during the burst and needs a second to regain,
    # over a large queue that grows again after 3 s.
    quick_w = [100.0] * 7 + [55.0] * 6 + [100.0] * 6
    slow_w = [100.0] * 7 + [70.0] * 6 + [75.0, 80.0, 85.0, 90.0, 95.0, 100.0]
    small_q = [2.0] * 6 + [20.0, 5.0] + [2.0] * 5 + [3.0] * 6
    large_q = [2.0] * 6 + [150.0] * 6 + [40.0, 60.0, 60.0, 50.0, 40.0, 30.0, 20.0]
    good = RunSet(exp, [_fake("rttbased", small_q, quick_w), _fake("vegas", large_q, slow_w)])
    verdicts = [c.verdict for c in p001.claims_simple(good)]
    assert verdicts == [REPRODUCED] * 2
    # Swap the roles: now RTT-based TCP responds later and queues more, and every claim must fail.
    bad = RunSet(exp, [_fake("rttbased", large_q, slow_w), _fake("vegas", small_q, quick_w)])
    assert [c.verdict for c in p001.claims_simple(bad)] == [NOT_REPRODUCED] * 2


class _Images(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.srcs: list[str] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        if tag == "img":
            self.srcs.append(dict(attrs).get("src") or "")


def test_a_small_reproduction_writes_figures_tables_and_a_self_contained_report(tmp_path: Path) -> None:
    page = reproduce("P001", tmp_path, workers=2, progress=False, root=ROOT)
    html = page.read_text()
    parser = _Images()
    parser.feed(html)
    assert parser.tags[0] == "html" and "body" in parser.tags
    assert len(parser.srcs) == 2, "one figure per experiment"
    for src in parser.srcs:
        assert src.startswith("data:image/png;base64,")
        png = base64.b64decode(src.split(",", 1)[1], validate=True)
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 5000
    md = (tmp_path / "report.md").read_text()
    assert "P001 Table 1: throughput and fairness" in md
    # A numeric claim sits next to the paper's value, its criterion, the ensemble's figure, the runs in
    # which it held, and the verdict.
    claim = re.escape("| vegas: Jain's fairness index (P001 Table 1) | 0.871 | ")
    assert re.search(
        claim + r"[^|]+ \| [0-9.]+( ± [0-9.]+)? \| ([0-9]/5|-) \| (REPRODUCED|NOT REPRODUCED) \|", md
    )
    verdicts = re.findall(r"\| (REPRODUCED|NOT REPRODUCED|NOT COMPARABLE) \|", md)
    assert len(verdicts) >= 10
    assert (tmp_path / "rttbased-simple" / "rttbased-simple.png").exists()
    assert (tmp_path / "runs.json").exists()


def test_cli_rejects_an_unknown_target(tmp_path: Path) -> None:
    p = run_cli("reproduce", "nonsense", "--out", str(tmp_path))
    assert p.returncode == 2
    assert "unknown experiment or paper 'nonsense'" in p.stderr
    assert "Traceback" not in p.stderr
