"""P001, RTT-based TCP vs Vegas: simple configuration and parking lot.

Every claim is judged over the experiment's ensemble (five runs that differ by the flows' start jitter;
nothing else is random). Conventions the paper does not fix, printed with each criterion:
- `VISIBLE` (1 %): the smallest gap a reader can tell between two lines of one of the paper's figures,
  about a line's width; the minimum effect of an ordering read off a figure with a plain word ("faster",
  "smaller", "more quickly").
- `SIGNIFICANT` (10 %): the minimum effect of "significantly", ten times the visibility floor.
- 10 %, the rise-time convention: a window has responded once within 10 % of where it goes, and a queue
  added on the way is "too much" from 10 % of the bandwidth-delay product (10 % more round trip).
Numbers the paper prints are compared within half a unit of their last digit.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from ..plots.panels import finish, panels
from .claims import both, bound, near, order
from .criteria import ONE_MINUS, POINTS, Bound, Near, Order, Stats, stats
from .model import Claim, Experiment, RunResult, RunSet, Table

SCENARIOS = Path("scenarios/papers")
ALGS = ("rttbased", "vegas")
PARAMS: dict[str, dict[str, object]] = {"rttbased": {"alpha": 2, "k": 0.25}, "vegas": {"alpha": 1, "beta": 3}}

VISIBLE = 0.01
VISIBLE_WHY = "1 %: a line's width on the paper's figure, the smallest gap a reader could see; no size given"
SIGNIFICANT = 0.10
SIGNIFICANT_WHY = "'significantly': 10 %, ten times the visibility floor; the paper's own gap is +14.7 %"

# The simple configuration (scenarios/papers/rttbased-simple.toml): 1000-byte packets, a 20 Mb/s UDP burst
# from 1.5 s to 3 s, a 4.5-s run.
PACKET_BITS = 8 * 1000
UDP_BPS = 20e6
BURST = (1.5, 3.0)
END_S = 4.5
TARGET = 3
"""The larger of the two schemes' target backlogs (Vegas's beta = 3 segments; RTT-based's alpha = 2)."""
QUEUE_RISE = 20
"""The parking lot's queue 'increases more quickly': the time it first reaches 20 segments, a level below half
of either maximum the paper reports (45, 65)."""


def _figures(rs: RunSet, out: Path) -> list[Path]:
    exp = rs.experiment
    fig, axes = panels(len(ALGS) + 1, f"{exp.id}: congestion windows and bottleneck queue (first run)")
    for ax, alg in zip(axes, ALGS, strict=False):
        r = rs.seeds(alg)[0]
        for f in exp.flows:
            ax.plot(r.times, r.s("flow", f, "cwnd_pkts"), label=f, linewidth=1)
        ax.set_ylabel(f"{alg} cwnd")
        axes[-1].plot(r.times, r.s("link", "bottleneck:a->b", "queue_pkts"), label=alg, linewidth=1)
    axes[-1].set_ylabel("queue (segments)")
    return [finish(fig, axes, "time (s)", out / f"{exp.id}.png")]


def _both_algs(rs: RunSet, fn: Callable[[RunResult], float]) -> dict[str, Stats]:
    return {a: stats(rs.each(a, fn)) for a in ALGS}


def _first(t: np.ndarray, hit: np.ndarray, t0: float, censor: float) -> float:
    """Seconds after t0 until the first sample where `hit` holds; `censor` if there is none."""
    idx = np.where((t >= t0) & hit)[0]
    return float(t[idx[0]] - t0) if len(idx) else censor


def _queue(r: RunResult) -> np.ndarray:
    return r.s("link", "bottleneck:a->b", "queue_pkts")


def _burst_window(r: RunResult) -> float:
    """The window that fills the rate the burst leaves at the flow's propagation RTT, plus the target."""
    left = float(r.link("bottleneck")["bandwidth_bps"]) - UDP_BPS
    return left * float(r.flow("tcp")["min_rtt_s"]) / PACKET_BITS + TARGET


def _down(r: RunResult) -> float:
    """Seconds after 1.5 s until the window first comes within 10 % of the burst's window; the burst's
    length (1.5 s) if it never does."""
    c, t = r.s("flow", "tcp", "cwnd_pkts"), r.times
    return _first(t, (t < BURST[1]) & (c <= 1.1 * _burst_window(r)), BURST[0], BURST[1] - BURST[0])


def _up(r: RunResult) -> float:
    """Seconds after 3 s until the window first reaches 90 % of its final level (4.2-4.5 s); the rest of the
    run (1.5 s) if it never does."""
    c, t = r.s("flow", "tcp", "cwnd_pkts"), r.times
    final = float(np.mean(r.window("flow", "tcp", "cwnd_pkts", END_S - 0.3, END_S)))
    return _first(t, c >= 0.9 * final, BURST[1], END_S - BURST[1])


