"""The Python API: ``run``, ``validate``, ``estimate``, ``algorithms``."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any

import numpy as np

from . import _core
from .errors import BudgetExceeded, RunInterrupted, ScenarioError, SimulationError
from .limits import max_events_arg, max_memory_arg
from .result import Result
from .scenario_input import ScenarioLike, resolve
from .workload import Estimate

SEED_MAX = 2**63 - 1
"""Largest seed, as in scenario files (TOML integers are signed 64-bit)."""


def _check_seed(seed: object) -> None:
    if seed is None:
        return
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TypeError(f"seed must be an integer, not {type(seed).__name__} ({seed!r})")
    if not 0 <= seed <= SEED_MAX:
        raise ValueError(f"seed must be in [0, 2**63 - 1], not {seed}")


def validate(scenario: ScenarioLike) -> None:
    """Raises ScenarioError listing every problem, or returns None if the scenario is valid."""
    src = resolve(scenario)
    errors = _core.validate(src.text, src.name, src.format)
    if errors:
        raise ScenarioError(errors)


def duration_s(scenario: ScenarioLike) -> float:
    """Simulated duration of a valid scenario, in seconds."""
    src = resolve(scenario)
    d = _core.duration_s(src.text, src.name, src.format)
    if d is None:
        raise ScenarioError(_core.validate(src.text, src.name, src.format))
    return float(d)


def estimate(scenario: ScenarioLike, *, max_events: int | None = None) -> Estimate:
    """The work a run of a valid scenario will be, estimated without running it: packets, events, memory,
    and wall-clock seconds at this machine's rate (``delaycc.workload``; the model is in
    docs/performance.md, "Estimating a run"). ``max_events`` replaces the scenario's event budget, as in
    ``run``."""
    budget = max_events_arg(max_events)
    src = resolve(scenario)
    raw = _core.estimate_json(src.text, src.name, src.format)
    if raw is None:
        raise ScenarioError(_core.validate(src.text, src.name, src.format))
    return Estimate.from_json(raw, max_events=budget)


def transports(scenario: ScenarioLike) -> list[dict[str, Any]]:
    """Each flow's transport as a run resolves it (profile defaults, ``[transport]``, the flow's own keys,
    SACK's default from its algorithm), in flow order; durations in seconds."""
    src = resolve(scenario)
    raw = _core.transports_json(src.text, src.name, src.format)
    if raw is None:
        raise ScenarioError(_core.validate(src.text, src.name, src.format))
    result: list[dict[str, Any]] = json.loads(raw)
    return result


def run(
    scenario: ScenarioLike,
    *,
    seed: int | None = None,
    progress: Callable[[float], Any] | None = None,
    max_events: int | None = None,
    max_memory: int | str | None = None,
    pcap_dir: str | os.PathLike[str] | None = None,
    pcap_flows: bool = False,
) -> Result:
    """Runs a scenario (a TOML path, TOML text, or a dict with the same structure) and returns its Result.

    ``seed`` overrides the scenario's seed. ``progress`` is called now and then with the simulated time in
    seconds. ``max_events`` and ``max_memory`` (bytes, or a size such as "2GiB") replace the scenario's
    ``[limits]`` budgets (docs/scenario-format.md, Budgets). ``pcap_dir`` is the directory (created when
    needed) for the packet traces the scenario asks for with ``trace = "pcap"``, and with ``pcap_flows``
    for one trace per flow; without it no trace is written. ``summary["pcap"]`` lists the files
    (docs/scenario-format.md, Packet traces).

    Raises ScenarioError for invalid input and SimulationError if the engine fails or a trace cannot be
    written. A run stopped early raises with its results so far in ``.result`` (and keeps its traces so
    far): BudgetExceeded when it spent a budget, RunInterrupted (a KeyboardInterrupt) on Ctrl-C.
    """
    _check_seed(seed)
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be callable (it is called with the simulated time), not {progress!r}")
    events = max_events_arg(max_events)
    memory = max_memory_arg(max_memory)
    if not isinstance(pcap_flows, bool):
        raise TypeError(f"pcap_flows must be True or False, not {pcap_flows!r}")
    if pcap_flows and pcap_dir is None:
        raise ValueError("pcap_flows=True needs pcap_dir, the directory the traces go to")
    pcap = None if pcap_dir is None else os.fspath(pcap_dir)
    src = resolve(scenario)
    errors = _core.validate(src.text, src.name, src.format)
    if errors:
        raise ScenarioError(errors)
    try:
        raw = _core.run(
            src.text,
            src.name,
            src.format,
            seed,
            progress,
            max_events=events,
            max_memory=memory,
            pcap_dir=pcap,
            pcap_flows=pcap_flows,
        )
    except ValueError as e:
        raise ScenarioError(str(e).splitlines()) from None
    except RuntimeError as e:
        raise SimulationError(str(e)) from None
    summary = json.loads(raw["summary"])
    times = np.frombuffer(raw["times"], dtype="<f8")
    values = np.frombuffer(raw["values"], dtype="<f8")
    result = Result(summary, times, [tuple(s) for s in raw["series"]], values)
    if raw["outcome"] == "interrupted":
        raise RunInterrupted(result)
    if raw["outcome"] != "completed":
        raise BudgetExceeded(result)
    return result


def algorithms() -> list[dict[str, Any]]:
    """Every algorithm with its description and parameters (default, range, source of the default)."""
    result: list[dict[str, Any]] = json.loads(_core.algorithms_json())
    return result


def queues() -> dict[str, list[dict[str, Any]]]:
    """The queue disciplines a link direction may have (`queue`, with their parameters, defaults and the
    source of each) and its capacity models (`bandwidth`, `bandwidth_trace`, `bandwidth_states`)."""
    result: dict[str, list[dict[str, Any]]] = json.loads(_core.queues_json())
    return result
