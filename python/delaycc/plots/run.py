"""The standard figures of one run: window, rate, RTT and queue over time (``figures/`` of a run's
output directory)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..result_like import ResultLike
from .figure import save_png, time_axes
from .smooth import rolling_mean

DPI = 110


def _flow_ids(result: ResultLike) -> list[str]:
    return [f["id"] for f in result.summary["flows"]]


def write_figures(result: ResultLike, out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    name = result.summary.get("scenario", "")
    written: list[Path] = []
    flows = _flow_ids(result)

    def flow_plot(fname: str, metric: str, ylabel: str, scale: float = 1.0, smooth_s: float = 0.0) -> None:
        title = ylabel if smooth_s <= 0 else f"{ylabel}, mean over {smooth_s:g} s"
        fig, ax = time_axes(f"{name}: {title}", ylabel)
        for fid in flows:
            s = result.series("flow", fid, metric)
            values = rolling_mean(s.to_numpy() * scale, np.asarray(s.index), smooth_s)
            ax.plot(s.index, values, label=fid, linewidth=1)
        if flows:
            ax.legend(loc="best", fontsize="small")
        written.append(save_png(fig, out / fname, DPI))

    flow_plot("cwnd.png", "cwnd_pkts", "congestion window (packets)")
    # Unpaced windows share a link as packet trains, so per-sample rates swing between zero and the link
    # rate: the figure averages over about a hundredth of the run (at least one sample).
    duration = float(result.summary.get("duration_s", 0.0))
    flow_plot("rate.png", "rate_bps", "delivered rate (Mbit/s)", 1e-6, smooth_s=round(duration / 100, 3))

    fig, ax = time_axes(f"{name}: RTT", "RTT (ms)")
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
    written.append(save_png(fig, out / "rtt.png", DPI))

    fig, ax = time_axes(f"{name}: queues", "queue (packets)")
    busy = [link for link in result.summary["links"] if link["max_queue_pkts"] > 0]
    for link in busy:
        lid = f"{link['id']}:{link['direction']}"
        s = result.series("link", lid, "queue_pkts")
        ax.plot(s.index, s.to_numpy(), label=lid, linewidth=1)
    if busy:
        ax.legend(loc="best", fontsize="small")
    written.append(save_png(fig, out / "queue.png", DPI))
    return written
