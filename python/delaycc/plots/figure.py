"""What every figure shares: time axes, and saving to PNG atomically. Every figure is a bare `Figure`, not
pyplot's: pyplot would register it with the process's backend (and a notebook would show it)."""

from __future__ import annotations

from pathlib import Path

from matplotlib.axes import Axes
from matplotlib.figure import Figure

from ..files import atomic_write


def time_axes(title: str, ylabel: str) -> tuple[Figure, Axes]:
    """One plot against time in seconds, with a light grid."""
    fig = Figure(figsize=(8, 4.2))
    ax = fig.subplots()
    ax.set_title(title)
    ax.set_xlabel("time (s)")
    ax.set_ylabel(ylabel)
    ax.grid(True, alpha=0.3)
    return fig, ax


def save_png(fig: Figure, path: Path, dpi: int) -> Path:
    atomic_write(path, lambda p: fig.savefig(p, dpi=dpi, format="png"))
    return path
