"""Figures that overlay both simulators: each flow's window and rate, and the queue of every link
direction that held one, delaycc solid and ns-2 dashed in the same colour."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

from ..files import atomic_write
from ..result import Result

SMOOTH_S = 0.5


def _smooth(t: np.ndarray, x: np.ndarray) -> np.ndarray:
    if len(t) < 2:
        return x
    k = max(1, round(SMOOTH_S / float(t[1] - t[0])))
    return np.convolve(np.nan_to_num(x), np.ones(k) / k, mode="full")[: len(x)]


def _plot(
    sim: Result,
    ns2: Result,
    kind: str,
    ids: list[str],
    metric: str,
    ylabel: str,
    path: Path,
    scale: float = 1.0,
    smooth: bool = False,
) -> Path | None:
    fig, ax = plt.subplots(figsize=(8, 4.2))
    drawn = False
    for i, oid in enumerate(ids):
        color = f"C{i % 10}"
        for result, style, who in ((sim, "-", "delaycc"), (ns2, "--", "ns-2")):
            try:
                s = result.series(kind, oid, metric)
            except KeyError:
                continue
            t, x = np.asarray(s.index, dtype=float), s.to_numpy(dtype=float) * scale
            ax.plot(t, _smooth(t, x) if smooth else x, style, color=color, linewidth=1, label=f"{oid} {who}")
            drawn = True
    if not drawn:
        plt.close(fig)
        return None
    title = ylabel + (f", mean over {SMOOTH_S:g} s" if smooth else "")
    ax.set_title(f"{sim.summary['scenario']}: {title} (solid delaycc, dashed ns-2)")
    ax.set_xlabel("time (s)")
    ax.set_ylabel(ylabel)
    ax.grid(True, alpha=0.3)
    ax.legend(loc="best", fontsize="x-small", ncol=2)
    atomic_write(path, lambda p: fig.savefig(p, dpi=110, format="png"))
    plt.close(fig)
    return path


def write(sim: Result, ns2: Result, out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    flows = [f["id"] for f in sim.summary["flows"]]
    queued = [
        f"{ln['id']}:{ln['direction']}"
        for ln in sim.summary["links"]
        if (ln.get("max_queue_pkts") or 0) > 1 or (ln.get("drops") or 0) > 0
    ]
    written = [
        _plot(sim, ns2, "flow", flows, "cwnd_pkts", "window (packets)", out / "cwnd.png"),
        _plot(sim, ns2, "flow", flows, "rate_bps", "rate (Mb/s)", out / "rate.png", 1e-6, smooth=True),
        _plot(sim, ns2, "link", queued, "queue_pkts", "queue (packets)", out / "queue.png"),
    ]
    return [p for p in written if p is not None]
