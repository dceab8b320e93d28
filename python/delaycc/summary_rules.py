"""Rules every producer of summary.json follows, whichever simulator or stack the figures came from (the
emulation and the ns-2 referee build theirs in Python; the engine's are the reference)."""

from __future__ import annotations

from typing import Any

import numpy as np


def jain(flows: list[dict[str, Any]], full: list[bool]) -> float | None:
    """Jain's index over the throughputs of the flows active for the whole run (all flows if none are)."""
    chosen = [f["throughput_bps"] for f, ok in zip(flows, full, strict=True) if ok] or [
        f["throughput_bps"] for f in flows
    ]
    x = np.array(chosen, dtype=float)
    return float(x.sum() ** 2 / (len(x) * (x**2).sum())) if len(x) and (x**2).sum() > 0 else None


def finite(obj: Any) -> Any:
    """summary.json is strict JSON: NaN and infinities become null."""
    if isinstance(obj, dict):
        return {k: finite(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [finite(v) for v in obj]
    if isinstance(obj, float) and not np.isfinite(obj):
        return None
    return obj
