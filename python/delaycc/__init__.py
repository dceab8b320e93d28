"""delaycc: a laboratory for delay-based TCP congestion control.

>>> import delaycc
>>> r = delaycc.run("scenarios/dumbbell-newreno.toml")
>>> r.flows[["id", "throughput_bps"]]
"""

from ._core import __version__
from .api import algorithms, duration_s, run, transports, validate
from .errors import BudgetExceeded, RunInterrupted, ScenarioError, SimulationError
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
    "run",
    "sweep",
    "transports",
    "validate",
]
