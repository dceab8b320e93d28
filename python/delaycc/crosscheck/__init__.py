"""`delaycc crosscheck`: a scenario run in delaycc and in ns-2, both outputs written as `delaycc run` writes
them, figures overlaying the two, and a comparison of every figure (docs/crosscheck.md). ``run`` holds
``crosscheck()``, ``compare`` and ``metrics`` the comparison, ``suite`` the reference suite."""

from .compare import Comparison
from .run import Crosscheck, crosscheck

__all__ = ["Comparison", "Crosscheck", "crosscheck"]
