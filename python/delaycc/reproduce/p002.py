"""P002, RRFast vs FAST when the route changes.

Ten identical flows; the paper plots one of them "as a sample flow" (§5). Figures read the runs' f1; the
claims read every flow, as the sample stands for any of the ten: a per-flow behaviour counts when it holds
for more than half of the flows, a per-flow quantity is the mean over the ten.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

import numpy as np

from ..plots.panels import finish, panels
from ..plots.smooth import rolling_mean
from .claims import both, bound, label, order
from .criteria import Bound, Order, stats
from .model import BY_CONSTRUCTION, SETUP, Claim, Experiment, RunResult, RunSet

SCENARIOS = Path("scenarios/papers")
ALGS = ("fast", "rrfast")
FLOWS = tuple(f"f{i}" for i in range(1, 11))
PARAMS = {a: {"alpha": 4, "gamma": 0.5} for a in ALGS}

REROUTE_S = 30.0  # P002 §5.1: rerouting at t = 30 s
AFTER = (35.0, 100.0)  # after the reroute, once the first RTTs on the new path are past
P1_RTT_S, P2_RTT_S = 0.125, 0.376  # P002 §5.1: round-trip propagation delay of P1 and P2
RTT_TOL_S = 0.0006
"""A baseRTT "is" the paper's 125 or 376 ms within half its last digit (0.5 ms) plus the 0.1 ms of
serialisation our baseRTT includes (1000 B at 100 Mb/s and the ACK)."""
TYPICAL = 0.5
"""The sample flow stands for a typical one of the ten identical flows: more than half behave as it does."""
VISIBLE = 0.02
"""Two curves of a lost figure are "the same" (P002 §5.2) when they differ by less than about 2 % of the
axis' full scale, the smallest gap between two lines a reader can see (a line is ~1 % of a panel)."""
BOTTLENECK_BPS, PACKET_BITS = 100e6, 8000  # P002 §5: 100 Mb/s bottleneck (docs/experiments.md), 1 KB packets
FULL_SCALE: dict[str, tuple[float, str, str]] = {
    # quantity: (full scale of its axis, unit, where the full scale comes from)
    "utilisation": (100.0, "pp", "0-100 %"),
    "RTT": (P2_RTT_S * 1e3, "ms", "P2's 376 ms"),
    "baseRTT": (P2_RTT_S * 1e3, "ms", "P2's 376 ms"),
    "cwnd": (
        BOTTLENECK_BPS * P2_RTT_S / PACKET_BITS / len(FLOWS) + 4,
        "pkts",
        "a flow's window on P2, C x 376 ms / 10 + alpha",
    ),
    "throughput": (BOTTLENECK_BPS / 1e6 / len(FLOWS), "Mb/s", "a flow's fair share, 100 Mb/s / 10"),
}


def _joined(e: str, text: str, paper: str, parts: dict[str, Claim], note: str = "") -> Claim:
    """`both` over named parts, its measured text saying which figure is which."""
    c = both(e, text, paper, list(parts.values()), note)
    return dataclasses.replace(
        c,
        measured="; ".join(f"{n}: {p.measured}" for n, p in parts.items()),
        criterion="; ".join(f"{n}: {p.criterion}" for n, p in parts.items()),
    )


def _figures(rs: RunSet, out: Path) -> list[Path]:
    exp = rs.experiment
    fig, axes = panels(5, f"{exp.id}: sample flow f1 and the bottleneck (first run of the ensemble)")
    for alg in ALGS:
        r = rs.seeds(alg)[0]
        axes[0].plot(r.times, r.s("flow", "f1", "rtt_s") * 1e3, label=alg, linewidth=1)
        axes[1].plot(r.times, r.s("flow", "f1", "cwnd_pkts"), label=alg, linewidth=1)
        axes[2].plot(r.times, r.s("flow", "f1", "base_rtt_s") * 1e3, label=alg, linewidth=1)
        axes[3].plot(
            r.times, rolling_mean(r.s("flow", "f1", "rate_bps"), r.times, 1.0) / 1e6, label=alg, linewidth=1
        )
        axes[4].plot(
            r.times,
            rolling_mean(r.s("link", "bottleneck:a->b", "throughput_bps"), r.times, 1.0) / 1e6,
            label=alg,
        )
    for ax, name in zip(
        axes, ["RTT (ms)", "cwnd (pkts)", "baseRTT (ms)", "f1 rate (Mb/s)", "bottleneck (Mb/s)"], strict=True
    ):
        ax.set_ylabel(name)
    return [finish(fig, axes, "time (s)", out / f"{exp.id}.png")]


