"""Two runs of one scenario drawn over each other (``delaycc crosscheck``: delaycc and ns-2): each flow's
window and rate, and the queue of every link direction that held one, the first run solid and the second
dashed in the same colour."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..result_like import ResultLike
from .figure import save_png, time_axes

SMOOTH_S = 0.5
DPI = 110


def _smooth(t: np.ndarray, x: np.ndarray) -> np.ndarray:
    """The sum of the last SMOOTH_S over its sample count (so it ramps up from zero at the start); a gap
    (NaN) counts as zero."""
    if len(t) < 2:
        return x
    k = max(1, round(SMOOTH_S / float(t[1] - t[0])))
    return np.convolve(np.nan_to_num(x), np.ones(k) / k, mode="full")[: len(x)]


def _plot(
    runs: tuple[tuple[ResultLike, str], tuple[ResultLike, str]],
    kind: str,
    ids: list[str],
    metric: str,
    ylabel: str,
    path: Path,
    scale: float = 1.0,
    smooth: bool = False,
) -> Path | None:
    (first, first_name), (_, second_name) = runs
    title = ylabel + (f", mean over {SMOOTH_S:g} s" if smooth else "")
    fig, ax = time_axes(
        f"{first.summary['scenario']}: {title} (solid {first_name}, dashed {second_name})", ylabel
    )
    drawn = False
    for i, oid in enumerate(ids):
        color = f"C{i % 10}"
        for (result, who), style in zip(runs, ("-", "--"), strict=True):
            try:
                s = result.series(kind, oid, metric)
            except KeyError:
                continue
            t, x = np.asarray(s.index, dtype=float), s.to_numpy(dtype=float) * scale
            ax.plot(t, _smooth(t, x) if smooth else x, style, color=color, linewidth=1, label=f"{oid} {who}")
            drawn = True
    if not drawn:
        return None
    ax.legend(loc="best", fontsize="x-small", ncol=2)
    return save_png(fig, path, DPI)


def write_overlays(
    first: ResultLike, second: ResultLike, out: Path, names: tuple[str, str] = ("delaycc", "ns-2")
) -> list[Path]:
    """cwnd.png, rate.png (smoothed) and queue.png in ``out``; a figure with nothing to draw is left out.
    The flows and link directions are the first run's; ``names`` label the two runs."""
    out.mkdir(parents=True, exist_ok=True)
    runs = ((first, names[0]), (second, names[1]))
    flows = [f["id"] for f in first.summary["flows"]]
    queued = [
        f"{ln['id']}:{ln['direction']}"
        for ln in first.summary["links"]
        if (ln.get("max_queue_pkts") or 0) > 1 or (ln.get("drops") or 0) > 0
    ]
    written = [
        _plot(runs, "flow", flows, "cwnd_pkts", "window (packets)", out / "cwnd.png"),
        _plot(runs, "flow", flows, "rate_bps", "rate (Mb/s)", out / "rate.png", 1e-6, smooth=True),
        _plot(runs, "link", queued, "queue_pkts", "queue (packets)", out / "queue.png"),
    ]
    return [p for p in written if p is not None]
