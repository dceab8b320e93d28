"""`delaycc reproduce beyond`: our experiments beyond the papers (docs/beyond.md). The catalogue's runs are
valid scenarios with the discipline and scheme they claim; a shortened ensemble (6 s runs, two seeds)
writes one throughput-delay plane per bottleneck and a report part "Beyond the papers" whose claims are
hypotheses with verdicts, each of whose criteria can fail; and the same seeds give the same report."""

from __future__ import annotations

import dataclasses
import json
import pickle
import random
import re
from pathlib import Path
from typing import Any

import pytest
from test_claims import flips

import delaycc
from delaycc.errors import ScenarioError
from delaycc.reproduce import BEYOND, EXPERIMENTS, beyond, catalogue, family, reproduce, select
from delaycc.reproduce.criteria import Order, stats
from delaycc.reproduce.model import (
    NOT_REPRODUCED,
    NOT_SUPPORTED,
    PART_BEYOND,
    REPRODUCED,
    SUPPORTED,
    Claim,
    Experiment,
    RunKey,
    RunSet,
)
from delaycc.reproduce.runs import keys_for, run_one, scenario_for

from conftest import ROOT

SHORT_S = 6.0
SHORT_SEEDS = (1, 2)


def test_beyond_is_its_own_target_and_all_stays_the_papers() -> None:
    assert [e.id for e in select("beyond")] == [
        "beyond-aqm",
        "beyond-shared",
        "beyond-lte",
        *(e.id for e in family.EXPERIMENTS),
    ]
    assert not set(BEYOND) & set(EXPERIMENTS)
    assert all(e.part == "" for e in select("all")) and len(select("all")) == 12
    assert [e.id for e in select("beyond-lte")] == ["beyond-lte"]
    assert all(e.part == PART_BEYOND for e in BEYOND.values())
    with pytest.raises(ValueError, match="ns-2 referee runs the papers' experiments only"):
        reproduce("beyond-lte", Path("unused"), referee="ns2")


def test_every_run_of_the_beyond_catalogue_is_a_valid_scenario() -> None:
    for e in BEYOND.values():
        assert (ROOT / e.scenario).is_file(), e.id
        assert e.claims is not None and e.figures is not None and e.tables is not None
        keys = keys_for(e)
        points = len(e.sweep.labels) if e.sweep else 1
        assert len(keys) == len(e.compare) * points * len(e.seeds)
        for key in keys:
            doc = scenario_for(e, key, ROOT)
            delaycc.validate(doc)
            tested = [f for f in doc["flows"] if f["id"] in e.flows]
            assert tested and all(f["algorithm"] == key.algorithm for f in tested)
            others = [f for f in doc["flows"] if f["id"] not in e.flows]
            if e.id == "beyond-scavengers":
                assert [f["algorithm"] for f in others] == [beyond_queue_free(e, key)]
                continue
            assert all(f["algorithm"] == "cubic" for f in others), "only CUBIC shares a link as the control"
            if e.id == "beyond-fabric-incast":
                assert doc["links"][0]["buffer"] == key.point and doc["duration"] == "5ms"
                continue
            if e.sweep is not None:
                link = doc["links"][int(e.sweep.key.split("[")[1].split("]")[0])]
                assert link["id"] in ("bottleneck", "lte")
                assert link["queue"] == beyond.queue_of(key.point)
            if key.algorithm in beyond.FAST_FAMILY:
                assert all(f["params"] == {"alpha": beyond.ALPHA} for f in tested)


def beyond_queue_free(e: Experiment, key: RunKey) -> str:
    """The competitor a scavenger run puts beside the scavenger (its sweep value)."""
    assert e.sweep is not None and key.point is not None
    return str(e.sweep.values[list(e.sweep.labels).index(key.point)])


def test_the_family_experiments_read_their_measures_from_real_runs() -> None:
    # The fabric runs are milliseconds: one seed of the permutation and of the deep-buffer incast, whole.
    perm = dataclasses.replace(BEYOND["beyond-fabric-permutation"], seeds=(1,))
    rs = RunSet(perm, [run_one(perm, k, ROOT) for k in keys_for(perm) if k.algorithm in ("swift", "newreno")])
    swift, newreno = rs.get("swift"), rs.get("newreno")
    assert family.fct(swift, "completed") == 16 and family.all_drops(swift) == 0
    assert family.fct(swift, "mean_s") < family.fct(newreno, "mean_s")
    inc = dataclasses.replace(BEYOND["beyond-fabric-incast"], seeds=(1,))
    r = run_one(inc, RunKey(inc.id, "swift", 2000.0, 1), ROOT)
    assert r.link("h0-e0_0", "b->a")["drops"] == 0, "the 2000-packet port itself never overflows"
    assert 0 < family.port_queue_us(r) < family.target_queue_us(r) < 150


def test_a_trace_named_by_a_scenario_is_read_beside_its_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    e = BEYOND["beyond-lte"]
    doc = scenario_for(e, keys_for(e)[0], ROOT)
    link = doc["links"][1]
    for key in ("bandwidth_trace", "reverse_bandwidth_trace"):
        assert Path(link[key]).is_absolute() and Path(link[key]).is_file()
    delaycc.validate(doc)


def test_the_trace_capacity_repeats_with_the_trace() -> None:
    # scenarios/traces/README.md: 58655 opportunities over 140 s, 5.03 Mb/s.
    one = beyond.trace_capacity_bps(0.0, 140.0)
    assert one == pytest.approx(58655 * 1500 * 8 / 140.0, rel=1e-3)
    assert beyond.trace_capacity_bps(140.0, 280.0) == pytest.approx(one, rel=1e-3)
    assert beyond.trace_capacity_bps(15.0, 60.0) > 0