def _util(r: RunResult, t0: float, t1: float) -> float:
    """Bottleneck utilisation over [t0, t1), in per cent."""
    bw = r.link("bottleneck")["bandwidth_bps"]
    return float(np.mean(r.window("link", "bottleneck:a->b", "throughput_bps", t0, t1)) / bw * 100)


def _flow_mean(r: RunResult, metric: str, t0: float, t1: float) -> float:
    """The mean over the ten flows of each flow's mean of `metric` over [t0, t1)."""
    return float(np.mean([np.mean(r.window("flow", f, metric, t0, t1)) for f in FLOWS]))


def _final_base(r: RunResult, fid: str) -> float:
    b = r.flow(fid)["final_base_rtt_s"]
    return float("nan") if b is None else float(b)


def _reset(r: RunResult, fid: str) -> bool:
    return abs(_final_base(r, fid) - P2_RTT_S) <= RTT_TOL_S


def _reset_share(r: RunResult) -> float:
    return float(np.mean([_reset(r, f) for f in FLOWS]))


def _cut_reset_rise(r: RunResult, fid: str) -> bool:
    """P002 §5.1 (Fig. 4 text): after the reroute the flow first cuts its window, then resets baseRTT to the
    new path's, then raises its window. Per flow: the window falls below its value at the reroute before
    baseRTT reaches 376 ms, and ends the run above the lowest value it had before the reset."""
    t = r.times
    cwnd, base = r.s("flow", fid, "cwnd_pkts"), r.s("flow", fid, "base_rtt_s")
    after = t >= REROUTE_S
    hits = np.flatnonzero(after & (base >= P2_RTT_S - RTT_TOL_S))
    before = np.flatnonzero(~after)
    if len(hits) == 0 or len(before) == 0:
        return False
    i_reset = int(hits[0])
    w_at_reroute = float(cwnd[before[-1]])
    low = float(np.nanmin(cwnd[int(before[-1]) + 1 : i_reset + 1]))
    final = cwnd[np.isfinite(cwnd)]
    return bool(low < w_at_reroute and len(final) and final[-1] > low)


def _sequence_share(r: RunResult) -> float:
    return float(np.mean([_cut_reset_rise(r, f) for f in FLOWS]))


