"""`delaycc plot-sweep DIR --x alpha --y throughput --hue algorithm`: which columns of the sweep's table
(results.parquet) the names mean and where the figure goes; plots/errorbars.py draws it."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from ..plots.errorbars import mean_std


def resolve(df: pd.DataFrame, name: str) -> str:
    """A column by exact name, else the one column containing `name` (summary-level columns first)."""
    if name in df.columns:
        return name
    hits = [c for c in df.columns if name in c]
    top = [c for c in hits if not c.startswith(("flow.", "link."))]
    for group in (top, hits):
        if len(group) == 1:
            return group[0]
        exact_end = [c for c in group if c.endswith(f".{name}") or c.startswith(f"total_{name}")]
        if len(exact_end) == 1:
            return exact_end[0]
    if not hits:
        raise ValueError(f"no column matches '{name}'; columns: {', '.join(map(str, df.columns))}")
    raise ValueError(f"'{name}' is ambiguous: {', '.join(hits)}")


def plot_sweep(out: Path, x: str, y: str, hue: str | None = None) -> Path:
    """The sweep's successful runs in ``out``: ``y`` against ``x`` (column names, or a part naming one
    column), one line per ``hue``; written to ``out/figures/Y_vs_X.png``."""
    df = pd.read_parquet(out / "results.parquet")
    df = df[df["status"] == "ok"]
    if df.empty:
        raise ValueError(f"{out}: no successful runs to plot")
    xc, yc = resolve(df, x), resolve(df, y)
    hc = resolve(df, hue) if hue else None
    return mean_std(df, xc, yc, hc, out / "figures" / f"{_safe(yc)}_vs_{_safe(xc)}.png")


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in name)
