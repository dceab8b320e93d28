"""Runs in a child process with the ns3 wheel (`python -m delaycc.ns3.worker` with the cases as JSON on
stdin): compiles dumbbell.cc with cppyy once and prints one JSON object per case. A child, because
importing ns-3 takes about 25 s and loads ~300 MB of libraries that the caller should not keep, and
because the wheel looks for its libraries under the current directory (the runner gives it an empty one)."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from typing import Any


def _run_case(g: Any, std: Any, case: dict[str, Any]) -> dict[str, Any]:
    algs = std.vector[std.string](case["ns3_types"])
    starts = std.vector["double"]([float(s) for s in case["starts_s"]])
    t = case["transport"]
    text = str(
        g.RunDumbbell(
            algs,
            starts,
            float(case["bandwidth_bps"]),
            float(case["delay_s"]),
            float(case["access_bps"]),
            float(case["access_delay_s"]),
            int(case["buffer_pkts"]),
            int(case["segment_bytes"]),
            float(case["duration_s"]),
            float(case["sample_s"]),
            int(t["initial_window"]),
            float(t["min_rto_s"]),
            float(t["initial_rto_s"]),
            float(t["clock_granularity_s"]),
            bool(t["ledbat_slow_start"]),
            int(case["seed"]),
        )
    )
    flows = []
    link: dict[str, float] = {}
    for line in text.splitlines():
        parts = line.split()
        if parts and parts[0] == "flow":
            flows.append(
                {
                    "goodput_bps": float(parts[2]),
                    "mean_rtt_s": float(parts[3]),
                    "mean_cwnd_pkts": float(parts[4]),
                    "timeouts": int(parts[5]),
                }
            )
        elif parts and parts[0] == "link":
            link = {
                "mean_queue_pkts": float(parts[1]),
                "max_queue_pkts": float(parts[2]),
                "drops": float(parts[3]),
            }
    return {"name": case["name"], "flows": flows, "link": link}


def main() -> int:
    cases = json.load(sys.stdin)
    # Through importlib: the wheel is optional, so neither module is known to the type checker.
    cppyy: Any = importlib.import_module("cppyy")
    importlib.import_module("ns")  # loads the ns-3 libraries and their headers into cppyy
    cppyy.cppdef((Path(__file__).parent / "dumbbell.cc").read_text())
    g = cppyy.gbl.dcc_ns3
    for case in cases:
        print(json.dumps(_run_case(g, cppyy.gbl.std, case)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
