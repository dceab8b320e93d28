"""`make bench`: how much of `delaycc.run()` on a small scenario is spent outside the Rust engine.

The engine's own time is the summary's `wall_s` (scenario built and run); everything else (reading and
validating the file, crossing into Rust and back, decoding the summary, wrapping the series buffers in
NumPy) is Python-side overhead. Building the long-format time-series DataFrame is timed on its own: it
is done on demand, and with NumPy and pandas operations on whole columns, never a Python loop per sample.
"""

from __future__ import annotations

import time
from pathlib import Path

import delaycc

SCENARIO = Path(__file__).resolve().parent.parent / "scenarios" / "dumbbell-newreno.toml"
RUNS = 5


def main() -> None:
    best_total = best_engine = best_frame = float("inf")
    samples = 0
    for _ in range(RUNS):
        t0 = time.perf_counter()
        result = delaycc.run(SCENARIO)
        total = time.perf_counter() - t0
        t1 = time.perf_counter()
        frame = result.timeseries
        best_frame = min(best_frame, time.perf_counter() - t1)
        samples = len(frame)
        best_total = min(best_total, total)
        best_engine = min(best_engine, float(result.summary["wall_s"]))
    share = best_engine / best_total
    print(
        f"delaycc.run({SCENARIO.name}): {best_total * 1e3:7.1f} ms, "
        f"of which the engine {best_engine * 1e3:7.1f} ms ({share:.0%} in Rust); "
        f"timeseries DataFrame of {samples} rows in {best_frame * 1e3:.1f} ms (best of {RUNS})"
    )


if __name__ == "__main__":
    main()
