"""A sweep on a real Dask cluster: a `dask scheduler` and `dask worker` processes on localhost, as a user
would start them. A worker killed mid-sweep costs nothing but time (its runs go to the other worker);
a scheduler killed mid-sweep ends the sweep with its finished runs saved, and the same command on a new
cluster finishes the rest. Re-running a finished sweep runs nothing again, and every point has one row."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pandas as pd

from conftest import ROOT

POINTS = 12

# Each run about 5 M events (a few tenths of a second), so a sweep of 12 on two workers lasts long enough
# to kill something in the middle of it.
BASE = """name = "dask"
duration = "100s"
[[links]]
a = "s"
b = "r"
bandwidth = "1Gbps"
delay = "1ms"
[[links]]
a = "r"
b = "d"
bandwidth = "100Mbps"
delay = "10ms"
buffer = 50
[[flows]]
algorithm = "fast"
src = "s"
dst = "d"
params = { alpha = 10 }
"""


def write_sweep(tmp: Path) -> Path:
    (tmp / "base.toml").write_text(BASE)
    f = tmp / "sweep.toml"
    axes = '"flows[0].params.alpha" = [10, 20, 40]\nseed = "1..4"\n'
    f.write_text(f'name = "d"\nbase = "base.toml"\n[axes]\n{axes}')
    return f


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Cluster:
    """A scheduler and workers, each a process of its own (`python -m dask ...`), logging into `tmp`."""

    def __init__(self, tmp: Path, workers: int) -> None:
        self.tmp = tmp
        self.address = f"tcp://127.0.0.1:{free_port()}"
        self.log = open(tmp / "cluster.log", "ab")  # noqa: SIM115 (closed in close())
        port = self.address.rsplit(":", 1)[1]
        self.scheduler = self._start("scheduler", "--host", "127.0.0.1", "--port", port, "--no-dashboard")
        self.workers = [
            self._start(
                "worker",
                self.address,
                "--nthreads",
                "1",
                "--no-nanny",
                "--no-dashboard",
                "--name",
                f"w{i}",
                "--local-directory",
                str(tmp / f"w{i}"),
            )
            for i in range(workers)
        ]
        self._wait_for(workers)

    def _start(self, *args: str) -> subprocess.Popen[bytes]:
        env = dict(os.environ, PYTHONWARNINGS="ignore")
        return subprocess.Popen(
            [sys.executable, "-m", "dask", *args], cwd=self.tmp, stdout=self.log, stderr=self.log, env=env
        )

    def _wait_for(self, workers: int) -> None:
        from dask.distributed import Client

        with Client(self.address, timeout="60s") as client:
            client.wait_for_workers(workers, timeout=60)

    def kill(self, proc: subprocess.Popen[bytes]) -> None:
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)

    def close(self) -> None:
        for p in [*self.workers, self.scheduler]:
            self.kill(p)
        self.log.close()


@contextmanager
def cluster(tmp: Path, workers: int) -> Iterator[Cluster]:
    c = Cluster(tmp, workers)
    try:
        yield c
    finally:
        c.close()


def sweep(f: Path, out: Path, address: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "delaycc", "sweep", str(f), "--out", str(out), "--dask", address],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ, PYTHONWARNINGS="ignore"),
    )


def records(out: Path) -> dict[str, int]:
    return {p.name: p.stat().st_mtime_ns for p in (out / "runs").glob("*.json")}


def wait_for_records(out: Path, n: int, proc: subprocess.Popen[str]) -> int:
    """Waits until `n` runs are recorded (or the sweep ends); returns how many are."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None and len(records(out)) < n:
        time.sleep(0.01)
    return len(records(out))


def assert_complete(out: Path) -> None:
    df = pd.read_parquet(out / "results.parquet")
    assert sorted(df["point"]) == list(range(POINTS)), "every point exactly once"
    assert df["run_id"].is_unique and (df["status"] == "ok").all(), df[["point", "status", "error"]]
    assert len(records(out)) == POINTS


def test_a_worker_killed_mid_sweep_costs_nothing_and_a_rerun_runs_nothing(tmp_path: Path) -> None:
    f = write_sweep(tmp_path)
    out = tmp_path / "out"
    with cluster(tmp_path, workers=2) as c:
        proc = sweep(f, out, c.address)
        done = wait_for_records(out, 2, proc)
        c.kill(c.workers[1])
        assert done < POINTS, "the worker was killed after the sweep had finished"
        stdout, stderr = proc.communicate(timeout=120)
        assert proc.returncode == 0, stderr
        assert stdout.strip() == f"{POINTS} runs ({POINTS} ok); results: {out}/results.parquet"
        assert_complete(out)
        before = records(out)
        again = sweep(f, out, c.address)
        stdout, stderr = again.communicate(timeout=120)
        assert again.returncode == 0, stderr
        assert f"{POINTS} runs ({POINTS} ok)" in stdout
    assert records(out) == before, "no finished run was run again"
    assert f'"skipped": {POINTS}' in (out / "sweep.json").read_text()
    assert_complete(out)


def test_a_sweep_whose_scheduler_dies_resumes_on_a_new_cluster(tmp_path: Path) -> None:
    f = write_sweep(tmp_path)
    out = tmp_path / "out"
    with cluster(tmp_path, workers=2) as c:
        proc = sweep(f, out, c.address)
        wait_for_records(out, 2, proc)
        c.kill(c.scheduler)
        stdout, stderr = proc.communicate(timeout=120)
    finished = records(out)
    assert 2 <= len(finished) < POINTS, f"killed with {len(finished)} of {POINTS} done"
    assert proc.returncode == 1, stderr
    assert stderr.strip().splitlines() == [
        f"delaycc: lost the Dask scheduler at {c.address} with {POINTS - len(finished)} runs unfinished; "
        "finished runs are saved, run the same command again (with a scheduler) to continue"
    ]
    # The same command on another cluster (another address) does the rest.
    with cluster(tmp_path, workers=1) as c2:
        resumed = sweep(f, out, c2.address)
        stdout, stderr = resumed.communicate(timeout=120)
    assert resumed.returncode == 0, stderr
    assert f"{POINTS} runs ({POINTS} ok)" in stdout
    after = records(out)
    assert all(after[name] == mtime for name, mtime in finished.items()), "finished runs were not re-run"
    assert f'"skipped": {len(finished)}' in (out / "sweep.json").read_text()
    assert_complete(out)
