"""One scenario's results from delaycc and from ns-2, side by side: every figure with its relative
difference, and, where a tolerance is given, whether the two agree within it."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..output import jsontext
from ..result import Result
from . import metrics

# How each compared figure is judged: relative tolerances, except the absolute ones named here, with a
# floor below which a difference is never counted (a 0.3-packet queue against 0.1 is not a 200 % error).
ABSOLUTE = {"utilization", "jain"}
FLOOR: dict[str, float] = {
    "mean_queue": 1.0,  # packets
    "max_queue": 2.0,
    "drops": 3.0,
    "retransmits": 3.0,
    "timeouts": 1.0,
    "recovery": 0.02,  # seconds: two samples at the suite's 10 ms
    "settle": 0.5,
}
METRICS = (
    "goodput",
    "total_goodput",
    "mean_rtt",
    "mean_cwnd",
    "retransmits",
    "timeouts",
    "recovery",
    "settle",
    "utilization",
    "mean_queue",
    "max_queue",
    "drops",
    "jain",
)


@dataclass
class Row:
    kind: str  # flow, link or run
    id: str
    metric: str
    delaycc: float | None
    ns2: float | None
    tolerance: float | None = None
    within: bool | None = None

    @property
    def rel_diff(self) -> float | None:
        """(delaycc - ns2) / ns2; None where either is missing or ns-2's is zero."""
        if self.delaycc is None or self.ns2 is None or self.ns2 == 0:
            return None
        return (self.delaycc - self.ns2) / abs(self.ns2)

    def judge(self, tol: float) -> None:
        self.tolerance = tol
        if self.delaycc is None and self.ns2 is None:
            self.within = True
        elif self.delaycc is None or self.ns2 is None:
            self.within = False
        else:
            diff = abs(self.delaycc - self.ns2)
            bound = tol if self.metric in ABSOLUTE else tol * abs(self.ns2)
            self.within = diff <= max(bound, FLOOR.get(self.metric, 0.0))

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "id": self.id,
            "metric": self.metric,
            "delaycc": self.delaycc,
            "ns2": self.ns2,
            "rel_diff": self.rel_diff,
            "tolerance": self.tolerance,
            "within": self.within,
        }


@dataclass
class Comparison:
    scenario: str
    rows: list[Row] = field(default_factory=list)
    differences: list[str] = field(default_factory=list)
    """Known modelling differences between delaycc's defaults and ns-2's agents for this scenario."""

    @property
    def judged(self) -> list[Row]:
        return [r for r in self.rows if r.within is not None]

    @property
    def agree(self) -> bool | None:
        """True when every judged figure is within its tolerance; None when nothing was judged."""
        judged = self.judged
        return all(r.within for r in judged) if judged else None

    @property
    def failures(self) -> list[Row]:
        return [r for r in self.judged if not r.within]

    def row(self, kind: str, oid: str, metric: str) -> Row:
        for r in self.rows:
            if (r.kind, r.id, r.metric) == (kind, oid, metric):
                return r
        raise KeyError((kind, oid, metric))

    def judge(self, tolerances: Mapping[str, float]) -> None:
        for r in self.rows:
            if r.metric in tolerances:
                r.judge(float(tolerances[r.metric]))

    def as_dict(self) -> dict[str, Any]:
        return {
            "scenario": self.scenario,
            "agree": self.agree,
            "rows": [r.as_dict() for r in self.rows],
            "known_differences": self.differences,
        }

    def json_text(self) -> str:
        return jsontext.json_text(self.as_dict())

    def csv_text(self) -> str:
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["kind", "id", "metric", "delaycc", "ns2", "rel_diff", "tolerance", "within"])
        for r in self.rows:
            d = r.as_dict()
            w.writerow(
                [_cell(d[k]) for k in ("kind", "id", "metric", "delaycc", "ns2", "rel_diff", "tolerance")]
                + ["" if r.within is None else ("yes" if r.within else "no")]
            )
        return buf.getvalue()

    def table(self) -> str:
        lines = [
            f"{self.scenario}: delaycc vs ns-2",
            f"{'':<28} {'metric':<14} {'delaycc':>12} {'ns-2':>12} {'diff':>8}",
        ]
        for r in self.rows:
            mark = "" if r.within is None else ("  ok" if r.within else f"  <- beyond {_tol(r)}")
            lines.append(
                f"{(r.kind + ' ' + r.id)[:28]:<28} {r.metric:<14} {_fmt(r.metric, r.delaycc):>12} "
                f"{_fmt(r.metric, r.ns2):>12} {_pct(r.rel_diff):>8}{mark}"
            )
        if self.agree is not None:
            lines.append(
                "agree within tolerance" if self.agree else f"{len(self.failures)} figure(s) beyond tolerance"
            )
        return "\n".join(lines)


