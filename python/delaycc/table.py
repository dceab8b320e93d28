"""Plain-text tables of a run's summary for the terminal."""

from __future__ import annotations

from typing import Any


def _fmt(v: Any, scale: float = 1.0, digits: int = 2) -> str:
    if v is None:
        return "-"
    if isinstance(v, float | int):
        return f"{v * scale:.{digits}f}"
    return str(v)


def _render(headers: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)]
    line = "  ".join(
        h.rjust(w) if i else h.ljust(w) for i, (h, w) in enumerate(zip(headers, widths, strict=True))
    )
    out = [line, "  ".join("-" * w for w in widths)]
    for r in rows:
        out.append(
            "  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True)))
        )
    return "\n".join(out)


def summary_table(summary: dict[str, Any]) -> str:
    flows = [
        [
            f["id"],
            f["algorithm"],
            _fmt(f["throughput_bps"], 1e-6),
            _fmt(f["goodput_bps"], 1e-6),
            str(f["retransmits"]),
            str(f["timeouts"]),
            _fmt(f["mean_rtt_s"], 1e3, 1),
            _fmt(f["mean_cwnd_pkts"], 1, 1),
        ]
        for f in summary["flows"]
    ]
    parts = [
        f"scenario {summary['scenario']}: {summary['duration_s']:g} s simulated in {summary['wall_s']:.2f} s "
        f"({summary['events']} events), Jain fairness {_fmt(summary['fairness_jain'], 1, 3)}",
    ]
    if flows:
        parts.append(
            _render(
                ["flow", "algorithm", "thr Mb/s", "good Mb/s", "retx", "RTOs", "RTT ms", "cwnd"],
                flows,
            )
        )
    links = [
        [
            f"{lk['id']}:{lk['direction']}",
            _fmt(lk["utilization"], 100, 1),
            _fmt(lk["mean_queue_pkts"], 1, 1),
            str(lk["max_queue_pkts"]),
            str(lk["drops"]),
        ]
        for lk in summary["links"]
        if lk["utilization"] > 0.05 or lk["drops"] or lk["max_queue_pkts"]
    ]
    if links:
        parts.append(_render(["link", "util %", "mean queue", "max queue", "drops"], links))
    traffic = [
        [t["id"], t["kind"], str(t["sent_pkts"]), str(t["delivered_pkts"]), _fmt(t["throughput_bps"], 1e-6)]
        for t in summary.get("traffic", [])
    ]
    if traffic:
        parts.append(_render(["traffic", "kind", "sent", "delivered", "Mb/s"], traffic))
    return "\n\n".join(parts)
