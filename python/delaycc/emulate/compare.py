"""A scenario simulated and emulated on kernel TCP, side by side (`delaycc compare`): per flow the
throughput, mean RTT and mean window, per link direction the mean queue, with relative differences."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import api
from ..files import atomic_write_text
from ..output.jsontext import json_text
from ..result import Result
from .fidelity import disturbed_warning
from .run import emulate

THROUGHPUT_TOLERANCE = 0.10
RTT_TOLERANCE = 0.15
"""The issue's acceptance bounds: differences beyond them are flagged and explained in docs/kernel.md."""


def _rel(kernel: float | None, sim: float | None) -> float | None:
    if kernel is None or sim is None or sim == 0:
        return None
    return (kernel - sim) / sim


@dataclass
class Comparison:
    scenario: str
    flows: list[dict[str, Any]] = field(default_factory=list)
    links: list[dict[str, Any]] = field(default_factory=list)
    fidelity: dict[str, Any] = field(default_factory=dict)
    """The emulation's timing fidelity (summary.json's `emulation.fidelity`)."""

    @property
    def within_tolerance(self) -> bool:
        return all(f["within_tolerance"] for f in self.flows)

    def as_dict(self) -> dict[str, Any]:
        return {
            "scenario": self.scenario,
            "tolerance": {"throughput": THROUGHPUT_TOLERANCE, "mean_rtt": RTT_TOLERANCE},
            "within_tolerance": self.within_tolerance,
            "flows": self.flows,
            "links": self.links,
            "emulation_fidelity": self.fidelity,
        }

    def table(self) -> str:
        lines = [
            f"{self.scenario}: simulator vs kernel",
            f"{'flow':<8} {'algorithm':<9} {'thr sim':>9} {'thr kern':>9} {'diff':>7} "
            f"{'rtt sim':>8} {'rtt kern':>8} {'diff':>7} {'cwnd sim':>8} {'cwnd kern':>9}",
        ]
        for f in self.flows:
            lines.append(
                f"{f['id']:<8} {f['algorithm']:<9} {_mbps(f['sim_throughput_bps']):>9} "
                f"{_mbps(f['kernel_throughput_bps']):>9} {_pct(f['throughput_diff']):>7} "
                f"{_ms(f['sim_mean_rtt_s']):>8} {_ms(f['kernel_mean_rtt_s']):>8} "
                f"{_pct(f['mean_rtt_diff']):>7} "
                f"{_num(f['sim_mean_cwnd_pkts']):>8} {_num(f['kernel_mean_cwnd_pkts']):>9}"
                + ("" if f["within_tolerance"] else "   <- beyond tolerance")
            )
        lines.append(f"{'link':<24} {'queue sim':>10} {'queue kern':>10}")
        for ln in self.links:
            lines.append(
                f"{ln['id'] + ' ' + ln['direction']:<24} {_num(ln['sim_mean_queue_pkts']):>10} "
                f"{_num(ln['kernel_mean_queue_pkts']):>10}"
            )
        if self.fidelity.get("disturbed"):
            lines.append(disturbed_warning(self.fidelity))
        return "\n".join(lines)


def _mbps(x: float | None) -> str:
    return "-" if x is None else f"{x / 1e6:.2f}M"


def _ms(x: float | None) -> str:
    return "-" if x is None else f"{x * 1e3:.1f}ms"


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{x * 100:+.1f}%"


def _num(x: float | None) -> str:
    return "-" if x is None else f"{x:.1f}"


def diff(sim: Result, kernel: Result) -> Comparison:
    c = Comparison(
        str(sim.summary["scenario"]), fidelity=kernel.summary.get("emulation", {}).get("fidelity", {})
    )
    kflows = {f["id"]: f for f in kernel.summary["flows"]}
    for f in sim.summary["flows"]:
        k = kflows.get(f["id"], {})
        thr = _rel(k.get("throughput_bps"), f.get("throughput_bps"))
        rtt = _rel(k.get("mean_rtt_s"), f.get("mean_rtt_s"))
        c.flows.append(
            {
                "id": f["id"],
                "algorithm": f["algorithm"],
                "sim_throughput_bps": f.get("throughput_bps"),
                "kernel_throughput_bps": k.get("throughput_bps"),
                "throughput_diff": thr,
                "sim_mean_rtt_s": f.get("mean_rtt_s"),
                "kernel_mean_rtt_s": k.get("mean_rtt_s"),
                "mean_rtt_diff": rtt,
                "sim_mean_cwnd_pkts": f.get("mean_cwnd_pkts"),
                "kernel_mean_cwnd_pkts": k.get("mean_cwnd_pkts"),
                "sim_retransmits": f.get("retransmits"),
                "kernel_retransmits": k.get("retransmits"),
                "within_tolerance": thr is not None
                and rtt is not None
                and abs(thr) <= THROUGHPUT_TOLERANCE
                and abs(rtt) <= RTT_TOLERANCE,
            }
        )
    klinks = {(ln["id"], ln["direction"]): ln for ln in kernel.summary["links"]}
    for ln in sim.summary["links"]:
        k = klinks.get((ln["id"], ln["direction"]), {})
        c.links.append(
            {
                "id": ln["id"],
                "direction": ln["direction"],
                "sim_mean_queue_pkts": ln.get("mean_queue_pkts"),
                "kernel_mean_queue_pkts": k.get("mean_queue_pkts"),
                "sim_utilization": ln.get("utilization"),
                "kernel_utilization": k.get("utilization"),
            }
        )
    return c


def compare(path: str | Path, out: str | Path | None = None, *, figures: bool = False) -> Comparison:
    """Simulates and emulates the scenario at ``path``; with ``out``, writes sim/, kernel/ (each as
    `delaycc run --out` would) and compare.json."""
    sim = api.run(str(path))
    kernel = emulate(path, Path(out) / "kernel" if out is not None else None, figures=figures)
    c = diff(sim, kernel)
    if out is not None:
        sim.save(Path(out) / "sim", figures=figures)
        atomic_write_text(Path(out) / "compare.json", json_text(c.as_dict()))
    return c
