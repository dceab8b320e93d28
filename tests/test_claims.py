"""Every claim of the reproduction can fail, and every ensemble's runs differ (issue 19).

All twelve experiments run once per module with an ensemble of two runs (the criteria do not depend on the
ensemble's size; `delaycc reproduce` runs five). Each claim that counts as evidence carries its criterion
object; fed values on both sides of its threshold, it must give both verdicts.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from delaycc.reproduce import EXPERIMENTS
from delaycc.reproduce.criteria import Bound, Near, Order, stats
from delaycc.reproduce.model import (
    BY_CONSTRUCTION,
    NOT_COMPARABLE,
    NOT_REPRODUCED,
    REPRODUCED,
    SETUP,
    Claim,
    RunSet,
)
from delaycc.reproduce.pool import run_all
from delaycc.reproduce.runs import keys_for

from conftest import ROOT

ENSEMBLE = (1, 2)


@pytest.fixture(scope="module")
def claims() -> dict[str, tuple[RunSet, list[Claim]]]:
    # An experiment whose outcome nothing the paper leaves open can change runs as one run (its own seeds).
    experiments = [
        dataclasses.replace(e, seeds=ENSEMBLE if len(e.seeds) > 1 else e.seeds) for e in EXPERIMENTS.values()
    ]
    jobs = [(k, str(ROOT)) for e in experiments for k in keys_for(e)]
    results = run_all(jobs, workers=2)
    out = {}
    for e in experiments:
        rs = RunSet(e, [r for r in results if r.key.experiment == e.id])
        assert e.claims is not None
        out[e.id] = (rs, e.claims(rs))
    return out


def flips(check: Any) -> bool:
    """Whether a criterion accepts some values and rejects others."""
    if isinstance(check, tuple):
        return all(flips(c) for c in check)
    if isinstance(check, Near):
        return check.holds(check.inside()) and not check.holds(check.outside())
    if isinstance(check, Bound):
        inside, outside = stats([check.inside()] * 3), stats([check.outside()] * 3)
        return check.holds(inside) and not check.holds(outside)
    if isinstance(check, Order):
        hi, lo = stats([2.0, 2.1, 1.9]), stats([1.0, 1.1, 0.9])
        return check.holds(hi, lo) != check.holds(lo, hi)
    return False


def test_every_claim_that_counts_can_fail(claims: dict[str, tuple[RunSet, list[Claim]]]) -> None:
    for eid, (_, cs) in claims.items():
        for c in cs:
            assert c.verdict in (REPRODUCED, NOT_REPRODUCED, SETUP, BY_CONSTRUCTION, NOT_COMPARABLE)
            if c.verdict in (REPRODUCED, NOT_REPRODUCED):
                assert c.check is not None, f"{eid}: {c.text!r} has no criterion object"
                assert flips(c.check), f"{eid}: {c.text!r}: its criterion cannot flip"
                assert c.criterion and c.held, f"{eid}: {c.text!r} states no criterion or runs held"
            else:
                assert c.criterion or c.note, f"{eid}: {c.text!r} ({c.verdict}) says not why"
            assert c.reads, f"{eid}: {c.text!r} does not name the algorithms it reads"


def test_the_runs_of_an_ensemble_differ(claims: dict[str, tuple[RunSet, list[Claim]]]) -> None:
    for eid, (rs, _) in claims.items():
        if len(rs.experiment.seeds) == 1:
            assert rs.experiment.jitter_s == 0, f"{eid}: a one-run ensemble must say so (jitter_s = 0)"
            continue
        for alg in rs.experiment.compare:
            points = list(rs.experiment.sweep.labels) if rs.experiment.sweep else [None]
            for point in points:
                runs = rs.seeds(alg, point)
                assert len(runs) == len(ENSEMBLE)
                summaries = [{**r.summary, "wall_s": None} for r in runs]
                assert summaries[0] != summaries[1], f"{eid} {alg} {point}: the ensemble's runs are identical"


@pytest.mark.parametrize(
    ("check", "inside", "outside"),
    [
        (Near(97.2, "points", 0.5, "one decimal"), 97.6, 98.0),
        (Near(0.999, "1-x", 0.5, "three decimals"), 0.9986, 0.997),
        (Near(3.0, "log", 0.25, "about"), 3.6, 4.0),
        (Near(430.0, "relative", 0.05, "three digits"), 445.0, 460.0),
    ],
)
def test_scales(check: Near, inside: float, outside: float) -> None:
    assert check.holds(inside) and not check.holds(outside)


def test_an_ordering_must_clear_the_spread() -> None:
    order = Order(">", "A", "B")
    assert order.holds(stats([10, 11, 10.5]), stats([5, 5.5, 5.2]))
    # A mean difference on the right side whose interval includes zero does not count.
    assert not order.holds(stats([10, 4, 10.5]), stats([5, 9, 5.2]))


def test_p003s_full_ensembles_have_no_two_identical_runs() -> None:
    """P003's runs differ by where the induced loss falls (stratified, so no two runs drop one packet);
    random draws once put two losses before the same packet and made two of five runs identical."""
    for eid in ("emfast-single", "emfast-competing"):
        e = EXPERIMENTS[eid]
        keys = [k for k in keys_for(e) if k.algorithm == "fast"]
        assert len(keys) == 5
        runs = run_all([(k, str(ROOT)) for k in keys], workers=2)
        summaries = [repr({**r.summary, "wall_s": None}) for r in runs]
        assert len(set(summaries)) == len(summaries), f"{eid}: two runs of the ensemble are identical"
