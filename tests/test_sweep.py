"""Parameter sweeps: spec, local pool vs Dask, resume after a kill, failures recorded, plots."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

import delaycc
from delaycc.sweep import load
from delaycc.sweep.points import expand

from conftest import ROOT, run_cli

BASE = """
name = "tiny"
duration = "{duration}"
[[links]]
a = "s"
b = "r"
bandwidth = "100Mbps"
delay = "1ms"
[[links]]
id = "bn"
a = "r"
b = "d"
bandwidth = "10Mbps"
delay = "10ms"
buffer = 50
loss = 0.001
[[flows]]
id = "f"
algorithm = "fast"
src = "s"
dst = "d"
params = {{ alpha = 10 }}
"""


def write_sweep(tmp: Path, axes: str, duration: str = "2s", extra: str = "") -> Path:
    (tmp / "base.toml").write_text(BASE.format(duration=duration))
    f = tmp / "sweep.toml"
    f.write_text(f'name = "t"\nbase = "base.toml"\n{extra}\n[axes]\n{axes}\n')
    return f


def test_grid_zip_and_ranges(tmp_path: Path) -> None:
    grid = load(write_sweep(tmp_path, '"flows[0].params.alpha" = [5, 10, 20]\nseed = "1..4"'))
    assert len(expand(grid)) == 12
    zipped = load(
        write_sweep(tmp_path, '"flows[0].params.alpha" = [5, 10]\nseed = [7, 8]', extra='mode = "zip"')
    )
    pts = expand(zipped)
    assert [p.values for p in pts] == [
        {"flows[0].params.alpha": 5, "seed": 7},
        {"flows[0].params.alpha": 10, "seed": 8},
    ]
    assert len({p.run_id for p in pts}) == 2


def test_bad_sweep_files_are_reported_by_key(tmp_path: Path) -> None:
    f = write_sweep(
        tmp_path,
        '"flows[0].params.alpha" = [5, 10]\nseed = [1]\n"links[x" = [1]',
        extra='mode = "zip"\ncolour = 1',
    )
    with pytest.raises(delaycc.ScenarioError) as e:
        load(f)
    text = "\n".join(e.value.errors)
    assert f"{f}: colour: unknown key" in text
    assert f"{f}: axes.links[x: 'links[x' is not a key path" in text
    assert f"{f}: axes: zip mode needs axes of equal length" in text
    assert all(line.startswith(str(f)) for line in e.value.errors)


def test_an_invalid_point_is_recorded_with_its_validation_message(tmp_path: Path) -> None:
    f = write_sweep(tmp_path, '"links[1].bandwidth" = ["5Mbps", "5Mbs"]\n"links[7].delay" = ["1ms"]')
    df = delaycc.sweep(f, tmp_path / "out", workers=1, progress=False)
    assert list(df["status"]) == ["invalid", "invalid"]
    assert "axes.links[7].delay: 'links' has only 2 elements" in df["error"][0]
    f2 = write_sweep(tmp_path, '"links[1].bandwidth" = ["5Mbps", "5Mbs"]')
    df2 = delaycc.sweep(f2, tmp_path / "out2", workers=1, progress=False)
    assert list(df2["status"]) == ["ok", "invalid"]
    assert df2["error"][1] == "<dict>: links[1].bandwidth: '5Mbs' is not a rate; use e.g. '100Mbps'"
    assert df2["total_throughput_bps"][0] > 4e6


def _comparable(df: pd.DataFrame) -> pd.DataFrame:
    return df.drop(columns=["wall_s"]).sort_values("point").reset_index(drop=True)


def test_dask_cluster_gives_the_same_table_as_the_local_pool(tmp_path: Path) -> None:
    from dask.distributed import LocalCluster

    f = write_sweep(tmp_path, '"flows[0].algorithm" = ["fast", "vfast", "rrfast"]\nseed = "1..2"')
    local = delaycc.sweep(f, tmp_path / "local", workers=2, progress=False)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        remote = delaycc.sweep(f, tmp_path / "dask", dask=cluster.scheduler_address, progress=False)
    assert (local["status"] == "ok").all()
    pd.testing.assert_frame_equal(_comparable(local), _comparable(remote))
    assert pd.read_parquet(tmp_path / "dask" / "results.parquet").shape == remote.shape


def test_killing_a_sweep_half_way_loses_nothing_and_the_rerun_finishes_the_rest(tmp_path: Path) -> None:
    f = write_sweep(tmp_path, '"flows[0].params.alpha" = [4, 8, 16, 32]\nseed = "1..5"', duration="6s")
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", "delaycc", "sweep", str(f), "--out", str(out), "--workers", "2", "--quiet"]
    proc = subprocess.Popen(
        cmd, cwd=ROOT, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    runs = out / "runs"
    deadline = time.time() + 120
    while time.time() < deadline and len(list(runs.glob("*.json"))) < 6:
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    finished = {p.name: p.stat().st_mtime_ns for p in runs.glob("*.json")}
    assert 6 <= len(finished) < 20, f"killed with {len(finished)} of 20 done"
    # A record is written to a temporary name and renamed: every *.json present is complete.
    for rec in runs.glob("*.json"):
        assert rec.read_text().endswith("}")
    p = run_cli("sweep", str(f), "--out", str(out), "--workers", "2")
    assert p.returncode == 0, p.stderr
    assert "20 runs (20 ok)" in p.stdout
    after = {q.name: q.stat().st_mtime_ns for q in runs.glob("*.json")}
    assert len(after) == 20
    assert all(after[name] == mtime for name, mtime in finished.items()), "finished runs were not re-run"
    meta = (out / "sweep.json").read_text()
    assert f'"skipped": {len(finished)}' in meta


def test_plot_sweep_draws_the_first_figure(tmp_path: Path) -> None:
    f = write_sweep(
        tmp_path, '"flows[*].algorithm" = ["fast", "vegas"]\n"flows[*].params" = [{}]\nseed = "1..2"'
    )
    delaycc.sweep(f, tmp_path / "o", workers=2, progress=False)
    p = run_cli("plot-sweep", str(tmp_path / "o"), "--x", "seed", "--y", "throughput", "--hue", "algorithm")
    assert p.returncode == 0, p.stderr
    png = Path(p.stdout.strip())
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    bad = run_cli("plot-sweep", str(tmp_path / "o"), "--x", "seed", "--y", "nonsense")
    assert bad.returncode == 2 and "no column matches 'nonsense'" in bad.stderr
