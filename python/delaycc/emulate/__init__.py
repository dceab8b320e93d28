"""`delaycc emulate`: a scenario's dumbbell or chain built from network namespaces (tbf rates, pfifo
buffers, a user-space delay line on NFQUEUE) carrying real kernel TCP flows, measured into the same
outputs as the simulator's."""

from .errors import EmulationError, EmulationUnsupported
from .run import emulate

__all__ = ["EmulationError", "EmulationUnsupported", "emulate"]
