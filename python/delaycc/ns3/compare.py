"""The same dumbbells in delaycc, and both simulators' figures side by side."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..api import run as run_delaycc_scenario
from .model import Dumbbell, FlowFigures, RunFigures, Transport


def scenario(case: Dumbbell, transport: Transport | None = None) -> dict[str, Any]:
    """The case as a delaycc scenario (the `ns2` transport profile, its defaults written out)."""
    t = transport or Transport()
    links: list[dict[str, Any]] = [
        {
            "a": f"s{i}",
            "b": "r1",
            "bandwidth": f"{case.access_bps:.0f}bps",
            "delay": f"{case.access_delay_s}s",
        }
        for i in range(len(case.algorithms))
    ]
    links.append(
        {
            "id": "bottleneck",
            "a": "r1",
            "b": "r2",
            "bandwidth": f"{case.bandwidth_bps:.0f}bps",
            "delay": f"{case.delay_s}s",
            "buffer": case.buffer_pkts,
        }
    )
    links.append(
        {"a": "r2", "b": "d", "bandwidth": f"{case.access_bps:.0f}bps", "delay": f"{case.access_delay_s}s"}
    )
    flows: list[dict[str, Any]] = []
    for i, (fid, alg, start) in enumerate(zip(case.ids, case.algorithms, case.starts_s, strict=True)):
        flow: dict[str, Any] = {"id": fid, "algorithm": alg, "src": f"s{i}", "dst": "d", "start": f"{start}s"}
        if alg == "ledbat":
            flow["params"] = {"slow_start": t.ledbat_slow_start}
        if alg == "tcp-lp":
            flow["params"] = {"range_reset": t.tcp_lp_range_reset}
        flows.append(flow)
    return {
        "name": f"ns3-{case.name}",
        "duration": f"{case.duration_s}s",
        "sample_interval": f"{case.sample_s}s",
        "seed": case.seed,
        "packet_size": case.packet_size,
        "transport": {
            "initial_window": t.initial_window,
            "min_rto": f"{t.min_rto_s}s",
            "initial_rto": f"{t.initial_rto_s}s",
            "delayed_ack": False,
            "sack": False,
        },
        "links": links,
        "flows": flows,
    }


def run_delaycc(case: Dumbbell, transport: Transport | None = None) -> RunFigures:
    r = run_delaycc_scenario(scenario(case, transport))
    s = r.summary
    link = next(x for x in s["links"] if x["id"] == "bottleneck" and x["direction"] == "a->b")
    fig = RunFigures(
        "delaycc",
        mean_queue_pkts=float(link["mean_queue_pkts"]),
        max_queue_pkts=float(link["max_queue_pkts"]),
        drops=int(link["drops"]),
        bandwidth_bps=case.bandwidth_bps,
        packet_size=case.packet_size,
    )
    for f, start in zip(s["flows"], case.starts_s, strict=True):
        rtt = r.series("flow", f["id"], "rtt_s")
        t = np.asarray(rtt.index, dtype=float)
        x = rtt.to_numpy(dtype=float)
        x = x[(t > start) & np.isfinite(x)]
        fig.flows.append(
            FlowFigures(
                f["id"],
                f["algorithm"],
                float(f["goodput_bps"]),
                float(x.mean()) if len(x) else None,
                float(f["mean_cwnd_pkts"]),
                int(f["timeouts"]),
            )
        )
    return fig


def _num(x: float | None, scale: float, fmt: str) -> str:
    return "—" if x is None else format(x * scale, fmt)


def table(cases: list[Dumbbell], ours: list[RunFigures], theirs: list[RunFigures]) -> str:
    """A Markdown table: per case and flow, delaycc / ns-3 for goodput, mean RTT, mean cwnd, timeouts, and
    per case the bottleneck's mean queue (packets and delay), maximum and drops."""
    rows = [
        "| case | flow | goodput Mb/s | mean RTT ms | mean cwnd pkts | timeouts |",
        "|---|---|---|---|---|---|",
    ]
    for case, a, b in zip(cases, ours, theirs, strict=True):
        for fa, fb in zip(a.flows, b.flows, strict=True):
            rows.append(
                f"| `{case.name}` | {fa.id} | {fa.goodput_bps / 1e6:.2f} / {fb.goodput_bps / 1e6:.2f} "
                f"| {_num(fa.mean_rtt_s, 1e3, '.0f')} / {_num(fb.mean_rtt_s, 1e3, '.0f')} "
                f"| {_num(fa.mean_cwnd_pkts, 1, '.1f')} / {_num(fb.mean_cwnd_pkts, 1, '.1f')} "
                f"| {fa.timeouts} / {fb.timeouts} |"
            )
    rows += [
        "",
        "| case | mean queue pkts | mean queueing delay ms | max queue pkts | drops |",
        "|---|---|---|---|---|",
    ]
    for case, a, b in zip(cases, ours, theirs, strict=True):
        rows.append(
            f"| `{case.name}` | {a.mean_queue_pkts:.1f} / {b.mean_queue_pkts:.1f} "
            f"| {a.mean_queue_delay_s * 1e3:.0f} / {b.mean_queue_delay_s * 1e3:.0f} "
            f"| {a.max_queue_pkts:.0f} / {b.max_queue_pkts:.0f} | {a.drops} / {b.drops} |"
        )
    return "\n".join(rows)
