"""A run's output directory: every file goes to a temporary name first and is renamed into place, and
summary.json is written last, so a directory with a summary.json is always complete."""

from __future__ import annotations

from pathlib import Path

from ..files import atomic_write_text
from ..result_like import ResultLike
from .jsontext import summary_text
from .tables import parquet_available, write_csv, write_parquet


def write_outputs(result: ResultLike, out: Path, figures: bool = True) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    summary_path = out / "summary.json"
    # A stale summary from an earlier run must not make a half-rewritten directory look complete.
    summary_path.unlink(missing_ok=True)
    ts = result.timeseries
    write_csv(ts, out / "timeseries.csv")
    if parquet_available():
        write_parquet(ts, out / "timeseries.parquet")
    if figures:
        # Imported here: matplotlib takes a while to import, and most runs draw no figures.
        from ..plots import write_figures

        write_figures(result, out / "figures")
    atomic_write_text(summary_path, summary_text(result.summary))
    return out
