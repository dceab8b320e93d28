"""Instructions per delivered packet in steady state, counted by valgrind (deterministic, unlike CPU time
on a shared virtual machine): each bench line runs for SHORT and LONG simulated seconds and the difference
removes start-up and teardown,

    per packet = (instructions(LONG) - instructions(SHORT)) / (packets(LONG) - packets(SHORT)).

`make bench` runs it after the timed lines when valgrind is installed; with `--htsim PATH` (from
`make bench HTSIM=PATH`, an htsim build of the same dumbbell taking `-flows N -secs S` and printing
`delivered_pkts=N`) it also prints htsim/delaycc for 10 and 1000 flows at 1 Gb/s and for 10 flows at
10 Gb/s with equal work (`newreno-10-10g-ss`: htsim's transport and an initial ssthresh of each flow's
share of the BDP, 1667 packets, in both) as its last lines, and says so when the two did different work
(delivered packets more than 1 % apart), since the ratio then compares unlike runs.

benches/scaling.py imports `instructions` and `counted` from here.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "target" / "release" / "delaycc-bench"
LINES = (
    "newreno-10",
    "newreno-10-sack",
    "fast-10",
    "newreno-1000",
    "newreno-10-10g-ss",
    "newreno-10-ss",
    "newreno-10-ss-sack",
    "fast-10-fit",
)
# (line, the line it is weighed against, what the ratio says): the overheads issue #24 bounds.
OVERHEADS = (
    ("newreno-10-sack", "newreno-10", "SACK on against off, 2-6 s, without SACK in its first recovery"),
    ("fast-10-fit", "newreno-10-ss", "FAST against NewReno, loss-free, the same packets (target <= 1.15)"),
    ("newreno-10-ss-sack", "newreno-10-ss", "SACK on against off, loss-free, the same packets (no target)"),
    ("fast-10-fit", "newreno-10-ss-sack", "FAST against NewReno with SACK, loss-free (no target)"),
)
SHORT, LONG = 2.0, 6.0
# SACK's cost once both runs are past their start: from 2 to 6 s the run without SACK is still in the
# NewReno recovery of its slow-start overshoot (about 330 holes a flow, one repaired per round trip, every
# other ACK a duplicate, which costs less than a new ACK), while the run with SACK repaired them in a few
# round trips. From 10 s on both are in congestion avoidance, losing a few packets now and then.
STEADY_LINES, STEADY_SHORT, STEADY_LONG = ("newreno-10-sack", "newreno-10"), 10.0, 30.0
# htsim's options for each delaycc line it is compared with: the same dumbbell, flows and initial ssthresh
# (10 Gb/s: 16,667 packets of BDP, 1667 a flow, as bench.rs's `ssthresh_share` computes it).
HTSIM_RUNS = {
    "newreno-10": ["-flows", "10"],
    "newreno-1000": ["-flows", "1000"],
    "newreno-10-10g-ss": ["-flows", "10", "-mbps", "10000", "-ssthresh_pkts", "1667"],
}


def instructions(command: list[str]) -> tuple[int, str]:
    """(instructions, stdout and stderr) of one run under cachegrind without cache simulation."""
    out = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null", *command],
        capture_output=True,
        text=True,
        check=True,
    )
    text = out.stdout + out.stderr
    refs = re.search(r"I\s+refs:\s+([\d,]+)", text)
    if not refs:
        raise SystemExit(f"instructions.py: could not read the run of {command[0]}")
    return int(refs.group(1).replace(",", "")), text


def counted(command: list[str], packets_pattern: str) -> tuple[int, int]:
    """(instructions, delivered packets) of one run under cachegrind without cache simulation."""
    refs, text = instructions(command)
    packets = re.search(packets_pattern, text)
    if not packets:
        raise SystemExit(f"instructions.py: could not read the run of {command[0]}")
    return refs, int(packets.group(1))


def per_packet(
    command: list[str], seconds_flag: str, packets_pattern: str, span: tuple[float, float] = (SHORT, LONG)
) -> tuple[float, int]:
    i0, p0 = counted([*command, seconds_flag, str(span[0])], packets_pattern)
    i1, p1 = counted([*command, seconds_flag, str(span[1])], packets_pattern)
    return (i1 - i0) / (p1 - p0), p1 - p0


def delaycc(line: str, bench: Path = BENCH, span: tuple[float, float] = (SHORT, LONG)) -> tuple[float, int]:
    return per_packet([str(bench), "--only", line], "--seconds", r"(\d+) pkts\s+peak RSS", span)


def htsim(path: str, options: list[str]) -> tuple[float, int]:
    return per_packet([path, *options], "-secs", r"delivered_pkts=(\d+)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--htsim", help="an htsim build of the reference dumbbell")
    parser.add_argument(
        "--bench", type=Path, default=BENCH, help=f"the delaycc-bench binary to count (default {BENCH})"
    )
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        print("instructions per packet: not measured (valgrind is not installed)")
        return 0
    if not args.bench.exists():
        print(f"instructions.py: no {args.bench}; build delaycc-bench first", file=sys.stderr)
        return 2
    print(f"instructions per packet of {args.bench}")
    ours: dict[str, tuple[float, int]] = {}
    for line in LINES:
        ours[line] = delaycc(line, args.bench)
        per, packets = ours[line]
        span = f"{packets} packets, {SHORT:g}-{LONG:g} s"
        print(f"{line:18s} {per:7.0f} instructions per delivered packet ({span})")
    for line, base, what in OVERHEADS:
        print(f"{line} / {base} = {ours[line][0] / ours[base][0]:.2f}: {what}")
    steady = [delaycc(line, args.bench, (STEADY_SHORT, STEADY_LONG))[0] for line in STEADY_LINES]
    span = f"{STEADY_SHORT:g}-{STEADY_LONG:g} s"
    print(
        f"{STEADY_LINES[0]} / {STEADY_LINES[1]} = {steady[0] / steady[1]:.2f}: SACK on against off, {span}, "
        f"both past their first recovery ({steady[0]:.0f} / {steady[1]:.0f}; target <= 1.10)"
    )
    if args.htsim:
        for line, what in (
            ("newreno-10", "10 flows"),
            ("newreno-1000", "1000 flows"),
            ("newreno-10-10g-ss", "10 flows at 10 Gb/s, equal work"),
        ):
            theirs, their_packets = htsim(args.htsim, HTSIM_RUNS[line])
            per, packets = ours[line]
            gap = abs(packets - their_packets) / their_packets
            note = f"; the runs did different work ({gap:.1%} apart in packets)" if gap > 0.01 else ""
            ratio = theirs / per
            print(f"htsim/delaycc instructions, {what} = {ratio:.2f} ({theirs:.0f} / {per:.0f}{note})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
