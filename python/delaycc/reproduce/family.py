"""Beyond the papers, the family since FAST: the scavengers LEDBAT and TCP-LP, Copa, and the datacenter
schemes Swift and TIMELY on fat trees, judged against our own hypotheses as beyond.py's experiments are
(docs/beyond.md; the scenarios in scenarios/beyond/).

Each hypothesis states its source and a criterion fixed before the runs that could fail; the verdicts
are `supported` or `not supported`, by criteria.py. The measured spans are fixed per experiment where the
scenario's comment says why (a LEDBAT queue takes tens of seconds to settle), not the fraction beyond.py
uses; the fabric experiments read summary.json's `fct` block and the receiver port's queue.
"""

from __future__ import annotations

import random
import tomllib
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

import numpy as np

from ..packaged import data_root
from ..plots.plane import Scheme, throughput_delay
from .beyond import (
    DELAY_LABEL,
    LTE,
    LTE_JITTER_S,
    MATTERS,
    MATTERS_WHY,
    SCENARIOS,
    TAG,
    base_rtt,
    hypothesis,
    p95_ms,
    throughput,
    utilisation,
)
from .claims import both, bound, near, order
from .criteria import RELATIVE, Bound, Near, Order, Stats, stats
from .model import PART_BEYOND, Claim, Experiment, RunKey, RunResult, RunSet, Sweep, Table

BOTTLENECK = "bottleneck:a->b"
PKT_S = 1000 * 8 / 10e6
"""Seconds a 1000-byte packet takes on the scavengers' and Copa's 10 Mb/s bottleneck."""

SCAVENGERS = ("ledbat", "tcp-lp")
COMPETITORS = ("newreno", "cubic")
COMPETITOR_SWEEP = Sweep("flows[1].algorithm", COMPETITORS, (0.0, 1.0), "competitor")
SCAVENGER_SHARE = 0.10
"""A scavenger keeps at most this share of the link beside a loss-based flow: RFC 6817 §1 asks LEDBAT to
"yield quickly" and not add to the delay a standard TCP flow sees; 10 % is the bound
crates/sim/tests/scavengers.rs holds it to."""
SCAVENGER_SPAN = (20.0, 60.0)
LEDBAT_TARGET_MS = 100.0
LEDBAT_ALONE_SPAN = (50.0, 80.0)
LATECOMER_SPAN = (60.0, 120.0)

COPA_ALONE_SPAN = (3.0, 10.0)
"""Copa alone (CUBIC starts at 10 s in copa-vs-cubic.toml), past its slow start."""
COPA_SHARED_SPAN = (20.0, 60.0)
LTE_SCHEMES = ("copa", "bbr", "fast", "vegas")

INCAST_BUFFERS = (100, 2000)
"""The receiver's port buffer (links[0], the receiver's host link, both directions): the generator's
default 100 packets (150 KB), and 2000 (3 MB, 240 us at 100 Gb/s), deeper than the queue Swift's largest
target (20 + 6 x 3.05 + 100 us) asks for, so there the buffer allows no loss."""
INCAST_SWEEP = Sweep("links[0].buffer", INCAST_BUFFERS, tuple(float(b) for b in INCAST_BUFFERS), "buffer")
PORT = "h0-e0_0:b->a"
"""The incast's receiver port: the edge switch's link down to h0."""
PORT_PKT_S = 1500 * 8 / 100e9
FABRIC_SCHEMES = ("swift", "timely", "newreno", "cubic")


def _window(r: RunResult, kind: str, oid: str, metric: str, span: tuple[float, float]) -> np.ndarray:
    return r.window(kind, oid, metric, *span)


def _mean(xs: np.ndarray) -> float:
    return float(np.mean(xs)) if len(xs) else float("nan")


def rate_mbps(r: RunResult, fid: str, span: tuple[float, float]) -> float:
    return _mean(_window(r, "flow", fid, "rate_bps", span)) / 1e6


def share(r: RunResult, fid: str, other: str, span: tuple[float, float]) -> float:
    a, b = rate_mbps(r, fid, span), rate_mbps(r, other, span)
    return a / (a + b) if a + b > 0 else float("nan")


