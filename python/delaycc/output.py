"""Writing a run's outputs: every file goes to a temporary name first and is renamed into place, and
summary.json is written last, so a directory with a summary.json is always complete."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .files import atomic_write, atomic_write_text
from .result_like import ResultLike


def summary_text(summary: dict[str, Any]) -> str:
    return json.dumps(summary, indent=2, sort_keys=True, allow_nan=False) + "\n"


def write_outputs(result: ResultLike, out: Path, figures: bool = True) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    summary_path = out / "summary.json"
    # A stale summary from an earlier run must not make a half-rewritten directory look complete.
    summary_path.unlink(missing_ok=True)
    ts = result.timeseries
    atomic_write(
        out / "timeseries.csv",
        lambda p: ts.to_csv(p, index=False, float_format="%.10g", lineterminator="\n"),
    )
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        pass
    else:
        atomic_write(out / "timeseries.parquet", lambda p: ts.to_parquet(p, index=False))
    if figures:
        # Imported here: matplotlib takes a while to import, and most runs draw no figures.
        from .plots import write_figures

        write_figures(result, out / "figures")
    atomic_write_text(summary_path, summary_text(result.summary))
    return out
