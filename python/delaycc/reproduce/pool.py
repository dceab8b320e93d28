"""Running an experiment's runs in parallel on a local process pool."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from .catalogue import REGISTRY
from .model import RunKey, RunResult
from .runs import run_one

Job = tuple[RunKey, str]
"""A run and the project root its scenario path is relative to. Only these cross into worker processes
(experiments hold functions, which do not pickle); workers look the experiment up by id."""


def run_job(job: Job) -> RunResult:
    key, root = job
    return run_one(REGISTRY[key.experiment], key, Path(root))


def run_all(
    jobs: Iterable[Any],
    workers: int | None = None,
    on_done: Callable[[RunResult], None] | None = None,
    worker: Callable[[Any], RunResult] = run_job,
) -> list[RunResult]:
    """Runs every job (`worker(job)`, a module-level function) on a local process pool (all cores by
    default) and returns results in job order; a job's first element, or its `key`, is its RunKey."""
    jobs = list(jobs)
    workers = workers or os.cpu_count() or 1
    results: dict[RunKey, RunResult] = {}
    if workers <= 1 or len(jobs) <= 1:
        for job in jobs:
            r = worker(job)
            results[r.key] = r
            if on_done:
                on_done(r)
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(worker, job) for job in jobs]
            for fut in as_completed(futures):
                r = fut.result()
                results[r.key] = r
                if on_done:
                    on_done(r)
    return [results[job.key if hasattr(job, "key") else job[0]] for job in jobs]