def queue_ms(r: RunResult, span: tuple[float, float]) -> float:
    """The bottleneck's mean queue over the span, as delay at 10 Mb/s with 1000-byte packets (ms)."""
    return 1e3 * PKT_S * _mean(_window(r, "link", BOTTLENECK, "queue_pkts", span))


def queue_pkts(r: RunResult, span: tuple[float, float]) -> float:
    return _mean(_window(r, "link", BOTTLENECK, "queue_pkts", span))


def util(r: RunResult, span: tuple[float, float]) -> float:
    return 100 * _mean(_window(r, "link", BOTTLENECK, "throughput_bps", span)) / 10e6


def competitive(r: RunResult, span: tuple[float, float]) -> float:
    """The fraction of the span Copa spent in competitive mode (its `copa_mode` series is 1 there)."""
    return _mean(_window(r, "flow", "copa", "copa_mode", span))


def all_drops(r: RunResult) -> float:
    return float(sum(lk["drops"] for lk in r.summary["links"]))


def fct(r: RunResult, field: str) -> float:
    v = r.summary.get("fct", {}).get(field)
    return float(v) if v is not None else float("nan")


def _p95_of(fid: str, base_s: float) -> Callable[[RunResult], float]:
    """A run's 95th-percentile queueing delay of flow `fid`, in ms (one flow bound per closure)."""
    return lambda r: p95_ms(r, (fid,), base_s)


def _throughput_of(fid: str) -> Callable[[RunResult], float]:
    return lambda r: throughput(r, fid)


def _fct_us_of(field: str) -> Callable[[RunResult], float]:
    return lambda r: 1e6 * fct(r, field)


def _each(rs: RunSet, alg: str, fn: Callable[[RunResult], float], p: float | None = None) -> Stats:
    return stats(rs.each(alg, fn, p))


@cache
def flow_ids(scenario: str) -> tuple[str, ...]:
    doc = tomllib.loads((data_root() / SCENARIOS / scenario).read_text())
    return tuple(str(f["id"]) for f in doc["flows"])


# ---- scavengers -------------------------------------------------------------------------------------------


def claims_scavengers(rs: RunSet) -> list[Claim]:
    e, out = rs.experiment.id, []
    for alg in SCAVENGERS:
        out.append(
            both(
                e,
                f"{alg} beside NewReno and beside CUBIC keeps at most 10 % of the link",
                "hypothesis: a scavenger yields to standard TCP (RFC 6817 §1; Kuzmanovic & Knightly 2003)",
                [
                    bound(
                        e,
                        "",
                        "",
                        _each(rs, alg, lambda r: share(r, "x", "other", SCAVENGER_SPAN), float(i)),
                        Bound("<", SCAVENGER_SHARE, f"{alg}'s share of the two rates beside {c}"),
                        fmt=".3f",
                        reads=(alg, c),
                    )
                    for i, c in enumerate(COMPETITORS)
                ],
                note=f"rates over {SCAVENGER_SPAN[0]:g}-{SCAVENGER_SPAN[1]:g} s",
            )
        )
    return [hypothesis(c) for c in out]


def table_scavengers(rs: RunSet) -> list[Table]:
    rows = [
        [
            alg,
            c,
            _each(rs, alg, lambda r: rate_mbps(r, "x", SCAVENGER_SPAN), float(i)).show(".2f"),
            _each(rs, alg, lambda r: rate_mbps(r, "other", SCAVENGER_SPAN), float(i)).show(".2f"),
            _each(rs, alg, lambda r: share(r, "x", "other", SCAVENGER_SPAN), float(i)).show(".3f"),
            _each(rs, alg, lambda r: queue_ms(r, SCAVENGER_SPAN), float(i)).show(".0f"),
        ]
        for alg in SCAVENGERS
        for i, c in enumerate(COMPETITORS)
    ]
    return [
        Table(
            "a scavenger beside one loss-based flow, 20-60 s (ensemble mean ± 95 %)",
            ["scavenger", "beside", "its rate (Mb/s)", "the other's (Mb/s)", "its share", "mean queue (ms)"],
            rows,
        )
    ]


