"""P003, EMFAST (CCaFR) vs MFAST, FAST, NewReno and SCTP after one induced loss.

The paper's "five tests" cannot differ by seed (nothing in the scenario is random) or by a few milliseconds
of start time (one flow on a fixed path only shifts). What it leaves open is the instant of the induced loss
("near the 38th second", §2): each run drops the first packet flow 1 sends after 38 s ± up to 0.5 s
(the proposal in docs/experiments.md#p003-common-set-up), drawn per run and the same instant for every
protocol, so runs pair.

Convergence is measured on the episode the induced loss starts, and on no other: the first window cut
within `LOSS_SIGNAL_S` of the drop. An episode that another loss or a timeout cuts short before the window is
back is censored (the window never came back: at least as long as the time to that next loss); a drop that
lands inside another loss's recovery starts no episode of its own.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import math
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from .. import api
from ..plots.panels import finish, panels
from .claims import both, bound, label, near, order
from .criteria import ONE_MINUS, POINTS, Bound, Near, Order, Stats, stats
from .model import BY_CONSTRUCTION, ENSEMBLE_SEEDS, SETUP, Claim, Experiment, RunKey, RunResult, RunSet, Table
from .runs import vary_generator

SCENARIOS = Path("scenarios/papers")
ALGS = ("sctp", "newreno", "fast", "mfast", "emfast")
FAST_PARAMS = {"alpha": 6, "gamma": 0.5}
PARAMS = {"fast": FAST_PARAMS, "mfast": FAST_PARAMS, "emfast": FAST_PARAMS}
STREAMS = {"mfast": 4, "emfast": 4, "sctp": 4}
NAMES = {"sctp": "SCTP", "newreno": "NewReno", "fast": "FAST", "mfast": "MFAST", "emfast": "EMFAST"}
OTHERS = ("fast", "newreno", "sctp")
"""What EMFAST is compared with; MFAST is FAST's controller unchanged, so it is FAST's runs again."""
MFAST_SAME = "MFAST is FAST's controller unchanged"

DROP_AT_S = 38.0
"""P003 §2 (Fig. 3 text): the induced loss is "near the 38th second"."""
DROP_SPREAD_S = 0.5
"""docs/experiments.md#p003-common-set-up: the five tests differ by the drop instant, up to ±0.5 s."""
LOSS_SIGNAL_S = 0.8
"""Longest delay from sending the dropped packet to the window cut it causes: a round trip with full
queues (0.254 + 2 x 10 x 5.5 ms ≈ 0.37 s), up to 0.2 s for the next packet to leave an idle sender, three
duplicate ACKs and one 50 ms sample."""
CUT = 0.75
"""A loss shows as the window falling below this share of the previous sample (halving, or a timeout);
FAST's own update lowers it by at most gamma x (1 - 0.254/0.31) ≈ 9 % on this path."""
SS_END_S = 10.0
"""P003 Fig. 3: slow start and its settling; FAST's window reaches its equilibrium within a few seconds."""
VISIBLE_JITTER_S = 0.001
"""Fig. 3's "straight horizontal line": a deviation shows when it exceeds about 1 % of an axis that must
reach the ≈ 100 ms jitter of slow start, i.e. 1 ms."""
FULL_LINK = 0.95
"""A 50 ms sample of the 1.5 Mb/s bottleneck holds 9 packets when busy; one missing packet reads 89 %."""
SQRT2 = math.sqrt(2)
"""The paper's value is itself a mean of five tests whose spread (Tables S1-S3) is lost: assumed equal to
ours, so the allowance for both means is sqrt(2) x our 95 % half-width."""

# P003 Tables 1-3 and §5.1, (alone, competing).
CONVERGENCE = {
    "sctp": (8.22, 8.50),
    "newreno": (8.46, 8.92),
    "fast": (5.43, 5.18),
    "mfast": (5.43, 5.18),
    "emfast": (3.87, 2.31),
}
MAX_CWND = {"sctp": (56, 32), "newreno": (57, 34), "fast": (52, 27), "mfast": (52, 27), "emfast": (52, 27)}
THROUGHPUT = {
    "sctp": (1096, 407),
    "newreno": (1236, 397),
    "fast": (1446, 430),
    "mfast": (1446, 430),
    "emfast": (1454, 433),
}
GOODPUT = {"sctp": (1043, 387), "newreno": (1183, 379), "mfast": (1389, 413), "emfast": (1396, 415)}
# P003 §5.1 and §1: EMFAST's convergence time is shorter than FAST/MFAST's, NewReno's and SCTP's by
# (alone, competing) per cent.
REDUCTION = {"fast": (29, 55), "newreno": (54, 74), "sctp": (52, 73)}
REFILL_RTTS = {"emfast": 9, "fast": 17, "mfast": 17}  # P003 §5.1, Figs. 10 and 4 (alone)
TABLE4 = {  # flow -> (SCTP, Fast, NewReno, EMFast) in Kbps, competing run
    "f1": (407.00, 430.46, 397.00, 433.00),
    "f2": (214.50, 241.21, 211.64, 240.13),
    "f3": (226.02, 248.93, 226.42, 243.17),
    "f4": (226.99, 245.25, 220.36, 252.06),
    "f5": (213.82, 239.19, 226.42, 241.25),
}
TABLE4_JAIN = (0.9221, 0.9338, 0.9296, 0.9328)
TABLE4_ALGS = ("sctp", "fast", "newreno", "emfast")
COMPETITORS = ("f2", "f3", "f4", "f5")


