"""`delaycc reproduce`: run the papers' experiments, check their claims, write figures, tables, a report."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ..output import atomic_write
from . import p000, p001, p002, p003, p004, report
from .model import Experiment, RunResult, RunSet
from .runs import keys_for, run_all

EXPERIMENTS: dict[str, Experiment] = {e.id: e for m in (p000, p001, p002, p003, p004) for e in m.EXPERIMENTS}
PAPERS = sorted({e.paper for e in EXPERIMENTS.values()})
# A few-minute subset for `make demo`: one experiment of each paper, the quick ones.
DEMO = ("vfast-I", "rttbased-simple", "rttbased-parkinglot", "emfast-single", "alt-asym-k")


def select(target: str) -> list[Experiment]:
    """'all', 'demo', a paper tag (P000..P004) or an experiment id."""
    if target == "all":
        return list(EXPERIMENTS.values())
    if target == "demo":
        return [EXPERIMENTS[i] for i in DEMO]
    if target.upper() in PAPERS:
        return [e for e in EXPERIMENTS.values() if e.paper == target.upper()]
    if target in EXPERIMENTS:
        return [EXPERIMENTS[target]]
    known = ", ".join(["all", "demo", *PAPERS, *EXPERIMENTS])
    raise ValueError(f"unknown experiment or paper '{target}'; choose one of: {known}")


def reproduce(
    target: str, out: Path, workers: int | None = None, progress: bool | None = None, root: Path = Path(".")
) -> Path:
    from tqdm import tqdm

    experiments = select(target)
    jobs = [(k, str(root.resolve())) for e in experiments for k in keys_for(e)]
    show = sys.stderr.isatty() if progress is None else progress
    bar = tqdm(total=len(jobs), desc="reproduce", unit="run", disable=not show, file=sys.stderr)
    results = run_all(jobs, workers, on_done=lambda _r: bar.update(1))
    bar.close()
    out.mkdir(parents=True, exist_ok=True)
    sections = []
    summaries: list[dict[str, object]] = []
    for e in experiments:
        rs = RunSet(e, [r for r in results if r.key.experiment == e.id])
        fig_dir = out / e.id
        claims = e.claims(rs) if e.claims else []
        tables = e.tables(rs) if e.tables else []
        figures = e.figures(rs, fig_dir) if e.figures else []
        sections.append(report.Section(e.id, e.paper, e.title, claims, tables, figures))
        summaries += [_row(r) for r in rs.runs]
    header = (
        f"{len(jobs)} runs of {len(experiments)} experiments. Claims are checked by code from the results; "
        "scenarios and every value's source are in scenarios/papers/."
    )
    report.write(sections, out, header)
    atomic_write(out / "runs.json", lambda p: p.write_text(json.dumps(summaries, indent=1, default=str)))
    return out / "report.html"


def _row(r: RunResult) -> dict[str, object]:
    return {
        "experiment": r.key.experiment,
        "algorithm": r.key.algorithm,
        "point": r.key.point,
        "seed": r.key.seed,
        "summary": r.summary,
    }
