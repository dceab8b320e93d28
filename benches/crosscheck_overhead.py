"""`make bench`: what the ns-2 referee adds to the ns-2 run itself, on cases of the reference suite.

Per case, in interleaved rounds: translating the scenario to Tcl, ns-2 running the translated script
(which samples every flow and queue at the scenario's interval), ns-2 running the same script with the
samples taken only once (the simulation alone), and reading ns-2's output back into a Result. Printed:
medians, translation plus reading as a share of the ns-2 run, and the share the sampling itself costs.
Needs an ns-2 ($DELAYCC_NS2 or `ns` on PATH); says so and stops otherwise.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from delaycc.ns2 import Ns2Error, locate, results, runner
from delaycc.ns2.scenario import load
from delaycc.ns2.translate import translate

ROOT = Path(__file__).resolve().parent.parent / "scenarios" / "crosscheck"
CASES = ("fast-multi-rtt", "newreno-droptail", "vegas-multi", "parking-lot")
ROUNDS = 5


def _ns2_once(binary_path: str, script: str, tmp: Path) -> float:
    import subprocess

    (tmp / "scenario.tcl").write_text(script)
    t0 = time.perf_counter()
    subprocess.run([binary_path, "scenario.tcl"], cwd=tmp, check=True, capture_output=True)
    return time.perf_counter() - t0


def main() -> None:
    try:
        binary = locate()
    except Ns2Error as e:
        print(f"crosscheck overhead: not measured: {e}")
        return
    for name in CASES:
        s, diffs = load(ROOT / f"{name}.toml")
        if any(f.agent == "Fast" for f in s.flows) and not binary.has_fast:
            print(f"crosscheck overhead {name}: not measured: ns-2 without Agent/TCP/Fast")
            continue
        timing: dict[str, list[float]] = {"translate": [], "ns2": [], "bare": [], "read": []}
        with tempfile.TemporaryDirectory() as d:
            tmp = Path(d)
            for _ in range(ROUNDS):
                t0 = time.perf_counter()
                script = translate(s)
                timing["translate"].append(time.perf_counter() - t0)
                bare = script.replace(f"set dcc_samples {int(s.duration_s / s.sample_interval_s + 1e-9)}", "")
                bare = bare.replace(
                    f"set dcc_interval {s.sample_interval_s!r}",
                    f"set dcc_interval {s.duration_s!r}\nset dcc_samples 1",
                )
                timing["bare"].append(_ns2_once(binary.path, bare, tmp))
                raw = runner.run(binary, s, tmp / "run")
                timing["ns2"].append(raw.wall_s)
                t1 = time.perf_counter()
                results.build(s, raw, binary, diffs)
                timing["read"].append(time.perf_counter() - t1)
        m = {k: statistics.median(v) for k, v in timing.items()}
        print(
            f"crosscheck overhead {name}: ns-2 {m['ns2']:.3f} s (simulation alone {m['bare']:.3f} s, "
            f"sampling {(m['ns2'] - m['bare']) / m['bare']:+.1%}); translate {m['translate'] * 1e3:.1f} ms + "
            f"read {m['read'] * 1e3:.1f} ms = {(m['translate'] + m['read']) / m['ns2']:.1%} of the ns-2 run "
            f"(medians of {ROUNDS})"
        )


if __name__ == "__main__":
    main()
