"""A metric's mean and standard deviation against a swept value, one line per group (``delaycc
plot-sweep``: the figure a researcher draws first)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from matplotlib.figure import Figure

from .figure import save_png

DPI = 110


def mean_std(df: pd.DataFrame, x: str, y: str, hue: str | None, path: Path) -> Path:
    """Over the rows of each ``x`` (seeds, usually), the mean of ``y`` with ± one standard deviation; one
    line per value of ``hue`` (all rows in one line without it)."""
    fig = Figure(figsize=(7, 4.2))
    ax = fig.subplots()
    groups = df.groupby(hue) if hue else [("all", df)]
    for label, g in groups:
        stats = g.groupby(x)[y].agg(["mean", "std", "count"]).reset_index().sort_values(x)
        err = stats["std"].fillna(0.0)
        ax.errorbar(stats[x], stats["mean"], yerr=err, marker="o", capsize=3, label=str(label))
    ax.set_xlabel(x)
    ax.set_ylabel(f"{y} (mean ± std over seeds)")
    ax.grid(True, alpha=0.3)
    if hue:
        ax.legend(title=hue, fontsize="small")
    path.parent.mkdir(parents=True, exist_ok=True)
    return save_png(fig, path, DPI)