# --- the ensemble: where the induced loss falls ---


def _mfast_label(e: str, text: str, paper: str, shown: str, why: str = MFAST_SAME) -> Claim:
    """MFAST's figure, shown beside the paper's but not counted: MFAST is FAST's controller unchanged on a
    multistream connection, so its runs repeat FAST's."""
    return label(e, text, paper, shown, BY_CONSTRUCTION, why, ("mfast",))


def _offset_s(key: RunKey, rng: random.Random) -> float:
    """Where in 38 s ± DROP_SPREAD_S this run's loss falls: run k of the ensemble in the k-th of equal
    strata, at a random place in the middle half of it, so that no two runs drop the same packet (random
    draws 7 ms apart fell before one packet and made two runs identical)."""
    k = list(ENSEMBLE_SEEDS).index(key.seed) if key.seed in ENSEMBLE_SEEDS else key.seed % len(ENSEMBLE_SEEDS)
    width = 2 * DROP_SPREAD_S / len(ENSEMBLE_SEEDS)
    return -DROP_SPREAD_S + (k + 0.5) * width + rng.uniform(-width / 4, width / 4)


def _first_sent_after(doc: dict[str, Any], t: float) -> int:
    """The sequence number of the first new packet flow 1 sends after `t`: the packets it sent by then
    (a run of the same scenario, stopped at `t` and without the drop, is the same run up to `t`; the seed
    is still the file's when `vary` runs, which changes nothing here, as nothing in P003 is random). The
    ns-2 referee's runs get the same number, so in ns-2 the drop lands where ns-2's flow sends it."""
    pre = copy.deepcopy(doc)
    pre["duration"] = t
    for link in pre.get("links", []):
        link.pop("drop_packets", None)
    flow = next(f for f in api.run(pre).summary["flows"] if f["id"] == "f1")
    return int(flow["sent_pkts"] - flow["retransmits"])


def _vary(doc: dict[str, Any], key: RunKey, rng: random.Random) -> None:
    """Drops the first packet flow 1 sends after 38 s + this run's offset, whatever the protocol's rate (a
    fixed sequence number, calibrated on FAST, reached NewReno and SCTP 5 s later)."""
    seq = _first_sent_after(doc, DROP_AT_S + _offset_s(key, rng))
    for link in doc.get("links", []):
        if link.get("drop_packets"):
            link["drop_packets"] = [{**link["drop_packets"][0], "seq": seq}]


def _drop_at(key: RunKey) -> float:
    """When this run's induced loss was sent: the draw `_vary` made, from the generator
    runs.scenario_for hands it (seeded by experiment, sweep point and seed, never by algorithm)."""
    return DROP_AT_S + _offset_s(key, vary_generator(key))


# --- measurements on one run ---


def _cuts(r: RunResult) -> np.ndarray:
    """Times of flow 1's losses: the samples at which its window falls below `CUT` of the previous one."""
    c = r.s("flow", "f1", "cwnd_pkts")
    with np.errstate(invalid="ignore"):
        idx = np.flatnonzero(c[1:] < CUT * c[:-1]) + 1
    return np.asarray(r.times[idx])


@dataclasses.dataclass(frozen=True)
class Recovery:
    """Flow 1's episode after the induced loss."""

    t_pd: float
    """Its third duplicate ACK (or the sample showing its cut); NaN when the drop started no episode."""
    time_s: float
    """T = T_LF - T_PD (P003 eq. 3); NaN unless the window came back."""
    at_least_s: float
    """For a censored episode: the time until the next loss, a lower bound on T."""

    @property
    def converged(self) -> bool:
        return math.isfinite(self.time_s)