def _extra_queue(r: RunResult) -> float:
    """The queue added while ramping up after 3 s (largest queue 3-4.5 s minus the queue at 3 s), in % of
    the path's bandwidth-delay product at the full 40 Mb/s."""
    q, t = _queue(r), r.times
    at3 = float(q[np.where(t >= BURST[1])[0][0]])
    extra = float(np.max(r.window("link", "bottleneck:a->b", "queue_pkts", BURST[1], END_S))) - at3
    bdp = float(r.link("bottleneck")["bandwidth_bps"]) * float(r.flow("tcp")["min_rtt_s"]) / PACKET_BITS
    return 100 * extra / bdp


def _below_vegas(
    e: str, text: str, figure: dict[str, Stats], what: str, fmt: str, unit: str, why: str = ""
) -> Claim:
    """One part of a compound claim: RTT-based TCP's `what` below Vegas's, by at least the visible effect."""
    return order(
        e,
        text,
        "",
        figure["rttbased"],
        figure["vegas"],
        Order("<", f"RTT-based {what}", f"Vegas {what}", VISIBLE, why),
        fmt=fmt,
        unit=unit,
        reads=ALGS,
    )


def claims_simple(rs: RunSet) -> list[Claim]:
    e = rs.experiment.id
    down = _both_algs(rs, _down)
    q_burst = _both_algs(
        rs, lambda r: float(np.max(r.window("link", "bottleneck:a->b", "queue_pkts", BURST[0], BURST[1])))
    )
    up = _both_algs(rs, _up)
    extra = stats(rs.each("rttbased", _extra_queue))
    drops = _both_algs(rs, lambda r: float(r.link("bottleneck")["drops"]))
    return [
        both(
            e,
            "RTT-based TCP responds faster than Vegas when the rate drops, so its maximum queue during the "
            "UDP burst is smaller",
            "faster, smaller (P001 §4.3, Figs. 4-5)",
            [
                _below_vegas(e, "responds faster", down, "response", ".3f", " s", VISIBLE_WHY),
                _below_vegas(e, "smaller maximum queue", q_burst, "max queue", ".1f", " seg"),
            ],
            note="response: seconds after 1.5 s until the window is within 10 % of the one that fills the "
            "20 Mb/s the burst leaves plus the 3-segment target, 1.5 s if never; queue: the largest during "
            "1.5-3 s",
        ),
        both(
            e,
            "when capacity returns at 3 s RTT-based TCP responds faster than Vegas without increasing too "
            "much queue",
            "faster, little queue (P001 §4.3, Figs. 4-5)",
            [
                _below_vegas(e, "responds faster", up, "ramp-up", ".3f", " s", VISIBLE_WHY),
                bound(
                    e,
                    "without too much queue",
                    "",
                    extra,
                    Bound(
                        "<",
                        10,
                        "RTT-based TCP's queue added while ramping up (largest 3-4.5 s minus the queue at "
                        "3 s), in % of the bandwidth-delay product; 'too much' from 10 %, the module's 10 % "
                        "convention, which would add 10 % to the round trip",
                    ),
                    fmt=".1f",
                    unit=" % of the BDP (RTT-based's added queue)",
                    reads=("rttbased",),
                ),
            ],
            note="response: seconds after 3 s until the window reaches 90 % of its final level (4.2-4.5 s); "
            f"bottleneck drops RTT-based {drops['rttbased'].show('.0f')}, Vegas {drops['vegas'].show('.0f')}",
        ),
    ]


def _jain(r: RunResult) -> float:
    x = [f["throughput_bps"] for f in r.summary["flows"]]
    return float(sum(x) ** 2 / (len(x) * sum(v * v for v in x)))


def _util(r: RunResult) -> float:
    return 100 * float(r.link("bottleneck")["utilization"])


def _max_queue(r: RunResult) -> float:
    return float(r.link("bottleneck")["max_queue_pkts"])


def _queue_rise(r: RunResult) -> float:
    """Seconds until the bottleneck queue first reaches `QUEUE_RISE` segments (the run's length if never)."""
    t = r.times
    return _first(t, _queue(r) >= QUEUE_RISE, 0.0, float(t[-1]))


def _long_flows(r: RunResult) -> tuple[float, float]:
    """Sources 1-3 (long access links, Figs. 6-7), means over the three: the ramp-up time (until the
    window first reaches 90 % of its final level, 1.5-2 s) and the settling time (after which it stays
    within 10 % of that level)."""
    t = r.times
    ramp, settle = [], []
    for f in ("f1", "f2", "f3"):
        c = r.s("flow", f, "cwnd_pkts")
        final = float(np.mean(r.window("flow", f, "cwnd_pkts", 1.5, 2.0)))
        ramp.append(_first(t, c >= 0.9 * final, 0.0, 1.5))
        away = np.where((t < 1.5) & np.isfinite(c) & ((c < 0.9 * final) | (c > 1.1 * final)))[0]
        settle.append(float(t[away[-1]]) if len(away) else 0.0)
    return float(np.mean(ramp)), float(np.mean(settle))


# P001 Fig. 10 text and Table 1: maximum queue (segments), throughput (%), Jain's fairness.
TABLE1 = {"vegas": (65, 97.2, 0.871), "rttbased": (45, 97.3, 0.999)}