def _tol(r: Row) -> str:
    if r.tolerance is None:
        return ""
    return f"{r.tolerance:g}" if r.metric in ABSOLUTE else f"{r.tolerance * 100:g} %"


def _cell(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, float):
        return f"{v:.10g}"
    return str(v)


def _fmt(metric: str, v: float | None) -> str:
    if v is None:
        return "-"
    if metric in ("goodput", "total_goodput"):
        return f"{v / 1e6:.3f}M"
    if metric in ("mean_rtt",):
        return f"{v * 1e3:.2f}ms"
    if metric in ("recovery", "settle"):
        return f"{v:.3f}s"
    if metric in ("utilization", "jain"):
        return f"{v:.4f}"
    return f"{v:.1f}" if not float(v).is_integer() else f"{int(v)}"


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{x * 100:+.1f}%"


def _get(d: Mapping[str, Any], key: str) -> float | None:
    v = d.get(key)
    return None if v is None else float(v)


def diff(sim: Result, ns2: Result, differences: list[str] | None = None) -> Comparison:
    c = Comparison(str(sim.summary["scenario"]), differences=list(differences or []))
    nflows = {f["id"]: f for f in ns2.summary["flows"]}
    for f in sim.summary["flows"]:
        n = nflows.get(f["id"], {})
        fid = f["id"]
        stop = f["start_s"] + f["active_s"]
        pairs = {
            "goodput": (_get(f, "goodput_bps"), _get(n, "goodput_bps")),
            # Throughput is not compared: ns-2 has no count of retransmissions that reached the sink.
            "mean_rtt": (
                metrics.mean_rtt_s(sim, fid, f["start_s"], stop),
                metrics.mean_rtt_s(ns2, fid, f["start_s"], stop),
            ),
            "mean_cwnd": (_get(f, "mean_cwnd_pkts"), _get(n, "mean_cwnd_pkts")),
            "retransmits": (_get(f, "retransmits"), _get(n, "retransmits")),
            "timeouts": (_get(f, "timeouts"), _get(n, "timeouts")),
            "recovery": (metrics.recovery_s(sim, fid), metrics.recovery_s(ns2, fid)),
            "settle": (
                metrics.settle_s(sim, fid, f["start_s"], stop),
                metrics.settle_s(ns2, fid, f["start_s"], stop),
            ),
        }
        for m, (a, b) in pairs.items():
            c.rows.append(Row("flow", fid, m, a, b))
    total = (
        sum(float(f["goodput_bps"]) for f in sim.summary["flows"]),
        sum(float(f["goodput_bps"]) for f in ns2.summary["flows"]),
    )
    c.rows.append(Row("run", "all flows", "total_goodput", *total))
    c.rows.append(
        Row(
            "run", "all flows", "jain", _get(sim.summary, "fairness_jain"), _get(ns2.summary, "fairness_jain")
        )
    )
    nlinks = {(ln["id"], ln["direction"]): ln for ln in ns2.summary["links"]}
    for ln in sim.summary["links"]:
        n = nlinks.get((ln["id"], ln["direction"]), {})
        key = f"{ln['id']}:{ln['direction']}"
        label = f"{ln['id']} {ln['direction']}"
        c.rows += [
            Row("link", label, "utilization", _get(ln, "utilization"), _get(n, "utilization")),
            Row("link", label, "mean_queue", _get(ln, "mean_queue_pkts"), _get(n, "mean_queue_pkts")),
            # Both from the sampled series: ns-2's queue is only seen at the samples.
            Row(
                "link",
                label,
                "max_queue",
                metrics.sampled_max_queue(sim, key),
                metrics.sampled_max_queue(ns2, key),
            ),
            Row("link", label, "drops", _get(ln, "drops"), _get(n, "drops")),
        ]
    return c
