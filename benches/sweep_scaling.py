"""`make bench`: a 200-point sweep with 1 worker and with every core, printed as runs per second.

Each point simulates about 0.1 s of work (one FAST flow, 200 Mbps, 20 s): points much smaller than that
measure the process pool's start-up and the per-run bookkeeping rather than the scaling of the simulation.
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

import delaycc

BASE = """
name = "bench-sweep"
duration = "20s"
[[links]]
a = "s"
b = "d"
bandwidth = "200Mbps"
delay = "10ms"
buffer = 400
[[flows]]
id = "f"
algorithm = "fast"
src = "s"
dst = "d"
params = { alpha = 20 }
"""


def main() -> None:
    cores = os.cpu_count() or 1
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        (d / "base.toml").write_text(BASE)
        axes = '"flows[0].params.alpha" = [5, 10, 20, 40]\nseed = "1..50"\n'
        (d / "sweep.toml").write_text(f'name = "scaling"\nbase = "base.toml"\n[axes]\n{axes}')
        rates = {}
        for workers in sorted({1, cores}):
            t0 = time.perf_counter()
            df = delaycc.sweep(d / "sweep.toml", d / f"out{workers}", workers=workers, progress=False)
            wall = time.perf_counter() - t0
            assert len(df) == 200 and (df["status"] == "ok").all()
            rates[workers] = 200 / wall
            print(
                f"sweep of 200 points, {workers} worker(s): {wall:6.2f} s wall, {rates[workers]:6.1f} runs/s"
            )
        if cores > 1:
            print(f"speed-up with {cores} workers: {rates[cores] / rates[1]:.2f}x (ideal {cores}x)")


if __name__ == "__main__":
    main()
