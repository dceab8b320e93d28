"""Turning ns-2's samples and counters into the outputs of `delaycc run`: the same summary.json fields and
time series, on the same sample grid. docs/crosscheck.md lists where an ns-2 figure is measured differently
(mean RTT and maximum queue from the samples; throughput without retransmissions)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .._core import __version__
from ..result import Result
from ..summary_rules import finite, jain
from .locate import Ns2
from .model import Direction, Flow, Scenario
from .runner import RawRun

FLOW_METRICS = ("cwnd_pkts", "rtt_s", "srtt_s", "base_rtt_s", "rate_bps", "inflight_pkts", "ssthresh_pkts")
LINK_METRICS = ("queue_pkts", "throughput_bps", "drops")


def _column(df: pd.DataFrame, name: str, slots: np.ndarray, n: int) -> np.ndarray:
    out = np.full(n, np.nan)
    out[slots] = pd.to_numeric(df[name], errors="coerce").to_numpy(dtype=float)
    return out


def _slots(df: pd.DataFrame, interval: float, n: int) -> tuple[pd.DataFrame, np.ndarray]:
    k = np.rint(df["time"].to_numpy(dtype=float) / interval).astype(int) - 1
    ok = (k >= 0) & (k < n)
    return df[ok], k[ok]


MAX_RTT_S = 1000.0
"""Agents start their RTT state at 0 or at a huge sentinel (FAST's baseRTT_): neither is a measurement."""


def _rtt(x: np.ndarray, times: np.ndarray, start_s: float) -> np.ndarray:
    return np.where((x > 0) & (x < MAX_RTT_S) & (times > start_s), x, np.nan)


def _flow(
    s: Scenario, f: Flow, df: pd.DataFrame, end: dict[str, float], times: np.ndarray
) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    n = len(times)
    iv = s.sample_interval_s
    rows, k = _slots(df, iv, n)
    wire = f.wire_bytes
    # The sink counts in-order bytes on the wire, the header-only SYN (syn_, ns-2's default) included.
    syn_bytes = s.header_size if f.syn else 0
    sink = _column(rows, "sink_bytes", k, n)
    data_bytes = np.maximum(sink - syn_bytes, 0.0)
    delivered_pkts = float(np.floor(max(end["bytes_"] - syn_bytes, 0.0) / wire + 1e-9))
    rate = np.diff(np.nan_to_num(data_bytes), prepend=0.0) / wire * s.packet_size * 8.0 / iv
    ack = _column(rows, "ack", k, n)
    seq = _column(rows, "t_seqno", k, n)
    rtt = _rtt(_column(rows, "rtt", k, n), times, f.start_s)
    srtt = _rtt(_column(rows, "srtt", k, n), times, f.start_s)
    base = _rtt(_column(rows, "basertt", k, n), times, f.start_s)
    cwnd = _column(rows, "cwnd", k, n)
    ssthresh = _column(rows, "ssthresh", k, n)
    active_mask = (times > f.start_s) & (times <= f.stop_s + 1e-12)
    cwnd = np.where(times > f.start_s, cwnd, np.nan)
    series = {
        "cwnd_pkts": cwnd,
        "rtt_s": rtt,
        "srtt_s": srtt,
        "base_rtt_s": base,
        "rate_bps": rate,
        "inflight_pkts": np.maximum(seq - ack - 1, 0.0),
        "ssthresh_pkts": np.where(ssthresh > 0, ssthresh, np.nan),
    }
    completion = end.get("completion_s")
    # A finite transfer is active until its last byte arrived (known to a sample interval), as in delaycc.
    active = max((completion if completion is not None else f.stop_s) - f.start_s, 1e-9)
    goodput_bytes = delivered_pkts * s.payload
    if f.bytes is not None:
        goodput_bytes = min(goodput_bytes, float(f.bytes))
    rtt_active = rtt[active_mask & np.isfinite(rtt)]
    cwnd_active = cwnd[active_mask & np.isfinite(cwnd)]
    final_base = end.get("baseRTT_")
    row: dict[str, Any] = {
        "id": f.id,
        "algorithm": f.algorithm,
        "ns2_agent": f"Agent/TCP/{f.agent}",
        "ns2_sink": f"Agent/{f.sink}",
        "throughput_bps": delivered_pkts * s.packet_size * 8.0 / active,
        "goodput_bps": goodput_bytes * 8.0 / active,
        "retransmits": int(end["nrexmitpack_"]),
        "timeouts": int(end["nrexmit_"]),
        "cwnd_cuts": int(end["ncwndcuts_"]),
        "mean_rtt_s": float(rtt_active.mean()) if len(rtt_active) else None,
        "min_rtt_s": float(rtt_active.min()) if len(rtt_active) else None,
        "final_base_rtt_s": final_base if final_base and 0 < final_base < MAX_RTT_S else None,
        "mean_cwnd_pkts": float(cwnd_active.mean()) if len(cwnd_active) else None,
        "final_cwnd_pkts": float(end["cwnd_"]),
        "delivered_bytes": int(goodput_bytes),
        "sent_pkts": int(end["ndatapack_"]),
        "start_s": f.start_s,
        "active_s": active,
        "completion_time_s": completion,
        "params": f.agent_vars,
    }
    return row, series


def _busy_fraction(s: Scenario, d: Direction, sent_bits: np.ndarray, times: np.ndarray) -> float:
    """Time spent sending over the run, at the rate in force in each sample interval (a `link` event can
    change it), as delaycc's utilization is."""
    rate = np.full(len(times), d.bandwidth_bps)
    for c in sorted(s.link_changes, key=lambda c: c.at_s):
        if c.bandwidth_bps is not None and d in c.directions:
            rate[times > c.at_s] = c.bandwidth_bps
    return float(np.sum(sent_bits / rate) / s.duration_s)


def _final_rate(s: Scenario, d: Direction) -> float:
    rate = d.bandwidth_bps
    for c in sorted(s.link_changes, key=lambda c: c.at_s):
        if c.bandwidth_bps is not None and d in c.directions:
            rate = c.bandwidth_bps
    return rate


def _end_values(raw: RawRun) -> dict[tuple[str, int], dict[str, float]]:
    end = pd.read_csv(raw.dir / "end.csv")
    out: dict[tuple[str, int], dict[str, float]] = {}
    for kind, oid, name, value in end.itertuples(index=False):
        out.setdefault((str(kind), int(oid)), {})[str(name)] = float(value)
    return out


def build(s: Scenario, raw: RawRun, ns2: Ns2, differences: list[str]) -> Result:
    n = int(s.duration_s / s.sample_interval_s + 1e-9)
    times = np.arange(1, n + 1) * s.sample_interval_s
    end = _end_values(raw)
    flows_df = pd.read_csv(raw.dir / "flows.csv", keep_default_na=False, na_values=[""])
    queues_df = pd.read_csv(raw.dir / "queues.csv")
    keys: list[tuple[str, str, str]] = []
    columns: list[np.ndarray] = []
    flow_rows = []
    for f in s.flows:
        row, series = _flow(s, f, flows_df[flows_df["flow"] == f.index], end[("flow", f.index)], times)
        flow_rows.append(row)
        for m in FLOW_METRICS:
            keys.append(("flow", f.id, m))
            columns.append(series[m])
    link_rows = []
    for i, d in enumerate(s.directions):
        counters = end.get(("queue", i))
        if counters is None or counters["pdepartures_"] == 0:
            continue  # the contract lists only directions that carried traffic
        rows, k = _slots(queues_df[queues_df["queue"] == i], s.sample_interval_s, n)
        qlen = _column(rows, "pkts", k, n)
        sent_bits = np.diff(np.nan_to_num(_column(rows, "bdepartures", k, n)), prepend=0.0) * 8.0
        link_rows.append(
            {
                "id": d.link_id,
                "direction": d.label,
                "utilization": _busy_fraction(s, d, sent_bits, times),
                "mean_queue_pkts": counters["pkts_sum"] / s.duration_s,
                "max_queue_pkts": int(np.nanmax(qlen)) if np.isfinite(qlen).any() else 0,
                "drops": int(counters["pdrops_"] + counters.get("loss_drops", 0.0)),
                "queue_drops": int(counters["pdrops_"]),
                "loss_drops": int(counters.get("loss_drops", 0.0)),
                "pkts_sent": int(counters["pdepartures_"]),
                "pkts_arrived": int(counters["parrivals_"]),
                "bandwidth_bps": _final_rate(s, d),
            }
        )
        series = {
            "queue_pkts": qlen,
            "throughput_bps": np.diff(np.nan_to_num(_column(rows, "bdepartures", k, n)), prepend=0.0)
            * 8.0
            / s.sample_interval_s,
            "drops": np.diff(np.nan_to_num(_column(rows, "pdrops", k, n)), prepend=0.0),
        }
        for m in LINK_METRICS:
            keys.append(("link", d.key, m))
            columns.append(series[m])
    full = [f.start_s == 0 and f.stop_s >= s.duration_s for f in s.flows]
    summary: dict[str, Any] = {
        "scenario": s.name,
        "seed": s.seed,
        "duration_s": s.duration_s,
        "simulated_s": s.duration_s,
        "complete": True,
        "partial": False,
        "wall_s": raw.wall_s,
        "events": None,
        "delaycc_version": __version__,
        "sample_interval_s": s.sample_interval_s,
        "flows": flow_rows,
        "links": link_rows,
        "traffic": [],
        "fairness_jain": jain(flow_rows, full),
        "referee": {
            "simulator": "ns-2.35",
            "binary": ns2.path,
            "has_fast_module": ns2.has_fast,
            "script": "raw/scenario.tcl",
            "translate_s": raw.translate_s,
            "differences": differences,
        },
    }
    values = np.concatenate(columns) if columns else np.zeros(0)
    return Result(finite(summary), times, keys, values)
