"""How the cost of a run grows with flows, bandwidth and duration, counted by valgrind (deterministic).

Every figure is from `delaycc-bench --only newreno-10-10g-ss --flows N --bandwidth RATE --seconds S`: the
bench's dumbbell (one bottleneck, 20 ms RTT, a one-BDP drop-tail buffer, 1500-byte packets, 10 ms
sampling) with htsim's transport and an initial ssthresh of each flow's share of the BDP, so that slow
start fills the link instead of overflowing the buffer (without it one flow at 1 Gb/s spends the run in a
NewReno recovery of a thousand losses, which measures the recovery rather than the engine). Steady-state
figures are the difference of two durations, as in benches/instructions.py (whose `instructions` runs
cachegrind without cache simulation):

    per packet = (X(LONG) - X(SHORT)) / (delivered(LONG) - delivered(SHORT))

for X = instructions and events. Peak RSS is the bench's own (VmHWM) in a run without valgrind, at the
LONG duration; memory per flow is (RSS(N flows) - RSS(1 flow)) / (N - 1). The component breakdown comes
from callgrind's self cost per source line (`component_of` says which file and function is which).

    python benches/scaling.py [--plot docs/scaling.png] [--skip-components]

Prints markdown tables. Takes about 3.5 minutes on a shared 2-core virtual machine.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from instructions import BENCH, ROOT, instructions

LINE = "newreno-10-10g-ss"
COUNTS = re.compile(r"counts events=(\d+) delivered=(\d+) dropped=(\d+)")


@dataclass(frozen=True)
class Case:
    """One dumbbell: `flows` flows over a bottleneck of `bandwidth`, measured between two durations."""

    flows: int
    bandwidth: str
    short: float
    long: float

    def command(self, seconds: float) -> list[str]:
        return [
            str(BENCH),
            "--only",
            LINE,
            "--flows",
            str(self.flows),
            "--bandwidth",
            self.bandwidth,
            "--seconds",
            f"{seconds:g}",
            "--counts",
        ]


# The flows share 1 Gb/s; 2 s is past every slow start (the BDP share is reached in under 12 RTTs).
FLOWS = [Case(n, "1Gbps", 2.0, 6.0) for n in (1, 10, 100, 1000, 10_000)]
# Ten flows; the windows hold about 300,000 packets from 1 Gb/s up (100 Gb/s: 8.3 M in 1 s) and 25,000 at
# 10 Mb/s, whose 30 s stay within the series' 4000 samples of 10 ms (no halving in the window).
BANDWIDTHS = [
    Case(10, "10Mbps", 5.0, 35.0),
    Case(10, "100Mbps", 2.0, 12.0),
    Case(10, "1Gbps", 2.0, 6.0),
    Case(10, "10Gbps", 2.0, 6.0),
    Case(10, "100Gbps", 0.5, 1.5),
]
# Ten flows at 1 Gb/s for each of these simulated durations (seconds); beyond 200 s peak RSS only.
DURATIONS = (1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 400.0)
COUNTED_UP_TO = 200.0
# Peak RSS this early is the flows' state and the network, before the series have grown.
EARLY = 0.1
REFERENCE = FLOWS[1]
# The component breakdown: the 10-flow reference, many flows, and the slowest link (8 packets a sample).
BREAKDOWN = (REFERENCE, FLOWS[3], FLOWS[4], BANDWIDTHS[0])


@dataclass(frozen=True)
class Counted:
    instructions: int
    events: int
    packets: int
    dropped: int


def counts(text: str) -> tuple[int, int, int]:
    """(events, delivered packets, dropped packets) from a bench run's `--counts` line."""
    m = COUNTS.search(text)
    if not m:
        raise SystemExit(f"scaling.py: no counts line in\n{text}")
    return int(m.group(1)), int(m.group(2)), int(m.group(3))


def counted(case: Case, seconds: float) -> Counted:
    refs, text = instructions(case.command(seconds))
    return Counted(refs, *counts(text))


def peak_rss_mib(case: Case, seconds: float) -> float:
    """Peak RSS of the run without valgrind, in MiB (the bench's VmHWM, a tab-separated field)."""
    out = subprocess.run(case.command(seconds), capture_output=True, text=True, check=True).stdout
    line = next(x for x in out.splitlines() if "peak RSS" in x)
    return float(line.split("\t")[2])


@dataclass(frozen=True)
class Steady:
    case: Case
    per_packet: float
    events_per_packet: float
    loss: float
    packets: int
    rss_mib: float
    early_rss_mib: float


def steady(case: Case) -> Steady:
    a, b = counted(case, case.short), counted(case, case.long)
    packets = b.packets - a.packets
    return Steady(
        case,
        (b.instructions - a.instructions) / packets,
        (b.events - a.events) / packets,
        (b.dropped - a.dropped) / max(1, b.packets - a.packets + b.dropped - a.dropped),
        packets,
        peak_rss_mib(case, case.long),
        peak_rss_mib(case, EARLY),
    )


