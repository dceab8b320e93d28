"""Tables as files: CSV (what ``timeseries.csv`` is) and Parquet (when pyarrow is installed)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from ..files import atomic_write


def write_csv(df: pd.DataFrame, path: Path) -> None:
    """No index column, ten significant digits, ``\\n`` line ends on every platform."""
    atomic_write(path, lambda p: df.to_csv(p, index=False, float_format="%.10g", lineterminator="\n"))


def parquet_available() -> bool:
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        return False
    return True


def write_parquet(df: pd.DataFrame, path: Path) -> None:
    atomic_write(path, lambda p: df.to_parquet(p, index=False))
