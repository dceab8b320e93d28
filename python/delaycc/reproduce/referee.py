"""`delaycc reproduce --referee ns2`: every run whose algorithm ns-2 has, run again in ns-2, and each claim
judged on ns-2's runs too.

A claim function reads whatever runs it needs, and ns-2 lacks some algorithms (VFAST, RRFast, EMFAST, ...).
So the claims are evaluated on ns-2's runs with delaycc's runs standing in for the missing ones, three
times: once as they are and twice with every stand-in's figures scaled (by 1.37 and by 0.61). A claim
whose figure or verdict moves with the scaling reads a stand-in and has no ns-2 verdict; one that does not
move rests on ns-2's runs alone, and its ns-2 figure and verdict are reported beside delaycc's.
"""

from __future__ import annotations

import copy
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..ns2 import Ns2Error, Ns2Unsupported, results, runner
from ..ns2.agents import AGENTS
from ..ns2.locate import Ns2
from ..ns2.scenario import from_doc
from .model import KEPT_FLOW_METRICS, KEPT_LINK_METRICS, Claim, Experiment, RunKey, RunResult, RunSet
from .plotting import finish, panels

SCALES = (1.37, 0.61)
"""Factors applied to the stand-ins' figures; a claim that depends on a stand-in changes with them."""
NOT_ON_NS2 = "n/a"


@dataclass(frozen=True)
class Ns2Job:
    key: RunKey
    root: str
    binary: Ns2
    timeout_s: float


def plan(exp: Experiment, keys: list[RunKey], root: Path, binary: Ns2) -> tuple[list[RunKey], list[str]]:
    """The runs of an experiment ns-2 can make, and one line per algorithm it cannot (and why)."""
    from .runs import scenario_for

    runnable: list[RunKey] = []
    reasons: dict[str, str] = {}
    for key in keys:
        if key.algorithm in reasons:
            continue
        if key.algorithm not in AGENTS:
            reasons[key.algorithm] = "ns-2 has no agent for it"
            continue
        if AGENTS[key.algorithm].agent not in binary.agents:
            reasons[key.algorithm] = f"this ns-2 has no Agent/TCP/{AGENTS[key.algorithm].agent}"
            continue
        try:
            from_doc(scenario_for(exp, key, root), str(exp.scenario), {})
        except Ns2Unsupported as e:
            reasons[key.algorithm] = e.errors[0].split(": ", 1)[-1]
            continue
        runnable.append(key)
    return runnable, [f"{alg}: {why}" for alg, why in reasons.items()]


def run_one(job: Ns2Job) -> RunResult:
    from . import EXPERIMENTS
    from .runs import scenario_for

    exp = EXPERIMENTS[job.key.experiment]
    doc = scenario_for(exp, job.key, Path(job.root))
    s, differences = from_doc(doc, str(exp.scenario), {})
    with tempfile.TemporaryDirectory(prefix="delaycc-referee-") as tmp:
        raw = runner.run(job.binary, s, Path(tmp), job.timeout_s)
        result = results.build(s, raw, job.binary, differences)
    n = len(result._times)
    kept: dict[tuple[str, str, str], np.ndarray] = {}
    for i, (kind, oid, metric) in enumerate(result._series):
        if (kind == "flow" and metric in KEPT_FLOW_METRICS) or (
            kind == "link" and metric in KEPT_LINK_METRICS
        ):
            kept[(kind, oid, metric)] = np.array(result._values[i * n : (i + 1) * n])
    return RunResult(job.key, result.summary, np.array(result._times), kept)


def _scaled(value: Any, factor: float) -> Any:
    if isinstance(value, dict):
        return {k: _scaled(v, factor) for k, v in value.items()}
    if isinstance(value, list):
        return [_scaled(v, factor) for v in value]
    if isinstance(value, bool) or not isinstance(value, int | float):
        return value
    return value * factor


def _stand_in(r: RunResult, factor: float) -> RunResult:
    if factor == 1.0:
        return r
    series = {k: v * factor for k, v in r.series.items()}
    return RunResult(r.key, _scaled(copy.deepcopy(r.summary), factor), r.times, series)


def _evaluate(
    claims: Callable[[RunSet], list[Claim]],
    exp: Experiment,
    ours: list[RunResult],
    ns2: dict[RunKey, RunResult],
    factor: float,
) -> list[Claim] | None:
    runs = [ns2.get(r.key) or _stand_in(r, factor) for r in ours]
    try:
        return claims(RunSet(exp, runs))
    except (ArithmeticError, KeyError, ValueError, IndexError):
        return None


def judge(exp: Experiment, ours: list[RunResult], ns2: dict[RunKey, RunResult], claims: list[Claim]) -> None:
    """Fills each claim's ns-2 figure and verdict where it rests on ns-2's runs alone."""
    if exp.claims is None:
        return
    if not any(r.key in ns2 for r in ours):
        for c in claims:
            c.ns2_verdict = NOT_ON_NS2
        return
    base = _evaluate(exp.claims, exp, ours, ns2, 1.0)
    moved = [_evaluate(exp.claims, exp, ours, ns2, f) for f in SCALES]
    for i, c in enumerate(claims):
        c.ns2_verdict = NOT_ON_NS2
        if base is None or i >= len(base) or base[i].text != c.text:
            continue
        b = base[i]
        if any(
            m is None or i >= len(m) or (m[i].measured, m[i].verdict) != (b.measured, b.verdict)
            for m in moved
        ):
            continue
        c.ns2_measured, c.ns2_verdict = b.measured, b.verdict
        if b.verdict != c.verdict:
            c.ns2_note = (
                f"ns-2 and delaycc disagree: ns-2 measures {b.measured} ({b.verdict}), delaycc {c.measured} "
                f"({c.verdict})"
            )


def figure(exp: Experiment, ours: list[RunResult], ns2: dict[RunKey, RunResult], out: Path) -> Path | None:
    """One panel per algorithm ns-2 ran (first sweep point and seed): the first flow's window in both."""
    firsts: dict[str, RunResult] = {}
    for r in ours:
        if r.key in ns2 and r.key.algorithm not in firsts:
            firsts[r.key.algorithm] = r
    if not firsts:
        return None
    fid = exp.flows[0]
    fig, axes = panels(len(firsts), f"{exp.id}: window of {fid}, delaycc (solid) and ns-2 (dashed)")
    for ax, (alg, r) in zip(axes, firsts.items(), strict=True):
        other = ns2[r.key]
        point = "" if r.key.point is None else f" at {r.key.point:g}"
        for run, style, who in ((r, "-", "delaycc"), (other, "--", "ns-2")):
            key = ("flow", fid, "cwnd_pkts")
            if key in run.series:
                ax.plot(run.times, run.series[key], style, linewidth=1, label=f"{alg}{point} {who}")
        ax.set_ylabel("packets")
    return finish(fig, axes, "time (s)", out / f"{exp.id}-ns2-window.png")


def check_binary(explicit: str | None) -> Ns2:
    from ..ns2.locate import locate

    try:
        return locate(explicit)
    except Ns2Error as e:
        raise ValueError(str(e)) from None
