"""Writing a run's outputs: every file goes to a temporary name first and is renamed into place, and
summary.json is written last, so a directory with a summary.json is always complete."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .result import Result


def atomic_write(path: Path, write: Callable[[Path], object]) -> None:
    """Calls ``write(tmp)`` and renames tmp to path; on failure the temporary file is removed."""
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        write(tmp)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def summary_text(summary: dict[str, Any]) -> str:
    return json.dumps(summary, indent=2, sort_keys=True, allow_nan=False) + "\n"


def write_outputs(result: Result, out: Path, figures: bool = True) -> Path:
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
        from .plots import write_figures

        write_figures(result, out / "figures")
    text = summary_text(result.summary)

    def write_summary(p: Path) -> None:
        p.write_text(text)

    atomic_write(summary_path, write_summary)
    return out
