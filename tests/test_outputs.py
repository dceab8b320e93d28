"""Outputs: byte-identical for the same seed, written atomically, Parquet equal to CSV."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

import delaycc
from delaycc import plots

from conftest import SCENARIOS, run_cli


def without_wall_clock(path: Path) -> dict[str, object]:
    s: dict[str, object] = json.loads(path.read_text())
    s.pop("wall_s")
    return s


def test_same_file_and_seed_give_identical_outputs(tmp_path: Path) -> None:
    scenario = str(SCENARIOS / "reno-vs-newreno-loss.toml")
    for d in ("a", "b"):
        p = run_cli("run", scenario, "--out", str(tmp_path / d), "--no-figures", "--quiet")
        assert p.returncode == 0, p.stderr
    a, b = tmp_path / "a", tmp_path / "b"
    assert (a / "timeseries.csv").read_bytes() == (b / "timeseries.csv").read_bytes()
    assert without_wall_clock(a / "summary.json") == without_wall_clock(b / "summary.json")
    # Everything but the wall-clock line is byte-identical too.
    strip = [ln for ln in (a / "summary.json").read_text().splitlines() if '"wall_s"' not in ln]
    strip_b = [ln for ln in (b / "summary.json").read_text().splitlines() if '"wall_s"' not in ln]
    assert strip == strip_b


def test_a_different_seed_changes_the_outputs(tmp_path: Path) -> None:
    scenario = str(SCENARIOS / "reno-vs-newreno-loss.toml")
    run_cli("run", scenario, "--out", str(tmp_path / "a"), "--no-figures", "--quiet", "--seed", "1")
    run_cli("run", scenario, "--out", str(tmp_path / "b"), "--no-figures", "--quiet", "--seed", "2")
    assert (tmp_path / "a" / "timeseries.csv").read_bytes() != (
        tmp_path / "b" / "timeseries.csv"
    ).read_bytes()


def test_parquet_matches_csv(tmp_path: Path) -> None:
    r = delaycc.run(SCENARIOS / "cbr-overload.toml")
    r.save(tmp_path, figures=False)
    csv = pd.read_csv(tmp_path / "timeseries.csv")
    pq = pd.read_parquet(tmp_path / "timeseries.parquet")
    assert len(csv) == len(pq) == len(r.timeseries)
    pd.testing.assert_series_equal(csv["value"], pq["value"], check_exact=False, rtol=1e-9)


def test_a_failure_while_writing_leaves_no_summary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    r = delaycc.run(SCENARIOS / "cbr-overload.toml")
    r.save(tmp_path, figures=False)
    assert (tmp_path / "summary.json").exists()

    def broken(*_args: object, **_kw: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(plots, "write_figures", broken)
    with pytest.raises(OSError):
        r.save(tmp_path, figures=True)
    # The old summary was removed before rewriting, and no new one was written: the directory does not
    # look complete.
    assert not (tmp_path / "summary.json").exists()
    assert not list(tmp_path.rglob("*.tmp-*"))
