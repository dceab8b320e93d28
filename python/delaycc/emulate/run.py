"""`delaycc emulate`: a scenario on real kernel TCP across network namespaces, with the same outputs as
`delaycc run`. Everything created is removed on the way out, on error, Ctrl-C or SIGTERM alike."""

from __future__ import annotations

import functools
import shutil
import tempfile
from pathlib import Path

from ..kernel import loader
from ..kernel.algorithms import kernel_algorithm
from ..kernel.tools import ensure_built
from ..result import Result
from . import network, preflight, results, scenario, traffic
from .cleanup import Cleanup, delete_netns, record_loaded, sigterm_as_interrupt, sweep_stale
from .errors import EmulationError
from .model import Scenario
from .procs import kill_children
from .topology import Topology, run_prefix


def _load_algorithms(s: Scenario, cleanup: Cleanup) -> None:
    """Registers the BPF algorithms the flows use (unregistering on exit only those this run registered)
    and writes the scenario's parameters into them."""
    loaded: list[str] = []
    state = record_loaded(loaded)
    cleanup.push("run state file", lambda: state.unlink(missing_ok=True))
    for f in s.flows:
        alg = kernel_algorithm(f.algorithm)
        if alg.is_bpf and f.algorithm not in loaded and not loader.is_registered(f.algorithm):
            # Recorded before registering, so a run killed in between is still cleaned up by the next one.
            loaded.append(f.algorithm)
            record_loaded(loaded)
            cleanup.push(f"bpf {f.algorithm}", functools.partial(loader.unload, f.algorithm))
            loader.load(f.algorithm)
        loader.set_params(f.algorithm, f.params)


def _sweep_own(prefix: str) -> None:
    """Last resort: any namespace with this run's prefix (one created just as an interrupt came)."""
    for entry in Path("/var/run/netns").glob(f"{prefix}*") if Path("/var/run/netns").is_dir() else []:
        delete_netns(entry.name)


def emulate(path: str | Path, out: str | Path | None = None, *, figures: bool = True) -> Result:
    """Runs the scenario at ``path`` on kernel TCP and returns the same Result as ``delaycc.run``.

    Raises ScenarioError (invalid file), EmulationUnsupported (features the emulation cannot build) or
    EmulationError (this machine cannot emulate, or a step failed)."""
    s = scenario.load(path)
    preflight.check(s)
    ensure_built()
    topo = Topology(s, run_prefix())
    workdir = Path(tempfile.mkdtemp(prefix="delaycc-emulate-"))
    try:
        with sigterm_as_interrupt(), Cleanup() as cleanup:
            sweep_stale()
            cleanup.push("leftover namespaces", lambda: _sweep_own(topo.prefix))
            cleanup.push("leftover processes", kill_children)
            queues = network.build(topo, cleanup)
            _load_algorithms(s, cleanup)
            raw = traffic.run(topo, queues, workdir, cleanup)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    result = results.build(topo, raw)
    if not result.summary["flows"] or any(f["delivered_bytes"] == 0 for f in result.summary["flows"]):
        raise EmulationError("a flow delivered nothing: the emulated network did not carry its traffic")
    if out is not None:
        result.save(out, figures=figures)
    return result
