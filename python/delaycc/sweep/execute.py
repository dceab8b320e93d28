"""Running a sweep's points on a local process pool or a Dask cluster. Each finished run is written at
once to `runs/<run_id>.json` (atomically), so an interrupted sweep loses nothing finished and a re-run
skips it; a failing run is recorded with its error and does not stop the others.

On Dask, a point is a task keyed by its run id (deterministic: a second client asking for the same run
shares the task instead of running it again). A worker lost while running a point costs nothing but
time: the scheduler runs the point on another worker (up to its `allowed-failures`, then the point is
recorded as failed with Dask's KilledWorker and a re-run retries it). Losing the scheduler ends the
sweep with what finished saved; the same command, given a scheduler again, goes on from there."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import time
from collections.abc import Callable, Iterable
from concurrent.futures import CancelledError, Future, ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

from ..errors import ScenarioError, SimulationError
from ..files import atomic_write_text
from .points import Point
from .rows import flatten

DONE = ("ok", "invalid")  # a re-run skips these; "failed" runs are tried again

DASK_RETRIES = 2
"""Times Dask runs a point again when its task raises. `run_point` records a run's own failures, so
what raises is the machinery around it (a worker that cannot load the task, say); a worker that dies is
the scheduler's `allowed-failures`, not this."""


def unfinished(run_id: str, status: str, error: str | None) -> dict[str, Any]:
    """The record of a run that gave no results: invalid, or failed."""
    return {"run_id": run_id, "status": status, "error": error, "wall_s": 0.0, "row": {}}


def run_point(scenario: dict[str, Any], run_id: str, keep_dir: str | None) -> dict[str, Any]:
    """Runs one point and returns its record (never raises for a bad scenario or a failed run)."""
    from .. import api

    t0 = time.perf_counter()
    try:
        result = api.run(scenario)
    except ScenarioError as e:
        return unfinished(run_id, "invalid", " | ".join(e.errors))
    except Exception as e:  # the sweep records any failure of one point and goes on
        return unfinished(run_id, "failed", f"{type(e).__name__}: {e}")
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
            save_record(out, p, unfinished(p.run_id, "invalid", p.error))
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


def task_key(run_id: str, keep_dir: str | None) -> str:
    """The Dask key of a point's task: its run id, so a second client asking for the same run (a re-run
    while the first still holds it) gets the same task; with --keep-runs the folder is part of the key,
    since the task writes there."""
    if keep_dir is None:
        return f"delaycc-run-{run_id}"
    folder = hashlib.sha256(keep_dir.encode()).hexdigest()[:8]
    return f"delaycc-run-{run_id}-keep-{folder}"


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
    lost = 0
    try:
        futures: list[Any] = []
        points: dict[str, list[Point]] = {}
        for p in todo:
            key = task_key(p.run_id, keep_dir)
            if key not in points:
                points[key] = []
                futures.append(
                    client.submit(run_point, p.scenario, p.run_id, keep_dir, key=key, retries=DASK_RETRIES)
                )
            points[key].append(p)
        for fut in dask_completed(futures):  # type: ignore[no-untyped-call]
            try:
                rec = fut.result()
            except CancelledError:
                # The client lost the scheduler, which cancels every task it still waits for.
                lost += len(points[fut.key])
                continue
            except Exception as e:  # a task that erred: KilledWorker, or one the retries did not save
                if client.status != "running":
                    # The scheduler went away while this result was on its way (the error is then a
                    # closed connection, not the run's): the run is unfinished, not failed.
                    lost += len(points[fut.key])
                    continue
                rec = unfinished(points[fut.key][0].run_id, "failed", f"{type(e).__name__}: {e}")
            for p in points[fut.key]:
                save_record(out, p, rec)
                on_done()
    finally:
        if lost:
            # Closing cancels the client's attempts to reconnect, which it logs with a traceback; the
            # sweep says what happened in one line below.
            logging.getLogger("distributed.client").setLevel(logging.CRITICAL)
        client.close()  # type: ignore[no-untyped-call]
    if lost:
        raise SimulationError(
            f"lost the Dask scheduler at {address} with {lost} runs unfinished; finished runs are saved, "
            "run the same command again (with a scheduler) to continue"
        )
