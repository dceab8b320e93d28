"""Standard figures of a run: window, rate, RTT and queue over time."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pandas as pd

from .files import atomic_write
from .result_like import ResultLike

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure


def _flow_ids(result: ResultLike) -> list[str]:
    return [f["id"] for f in result.summary["flows"]]


def _save(fig: Figure, path: Path) -> None:
    atomic_write(path, lambda p: fig.savefig(p, dpi=110, format="png"))
    plt.close(fig)


def _axes(title: str, ylabel: str) -> tuple[Figure, Axes]:
    fig, ax = plt.subplots(figsize=(8, 4.2))
    ax.set_title(title)
    ax.set_xlabel("time (s)")
    ax.set_ylabel(ylabel)
    ax.grid(True, alpha=0.3)
    return fig, ax


def write_figures(result: ResultLike, out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    name = result.summary.get("scenario", "")
    written: list[Path] = []
    flows = _flow_ids(result)

    def flow_plot(fname: str, metric: str, ylabel: str, scale: float = 1.0, smooth_s: float = 0.0) -> None:
        title = ylabel if smooth_s <= 0 else f"{ylabel}, mean over {smooth_s:g} s"
        fig, ax = _axes(f"{name}: {title}", ylabel)
        for fid in flows:
            s = result.series("flow", fid, metric)
            values = s.to_numpy() * scale
            if smooth_s > 0 and len(s) > 1:
                step = float(s.index[1] - s.index[0])
                window = max(1, round(smooth_s / step))
                values = pd.Series(values).rolling(window, min_periods=1).mean().to_numpy()
            ax.plot(s.index, values, label=fid, linewidth=1)
        if flows:
            ax.legend(loc="best", fontsize="small")
        path = out / fname
        _save(fig, path)
        written.append(path)

    flow_plot("cwnd.png", "cwnd_pkts", "congestion window (packets)")
    # Unpaced windows share a link as packet trains, so per-sample rates swing between zero and the link
    # rate: the figure averages over about a hundredth of the run (at least one sample).
    duration = float(result.summary.get("duration_s", 0.0))
    flow_plot("rate.png", "rate_bps", "delivered rate (Mbit/s)", 1e-6, smooth_s=round(duration / 100, 3))

    fig, ax = _axes(f"{name}: RTT", "RTT (ms)")
    for fid in flows:
        rtt = result.series("flow", fid, "rtt_s")
        line = ax.plot(rtt.index, rtt.to_numpy() * 1e3, label=f"{fid} RTT", linewidth=0.8)[0]
        base = result.series("flow", fid, "base_rtt_s")
        ax.plot(
            base.index,
            base.to_numpy() * 1e3,
            "--",
            color=line.get_color(),
            label=f"{fid} baseRTT",
            linewidth=1,
        )
    if flows:
        ax.legend(loc="best", fontsize="small")
    _save(fig, out / "rtt.png")
    written.append(out / "rtt.png")

    fig, ax = _axes(f"{name}: queues", "queue (packets)")
    busy = [link for link in result.summary["links"] if link["max_queue_pkts"] > 0]
    for link in busy:
        lid = f"{link['id']}:{link['direction']}"
        s = result.series("link", lid, "queue_pkts")
        ax.plot(s.index, s.to_numpy(), label=lid, linewidth=1)
    if busy:
        ax.legend(loc="best", fontsize="small")
    _save(fig, out / "queue.png")
    written.append(out / "queue.png")
    return written