def claims_longer(rs: RunSet) -> list[Claim]:
    e = rs.experiment.id
    fast, rr = rs.seeds("fast"), rs.seeds("rrfast")
    u_before = {a: stats([_util(r, 5, REROUTE_S) for r in rs.seeds(a)]) for a in ALGS}
    u_after = {a: stats([_util(r, *AFTER) for r in rs.seeds(a)]) for a in ALGS}
    u_end = stats([_util(r, 80, 100) for r in rr])
    rate = {a: stats([_flow_mean(r, "rate_bps", *AFTER) / 1e6 for r in rs.seeds(a)]) for a in ALGS}
    cwnd_fast = stats([_flow_mean(r, "cwnd_pkts", 80, 100) for r in fast])
    rtt_jump = {
        a: (
            stats([_flow_mean(r, "rtt_s", 25, REROUTE_S) * 1e3 for r in rs.seeds(a)]),
            stats([_flow_mean(r, "rtt_s", REROUTE_S + 1, REROUTE_S + 5) * 1e3 for r in rs.seeds(a)]),
        )
        for a in ALGS
    }
    fast_base = stats([float(np.mean([_final_base(r, f) for f in FLOWS])) * 1e3 for r in fast])
    reset = stats([_reset_share(r) for r in rr])
    sequence = stats([_sequence_share(r) for r in rr])
    f1_reset = sum(_reset(r, "f1") for r in rr)
    # FAST's equilibrium with baseRTT stuck at P1's: w = alpha / (1 - 125/376) per flow (eq. 1).
    w_star = 4 / (1 - P1_RTT_S / P2_RTT_S)
    return [
        label(
            e,
            "at 30 s, when the flows move to the longer path, the encountered RTT suddenly increases",
            "increases (P002 §5.1, Fig. 3 text)",
            "mean RTT of the ten flows 25-30 s → 31-35 s: "
            + "; ".join(f"{a} {b.show('.0f')} → {c.show('.0f')} ms" for a, (b, c) in rtt_jump.items()),
            SETUP,
            "the reroute to P2 (376 ms against 125 ms) is the scenario itself",
            reads=ALGS,
        ),
        label(
            e,
            "after the reroute FAST sharply decreases its cwnd and stays low (reads the longer RTT as congestion)",
            "decreases sharply (P002 §5.1, Fig. 3/4 text; abstract)",
            f"FAST utilisation 35-100 s {u_after['fast'].show('.2f', ' %')} (5-30 s: {u_before['fast'].show('.1f', ' %')}); "
            f"cwnd per flow 80-100 s {cwnd_fast.show('.1f')} pkts (eq. 1 with baseRTT 125 ms: {w_star:.1f})",
            BY_CONSTRUCTION,
            "FAST's eq. (1) with its minimum-filter baseRTT stuck at 125 ms settles at alpha / (1 - 125/376) = "
            f"{w_star:.1f} packets per flow: the paper's premise (§2), not its result",
            reads=("fast",),
        ),
        _joined(
            e,
            "RRFast improves throughput and bottleneck utilisation",
            "higher (P002 §5.1, Figs. 6-7 text)",
            {
                "throughput of a flow": order(
                    e,
                    "throughput of a flow, 35-100 s",
                    "",
                    rate["rrfast"],
                    rate["fast"],
                    Order(">", "RRFast", "FAST"),
                    " Mb/s",
                    ".3g",
                    reads=ALGS,
                ),
                "bottleneck utilisation": order(
                    e,
                    "bottleneck utilisation, 35-100 s",
                    "",
                    u_after["rrfast"],
                    u_after["fast"],
                    Order(">", "RRFast", "FAST"),
                    " %",
                    ".3g",
                    reads=ALGS,
                ),
            },
            note="35-100 s; a flow's throughput is the mean over the ten flows (the paper's sample flow is any of them); "
            f"f1 alone resets its baseRTT in {f1_reset}/{len(rr)} runs",
        ),
        label(
            e,
            "FAST keeps baseRTT ≈ 125 ms after the reroute",
            "125 ms (P002 §5.1 delays; Fig. 5 lost)",
            f"final baseRTT, mean of the ten flows {fast_base.show('.1f', ' ms')}",
            BY_CONSTRUCTION,
            "FAST's baseRTT is the minimum RTT seen so far (§2): it cannot rise, and FAST has no reset",
            reads=("fast",),
        ),
        bound(
            e,
            "RRFast moves its baseRTT to ≈ 376 ms, the new path's",
            "376 ms (P002 §5.1 delays, §4 reset; Fig. 5 lost)",
            reset,
            Bound(
                ">",
                TYPICAL,
                "share of the ten flows whose final baseRTT is 376 ± 0.6 ms (half the paper's last digit plus "
                "our serialisation); the sample flow stands for a typical flow, i.e. more than half",
            ),
            fmt=".2f",
            reads=("rrfast",),
            note=f"f1 alone resets in {f1_reset}/{len(rr)} runs; a flow that does not reset keeps 125 ms",
        ),
        bound(
            e,
            "RRFast first decreases cwnd, recognises the reroute, resets baseRTT a little later and increases cwnd",
            "in that order (P002 §5.1, Fig. 4 text)",
            sequence,
            Bound(
                ">",
                TYPICAL,
                "share of the ten flows that cut their window below its value at 30 s before baseRTT reaches "
                "376 ms, and end the run above that low; the sample flow stands for more than half of them",
            ),
            fmt=".2f",
            reads=("rrfast",),
            note='"a little later" gives no time, so only the order of the events is tested',
        ),
        bound(
            e,
            "RRFast solves FAST's throughput degradation on the new longer path",
            "solved (P002 §6 Summary, abstract)",
            stats([a - b for a, b in zip(u_end.values, u_before["rrfast"].values, strict=True)]),
            Bound(
                ">",
                -VISIBLE * 100,
                "RRFast's utilisation 80-100 s minus its own 5-30 s, in points: no degradation left means the "
                "end of the run is back at the pre-reroute level, within the 2 points a figure can show",
            ),
            " pp",
            ".3g",
            reads=("rrfast",),
            note=f"RRFast utilisation 5-30 s {u_before['rrfast'].show('.1f', ' %')}, 80-100 s {u_end.show('.1f', ' %')}",
        ),
    ]