def _recovery(r: RunResult) -> Recovery:
    nan = float("nan")
    episodes = r.flow("f1").get("convergence_episodes") or []
    if not episodes:
        # Nothing recorded episodes (ns-2's runs have none): not measured.
        return Recovery(nan, nan, nan)
    t_d = _drop_at(r.key)
    cuts = _cuts(r)
    mine = cuts[(cuts >= t_d) & (cuts <= t_d + LOSS_SIGNAL_S)]
    if len(mine) == 0:
        return Recovery(nan, nan, nan)
    cut = float(mine[0])
    dt = float(r.times[1] - r.times[0])
    for ep in episodes:
        if cut - dt - 1e-6 <= ep["loss_at_s"] <= cut + 1e-6:
            return Recovery(float(ep["loss_at_s"]), float(ep["time_s"]), float(ep["time_s"]))
    later = cuts[cuts > cut]
    end = float(later[0]) if len(later) else float(r.times[-1])
    return Recovery(cut, nan, end - cut)


def _time(r: RunResult) -> float:
    return _recovery(r).time_s


def _at_least(r: RunResult) -> float:
    """The convergence time where the window came back, else its lower bound (the side that can only
    understate how slow a protocol is)."""
    return _recovery(r).at_least_s


def _refill_rtts(r: RunResult) -> float:
    """P003 §5.1 "consumed the available network link in N RTT": from the induced loss (T_PD) until the
    bottleneck is busy again for a whole RTT, in RTTs of the flow's own over that time. A busy link is what
    the ACKs' IPD jitter staying at zero shows (Figs. 4, 10); the sampled link is read because the jitter
    series keeps one value per 50 ms sample, not every ACK's."""
    rec = _recovery(r)
    if not math.isfinite(rec.t_pd):
        return float("nan")
    t = r.times
    bw = r.link("bottleneck")["bandwidth_bps"]
    busy = r.s("link", "bottleneck:a->b", "throughput_bps") >= FULL_LINK * bw
    rtt = r.s("flow", "f1", "rtt_s")
    dt = float(t[1] - t[0])
    start = int(np.searchsorted(t, rec.t_pd))
    idle = np.flatnonzero(~busy[start:])
    if len(idle) == 0:
        return float("nan")
    i = start + int(idle[0])
    while i < len(t):
        window = max(1, math.ceil(float(np.nanmean(rtt[start : i + 1])) / dt))
        if busy[i : i + window].all() and i + window <= len(t):
            elapsed = float(t[i] - rec.t_pd)
            return elapsed / float(np.nanmean(rtt[start : i + 1]))
        i += 1
    return float("nan")


def _max_cwnd_after_first_loss(r: RunResult) -> float:
    """The largest window after the first loss: slow start's overshoot is not the window a protocol
    "attains" (§5.1)."""
    c = r.s("flow", "f1", "cwnd_pkts")
    cuts = _cuts(r)
    if len(cuts) == 0:
        return float("nan")
    return float(np.nanmax(c[r.times >= cuts[0]]))


def _tp(r: RunResult, fid: str = "f1") -> float:
    return float(r.flow(fid)["throughput_bps"]) / 1e3


def _gp(r: RunResult) -> float:
    return float(r.flow("f1")["goodput_bps"]) / 1e3


def _jain(r: RunResult) -> float:
    return float(r.summary["fairness_jain"])


def _losses(r: RunResult) -> float:
    f = r.flow("f1")
    return float(f.get("fast_retransmits", math.nan)) + float(f.get("timeouts", math.nan))


def _jitter(r: RunResult, t0: float, t1: float, how: Callable[[np.ndarray], Any]) -> float:
    x = r.window("flow", "f1", "ipd_jitter_s", t0, t1)
    return float(how(x)) * 1e3 if len(x) else float("nan")


# --- claims ---


def _each(rs: RunSet, alg: str, f: Callable[[RunResult], float]) -> Stats:
    return stats(rs.each(alg, f))


def _finite(s: Stats) -> Stats:
    return stats([v for v in s.values if math.isfinite(v)])


def _show(s: Stats, fmt: str, unit: str) -> str:
    """The ensemble's figure; with runs that have none (a censored recovery), the mean is undefined ("nan",
    which also tells the referee nothing was measured) and the others are shown."""
    done = _finite(s)
    if done.n == s.n:
        return s.show(fmt, unit)
    rest = f"; the other {done.n}: {done.show(fmt, unit)}" if done.n else ""
    return f"nan (no figure in {s.n - done.n}/{s.n} runs){rest}"


