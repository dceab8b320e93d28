"""Smoothing a sampled series for a figure."""

from __future__ import annotations

import numpy as np
import pandas as pd


def rolling_mean(values: np.ndarray, times: np.ndarray, seconds: float) -> np.ndarray:
    """The mean over the last ``seconds`` (at least one sample; shorter at the start), on a regular grid."""
    if len(times) < 2 or seconds <= 0:
        return values
    window = max(1, round(seconds / float(times[1] - times[0])))
    return pd.Series(values).rolling(window, min_periods=1).mean().to_numpy()
