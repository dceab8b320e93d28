"""Stacked panels sharing the time axis, one line per algorithm (or flow) in each: the papers' figures
(reproduce/p00x.py choose what goes in each panel) and the referee's delaycc-vs-ns-2 windows."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from matplotlib.axes import Axes
from matplotlib.figure import Figure

from .figure import save_png

DPI = 100


def panels(n: int, title: str) -> tuple[Figure, list[Axes]]:
    fig = Figure(figsize=(8, 2.6 * n))
    axes = fig.subplots(n, 1, sharex=True, squeeze=False)
    fig.suptitle(title)
    return fig, [a for row in axes for a in row]


def finish(fig: Figure, axes: Sequence[Axes], xlabel: str, path: Path) -> Path:
    for ax in axes:
        ax.grid(True, alpha=0.3)
        if ax.get_legend_handles_labels()[0]:
            ax.legend(loc="best", fontsize="small")
    axes[-1].set_xlabel(xlabel)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    return save_png(fig, path, DPI)
