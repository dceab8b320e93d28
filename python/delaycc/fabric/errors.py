"""The one error the generator raises: bad input, naming the option it came from."""

from __future__ import annotations


class FabricError(ValueError):
    """A value the generator cannot build a fabric from; ``option`` names the command-line option."""

    def __init__(self, option: str, reason: str) -> None:
        super().__init__(f"{option}: {reason}")
        self.option = option
        self.reason = reason