# --- components ---------------------------------------------------------------------------------------

SRC = "crates/sim/src/"
# Source files under crates/sim/src by prefix, first match wins. Code of these files counts for their
# component wherever the compiler inlined it.
FILES = (
    ("engine/", "engine"),
    ("sim/mod.rs", "engine"),
    ("sim/lazy_timer.rs", "engine"),
    ("net/", "link"),
    ("transport/receiver.rs", "receiver"),
    ("transport/delivery.rs", "receiver"),
    ("transport/", "sender"),
    ("cc/", "congestion control"),
    ("measure/", "recorder"),
)
# sim/events.rs and sim/network.rs are the glue between them: each of their functions by what it does,
# named `Type::function` where a name is used in more than one `impl`.
GLUE_FILES = ("sim/events.rs", "sim/network.rs")
EVENTS_FNS = {
    "dispatch": "engine",
    "deliver": "engine",
    "forward": "engine",
    "deliver_other": "engine",
    "deliver_head": "engine",
    "deliver_popped": "engine",
    "deliver_forwarded": "engine",
    "on_scenario_event": "engine",
    "enqueue": "link",
    "dropped_or_managed": "link",
    "on_link_transmit": "link",
    "after_managed": "link",
    "drop_packet": "link",
    "send_new": "link",
    "send_filled": "link",
    "reserve": "link",
    "enqueue_general": "link",
    "after_enqueue": "link",
    "schedule_first_arrival": "link",
    "schedule_arrival": "link",
    "on_link_arrival": "link",
    "on_data": "receiver",
    "on_data_arrival": "receiver",
    "DataArrival::of": "receiver",
    "send_ack": "receiver",
    "record_sack": "receiver",
    "on_delayed_ack": "receiver",
    "on_syn": "receiver",
    "on_ack": "sender",
    "on_ack_arrival": "sender",
    "AckArrival::of": "sender",
    "on_ack_extras": "sender",
    "transmit_queued": "sender",
    "DataSink::of": "sender",
    "DataSink::fill": "sender",
    "Sending::send": "link",
    "on_source": "sender",
    "data_packet": "sender",
    "after_sender": "sender",
    "on_pace": "sender",
    "on_rto": "sender",
    "on_cc_tick": "sender",
    "send_syn": "sender",
    "on_sample": "recorder",
}
COMPONENTS = ("engine", "link", "sender", "receiver", "congestion control", "recorder", "other")


def glue_lines() -> dict[str, list[str]]:
    """The component of each line of the glue files (index = line number), by the function it is in."""
    out = {}
    for rel in GLUE_FILES:
        text = (ROOT / SRC / rel).read_text().splitlines()
        owner, current, impl = [""], "engine", ""
        for line in text:
            block = re.match(r"impl(?:<[^>]*>)?\s+(?:\w+(?:<[^>]*>)?\s+for\s+)?(\w+)", line)
            if block:
                impl = block.group(1)
            elif not line.startswith((" ", "}")) and line.strip():
                impl = ""
            m = re.match(r"\s*(?:pub(?:\(\w+\))?\s+)?fn (\w+)", line)
            if m:
                name = m.group(1)
                current = EVENTS_FNS.get(f"{impl}::{name}", EVENTS_FNS.get(name, "other"))
            owner.append(current)
        out[rel] = owner
    return out


def component_of(path: str, line: int, glue: dict[str, list[str]]) -> str | None:
    """The component of a source line, or None for code that is not the crate's own (the standard library,
    libc, and the crate's helpers time.rs, units.rs, rng.rs): those take their containing function's."""
    at = path.find(SRC)
    if at < 0:
        return None
    rel = path[at + len(SRC) :]
    if rel in glue:
        lines = glue[rel]
        return lines[line] if line < len(lines) else "engine"
    return next((c for prefix, c in FILES if rel.startswith(prefix)), None)


