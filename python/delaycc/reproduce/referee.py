"""`delaycc reproduce --referee ns2`: every run whose algorithm ns-2 has, run again in ns-2, and each claim
judged on ns-2's runs too.

A claim that names the algorithms it reads (`Claim.reads`) has an ns-2 verdict exactly when ns-2 ran all
of them. For a claim that does not, the referee tests what it reads: ns-2 lacks some algorithms (VFAST,
RRFast, EMFAST, ...), so the claims are evaluated on ns-2's runs with delaycc's runs standing in for the
missing ones, four times: once as they are; twice with every figure of every stand-in multiplied by its
own factor (between 0.63 and 1.37, different for each value, so that ratios, orderings and fairness
indices move too) and shifted by its own 0.1 to 0.9 (so that zeros move too); and once with every figure
replaced by NaN. A claim whose figure or verdict moves in any of these reads a stand-in and has no ns-2
verdict; one that does not move rests on ns-2's runs alone. A claim whose measured text shows no figure at
all ("holds", "different") could hide a stand-in behind an unchanged word, so it gets no ns-2 verdict
either. This is evidence, not proof, which is why claims name what they read.
"""

from __future__ import annotations

import copy
import re
import tempfile
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from ..ns2 import Ns2Error, Ns2Unsupported, results, runner
from ..ns2.agents import AGENTS
from ..ns2.locate import Ns2, locate
from ..ns2.scenario import from_doc
from ..plots.panels import finish, panels
from .catalogue import EXPERIMENTS
from .model import (
    NOT_COMPARABLE,
    Claim,
    Experiment,
    RunKey,
    RunResult,
    RunSet,
)
from .runs import kept, scenario_for

T = TypeVar("T")
VARIANTS = ("wave", "other wave", "nan")
"""How the stand-ins' figures are changed; a claim that depends on a stand-in moves with them."""
NOT_ON_NS2 = "n/a"
NAN = re.compile(r"\bnan\b", re.IGNORECASE)


@dataclass(frozen=True)
class Ns2Job:
    key: RunKey
    root: str
    binary: Ns2
    timeout_s: float


def plan(exp: Experiment, keys: list[RunKey], root: Path, binary: Ns2) -> tuple[list[RunKey], list[str]]:
    """The runs of an experiment ns-2 can make, and one line per algorithm it cannot (and why)."""
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
    exp = EXPERIMENTS[job.key.experiment]
    doc = scenario_for(exp, job.key, Path(job.root))
    s, differences = from_doc(doc, str(exp.scenario), {})
    with tempfile.TemporaryDirectory(prefix="delaycc-referee-") as tmp:
        raw = runner.run(job.binary, s, Path(tmp), job.timeout_s)
        result = results.build(s, raw, job.binary, differences)
    # P003's convergence episodes come from delaycc's transport; ns-2 has none to report. An empty list lets
    # the claims that need them come out as NaN (not measured) without stopping the others.
    for f in result.summary["flows"]:
        f.setdefault("convergence_episodes", [])
    return kept(job.key, result)


def _factors(n: int, variant: str, offset: int) -> np.ndarray:
    i = np.arange(offset, offset + n, dtype=float)
    if variant == "nan":
        return np.full(n, np.nan)
    return 1 + 0.37 * (np.sin(i + 1.0) if variant == "wave" else np.cos(2.0 * i + 0.5))


def _shift(n: int, variant: str, offset: int) -> np.ndarray:
    """Added after the factor, so that zeros (no drops, no timeouts, an empty queue) move too."""
    i = np.arange(offset, offset + n, dtype=float)
    return 0.5 + 0.4 * (np.cos(i) if variant == "wave" else np.sin(3.0 * i))


