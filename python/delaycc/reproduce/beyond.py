"""Beyond the papers: the FAST family (FAST, VFAST), Vegas, CUBIC and BBR over AQM bottlenecks and a
cellular trace, judged against our own hypotheses (docs/beyond.md; the scenarios in scenarios/beyond/).

No paper made these claims, so each is a hypothesis, stated with where it comes from (the literature, or
an algorithm's own design) and a criterion fixed before the runs that could fail; the verdicts are
`supported` or `not supported`, computed by the same criteria as the papers' claims (criteria.py).

Three experiments (docs/beyond.md says why each is one scheme at a time or a shared link):
- `beyond-aqm`: two flows of one scheme, the second joining at 5 s, on a 20 Mb/s dumbbell whose
  discipline is swept (`QUEUES`);
- `beyond-shared`: one flow of the scheme beside one CUBIC flow on the same dumbbell, swept likewise;
- `beyond-lte`: one flow over the Verizon LTE downlink trace, its ACKs over the uplink trace.

Conventions, printed with each criterion:
- Everything is measured over the last three quarters of a run (`MEASURE_FROM`), after start-up.
- Queueing delay is a flow's RTT sample, read every 10 ms, minus the path's least RTT (the smallest any
  run of the experiment measured: propagation and serialisation). Its 95th percentile is Pantheon's
  delay figure (taken there per packet and one way; here per 10 ms and both ways, docs/beyond.md).
- `MATTERS` (10 %): the smallest difference in a delay or a throughput that counts, as P001's
  "significantly": a gap a reader tells apart on a throughput-delay plot.
- `FAIR_JAIN` (0.9): two flows share fairly when Jain's index is at least 0.9, i.e. the smaller gets at
  least a third of the total; `UNFAIR_SHARE` (1.1): two flows of one scheme share unfairly when the
  larger exceeds the fair share by 10 % (P000's line, reproduce/p000.py).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path

import numpy as np

from ..packaged import data_root
from ..plots.plane import Scheme, throughput_delay
from .claims import both, bound, near, order
from .criteria import RELATIVE, Bound, Near, Order, Stats, stats
from .model import (
    NOT_REPRODUCED,
    NOT_SUPPORTED,
    PART_BEYOND,
    REPRODUCED,
    SUPPORTED,
    Claim,
    Experiment,
    RunResult,
    RunSet,
    Sweep,
    Table,
)

SCENARIOS = Path("scenarios/beyond")
TAG = "ours"
"""What the report shows where a paper's experiments show their paper (P000..P004)."""

ALGS = ("fast", "vfast", "vegas", "cubic", "bbr")
DELAY_BASED = ("fast", "vfast", "vegas")
FAST_FAMILY = ("fast", "vfast")
ALPHA = 20
"""FAST's and VFAST's alpha, packets per flow: the value of the repository's own FAST example on a 20 Mb/s
bottleneck (scenarios/fast-vegas-bbr.toml), fixed before these experiments; 12 ms of queue per flow at
20 Mb/s with 1500-byte packets. Every other scheme runs with its defaults (`delaycc list algorithms`)."""
PARAMS: dict[str, dict[str, object]] = {"fast": {"alpha": ALPHA}, "vfast": {"alpha": ALPHA}}

QUEUES = ("droptail", "red", "codel", "fq_codel")
"""The bottleneck disciplines swept, with their defaults: those the branch has (`delaycc list queues`)."""
CODES = {"droptail": 0, "red": 1, "codel": 2, "fq_codel": 3}
"""Each discipline's sweep label (a sweep's labels are numbers), fixed so that runs keep their names
whichever disciplines are swept."""
NAMES = {"droptail": "droptail", "red": "RED", "codel": "CoDel", "fq_codel": "FQ-CoDel"}
QUEUE_KEY = "links[2].queue"
"""The bottleneck's discipline in scenarios/beyond/dumbbell*.toml (the third link)."""
CODEL_TARGET_MS = 5.0
"""CoDel's target (RFC 8289, and the default of `queue = "codel"` and "fq_codel")."""

MEASURE_FROM = 0.25
"""Measurements start at this fraction of the run (10 s of 40, 15 s of 60): past slow start, the late
joiner's start (5 s) and the AQMs' first drop cycles."""
MATTERS = 0.10
MATTERS_WHY = "10 %: the smallest gap that counts on a throughput-delay plot, as P001's 'significantly'"
FAIR_JAIN = 0.9
FAIR_WHY = "Jain 0.9: the smaller of two flows gets at least a third of the total"
UNFAIR_SHARE = 1.1
UNFAIR_WHY = "the larger flow's share over the fair share 1/2; 10 % as P000's 'unfair' (reproduce/p000.py)"

BOTTLENECK = "bottleneck:a->b"
LTE = "lte:a->b"
BYTES_PER_OPPORTUNITY = 1500


def point(queue: str) -> float:
    """The sweep label of a discipline."""
    return float(CODES[queue])


