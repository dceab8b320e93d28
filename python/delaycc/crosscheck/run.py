"""One scenario run in delaycc and in ns-2: both outputs written as `delaycc run` writes them, figures
overlaying the two, and the comparison of every figure."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from .. import api
from ..files import atomic_write_text
from ..ns2 import results, runner, scenario
from ..ns2.locate import locate
from ..plots.overlay import write_overlays
from ..result import Result
from .compare import Comparison, diff


@dataclass
class Crosscheck:
    sim: Result
    ns2: Result
    comparison: Comparison
    ns2_wall_s: float
    """ns-2's own run, wall-clock seconds."""
    overhead_s: float
    """Translating the scenario and reading ns-2's output back, wall-clock seconds."""


def crosscheck(
    path: str | Path,
    out: str | Path | None = None,
    *,
    ns2: str | None = None,
    agents: Mapping[str, str] | None = None,
    tolerances: Mapping[str, float] | None = None,
    timeout_s: float = runner.DEFAULT_TIMEOUT_S,
    figures_too: bool = True,
    raw_dir: Path | None = None,
) -> Crosscheck:
    """Runs the scenario file at ``path`` in both simulators. With ``out``: ``out/delaycc/`` and
    ``out/ns2/`` (each as `delaycc run --out` writes it; ns-2's script and raw samples in ``out/ns2/raw/``),
    ``out/figures/`` (overlays) and ``comparison.json``/``.csv``/``.txt``, written last.

    Everything that can be refused is checked before either simulator runs: an invalid file
    (ScenarioError), what ns-2 cannot express (Ns2Unsupported), no ns-2 or one without a needed agent
    (Ns2Error)."""
    s, differences = scenario.load(path, agents)
    binary = locate(ns2)
    runner.check_agents(binary, s)
    sim = api.run(str(path))
    out_dir = Path(out) if out is not None else None
    scratch = None
    if raw_dir is None:
        if out_dir is None:
            scratch = tempfile.TemporaryDirectory(prefix="delaycc-ns2-")
            raw_dir = Path(scratch.name)
        else:
            raw_dir = out_dir / "ns2" / "raw"
    if out_dir is not None:
        # A comparison from an earlier run must not sit beside this run's outputs if ns-2 fails now.
        for name in ("comparison.json", "comparison.csv", "comparison.txt"):
            (out_dir / name).unlink(missing_ok=True)
        sim.save(out_dir / "delaycc", figures=figures_too)
    try:
        raw = runner.run(binary, s, raw_dir, timeout_s)
        t0 = time.perf_counter()
        ref = results.build(s, raw, binary, differences)
        parse_s = time.perf_counter() - t0
    finally:
        if scratch is not None:
            scratch.cleanup()
    c = diff(sim, ref, differences)
    if tolerances:
        c.judge(tolerances)
    if out_dir is not None:
        ref.save(out_dir / "ns2", figures=figures_too)
        if figures_too:
            write_overlays(sim, ref, out_dir / "figures", ("delaycc", "ns-2"))
        atomic_write_text(out_dir / "comparison.csv", c.csv_text())
        atomic_write_text(out_dir / "comparison.txt", c.table() + "\n")
        atomic_write_text(out_dir / "comparison.json", c.json_text())
    return Crosscheck(sim, ref, c, raw.wall_s, raw.translate_s + parse_s)
