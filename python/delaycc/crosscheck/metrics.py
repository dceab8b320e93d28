"""The figures a crosscheck compares, computed the same way from both simulators' outputs: what
summary.json holds, plus what only a time series shows (the maximum of the sampled queue, the time a
flow takes to recover its window after a loss, and the time its rate takes to settle)."""

from __future__ import annotations

import numpy as np

from ..result import Result

RECOVERY_DROP = 0.3
"""A window that falls by this fraction between two samples is a loss reaction (our choice: NewReno halves,
FAST halves on a loss, and the equation's own steps stay far below it at gamma 0.5)."""
RECOVERY_LEVEL = 0.95
"""Recovered when the window is back to this fraction of its value before the fall."""
SETTLE_BAND = 0.10
SETTLE_WINDOW_S = 1.0
"""Settled when the rate, averaged over SETTLE_WINDOW_S, stays within SETTLE_BAND of the flow's mean rate
over the last fifth of its active time (our choice: long enough to average NewReno's sawtooth)."""


def _series(r: Result, kind: str, oid: str, metric: str) -> tuple[np.ndarray, np.ndarray] | None:
    try:
        s = r.series(kind, oid, metric)
    except KeyError:
        return None
    return np.asarray(s.index, dtype=float), s.to_numpy(dtype=float)


def recovery_s(r: Result, fid: str) -> float | None:
    """Seconds from the first loss reaction of the flow's window to its return to 95 % of the window
    before it; None without a loss reaction or when the window never comes back."""
    got = _series(r, "flow", fid, "cwnd_pkts")
    if got is None:
        return None
    t, w = got
    ok = np.isfinite(w)
    t, w = t[ok], w[ok]
    for i in range(1, len(w)):
        if w[i - 1] >= 4 and w[i] < (1 - RECOVERY_DROP) * w[i - 1]:
            back = np.nonzero(w[i:] >= RECOVERY_LEVEL * w[i - 1])[0]
            return float(t[i + back[0]] - t[i - 1]) if len(back) else None
    return None


def settle_s(r: Result, fid: str, start_s: float, stop_s: float) -> float | None:
    """Seconds from the flow's start until its smoothed rate enters, and stays in, 10 % of its final rate."""
    got = _series(r, "flow", fid, "rate_bps")
    if got is None:
        return None
    t, x = got
    mask = (t > start_s) & (t <= stop_s + 1e-12)
    t, x = t[mask], np.nan_to_num(x[mask])
    if len(t) < 10:
        return None
    step = float(t[1] - t[0])
    k = max(1, round(SETTLE_WINDOW_S / step))
    smooth = np.convolve(x, np.ones(k) / k, mode="full")[: len(x)]
    tail = x[int(len(x) * 0.8) :]
    final = float(tail.mean()) if len(tail) else 0.0
    if final <= 0:
        return None
    outside = np.nonzero(np.abs(smooth[k - 1 :] - final) > SETTLE_BAND * final)[0]
    if len(outside) == 0:
        return float(t[k - 1] - start_s)
    last = outside[-1] + k - 1
    return float(t[last + 1] - start_s) if last + 1 < len(t) else None


def sampled_max_queue(r: Result, key: str) -> float | None:
    got = _series(r, "link", key, "queue_pkts")
    if got is None or not np.isfinite(got[1]).any():
        return None
    return float(np.nanmax(got[1]))


def sampled_mean_queue(r: Result, key: str) -> float | None:
    got = _series(r, "link", key, "queue_pkts")
    if got is None or not np.isfinite(got[1]).any():
        return None
    return float(np.nanmean(got[1]))