def figures_scavengers(rs: RunSet, out: Any) -> list[Any]:
    base, e, paths = base_rtt(rs), rs.experiment.id, []
    for i, c in enumerate(COMPETITORS):
        schemes = []
        for n, alg in enumerate(SCAVENGERS):
            for fid, label, hollow in (("x", alg, False), ("other", f"{c} beside {alg}", True)):
                schemes.append(
                    Scheme(
                        label,
                        rs.each(alg, _p95_of(fid, base), float(i)),
                        rs.each(alg, _throughput_of(fid), float(i)),
                        n,
                        hollow,
                    )
                )
        title = f"{e}: each scavenger (filled) beside one {c} flow (open), 10 Mb/s"
        paths.append(throughput_delay(schemes, title, DELAY_LABEL, out / f"{e}-{c}.png"))
    return paths


def claims_ledbat_alone(rs: RunSet) -> list[Claim]:
    e = rs.experiment.id
    c = near(
        e,
        "LEDBAT alone keeps the queueing delay within 15 % of its 100-ms TARGET",
        "hypothesis: LEDBAT's controller drives the queueing delay it measures to TARGET (RFC 6817 §2.4)",
        _each(rs, "ledbat", lambda r: queue_ms(r, LEDBAT_ALONE_SPAN)),
        Near(LEDBAT_TARGET_MS, RELATIVE, 0.15, "±15 %: the band the brief of these experiments fixed"),
        unit=" ms",
        fmt=".1f",
        reads=("ledbat",),
        note="the bottleneck's mean queue over 50-80 s, as delay at 10 Mb/s",
    )
    return [hypothesis(c)]


def table_ledbat_alone(rs: RunSet) -> list[Table]:
    s = LEDBAT_ALONE_SPAN
    row = [
        _each(rs, "ledbat", lambda r: queue_ms(r, s)).show(".1f"),
        _each(rs, "ledbat", lambda r: util(r, s)).show(".1f"),
        _each(rs, "ledbat", lambda r: float(r.link("bottleneck")["drops"])).show(".0f"),
    ]
    return [
        Table("one LEDBAT flow, 50-80 s", ["mean queueing delay (ms)", "utilisation (%)", "drops"], [row])
    ]


def _plane_one(rs: RunSet, out: Any, fids: Sequence[str], what: str) -> list[Any]:
    base, e = base_rtt(rs), rs.experiment.id
    schemes = [
        Scheme(
            f"{alg} {fid}",
            rs.each(alg, _p95_of(fid, base)),
            rs.each(alg, _throughput_of(fid)),
            group=n,
        )
        for n, fid in enumerate(fids)
        for alg in rs.experiment.compare
    ]
    return [throughput_delay(schemes, f"{e}: {what}", DELAY_LABEL, out / f"{e}.png")]


def claims_latecomer(rs: RunSet) -> list[Claim]:
    e = rs.experiment.id
    c = order(
        e,
        "of two LEDBAT flows started 10 s apart, the late-comer gets more of the link",
        "hypothesis: late-comer unfairness; the second flow takes the first's queue for base delay "
        "(RFC 6817 §4.4; Rossi et al. 2010)",
        _each(rs, "ledbat", lambda r: rate_mbps(r, "f2", LATECOMER_SPAN)),
        _each(rs, "ledbat", lambda r: rate_mbps(r, "f1", LATECOMER_SPAN)),
        Order(">", "late-comer's rate", "the first flow's", MATTERS, MATTERS_WHY),
        unit=" Mb/s",
        fmt=".2f",
        reads=("ledbat",),
        note="rates over 60-120 s",
    )
    return [hypothesis(c)]


