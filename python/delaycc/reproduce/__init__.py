"""`delaycc reproduce`: run the papers' experiments, check their claims, write figures, tables, a report."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ..files import atomic_write_text
from ..packaged import data_root
from . import referee as referee_mod
from . import report
from .catalogue import BEYOND, DEMO, EXPERIMENTS, PAPERS, REGISTRY, select
from .model import Claim, Experiment, RunResult, RunSet
from .pool import run_all
from .runs import keys_for


def reproduce(
    target: str,
    out: Path,
    workers: int | None = None,
    progress: bool | None = None,
    root: Path | None = None,
    referee: str | None = None,
    ns2: str | None = None,
    ns2_timeout_s: float = 1800.0,
) -> Path:
    """Runs the experiments of ``target`` and writes the report. ``referee="ns2"`` also runs every run
    ns-2 can make in ns-2 (the binary from ``ns2``, $DELAYCC_NS2 or PATH) and judges each claim on it.
    The experiments' scenario paths are relative to ``root``: by default the checkout the package runs
    from, or the installed package's own copy of the scenarios (`packaged.data_root`)."""
    from tqdm import tqdm

    if referee not in (None, "ns2"):
        raise ValueError(f"unknown referee '{referee}'; the only referee is ns2")
    root = data_root() if root is None else root
    experiments = select(target)
    if referee and any(e.id in BEYOND for e in experiments):
        raise ValueError("the ns-2 referee runs the papers' experiments only; ns-2 has no AQM or trace link")
    binary = referee_mod.check_binary(ns2) if referee else None
    jobs = [(k, str(root.resolve())) for e in experiments for k in keys_for(e)]
    ns2_jobs: list[referee_mod.Ns2Job] = []
    refused: dict[str, list[str]] = {}
    if binary is not None:
        for e in experiments:
            runnable, refused[e.id] = referee_mod.plan(e, keys_for(e), root, binary)
            ns2_jobs += [referee_mod.Ns2Job(k, str(root.resolve()), binary, ns2_timeout_s) for k in runnable]
    show = sys.stderr.isatty() if progress is None else progress
    bar = tqdm(
        total=len(jobs) + len(ns2_jobs), desc="reproduce", unit="run", disable=not show, file=sys.stderr
    )
    results = run_all(jobs, workers, on_done=lambda _r: bar.update(1))
    ns2_results = run_all(ns2_jobs, workers, on_done=lambda _r: bar.update(1), worker=referee_mod.run_one)
    bar.close()
    ns2_runs = {r.key: r for r in ns2_results}
    out.mkdir(parents=True, exist_ok=True)
    sections = []
    summaries: list[dict[str, object]] = []
    for e in experiments:
        rs = RunSet(e, [r for r in results if r.key.experiment == e.id])
        fig_dir = out / e.id
        claims = e.claims(rs) if e.claims else []
        tables = e.tables(rs) if e.tables else []
        figures = e.figures(rs, fig_dir) if e.figures else []
        section = report.Section(e.id, e.paper, e.title, claims, tables, figures, part=e.part)
        if binary is not None:
            referee_mod.judge(e, rs.runs, ns2_runs, claims)
            section.figures += referee_mod.paper_figures(e, rs.runs, ns2_runs, fig_dir / "ns2")
            fig = referee_mod.figure(e, rs.runs, ns2_runs, fig_dir)
            if fig is not None:
                section.figures.append(fig)
            section.referee = refused[e.id]
        sections.append(section)
        summaries += [_row(r) for r in rs.runs]
        summaries += [{**_row(r), "simulator": "ns-2"} for r in ns2_results if r.key.experiment == e.id]
    header = _header(len(jobs), experiments)
    if binary is not None:
        header += (
            f" Referee: {len(ns2_jobs)} of these runs again in ns-2.35 ({binary.path}"
            + ("" if binary.has_fast else ", without the FAST module")
            + "); a claim has an ns-2 verdict when it rests on ns-2's runs alone (docs/crosscheck.md)."
        )
    report.write(sections, out, header, referee=binary is not None)
    atomic_write_text(out / "runs.json", json.dumps(summaries, indent=1, default=str))
    return out / "report.html"


def _header(runs: int, experiments: list[Experiment]) -> str:
    papers = [e for e in experiments if e.id not in BEYOND]
    header = f"{runs} runs of {len(experiments)} experiments. Claims are checked by code from the results; "
    if papers:
        header += "scenarios and every value's source are in scenarios/papers/."
    if len(papers) < len(experiments):
        header += ("" if not papers else " ") + (
            "the experiments beyond the papers test our own hypotheses, not a paper's (scenarios/beyond/, "
            "docs/beyond.md)."
        )
    return header


def claims_for(experiment: str, workers: int | None = None, root: Path | None = None) -> list[Claim]:
    """Runs one experiment's ensemble and returns its claims: for each, the paper's statement and figure,
    what was measured with its spread, the criterion, in how many runs it held and the verdict, as
    ``reproduce`` reports them, without writing anything."""
    if experiment not in REGISTRY:
        raise ValueError(f"unknown experiment '{experiment}'; choose one of: {', '.join(REGISTRY)}")
    exp = REGISTRY[experiment]
    root = data_root() if root is None else root
    runs = run_all([(k, str(root.resolve())) for k in keys_for(exp)], workers)
    return exp.claims(RunSet(exp, runs)) if exp.claims else []


def _row(r: RunResult) -> dict[str, object]:
    return {
        "experiment": r.key.experiment,
        "algorithm": r.key.algorithm,
        "point": r.key.point,
        "seed": r.key.seed,
        "summary": r.summary,
    }


__all__ = ["BEYOND", "DEMO", "EXPERIMENTS", "PAPERS", "Claim", "claims_for", "reproduce", "select"]