def _near_shown(
    e: str, text: str, paper: str, ours: Stats, crit: Near, unit: str, fmt: str, **kw: Any
) -> Claim:
    """`near`, showing the runs that have a figure when some have none."""
    return dataclasses.replace(
        near(e, text, paper, ours, crit, unit, fmt, **kw), measured=_show(ours, fmt, unit)
    )


def _why(base: str, s: Stats, unit: str) -> str:
    return f"{base} + √2 x our 95 % half-width {_finite(s).half_width:.3g}{unit}"


def _joined(e: str, text: str, paper: str, parts: dict[str, Claim], note: str = "") -> Claim:
    """`both` over named parts, its measured text and criterion saying which is which."""
    c = both(e, text, paper, list(parts.values()), note)
    return dataclasses.replace(
        c,
        measured="; ".join(f"{n}: {p.measured}" for n, p in parts.items()),
        criterion="; ".join(f"{n}: {p.criterion}" for n, p in parts.items()),
    )


def _censored_note(rs: RunSet, alg: str) -> str:
    recs = [_recovery(r) for r in rs.seeds(alg)]
    cens = [x.at_least_s for x in recs if not x.converged and math.isfinite(x.at_least_s)]
    none = sum(not math.isfinite(x.t_pd) for x in recs)
    bits = []
    if cens:
        bits.append(
            f"{len(cens)}/{len(recs)} runs censored (window not back before the next loss, "
            f"≥ {min(cens):.2f} s)"
        )
    if none:
        bits.append(f"{none}/{len(recs)} runs: the drop started no episode of its own")
    done = [x.time_s for x in recs if x.converged]
    if bits and done:
        bits.append(f"converged runs {stats(done).show('.3g', ' s')}")
    return "; ".join(bits)


def _convergence_claims(rs: RunSet, col: int) -> list[Claim]:
    e = rs.experiment.id
    out: list[Claim] = []
    for a in ALGS:
        paper = CONVERGENCE[a][col]
        text = f"{a}: convergence time after fast recovery (P003 Table 1)"
        ours = _each(rs, a, _time)
        if a == "mfast":
            out.append(
                _mfast_label(
                    e,
                    text,
                    f"{paper} s",
                    ours.show(".3g", " s"),
                    "MFAST is FAST's controller unchanged (the paper's Table 1 gives them the same time); "
                    "its runs repeat FAST's",
                )
            )
            continue
        rtt = float(np.nanmean(rs.each(a, lambda r: r.flow("f1")["mean_rtt_s"] or math.nan)))
        crit = Near(
            paper,
            POINTS,
            rtt + SQRT2 * _finite(ours).half_width,
            _why(f"T_LF is located to one window update, one RTT ({rtt:.2f} s)", ours, " s"),
        )
        out.append(
            _near_shown(
                e, text, f"{paper} s", ours, crit, " s", ".3g", reads=(a,), note=_censored_note(rs, a)
            )
        )
    return out


def _faster(rs: RunSet, col: int) -> list[Claim]:
    """EMFAST's convergence ordering (§5.1, Figs. 8-9 text) and its size (§5.1, §1)."""
    e = rs.experiment.id
    em = _each(rs, "emfast", _time)
    parts = {
        f"vs {NAMES[a]}": order(
            e,
            f"EMFAST faster than {NAMES[a]}",
            "",
            em,
            _each(rs, a, _at_least),
            Order("<", "EMFAST", NAMES[a]),
            " s",
            ".3g",
            reads=("emfast", a),
        )
        for a in OTHERS
    }
    faster = _joined(
        e,
        "EMFAST consumes the link after fast recovery more rapidly than FAST/MFAST, NewReno and SCTP",
        "faster than each (P003 §5.1, Figs. 8-9 text; Table 1)",
        parts,
        note="convergence times; a censored run of the slower protocol counts with its lower bound, a "
        "censored EMFAST run against the claim",
    )
    reductions = {}
    for a in OTHERS:
        paper = REDUCTION[a][col]
        red = stats(
            [
                (1 - x.time_s / y.time_s) * 100 if y.time_s > 0 else math.nan
                for x, y in zip(map(_recovery, rs.seeds("emfast")), map(_recovery, rs.seeds(a)), strict=True)
            ]
        )
        reductions[f"vs {NAMES[a]}"] = _near_shown(
            e,
            f"EMFAST's convergence time shorter than {NAMES[a]}'s by {paper} %",
            f"{paper} %",
            red,
            Near(
                paper,
                POINTS,
                1 + SQRT2 * _finite(red).half_width,
                _why(
                    "whole per cent, truncated: 1 point"
                    + (" (the text's 52 % is Table 1's 52.9 %)" if col == 0 else ""),
                    red,
                    " pp",
                ),
            ),
            " %",
            ".3g",
            reads=("emfast", a),
        )
    pct = "/".join(str(REDUCTION[a][col]) for a in OTHERS)
    size = _joined(
        e,
        f"EMFAST needs {pct} % less time than FAST/MFAST, NewReno and SCTP",
        f"{pct} % (P003 §5.1" + (", §1)" if col == 0 else ")"),
        reductions,
        note="1 - T_EMFAST / T_other per paired run; a censored run has no ratio",
    )
    return [faster, size]


