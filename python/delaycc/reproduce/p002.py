"""P002, RRFast vs FAST when the route changes."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .claims import check
from .model import Claim, Experiment, RunSet
from .plotting import finish, panels, smooth

SCENARIOS = Path("scenarios/papers")
ALGS = ("fast", "rrfast")
FLOWS = tuple(f"f{i}" for i in range(1, 11))
PARAMS = {a: {"alpha": 4, "gamma": 0.5} for a in ALGS}


def _figures(rs: RunSet, out: Path) -> list[Path]:
    exp = rs.experiment
    fig, axes = panels(5, f"{exp.id}: sample flow f1 and the bottleneck")
    for alg in ALGS:
        r = rs.get(alg)
        axes[0].plot(r.times, r.s("flow", "f1", "rtt_s") * 1e3, label=alg, linewidth=1)
        axes[1].plot(r.times, r.s("flow", "f1", "cwnd_pkts"), label=alg, linewidth=1)
        axes[2].plot(r.times, r.s("flow", "f1", "base_rtt_s") * 1e3, label=alg, linewidth=1)
        axes[3].plot(
            r.times, smooth(r.s("flow", "f1", "rate_bps"), r.times, 1.0) / 1e6, label=alg, linewidth=1
        )
        axes[4].plot(
            r.times, smooth(r.s("link", "bottleneck:a->b", "throughput_bps"), r.times, 1.0) / 1e6, label=alg
        )
    for ax, label in zip(
        axes, ["RTT (ms)", "cwnd (pkts)", "baseRTT (ms)", "f1 rate (Mb/s)", "bottleneck (Mb/s)"], strict=True
    ):
        ax.set_ylabel(label)
    return [finish(fig, axes, "time (s)", out / f"{exp.id}.png")]


def _util(rs: RunSet, alg: str, t0: float, t1: float) -> float:
    r = rs.get(alg)
    bw = r.link("bottleneck")["bandwidth_bps"]
    return float(np.mean(r.window("link", "bottleneck:a->b", "throughput_bps", t0, t1)) / bw)


def claims_longer(rs: RunSet) -> list[Claim]:
    e = rs.experiment.id
    u = {a: _util(rs, a, 35, 100) for a in ALGS}
    base = {a: rs.get(a).flow("f1")["final_base_rtt_s"] or float("nan") for a in ALGS}
    return [
        check(
            e,
            "after the reroute FAST stays low (reads the longer RTT as congestion)",
            "low (P002 §5.1)",
            f"FAST bottleneck utilisation 35-100 s {u['fast']:.1%}",
            u["fast"] < 0.5,
        ),
        check(
            e,
            "RRFast improves throughput and bottleneck utilisation",
            "higher (P002 §5.1)",
            f"utilisation 35-100 s: FAST {u['fast']:.1%}, RRFast {u['rrfast']:.1%}",
            u["rrfast"] > 1.2 * u["fast"],
        ),
        check(
            e,
            "FAST keeps baseRTT ≈ 125 ms; RRFast moves to ≈ 376 ms",
            "125 / 376 ms (P002 Fig. 5)",
            f"final baseRTT FAST {base['fast'] * 1e3:.0f} ms, RRFast {base['rrfast'] * 1e3:.0f} ms",
            abs(base["fast"] - 0.125) < 0.02 and abs(base["rrfast"] - 0.376) < 0.04,
        ),
    ]


def claims_shorter(rs: RunSet) -> list[Claim]:
    e = rs.experiment.id
    tf = sum(f["throughput_bps"] for f in rs.get("fast").summary["flows"])
    tr = sum(f["throughput_bps"] for f in rs.get("rrfast").summary["flows"])
    bf, br = (rs.get(a).flow("f1")["final_base_rtt_s"] for a in ALGS)
    return [
        check(
            e,
            "RRFast and FAST behave the same on a shorter new route",
            "same (P002 §5.2)",
            f"total throughput FAST {tf / 1e6:.2f}, RRFast {tr / 1e6:.2f} Mb/s; baseRTT {bf * 1e3:.1f} / {br * 1e3:.1f} ms",
            abs(tr / tf - 1) < 0.05 and abs(bf - br) < 0.002,
        ),
        check(
            e,
            "the minimum filter picks up the shorter path by itself",
            "≈ 125 ms",
            f"final baseRTT {bf * 1e3:.1f} ms",
            abs(bf - 0.125) < 0.01,
        ),
    ]


EXPERIMENTS = [
    Experiment(
        "rrfast-longer",
        "P002",
        "reroute to a longer path at 30 s",
        SCENARIOS / "rrfast-longer.toml",
        ALGS,
        FLOWS,
        params=PARAMS,
        claims=claims_longer,
        figures=_figures,
    ),
    Experiment(
        "rrfast-shorter",
        "P002",
        "reroute to a shorter path at 30 s",
        SCENARIOS / "rrfast-shorter.toml",
        ALGS,
        FLOWS,
        params=PARAMS,
        claims=claims_shorter,
        figures=_figures,
    ),
]