def table_latecomer(rs: RunSet) -> list[Table]:
    s = LATECOMER_SPAN
    row = [
        _each(rs, "ledbat", lambda r: rate_mbps(r, "f1", s)).show(".2f"),
        _each(rs, "ledbat", lambda r: rate_mbps(r, "f2", s)).show(".2f"),
        _each(rs, "ledbat", lambda r: queue_ms(r, s)).show(".0f"),
    ]
    return [
        Table(
            "two LEDBAT flows, the second from 10 s; 60-120 s",
            ["first flow (Mb/s)", "late-comer (Mb/s)", "mean queueing delay (ms)"],
            [row],
        )
    ]


# ---- Copa -------------------------------------------------------------------------------------------------


def claims_copa(rs: RunSet) -> list[Claim]:
    e = rs.experiment.id
    alone = _each(rs, "copa", lambda r: queue_pkts(r, COPA_ALONE_SPAN))
    out = [
        both(
            e,
            "Copa alone keeps about 1/δ = 2 packets queued (between 1 and 4)",
            "hypothesis: Copa's target rate 1/(δ·d_q) holds 1/δ packets in the queue (Arun & Balakrishnan, "
            "NSDI 2018, §2)",
            [
                bound(
                    e, "", "", alone, Bound(">", 1, "mean queue, packets, 3-10 s"), fmt=".2f", reads=("copa",)
                ),
                bound(
                    e, "", "", alone, Bound("<", 4, "mean queue, packets, 3-10 s"), fmt=".2f", reads=("copa",)
                ),
            ],
        ),
        bound(
            e,
            "against CUBIC, Copa spends most of the time in competitive mode",
            "hypothesis: a buffer-filling flow keeps the queue from emptying every 5 RTTs, so Copa "
            "switches to competitive mode (Arun & Balakrishnan 2018, §4)",
            _each(rs, "copa", lambda r: competitive(r, COPA_SHARED_SPAN)),
            Bound(">", 0.5, "fraction of 20-60 s in competitive mode (copa_mode)"),
            fmt=".3f",
            reads=("copa", "cubic"),
        ),
    ]
    return [hypothesis(c) for c in out]


def table_copa(rs: RunSet) -> list[Table]:
    a, s = COPA_ALONE_SPAN, COPA_SHARED_SPAN
    row = [
        _each(rs, "copa", lambda r: queue_pkts(r, a)).show(".2f"),
        _each(rs, "copa", lambda r: rate_mbps(r, "copa", a)).show(".2f"),
        _each(rs, "copa", lambda r: competitive(r, s)).show(".3f"),
        _each(rs, "copa", lambda r: rate_mbps(r, "copa", s)).show(".2f"),
        _each(rs, "copa", lambda r: rate_mbps(r, "cubic", s)).show(".2f"),
    ]
    cols = [
        "alone: mean queue (pkts)",
        "alone: rate (Mb/s)",
        "competitive fraction",
        "Copa (Mb/s)",
        "CUBIC (Mb/s)",
    ]
    return [Table("Copa alone (3-10 s), then beside CUBIC (20-60 s)", cols, [row])]


def claims_copa_lte(rs: RunSet) -> list[Claim]:
    e, base = rs.experiment.id, base_rtt(rs)
    out = [
        order(
            e,
            "on the LTE trace Copa keeps a lower 95th-percentile queueing delay than BBR",
            "hypothesis: Copa's cellular results (Arun & Balakrishnan 2018, §5: lower delay than BBR on "
            "Pantheon's cellular paths)",
            _each(rs, "copa", lambda r: p95_ms(r, ("f1",), base)),
            _each(rs, "bbr", lambda r: p95_ms(r, ("f1",), base)),
            Order("<", "Copa p95", "BBR's", MATTERS, MATTERS_WHY),
            unit=" ms",
            fmt=".0f",
            reads=("copa", "bbr"),
        ),
        bound(
            e,
            "on the LTE trace Copa uses at least 80 % of the capacity the trace offers",
            "hypothesis: a delay-based scheme follows the rate as it varies (as beyond-lte's)",
            _each(rs, "copa", lambda r: utilisation(r, LTE)),
            Bound(">", 80, "per cent of the trace's delivery opportunities in the span"),
            unit=" %",
            fmt=".1f",
            reads=("copa",),
        ),
    ]
    return [hypothesis(c) for c in out]