def _orderings(
    rs: RunSet,
    text: str,
    paper: str,
    pairs: list[tuple[str, str]],
    value: Callable[[RunResult], float],
    unit: str,
    note: str = "",
) -> Claim:
    """A sentence of the paper that orders protocols by one figure: every pair (higher, lower) must hold."""
    e = rs.experiment.id
    parts = {
        f"{NAMES[a]} > {NAMES[b]}": order(
            e,
            f"{NAMES[a]} above {NAMES[b]}",
            "",
            _each(rs, a, value),
            _each(rs, b, value),
            Order(">", NAMES[a], NAMES[b]),
            unit,
            ".4g",
            reads=(a, b),
        )
        for a, b in pairs
    }
    return _joined(e, text, paper, parts, note)


def _table_claims(rs: RunSet, col: int) -> list[Claim]:
    """Tables 2-3 and §5.1's maximum windows."""
    e = rs.experiment.id
    alone = col == 0
    out: list[Claim] = []
    for a in ALGS:
        mc = _each(rs, a, _max_cwnd_after_first_loss)
        text = f"{a}: maximum cwnd (P003 §5.1)"
        paper = f"{MAX_CWND[a][col]} pkts"
        if a == "mfast":
            out.append(
                _mfast_label(
                    e,
                    text,
                    paper,
                    mc.show(".3g", " pkts"),
                )
            )
        elif alone:
            loss_based = (
                "a loss-based window peaks at BDP + buffer + 1 ≈ 45.9 + 9 + 1 on this path (ns-2's "
                "queue-limit 10 holds 9 waiting packets, plus the one in service), which docs/experiments.md#p003-common-set-up "
                "used to infer the 1040 B packets"
            )
            why = {
                "sctp": loss_based,
                "newreno": loss_based,
                "fast": "alpha = 6 was chosen so that FAST's window, BDP 45.9 + alpha, is this 52 "
                "(docs/experiments.md#p003-common-set-up)",
                "emfast": "its largest window comes before its first loss, where EMFAST is FAST, whose "
                "alpha was chosen to give 52 (docs/experiments.md#p003-common-set-up)",
            }[a]
            out.append(
                label(
                    e,
                    text,
                    paper,
                    f"largest {_each(rs, a, lambda r: float(np.nanmax(r.s('flow', 'f1', 'cwnd_pkts')))).show('.1f', ' pkts')}; "
                    f"largest after the first loss {mc.show('.1f', ' pkts')}; mean from 30 s to the drop "
                    f"{_each(rs, a, lambda r: float(np.mean(r.window('flow', 'f1', 'cwnd_pkts', 30, _drop_at(r.key))))).show('.1f', ' pkts')}",
                    SETUP,
                    why,
                    (a,),
                )
            )
        else:
            out.append(
                near(
                    e,
                    text,
                    paper,
                    mc,
                    Near(
                        MAX_CWND[a][col],
                        POINTS,
                        1 + SQRT2 * mc.half_width,
                        _why("an integer (±½) of a fractional window (±½): 1 packet", mc, " pkts"),
                    ),
                    " pkts",
                    ".3g",
                    reads=(a,),
                    note="the largest window after the first loss (slow start's overshoot excluded)",
                )
            )
        tp = _each(rs, a, _tp)
        text = f"{a}: throughput of flow 1 (P003 Table 2)"
        paper = f"{THROUGHPUT[a][col]} Kbps"
        if a == "mfast":
            out.append(
                _mfast_label(
                    e,
                    text,
                    paper,
                    tp.show(".4g", " Kbps"),
                )
            )
        else:
            out.append(
                near(
                    e,
                    text,
                    paper,
                    tp,
                    Near(
                        THROUGHPUT[a][col],
                        POINTS,
                        0.5 + SQRT2 * tp.half_width,
                        _why("whole Kbps: ±0.5", tp, " Kbps"),
                    ),
                    " Kbps",
                    ".1f",
                    reads=(a,),
                )
            )
        if a in GOODPUT:
            gp = _each(rs, a, _gp)
            text = f"{a}: goodput of flow 1 (P003 Table 3)"
            paper = f"{GOODPUT[a][col]} Kbps"
            if a == "mfast":
                out.append(
                    _mfast_label(
                        e,
                        text,
                        paper,
                        gp.show(".4g", " Kbps"),
                        "MFAST is FAST's controller unchanged: FAST's throughput x 1000/1040 (the paper's "
                        "1389 = 1446 x 1000/1040), tested in FAST's throughput",
                    )
                )
            else:
                out.append(
                    near(
                        e,
                        text,
                        paper,
                        gp,
                        Near(
                            GOODPUT[a][col],
                            POINTS,
                            0.5 + SQRT2 * gp.half_width,
                            _why("whole Kbps: ±0.5", gp, " Kbps"),
                        ),
                        " Kbps",
                        ".1f",
                        reads=(a,),
                        note=f"goodput / throughput: paper {GOODPUT[a][col] / THROUGHPUT[a][col]:.4f}, "
                        f"ours {gp.mean / tp.mean:.4f} (payload share 1000/1040 = {1000 / 1040:.4f})",
                    )
                )
    return out


