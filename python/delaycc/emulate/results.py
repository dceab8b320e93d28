"""Turning an emulation's samples into the outputs of `delaycc run`: the same summary.json fields and the
same time series (docs/kernel.md lists where a kernel measurement differs from the simulator's)."""

from __future__ import annotations

import platform
from typing import Any

import numpy as np

from .._core import __version__
from ..result import Result
from ..summary_rules import finite, jain
from . import fidelity, samples
from .model import Direction, Flow
from .topology import Topology
from .traffic import RawRun

INFINITE_SSTHRESH = 0x7FFFFFFF
FLOW_METRICS = ("cwnd_pkts", "rtt_s", "srtt_s", "base_rtt_s", "rate_bps", "inflight_pkts", "ssthresh_pkts")
LINK_METRICS = ("queue_pkts", "throughput_bps", "drops")


def _grid(topo: Topology) -> np.ndarray:
    s = topo.scenario
    n = int(s.duration_s / s.sample_interval_s + 1e-9)
    return np.arange(1, n + 1) * s.sample_interval_s


def _place(t_us: np.ndarray, values: np.ndarray, interval_s: float, n: int) -> np.ndarray:
    """Puts samples taken at k·interval into slot k - 1 of an n-slot column (NaN where none)."""
    out = np.full(n, np.nan)
    k = np.rint(t_us / (interval_s * 1e6)).astype(int) - 1
    ok = (k >= 0) & (k < n)
    out[k[ok]] = values[ok]
    return out


def _delta(cumulative: np.ndarray, start: float = 0.0) -> np.ndarray:
    return np.diff(cumulative, prepend=start)


def _flow(
    topo: Topology, f: Flow, log: samples.SenderLog, n: int
) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    s = topo.scenario
    x = log.samples
    iv = s.sample_interval_s
    mss = float(x["mss"][-1]) if len(x["mss"]) else float(s.packet_size - 52)
    pkt_bits = s.packet_size * 8.0
    active = max(f.stop_s - f.start_s, 1e-9)
    acked = float(x["bytes_acked"][-1]) if len(x["bytes_acked"]) else 0.0
    retrans = float(x["bytes_retrans"][-1]) if len(x["bytes_retrans"]) else 0.0
    rtt = x["rtt_us"] / 1e6
    ssthresh = np.where(x["ssthresh"] >= INFINITE_SSTHRESH, np.nan, x["ssthresh"])
    series = {
        "cwnd_pkts": _place(x["t_us"], x["cwnd"], iv, n),
        # tcp_info has no raw latest sample: rtt_s is the kernel's smoothed RTT, like srtt_s.
        "rtt_s": _place(x["t_us"], np.where(rtt > 0, rtt, np.nan), iv, n),
        "srtt_s": _place(x["t_us"], np.where(rtt > 0, rtt, np.nan), iv, n),
        "base_rtt_s": _place(x["t_us"], np.where(x["min_rtt_us"] > 0, x["min_rtt_us"] / 1e6, np.nan), iv, n),
        "rate_bps": _place(x["t_us"], _delta(x["bytes_acked"]) / mss * pkt_bits / iv, iv, n),
        "inflight_pkts": _place(x["t_us"], x["unacked"], iv, n),
        "ssthresh_pkts": _place(x["t_us"], ssthresh, iv, n),
    }
    valid_rtt = rtt[rtt > 0]
    min_rtt = float(x["min_rtt_us"][-1]) / 1e6 if len(x["min_rtt_us"]) and x["min_rtt_us"][-1] > 0 else None
    row: dict[str, Any] = {
        "id": f.id,
        "algorithm": f.algorithm,
        "throughput_bps": (acked + retrans) / mss * pkt_bits / active,
        "goodput_bps": acked * 8.0 / active,
        "retransmits": int(x["total_retrans"][-1]) if len(x["total_retrans"]) else 0,
        "timeouts": log.timeouts if sum(1 for g in s.flows if g.src == f.src) == 1 else None,
        "mean_rtt_s": float(valid_rtt.mean()) if len(valid_rtt) else None,
        "min_rtt_s": min_rtt,
        "final_base_rtt_s": min_rtt,
        "mean_cwnd_pkts": float(x["cwnd"].mean()) if len(x["cwnd"]) else None,
        "final_cwnd_pkts": float(x["cwnd"][-1]) if len(x["cwnd"]) else None,
        "delivered_bytes": int(acked),
        "start_s": f.start_s,
        "active_s": active,
        "params": f.params,
    }
    return row, series


def _link(
    topo: Topology, e: Direction, q: dict[str, np.ndarray], n: int
) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    s = topo.scenario
    iv = s.sample_interval_s
    series = {
        "queue_pkts": _place(q["t_us"], q["qlen"], iv, n),
        "throughput_bps": _place(q["t_us"], _delta(q["sent_bytes"]) * 8.0 / iv, iv, n),
        "drops": _place(q["t_us"], _delta(q["drops"]), iv, n),
    }
    sent_bytes = float(q["sent_bytes"][-1])
    row = {
        "id": e.link_id,
        "direction": e.label,
        "utilization": sent_bytes * 8.0 / (e.bandwidth_bps * s.duration_s),
        # Sampled every sample_interval (the simulator's are exact over every packet).
        "mean_queue_pkts": float(q["qlen"].mean()),
        "max_queue_pkts": int(q["qlen"].max()),
        "drops": int(q["drops"][-1]),
        "queue_drops": int(q["drops"][-1]),
        "pkts_sent": int(q["sent_pkts"][-1]),
        "bandwidth_bps": e.bandwidth_bps,
    }
    return row, series


def build(topo: Topology, raw: RawRun) -> Result:
    s = topo.scenario
    times = _grid(topo)
    n = len(times)
    keys: list[tuple[str, str, str]] = []
    columns: list[np.ndarray] = []
    flow_rows = []
    for f in s.flows:
        row, series = _flow(topo, f, samples.sender(raw.senders[f.id]), n)
        flow_rows.append(row)
        for m in FLOW_METRICS:
            keys.append(("flow", f.id, m))
            columns.append(series[m])
    link_rows = []
    per_if = samples.queues(raw.queues)
    directions = [e for link in s.links for e in (link.fwd, link.rev)]
    for i, e in enumerate(directions):
        q = per_if.get(i)
        if q is None or len(q["sent_pkts"]) == 0 or q["sent_pkts"][-1] == 0:
            continue  # the contract lists only directions that carried traffic
        row, series = _link(topo, e, q, n)
        link_rows.append(row)
        for m in LINK_METRICS:
            keys.append(("link", f"{e.link_id}:{e.label}", m))
            columns.append(series[m])
    full = [f.start_s == 0 and f.stop_s >= s.duration_s for f in s.flows]
    summary: dict[str, Any] = {
        "scenario": s.name,
        "seed": s.seed,
        "duration_s": s.duration_s,
        "simulated_s": s.duration_s,
        "complete": True,
        "wall_s": raw.wall_s,
        "events": None,
        "delaycc_version": __version__,
        "sample_interval_s": s.sample_interval_s,
        "flows": flow_rows,
        "links": link_rows,
        "fairness_jain": jain(flow_rows, full),
        "emulation": {
            "kernel": platform.release(),
            "namespaces": {node: topo.ns(node) for node in s.nodes},
            "delay_placement": "per path, at the receiving end of each direction",
            "fidelity": fidelity.assess(
                raw.cpu_steal_fraction, fidelity.lateness(raw.delay_report), raw.cpu_steal_worst_second
            ),
        },
    }
    values = np.concatenate(columns) if columns else np.zeros(0)
    return Result(finite(summary), times, keys, values)