def table_copa_lte(rs: RunSet) -> list[Table]:
    base = base_rtt(rs)
    rows = [
        [
            alg,
            _each(rs, alg, lambda r: throughput(r, "f1")).show(".2f"),
            _each(rs, alg, lambda r: utilisation(r, LTE)).show(".1f"),
            _each(rs, alg, lambda r: p95_ms(r, ("f1",), base)).show(".0f"),
        ]
        for alg in LTE_SCHEMES
    ]
    cols = ["scheme", "throughput (Mb/s)", "utilisation of the trace (%)", "p95 queueing delay (ms)"]
    return [Table("one flow over the Verizon LTE trace, droptail (ensemble mean ± 95 %)", cols, rows)]


def figures_copa_lte(rs: RunSet, out: Any) -> list[Any]:
    base, e = base_rtt(rs), rs.experiment.id
    schemes = [
        Scheme(
            alg,
            rs.each(alg, lambda r: p95_ms(r, ("f1",), base)),
            rs.each(alg, lambda r: throughput(r, "f1")),
            group=n,
        )
        for n, alg in enumerate(LTE_SCHEMES)
    ]
    title = f"{e}: one flow, Verizon LTE downlink trace, droptail"
    return [throughput_delay(schemes, title, DELAY_LABEL, out / f"{e}.png")]


# ---- fabrics ----------------------------------------------------------------------------------------------


def _fabric_window(doc: dict[str, Any], _key: RunKey, _rng: random.Random) -> None:
    """The incast ends within a few milliseconds: 5 ms simulated, the queue sampled every 5 us."""
    doc["duration"] = "5ms"
    doc["sample_interval"] = "5us"


def _active(r: RunResult) -> tuple[float, float]:
    """From time 0 until the last flow completed."""
    return 0.0, fct(r, "max_s") if np.isfinite(fct(r, "max_s")) else float(r.summary["duration_s"])


def port_queue_us(r: RunResult) -> float:
    """The receiver port's mean queue while the incast lasts, as delay at 100 Gb/s (us)."""
    return 1e6 * PORT_PKT_S * _mean(r.window("link", PORT, "queue_pkts", *_active(r)))


def target_queue_us(r: RunResult) -> float:
    """Swift's target as queueing delay: the flows' mean target delay over the incast minus the path's least
    RTT (the target is on the whole RTT), in us."""
    fids = [f["id"] for f in r.summary["flows"]]
    parts = [
        r.window("flow", f, "target_delay_s", *_active(r))
        for f in fids
        if ("flow", f, "target_delay_s") in r.series
    ]
    target = _mean(np.concatenate(parts)) if parts else float("nan")
    base = min(float(f["min_rtt_s"]) for f in r.summary["flows"] if f.get("min_rtt_s"))
    return 1e6 * (target - base)


def claims_incast(rs: RunSet) -> list[Claim]:
    e, deep = rs.experiment.id, float(INCAST_BUFFERS[-1])
    out = [
        bound(
            e,
            f"in a 100-to-1 incast with a {INCAST_BUFFERS[-1]}-packet port Swift loses no packet",
            "hypothesis: Swift's window (paced below one packet) holds the queue at its target, which the "
            "buffer holds (Kumar et al., SIGCOMM 2020, §3, §5)",
            _each(rs, "swift", all_drops, deep),
            Bound("<", 0.5, "drops on every link, whole run"),
            fmt=".1f",
            reads=("swift",),
        ),
        both(
            e,
            "in a 100-to-1 incast Swift keeps the receiver port's queue near its target (within a factor 2)",
            "hypothesis: Swift's AIMD converges on the target delay (Kumar et al. 2020, §3)",
            [
                bound(
                    e,
                    "",
                    "",
                    _each(rs, "swift", lambda r: port_queue_us(r) / target_queue_us(r), deep),
                    Bound(">", 0.5, "mean port queue over the target's queueing delay, incast span"),
                    fmt=".2f",
                    reads=("swift",),
                ),
                bound(
                    e,
                    "",
                    "",
                    _each(rs, "swift", lambda r: port_queue_us(r) / target_queue_us(r), deep),
                    Bound("<", 2.0, "the same ratio"),
                    fmt=".2f",
                    reads=("swift",),
                ),
            ],
            note=f"{INCAST_BUFFERS[-1]}-packet port; the target is Swift's own (target_delay_s) less the "
            "base RTT",
        ),
    ]
    return [hypothesis(c) for c in out]


