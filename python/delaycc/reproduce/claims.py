"""Helpers that turn measurements into claims with verdicts. Every verdict is computed from results;
none is written by hand. Numeric claims are reproduced when our value is within `NUMERIC_TOLERANCE` of
the paper's (relative); qualitative claims when the stated relation holds."""

from __future__ import annotations

from .criteria import Bound, Near, Order, Stats
from .model import NOT_COMPARABLE, NOT_REPRODUCED, REPRODUCED, Claim

NUMERIC_TOLERANCE = 0.15


def numeric(
    experiment: str,
    text: str,
    paper: float,
    ours: float,
    unit: str = "",
    tolerance: float = NUMERIC_TOLERANCE,
) -> Claim:
    rel = (ours - paper) / paper if paper else float("inf")
    verdict = REPRODUCED if abs(rel) <= tolerance else NOT_REPRODUCED
    return Claim(
        experiment,
        text,
        f"{paper:g}{unit}",
        f"{ours:.4g}{unit}",
        verdict,
        note=f"relative difference {rel:+.1%} (tolerance ±{tolerance:.0%})",
        rel_diff=rel,
    )


def check(experiment: str, text: str, paper: str, measured: str, holds: bool, note: str = "") -> Claim:
    return Claim(experiment, text, paper, measured, REPRODUCED if holds else NOT_REPRODUCED, note)


def not_comparable(experiment: str, text: str, paper: str, measured: str, why: str) -> Claim:
    return Claim(experiment, text, paper, measured, NOT_COMPARABLE, why)


def _verdict(ok: bool) -> str:
    return REPRODUCED if ok else NOT_REPRODUCED


def near(
    experiment: str,
    text: str,
    paper: str,
    ours: Stats,
    criterion: Near,
    unit: str = "",
    fmt: str = ".4g",
    reads: tuple[str, ...] = (),
    note: str = "",
) -> Claim:
    """A number the paper reports: the ensemble mean within the criterion's tolerance."""
    held = sum(criterion.holds(v) for v in ours.values)
    return Claim(
        experiment,
        text,
        paper,
        ours.show(fmt, unit),
        _verdict(criterion.holds(ours.mean)),
        note,
        rel_diff=(ours.mean - criterion.paper) / criterion.paper if criterion.paper else None,
        criterion=criterion.text(),
        held=f"{held}/{ours.n}",
        check=criterion,
        reads=reads,
    )


def bound(
    experiment: str,
    text: str,
    paper: str,
    ours: Stats,
    criterion: Bound,
    unit: str = "",
    fmt: str = ".4g",
    reads: tuple[str, ...] = (),
    note: str = "",
) -> Claim:
    """A qualitative statement read as a threshold on one measured figure."""
    held = sum(criterion.holds_run(v) for v in ours.values)
    return Claim(
        experiment,
        text,
        paper,
        ours.show(fmt, unit),
        _verdict(criterion.holds(ours)),
        note,
        criterion=criterion.text(),
        held=f"{held}/{ours.n}",
        check=criterion,
        reads=reads,
    )


def order(
    experiment: str,
    text: str,
    paper: str,
    a: Stats,
    b: Stats,
    criterion: Order,
    unit: str = "",
    fmt: str = ".4g",
    reads: tuple[str, ...] = (),
    note: str = "",
) -> Claim:
    """An ordering the paper states, tested on paired runs."""
    held = sum(criterion.holds_run(x, y) for x, y in zip(a.values, b.values, strict=True))
    return Claim(
        experiment,
        text,
        paper,
        f"{criterion.a} {a.show(fmt, unit)} vs {criterion.b} {b.show(fmt, unit)}",
        _verdict(criterion.holds(a, b)),
        note,
        criterion=criterion.text(),
        held=f"{held}/{a.n}",
        check=criterion,
        reads=reads,
    )


def both(experiment: str, text: str, paper: str, parts: list[Claim], note: str = "") -> Claim:
    """A sentence that joins statements: reproduced only when every part is."""
    ok = all(p.verdict == REPRODUCED for p in parts)
    held = [p.held for p in parts if p.held]
    return Claim(
        experiment,
        text,
        paper,
        "; ".join(p.measured for p in parts),
        _verdict(ok),
        note,
        criterion=" and ".join(f"({p.criterion})" for p in parts),
        held=", ".join(held),
        check=tuple(p.check for p in parts),
        reads=tuple(dict.fromkeys(a for p in parts for a in p.reads)),
    )


def label(
    experiment: str, text: str, paper: str, measured: str, kind: str, why: str, reads: tuple[str, ...] = ()
) -> Claim:
    """A statement that holds by the scenario's set-up or by how an algorithm is built: shown, not counted."""
    return Claim(experiment, text, paper, measured, kind, why, criterion=f"{kind}: {why}", reads=reads)
