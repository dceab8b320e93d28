"""How faithful an emulation's timing was: the delay line's lateness (time from a packet's due release to
its verdict) and the share of CPU time the hypervisor took from this machine (steal) while the flows ran.

Both disturb exactly what delay-based algorithms measure: a late release is extra RTT, read as queueing,
and a stolen CPU stalls the token buckets (the link runs below its rate) and the delay line at once. An
emulation reports them in summary.json (`emulation.fidelity`) and flags itself `disturbed` beyond the
limits below (docs/kernel.md, "Timing fidelity")."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MAX_STEAL_FRACTION = 0.05
"""Above 5 % of CPU time stolen, the token buckets measurably lose rate (seen: 20 Mbps links carrying
13 Mbps at 30-45 % steal, 19.5 at under 2 %): our choice from those runs."""

MAX_WINDOW_STEAL_FRACTION = 0.25
"""Steal comes in bursts: a run can average under 5 % and still lose a quarter of a second's CPU at once,
stalling the links long enough to build a queue the algorithm did not ask for. Above 25 % in any one
second of the run (sampled every STEAL_SAMPLE_S): our choice, as the limit above."""

STEAL_WINDOW_S = 1.0
STEAL_SAMPLE_S = 0.25

MAX_LATE_P99_S = 0.002
"""A release 2 ms late is 5 packets of phantom queue at 20 Mbps, a quarter of the reference alpha: our
choice, so that the FAST family's alpha/rate check keeps a margin for the rest of the error."""


@dataclass(frozen=True)
class CpuTimes:
    """The machine's cumulative CPU time (all CPUs, in clock ticks): in total and stolen."""

    total: int
    steal: int


def cpu_times(stat: Path = Path("/proc/stat")) -> CpuTimes | None:
    try:
        first = stat.read_text().splitlines()[0].split()
    except (OSError, IndexError):
        return None
    if first[:1] != ["cpu"] or len(first) < 9:
        return None
    ticks = [int(v) for v in first[1:]]
    # user nice system idle iowait irq softirq steal [guest guest_nice]: guest time is inside user already.
    return CpuTimes(total=sum(ticks[:8]), steal=ticks[7])


def steal_fraction(before: CpuTimes | None, after: CpuTimes | None) -> float | None:
    if before is None or after is None or after.total <= before.total:
        return None
    return (after.steal - before.steal) / (after.total - before.total)


def worst_window_steal(readings: list[CpuTimes], per_window: int) -> float | None:
    """The largest steal fraction over `per_window` consecutive intervals between readings."""
    fractions = [
        steal_fraction(readings[i], readings[i + per_window]) for i in range(len(readings) - per_window)
    ]
    return max((f for f in fractions if f is not None), default=None)


class StealMonitor:
    """Reads the CPU times every STEAL_SAMPLE_S on a thread, between `start()` and `stop()`."""

    def __init__(self) -> None:
        self.readings: list[CpuTimes] = []
        self._result: tuple[float | None, float | None] | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="steal-monitor", daemon=True)

    def _run(self) -> None:
        while True:
            reading = cpu_times()
            if reading is not None:
                self.readings.append(reading)
            if self._stop.wait(STEAL_SAMPLE_S):
                break

    def start(self) -> StealMonitor:
        self._thread.start()
        return self

    def stop(self) -> tuple[float | None, float | None]:
        """Ends the monitoring; returns (steal over the whole time, worst steal over STEAL_WINDOW_S)."""
        if self._result is not None:
            return self._result
        self._stop.set()
        self._thread.join()
        reading = cpu_times()
        if reading is not None:
            self.readings.append(reading)
        whole = steal_fraction(self.readings[0], self.readings[-1]) if self.readings else None
        self._result = (whole, worst_window_steal(self.readings, round(STEAL_WINDOW_S / STEAL_SAMPLE_S)))
        return self._result


@dataclass(frozen=True)
class Lateness:
    """One delay-line queue's report: packets held, dropped for lack of room, and release lateness."""

    queue: int
    packets: int
    overflows: int
    mean_s: float
    p50_s: float
    p99_s: float
    max_s: float


def lateness(lines: list[str]) -> list[Lateness]:
    """The delay line's exit report: "late QUEUE PACKETS OVERFLOWS MEAN_US P50_US P99_US MAX_US"."""
    out = []
    for ln in lines:
        f = ln.split()
        if len(f) == 8 and f[0] == "late":
            out.append(
                Lateness(int(f[1]), int(f[2]), int(f[3]), float(f[4]) / 1e6, int(f[5]) / 1e6, int(f[6]) / 1e6,
                         int(f[7]) / 1e6)
            )  # fmt: skip
    return out


def assess(steal: float | None, late: list[Lateness], worst_steal: float | None = None) -> dict[str, Any]:
    """The summary's `emulation.fidelity`: the measurements, and whether (and why) they exceed the limits.
    The lateness figures are over the packets of every queue (the worst queue's where a quantile)."""
    carried = [q for q in late if q.packets > 0]
    packets = sum(q.packets for q in carried)
    report: dict[str, Any] = {
        "cpu_steal_fraction": steal,
        "cpu_steal_worst_second": worst_steal,
        "delay_line_packets": packets,
        "delay_line_overflows": sum(q.overflows for q in carried),
        "delay_line_late_mean_s": sum(q.mean_s * q.packets for q in carried) / packets if packets else None,
        "delay_line_late_p50_s": max((q.p50_s for q in carried), default=None),
        "delay_line_late_p99_s": max((q.p99_s for q in carried), default=None),
        "delay_line_late_max_s": max((q.max_s for q in carried), default=None),
    }
    reasons = []
    if steal is not None and steal > MAX_STEAL_FRACTION:
        reasons.append(f"{steal:.0%} of CPU time stolen by the hypervisor (limit {MAX_STEAL_FRACTION:.0%})")
    if worst_steal is not None and worst_steal > MAX_WINDOW_STEAL_FRACTION:
        limit = MAX_WINDOW_STEAL_FRACTION
        reasons.append(f"{worst_steal:.0%} of CPU time stolen in the worst second (limit {limit:.0%})")
    p99 = report["delay_line_late_p99_s"]
    if p99 is not None and p99 > MAX_LATE_P99_S:
        reasons.append(
            f"delay line 99th-percentile lateness {p99 * 1e3:.1f} ms (limit {MAX_LATE_P99_S * 1e3:g} ms)"
        )
    if report["delay_line_overflows"]:
        reasons.append(f"{report['delay_line_overflows']} packets dropped by a full delay line")
    report["disturbed"] = bool(reasons)
    report["disturbances"] = reasons
    return report


def disturbed_warning(fidelity: dict[str, Any]) -> str:
    """One line for a run whose `emulation.fidelity` is disturbed, saying by what."""
    return (
        "warning: this machine disturbed the emulation's timing ("
        + "; ".join(fidelity["disturbances"])
        + "): the kernel side's delays and rates are unreliable (docs/kernel.md, timing fidelity)"
    )
