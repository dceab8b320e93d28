"""Compare two builds of `delaycc-bench` on a machine whose speed drifts.

    python benches/compare_builds.py OLD NEW [LINE ...] [--pairs N]

Runs each bench line (`delaycc-bench --only LINE`, default `newreno-10` and `newreno-1000`) N times per
build, interleaved A B, B A, A B ... so that both builds see the same stretches of a virtual machine
whose speed changes by a third from one minute to the next, and prints the median of the paired ratios
NEW / OLD of delivered packets per on-CPU second with a bootstrap 95 % confidence interval of that median.
A change is worth keeping when the interval excludes 1.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys

BOOTSTRAP = 2000


def on_cpu_rate(binary: str, line: str) -> float:
    """Delivered packets per on-CPU second of one run (the last tab-separated field of its line)."""
    out = subprocess.run([binary, "--only", line], capture_output=True, text=True, check=True).stdout
    fields = out.strip().splitlines()[-1].split("\t")
    return float(fields[3])


def median_interval(ratios: list[float], rng: random.Random) -> tuple[float, float]:
    """Bootstrap 95 % interval of the median of `ratios`."""
    medians = sorted(statistics.median(rng.choices(ratios, k=len(ratios))) for _ in range(BOOTSTRAP))
    return medians[int(0.025 * BOOTSTRAP)], medians[int(0.975 * BOOTSTRAP) - 1]


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("old", help="the baseline delaycc-bench binary")
    parser.add_argument("new", help="the delaycc-bench binary to compare with it")
    parser.add_argument("lines", nargs="*", default=["newreno-10", "newreno-1000"], help="bench lines")
    parser.add_argument("--pairs", type=int, default=30, help="runs of each build per line (default 30)")
    args = parser.parse_args()
    if args.pairs < 2:
        print("compare_builds.py: --pairs must be at least 2", file=sys.stderr)
        return 2
    try:
        ratios = measure(args.old, args.new, args.lines, args.pairs)
    except (OSError, subprocess.CalledProcessError, ValueError, IndexError) as e:
        print(f"compare_builds.py: a bench run failed: {e}", file=sys.stderr)
        return 1
    rng = random.Random(1)
    for line, values in ratios.items():
        low, high = median_interval(values, rng)
        print(
            f"{line:18s} new / old: median {statistics.median(values):.3f}  "
            f"95 % CI [{low:.3f}, {high:.3f}]  ({args.pairs} pairs)"
        )
    return 0


def measure(old_bin: str, new_bin: str, lines: list[str], pairs: int) -> dict[str, list[float]]:
    """Ratios NEW / OLD of `pairs` interleaved runs of each line."""
    ratios: dict[str, list[float]] = {line: [] for line in lines}
    for i in range(pairs):
        for line in lines:
            # Alternate which build goes first, so that a drift within a pair favours neither.
            if i % 2:
                new = on_cpu_rate(new_bin, line)
                old = on_cpu_rate(old_bin, line)
            else:
                old = on_cpu_rate(old_bin, line)
                new = on_cpu_rate(new_bin, line)
            ratios[line].append(new / old)
    return ratios


if __name__ == "__main__":
    sys.exit(main())