def claims_parkinglot(rs: RunSet) -> list[Claim]:
    e = rs.experiment.id
    out = []
    for alg in ("vegas", "rttbased"):
        mq, tp, fj = TABLE1[alg]
        out.append(
            near(
                e,
                f"{alg}: maximum bottleneck queue (P001 Fig. 10 text)",
                f"{mq} seg",
                stats(rs.each(alg, _max_queue)),
                Near(mq, POINTS, 0.5, "an integer in the text: ±0.5 segment"),
                fmt=".1f",
                unit=" seg",
                reads=(alg,),
            )
        )
        out.append(
            near(
                e,
                f"{alg}: throughput, % of the bottleneck (P001 Table 1)",
                f"{tp} %",
                stats(rs.each(alg, _util)),
                Near(tp, POINTS, 0.05, "three significant digits: ±0.05 points"),
                fmt=".2f",
                unit=" %",
                reads=(alg,),
                note="ours: the bottleneck's utilisation over the whole 2-s run, start-up included; the "
                "paper does not define its throughput %",
            )
        )
        why = "three decimals: ±0.0005"
        crit = (
            Near(fj, ONE_MINUS, 0.0005 / (1 - fj), f"{why}, half of 1 - J = 0.001")
            if fj > 0.99
            else Near(fj, POINTS, 0.0005, f"{why} (±0.4 % of 1 - J = 0.129)")
        )
        out.append(
            near(
                e,
                f"{alg}: Jain's fairness index (P001 Table 1)",
                f"{fj}",
                stats(rs.each(alg, _jain)),
                crit,
                fmt=".3f",
                reads=(alg,),
            )
        )
    rise = _both_algs(rs, _queue_rise)
    mq_all = _both_algs(rs, _max_queue)
    out.append(
        both(
            e,
            "RTT-based TCP increases the queue more quickly but keeps a smaller maximum queue than Vegas",
            "more quickly; 45 < 65 (P001 §4.3, Fig. 10)",
            [
                _below_vegas(e, "queue rises sooner", rise, "time to 20 seg", ".3f", " s", VISIBLE_WHY),
                _below_vegas(e, "smaller maximum", mq_all, "max queue", ".1f", " seg"),
            ],
            note=f"sooner: seconds until the bottleneck queue first reaches {QUEUE_RISE} segments, below "
            "half of either maximum the paper reports",
        )
    )
    j = _both_algs(rs, _jain)
    out.append(
        order(
            e,
            "RTT-based TCP is significantly fairer than Vegas",
            "0.999 > 0.871 (P001 Table 1, §4.3)",
            j["rttbased"],
            j["vegas"],
            Order(">", "RTT-based Jain", "Vegas Jain", SIGNIFICANT, SIGNIFICANT_WHY),
            fmt=".3f",
            reads=ALGS,
        )
    )
    u = _both_algs(rs, _util)
    out.append(
        order(
            e,
            "RTT-based TCP's throughput is a little better than Vegas's",
            "97.3 > 97.2 % (P001 Table 1, §4.3)",
            u["rttbased"],
            u["vegas"],
            Order(
                ">",
                "RTT-based",
                "Vegas",
                0.05 / 97.2,
                "a gap counts when larger than half a unit of Table 1's last digit, 0.05 point; the paper's "
                "own gap is 0.1 point",
            ),
            fmt=".2f",
            unit=" %",
            reads=ALGS,
            note="'only a little' is the gap's size, which the two throughput claims above test",
        )
    )
    longs = {a: [_long_flows(r) for r in rs.seeds(a)] for a in ALGS}
    ramp = {a: stats([x[0] for x in longs[a]]) for a in ALGS}
    settle = {a: stats([x[1] for x in longs[a]]) for a in ALGS}
    out.append(
        both(
            e,
            "RTT-based TCP has both a shorter ramp-up time and a faster window adjustment than Vegas (S1-S3)",
            "shorter, faster (P001 §4.3, Figs. 6-7)",
            [
                _below_vegas(e, "shorter ramp-up", ramp, "ramp-up", ".3f", " s", VISIBLE_WHY),
                _below_vegas(e, "faster adjustment", settle, "settling", ".3f", " s"),
            ],
            note="sources 1-3, mean of the three: ramp-up until the window first reaches 90 % of its level "
            "at 1.5-2 s; adjustment until it stays within 10 % of it",
        )
    )
    return out


def table_parkinglot(rs: RunSet) -> list[Table]:
    rows = []
    for alg in ("vegas", "rttbased"):
        _, tp, fj = TABLE1[alg]
        rows.append(
            [
                alg,
                f"{tp}",
                stats(rs.each(alg, _util)).show(".2f"),
                f"{fj}",
                stats(rs.each(alg, _jain)).show(".3f"),
            ]
        )
    return [
        Table(
            "P001 Table 1: throughput and fairness",
            [
                "scheme",
                "throughput % (paper)",
                "throughput % (ours, ensemble mean ± 95 %)",
                "fairness (paper)",
                "fairness (ours, ensemble mean ± 95 %)",
            ],
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
