"""ns-2 as a referee: a scenario translated to an ns-2 Tcl script, run in ns-2.35 (with the CUBIN FAST
module when the binary has it), and read back into the outputs of `delaycc run` (docs/crosscheck.md)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from ..result import Result
from . import results, runner, scenario
from .errors import Ns2Error, Ns2Unsupported
from .locate import Ns2, locate

__all__ = ["Ns2", "Ns2Error", "Ns2Unsupported", "locate", "run_ns2"]


def run_ns2(
    path: str | Path,
    raw_dir: Path,
    *,
    ns2: str | None = None,
    agents: Mapping[str, str] | None = None,
    timeout_s: float = runner.DEFAULT_TIMEOUT_S,
) -> Result:
    """Runs the scenario file at ``path`` in ns-2 and returns its results as a Result. ns-2's own files go
    to ``raw_dir``. ScenarioError for an invalid file, Ns2Unsupported for what ns-2 cannot express,
    Ns2Error when ns-2 is missing or fails."""
    s, differences = scenario.load(path, agents)
    binary = locate(ns2)
    raw = runner.run(binary, s, raw_dir, timeout_s)
    return results.build(s, raw, binary, differences)
