"""Exceptions raised by delaycc. Every one carries a message a user can act on."""

from __future__ import annotations

from .result import Result


class ScenarioError(ValueError):
    """The scenario is invalid. ``errors`` holds one line per problem: ``file[:line]: key.path: reason``."""

    def __init__(self, errors: list[str]) -> None:
        self.errors = list(errors)
        super().__init__("\n".join(self.errors))

    def __reduce__(self) -> tuple[type[ScenarioError], tuple[list[str]]]:
        # Crossing into another process (a reproduce or sweep worker's error) rebuilds it from its lines,
        # not from its message, which the default would split into characters.
        return (type(self), (self.errors,))


class SimulationError(RuntimeError):
    """The simulation failed while running (an internal error, not a problem with the scenario)."""


class BudgetExceeded(RuntimeError):
    """The run spent its event or memory budget (``max_events``/``max_memory``, or ``[limits]`` in the
    scenario) and stopped early. ``result`` holds the results so far (``result.partial`` is true);
    ``budget`` is ``"max_events"`` or ``"max_memory"``; the message is one line naming it."""

    def __init__(self, result: Result) -> None:
        self.result = result
        self.budget: str = result.summary["stop_reason"]
        super().__init__(result.summary["stop_message"])


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C (or a KeyboardInterrupt raised by the progress callback) stopped the run. It is a
    KeyboardInterrupt, so code that does not care still stops; ``result`` holds the results so far."""

    def __init__(self, result: Result) -> None:
        self.result = result
        super().__init__(result.summary["stop_message"])
