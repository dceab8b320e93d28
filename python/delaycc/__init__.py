"""delaycc: a laboratory for delay-based TCP congestion control.

>>> import delaycc
>>> r = delaycc.run("scenarios/dumbbell-newreno.toml")
>>> r.flows[["id", "throughput_bps"]]

The scenarios of the repository come with the package: ``delaycc.scenarios_dir() / "papers"`` holds the
papers' experiments, from any working directory.
"""

from ._core import __version__
from .api import algorithms, duration_s, estimate, run, transports, validate
from .errors import BudgetExceeded, RunInterrupted, ScenarioError, SimulationError
from .packaged import scenarios_dir
from .result import Result
from .sweep import sweep

__all__ = [
    "BudgetExceeded",
    "Result",
    "RunInterrupted",
    "ScenarioError",
    "SimulationError",
    "__version__",
    "algorithms",
    "duration_s",
    "estimate",
    "run",
    "scenarios_dir",
    "sweep",
    "transports",
    "validate",
]