def _same_controller(rs: RunSet) -> list[Claim]:
    e = rs.experiment.id
    fast, mfast, em = rs.seeds("fast"), rs.seeds("mfast"), rs.seeds("emfast")
    same = sum(
        np.array_equal(f.s("flow", "f1", "cwnd_pkts"), m.s("flow", "f1", "cwnd_pkts"), equal_nan=True)
        for f, m in zip(fast, mfast, strict=True)
    )

    def until_first_loss(f: RunResult, m: RunResult) -> bool:
        cuts = _cuts(f)
        n = int(np.searchsorted(f.times, cuts[0])) if len(cuts) else len(f.times)
        a, b = f.s("flow", "f1", "cwnd_pkts")[:n], m.s("flow", "f1", "cwnd_pkts")[:n]
        return bool(np.array_equal(a, b, equal_nan=True))

    before = sum(until_first_loss(f, m) for f, m in zip(fast, em, strict=True))
    return [
        label(
            e,
            "FAST and MFAST cwnd traces overlap exactly",
            "identical (P003 §5.1, Fig. 6 text)",
            f"identical in {same}/{len(fast)} paired runs",
            BY_CONSTRUCTION,
            "MFAST is FAST's controller on a multistream connection; shown as a check of the runs' pairing",
            reads=("fast", "mfast"),
        ),
        label(
            e,
            "EMFAST deviates from FAST only after the fast-recovery phase",
            "(P003 §5.4)",
            f"cwnd identical to FAST's until the first loss in {before}/{len(fast)} paired runs",
            BY_CONSTRUCTION,
            "CCaFR acts only after a fast recovery; before it EMFAST runs FAST's controller",
            reads=("fast", "emfast"),
        ),
    ]


def claims_single(rs: RunSet) -> list[Claim]:
    e = rs.experiment.id
    out = _convergence_claims(rs, 0)
    out += _faster(rs, 0)
    out += _table_claims(rs, 0)
    out += _same_controller(rs)
    for a in ("emfast", "fast", "mfast"):
        text = f"{a}: RTTs to refill the link after recovery (P003 §5.1)"
        ours = _each(rs, a, _refill_rtts)
        if a == "mfast":
            out.append(
                _mfast_label(
                    e,
                    text,
                    f"{REFILL_RTTS[a]} RTTs",
                    ours.show(".3g", " RTTs"),
                )
            )
            continue
        out.append(
            near(
                e,
                text,
                f"{REFILL_RTTS[a]} RTTs",
                ours,
                Near(
                    REFILL_RTTS[a],
                    POINTS,
                    1 + SQRT2 * ours.half_width,
                    _why("a whole count of RTTs read off the lost Figs. 4/10: ±1", ours, " RTTs"),
                ),
                " RTTs",
                ".3g",
                reads=(a,),
                note="from T_PD until the bottleneck stays busy for one RTT (what zero IPD jitter shows); "
                "Table 1's times count to the pre-loss window instead, later",
            )
        )
    out.append(
        _orderings(
            rs,
            "SCTP and NewReno drop multiple packets during the run; FAST, MFAST and EMFAST maintain their windows",
            "(P003 §5.1, Fig. 6 text)",
            [("newreno", "fast"), ("sctp", "fast"), ("newreno", "emfast"), ("sctp", "emfast")],
            _losses,
            " losses",
            note="losses of flow 1 (fast retransmits and timeouts), the induced one included",
        )
    )
    ss = _each(rs, "mfast", lambda r: _jitter(r, 0, SS_END_S, np.mean))
    ca_mean = _each(rs, "mfast", lambda r: _jitter(r, SS_END_S, _drop_at(r.key), np.mean))
    ca_max = _each(rs, "mfast", lambda r: _jitter(r, SS_END_S, _drop_at(r.key), np.max))
    after = _each(rs, "mfast", lambda r: _jitter(r, _drop_at(r.key), _drop_at(r.key) + 5, np.mean))
    out.append(
        _joined(
            e,
            "MFAST's IPD jitter is considerable in slow start, zero in congestion avoidance, disturbed after the loss near 38 s",
            "(P003 §2, Fig. 3 text)",
            {
                "slow start": order(
                    e,
                    "slow start above CA",
                    "",
                    ss,
                    ca_mean,
                    Order(">", "0-10 s", "10 s-drop"),
                    " ms",
                    ".3g",
                    reads=("mfast",),
                ),
                "congestion avoidance": bound(
                    e,
                    "CA flat",
                    "",
                    ca_max,
                    Bound(
                        "<",
                        VISIBLE_JITTER_S * 1e3,
                        "largest jitter from 10 s to the drop, in ms; 1 % of an axis reaching slow start's ≈ 100 ms",
                    ),
                    " ms",
                    ".3g",
                    reads=("mfast",),
                ),
                "after the loss": order(
                    e,
                    "after the loss above CA",
                    "",
                    after,
                    ca_mean,
                    Order(">", "drop-drop+5 s", "10 s-drop"),
                    " ms",
                    ".3g",
                    reads=("mfast",),
                ),
            },
            note="mean jitter per window unless said; the series holds one ACK's jitter per 50 ms sample",
        )
    )
    return out


