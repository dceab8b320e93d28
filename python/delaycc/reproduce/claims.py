"""Helpers that turn measurements into claims with verdicts. Every verdict is computed from results;
none is written by hand. Numeric claims are reproduced when our value is within `NUMERIC_TOLERANCE` of
the paper's (relative); qualitative claims when the stated relation holds."""

from __future__ import annotations

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
