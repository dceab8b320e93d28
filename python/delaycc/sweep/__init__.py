"""Parameter sweeps: `delaycc.sweep(file, out)` and `delaycc sweep FILE --out DIR [--dask ADDR]`.

Results: `DIR/results.parquet`, one row per run (axis values, seed, status and error, wall time, every
scalar summary metric). Runs are identified by a hash of their resolved scenario; re-running the same
command skips the ones already complete."""

from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path
from typing import Any

import pandas as pd

from ..files import atomic_write_text
from ..output.tables import write_parquet
from .execute import execute, load_record, pending
from .points import Point, expand
from .rows import keep
from .spec import SweepSpec, load

BOOKKEEPING = ["point", "run_id", "status", "error", "wall_s"]


def _cell(value: Any) -> Any:
    return value if isinstance(value, int | float | str | bool) else json.dumps(value)


def table(points: list[Point], out: Path, metrics: list[str]) -> pd.DataFrame:
    """The results of every point that has a record, in point order."""
    rows = []
    for p in points:
        rec = load_record(out, p.run_id)
        if rec is None:
            continue
        row: dict[str, Any] = {"point": p.index, "run_id": p.run_id, "status": rec["status"]}
        row.update(error=rec["error"], wall_s=rec["wall_s"])
        # Tables and lists as axis values (e.g. a whole params table) become JSON text in their column.
        row.update({k: _cell(v) for k, v in p.values.items()})
        row.update(keep(rec.get("row", {}), metrics, set()))
        rows.append(row)
    return pd.DataFrame(rows)


def _spec(spec: str | Path | SweepSpec) -> tuple[SweepSpec, str]:
    if isinstance(spec, SweepSpec):
        return spec, "<sweep>"
    return load(Path(spec)), str(spec)


def estimate(spec: str | Path | SweepSpec, out: str | Path) -> tuple[str, int, int]:
    """The sweep's name, the runs it has left to do in ``out`` and their estimated events in all
    (``delaycc.estimate`` of each; a point whose scenario is invalid counts none)."""
    from .. import api
    from ..errors import ScenarioError

    spec, where = _spec(spec)
    todo = pending(expand(spec, where), Path(out))
    events = 0
    for p in todo:
        if p.scenario is not None:
            with contextlib.suppress(ScenarioError):
                events += api.estimate(p.scenario).events_run
    return spec.name, len(todo), events


def sweep(
    spec: str | Path | SweepSpec,
    out: str | Path,
    *,
    workers: int | None = None,
    dask: str | None = None,
    keep_runs: bool = False,
    progress: bool | None = None,
) -> pd.DataFrame:
    """Runs a sweep and returns its table (also written to OUT/results.parquet)."""
    from tqdm import tqdm

    out = Path(out)
    spec, where = _spec(spec)
    points = expand(spec, where)
    out.mkdir(parents=True, exist_ok=True)
    todo = pending(points, out)
    done_already = len(points) - len(todo)
    show = sys.stderr.isatty() if progress is None else progress
    bar = tqdm(
        total=len(points), initial=done_already, desc=spec.name, unit="run", disable=not show, file=sys.stderr
    )
    try:
        execute(todo, out, workers, dask, keep_runs, lambda: bar.update(1))
    finally:
        bar.close()
        df = table(points, out, spec.metrics)
        write_parquet(df, out / "results.parquet")
        meta = {
            "name": spec.name,
            "mode": spec.mode,
            "axes": spec.axes,
            "points": len(points),
            "skipped": done_already,
        }
        atomic_write_text(out / "sweep.json", json.dumps(meta, indent=1, default=str))
    return df


__all__ = ["SweepSpec", "estimate", "load", "sweep", "table"]