def claims_competing(rs: RunSet) -> list[Claim]:
    e = rs.experiment.id
    out = _convergence_claims(rs, 1)
    out += _faster(rs, 1)
    out += _table_claims(rs, 1)
    out += _same_controller(rs)
    for a, jain in zip(TABLE4_ALGS, TABLE4_JAIN, strict=True):
        ours = _each(rs, a, _jain)
        out.append(
            near(
                e,
                f"{a}: Jain's index over the five flows (P003 Table 4)",
                f"{jain}",
                ours,
                Near(
                    jain,
                    ONE_MINUS,
                    (0.00005 + SQRT2 * ours.half_width) / (1 - jain),
                    _why("four decimals: ±0.00005 on 1 - J", ours, ""),
                ),
                fmt=".4f",
                reads=(a,),
                note=f"flow 1's share of the five: paper {TABLE4['f1'][TABLE4_ALGS.index(a)] / sum(v[TABLE4_ALGS.index(a)] for v in TABLE4.values()):.1%}, "
                f"ours {np.mean(rs.each(a, lambda r: _tp(r) / sum(_tp(r, f) for f in ('f1', *COMPETITORS)))):.1%}",
            )
        )
    out.append(
        _orderings(
            rs,
            "Native FAST has the best fairness index among the four; EMFAST's is slightly lower",
            "(P003 §5.4, Table 4)",
            [("fast", "sctp"), ("fast", "newreno"), ("fast", "emfast")],
            _jain,
            "",
        )
    )
    out.append(
        _orderings(
            rs,
            "the delay-based protocols easily accommodate the new flows by adjusting their rate",
            "(P003 §5.1, Fig. 7 text; Table 4 flows 2-5)",
            [("fast", "newreno"), ("fast", "sctp"), ("emfast", "newreno"), ("emfast", "sctp")],
            lambda r: sum(_tp(r, f) for f in COMPETITORS),
            " Kbps",
            note="the four NewReno competitors' total throughput beside each flow-1 protocol "
            "(paper: 975/977 Kbps beside Fast/EMFast, 885/881 beside NewReno/SCTP)",
        )
    )
    return out


def _common_orderings(rs: RunSet) -> list[Claim]:
    return [
        _orderings(
            rs,
            "EMFAST achieves higher throughput than FAST, MFAST, NewReno and SCTP",
            "(P003 §5.2, Table 2)",
            [("emfast", a) for a in OTHERS],
            _tp,
            " Kbps",
        ),
        _orderings(
            rs,
            "MFAST and EMFAST give better goodput than SCTP and NewReno, and EMFAST better than MFAST",
            "(P003 §5.3, Table 3)",
            [
                ("mfast", "sctp"),
                ("mfast", "newreno"),
                ("emfast", "sctp"),
                ("emfast", "newreno"),
                ("emfast", "mfast"),
            ],
            _gp,
            " Kbps",
        ),
    ]


