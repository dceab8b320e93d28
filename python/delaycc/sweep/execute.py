"""Running a sweep's points on a local process pool or a Dask cluster. Each finished run is written at
once to `runs/<run_id>.json` (atomically), so an interrupted sweep loses nothing finished and a re-run
skips it; a failing run is recorded with its error and does not stop the others."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

from ..errors import ScenarioError, SimulationError
from ..files import atomic_write_text
from .points import Point
from .rows import flatten

DONE = ("ok", "invalid")  # a re-run skips these; "failed" runs are tried again


def run_point(scenario: dict[str, Any], run_id: str, keep_dir: str | None) -> dict[str, Any]:
    """Runs one point and returns its record (never raises for a bad scenario or a failed run)."""
    from .. import api

    t0 = time.perf_counter()
    try:
        result = api.run(scenario)
    except ScenarioError as e:
        return {
            "run_id": run_id,
            "status": "invalid",
            "error": " | ".join(e.errors),
            "wall_s": 0.0,
            "row": {},
        }
    except Exception as e:  # the sweep records any failure of one point and goes on
        return {
            "run_id": run_id,
            "status": "failed",
            "error": f"{type(e).__name__}: {e}",
            "wall_s": 0.0,
            "row": {},
        }
    if keep_dir:
        result.save(Path(keep_dir) / run_id)
    return {
        "run_id": run_id,
        "status": "ok",
        "error": None,
        "wall_s": time.perf_counter() - t0,
        "row": flatten(result.summary),
    }


def record_path(out: Path, run_id: str) -> Path:
    return out / "runs" / f"{run_id}.json"


def load_record(out: Path, run_id: str) -> dict[str, Any] | None:
    try:
        rec: dict[str, Any] = json.loads(record_path(out, run_id).read_text())
    except (FileNotFoundError, json.JSONDecodeError):
        return None
    return rec


def save_record(out: Path, point: Point, rec: dict[str, Any]) -> None:
    rec = {**rec, "point": point.index, "axes": point.values}
    text = json.dumps(rec, sort_keys=True, default=str, allow_nan=True)
    atomic_write_text(record_path(out, point.run_id), text)


def pending(points: Iterable[Point], out: Path) -> list[Point]:
    todo = []
    for p in points:
        rec = load_record(out, p.run_id)
        if rec is None or rec.get("status") not in DONE:
            todo.append(p)
    return todo


def execute(
    points: list[Point],
    out: Path,
    workers: int | None,
    dask: str | None,
    keep_runs: bool,
    on_done: Callable[[], None],
) -> None:
    (out / "runs").mkdir(parents=True, exist_ok=True)
    keep_dir = str(out / "runs") if keep_runs else None
    todo = []
    for p in points:
        if p.scenario is None:
            err: dict[str, Any] = {
                "run_id": p.run_id,
                "status": "invalid",
                "error": p.error,
                "wall_s": 0.0,
                "row": {},
            }
            save_record(out, p, err)
            on_done()
        else:
            todo.append(p)
    if dask:
        _execute_dask(todo, out, dask, keep_dir, on_done)
    else:
        _execute_local(todo, out, workers or os.cpu_count() or 1, keep_dir, on_done)


def _execute_local(
    todo: list[Point], out: Path, workers: int, keep_dir: str | None, on_done: Callable[[], None]
) -> None:
    if not todo:
        return
    pool = ProcessPoolExecutor(max_workers=min(workers, len(todo)))
    futures: dict[Future[dict[str, Any]], Point] = {}
    try:
        futures = {pool.submit(run_point, p.scenario or {}, p.run_id, keep_dir): p for p in todo}
        for fut in as_completed(futures):
            save_record(out, futures[fut], fut.result())
            on_done()
    except BrokenProcessPool:
        raise SimulationError(
            "a sweep worker died; finished runs are saved, run the same command again to continue"
        ) from None
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


def _execute_dask(
    todo: list[Point], out: Path, address: str, keep_dir: str | None, on_done: Callable[[], None]
) -> None:
    try:
        from dask.distributed import Client
        from dask.distributed import as_completed as dask_completed
    except ImportError:
        raise SimulationError("--dask needs dask.distributed: pip install 'dask[distributed]'") from None
    try:
        client = Client(address, timeout="10s")  # type: ignore[no-untyped-call]
    except OSError as e:
        raise SimulationError(f"cannot reach the Dask scheduler at {address}: {e}") from None
    try:
        futures = {client.submit(run_point, p.scenario, p.run_id, keep_dir, pure=False): p for p in todo}
        for fut in dask_completed(list(futures)):  # type: ignore[no-untyped-call]
            save_record(out, futures[fut], fut.result())
            on_done()
    finally:
        client.close()  # type: ignore[no-untyped-call]
