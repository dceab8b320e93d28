"""Figure helpers shared by the per-paper modules: one line per algorithm (or flow), saved atomically."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from ..files import atomic_write


def smooth(values: np.ndarray, times: np.ndarray, seconds: float) -> np.ndarray:
    if len(times) < 2 or seconds <= 0:
        return values
    window = max(1, round(seconds / float(times[1] - times[0])))
    return pd.Series(values).rolling(window, min_periods=1).mean().to_numpy()


def panels(n: int, title: str) -> tuple[Figure, list[Axes]]:
    fig, axes = plt.subplots(n, 1, figsize=(8, 2.6 * n), sharex=True, squeeze=False)
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
    atomic_write(path, lambda p: fig.savefig(p, dpi=100, format="png"))
    plt.close(fig)
    return path
