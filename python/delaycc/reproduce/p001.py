"""P001, RTT-based TCP vs Vegas: simple configuration and parking lot."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .claims import check, numeric
from .model import Claim, Experiment, RunResult, RunSet, Table
from .plotting import finish, panels, smooth

SCENARIOS = Path("scenarios/papers")
ALGS = ("rttbased", "vegas")
PARAMS: dict[str, dict[str, object]] = {"rttbased": {"alpha": 2, "k": 0.25}, "vegas": {"alpha": 1, "beta": 3}}


def _figures(rs: RunSet, out: Path) -> list[Path]:
    exp = rs.experiment
    fig, axes = panels(len(ALGS) + 1, f"{exp.id}: congestion windows and bottleneck queue")
    for ax, alg in zip(axes, ALGS, strict=False):
        r = rs.get(alg)
        for f in exp.flows:
            ax.plot(r.times, r.s("flow", f, "cwnd_pkts"), label=f, linewidth=1)
        ax.set_ylabel(f"{alg} cwnd")
        axes[-1].plot(r.times, r.s("link", "bottleneck:a->b", "queue_pkts"), label=alg, linewidth=1)
    axes[-1].set_ylabel("queue (segments)")
    return [finish(fig, axes, "time (s)", out / f"{exp.id}.png")]


def _regain(r: RunResult, flow: str, t0: float, level: float) -> float:
    """Seconds after t0 until the flow's own rate (averaged over 20 ms) reaches `level`."""
    rate = smooth(r.s("flow", flow, "rate_bps"), r.times, 0.02)
    idx = np.where((r.times >= t0) & (rate >= level))[0]
    return float(r.times[idx[0]] - t0) if len(idx) else float("inf")


def claims_simple(rs: RunSet) -> list[Claim]:
    e = rs.experiment.id
    rb, vg = rs.get("rttbased"), rs.get("vegas")
    q = {a: float(np.max(rs.get(a).window("link", "bottleneck:a->b", "queue_pkts", 1.5, 3.0))) for a in ALGS}
    after = {
        a: float(np.max(rs.get(a).window("link", "bottleneck:a->b", "queue_pkts", 3.0, 4.5))) for a in ALGS
    }
    up = {a: _regain(rs.get(a), "tcp", 3.0, 0.9 * 40e6) for a in ALGS}
    return [
        check(
            e,
            "RTT-based TCP's maximum queue during the UDP burst is smaller than Vegas's",
            "smaller (P001 Fig. 5)",
            f"max queue 1.5-3 s: RTT-based {q['rttbased']:.0f}, Vegas {q['vegas']:.0f} segments",
            q["rttbased"] < q["vegas"],
        ),
        check(
            e,
            "when capacity returns RTT-based TCP ramps up faster",
            "faster (P001 Figs. 4-5)",
            f"time to 90 % of the link after 3 s: RTT-based {up['rttbased']:.3f} s, Vegas {up['vegas']:.3f} s",
            up["rttbased"] <= up["vegas"],
        ),
        check(
            e,
            "...without much extra queue",
            "little queue (P001 Fig. 5)",
            f"max queue 3-4.5 s: RTT-based {after['rttbased']:.0f}, Vegas {after['vegas']:.0f}",
            after["rttbased"] <= after["vegas"],
            note=f"losses: RTT-based {rb.link('bottleneck')['drops']}, Vegas {vg.link('bottleneck')['drops']}",
        ),
    ]


def _jain(r: RunResult) -> float:
    x = [f["throughput_bps"] for f in r.summary["flows"]]
    return float(sum(x) ** 2 / (len(x) * sum(v * v for v in x)))


def claims_parkinglot(rs: RunSet) -> list[Claim]:
    e = rs.experiment.id
    out = []
    for alg, mq, tp, fj in (("vegas", 65, 97.2, 0.871), ("rttbased", 45, 97.3, 0.999)):
        r = rs.get(alg)
        bn = r.link("bottleneck")
        out.append(
            numeric(
                e, f"{alg}: maximum bottleneck queue (P001 Fig. 10 text)", mq, bn["max_queue_pkts"], " seg"
            )
        )
        out.append(
            numeric(
                e, f"{alg}: throughput, % of the bottleneck (P001 Table 1)", tp, 100 * bn["utilization"], " %"
            )
        )
        out.append(numeric(e, f"{alg}: Jain's fairness index (P001 Table 1)", fj, _jain(r)))
    q = {a: rs.get(a).link("bottleneck")["max_queue_pkts"] for a in ALGS}
    out.append(
        check(
            e,
            "RTT-based TCP keeps a smaller maximum queue than Vegas",
            "45 < 65",
            f"{q['rttbased']} vs {q['vegas']}",
            q["rttbased"] < q["vegas"],
        )
    )
    j = {a: _jain(rs.get(a)) for a in ALGS}
    out.append(
        check(
            e,
            "RTT-based TCP is fairer than Vegas",
            "0.999 > 0.871",
            f"{j['rttbased']:.3f} vs {j['vegas']:.3f}",
            j["rttbased"] > j["vegas"],
        )
    )
    return out


def table_parkinglot(rs: RunSet) -> list[Table]:
    rows = []
    for alg, tp, fj in (("vegas", 97.2, 0.871), ("rttbased", 97.3, 0.999)):
        r = rs.get(alg)
        rows.append(
            [alg, f"{tp}", f"{100 * r.link('bottleneck')['utilization']:.1f}", f"{fj}", f"{_jain(r):.3f}"]
        )
    return [
        Table(
            "P001 Table 1: throughput and fairness",
            ["scheme", "throughput % (paper)", "throughput % (ours)", "fairness (paper)", "fairness (ours)"],
            rows,
        )
    ]


EXPERIMENTS = [
    Experiment(
        "rttbased-simple",
        "P001",
        "simple configuration with a UDP burst",
        SCENARIOS / "rttbased-simple.toml",
        ALGS,
        ("tcp",),
        params=PARAMS,
        claims=claims_simple,
        figures=_figures,
    ),
    Experiment(
        "rttbased-parkinglot",
        "P001",
        "parking lot, five sources",
        SCENARIOS / "rttbased-parkinglot.toml",
        ALGS,
        ("f1", "f2", "f3", "f4", "f5"),
        params=PARAMS,
        claims=claims_parkinglot,
        figures=_figures,
        tables=table_parkinglot,
    ),
]
