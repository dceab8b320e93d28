"""benches/compare_builds.py: the paired comparison of two bench builds (its statistics and its errors;
running real builds is `make bench` territory)."""

from __future__ import annotations

import importlib.util
import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType

SCRIPT = Path(__file__).resolve().parent.parent / "benches" / "compare_builds.py"


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("compare_builds", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_interval_of_the_median_brackets_it_and_collapses_on_equal_ratios() -> None:
    cb = load()
    rng = random.Random(3)
    assert cb.median_interval([1.02] * 9, rng) == (1.02, 1.02)
    ratios = [0.9, 0.95, 1.0, 1.0, 1.05, 1.1, 1.2]
    low, high = cb.median_interval(ratios, rng)
    assert min(ratios) <= low <= 1.0 <= high <= max(ratios)
    assert low < high


def test_bad_arguments_and_missing_binaries_are_one_line_errors() -> None:
    few = subprocess.run(
        [sys.executable, str(SCRIPT), "a", "b", "--pairs", "1"], capture_output=True, text=True
    )
    assert few.returncode == 2
    assert few.stderr.strip() == "compare_builds.py: --pairs must be at least 2"
    missing = subprocess.run(
        [sys.executable, str(SCRIPT), "/nonexistent/old", "/nonexistent/new", "--pairs", "2"],
        capture_output=True,
        text=True,
    )
    assert missing.returncode == 1
    assert len(missing.stderr.strip().splitlines()) == 1
    assert missing.stderr.startswith("compare_builds.py: a bench run failed:")
