"""Errors of the ns-2 referee. Each message is one line a user can act on; the CLI exits with status 2."""

from __future__ import annotations


class Ns2Error(RuntimeError):
    """ns-2 is missing, lacks a module the scenario needs, crashed, hung or wrote no usable output."""


class Ns2Unsupported(ValueError):
    """The scenario uses what ns-2 cannot express; ``errors`` has one line per key (file: key: reason)."""

    def __init__(self, errors: list[str]) -> None:
        super().__init__("\n".join(errors))
        self.errors = errors
