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
    """The median, over the flow's loss reactions, of the seconds from a reaction to the window's return to
    95 % of its value before it, counting the reactions it recovers from before the next one (a slow-start
    overshoot is never recovered and so never counted); None when there are none."""
    got = _series(r, "flow", fid, "cwnd_pkts")
    if got is None:
        return None
    t, w = got
    ok = np.isfinite(w)
    t, w = t[ok], w[ok]
    falls = [i for i in range(1, len(w)) if w[i - 1] >= 4 and w[i] < (1 - RECOVERY_DROP) * w[i - 1]]
    times = []
    for j, i in enumerate(falls):
        end = falls[j + 1] if j + 1 < len(falls) else len(w)
        back = np.nonzero(w[i:end] >= RECOVERY_LEVEL * w[i - 1])[0]
        if len(back):
            times.append(float(t[i + back[0]] - t[i - 1]))
    return float(np.median(times)) if times else None


def mean_rtt_s(r: Result, fid: str, start_s: float, stop_s: float) -> float | None:
    """The time average of the sampled RTT over the flow's active time: what both simulators can measure
    alike (delaycc's summary averages every ACK's sample; ns-2 is read only at the samples)."""
    got = _series(r, "flow", fid, "rtt_s")
    if got is None:
        return None
    t, x = got
    x = x[(t > start_s) & (t <= stop_s + 1e-12) & np.isfinite(x)]
    return float(x.mean()) if len(x) else None


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
    if k >= len(t):
        return None  # active for less than the averaging window
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