def table_incast(rs: RunSet) -> list[Table]:
    rows = [
        [
            str(b),
            alg,
            _each(rs, alg, port_queue_us, float(b)).show(".1f"),
            _each(rs, alg, target_queue_us, float(b)).show(".1f") if alg == "swift" else "",
            _each(rs, alg, all_drops, float(b)).show(".0f"),
            _each(rs, alg, lambda r: fct(r, "completed"), float(b)).show(".0f"),
            _each(rs, alg, lambda r: 1e6 * fct(r, "mean_s"), float(b)).show(".0f"),
            _each(rs, alg, lambda r: 1e6 * fct(r, "p99_s"), float(b)).show(".0f"),
        ]
        for b in INCAST_BUFFERS
        for alg in rs.experiment.compare
    ]
    cols = [
        "port buffer (pkts)",
        "scheme",
        "mean port queue (us)",
        "Swift's target less base RTT (us)",
        "drops",
        "completed of 100",
        "mean FCT (us)",
        "p99 FCT (us)",
    ]
    return [Table("100-to-1 incast of 64 KB on a k = 8 fat tree (ensemble mean ± 95 %)", cols, rows)]


def claims_permutation(rs: RunSet) -> list[Claim]:
    e, out = rs.experiment.id, []
    for field, what in (("mean_s", "mean"), ("p99_s", "99th-percentile")):
        out.append(
            both(
                e,
                f"on a permutation Swift's {what} FCT is below NewReno's and CUBIC's",
                "hypothesis: Swift keeps fabric queues short and loses little, so short transfers finish "
                "sooner (Kumar et al. 2020, §5)",
                [
                    order(
                        e,
                        "",
                        "",
                        _each(rs, "swift", _fct_us_of(field)),
                        _each(rs, other, _fct_us_of(field)),
                        Order("<", f"Swift's {what} FCT", f"{other}'s", MATTERS, MATTERS_WHY),
                        unit=" us",
                        fmt=".0f",
                        reads=("swift", other),
                    )
                    for other in ("newreno", "cubic")
                ],
            )
        )
    out.append(
        order(
            e,
            "on a permutation TIMELY's 99th-percentile FCT is below NewReno's",
            "hypothesis: TIMELY's RTT-gradient rate control keeps tail latency low (Mittal et al., SIGCOMM "
            "2015, §6)",
            _each(rs, "timely", lambda r: 1e6 * fct(r, "p99_s")),
            _each(rs, "newreno", lambda r: 1e6 * fct(r, "p99_s")),
            Order("<", "TIMELY's p99 FCT", "NewReno's", MATTERS, MATTERS_WHY),
            unit=" us",
            fmt=".0f",
            reads=("timely", "newreno"),
        )
    )
    return [hypothesis(c) for c in out]


def table_permutation(rs: RunSet) -> list[Table]:
    rows = [
        [
            alg,
            _each(rs, alg, lambda r: 1e6 * fct(r, "mean_s")).show(".0f"),
            _each(rs, alg, lambda r: 1e6 * fct(r, "p50_s")).show(".0f"),
            _each(rs, alg, lambda r: 1e6 * fct(r, "p99_s")).show(".0f"),
            _each(rs, alg, lambda r: fct(r, "mean_slowdown")).show(".2f"),
            _each(rs, alg, lambda r: fct(r, "p99_slowdown")).show(".2f"),
            _each(rs, alg, lambda r: fct(r, "completed")).show(".0f"),
            _each(rs, alg, all_drops).show(".0f"),
        ]
        for alg in FABRIC_SCHEMES
    ]
    cols = [
        "scheme",
        "mean FCT (us)",
        "p50 (us)",
        "p99 (us)",
        "mean slowdown",
        "p99 slowdown",
        "completed of 16",
        "drops",
    ]
    return [Table("permutation of 1-MB flows on a k = 4 fat tree, ECMP (ensemble mean ± 95 %)", cols, rows)]