def queue_of(p: float | None) -> str:
    return next(q for q, c in CODES.items() if c == p) if p is not None else "droptail"


QUEUE_SWEEP = Sweep(QUEUE_KEY, QUEUES, tuple(point(q) for q in QUEUES), "queue")
LTE_QUEUES = tuple(q for q in ("droptail", "codel") if q in QUEUES)
"""The LTE link's disciplines: droptail, and CoDel, which was designed for links whose rate varies
(Nichols & Jacobson 2012). With one flow FQ-CoDel is CoDel, and RED sets its thresholds once from the
link's rate, which a trace does not have, so neither is swept there."""
LTE_SWEEP = Sweep("links[1].queue", LTE_QUEUES, tuple(point(q) for q in LTE_QUEUES), "queue")


# ---- measurements ----------------------------------------------------------------------------------


def _span(r: RunResult) -> tuple[float, float]:
    end = float(r.summary["duration_s"])
    return MEASURE_FROM * end, end


def throughput(r: RunResult, fid: str) -> float:
    """Mb/s the flow delivered over the measured span (the mean of its 10-ms delivery rates)."""
    rate = r.window("flow", fid, "rate_bps", *_span(r))
    return float(np.mean(rate)) / 1e6 if len(rate) else float("nan")


def base_rtt(rs: RunSet) -> float:
    """The path's least RTT: the smallest any flow of any run of the experiment measured (seconds)."""
    mins = [
        float(f["min_rtt_s"])
        for r in rs.runs
        for f in r.summary["flows"]
        if f.get("min_rtt_s") is not None and np.isfinite(f["min_rtt_s"]) and f["min_rtt_s"] > 0
    ]
    return min(mins) if mins else float("nan")


def queueing_ms(r: RunResult, fids: Sequence[str], base_s: float) -> np.ndarray:
    """The flows' RTT samples over the measured span minus the path's least RTT, in ms, pooled."""
    parts = [r.window("flow", f, "rtt_s", *_span(r)) for f in fids]
    samples = np.concatenate(parts) if parts else np.array([])
    return np.asarray(1e3 * (samples - base_s))


def p95_ms(r: RunResult, fids: Sequence[str], base_s: float) -> float:
    q = queueing_ms(r, fids, base_s)
    return float(np.percentile(q, 95)) if len(q) else float("nan")


def mean_ms(r: RunResult, fids: Sequence[str], base_s: float) -> float:
    q = queueing_ms(r, fids, base_s)
    return float(np.mean(q)) if len(q) else float("nan")


def mean_queue_pkts(r: RunResult, link: str) -> float:
    q = r.window("link", link, "queue_pkts", *_span(r))
    return float(np.mean(q)) if len(q) else float("nan")


def jain(xs: Sequence[float]) -> float:
    x = np.asarray(xs, dtype=float)
    s2 = float(np.sum(x * x))
    return float(np.sum(x) ** 2 / (len(x) * s2)) if s2 > 0 else float("nan")


def largest_share(xs: Sequence[float]) -> float:
    """The largest flow's share of the total over the fair share 1/n."""
    x = np.asarray(xs, dtype=float)
    total = float(np.sum(x))
    return float(np.max(x) / total * len(x)) if total > 0 else float("nan")


def utilisation(r: RunResult, link: str) -> float:
    """Per cent of the bottleneck's capacity used over the measured span: the rate it sent at over its
    fixed rate, or over the delivery opportunities the trace offered in that span."""
    t0, t1 = _span(r)
    sent = r.window("link", link, "throughput_bps", t0, t1)
    if not len(sent):
        return float("nan")
    lid, direction = link.split(":")
    row = r.link(lid, direction)
    cap = trace_capacity_bps(t0, t1) if link == LTE else float(row["bandwidth_bps"])
    return 100 * float(np.mean(sent)) / cap


@cache
def _trace_ms(path: Path) -> np.ndarray:
    return np.loadtxt(path, dtype=np.int64, ndmin=1)


LTE_JITTER_S = 1.0
"""How much later than 0 s each run of beyond-lte starts its flow (drawn per run): the trace is the same in
every run, so where in it the flow starts is what the ensemble varies (Pantheon's runs over one trace
differ by their hosts' noise, which a simulator has not). The measured span is the same for every run."""
LTE_TRACE = SCENARIOS / "../traces/Verizon-LTE-short.down"


