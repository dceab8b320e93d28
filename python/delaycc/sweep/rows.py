"""One flat row per run: axis values, status, and every scalar of the summary."""

from __future__ import annotations

import fnmatch
from typing import Any


def flatten(summary: dict[str, Any]) -> dict[str, Any]:
    row: dict[str, Any] = {}
    for k, v in summary.items():
        if isinstance(v, int | float | str | bool) or v is None:
            row[k] = v
    flows = summary.get("flows", [])
    for f in flows:
        for k, v in f.items():
            if k != "id" and (isinstance(v, int | float | str | bool) or v is None):
                row[f"flow.{f['id']}.{k}"] = v
    for lk in summary.get("links", []):
        for k, v in lk.items():
            if k not in ("id", "direction") and isinstance(v, int | float):
                row[f"link.{lk['id']}:{lk['direction']}.{k}"] = v
    # Aggregates a first plot usually wants.
    tput = [f["throughput_bps"] for f in flows]
    if tput:
        row["total_throughput_bps"] = sum(tput)
        row["mean_throughput_bps"] = sum(tput) / len(tput)
        row["total_goodput_bps"] = sum(f["goodput_bps"] for f in flows)
        rtts = [f["mean_rtt_s"] for f in flows if f["mean_rtt_s"] is not None]
        row["mean_rtt_s"] = sum(rtts) / len(rtts) if rtts else None
        algs = sorted({f["algorithm"] for f in flows})
        row["algorithm"] = algs[0] if len(algs) == 1 else "+".join(algs)
    return row


def keep(row: dict[str, Any], patterns: list[str], always: set[str]) -> dict[str, Any]:
    if not patterns:
        return row
    return {k: v for k, v in row.items() if k in always or any(fnmatch.fnmatchcase(k, p) for p in patterns)}