def test_a_scenario_error_crosses_into_another_process_whole() -> None:
    err = pickle.loads(pickle.dumps(ScenarioError(["f.toml:3: links[0].delay: bad", "f.toml:4: x: y"])))
    assert err.errors == ["f.toml:3: links[0].delay: bad", "f.toml:4: x: y"]


def test_a_hypothesis_is_supported_or_not_never_reproduced() -> None:
    def claim(verdict: str) -> Claim:
        return Claim("x", "t", "hypothesis", "1", verdict)

    assert beyond.hypothesis(claim(REPRODUCED)).verdict == SUPPORTED
    assert beyond.hypothesis(claim(NOT_REPRODUCED)).verdict == NOT_SUPPORTED


def can_flip(check: Any) -> bool:
    """test_claims.flips, with orderings probed far enough apart to clear their minimum effect (ours go
    up to 'under half')."""
    if isinstance(check, tuple):
        return all(can_flip(c) for c in check)
    if isinstance(check, Order):
        lo = stats([1.0, 1.1, 0.9])
        hi = stats([v * (2 + 4 * check.min_effect) for v in lo.values])
        return check.holds(hi, lo) != check.holds(lo, hi)
    return flips(check)


def _shortened(doc: dict[str, Any], _key: RunKey, _rng: random.Random) -> None:
    doc["duration"] = f"{SHORT_S}s"
    for flow in doc["flows"]:
        if float(flow.get("start", 0)) >= 1.0:  # a late joiner (beyond-aqm's f2, Copa's CUBIC, LEDBAT's f2)
            flow["start"] = 1.0


def _short(e: Experiment) -> Experiment:
    # The fabric experiments' runs are already milliseconds (their own `vary` or file): kept as they are.
    vary = e.vary if e.id.startswith("beyond-fabric") else _shortened
    return dataclasses.replace(e, seeds=SHORT_SEEDS, vary=vary, jitter_s=min(e.jitter_s, 0.5))


@pytest.fixture
def shortened(monkeypatch: pytest.MonkeyPatch) -> None:
    """The beyond experiments with 6-s runs and two seeds, where both `select` and the in-process worker
    (`workers=1`) look them up."""
    for eid, e in BEYOND.items():
        monkeypatch.setitem(catalogue.BEYOND, eid, _short(e))
        monkeypatch.setitem(catalogue.REGISTRY, eid, _short(e))


@pytest.mark.usefixtures("shortened")
def test_a_shortened_beyond_run_writes_the_planes_and_a_part_with_verdicts(tmp_path: Path) -> None:
    page = reproduce("beyond", tmp_path / "a", workers=1, progress=False, root=ROOT)
    out = page.parent
    for name in ("beyond-scavengers/beyond-scavengers-cubic.png", "beyond-copa-lte/beyond-copa-lte.png"):
        assert (out / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", name
    planes = [(e, q) for e in ("beyond-aqm", "beyond-shared") for q in beyond.QUEUES]
    for e, q in [*planes, *(("beyond-lte", q) for q in beyond.LTE_QUEUES)]:
        png = out / e / f"{e}-{q}.png"
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", png
    md = (out / "report.md").read_text()
    assert md.startswith("# delaycc: beyond the papers")
    assert "\n## Beyond the papers\n" in md
    for eid in BEYOND:
        assert f"\n## {eid} (ours): " in md
    verdicts = re.findall(r"\| (SUPPORTED|NOT SUPPORTED|REPRODUCED|NOT REPRODUCED) \|", md)
    assert verdicts and set(verdicts) <= {"SUPPORTED", "NOT SUPPORTED"}
    assert re.search(r"\*\*Our hypotheses: \d+ supported, \d+ not supported\.\*\*", md)
    html = page.read_text()
    assert '<h2 id="beyond-the-papers" class="part">Beyond the papers' in html
    assert '<li><a href="#beyond-the-papers">Beyond the papers</a><ol><li><a href="#beyond-aqm">' in html
    assert 'value="supported"' in html or 'value="not-supported"' in html
    ids = re.findall(r' id="([^"]+)"', html)
    assert len(ids) == len(set(ids)), "ids are unique"
    targets = re.findall(r' href="#([^"]+)"', html)
    assert targets and set(targets) <= set(ids), "every in-page link lands"
    # Same seeds, same runs and figures.
    again = reproduce("beyond-lte", tmp_path / "b", workers=1, progress=False, root=ROOT).parent
    for q in beyond.LTE_QUEUES:
        name = f"beyond-lte/beyond-lte-{q}.png"
        assert (again / name).read_bytes() == (out / name).read_bytes()

    def lte_runs(d: Path) -> list[dict[str, Any]]:
        rows = json.loads((d / "runs.json").read_text())
        return [
            {**r, "summary": {**r["summary"], "wall_s": None}}
            for r in rows
            if r["experiment"] == "beyond-lte"
        ]

    assert lte_runs(again) == lte_runs(out)


@pytest.mark.usefixtures("shortened")
def test_every_beyond_hypothesis_can_fail() -> None:
    from delaycc.reproduce import claims_for

    for eid in BEYOND:
        claims = claims_for(eid, workers=1, root=ROOT)
        assert claims, eid
        for c in claims:
            assert c.verdict in (SUPPORTED, NOT_SUPPORTED), f"{eid}: {c.text!r}: {c.verdict}"
            assert c.paper.startswith("hypothesis"), f"{eid}: {c.text!r} is not stated as a hypothesis"
            assert c.check is not None and can_flip(c.check), f"{eid}: {c.text!r}: its criterion cannot flip"
            assert c.criterion and c.held and c.reads, f"{eid}: {c.text!r}"
