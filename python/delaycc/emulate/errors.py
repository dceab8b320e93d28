"""Errors of the emulation harness."""

from __future__ import annotations

from ..kernel.errors import KernelError


class EmulationError(KernelError):
    """The emulation could not be set up or run (the message says what and why)."""


class EmulationUnsupported(ValueError):
    """The scenario uses features the emulation cannot build; ``errors`` has one line per feature."""

    def __init__(self, errors: list[str]) -> None:
        super().__init__("\n".join(errors))
        self.errors = errors
