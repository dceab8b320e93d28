"""What writing a run's outputs and drawing its figures read of its results. ``Result`` has all of it; the
writers (output/) and the figures (plots/) ask for no more, so they sit below ``result`` and ``Result.save``
can call them without an import cycle."""

from __future__ import annotations

from typing import Any, Protocol

import pandas as pd


class ResultLike(Protocol):
    summary: dict[str, Any]
    """The dict written to summary.json."""

    @property
    def timeseries(self) -> pd.DataFrame:
        """The long table ``time_s, kind, id, metric, value``."""
        ...

    def series(self, kind: str, id: str, metric: str) -> pd.Series:
        """One time series indexed by time (seconds); KeyError when the run has no such series."""
        ...