def _changed(value: Any, variant: str, counter: list[int]) -> Any:
    if isinstance(value, dict):
        return {k: _changed(v, variant, counter) for k, v in value.items()}
    if isinstance(value, list):
        return [_changed(v, variant, counter) for v in value]
    if isinstance(value, bool) or not isinstance(value, int | float):
        return value
    counter[0] += 1
    if variant == "nan":
        return float("nan")
    return value * float(_factors(1, variant, counter[0])[0]) + float(_shift(1, variant, counter[0])[0])


def _stand_in(r: RunResult, variant: str | None) -> RunResult:
    if variant is None:
        return r
    counter = [0]
    summary = _changed(copy.deepcopy(r.summary), variant, counter)
    series = {}
    for k, v in r.series.items():
        series[k] = (
            v * _factors(len(v), variant, counter[0])
            if variant == "nan"
            else v * _factors(len(v), variant, counter[0]) + _shift(len(v), variant, counter[0])
        )
        counter[0] += len(v)
    return RunResult(r.key, summary, r.times, series)


def _evaluate(
    claims: Callable[[RunSet], list[Claim]],
    exp: Experiment,
    ours: list[RunResult],
    ns2: dict[RunKey, RunResult],
    variant: str | None,
) -> list[Claim] | None:
    runs = [ns2.get(r.key) or _stand_in(r, variant) for r in ours]
    return _quietly(lambda: claims(RunSet(exp, runs)))


def _quietly(make: Callable[[], T]) -> T | None:
    """What a claim or figure function returns on runs with stand-ins (NaN among them), or None when it
    cannot work on them; numpy's warnings about NaN are expected there."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return make()
        except (ArithmeticError, KeyError, ValueError, IndexError, TypeError):
            return None


def judge(exp: Experiment, ours: list[RunResult], ns2: dict[RunKey, RunResult], claims: list[Claim]) -> None:
    """Fills each claim's ns-2 figure and verdict where it rests on ns-2's runs alone."""
    if exp.claims is None:
        return
    if not any(r.key in ns2 for r in ours):
        for c in claims:
            c.ns2_verdict = NOT_ON_NS2
        return
    base = _evaluate(exp.claims, exp, ours, ns2, None)
    moved = [_evaluate(exp.claims, exp, ours, ns2, v) for v in VARIANTS]
    # NaN stand-ins may stop a claim function altogether (an int() of a NaN); the waves may not.
    if moved[-1] is None:
        moved = moved[:-1]
    ran = {r.key.algorithm for r in ours if r.key in ns2}
    missing = {r.key.algorithm for r in ours if r.key not in ns2}
    for i, c in enumerate(claims):
        c.ns2_verdict = NOT_ON_NS2
        if base is None or i >= len(base) or base[i].text != c.text:
            continue
        b = base[i]
        if NAN.search(b.measured) or (b.verdict == NOT_COMPARABLE and c.verdict != NOT_COMPARABLE):
            continue  # not measured by the ns-2 harness
        if c.reads:
            # The claim names the runs it reads: ns-2 decides it exactly when it made all of them.
            if not set(c.reads) <= ran or set(c.reads) & missing:
                continue
        elif not any(ch.isdigit() for ch in b.measured):
            continue  # a bare "holds"/"different" would not show that a stand-in was read
        elif any(
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


def paper_figures(
    exp: Experiment, ours: list[RunResult], ns2: dict[RunKey, RunResult], out: Path
) -> list[Path]:
    """The experiment's own figures drawn from ns-2's runs, into ``out`` (a folder of their own): the
    algorithms ns-2 lacks get NaN stand-ins, so their lines are simply absent. A figure that cannot be
    drawn that way is left out."""
    if exp.figures is None or not any(r.key in ns2 for r in ours):
        return []
    runs = [ns2.get(r.key) or _stand_in(r, "nan") for r in ours]
    figures = exp.figures
    return _quietly(lambda: figures(RunSet(exp, runs), out)) or []


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
    try:
        return locate(explicit)
    except Ns2Error as e:
        raise ValueError(str(e)) from None