def trace_capacity_bps(t0: float, t1: float) -> float:
    """The LTE downlink's capacity over [t0, t1): its delivery opportunities there (the trace repeating at
    its last timestamp) times 1500 bytes."""
    ms = _trace_ms((data_root() / LTE_TRACE).resolve())
    period = int(ms[-1])
    n = 0
    for k in range(int(t0 * 1e3) // period, int(t1 * 1e3) // period + 1):
        at = ms + k * period
        n += int(np.count_nonzero((at >= t0 * 1e3) & (at < t1 * 1e3)))
    return n * BYTES_PER_OPPORTUNITY * 8 / (t1 - t0)


def bbr_estimate(r: RunResult, fids: Sequence[str], link: str, q: float) -> float:
    """A diagnostic, not a hypothesis: the q-th percentile over the span of BBR's bandwidth estimate
    (BtlBw, pooled over its flows) over the bottleneck's capacity; above 1 the estimate exceeds what the
    link can carry, which a correct delivery-rate sample never does."""
    t0, t1 = _span(r)
    parts = [r.window("flow", f, "btl_bw_bps", t0, t1) for f in fids if ("flow", f, "btl_bw_bps") in r.series]
    bw = np.concatenate(parts) if parts else np.array([])
    if not len(bw):
        return float("nan")
    lid, direction = link.split(":")
    cap = trace_capacity_bps(t0, t1) if link == LTE else float(r.link(lid, direction)["bandwidth_bps"])
    return float(np.percentile(bw, q)) / cap


def bbr_table(rs: RunSet, alg: str, fids: Sequence[str], link: str, queues: Sequence[str]) -> Table:
    """BBR's bandwidth estimate against the link's capacity, per discipline (a diagnostic of the model). On
    a fixed-rate link an estimate above 1 is impossible; a trace's rate varies about the mean it is
    divided by, so there it is not."""
    rows = [
        [
            NAMES[q],
            _show(_each(rs, alg, lambda r: bbr_estimate(r, fids, link, 50), q), ".2f"),
            _show(_each(rs, alg, lambda r: bbr_estimate(r, fids, link, 90), q), ".2f"),
            _show(_each(rs, alg, lambda r: bbr_estimate(r, fids, link, 100), q), ".2f"),
            _show(_each(rs, alg, lambda r: drops(r, link), q), ".0f"),
        ]
        for q in queues
    ]
    what = "the trace's mean capacity over the span" if link == LTE else "the link's capacity"
    return Table(
        f"diagnostic: BBR's bandwidth estimate over {what} (ensemble mean ± 95 %)",
        ["bottleneck", "median", "90th percentile", "largest", "drops (whole run)"],
        rows,
    )


OVERESTIMATE = 1.1
"""A bandwidth estimate whose 90th percentile exceeds the link's capacity by 10 % gets the claims that
read BBR under that discipline a note."""


def bbr_note(rs: RunSet, fids: Sequence[str], link: str, queues: Sequence[str]) -> str:
    """A note for the claims that read BBR's runs under `queues`, where its bandwidth estimate exceeded the
    link's capacity: those results are the model's delivery-rate sampling under losses as much as BBR's."""
    over = []
    for q in queues:
        s = _each(rs, "bbr", lambda r: bbr_estimate(r, fids, link, 90), q)
        if np.isfinite(s.mean) and s.mean > OVERESTIMATE:
            over.append(f"{s.mean:.1f}x under {NAMES[q]}")
    if not over:
        return ""
    return (
        "BBR's bandwidth estimate (90th percentile) exceeds the link's capacity, "
        + ", ".join(over)
        + ": delaycc's delivery-rate samples after losses (the diagnostic table; docs/findings.md, "
        "Beyond the papers)"
    )


def drops(r: RunResult, link: str) -> float:
    lid, direction = link.split(":")
    return float(r.link(lid, direction)["drops"])


# ---- claims: our hypotheses --------------------------------------------------------------------------


def hypothesis(c: Claim) -> Claim:
    """A claim as a hypothesis of ours: its verdict supported or not supported."""
    verdict = {REPRODUCED: SUPPORTED, NOT_REPRODUCED: NOT_SUPPORTED}.get(c.verdict, c.verdict)
    return dataclasses.replace(c, verdict=verdict)


def _each(rs: RunSet, alg: str, fn: Callable[[RunResult], float], queue: str | None = None) -> Stats:
    return stats(rs.each(alg, fn, point(queue) if queue is not None else None))


def _have(*queues: str) -> bool:
    return all(q in QUEUES for q in queues)


def _ratio(rs: RunSet, a: str, fn: Callable[[RunResult], float], qa: str, b: str, qb: str) -> Stats:
    """fn of scheme a under discipline qa over fn of scheme b under qb, paired by seed."""
    return stats([x / y for x, y in zip(rs.each(a, fn, point(qa)), rs.each(b, fn, point(qb)), strict=True)])


def claims_aqm(rs: RunSet) -> list[Claim]:
    e, base = rs.experiment.id, base_rtt(rs)
    flows = ("f1", "f2")

    def p95(r: RunResult) -> float:
        return p95_ms(r, flows, base)

    def mean(r: RunResult) -> float:
        return mean_ms(r, flows, base)

    def util(r: RunResult) -> float:
        return utilisation(r, BOTTLENECK)

    def share(r: RunResult) -> float:
        return largest_share([throughput(r, f) for f in flows])

    out: list[Claim] = []
    for q in ("red", "codel", "fq_codel"):
        if not _have("droptail", q):
            continue
        name = NAMES[q]
        out.append(
            both(
                e,
                f"{name} cuts CUBIC's 95th-percentile queueing delay to under half of droptail's and keeps "
                "utilisation at 90 % or more",
                "hypothesis: AQM's purpose (Floyd & Jacobson 1993; Nichols & Jacobson 2012; RFC 8290)",
                [
                    order(
                        e,
                        "",
                        "",
                        _each(rs, "cubic", p95, q),
                        _each(rs, "cubic", p95, "droptail"),
                        Order("<", f"CUBIC p95 under {name}", "under droptail", 0.5, "'under half'"),
                        unit=" ms",
                        fmt=".1f",
                        reads=("cubic",),
                    ),
                    bound(
                        e,
                        "",
                        "",
                        _each(rs, "cubic", util, q),
                        Bound(">", 90, f"utilisation under {name}, %"),
                        unit=" %",
                        fmt=".1f",
                        reads=("cubic",),
                    ),
                ],
            )
        )
    if _have("codel"):
        for alg in FAST_FAMILY:
            out.append(
                both(
                    e,
                    f"under CoDel, {alg}'s mean queueing delay stays below twice CoDel's target while it "
                    "keeps 80 % utilisation or more",
                    "hypothesis: CoDel holds any scheme's standing queue near its 5-ms target (RFC 8289)",
                    [
                        bound(
                            e,
                            "",
                            "",
                            _each(rs, alg, mean, "codel"),
                            Bound("<", 2 * CODEL_TARGET_MS, "2 x CoDel's 5-ms target, ms"),
                            unit=" ms",
                            fmt=".2f",
                            reads=(alg,),
                        ),
                        bound(
                            e,
                            "",
                            "",
                            _each(rs, alg, util, "codel"),
                            Bound(">", 80, "utilisation, %"),
                            unit=" %",
                            fmt=".1f",
                            reads=(alg,),
                        ),
                    ],
                )
            )
    out.append(
        both(
            e,
            "under droptail Vegas already keeps its 95th-percentile queueing delay below twice CoDel's "
            "target, at 90 % utilisation or more",
            "hypothesis: Vegas keeps 1-3 packets per flow queued (Brakmo & Peterson 1995), so needs no AQM",
            [
                bound(
                    e,
                    "",
                    "",
                    _each(rs, "vegas", p95, "droptail"),
                    Bound("<", 2 * CODEL_TARGET_MS, "2 x CoDel's 5-ms target, ms"),
                    unit=" ms",
                    fmt=".2f",
                    reads=("vegas",),
                ),
                bound(
                    e,
                    "",
                    "",
                    _each(rs, "vegas", util, "droptail"),
                    Bound(">", 90, "utilisation, %"),
                    unit=" %",
                    fmt=".1f",
                    reads=("vegas",),
                ),
            ],
        )
    )
    for alg in FAST_FAMILY:
        out.append(
            near(
                e,
                f"under droptail {alg}'s two flows keep N x alpha = {2 * ALPHA} packets queued",
                "hypothesis: FAST's equilibrium, each flow alpha packets in the queue (Jin, Wei & Low "
                f"2004): {2 * ALPHA} packets",
                _each(rs, alg, lambda r: mean_queue_pkts(r, BOTTLENECK), "droptail"),
                Near(2 * ALPHA, "points", 2, "one packet per flow, the module's whole-packet arithmetic"),
                unit=" pkts",
                fmt=".1f",
                reads=(alg,),
                note="the bottleneck's mean queue over the measured span; f2 joins at 5 s over f1's queue",
            )
        )
    if _have("codel"):
        for alg in FAST_FAMILY:
            out.append(
                both(
                    e,
                    f"CoDel corrects {alg}'s late joiner: its two flows share fairly under CoDel and not "
                    "under droptail",
                    "hypothesis: a late FAST flow takes the standing queue for propagation delay (P000 "
                    "§VI-A); CoDel empties the queue, so both learn the true baseRTT",
                    [
                        bound(
                            e,
                            "",
                            "",
                            _each(rs, alg, share, "codel"),
                            Bound("<", UNFAIR_SHARE, UNFAIR_WHY),
                            fmt=".3f",
                            reads=(alg,),
                        ),
                        bound(
                            e,
                            "",
                            "",
                            _each(rs, alg, share, "droptail"),
                            Bound(">", UNFAIR_SHARE, UNFAIR_WHY),
                            fmt=".3f",
                            reads=(alg,),
                        ),
                    ],
                    note="largest share / fair share: under CoDel; under droptail",
                )
            )
    if _have("fq_codel"):
        out.append(
            both(
                e,
                "FQ-CoDel shares every scheme's two flows fairly, the late joiner included",
                "hypothesis: FQ-CoDel's round robin over per-flow queues (RFC 8290)",
                [
                    bound(
                        e,
                        "",
                        "",
                        _each(rs, alg, share, "fq_codel"),
                        Bound("<", UNFAIR_SHARE, f"{alg}: {UNFAIR_WHY}"),
                        fmt=".3f",
                        reads=(alg,),
                    )
                    for alg in ALGS
                ],
                note="; ".join(
                    x
                    for x in (
                        "largest share / fair share of " + ", ".join(ALGS),
                        bbr_note(rs, flows, BOTTLENECK, ("fq_codel",)),
                    )
                    if x
                ),
            )
        )
    out.append(
        near(
            e,
            "under droptail two BBR flows keep about one bandwidth-delay product queued",
            "hypothesis: several BBR flows overestimate the bottleneck rate and queue about one BDP "
            "(Hock, Bless & Zitterbart, ICNP 2017)",
            _each(rs, "bbr", lambda r: mean(r) / (1e3 * base), "droptail"),
            Near(1.0, RELATIVE, 0.5, "'about one BDP' read as within half of it"),
            unit=" x RTprop",
            fmt=".2f",
            reads=("bbr",),
            note="; ".join(
                x
                for x in (
                    "mean queueing delay over the path's least RTT",
                    bbr_note(rs, flows, BOTTLENECK, ("droptail",)),
                )
                if x
            ),
        )
    )
    return [hypothesis(c) for c in out]


def _who_gets_more(rs: RunSet, alg: str, q: str) -> str:
    """Which flow the unfairness favours: Jain's index does not say."""
    x = _each(rs, alg, lambda r: throughput(r, "x"), q)
    c = _each(rs, alg, lambda r: throughput(r, "cubic"), q)
    more = alg if x.mean > c.mean else "CUBIC"
    return f"under {NAMES[q]} {alg} {x.show('.2f')} Mb/s, CUBIC {c.show('.2f')} Mb/s: {more} gets more"


def claims_shared(rs: RunSet) -> list[Claim]:
    e, base = rs.experiment.id, base_rtt(rs)

    def fairness(r: RunResult) -> float:
        return jain([throughput(r, "x"), throughput(r, "cubic")])

    out: list[Claim] = []
    fair = Bound(">", FAIR_JAIN, FAIR_WHY)
    unfair = Bound("<", FAIR_JAIN, FAIR_WHY)
    for alg in DELAY_BASED:
        if _have("droptail", "fq_codel"):
            out.append(
                both(
                    e,
                    f"FQ-CoDel gives {alg} and CUBIC sharing a link a Jain fairness of 0.9 or more where "
                    "droptail does not",
                    "hypothesis: a loss-based flow fills a droptail queue that a delay-based flow backs off "
                    "from (Mo et al. 1999); per-flow queues isolate them (RFC 8290)",
                    [
                        bound(e, "", "", _each(rs, alg, fairness, "fq_codel"), fair, fmt=".3f", reads=(alg,)),
                        bound(
                            e, "", "", _each(rs, alg, fairness, "droptail"), unfair, fmt=".3f", reads=(alg,)
                        ),
                    ],
                    note="Jain's index of the two flows: under FQ-CoDel; under droptail. "
                    + _who_gets_more(rs, alg, "droptail"),
                )
            )
        if _have("codel"):
            out.append(
                bound(
                    e,
                    f"a single CoDel queue is not enough: {alg} and CUBIC still share with a Jain fairness "
                    "below 0.9",
                    "hypothesis: it is FQ-CoDel's flow isolation, not CoDel's AQM, that protects the "
                    "delay-based flow (RFC 8290)",
                    _each(rs, alg, fairness, "codel"),
                    unfair,
                    fmt=".3f",
                    reads=(alg,),
                    note=_who_gets_more(rs, alg, "codel"),
                )
            )
    if _have("droptail"):
        out.append(
            order(
                e,
                "in the deep droptail buffer CUBIC gets more throughput than BBR",
                "hypothesis: BBR loses to CUBIC when the buffer is several BDP deep (Hock, Bless & "
                "Zitterbart 2017; Ware et al., IMC 2019)",
                _each(rs, "bbr", lambda r: throughput(r, "cubic"), "droptail"),
                _each(rs, "bbr", lambda r: throughput(r, "x"), "droptail"),
                Order(">", "CUBIC", "BBR", MATTERS, MATTERS_WHY),
                unit=" Mb/s",
                fmt=".2f",
                reads=("bbr", "cubic"),
                note=bbr_note(rs, ("x",), BOTTLENECK, ("droptail",)),
            )
        )
    if _have("fq_codel"):
        out.append(
            bound(
                e,
                "FQ-CoDel gives BBR and CUBIC a Jain fairness of 0.9 or more",
                "hypothesis: per-flow queues isolate BBR's pacing from CUBIC's window (RFC 8290)",
                _each(rs, "bbr", fairness, "fq_codel"),
                fair,
                fmt=".3f",
                reads=("bbr", "cubic"),
                note=bbr_note(rs, ("x",), BOTTLENECK, ("fq_codel",)),
            )
        )
    out.append(
        both(
            e,
            "two CUBIC flows share with a Jain fairness of 0.9 or more under every discipline (the control)",
            "hypothesis: CUBIC is fair to itself at equal RTTs (RFC 9438)",
            [
                bound(e, "", "", _each(rs, "cubic", fairness, q), fair, fmt=".3f", reads=("cubic",))
                for q in QUEUES
            ],
            note="Jain's index under " + ", ".join(NAMES[q] for q in QUEUES),
        )
    )
    if _have("fq_codel"):
        out.append(
            both(
                e,
                "under FQ-CoDel each delay-based flow sees a lower 95th-percentile queueing delay than the "
                "CUBIC flow beside it",
                "hypothesis: FQ-CoDel serves a flow that keeps a short queue of its own with less delay "
                "(RFC 8290)",
                [
                    order(
                        e,
                        "",
                        "",
                        _each(rs, alg, lambda r: p95_ms(r, ("x",), base), "fq_codel"),
                        _each(rs, alg, lambda r: p95_ms(r, ("cubic",), base), "fq_codel"),
                        Order("<", f"{alg} p95", "CUBIC's p95", MATTERS, MATTERS_WHY),
                        unit=" ms",
                        fmt=".1f",
                        reads=(alg, "cubic"),
                    )
                    for alg in DELAY_BASED
                ],
            )
        )
    return [hypothesis(c) for c in out]


def claims_lte(rs: RunSet) -> list[Claim]:
    """The hypotheses over the trace with droptail, then CoDel's on the same trace."""
    e, base = rs.experiment.id, base_rtt(rs)
    dt = "droptail"

    def p95(r: RunResult) -> float:
        return p95_ms(r, ("f1",), base)

    def tput(r: RunResult) -> float:
        return throughput(r, "f1")

    out: list[Claim] = []
    for alg in DELAY_BASED:
        out.append(
            both(
                e,
                f"on the LTE trace with droptail {alg} keeps a lower 95th-percentile queueing delay than "
                "CUBIC, at some throughput cost",
                "hypothesis: a delay-based scheme backs off as the queue grows where CUBIC fills the buffer "
                "(Pantheon, Yan et al. 2018)",
                [
                    order(
                        e,
                        "",
                        "",
                        _each(rs, alg, p95, dt),
                        _each(rs, "cubic", p95, dt),
                        Order("<", f"{alg} p95", "CUBIC's", MATTERS, MATTERS_WHY),
                        unit=" ms",
                        fmt=".0f",
                        reads=(alg, "cubic"),
                    ),
                    order(
                        e,
                        "",
                        "",
                        _each(rs, alg, tput, dt),
                        _each(rs, "cubic", tput, dt),
                        Order(
                            "<", f"{alg} throughput", "CUBIC's", 0.0, "any cost whose interval clears zero"
                        ),
                        unit=" Mb/s",
                        fmt=".2f",
                        reads=(alg, "cubic"),
                    ),
                ],
            )
        )
    ratio = _ratio(rs, "bbr", tput, dt, "cubic", dt)
    out.append(
        both(
            e,
            "on the LTE trace with droptail BBR keeps a lower 95th-percentile queueing delay than CUBIC "
            "with at least 90 % of its throughput",
            "hypothesis: BBR paces at the bottleneck rate it measures and keeps little queue (Cardwell "
            "et al. 2016)",
            [
                order(
                    e,
                    "",
                    "",
                    _each(rs, "bbr", p95, dt),
                    _each(rs, "cubic", p95, dt),
                    Order("<", "BBR p95", "CUBIC's", MATTERS, MATTERS_WHY),
                    unit=" ms",
                    fmt=".0f",
                    reads=("bbr", "cubic"),
                ),
                bound(
                    e,
                    "",
                    "",
                    ratio,
                    Bound(">", 0.9, "BBR's throughput over CUBIC's, paired by seed"),
                    fmt=".3f",
                    reads=("bbr", "cubic"),
                ),
            ],
        )
    )
    out.append(
        order(
            e,
            "on the LTE trace with droptail VFAST keeps a lower 95th-percentile queueing delay than FAST",
            "hypothesis: P000's smaller RTT amplitude for VFAST (§VI-C), carried to a varying link",
            _each(rs, "vfast", p95, dt),
            _each(rs, "fast", p95, dt),
            Order("<", "VFAST p95", "FAST's", MATTERS, MATTERS_WHY),
            unit=" ms",
            fmt=".0f",
            reads=FAST_FAMILY,
        )
    )
    out.append(
        both(
            e,
            "on the LTE trace with droptail every delay-based scheme uses at least 80 % of the capacity "
            "the trace offers",
            "hypothesis: a delay-based scheme follows the rate as it varies, backing off only for queue",
            [
                bound(
                    e,
                    "",
                    "",
                    _each(rs, alg, lambda r: utilisation(r, LTE), dt),
                    Bound(">", 80, f"{alg}: per cent of the trace's delivery opportunities in the span"),
                    unit=" %",
                    fmt=".1f",
                    reads=(alg,),
                )
                for alg in DELAY_BASED
            ],
            note="utilisation of " + ", ".join(DELAY_BASED),
        )
    )
    if _have("codel"):
        out.append(
            both(
                e,
                "on the LTE trace CoDel cuts CUBIC's 95th-percentile queueing delay to under half of "
                "droptail's while keeping at least 80 % of its throughput",
                "hypothesis: CoDel was made for links whose rate varies, where a fixed buffer is always the "
                "wrong size (Nichols & Jacobson 2012)",
                [
                    order(
                        e,
                        "",
                        "",
                        _each(rs, "cubic", p95, "codel"),
                        _each(rs, "cubic", p95, dt),
                        Order("<", "CUBIC p95 under CoDel", "under droptail", 0.5, "'under half'"),
                        unit=" ms",
                        fmt=".0f",
                        reads=("cubic",),
                    ),
                    bound(
                        e,
                        "",
                        "",
                        _ratio(rs, "cubic", tput, "codel", "cubic", dt),
                        Bound(">", 0.8, "CUBIC's throughput under CoDel over droptail's, paired by seed"),
                        fmt=".3f",
                        reads=("cubic",),
                    ),
                ],
            )
        )
        out.append(
            both(
                e,
                "on the LTE trace CoDel costs the delay-based schemes little: each keeps at least 90 % of "
                "its droptail throughput",
                "hypothesis: a scheme that keeps its queue short rarely meets CoDel's drops",
                [
                    bound(
                        e,
                        "",
                        "",
                        _ratio(rs, alg, tput, "codel", alg, dt),
                        Bound(">", 0.9, f"{alg}: throughput under CoDel over droptail's, paired by seed"),
                        fmt=".3f",
                        reads=(alg,),
                    )
                    for alg in DELAY_BASED
                ],
                note="throughput under CoDel over droptail's, of " + ", ".join(DELAY_BASED),
            )
        )
    return [hypothesis(c) for c in out]


# ---- tables --------------------------------------------------------------------------------------------


def _show(s: Stats, fmt: str) -> str:
    return s.show(fmt)


def table_aqm(rs: RunSet) -> list[Table]:
    base, flows = base_rtt(rs), ("f1", "f2")
    rows = []
    for q in QUEUES:
        for alg in ALGS:
            rows.append(
                [
                    NAMES[q],
                    alg,
                    _show(_each(rs, alg, lambda r: sum(throughput(r, f) for f in flows), q), ".2f"),
                    _show(_each(rs, alg, lambda r: utilisation(r, BOTTLENECK), q), ".1f"),
                    _show(_each(rs, alg, lambda r: p95_ms(r, flows, base), q), ".1f"),
                    _show(_each(rs, alg, lambda r: mean_ms(r, flows, base), q), ".1f"),
                    _show(
                        _each(rs, alg, lambda r: largest_share([throughput(r, f) for f in flows]), q), ".3f"
                    ),
                    _show(_each(rs, alg, lambda r: drops(r, BOTTLENECK), q), ".0f"),
                ]
            )
    return [
        Table(
            "two flows of one scheme: throughput, delay and sharing (ensemble mean ± 95 %)",
            [
                "bottleneck",
                "scheme",
                "throughput (Mb/s)",
                "utilisation (%)",
                "p95 queueing delay (ms)",
                "mean queueing delay (ms)",
                "largest share / fair",
                "bottleneck drops (whole run)",
            ],
            rows,
        ),
        bbr_table(rs, "bbr", flows, BOTTLENECK, QUEUES),
    ]


def table_shared(rs: RunSet) -> list[Table]:
    base = base_rtt(rs)
    rows = []
    for q in QUEUES:
        for alg in (*DELAY_BASED, "bbr", "cubic"):
            rows.append(
                [
                    NAMES[q],
                    alg,
                    _show(_each(rs, alg, lambda r: throughput(r, "x"), q), ".2f"),
                    _show(_each(rs, alg, lambda r: throughput(r, "cubic"), q), ".2f"),
                    _show(
                        _each(rs, alg, lambda r: jain([throughput(r, "x"), throughput(r, "cubic")]), q), ".3f"
                    ),
                    _show(_each(rs, alg, lambda r: p95_ms(r, ("x",), base), q), ".1f"),
                    _show(_each(rs, alg, lambda r: p95_ms(r, ("cubic",), base), q), ".1f"),
                ]
            )
    return [
        Table(
            "a scheme beside one CUBIC flow (ensemble mean ± 95 %)",
            [
                "bottleneck",
                "scheme",
                "its throughput (Mb/s)",
                "CUBIC's throughput (Mb/s)",
                "Jain",
                "its p95 queueing delay (ms)",
                "CUBIC's p95 queueing delay (ms)",
            ],
            rows,
        ),
        bbr_table(rs, "bbr", ("x",), BOTTLENECK, QUEUES),
    ]


def table_lte(rs: RunSet) -> list[Table]:
    base = base_rtt(rs)
    rows = [
        [
            NAMES[q],
            alg,
            _show(_each(rs, alg, lambda r: throughput(r, "f1"), q), ".2f"),
            _show(_each(rs, alg, lambda r: utilisation(r, LTE), q), ".1f"),
            _show(_each(rs, alg, lambda r: p95_ms(r, ("f1",), base), q), ".0f"),
            _show(_each(rs, alg, lambda r: mean_ms(r, ("f1",), base), q), ".0f"),
            _show(_each(rs, alg, lambda r: drops(r, LTE), q), ".0f"),
        ]
        for q in LTE_QUEUES
        for alg in ALGS
    ]
    return [
        Table(
            "one flow over the Verizon LTE trace (ensemble mean ± 95 %)",
            [
                "queue",
                "scheme",
                "throughput (Mb/s)",
                "utilisation of the trace (%)",
                "p95 queueing delay (ms)",
                "mean queueing delay (ms)",
                "drops (whole run)",
            ],
            rows,
        ),
        bbr_table(rs, "bbr", ("f1",), LTE, LTE_QUEUES),
    ]


# ---- figures: the throughput-delay plane per bottleneck -------------------------------------------------

DELAY_LABEL = "95th-percentile queueing delay"


def figures_aqm(rs: RunSet, out: Path) -> list[Path]:
    base, flows, e = base_rtt(rs), ("f1", "f2"), rs.experiment.id
    paths = []
    for q in QUEUES:
        p = point(q)
        schemes = [
            Scheme(
                alg,
                rs.each(alg, lambda r: p95_ms(r, flows, base), p),
                rs.each(alg, lambda r: sum(throughput(r, f) for f in flows), p),
                group=n,
            )
            for n, alg in enumerate(ALGS)
        ]
        title = f"{e}: two flows of one scheme, {NAMES[q]} bottleneck (20 Mb/s)"
        paths.append(throughput_delay(schemes, title, DELAY_LABEL, out / f"{e}-{q}.png"))
    return paths


def _flow_figures(fid: str, base: float) -> tuple[Callable[[RunResult], float], Callable[[RunResult], float]]:
    """One flow's p95 queueing delay (ms) and throughput (Mb/s)."""
    return (lambda r: p95_ms(r, (fid,), base)), (lambda r: throughput(r, fid))


def figures_shared(rs: RunSet, out: Path) -> list[Path]:
    base, e = base_rtt(rs), rs.experiment.id
    paths = []
    for q in QUEUES:
        p = point(q)
        schemes = []
        for n, alg in enumerate((*DELAY_BASED, "bbr", "cubic")):
            for fid, label, hollow in (("x", alg, False), ("cubic", f"CUBIC beside {alg}", True)):
                delay, tput = _flow_figures(fid, base)
                schemes.append(Scheme(label, rs.each(alg, delay, p), rs.each(alg, tput, p), n, hollow))
        title = f"{e}: each scheme (filled) beside one CUBIC flow (open), {NAMES[q]} bottleneck"
        paths.append(throughput_delay(schemes, title, DELAY_LABEL, out / f"{e}-{q}.png"))
    return paths


def figures_lte(rs: RunSet, out: Path) -> list[Path]:
    base, e = base_rtt(rs), rs.experiment.id
    paths = []
    for q in LTE_QUEUES:
        delay, tput = _flow_figures("f1", base)
        schemes = [
            Scheme(alg, rs.each(alg, delay, point(q)), rs.each(alg, tput, point(q)), group=n)
            for n, alg in enumerate(ALGS)
        ]
        title = f"{e}: one flow, Verizon LTE downlink trace, {NAMES[q]}"
        paths.append(throughput_delay(schemes, title, DELAY_LABEL, out / f"{e}-{q}.png"))
    return paths


EXPERIMENTS = [
    Experiment(
        "beyond-aqm",
        TAG,
        "two flows of one scheme on a dumbbell, by bottleneck discipline",
        SCENARIOS / "dumbbell.toml",
        ALGS,
        ("f1", "f2"),
        params=PARAMS,
        sweep=QUEUE_SWEEP,
        claims=claims_aqm,
        figures=figures_aqm,
        tables=table_aqm,
        part=PART_BEYOND,
    ),
    Experiment(
        "beyond-shared",
        TAG,
        "one flow of a scheme beside one CUBIC flow, by bottleneck discipline",
        SCENARIOS / "dumbbell-vs-cubic.toml",
        (*DELAY_BASED, "bbr", "cubic"),
        ("x",),
        params=PARAMS,
        sweep=QUEUE_SWEEP,
        claims=claims_shared,
        figures=figures_shared,
        tables=table_shared,
        part=PART_BEYOND,
    ),
    Experiment(
        "beyond-lte",
        TAG,
        "one flow over the Verizon LTE trace, by the link's discipline",
        SCENARIOS / "lte.toml",
        ALGS,
        ("f1",),
        params=PARAMS,
        jitter_s=LTE_JITTER_S,
        sweep=LTE_SWEEP,
        claims=claims_lte,
        figures=figures_lte,
        tables=table_lte,
        part=PART_BEYOND,
    ),
]