def _multistream(rs: RunSet) -> Claim:
    e = rs.experiment.id

    def streams(r: RunResult) -> str:
        return "/".join(f"{s['max_delivery_delay_s']:.2f}" for s in r.flow("f1").get("stream_stats", []))

    m, f = rs.seeds("mfast")[0], rs.seeds("fast")[0]
    return label(
        e,
        "the multistream feature provides data to the application during fast retransmit and recovery",
        "(P003 §5.3)",
        f"largest delivery delay per stream, first run: MFAST {streams(m)} s; FAST (one stream) "
        f"{f.flow('f1').get('max_delivery_delay_s') or math.nan:.2f} s",
        BY_CONSTRUCTION,
        "each stream is delivered in order on its own (docs/modelling.md): a loss holds back only its stream",
        reads=("fast", "mfast"),
    )


def _figures(rs: RunSet, out: Path) -> list[Path]:
    exp = rs.experiment
    fig, axes = panels(2, f"{exp.id}: cwnd of flow 1 and ACK IPD jitter (first run of the ensemble)")
    for a in ALGS:
        r = rs.seeds(a)[0]
        axes[0].plot(r.times, r.s("flow", "f1", "cwnd_pkts"), label=a, linewidth=1)
    for a in ("mfast", "emfast"):
        r = rs.seeds(a)[0]
        axes[1].plot(r.times, r.s("flow", "f1", "ipd_jitter_s") * 1e3, label=a, linewidth=0.8)
    axes[0].set_ylabel("cwnd (pkts)")
    axes[1].set_ylabel("IPD jitter (ms)")
    return [finish(fig, axes, "time (s)", out / f"{exp.id}.png")]


def _tables(rs: RunSet, col: int) -> list[Table]:
    rows = []
    for a in ALGS:
        recs = [_recovery(r) for r in rs.seeds(a)]
        done = [x.time_s for x in recs if x.converged]
        conv = f"{np.mean(done):.2f}" if done else "-"
        if len(done) < len(recs):
            conv += f" ({len(recs) - len(done)} of {len(recs)} not back)"
        rows.append(
            [
                a,
                f"{CONVERGENCE[a][col]}",
                conv,
                f"{THROUGHPUT[a][col]}",
                f"{rs.mean(a, _tp):.0f}",
                f"{GOODPUT[a][col]}" if a in GOODPUT else "-",
                f"{rs.mean(a, _gp):.0f}",
            ]
        )
    tables = [
        Table(
            f"{rs.experiment.id}: P003 Tables 1-3 (flow 1; ours: ensemble means)",
            [
                "protocol",
                "convergence s (paper)",
                "convergence s (ours)",
                "throughput Kbps (paper)",
                "(ours)",
                "goodput Kbps (paper)",
                "(ours)",
            ],
            rows,
        )
    ]
    if col == 1:
        t4 = []
        for fid, paper in TABLE4.items():
            row = [fid]
            for a, p in zip(TABLE4_ALGS, paper, strict=True):
                row += [f"{p:.2f}", f"{rs.mean(a, functools.partial(_tp, fid=fid)):.2f}"]
            t4.append(row)
        t4.append(
            ["Jain"]
            + [
                x
                for a, j in zip(TABLE4_ALGS, TABLE4_JAIN, strict=True)
                for x in (f"{j:.4f}", f"{rs.mean(a, _jain):.4f}")
            ]
        )
        cols = ["flow"] + [f"{a} {w}" for a in TABLE4_ALGS for w in ("(paper)", "(ours)")]
        tables.append(
            Table(
                "P003 Table 4: per-flow throughput (Kbps) and Jain's index (ours: ensemble means)", cols, t4
            )
        )
    return tables


EXPERIMENTS = [
    Experiment(
        "emfast-single",
        "P003",
        "no competing traffic, one induced loss near 38 s",
        SCENARIOS / "emfast-single.toml",
        ALGS,
        ("f1",),
        vary=_vary,
        params=PARAMS,
        streams=STREAMS,
        claims=lambda rs: claims_single(rs) + _common_orderings(rs) + [_multistream(rs)],
        figures=_figures,
        tables=lambda rs: _tables(rs, 0),
    ),
    Experiment(
        "emfast-competing",
        "P003",
        "four NewReno competitors, one induced loss",
        SCENARIOS / "emfast-competing.toml",
        ALGS,
        ("f1",),
        vary=_vary,
        params=PARAMS,
        streams=STREAMS,
        claims=lambda rs: claims_competing(rs) + _common_orderings(rs),
        figures=_figures,
        tables=lambda rs: _tables(rs, 1),
    ),
]
