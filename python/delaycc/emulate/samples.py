"""Parsing what the tools printed into per-sample arrays."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

SENDER_FIELDS = (
    "t_us", "cwnd", "rtt_us", "min_rtt_us", "bytes_acked", "bytes_retrans", "total_retrans",
    "unacked", "ssthresh", "mss",
)  # fmt: skip
QUEUE_FIELDS = ("t_us", "index", "qlen", "backlog", "drops", "sent_bytes", "sent_pkts")


@dataclass
class SenderLog:
    samples: dict[str, np.ndarray]  # one array per SENDER_FIELDS name, in time order
    timeouts: int | None


@dataclass
class ReceiverLog:
    received_bytes: int | None


def _rows(lines: list[str], tag: str, n: int) -> np.ndarray:
    rows = [ln.split(",")[1:] for ln in lines if ln.startswith(tag + ",")]
    rows = [r for r in rows if len(r) == n]
    return np.array(rows, dtype=np.float64).reshape(-1, n)


def sender(lines: list[str]) -> SenderLog:
    table = _rows(lines, "s", len(SENDER_FIELDS))
    timeouts = None
    for ln in lines:
        if ln.startswith("timeouts "):
            value = int(ln.split()[1])
            timeouts = value if value >= 0 else None
    return SenderLog({name: table[:, i] for i, name in enumerate(SENDER_FIELDS)}, timeouts)


def receiver(lines: list[str]) -> ReceiverLog:
    for ln in lines:
        if ln.startswith("received "):
            return ReceiverLog(int(ln.split()[1]))
    return ReceiverLog(None)


def queues(lines: list[str]) -> dict[int, dict[str, np.ndarray]]:
    """Per monitored interface (index in the monitor's argument list): its samples."""
    table = _rows(lines, "q", len(QUEUE_FIELDS))
    out: dict[int, dict[str, np.ndarray]] = {}
    for idx in np.unique(table[:, 1]).astype(int):
        rows = table[table[:, 1] == idx]
        out[int(idx)] = {name: rows[:, i] for i, name in enumerate(QUEUE_FIELDS)}
    return out
