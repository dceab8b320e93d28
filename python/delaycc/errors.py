"""Exceptions raised by delaycc. Every one carries a message a user can act on."""


class ScenarioError(ValueError):
    """The scenario is invalid. ``errors`` holds one line per problem: ``file[:line]: key.path: reason``."""

    def __init__(self, errors: list[str]) -> None:
        self.errors = list(errors)
        super().__init__("\n".join(self.errors))


class SimulationError(RuntimeError):
    """The simulation failed while running (an internal error, not a problem with the scenario)."""
