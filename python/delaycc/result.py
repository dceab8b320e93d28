"""The result of one run: the summary dict and pandas views of it and of the time series."""

from __future__ import annotations

from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .output import write_outputs


class Result:
    """What ``delaycc.run`` returns.

    ``summary`` is the dict written to ``summary.json``; ``flows`` and ``links`` are its rows as DataFrames;
    ``timeseries`` is the long table ``time_s, kind, id, metric, value`` (built on first access, without a
    Python loop per sample).
    """

    def __init__(
        self,
        summary: dict[str, Any],
        times: np.ndarray,
        series: list[tuple[str, str, str]],
        values: np.ndarray,
    ) -> None:
        self.summary = summary
        self._times = times
        self._series = series
        self._values = values

    @property
    def partial(self) -> bool:
        """True when the run stopped early (Ctrl-C or a budget): the results cover ``simulated_s`` only."""
        return bool(self.summary.get("partial", False))

    @cached_property
    def flows(self) -> pd.DataFrame:
        nested = {"params", "stream_stats", "convergence_episodes"}
        rows = [{k: v for k, v in f.items() if k not in nested} for f in self.summary["flows"]]
        return pd.DataFrame(rows)

    @cached_property
    def streams(self) -> pd.DataFrame:
        """Per-stream delivery of multistream flows: one row per (flow, stream)."""
        rows = [{"flow": f["id"], **st} for f in self.summary["flows"] for st in f.get("stream_stats", [])]
        return pd.DataFrame(rows)

    @cached_property
    def convergence(self) -> pd.DataFrame:
        """Convergence after each fast recovery (P003's T = T_LF - T_PD): one row per episode."""
        rows = [
            {"flow": f["id"], **ep} for f in self.summary["flows"] for ep in f.get("convergence_episodes", [])
        ]
        return pd.DataFrame(rows)

    @cached_property
    def links(self) -> pd.DataFrame:
        return pd.DataFrame(self.summary["links"])

    @cached_property
    def fct(self) -> pd.DataFrame:
        """Flow completion times of the finite flows (``bytes`` set): one row per flow with ``fct_s``
        (NaN if it did not finish), ``ideal_fct_s`` (on an idle network) and ``slowdown``; empty when the
        scenario has no finite flow. The statistics (mean, p50, p99) are in ``summary["fct"]``."""
        rows = self.summary.get("fct", {}).get("flows", [])
        columns = ["id", "bytes", "fct_s", "ideal_fct_s", "slowdown"]
        return pd.DataFrame(rows, columns=columns).astype({"fct_s": float, "slowdown": float})

    @cached_property
    def traffic(self) -> pd.DataFrame:
        return pd.DataFrame(self.summary.get("traffic", []))

    @cached_property
    def timeseries(self) -> pd.DataFrame:
        n, k = len(self._times), len(self._series)
        codes = np.repeat(np.arange(k), n)

        def column(i: int) -> pd.Categorical[str]:
            labels = [s[i] for s in self._series]
            cats = list(dict.fromkeys(labels))
            index = {c: j for j, c in enumerate(cats)}
            per_series = np.array([index[x] for x in labels], dtype=np.int32)
            return pd.Categorical.from_codes(per_series[codes], categories=pd.Index(cats))

        return pd.DataFrame(
            {
                "time_s": np.tile(self._times, k),
                "kind": column(0),
                "id": column(1),
                "metric": column(2),
                "value": self._values,
            }
        )

    def series(self, kind: str, id: str, metric: str) -> pd.Series:
        """One time series as a pandas Series indexed by time (seconds)."""
        for i, (k, name, m) in enumerate(self._series):
            if (k, name, m) == (kind, id, metric):
                n = len(self._times)
                return pd.Series(self._values[i * n : (i + 1) * n], index=self._times, name=f"{id}.{metric}")
        raise KeyError(f"no series {kind} {id!r} {metric!r}")

    def wide(self, kind: str, metric: str) -> pd.DataFrame:
        """One metric for every object of a kind, one column per object, indexed by time."""
        cols = {
            name: self.series(kind, name, metric)
            for (k, name, m) in self._series
            if k == kind and m == metric
        }
        return pd.DataFrame(cols, index=self._times)

    def save(self, out_dir: str | Path, figures: bool = True) -> Path:
        """Writes summary.json, timeseries.csv/.parquet and figures/*.png into ``out_dir``."""
        return write_outputs(self, Path(out_dir), figures=figures)

    def __repr__(self) -> str:
        return f"<delaycc.Result {self.summary.get('scenario')!r}: {len(self.summary['flows'])} flows>"