def _same(e: str, name: str, diff: list[float]) -> Claim:
    """One quantity of "the same": the paired difference RRFast - FAST and its 95 % interval within the
    smallest gap a figure shows (`VISIBLE` of the axis' full scale)."""
    full, unit, where = FULL_SCALE[name]
    margin = VISIBLE * full
    why = (
        f"{VISIBLE:.0%} of the axis' full scale ({where}, {full:.4g} {unit}): the smallest gap a reader sees"
    )
    d = stats(diff)
    parts = [
        bound(e, name, "", d, Bound("<", margin, why), f" {unit}", ".3g", reads=ALGS),
        bound(e, name, "", d, Bound(">", -margin, why), f" {unit}", ".3g", reads=ALGS),
    ]
    c = both(e, name, "", parts)
    return dataclasses.replace(
        c,
        measured=f"{name} {d.mean:+.3g} ± {d.half_width:.2g} {unit}",
        criterion=f"{name} within ±{margin:.3g} {unit} ({why})",
        held=f"{sum(abs(x) < margin for x in d.values)}/{d.n}",
    )


def claims_shorter(rs: RunSet) -> list[Claim]:
    e = rs.experiment.id
    pairs = list(zip(rs.seeds("fast"), rs.seeds("rrfast"), strict=True))
    quantities: dict[str, Callable[[RunResult], float]] = {
        "RTT": lambda r: _flow_mean(r, "rtt_s", *AFTER) * 1e3,
        "cwnd": lambda r: _flow_mean(r, "cwnd_pkts", *AFTER),
        "baseRTT": lambda r: float(np.mean([_final_base(r, f) for f in FLOWS])) * 1e3,
        "throughput": lambda r: _flow_mean(r, "rate_bps", *AFTER) / 1e6,
        "utilisation": lambda r: _util(r, *AFTER),
    }
    parts = [_same(e, name, [q(r) - q(f) for f, r in pairs]) for name, q in quantities.items()]
    same = both(
        e,
        "RRFast and FAST behave the same on a shorter new route: RTT, cwnd, baseRTT, throughput and utilisation",
        "same (P002 §5.2, Figs. 8-12 text)",
        parts,
        note="RRFast - FAST over 35-100 s, paired by run; RTT, cwnd and throughput are means over the ten flows",
    )
    same = dataclasses.replace(
        same,
        measured="RRFast - FAST: " + "; ".join(p.measured for p in parts),
        criterion="the 95 % interval of each paired difference inside its margin: "
        + "; ".join(p.criterion for p in parts),
    )
    base = stats([float(np.mean([_final_base(r, f) for f in FLOWS])) * 1e3 for r in rs.seeds("fast")])
    return [
        same,
        label(
            e,
            "the minimum filter picks up the shorter path by itself",
            "125 ms (P002 §2, §5.2)",
            f"FAST final baseRTT, mean of the ten flows {base.show('.1f', ' ms')}",
            BY_CONSTRUCTION,
            "baseRTT is the minimum RTT seen (§2): the first packet on P1 brings it down to P1's 125 ms",
            reads=("fast",),
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
