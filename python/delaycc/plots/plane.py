"""The throughput-delay plane as Pantheon draws it (Yan et al., USENIX ATC 2018): x the 95th-percentile
delay on a logarithmic axis, inverted so that better is to the right; y the throughput; one marker per
scheme at the mean of its runs, with each run as a small dot and the runs' one-sigma ellipse around it."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

from .figure import save_png

DPI = 100
FLOOR_MS = 0.1
"""Delays below this are drawn at it: a logarithmic axis has no zero."""
COLORS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f")
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")


@dataclass(frozen=True)
class Scheme:
    """One marker: a label, and per run the delay (ms) and the throughput (Mb/s). Schemes of one `group`
    share a colour and a marker shape; `hollow` draws the marker open (another flow of the same runs)."""

    label: str
    delay_ms: Sequence[float]
    throughput_mbps: Sequence[float]
    group: int = 0
    hollow: bool = False


def _ellipse(ax: Axes, lx: np.ndarray, y: np.ndarray, color: str) -> None:
    """The one-sigma ellipse of the runs, computed where the axis is linear: log10 of the delay."""
    if len(lx) < 3:
        return
    cov = np.cov(np.vstack([lx, y]))
    if not np.all(np.isfinite(cov)):
        return
    vals, vecs = np.linalg.eigh(cov)
    vals = np.clip(vals, 0.0, None)
    t = np.linspace(0, 2 * math.pi, 73)
    circle = np.vstack([np.cos(t), np.sin(t)])
    pts = vecs @ (np.sqrt(vals)[:, None] * circle)
    ax.plot(10 ** (lx.mean() + pts[0]), y.mean() + pts[1], color=color, linewidth=1, alpha=0.7)


MIN_DECADES = 1.0
"""The delay axis spans at least this many decades, so that close schemes are not spread apart."""


def _delay_axis(ax: Axes, xs: list[float]) -> None:
    """Log scale with plain numbers (1, 2, 5, 10, 20 ...), at least `MIN_DECADES` wide, inverted."""
    ax.set_xscale("log")
    if xs:
        lo, hi = math.log10(min(xs)), math.log10(max(xs))
        pad = max(0.1 * (hi - lo), (MIN_DECADES - (hi - lo)) / 2, 0.05)
        ax.set_xlim(10 ** (hi + pad), 10 ** (lo - pad))
    ax.xaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _pos: f"{v:g}"))
    ax.xaxis.set_minor_formatter(NullFormatter())


def throughput_delay(schemes: Sequence[Scheme], title: str, xlabel: str, path: Path) -> Path:
    fig = Figure(figsize=(9.5, 5))
    ax = fig.subplots()
    ax.set_xscale("log")
    drawn: list[float] = []
    top = 0.0
    for s in schemes:
        color, marker = COLORS[s.group % len(COLORS)], MARKERS[s.group % len(MARKERS)]
        x = np.maximum(np.asarray(s.delay_ms, dtype=float), FLOOR_MS)
        y = np.asarray(s.throughput_mbps, dtype=float)
        ok = np.isfinite(x) & np.isfinite(y)
        x, y = x[ok], y[ok]
        if not len(x):
            continue
        drawn += [float(v) for v in x]
        top = max(top, float(np.max(y)))
        face = "none" if s.hollow else color
        ax.scatter(x, y, s=12, color=color, alpha=0.35, marker=marker, facecolors=face, linewidths=0.8)
        lx = np.log10(x)
        ax.scatter(
            [10 ** lx.mean()], [y.mean()], s=70, marker=marker, facecolors=face, edgecolors=color,
            linewidths=1.5, label=s.label, zorder=3,
        )  # fmt: skip
        _ellipse(ax, lx, y, color)
    _delay_axis(ax, drawn)
    ax.set_title(title, fontsize="medium")
    ax.set_xlabel(f"{xlabel} (ms, log scale; better →)")
    ax.set_ylabel("throughput (Mb/s)")
    ax.grid(True, which="both", alpha=0.3)
    ax.set_ylim(0, 1.1 * top if top > 0 else 1.0)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small", borderaxespad=0)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    return save_png(fig, path, DPI)
