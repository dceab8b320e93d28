"""Instructions per delivered packet in steady state, counted by valgrind (deterministic, unlike CPU time
on a shared virtual machine): each bench line runs for SHORT and LONG simulated seconds and the difference
removes start-up and teardown,

    per packet = (instructions(LONG) - instructions(SHORT)) / (packets(LONG) - packets(SHORT)).

`make bench` runs it after the timed lines when valgrind is installed; with `--htsim PATH` (from
`make bench HTSIM=PATH`, an htsim build of the same dumbbell taking `-flows N -secs S` and printing
`delivered_pkts=N`) it also prints htsim/delaycc for 10 and 1000 flows as its last lines, and says so
when the two did different work (delivered packets more than 1 % apart), since the ratio then compares
unlike runs.
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
LINES = ("newreno-10", "newreno-10-sack", "fast-10", "newreno-1000")
SHORT, LONG = 2.0, 6.0


def counted(command: list[str], packets_pattern: str) -> tuple[int, int]:
    """(instructions, delivered packets) of one run under cachegrind without cache simulation."""
    out = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null", *command],
        capture_output=True,
        text=True,
        check=True,
    )
    text = out.stdout + out.stderr
    refs = re.search(r"I\s+refs:\s+([\d,]+)", text)
    packets = re.search(packets_pattern, text)
    if not refs or not packets:
        raise SystemExit(f"instructions.py: could not read the run of {command[0]}")
    return int(refs.group(1).replace(",", "")), int(packets.group(1))


def per_packet(command: list[str], seconds_flag: str, packets_pattern: str) -> tuple[float, int]:
    i0, p0 = counted([*command, seconds_flag, str(SHORT)], packets_pattern)
    i1, p1 = counted([*command, seconds_flag, str(LONG)], packets_pattern)
    return (i1 - i0) / (p1 - p0), p1 - p0


def delaycc(line: str) -> tuple[float, int]:
    return per_packet([str(BENCH), "--only", line], "--seconds", r"(\d+) pkts\s+peak RSS")


def htsim(path: str, flows: int) -> tuple[float, int]:
    return per_packet([path, "-flows", str(flows)], "-secs", r"delivered_pkts=(\d+)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--htsim", help="an htsim build of the reference dumbbell")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        print("instructions per packet: not measured (valgrind is not installed)")
        return 0
    if not BENCH.exists():
        print(f"instructions.py: no {BENCH}; run `cargo build --release -p delaycc-sim`", file=sys.stderr)
        return 2
    ours: dict[str, tuple[float, int]] = {}
    for line in LINES:
        ours[line] = delaycc(line)
        per, packets = ours[line]
        span = f"{packets} packets, {SHORT:g}-{LONG:g} s"
        print(f"{line:16s} {per:7.0f} instructions per delivered packet ({span})")
    if args.htsim:
        for flows in (10, 1000):
            theirs, their_packets = htsim(args.htsim, flows)
            per, packets = ours[f"newreno-{flows}"]
            gap = abs(packets - their_packets) / their_packets
            note = f"; the runs did different work ({gap:.1%} apart in packets)" if gap > 0.01 else ""
            ratio = theirs / per
            print(f"htsim/delaycc instructions, {flows} flows = {ratio:.2f} ({theirs:.0f} / {per:.0f}{note})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