def _no_figures(_rs: RunSet, _out: Any) -> list[Any]:
    """The fabric experiments' result is their table."""
    return []


INCAST = "fattree-k8-incast-100to1.toml"
PERMUTATION = "fattree-k4-permutation-swift.toml"

EXPERIMENTS = [
    Experiment(
        "beyond-scavengers",
        TAG,
        "a scavenger (LEDBAT, TCP-LP) beside NewReno or CUBIC",
        SCENARIOS / "scavenger-pair.toml",
        SCAVENGERS,
        ("x",),
        sweep=COMPETITOR_SWEEP,
        claims=claims_scavengers,
        figures=figures_scavengers,
        tables=table_scavengers,
        part=PART_BEYOND,
    ),
    Experiment(
        "beyond-ledbat-alone",
        TAG,
        "one LEDBAT flow alone: the queueing delay against its TARGET",
        SCENARIOS / "ledbat-alone.toml",
        ("ledbat",),
        ("f1",),
        claims=claims_ledbat_alone,
        figures=lambda rs, out: _plane_one(rs, out, ("f1",), "one LEDBAT flow, 10 Mb/s"),
        tables=table_ledbat_alone,
        part=PART_BEYOND,
    ),
    Experiment(
        "beyond-ledbat-latecomer",
        TAG,
        "two LEDBAT flows started 10 s apart",
        SCENARIOS / "ledbat-latecomer.toml",
        ("ledbat",),
        ("f1", "f2"),
        claims=claims_latecomer,
        figures=lambda rs, out: _plane_one(rs, out, ("f1", "f2"), "two LEDBAT flows, f2 from 10 s"),
        tables=table_latecomer,
        part=PART_BEYOND,
    ),
    Experiment(
        "beyond-copa",
        TAG,
        "Copa alone, then beside CUBIC: its queue and its modes",
        SCENARIOS / "copa-vs-cubic.toml",
        ("copa",),
        ("copa",),
        params={"copa": {"delta": 0.5}},
        claims=claims_copa,
        figures=lambda rs, out: _plane_one(rs, out, ("copa", "cubic"), "Copa beside CUBIC from 10 s"),
        tables=table_copa,
        part=PART_BEYOND,
    ),
    Experiment(
        "beyond-copa-lte",
        TAG,
        "Copa, BBR, FAST and Vegas over the Verizon LTE trace",
        SCENARIOS / "lte.toml",
        LTE_SCHEMES,
        ("f1",),
        params={"fast": {"alpha": 20}},
        jitter_s=LTE_JITTER_S,
        claims=claims_copa_lte,
        figures=figures_copa_lte,
        tables=table_copa_lte,
        part=PART_BEYOND,
    ),
    Experiment(
        "beyond-fabric-incast",
        TAG,
        "Swift and TIMELY in a 100-to-1 incast on a k = 8 fat tree",
        SCENARIOS / INCAST,
        ("swift", "timely"),
        flow_ids(INCAST),
        jitter_s=0.0,
        vary=_fabric_window,
        sweep=INCAST_SWEEP,
        claims=claims_incast,
        figures=_no_figures,
        tables=table_incast,
        part=PART_BEYOND,
    ),
    Experiment(
        "beyond-fabric-permutation",
        TAG,
        "flow completion times of a permutation on a k = 4 fat tree",
        SCENARIOS / PERMUTATION,
        FABRIC_SCHEMES,
        flow_ids(PERMUTATION),
        jitter_s=0.0,
        claims=claims_permutation,
        figures=_no_figures,
        tables=table_permutation,
        part=PART_BEYOND,
    ),
]