def callgrind_self_cost(command: list[str]) -> dict[tuple[str, str, int], int]:
    """Self cost in instructions per (function, file, line) of one run under callgrind."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                "--dump-instr=no",
                "--compress-strings=no",
                "--compress-pos=no",
                f"--callgrind-out-file={out}",
                *command,
            ],
            capture_output=True,
            check=True,
        )
        cost: dict[tuple[str, str, int], int] = defaultdict(int)
        fl = fi = fn = ""
        skip = False
        for raw in out.read_text().splitlines():
            if raw[:1].isdigit():
                if skip:  # the inclusive cost of the call above, not this function's own
                    skip = False
                    continue
                line, ir = raw.split()[:2]
                cost[(fn, fi or fl, int(line))] += int(ir)
            elif raw.startswith("fl="):
                fl, fi = raw[3:], ""
            elif raw.startswith(("fi=", "fe=")):
                fi = raw[3:]
            elif raw.startswith("fn="):
                fn, fi = raw[3:], ""
            elif raw.startswith("calls="):
                skip = True
        return cost


def components(case: Case) -> tuple[dict[str, float], float]:
    """Instructions per delivered packet by component in steady state, and the share of them that was
    attributed through the containing function (inlined standard library and helpers)."""
    glue = glue_lines()
    totals: list[dict[str, float]] = []
    borrowed: list[float] = []
    packets: list[int] = []
    for seconds in (case.short, case.long):
        command = case.command(seconds)
        cost = callgrind_self_cost(command)
        packets.append(counts(subprocess.run(command, capture_output=True, text=True, check=True).stdout)[1])
        by_fn: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
        loose: dict[str, float] = defaultdict(float)
        for (fn, path, line), ir in cost.items():
            c = component_of(path, line, glue)
            if c is None:
                loose[fn] += ir
            else:
                by_fn[fn][c] += ir
        total: dict[str, float] = defaultdict(float)
        for parts in by_fn.values():
            for name, part in parts.items():
                total[name] += part
        moved = 0.0
        for fn, extra in loose.items():
            own = by_fn.get(fn)
            if not own:
                total["other"] += extra
                continue
            moved += extra
            whole = sum(own.values())
            for name, part in own.items():
                total[name] += extra * part / whole
        totals.append(total)
        borrowed.append(moved)
    n = packets[1] - packets[0]
    per = {c: (totals[1][c] - totals[0][c]) / n for c in COMPONENTS}
    return per, (borrowed[1] - borrowed[0]) / n / sum(per.values())


# --- output -------------------------------------------------------------------------------------------


def table(title: str, rows: list[Steady], reference: Steady) -> None:
    print(f"\n**{title}**\n")
    print(
        "| flows | bottleneck | window (s) | delivered packets | loss | instructions / packet | "
        "vs 10 flows, 1 Gb/s | events / packet | peak RSS (MiB) | per flow (KiB) | "
        f"peak RSS at {EARLY:g} s (MiB) | per flow (KiB) |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    one = next((r for r in rows if r.case.flows == 1), None)
    for r in rows:
        c = r.case
        late = early = ""
        if one and c.flows > 1:
            late = f"{(r.rss_mib - one.rss_mib) * 1024 / (c.flows - 1):.2f}"
            early = f"{(r.early_rss_mib - one.early_rss_mib) * 1024 / (c.flows - 1):.2f}"
        print(
            f"| {c.flows:,} | {c.bandwidth} | {c.short:g}-{c.long:g} | {r.packets:,} | {r.loss:.2%} | "
            f"{r.per_packet:.0f} | {r.per_packet / reference.per_packet:.2f} | {r.events_per_packet:.3f} | "
            f"{r.rss_mib:.1f} | {late} | {r.early_rss_mib:.1f} | {early} |"
        )


@dataclass(frozen=True)
class Duration:
    seconds: float
    rss_mib: float
    run: Counted | None


def durations() -> list[Duration]:
    rows: list[Duration] = []
    print(f"\n**Duration ({REFERENCE.flows} flows, {REFERENCE.bandwidth})**\n")
    print(
        "| simulated s | delivered packets | instructions | per packet, whole run | per packet since the "
        "previous row | events / packet | peak RSS (MiB) |"
    )
    print("|---|---|---|---|---|---|---|")
    previous: Counted | None = None
    for d in DURATIONS:
        rss = peak_rss_mib(REFERENCE, d)
        c = counted(REFERENCE, d) if d <= COUNTED_UP_TO else None
        rows.append(Duration(d, rss, c))
        if c is None:
            print(f"| {d:g} | | | | | | {rss:.1f} |")
            continue
        since = ""
        if previous:
            since = f"{(c.instructions - previous.instructions) / (c.packets - previous.packets):.0f}"
        print(
            f"| {d:g} | {c.packets:,} | {c.instructions:,} | {c.instructions / c.packets:.0f} | {since} | "
            f"{c.events / c.packets:.3f} | {rss:.1f} |"
        )
        previous = c
    return rows


def breakdown(case: Case) -> dict[str, float]:
    per, borrowed = components(case)
    print(
        f"\n**Components, {case.flows:,} flows at {case.bandwidth}** (callgrind self cost, "
        f"{case.short:g}-{case.long:g} s; {borrowed:.0%} of it inlined standard library code or helpers, "
        "split by its containing function)\n"
    )
    print("| component | instructions / packet | share |")
    print("|---|---|---|")
    whole = sum(per.values())
    for name in COMPONENTS:
        print(f"| {name} | {per[name]:.0f} | {per[name] / whole:.1%} |")
    print(f"| total | {whole:.0f} | |")
    return per


def rate_bps(text: str) -> float:
    m = re.fullmatch(r"([\d.]+)([MG])bps", text)
    if not m:
        raise ValueError(text)
    return float(m.group(1)) * {"M": 1e6, "G": 1e9}[m.group(2)]


def plot(
    path: Path,
    flows: list[Steady],
    rates: list[Steady],
    runs: list[Duration],
    parts: dict[str, dict[str, float]],
) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(2, 3, figsize=(15, 8))
    xs = [r.case.flows for r in flows]
    a = ax[0][0]
    a.plot(xs, [r.per_packet for r in flows], "o-", label="steady state")
    a.axhline(1.3 * flows[1].per_packet, color="grey", ls=":", label="10-flow figure + 30 %")
    top = 1.1 * max(1.3 * flows[1].per_packet, *(r.per_packet for r in flows))
    a.set(xscale="log", xlabel="flows (1 Gb/s)", ylabel="instructions / delivered packet", ylim=(0, top))
    a.set_title("instructions per packet against flows")
    a.legend(fontsize="small")
    a = ax[0][1]
    a.plot([rate_bps(r.case.bandwidth) for r in rates], [r.per_packet for r in rates], "o-")
    a.set(xscale="log", xlabel="bottleneck, b/s (10 flows)", ylabel="instructions / delivered packet")
    a.set(ylim=(0, None))
    a.set_title("instructions per packet against bandwidth")
    a = ax[0][2]
    a.plot(xs, [r.events_per_packet for r in flows], "o-", label="against flows (1 Gb/s)")
    a.axhline(2.0, color="grey", ls=":", label="floor: 2 per hop")
    a.set(xscale="log", xlabel="flows", ylabel="events / delivered packet", ylim=(1.9, 2.3))
    a.set_title("events per packet")
    a.legend(fontsize="small")
    a = ax[1][0]
    a.plot(xs, [r.rss_mib for r in flows], "o-", label=f"after {flows[0].case.long:g} s")
    a.plot(xs, [r.early_rss_mib for r in flows], "s--", label=f"after {EARLY:g} s")
    a.set(xscale="log", xlabel="flows (1 Gb/s)", ylabel="peak RSS (MiB)", ylim=(0, None))
    a.set_title("memory against flows")
    a.legend(fontsize="small")
    a = ax[1][1]
    ds = [r.seconds for r in runs]
    a.plot(ds, [r.rss_mib for r in runs], "s-", color="C1")
    a.set(
        xscale="log", xlabel="simulated seconds (10 flows, 1 Gb/s)", ylabel="peak RSS (MiB)", ylim=(0, None)
    )
    a.set_title("memory against duration")
    a = ax[1][2]
    names = [c for c in COMPONENTS if any(p[c] > 0.5 for p in parts.values())]
    bottom = [0.0] * len(parts)
    labels = list(parts)
    for name in names:
        heights = [p[name] for p in parts.values()]
        a.bar(labels, heights, bottom=bottom, label=name)
        bottom = [b + h for b, h in zip(bottom, heights, strict=True)]
    a.set(ylabel="instructions / delivered packet", ylim=(0, 1.6 * max(bottom, default=1.0)))
    a.set_title("by component (callgrind)")
    a.legend(fontsize="small", loc="upper left", ncol=2)
    fig.suptitle(
        "delaycc cost: newreno dumbbell, 20 ms RTT, htsim's transport, initial ssthresh = BDP share "
        "(valgrind instruction counts)"
    )
    fig.tight_layout()
    fig.savefig(path, dpi=80)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plot", type=Path, help="write the figures as a PNG here")
    parser.add_argument("--skip-components", action="store_true", help="no callgrind breakdown")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        print("scaling.py: needs valgrind", file=sys.stderr)
        return 2
    if not BENCH.exists():
        print(f"scaling.py: no {BENCH}; run `cargo build --release -p delaycc-sim`", file=sys.stderr)
        return 2
    start = time.monotonic()
    flows = [steady(c) for c in FLOWS]
    rates = [steady(c) for c in BANDWIDTHS]
    reference = flows[1]
    table(f"Flows ({FLOWS[0].bandwidth} bottleneck)", flows, reference)
    table(f"Bandwidth ({BANDWIDTHS[0].flows} flows)", rates, reference)
    runs = durations()
    parts: dict[str, dict[str, float]] = {}
    if not args.skip_components:
        for case in BREAKDOWN:
            parts[f"{case.flows:,} flows\n{case.bandwidth}"] = breakdown(case)
    if args.plot:
        plot(args.plot, flows, rates, runs, parts)
        print(f"\nplot: {args.plot}")
    print(f"\nscaling.py ran {time.monotonic() - start:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
